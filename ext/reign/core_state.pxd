# cython: language_level=3
# The layout of Reign of War's core (ext/reign/_reign_core.pyx), field by field.
#
# Everything a game is lives in one flat `State` (fixed-size arrays only, no pointers), so `clone()`
# is one memcpy. The card set is compiled once into `Tables` (constant while a game runs) and shared
# by pointer. Undo is the trail of ext/common/omen_trail.pxd: every apply logs the whole header
# (the scalar fields from `pending` to `rng`, written freely afterwards) and each array byte before
# it is written.
#
# Units are indexed 0..T-1 (card-file order), reward cards 0..R-1, feats 0..5. An effect list
# ("program") is named by one number: unit t's ability is program t, reward card r's is MAX_T + r.

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    MAX_T = 50            # unit designs (cards.MAX_UNIT_DESIGNS)
    MAX_CARDS = 174       # unit cards in the box (cards.MAX_UNIT_CARDS): the most a deck or pile holds
    MAX_R = 12            # reward card designs (cards.REWARD_CARDS copies in all)
    NREWARDS = 12         # reward cards dealt, 4 to each city (rules.REWARDS_PER_CITY)
    NFEATS = 6            # cards.FEATS
    NCITIES = 3
    MAX_EFFECTS = 16      # effects of one ability (cards.MAX_EFFECTS)
    MAX_PROGS = 62        # MAX_T unit abilities, then MAX_R reward cards
    DRAFT_MAX = 20        # Card Drafting: stacks one player may take (2 * rules.DRAFT_STACKS at most)
    MAX_STACK = 64        # frames: one base ability, at most MAX_CHAIN Soldiers, a Beast marker and one
                          # resumed pick per frame (about 20); the rest is room to spare
    MAX_MOVES = 1024      # legal moves of one decision (the card loader's limits bound it below this)
    MAX_STAT = 31         # a unit's cost, strength or offering at most (cards.MAX_STAT)

# One effect of an ability, compiled (cards.Effect).
cdef struct Effect:
    uint8_t op            # OP_* (codes.pxi)
    uint8_t n
    uint8_t take
    uint8_t side          # 0 own, 1 opposing
    uint8_t this_city     # where = "this_city"
    uint8_t filter        # FILTER_*: 0 any, else a unit type (TY_*)
    uint8_t out_of_city   # mode = "out_of_this_city"
    uint8_t to_city       # to = "this_city"
    uint8_t up_to

# The card set, compiled.
cdef struct Tables:
    int T                             # unit designs
    int R                             # reward card designs
    uint8_t type[MAX_T]               # TY_SOLDIER, TY_BEAST, TY_ORACLE
    uint8_t size[MAX_T]               # 2 for a Beast, else 1 (R-beast-1)
    uint8_t cost[MAX_T]
    uint8_t strength[MAX_T]
    uint8_t offering[MAX_T]
    uint8_t copies[MAX_T]             # 0 for a design the card set leaves out (CardSet.without, D-ablate-1)
    uint8_t dealt[MAX_T]              # copies the full set's deal shuffles (CardSet.dealt_copies): more
                                      # than `copies` for a design left out, whose cards are then taken out
    uint8_t beginner[MAX_T]           # one circle (R-var-1)
    uint8_t left_out                  # 1 if a design has no copies (dealt, then taken out: D-ablate-1)
    uint8_t reward_copies[MAX_R]
    uint8_t feat_kind[NFEATS]         # COND_*
    uint8_t feat_filter[NFEATS]
    uint8_t feat_n[NFEATS]
    uint8_t prog_len[MAX_PROGS]
    Effect code[MAX_PROGS][MAX_EFFECTS]
    uint64_t type_set[4]              # sets of designs (bit t: design t): [0] every design, [TY_*] those of
                                      # the type; indexed by a filter, the face-up units it passes
    uint64_t affordable[MAX_STAT + 1] # the designs whose cost is at most k coins (more coins: [MAX_STAT])

# A decision waiting for a move (rules.Pending); kind DK_NONE means none.
cdef struct Decision:
    uint8_t kind          # DK_*: 1 + index into rules.DECISIONS
    int8_t player
    int8_t owner          # -1: none
    uint8_t n
    int16_t last          # the previous pick's key
    int8_t city           # -1: none
    int8_t index          # the effect of `prog` being resolved, -1: none
    int16_t prog          # -1: none (ref ())

# A stack entry: FR_EFFECTS (d.prog, d.index: the next effect, d.owner, d.city), FR_RESUME (d: the
# decision to take up again) or FR_BEAST (the Beast discarded for its ability goes to the pile).
cdef struct Frame:
    uint8_t kind
    Decision d

# A game's configuration (rules.Config); constant while a game runs.
cdef struct Setup:
    uint8_t first_player
    uint8_t emissary
    uint8_t beginner
    uint8_t deck                      # DECK_*: index into rules.DECKS
    uint8_t catch_up
    uint16_t max_turns
    uint8_t coin_supply               # the table's coins (R-comp-4; rules.COIN_SUPPLY keeps it in 8 bits)
    uint8_t lists[2][MAX_T]           # Deck Building and given decks: each seat's cards, copies per design

cdef struct State:
    # -- the header: logged whole by every apply
    Decision pending
    uint32_t ply
    uint16_t turn
    uint8_t phase                     # PH_*: index into rules.PHASES
    uint8_t active
    uint8_t first_turn
    uint8_t reward_used
    int8_t war_city
    int8_t war_victor
    uint8_t keep_step
    int8_t beast                      # the Beast discarded for its ability while it resolves, -1 none
    uint8_t coins[2]
    uint8_t pot                       # Card Drafting's coins in the middle
    uint8_t hand_discards[2]          # unit cards discarded from each hand this turn (R-card-12)
    uint8_t beast_abilities           # Beasts discarded for their abilities this turn
    int8_t emissaries[2]              # -1: none put forward
    int8_t chosen[2]                  # Simplified Drafting: this step's face-down picks, -1 none
    uint8_t draft_picks
    uint8_t deck_n[2]                 # cards in decks[p] (shared deck: decks[0])
    uint8_t discard_n[2]
    uint8_t pool_n
    uint8_t drafted_n[2]
    uint8_t city_rewards_n[NCITIES]
    uint8_t stack_n
    int8_t city_rewards[NCITIES][4]   # each city's reward stack, top at the end
    uint8_t rewards_hand[2][MAX_R]    # reward cards in hand, copies per design (the list is sorted ids)
    uint8_t rewards_used[2][MAX_R]
    uint8_t feats[2][NFEATS]          # done (face down)
    uint16_t side_n[NCITIES][2]       # running total of side_count(city, p): units on each side, Beasts and
                                      # Enraged units counting 2 (R-beast-1); kept by every write to `cities`
                                      # and `enraged` (add_unit), restored by undo with the header, recounted
                                      # by from_state; totals_ok (tests) checks it against a recount
    uint64_t rng[4]                   # xoshiro256** (omen_search.rng): the last field of the header
    # -- sets of designs kept beside their counts (bit t: a nonzero count of design t), written with
    # them (hand_add, add_unit, the bulk writes), logged for undo when a bit changes, recounted by
    # from_state and determinisation; totals_ok (tests) checks them against the counts
    uint64_t hand_set[2]              # of hands
    uint64_t side_set[NCITIES][2][2]  # of each side: [city][p][0] cities (face up), [1] enraged
    # -- zones: lists keep the top at the end; multisets are counts per unit
    Frame stack[MAX_STACK]
    uint8_t decks[2][MAX_CARDS]
    uint8_t discards[2][MAX_CARDS]
    uint8_t pool[MAX_CARDS]           # Card Drafting: stacks left (design ids); Simplified: undealt cards
    uint8_t drafted[2][DRAFT_MAX]     # Card Drafting: stacks taken, in pick order
    uint8_t hands[2][MAX_T]
    uint8_t known[2][MAX_T]           # hand cards the opponent knows about (R-hidden-1, D-known-1)
    uint8_t cities[NCITIES][2][MAX_T]   # face-up units
    uint8_t enraged[NCITIES][2][MAX_T]  # Enraged units (R-enrage-*)
    uint8_t revealed[MAX_T]           # revealed by an ability, awaiting the choice (R-card-4)
    uint8_t limbo[MAX_T]              # a side's units awaiting the keep decision after a war
    uint8_t limbo_enraged[MAX_T]
    uint8_t portent_left[NCITIES][MAX_T]  # the active player's Oracles still to resolve
    uint8_t packs[2][MAX_T]           # Simplified Drafting: the pack each player holds
    uint8_t deck_lists[2][MAX_T]      # own decks: every card each player's deck holds (R-own-1)
    uint8_t deck_known[2][MAX_T]      # own decks: what the opponent knows of each list (R-sdraft-3)
    Setup cfg
