# The layout of a core built on ext/heir/*.pxi, field by field: the sizes (MAX_T, NCARDS, ...) and the
# TablesMore and StateMore structs come from the including core_state.pxd.

# The card set, compiled. Units are indexed 0..T-1 in file order; gods 0 anubis, 1 horus;
# devotion 0 anubis, 1 horus, 2 both, 3 neutral.
cdef struct Tables:
    int T
    uint8_t cost[MAX_T]
    uint8_t strength[MAX_T]
    uint8_t offering[MAX_T]
    uint8_t size[MAX_T]             # 2 for COLOSSAL
    uint8_t colossal[MAX_T]         # 0xFF for COLOSSAL, else 0 (a byte mask)
    uint64_t colossal_set           # bit t set for the COLOSSAL units
    uint8_t devotion[MAX_T]
    uint8_t treasured[MAX_T]
    uint8_t enduring[MAX_T]
    uint8_t invocation[MAX_T]       # has an INVOCATION ability
    uint8_t maneuver[MAX_T]         # MANEUVER N (0: none)
    uint8_t copies[MAX_T]
    uint8_t dealt[MAX_T]            # copies shuffled into the deck (more than `copies` for an ablated unit)
    uint8_t devoted[2][MAX_T]       # [god][unit]: devoted to that god (devotion god or both)
    uint8_t passes[NFILTERS][MAX_T]        # [filter][unit]: the unit passes the effect filter (FILTER_*)
    uint64_t filter_set[NFILTERS]          # [filter]: bit t set for the units that pass it
    uint64_t maneuver_set           # bit t set for the units with MANEUVER
    uint64_t devoted_set[2]         # [god]: bit t set for the units devoted to that god
    uint64_t reinforcer_set[2]      # [god]: bit t set for the units with REINFORCE devoted to that god
    uint8_t max_offering            # the largest OFFERING of the set
    int16_t prog_reinforce[MAX_T]   # -1: no such ability
    int16_t prog_invocation[MAX_T]
    int16_t prog_labor[MAX_T]
    int16_t prog_maneuver[MAX_T]    # synthetic: move n=maneuver mode=maneuver
    int16_t prog_built[MAX_T]       # synthetic: the built unit goes to the discard pile
    int16_t prog_reward[NTILES]
    int16_t prog_structure[2][3]    # [god][slot]: completed ability
    int16_t prog_reinforce_choice   # synthetic: the REINFORCE choice of H-surge-5
    uint8_t build[2][3]             # [god][slot]
    uint8_t vp[2][3]
    int n_tiles
    int16_t prog_start[MAX_PROGS]
    int16_t prog_len[MAX_PROGS]
    Instr code[MAX_CODE]
    TablesMore more                 # what a core built on these files adds (core_state.pxd)

cdef struct State:
    # zones: multisets are count arrays indexed by unit; lists keep the top at the end
    uint8_t deck[NCARDS]
    uint8_t deck_n
    uint8_t discard[NCARDS]
    uint8_t discard_n
    uint8_t hands[2][MAX_T]
    uint8_t known[2][MAX_T]          # copies publicly known to be in the hand (D-known-1)
    uint8_t cities[NCITIES][2][MAX_T]
    uint8_t under[2][MAX_T]          # face down beneath the structure being built
    uint8_t revealed[MAX_T]          # revealed from a completed structure, awaiting the choice
    uint8_t limbo[MAX_T]             # a side's units awaiting the keep choice after a war
    uint8_t destroyed[2][MAX_T]      # ENDURING units destroyed in the current war
    uint8_t moved[NCITIES][MAX_T]    # the mover's units a pending MANEUVER/Sandstorm has moved, by
                                     # the city they went to (each moves once); all 0 otherwise
    int8_t city_tiles[NCITIES][3]
    uint8_t city_tiles_n[NCITIES]
    uint16_t unused[2]               # reward tiles won, face down (bit i: tile i)
    uint16_t used[2]                 # reward tiles used, face up
    int8_t building[2]               # slot being built, -1 none
    uint8_t completed[2][3]
    uint8_t coins[2]
    int8_t emissaries[2]
    # effects and decisions
    Frame stack[MAX_STACK]
    uint8_t stack_n
    Decision pending
    # turn
    uint8_t active
    uint16_t turn
    uint8_t first_turn
    uint8_t discount_used
    uint8_t reward_used
    uint8_t reveal_again_used
    int8_t war_city
    int8_t war_victor
    uint8_t keep_step
    uint32_t ply
    uint8_t favor                    # god index
    uint8_t phase                    # PH_* (index into rules.PHASES)
    uint64_t rng[4]                  # xoshiro256** (omen_search.rng)
    # configuration
    uint8_t gods[2]
    uint8_t first_player
    uint8_t emissary
    uint16_t max_turns
    uint8_t level                    # the solo game's difficulty (LEVEL_*), 0 in a two-player game
    uint8_t reserve                  # solo: the Corrupted Heir's coins beside its card
    StateMore more                   # what a core built on these files adds (core_state.pxd)

# A game's configuration as the core deals it (reference: state.Config; the API's `config`).
cdef struct Setup:
    uint8_t god0                     # god index of seat 0
    uint8_t first_player
    uint8_t emissary
    uint16_t max_turns
    uint8_t level                    # LEVEL_* (0: the two-player game)
