# ---------------------------------------------------------------------------------------- codes
# Every code is an index into a tuple of the rules vocabulary; the asserts below keep them equal.

cdef enum:
    OP_DRAW = 0
    OP_GAIN
    OP_DISCARD
    OP_OPP_DISCARDS
    OP_REVEAL_HAND_DISCARD
    OP_RECLAIM
    OP_MOVE
    OP_PLAY_FREE
    OP_ENRAGE
    OP_DESTROY
    OP_RETURN_UNIT
    OP_TAKE_COINS
    OP_REVEAL_TAKE

_OP_CODES = {
    "draw": OP_DRAW, "gain": OP_GAIN, "discard": OP_DISCARD, "opponent_discards": OP_OPP_DISCARDS,
    "reveal_hand_discard": OP_REVEAL_HAND_DISCARD, "reclaim": OP_RECLAIM, "move": OP_MOVE,
    "play_free": OP_PLAY_FREE, "enrage": OP_ENRAGE, "destroy": OP_DESTROY, "return_unit": OP_RETURN_UNIT,
    "take_coins": OP_TAKE_COINS, "reveal_take": OP_REVEAL_TAKE,
}
assert set(_OP_CODES) == set(_cards.OPS)

# unit types; a filter is 0 (any) or the type it asks for
cdef enum:
    TY_SOLDIER = 1
    TY_BEAST = 2
    TY_ORACLE = 3

_TYPES = {"soldier": TY_SOLDIER, "beast": TY_BEAST, "oracle": TY_ORACLE}
_FILTERS = {"any": 0, **_TYPES}
assert tuple(_FILTERS) == _cards.FILTERS

# feat conditions
cdef enum:
    COND_IN_EVERY_CITY = 0
    COND_UNITS_IN_ONE_CITY
    COND_OPPONENT_HAND_DISCARDS
    COND_BEAST_ABILITIES

assert tuple(_cards.CONDITIONS) == ("in_every_city", "units_in_one_city", "opponent_hand_discards",
                                    "beast_abilities")

# rules.DECKS
cdef enum:
    DECK_SHARED = 0
    DECK_SKILL
    DECK_DRAFT
    DECK_BUILD
    DECK_SDRAFT
    DECK_GIVEN

assert _rules.DECKS == ("shared", "skill", "draft", "build", "sdraft", "given")

# rules.PHASES
cdef enum:
    PH_DRAFT = 0
    PH_SDRAFT
    PH_EMISSARY
    PH_WEALTH
    PH_SURGE
    PH_PORTENT_START
    PH_PORTENT
    PH_FEAT
    PH_WAR
    PH_WAR_KEEP
    PH_OFFERING
    PH_END_CHECK
    PH_GAME_OVER

assert len(PHASES) == PH_GAME_OVER + 1 and PHASES[PH_GAME_OVER] == "game_over" and PHASES[PH_FEAT] == "feat"

# decision kinds: 1 + index into rules.DECISIONS (0: none)
cdef enum:
    DK_NONE = 0
    DK_DRAFT
    DK_SDRAFT
    DK_EMISSARY
    DK_WEALTH
    DK_SURGE
    DK_PORTENT
    DK_WAR
    DK_KEEP
    DK_DISCARD
    DK_TRASH
    DK_DESTROY
    DK_RETURN_UNIT
    DK_ENRAGE
    DK_MOVE
    DK_RECLAIM
    DK_REVEAL_TAKE
    DK_PLAY_FREE
    DK_OFFERING

DECISION_NAMES = (None,) + DECISIONS
assert len(DECISION_NAMES) == DK_OFFERING + 1 and DECISION_NAMES[DK_OFFERING] == "offering"
assert DECISION_NAMES[DK_REVEAL_TAKE] == "reveal_take" and DECISION_NAMES[DK_KEEP] == "keep"

# stack entries
cdef enum:
    FR_EFFECTS = 0
    FR_RESUME
    FR_BEAST

# verbs: index into notation.VERBS (the move encoding's field `verb`)
cdef enum:
    V_DRAFT = 0
    V_PICK
    V_EMISSARY
    V_WEALTH
    V_PLAY
    V_BEAST
    V_USE
    V_END
    V_ORACLE
    V_WAR
    V_KEEP
    V_DISCARD
    V_DESTROY
    V_RETURN
    V_ENRAGE
    V_MOVE
    V_TAKE
    V_OFFER
    V_PASS

assert tuple(VERBS).index("pass") == V_PASS and tuple(VERBS).index("move") == V_MOVE
assert tuple(VERBS).index("use") == V_USE and tuple(VERBS).index("offer") == V_OFFER

# the numbers of the table (rules.py)
cdef enum:
    CITY_LIMIT = 5
    START_HAND = 4
    START_COINS = 4
    REWARDS_PER_CITY = 4
    FEATS_TO_END = 5
    ENRAGED_STRENGTH = 4
    WINNER_KEEPS = 1
    LOSER_KEEPS = 2
    MAX_CHAIN = 8
    DEAL_ATTEMPTS = 64
    DRAFT_STACKS = 10
    DRAFT_COINS = 10
    SDRAFT_ROUNDS = 3
    SDRAFT_PACK = 10
    TRAIL_MARGIN = 4096   # trail records one apply can write, at the most, with room to spare

cdef uint8_t DRAFT_LIMIT[4]   # by type: the most stacks of it a drafter takes (R-draft-3)
DRAFT_LIMIT[0] = 0
for _kind, _most in _rules.DRAFT_LIMITS.items():
    DRAFT_LIMIT[_TYPES[_kind]] = _most

assert (_rules.CITY_LIMIT, _rules.START_HAND, _rules.START_COINS, _rules.REWARDS_PER_CITY,
        _rules.FEATS_TO_END, _rules.ENRAGED_STRENGTH, _rules.WINNER_KEEPS, _rules.LOSER_KEEPS, _rules.MAX_CHAIN,
        _rules.DEAL_ATTEMPTS, _rules.DRAFT_STACKS, _rules.DRAFT_COINS, _rules.SDRAFT_ROUNDS, _rules.SDRAFT_PACK) == (
        CITY_LIMIT, START_HAND, START_COINS, REWARDS_PER_CITY, FEATS_TO_END, ENRAGED_STRENGTH, WINNER_KEEPS,
        LOSER_KEEPS, MAX_CHAIN, DEAL_ATTEMPTS, DRAFT_STACKS, DRAFT_COINS, SDRAFT_ROUNDS, SDRAFT_PACK)
assert (_cards.MAX_UNIT_DESIGNS, _cards.MAX_UNIT_CARDS, _cards.REWARD_CARDS, _cards.FEATS, _cards.MAX_EFFECTS,
        _cards.MAX_STAT) == (MAX_T, MAX_CARDS, NREWARDS, NFEATS, MAX_EFFECTS, MAX_STAT)
assert _rules.CITIES == NCITIES and NREWARDS == NCITIES * REWARDS_PER_CITY and _rules.COIN_SUPPLY[1] <= 255
