# cython: language_level=3
# The sizes of the combined game's core (ext/combined/_combined_core.pyx: Heir to the Dunes with Reign
# of War units, C-…) and what it adds to Heir's tables and state. The layout is Heir's
# (ext/heir/core_records.pxi, ext/heir/core_structs.pxi), with TablesMore and StateMore below as its
# `more` fields. Every limit here is checked where a card set enters (CombinedTables), so a set the
# core cannot hold is refused with a CoreLimitError, never played differently.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from omen_trail cimport Trail  # the undo trail (ext/common/omen_trail.pxd)

cdef enum:
    MAX_T = 48          # unit designs: Heir's, the chosen Reign of War ones and their Enraged forms
    NCARDS = 50         # cards in the deck: Heir's 40 and up to 10 Reign of War cards (C-2)
    NTILES = 9          # reward tiles (Heir's only, C-10)
    NCITIES = 3
    MAX_STACK = 128     # effect frames: Heir's plays nested in up to MAX_CHAIN Soldier triggers
    MAX_CODE = 1024     # compiled effect instructions
    MAX_PROGS = 512     # compiled effect lists
    MAX_OPTIONS = 4     # branches of one "choose"
    MAX_MOVES = 1024    # legal moves of one decision
    NFILTERS = 8        # Heir's five effect filters and Reign of War's soldier, beast, oracle
    MAX_FEATS = 6       # feats of each player (reign cards.FEATS, R-comp-3)
    MAX_CHAIN = 8       # Soldier triggers resolving at once (reign rules.MAX_CHAIN, R-surge-7)
    MAX_RESUME = 9      # decisions waiting for a moved Soldier (one under each Soldier trigger, and one more)

include "../heir/core_records.pxi"

cdef struct TablesMore:
    uint8_t kind[MAX_T]              # KIND_*: an Heir unit, a Soldier, a Beast, an Oracle, an Enraged form
    uint8_t base[MAX_T]              # the card a unit is: an Enraged form's card, else itself (R-enrage-6)
    int8_t enraged[MAX_T]            # the Enraged form of a Soldier or Oracle, -1 none
    int16_t prog_ability[MAX_T]      # the Reign of War ability (("ability", t)), -1 none
    uint8_t soldier_prog[MAX_PROGS]  # 1: the program is a Soldier's ability (R-surge-7 counts them)
    uint64_t beast_set               # bit t set for the Beasts (not the Enraged forms)
    uint64_t enraged_set             # bit t set for the Enraged forms
    uint8_t n_feats                  # 0 with the feats off (C-4)
    uint8_t feat_kind[MAX_FEATS]     # FEAT_*
    uint8_t feat_n[MAX_FEATS]
    uint8_t feat_filter[MAX_FEATS]   # FILTER code of an in_every_city feat

cdef struct StateMore:
    uint8_t feats[2]                 # bit f: feat f of the seat is face down, done (R-feat-2)
    uint8_t hand_discards[2]         # unit cards discarded from each hand this turn (C-13)
    uint8_t beast_abilities          # Beasts discarded for their abilities this turn
    uint8_t resume_n                 # decisions waiting in resume[] (one resume frame each on the stack)
    uint8_t portent_left[NCITIES][MAX_T]   # the active player's Oracles still to resolve (D-combined-4)
    Decision resume[MAX_RESUME]      # a decision of several moves, waiting for a moved Soldier (R-surge-7)
    uint8_t resume_moved[MAX_RESUME][NCITIES][MAX_T]  # and the units its MANEUVER had moved (H-surge-7)

include "../heir/core_structs.pxi"
