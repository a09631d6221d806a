# ---------------------------------------------------------------------------------------- codes

cdef enum:
    OP_DRAW = 0
    OP_GAIN
    OP_DISCARD
    OP_OPP_DISCARDS
    OP_REVEAL_HAND_DISCARD
    OP_ENTOMB
    OP_RECLAIM
    OP_MOVE
    OP_DESTROY_ALL
    OP_STEAL_UNIT
    OP_PLAY_FREE
    OP_FAVOR
    OP_UNEARTH
    OP_CHOOSE
    OP_IF_FAVORED
    OP_REINFORCE_CHOICE
    OP_DISCARD_BUILT

_OP_CODES = {
    "draw": OP_DRAW, "gain": OP_GAIN, "discard": OP_DISCARD, "opponent_discards": OP_OPP_DISCARDS,
    "reveal_hand_discard": OP_REVEAL_HAND_DISCARD, "entomb": OP_ENTOMB, "reclaim": OP_RECLAIM,
    "move": OP_MOVE, "destroy_all": OP_DESTROY_ALL, "steal_unit": OP_STEAL_UNIT,
    "play_free": OP_PLAY_FREE, "favor": OP_FAVOR, "unearth": OP_UNEARTH, "choose": OP_CHOOSE,
    "if_favored": OP_IF_FAVORED, "reinforce_choice": OP_REINFORCE_CHOICE,
    "discard_built": OP_DISCARD_BUILT,
}
_FILTERS = {"any": 0, "neutral": 1, "anubis": 2, "horus": 3, "treasured": 4}
assert len(_FILTERS) <= NFILTERS

cdef enum:
    FILTER_NEUTRAL = 1  # _FILTERS["neutral"]

# phases: index into rules.PHASES
cdef enum:
    PH_EMISSARY = 0
    PH_WEALTH_REVEAL
    PH_WEALTH_AGAIN
    PH_WEALTH
    PH_SURGE_START
    PH_SURGE
    PH_WAR
    PH_WAR_KEEP
    PH_WAR_ENDURING
    PH_OFFERING
    PH_OFFERING_LIMITS
    PH_END_CHECK
    PH_GAME_OVER

assert PHASES[PH_GAME_OVER] == "game_over"

# decision kinds: 1 + index into rules.DECISIONS (0: none)
cdef enum:
    DK_NONE = 0
    DK_EMISSARY
    DK_REVEAL
    DK_WEALTH
    DK_SURGE
    DK_REINFORCE
    DK_WAR
    DK_KEEP
    DK_ENDURING
    DK_DISCARD
    DK_TRASH
    DK_ENTOMB
    DK_STRUCTURE
    DK_RECLAIM
    DK_MOVE
    DK_STEAL
    DK_PLAY_FREE
    DK_UNEARTH
    DK_CHOOSE
    DK_OFFERING

DECISION_NAMES = ("",) + tuple(DECISIONS)
assert DECISION_NAMES[DK_OFFERING] == "offering"

# verbs: index into moves.VERBS
cdef enum:
    V_EMISSARY = 0
    V_REVEAL
    V_WEALTH
    V_PLAY
    V_USE
    V_END
    V_REINFORCE
    V_MOVE
    V_WAR
    V_KEEP
    V_ENDURING
    V_DISCARD
    V_CHOOSE
    V_ENTOMB
    V_STRUCTURE
    V_TAKE
    V_OFFER
    V_BUILD
    V_PASS

assert tuple(VERBS)[V_PASS] == "pass" and tuple(VERBS)[V_BUILD] == "build"

cdef enum:
    CAPACITY = 5
    HAND_LIMIT = 5
    COIN_LIMIT = 10
    COINS = 20
    START_HAND = 4
    START_COINS = 4
    CH = 1                # the Corrupted Heir's seat in the solo game (reference: state.CH)
    CH_COINS = 7
    OMEN_CITY = 0
    LEVEL_NOVICE = 1      # levels: 1 + index in rules.LEVELS
    TRAIL_MARGIN = 8192   # writes one move can make, at the most, with room to spare
    DEAL_ATTEMPTS = 64    # determinize: deals tried for an opponent part-way through a discard (rules.DEAL_ATTEMPTS)

assert DEAL_ATTEMPTS == _rules.DEAL_ATTEMPTS

