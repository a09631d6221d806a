# cython: language_level=3
# The layout of the core (ext/_core.pyx), field by field.
#
# The Cython core's data layout. Everything a game is lives in one flat `State` (fixed-size
# arrays only, no pointers), so `clone()` is one memcpy. The card set is compiled once into
# `Tables` (constant while a game runs) and shared by pointer. Undo is a trail of small records
# (`Trail`): every write to a State goes through a logging setter that remembers the old value.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from omen_trail cimport Trail  # the undo trail (ext/common/omen_trail.pxd); the core's marks[k] is its length before ply k's move

cdef enum:
    MAX_T = 48          # distinct unit designs (cards.MAX_UNIT_TYPES: the loader refuses more)
    NCARDS = 40         # cards in the deck (cards.DECK_SIZE)
    NTILES = 9          # reward tiles
    NCITIES = 3
    MAX_STACK = 32      # effect frames (cards.MAX_STACK: the loader refuses sets that could need more)
    MAX_CODE = 1024     # compiled effect instructions
    MAX_PROGS = 512     # compiled effect lists
    MAX_OPTIONS = 4     # branches of one "choose"
    MAX_MOVES = 1024    # legal moves of one decision

# An effect instruction (one Effect of the card data).
cdef struct Instr:
    uint8_t op          # OP_* (see _core.pyx)
    uint8_t n           # count
    uint8_t filter      # FILTER_*
    uint8_t side        # 0 own, 1 opposing
    uint8_t where       # 0 any city, 1 this city
    uint8_t up_to       # 1: "up to n" (may pass)
    uint8_t mode        # move: 0 any, 1 maneuver
    uint8_t draw_each   # destroy_all: cards drawn per unit destroyed
    uint8_t take        # unearth: cards that may be taken
    uint8_t steal_if    # opponent_discards: 0 none, 1 + god index
    int16_t then_prog   # program of "then" (steal_unit, if_favored), -1 none
    uint8_t n_options   # choose: number of branches
    int16_t option_prog[MAX_OPTIONS]

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
    uint8_t passes[5][MAX_T]        # [filter][unit]: the unit passes the effect filter (FILTER_*)
    uint64_t filter_set[5]          # [filter]: bit t set for the units that pass it
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

# An effect frame: instruction `pc` of program `prog`, resolving for `owner` in `city`.
cdef struct Frame:
    int16_t prog
    int16_t pc
    int8_t owner
    int8_t city

# A decision waiting for a move (reference: state.Pending). kind 0 means none.
cdef struct Decision:
    uint8_t kind        # DK_* (1-based index into rules.DECISIONS)
    int8_t player
    int8_t owner
    uint8_t n
    uint8_t last
    int8_t card
    int8_t city
    int16_t prog        # the effect being resolved (-1: none) ...
    int8_t index        # ... and its position in the program

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

# A game's configuration as the core deals it (reference: state.Config; the API's `config`).
cdef struct Setup:
    uint8_t god0                     # god index of seat 0
    uint8_t first_player
    uint8_t emissary
    uint16_t max_turns
    uint8_t level                    # LEVEL_* (0: the two-player game)
