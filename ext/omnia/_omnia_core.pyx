# cython: language_level=3
"""OMNIA's Cython core: the rules of ``omen_search.games.omnia.reference`` move for move on one
flat C struct, with an undo trail, and its side of the C contract with the search
(``ext/common/game_api.pxd``), one table per player count (2, 3, 4).

Same seed, same game: chance draws from the state's own xoshiro256** (``omen_rng``) with the same
calls in the same order as the reference (every shuffle is ``Rng.shuffle``). Every physical card
has the reference's id (``design[id]``, ``owner[id]``); every zone is a fixed-size array of ids with
its count, in the reference's order (decks top last). The reference's step queue (``todo``) is a
stack of fixed-size records here, its front on top; the Prime Flow is an array of items.

The limits (``MAX_IDS`` cards in a game, ``MAX_FLOW`` items on the Flow, ``MAX_STEPS`` steps,
``MAX_LIST`` defenders or triggers of one step, ``MAX_MOVES`` moves of one decision: only a damage
assignment can offer more, with an Atk and a Def of a thousand) are checked
where data comes in: a card set or a deal beyond them is refused with
:class:`~omen_search.errors.CoreLimitError`; a game that grows a Flow, a queue or a list beyond
them while it is played stops with ``overflow`` set, and the Python doors raise
:class:`~omen_search.errors.CoreLimitError` (the reference engine plays it).

Move ids (int32, >= 0), bit layout::

    bits  0-4   verb (the index of the verb in notation.VERBS)
    bits  5-12  card: a card design (its index in the card set)
    bits 13-20  slot: a place in a playfield or on the Flow, from 1
    bits 21-22  seat
    bit  23     zone: 0 hand, 1 discard
    (assign: bits 5-20 are the amount)
"""

from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memmove, memset

from game_api cimport GAME_HANDLE_NAME, HIDDEN_MOVE, MAX_PLAYERS, SEARCH_MAX_MOVES, GameApi, GameHandle
from omen_rng cimport rng_below, rng_next, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, Trail, trail_log, trail_reserve, trail_undo

from omen_search.errors import CoreLimitError, IllegalMoveError, NotationError, UsageError
from omen_search.games.omnia import cards as card_data
from omen_search.games.omnia import rules as omnia_rules
from omen_search.games.omnia.cards import OPS, TARGETS, TYPES, CardSet, default_cards
from omen_search.games.omnia.notation import VERBS, ZONES, Move
from omen_search.games.omnia.observe import observe
from omen_search.games.omnia.reference import AUTO_STEPS, Item, OmniaState, seat_flavors
from omen_search.games.omnia.rules import Config
from omen_search.rng import Rng

cdef enum:
    # the limits of the core (checked where a card set or a deal comes in)
    MAX_IDS = 250            # physical cards in a game (ids 0..249; NONE is 255)
    MAX_DESIGNS = 200        # card designs in a set (cards.MAX_CARDS)
    MAX_FLAVORS = 8          # flavors in a set (cards.MAX_FLAVORS)
    MAX_EFFECTS = 4          # effect operations of one text (cards.MAX_EFFECTS)
    MAX_FLOW = 64            # items on the Prime Flow at once
    MAX_STEPS = 48           # records in the step queue
    MAX_LIST = 16            # defenders of an attack, triggers of one Action phase
    MAX_MOVES = 1024         # legal moves of one decision (an Action phase lists at most 4 * MAX_IDS + 10)
    TRAIL_PER_MOVE = 16384   # trail records one apply may write (checked after each apply)
    HAND = 5                 # N-setup-5, N-draw-1
    START_LIFE = 20          # N-setup-6
    SHOP_ROW = 5
    NONE = 255               # no card, no seat, no target
    SEEN_WORDS = 4           # uint64 words of a bit per design (distinct)
    NEVER = 65535            # State.attacked, State.used: no turn (turns stay below it)
    OWNER = 254              # a gain_source of its owner's (controller's) flavor
    # card types (cards.TYPES order)
    TY_HERO = 0
    TY_ITEM = 1
    TY_EQUIPMENT = 2
    TY_SPELL = 3
    TY_SOURCE = 4
    # what a card aims at (cards.TARGETS order); NONE for nothing
    TG_COMBATANT = 0
    TG_HERO = 1
    TG_PLAYER = 2
    TG_OWN_HERO = 3
    TG_SELF = 4
    TG_FLOW = 5
    # effect operations (cards.OPS order)
    OP_GAIN_SOURCE = 0
    OP_DRAW = 1
    OP_DISCARD = 2
    OP_OPPONENTS_DISCARD = 3
    OP_DAMAGE = 4
    OP_DAMAGE_EACH = 5
    OP_DAMAGE_OPPONENTS = 6
    OP_LOSE_LIFE = 7
    OP_GAIN_LIFE = 8
    OP_DESTROY = 9
    OP_DESTROY_ALL = 10
    OP_PUMP = 11
    OP_WEAKEN = 12
    OP_UNBLOCKABLE = 13
    OP_CANCEL = 14
    OP_REMOVE = 15
    # verbs, in notation.VERBS order
    V_SOURCE = 0
    V_PLAY = 1
    V_PRIME = 2
    V_BUY = 3
    V_ACTIVATE = 4
    V_CAST = 5
    V_ATTACK = 6
    V_DEFEND = 7
    V_DONE = 8
    V_PLAYER = 9
    V_HERO = 10
    V_COUNTER = 11
    V_ASSIGN = 12
    V_DISCARD = 13
    V_REMOVE = 14
    V_ATTACH = 15
    V_TRIGGER = 16
    V_PASS = 17
    V_END = 18
    # the steps of the queue (reference names in STEP_NAMES); the first N_AUTO resolve by themselves
    S_TURN = 0
    S_WINDOW = 1
    S_PUT = 2
    S_RESOLVE = 3
    S_STRIKE = 4
    S_EFFECT = 5
    S_SETTLE = 6
    S_TO_DISCARD = 7
    S_CLEANUP = 8
    S_DRAW_PHASE = 9
    N_AUTO = 10
    S_PRIORITY = 10
    S_TRIGGER = 11
    S_PAY = 12
    S_COST = 13
    S_TARGET = 14
    S_DEFEND = 15
    S_ASSIGN = 16
    S_ATTACH = 17
    S_DISCARD = 18
    S_REMOVE = 19
    # item kinds
    K_PLAY = 0
    K_BUY = 1
    K_ATTACK = 2
    K_ACTIVATE = 3
    # target kinds of an item
    T_NONE = 0
    T_PLAYER = 1
    T_HERO = 2
    T_FLOW = 3
    # effect lists of a card
    E_TEXT = 0               # a spell's or a source card's effects
    E_ABILITY = 1
    E_TRIGGER = 2
    # phases
    PH_SETUP = 0
    PH_ACTION = 1
    PH_CLEANUP = 2
    PH_DRAW = 3
    PH_OVER = 4
    # per-card flags
    F_UNBLOCKABLE = 1

STEP_NAMES = ("turn", "window", "put", "resolve", "strike", "effect", "settle", "to_discard", "cleanup",
              "draw_phase", "priority", "trigger", "pay", "cost", "target", "defend", "assign", "attach",
              "discard", "remove")
KINDS = ("play", "buy", "attack", "activate")
PHASES = ("setup", "action", "cleanup", "draw", "over")
VERB_NAMES = tuple(VERBS)

ctypedef struct Eff:
    uint8_t op                # OP_*
    uint8_t n
    uint8_t flavor            # gain_source: a flavor index, OWNER

ctypedef struct CostRec:
    uint8_t generic
    uint8_t total
    uint8_t need[MAX_FLAVORS]  # flavored source by flavor index
    uint8_t n_need            # the flavors with a need, for the quick test of covers()
    uint8_t need_f[MAX_FLAVORS]

ctypedef struct Design:
    # one card design of the set
    uint8_t type              # TY_*
    uint8_t prime, stays
    uint8_t atk, defense, prestige
    uint8_t purchasable
    CostRec cost
    uint8_t target            # TG_*, NONE
    uint8_t target_def        # a destroy's Def limit, NONE
    uint8_t n_eff
    Eff eff[MAX_EFFECTS]
    uint8_t has_ability, once, ab_target
    CostRec ab_cost
    uint8_t n_ab
    Eff ab[MAX_EFFECTS]
    uint8_t eq_atk, eq_def, eq_unblockable
    uint8_t n_trig
    Eff trig[MAX_EFFECTS]

ctypedef struct Tables:
    # a card set, compiled once (shared by every state of the set, lent to the search)
    int n_designs
    int n_flavors
    Design d[MAX_DESIGNS]
    int min_cost              # the lowest total cost of a design for sale: a smaller pool buys nothing
    int n_basics              # each player's starting cards, as designs
    uint8_t basics[MAX_IDS]
    int n_deck[MAX_FLAVORS]   # each flavor's deck and source stack, as designs
    uint8_t deck[MAX_FLAVORS][MAX_IDS]
    int n_stack[MAX_FLAVORS]
    uint8_t stack[MAX_FLAVORS][MAX_IDS]

ctypedef struct Setup:
    # the set-up a handle lends the search (what api_new_game deals)
    int players
    int first_player          # NONE: drawn from the seed
    int max_turns
    uint8_t flavor[MAX_PLAYERS]

ctypedef struct FlowItem:
    # an action on the Prime Flow (reference.Item)
    uint32_t uid
    uint8_t kind              # K_*
    uint8_t player
    uint8_t card
    uint8_t tkind             # T_*
    uint32_t tval             # a seat, a card id or an item's uid
    uint8_t cast, cancelled
    uint8_t n_def
    uint8_t defenders[MAX_LIST]

ctypedef struct Step:
    # one record of the step queue (a reference step tuple)
    uint8_t kind              # S_*
    uint8_t player
    uint8_t a                 # PRIORITY: passes; DISCARD, REMOVE: cards left; TO_DISCARD, ATTACH: the card;
                              # STRIKE, ASSIGN: the attacker; EFFECT: the effect list (E_*)
    uint8_t b                 # STRIKE, ASSIGN: the defending player; EFFECT: the effect's index
    uint8_t n_list            # STRIKE, ASSIGN: defenders; DEFEND: chosen; TRIGGER: the cards left
    uint8_t n_given           # STRIKE, ASSIGN: amounts given
    uint8_t list[MAX_LIST]
    int32_t given[MAX_LIST]
    FlowItem it                   # PUT, PAY, TARGET, DEFEND: the item; EFFECT: card = the source, the target

ctypedef struct State:
    # every byte of a game, no pointers: a clone is a memcpy. Everything before `deck` is the hot
    # block, logged whole on the trail at each apply; the arrays from `deck` on are logged where
    # written.
    uint64_t rng[4]           # the game's generator (xoshiro256**)
    uint32_t ply              # moves played
    uint32_t uid              # the last item's uid
    uint16_t turns            # turns begun (D-omnia-1 judges at max_turns)
    uint16_t max_turns
    uint8_t n                 # players, 2..4
    uint8_t phase             # PH_*
    uint8_t active            # the seat whose turn it is
    uint8_t overflow          # a limit of the core was reached: the game stopped (see the module doc)
    uint8_t n_ids             # physical cards
    uint8_t n_flavors         # flavors of the card set (the pools' width)
    uint8_t flavor[MAX_PLAYERS]   # each seat's flavor index
    int32_t life[MAX_PLAYERS]
    uint16_t pool[MAX_PLAYERS][MAX_FLAVORS]
    uint8_t n_deck[MAX_PLAYERS]
    uint8_t n_hand[MAX_PLAYERS]
    uint8_t n_discard[MAX_PLAYERS]
    uint8_t n_field[MAX_PLAYERS]
    uint8_t n_primed[MAX_PLAYERS]
    uint8_t n_stack[MAX_PLAYERS]  # each seat's flavor's source stack
    uint8_t n_shop, n_row, n_removed, n_flow, n_todo
    # -- logged where written
    uint8_t deck[MAX_PLAYERS][MAX_IDS]     # top last
    uint8_t hand[MAX_PLAYERS][MAX_IDS]
    uint8_t discard[MAX_PLAYERS][MAX_IDS]
    uint8_t field[MAX_PLAYERS][MAX_IDS]    # in the order the cards entered
    uint8_t primed[MAX_PLAYERS][MAX_IDS]
    uint8_t stack[MAX_PLAYERS][MAX_IDS]    # top last
    uint8_t shop[MAX_IDS]                  # the Shop deck, top last
    uint8_t row[SHOP_ROW]
    uint8_t removed[MAX_IDS]
    uint8_t design[MAX_IDS]                # card id -> its design
    uint8_t owner[MAX_IDS]                 # NONE until bought
    uint8_t attached[MAX_IDS]              # an Equipment -> its hero, NONE
    uint8_t flags[MAX_IDS]                 # F_*
    uint16_t attacked[MAX_IDS]             # the turn (`turns`) in which the card last attacked: it
    uint16_t used[MAX_IDS]                 # has attacked (used its once-a-turn ability) this turn if
                                           # the number is this turn's (NEVER: not yet; so no pass
                                           # over the cards clears them when a turn begins)
    int32_t damage[MAX_IDS]
    int32_t pumped[MAX_IDS]                # Atk changes until end of turn
    FlowItem flow[MAX_FLOW]                    # bottom first
    Step todo[MAX_STEPS]                   # the front at todo[n_todo - 1]

ctypedef struct Ctx:
    const Tables* tb
    State* s
    Trail* tr
    Step spare                # where push_step writes once the queue is full (the game stopped)


# ------------------------------------------------------------------------------ moves and records

cdef inline int32_t mk(int verb, int card, int slot, int seat, int zone) noexcept nogil:
    return verb | (card << 5) | (slot << 13) | (seat << 21) | (zone << 23)

cdef inline int32_t mk_assign(int n) noexcept nogil:
    return V_ASSIGN | (n << 5)

cdef inline int m_verb(int32_t m) noexcept nogil:
    return m & 31

cdef inline int m_card(int32_t m) noexcept nogil:
    return (m >> 5) & 255

cdef inline int m_slot(int32_t m) noexcept nogil:
    return (m >> 13) & 255

cdef inline int m_seat(int32_t m) noexcept nogil:
    return (m >> 21) & 3

cdef inline int m_zone(int32_t m) noexcept nogil:
    return (m >> 23) & 1

cdef inline int m_n(int32_t m) noexcept nogil:
    return (m >> 5) & 65535

cdef inline FlowItem new_item0(int kind, int player, int card) noexcept nogil:
    cdef FlowItem it
    memset(&it, 0, sizeof(FlowItem))
    it.kind = kind
    it.player = player
    it.card = card
    return it

cdef inline Step mkstep(int kind, int player) noexcept nogil:
    cdef Step st
    memset(&st, 0, sizeof(Step))
    st.kind = kind
    st.player = player
    return st

cdef inline Step item_step(int kind, int player, const FlowItem* it) noexcept nogil:
    cdef Step st = mkstep(kind, player)
    st.it = it[0]
    return st

cdef inline void push(Ctx* x, const Step* steps, int n) noexcept nogil:
    """Put ``steps`` at the front of the queue, in order (the first one ends up in front)."""
    cdef State* s = x.s
    cdef int i
    if s.n_todo + n > MAX_STEPS:
        stop_over(s)
        return
    for i in range(n - 1, -1, -1):
        trail_log(x.tr, s, &s.todo[s.n_todo], sizeof(Step))
        s.todo[s.n_todo] = steps[i]
        s.n_todo += 1

cdef inline void push1(Ctx* x, Step st) noexcept nogil:
    push(x, &st, 1)

cdef inline Step* push_step(Ctx* x, int kind, int player) noexcept nogil:
    """A new step at the front of the queue, filled in place: its kind and player, ``a``, ``b`` and
    the two counts 0. The lists and the item keep what the slot held before (as deterministic as
    the rest of the state): a step that reads them fills them (push_item; DEFEND's list grows from
    its count). Beyond MAX_STEPS the game stops and the step goes to ``x.spare``, nowhere."""
    cdef State* s = x.s
    cdef Step* st
    if s.n_todo >= MAX_STEPS:
        stop_over(s)
        return &x.spare
    st = &s.todo[s.n_todo]
    trail_log(x.tr, s, st, sizeof(Step))
    st.kind = kind
    st.player = player
    st.a = 0
    st.b = 0
    st.n_list = 0
    st.n_given = 0
    s.n_todo += 1
    return st

cdef inline Step* push_item(Ctx* x, int kind, int player, const FlowItem* it) noexcept nogil:
    """push_step with an item (``it`` must not be in the queue's free slot, which this writes)."""
    cdef Step* st = push_step(x, kind, player)
    st.it = it[0]
    return st

cdef inline void stop_over(State* s) noexcept nogil:
    """A limit of the core reached: the game stops (the Python doors raise CoreLimitError)."""
    s.overflow = 1
    s.phase = PH_OVER


# ------------------------------------------------------------------------------ logged writes

cdef inline void set8(Ctx* x, uint8_t* p, int v) noexcept nogil:
    trail_log(x.tr, x.s, p, 1)
    p[0] = <uint8_t>v

cdef inline void set16(Ctx* x, uint16_t* p, int v) noexcept nogil:
    trail_log(x.tr, x.s, p, 2)
    p[0] = <uint16_t>v

cdef inline void set32(Ctx* x, int32_t* p, int v) noexcept nogil:
    trail_log(x.tr, x.s, p, 4)
    p[0] = v

cdef inline void append(Ctx* x, uint8_t* zone, uint8_t* n, int c) noexcept nogil:
    if n[0] >= MAX_IDS:  # cannot happen: a zone holds at most the game's cards
        stop_over(x.s)
        return
    set8(x, &zone[n[0]], c)
    n[0] += 1

cdef inline void remove_at(Ctx* x, uint8_t* zone, uint8_t* n, int i) noexcept nogil:
    if i < n[0] - 1:
        trail_log(x.tr, x.s, &zone[i], n[0] - 1 - i)
        memmove(&zone[i], &zone[i + 1], n[0] - 1 - i)
    n[0] -= 1

cdef inline int index_of(const uint8_t* zone, int n, int c) noexcept nogil:
    cdef int i
    for i in range(n):
        if zone[i] == c:
            return i
    return -1

cdef inline int first_of_design(const State* s, const uint8_t* zone, int n, int d) noexcept nogil:
    """The place of the first card of design ``d`` (copies are alike, D-omnia-6), -1."""
    cdef int i
    for i in range(n):
        if s.design[zone[i]] == d:
            return i
    return -1

cdef void shuffle(uint8_t* xs, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates from the end, as ``Rng.shuffle``."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = xs[i]
        xs[i] = xs[j]
        xs[j] = t

cdef inline void log_zone(Ctx* x, uint8_t* zone, int n) noexcept nogil:
    if n > 0:
        trail_log(x.tr, x.s, zone, n)


# ------------------------------------------------------------------------------ cards in play

cdef inline const Design* des(const Tables* tb, const State* s, int c) noexcept nogil:
    return &tb.d[s.design[c]]

cdef int controller(const State* s, int c) noexcept nogil:
    cdef int p
    for p in range(s.n):
        if index_of(s.field[p], s.n_field[p], c) >= 0:
            return p
    return -1

cdef inline bint is_hero(const Tables* tb, const State* s, int c) noexcept nogil:
    return tb.d[s.design[c]].type == TY_HERO

cdef int n_heroes(const Tables* tb, const State* s, int p) noexcept nogil:
    cdef int i, k = 0
    for i in range(s.n_field[p]):
        k += is_hero(tb, s, s.field[p][i])
    return k

cdef void equipment_bonus(const Tables* tb, const State* s, int hero, int* a, int* d, int* unblockable) noexcept nogil:
    """What the Equipment attached to ``hero`` gives it. Attached Equipment is in play (it leaves
    its hero when either leaves play), so the playfields are searched, not every card."""
    cdef int p, i, e
    cdef const Design* eq
    for p in range(s.n):
        for i in range(s.n_field[p]):
            e = s.field[p][i]
            if s.attached[e] == hero:
                eq = des(tb, s, e)
                a[0] += eq.eq_atk
                d[0] += eq.eq_def
                unblockable[0] |= eq.eq_unblockable

cdef int atk(const Tables* tb, const State* s, int hero) noexcept nogil:
    """Atk with Equipment and until-end-of-turn changes, never below 0."""
    cdef int v = des(tb, s, hero).atk + s.pumped[hero], d = 0, u = 0
    equipment_bonus(tb, s, hero, &v, &d, &u)
    return v if v > 0 else 0

cdef int defense(const Tables* tb, const State* s, int hero) noexcept nogil:
    cdef int a = 0, v = des(tb, s, hero).defense, u = 0
    equipment_bonus(tb, s, hero, &a, &v, &u)
    return v

cdef bint can_be_defended(const Tables* tb, const State* s, int hero) noexcept nogil:
    """N-card-4: Shadow Cloak and Night Blade's ability."""
    cdef int a = 0, d = 0, u = 0
    if s.flags[hero] & F_UNBLOCKABLE:
        return False
    equipment_bonus(tb, s, hero, &a, &d, &u)
    return not u

cdef inline int lethal(const Tables* tb, const State* s, int hero) noexcept nogil:
    cdef int v = defense(tb, s, hero) - s.damage[hero]
    return v if v > 0 else 0


# ------------------------------------------------------------------------------ zones

cdef void draw(Ctx* x, int p, int count) noexcept nogil:
    """N-deck-1: an empty deck is the discard stack shuffled; with both empty, fewer are drawn."""
    cdef State* s = x.s
    cdef int k
    for k in range(count):
        if s.n_deck[p] == 0 and s.n_discard[p] > 0:
            log_zone(x, s.deck[p], s.n_discard[p])
            memcpy(s.deck[p], s.discard[p], s.n_discard[p])
            s.n_deck[p] = s.n_discard[p]
            s.n_discard[p] = 0
            shuffle(s.deck[p], s.n_deck[p], s.rng)
        if s.n_deck[p] == 0:
            return
        s.n_deck[p] -= 1
        append(x, s.hand[p], &s.n_hand[p], s.deck[p][s.n_deck[p]])

cdef void refill(Ctx* x) noexcept nogil:
    """N-buy-2: the Shop Row is refilled at once from the Shop deck, never rebuilt."""
    cdef State* s = x.s
    while s.n_row < SHOP_ROW and s.n_shop > 0:
        s.n_shop -= 1
        set8(x, &s.row[s.n_row], s.shop[s.n_shop])
        s.n_row += 1

cdef inline void to_discard(Ctx* x, int c) noexcept nogil:
    cdef State* s = x.s
    cdef int p = s.owner[c]
    append(x, s.discard[p], &s.n_discard[p], c)

cdef inline void clear_marks(Ctx* x, int c) noexcept nogil:
    """Damage and the changes until end of turn off a card (it leaves play, or the turn ends):
    these marks are only ever on cards in play."""
    cdef State* s = x.s
    if s.damage[c]:
        set32(x, &s.damage[c], 0)
    if s.pumped[c]:
        set32(x, &s.pumped[c], 0)
    if s.flags[c] & F_UNBLOCKABLE:
        set8(x, &s.flags[c], s.flags[c] & ~F_UNBLOCKABLE)

cdef void leave_play(Ctx* x, int c) noexcept nogil:
    """A card leaves the playfield for its owner's discard stack; Equipment on a hero that leaves
    becomes unattached (N-play-2)."""
    cdef State* s = x.s
    cdef int holder = controller(s, c), e, p, i
    if holder < 0:
        return
    remove_at(x, s.field[holder], &s.n_field[holder], index_of(s.field[holder], s.n_field[holder], c))
    for p in range(s.n):  # its Equipment, in play (see equipment_bonus)
        for i in range(s.n_field[p]):
            e = s.field[p][i]
            if s.attached[e] == c:
                set8(x, &s.attached[e], NONE)
    if s.attached[c] != NONE:
        set8(x, &s.attached[c], NONE)
    clear_marks(x, c)
    to_discard(x, c)

cdef int take_from_hand(Ctx* x, int p, int d) noexcept nogil:
    """The first card of design ``d`` in a hand, taken out of it."""
    cdef State* s = x.s
    cdef int i = first_of_design(s, s.hand[p], s.n_hand[p], d), c
    c = s.hand[p][i]
    remove_at(x, s.hand[p], &s.n_hand[p], i)
    return c

cdef inline bint first_time(uint64_t* seen, int d) noexcept nogil:
    """Whether design ``d`` is new to ``seen`` (SEEN_WORDS words, a bit per design); marks it."""
    cdef uint64_t bit = (<uint64_t>1) << (d & 63)
    if seen[d >> 6] & bit:
        return False
    seen[d >> 6] |= bit
    return True

cdef int distinct(const State* s, const uint8_t* zone, int n, uint8_t* out) noexcept nogil:
    """The designs among ``zone``, each once, in first-seen order."""
    cdef int i, k = 0, d
    cdef uint64_t seen[SEEN_WORDS]
    memset(seen, 0, sizeof(seen))
    for i in range(n):
        d = s.design[zone[i]]
        if first_time(seen, d):
            out[k] = d
            k += 1
    return k


# ------------------------------------------------------------------------------ source

cdef int gains(const Tables* tb, const State* s, int c, int* pool) noexcept nogil:
    """Add what a source card adds to its owner's pool; Basic Source makes its owner's flavor
    (N-card-7). Returns the amount."""
    cdef const Design* d = des(tb, s, c)
    cdef int i, total = 0
    for i in range(d.n_eff):
        if d.eff[i].op == OP_GAIN_SOURCE:
            pool[s.flavor[s.owner[c]] if d.eff[i].flavor == OWNER else d.eff[i].flavor] += d.eff[i].n
            total += d.eff[i].n
    return total

cdef void gain_source(Ctx* x, int p, int c) noexcept nogil:
    cdef State* s = x.s
    cdef int pool[MAX_FLAVORS]
    cdef int f
    memset(pool, 0, sizeof(pool))
    gains(x.tb, s, c, pool)
    for f in range(s.n_flavors):
        s.pool[p][f] += pool[f]

cdef bint short_of(const int* pool, int nf, const CostRec* cost, uint8_t* flavors_short) noexcept nogil:
    """What a pool lacks for a cost: sets flavors_short[f]; returns whether the total is short."""
    cdef int f, total = 0
    for f in range(nf):
        flavors_short[f] = pool[f] < cost.need[f]
        total += pool[f]
    return total < cost.total

cdef int pool_of(const Tables* tb, const State* s, int p, bint with_hand, int* pool) noexcept nogil:
    """A player's pool (paying an Activate cost: with what every source card in hand adds) into
    ``pool``; its total."""
    cdef int f, i, c, total = 0
    for f in range(s.n_flavors):
        pool[f] = s.pool[p][f]
        total += pool[f]
    if with_hand:
        for i in range(s.n_hand[p]):
            c = s.hand[p][i]
            if des(tb, s, c).type == TY_SOURCE:
                total += gains(tb, s, c, pool)
    return total

cdef inline bint covers(const int* pool, int total, const CostRec* cost) noexcept nogil:
    """Whether a pool (see pool_of) pays ``cost``: its total, and each flavor it needs."""
    cdef int i, f
    if total < cost.total:
        return False
    for i in range(cost.n_need):
        f = cost.need_f[i]
        if pool[f] < cost.need[f]:
            return False
    return True

cdef void pay(Ctx* x, int p, const CostRec* cost) noexcept nogil:
    """Flavored source first; the rest from the flavor with the most left, the first on a tie (D-omnia-3)."""
    cdef State* s = x.s
    cdef int f, k, best
    for f in range(s.n_flavors):
        s.pool[p][f] -= cost.need[f]
    for k in range(cost.generic):
        best = 0
        for f in range(1, s.n_flavors):
            if s.pool[p][f] > s.pool[p][best]:
                best = f
        s.pool[p][best] -= 1


# ------------------------------------------------------------------------------ targets

cdef inline uint8_t aim(const Tables* tb, const State* s, int item_kind, int card, int* limit) noexcept nogil:
    """What an action of ``item_kind`` (K_*) with ``card`` aims at (TG_*, NONE), and a destroy's limit."""
    cdef const Design* d = des(tb, s, card)
    if item_kind == K_ACTIVATE:
        limit[0] = NONE
        return d.ab_target
    limit[0] = d.target_def
    return d.target

cdef int target_moves(const Tables* tb, const State* s, int p, int item_kind, int card,
                      int32_t* out) noexcept nogil:
    """The legal targets of a Play or Activate of ``card`` (N-play-3); ``out`` NULL: only count them."""
    cdef int limit, kind = aim(tb, s, item_kind, card, &limit), n = 0, i, q, h
    if kind == TG_FLOW:
        for i in range(s.n_flow):
            if (s.flow[i].kind == K_PLAY or s.flow[i].kind == K_ACTIVATE) and not s.flow[i].cancelled:
                if out != NULL:
                    out[n] = mk(V_COUNTER, s.design[s.flow[i].card], i + 1, 0, 0)
                n += 1
        return n
    if kind == TG_COMBATANT or kind == TG_PLAYER:
        for q in range(s.n):
            if out != NULL:
                out[n] = mk(V_PLAYER, 0, 0, q, 0)
            n += 1
    if kind == TG_COMBATANT or kind == TG_HERO or kind == TG_OWN_HERO:
        for q in range(s.n):
            if kind == TG_OWN_HERO and q != p:
                continue
            for i in range(s.n_field[q]):
                h = s.field[q][i]
                if is_hero(tb, s, h) and (limit == NONE or defense(tb, s, h) <= limit):
                    if out != NULL:
                        out[n] = mk(V_HERO, s.design[h], i + 1, q, 0)
                    n += 1
    return n

cdef void target_of(const State* s, int32_t m, FlowItem* it) noexcept nogil:
    cdef int v = m_verb(m)
    if v == V_PLAYER:
        it.tkind = T_PLAYER
        it.tval = m_seat(m)
    elif v == V_COUNTER:
        it.tkind = T_FLOW
        it.tval = s.flow[m_slot(m) - 1].uid
    else:
        it.tkind = T_HERO
        it.tval = s.field[m_seat(m)][m_slot(m) - 1]

cdef void push_after_cost(Ctx* x, int p, const FlowItem* it) noexcept nogil:
    """Push the next step of an action whose cost is paid: its target, or straight onto the Flow."""
    cdef int limit, kind = aim(x.tb, x.s, it.kind, it.card, &limit)
    cdef Step* st
    if kind == TG_SELF:
        st = push_item(x, S_PUT, p, it)
        st.it.tkind = T_HERO
        st.it.tval = it.card
    elif kind == NONE:
        push_item(x, S_PUT, p, it)
    else:
        push_item(x, S_TARGET, p, it)


# ------------------------------------------------------------------------------ legal moves

cdef int activations(const Tables* tb, const State* s, int p, int32_t* out) noexcept nogil:
    """The Activate actions a player can take now (see reference._activations)."""
    cdef int n = 0, i, c, k, nd, j, total = -1
    cdef int pool[MAX_FLAVORS]
    cdef uint8_t ds[MAX_DESIGNS]
    cdef const Design* d
    for i in range(s.n_field[p]):
        c = s.field[p][i]
        d = des(tb, s, c)
        if not d.has_ability or (d.once and s.used[c] == s.turns):
            continue
        if total < 0:  # the pool with the hand's source, the same for every ability
            total = pool_of(tb, s, p, True, pool)
        if not covers(pool, total, &d.ab_cost):
            continue
        if d.ab_target == NONE or d.ab_target == TG_SELF or target_moves(tb, s, p, K_ACTIVATE, c, NULL) > 0:
            out[n] = mk(V_ACTIVATE, s.design[c], i + 1, 0, 0)
            n += 1
    if s.n_hand[p] and s.n_primed[p]:  # a cast discards a card (N-prime-2)
        nd = distinct(s, s.primed[p], s.n_primed[p], ds)
        for k in range(nd):
            j = first_of_design(s, s.primed[p], s.n_primed[p], ds[k])
            if tb.d[ds[k]].target == NONE or target_moves(tb, s, p, K_PLAY, s.primed[p][j], NULL) > 0:
                out[n] = mk(V_CAST, ds[k], 0, 0, 0)
                n += 1
    return n

cdef int pay_moves(const Tables* tb, const State* s, int p, const FlowItem* it, int32_t* out) noexcept nogil:
    """Source cards played to pay an Activate cost while the pool is short (N-source-1)."""
    cdef const Design* d = des(tb, s, it.card)
    cdef int pool[MAX_FLAVORS]
    cdef int g[MAX_FLAVORS]
    cdef uint8_t fs[MAX_FLAVORS]
    cdef uint8_t ds[MAX_DESIGNS]
    cdef int f, k, nd, n = 0, any_short = 0, j, c
    cdef bint total, ok
    for f in range(s.n_flavors):
        pool[f] = s.pool[p][f]
    total = short_of(pool, s.n_flavors, &d.ab_cost, fs)
    for f in range(s.n_flavors):
        any_short |= fs[f]
    if not any_short and not total:
        return 0
    nd = distinct(s, s.hand[p], s.n_hand[p], ds)
    for k in range(nd):
        if tb.d[ds[k]].type != TY_SOURCE:
            continue
        j = first_of_design(s, s.hand[p], s.n_hand[p], ds[k])
        c = s.hand[p][j]
        ok = total
        if not ok:
            memset(g, 0, sizeof(g))
            gains(tb, s, c, g)
            for f in range(s.n_flavors):
                if g[f] and fs[f]:
                    ok = True
        if ok:
            out[n] = mk(V_SOURCE, ds[k], 0, 0, 0)
            n += 1
    return n

cdef int design_moves(const State* s, const uint8_t* zone, int nz, int verb, int zone_bit, int32_t* out) noexcept nogil:
    cdef uint8_t ds[MAX_DESIGNS]
    cdef int nd = distinct(s, zone, nz, ds), k
    for k in range(nd):
        out[k] = mk(verb, ds[k], 0, 0, zone_bit)
    return nd

cdef int offered(const State* s, int d) noexcept nogil:
    """The card of design ``d`` a player may buy: in the Shop Row, or on top of a source stack; -1."""
    cdef int i
    for i in range(s.n_row):
        if s.design[s.row[i]] == d:
            return s.row[i]
    for i in range(s.n):
        if s.n_stack[i] and s.design[s.stack[i][s.n_stack[i] - 1]] == d:
            return s.stack[i][s.n_stack[i] - 1]
    return -1

cdef inline int buy_move(const Tables* tb, uint64_t* seen, int dd, const int* pool, int total, int32_t* out,
                         int n) noexcept nogil:
    """Add the Buy of design ``dd`` to ``out[:n]`` if it is new to ``seen``, for sale and paid by
    the pool; the new length."""
    cdef const Design* d = &tb.d[dd]
    if first_time(seen, dd) and d.purchasable and covers(pool, total, &d.cost):
        out[n] = mk(V_BUY, dd, 0, 0, 0)
        return n + 1
    return n

cdef int turn_moves(const Tables* tb, const State* s, int32_t* out) noexcept nogil:
    """The active player's actions with the Flow empty, in this order: source, play, prime, buy,
    activate and cast, attack, end. Each kind lists designs in first-seen order, once each (the
    copies of a design are alike, D-omnia-6): the hand is read once, plays and primes kept aside."""
    cdef int p = s.active, n = 0, k, i, q, h, c, dd, total, n_play = 0, n_prime = 0
    cdef int pool[MAX_FLAVORS]
    cdef uint8_t plays[MAX_DESIGNS]
    cdef uint8_t primes[MAX_DESIGNS]
    cdef uint64_t seen[SEEN_WORDS]
    cdef const Design* d
    memset(seen, 0, sizeof(seen))
    for i in range(s.n_hand[p]):
        c = s.hand[p][i]
        dd = s.design[c]
        if not first_time(seen, dd):
            continue
        d = &tb.d[dd]
        if d.type == TY_SOURCE:
            out[n] = mk(V_SOURCE, dd, 0, 0, 0)
            n += 1
        elif d.target == NONE or target_moves(tb, s, p, K_PLAY, c, NULL) > 0:
            plays[n_play] = dd
            n_play += 1
        if d.prime:
            primes[n_prime] = dd
            n_prime += 1
    for k in range(n_play):
        out[n] = mk(V_PLAY, plays[k], 0, 0, 0)
        n += 1
    for k in range(n_prime):
        out[n] = mk(V_PRIME, primes[k], 0, 0, 0)
        n += 1
    total = pool_of(tb, s, p, False, pool)  # what is offered: the Row, then the stacks' tops (offered())
    if total >= tb.min_cost:
        memset(seen, 0, sizeof(seen))
        for i in range(s.n_row):
            n = buy_move(tb, seen, s.design[s.row[i]], pool, total, out, n)
        for i in range(s.n):
            if s.n_stack[i]:
                n = buy_move(tb, seen, s.design[s.stack[i][s.n_stack[i] - 1]], pool, total, out, n)
    n += activations(tb, s, p, out + n)
    for i in range(s.n_field[p]):
        h = s.field[p][i]
        if is_hero(tb, s, h) and s.attacked[h] != s.turns:
            for k in range(1, s.n):
                q = (p + k) % s.n
                out[n] = mk(V_ATTACK, s.design[h], i + 1, q, 0)
                n += 1
    out[n] = mk(V_END, 0, 0, 0, 0)
    return n + 1

cdef int step_moves(const Tables* tb, const State* s, const Step* st, int32_t* out) noexcept nogil:
    """The moves of a choice inside the queue; -1 for more than MAX_MOVES (see run)."""
    cdef int p = st.player, n = 0, i, h, last, left, most, k, q
    if st.kind == S_PRIORITY:
        out[0] = mk(V_PASS, 0, 0, 0, 0)
        return 1 + activations(tb, s, p, out + 1)
    if st.kind == S_TRIGGER:
        return design_moves(s, st.list, st.n_list, V_TRIGGER, 0, out)
    if st.kind == S_PAY:
        return pay_moves(tb, s, p, &st.it, out)
    if st.kind == S_COST or st.kind == S_DISCARD:
        return design_moves(s, s.hand[p], s.n_hand[p], V_DISCARD, 0, out)
    if st.kind == S_TARGET:
        return target_moves(tb, s, p, st.it.kind, st.it.card, out)
    if st.kind == S_DEFEND:
        last = index_of(s.field[p], s.n_field[p], st.list[st.n_list - 1]) if st.n_list else -1
        out[0] = mk(V_DONE, 0, 0, 0, 0)
        n = 1
        for i in range(last + 1, s.n_field[p]):
            h = s.field[p][i]
            if is_hero(tb, s, h):
                out[n] = mk(V_DEFEND, s.design[h], i + 1, 0, 0)
                n += 1
        return n
    if st.kind == S_ASSIGN:
        left = atk(tb, s, st.a)
        for i in range(st.n_given):
            left -= st.given[i]
        most = lethal(tb, s, st.list[st.n_given])
        if left < most:
            most = left
        if most >= MAX_MOVES:  # an Atk and a Def of a thousand: beyond a limit of the core
            return -1
        for k in range(most + 1):
            out[n] = mk_assign(k)
            n += 1
        return n
    if st.kind == S_ATTACH:
        for i in range(s.n_field[p]):
            h = s.field[p][i]
            if is_hero(tb, s, h):
                out[n] = mk(V_ATTACH, s.design[h], i + 1, 0, 0)
                n += 1
        return n
    if st.kind == S_REMOVE:
        n = design_moves(s, s.hand[p], s.n_hand[p], V_REMOVE, 0, out)
        n += design_moves(s, s.discard[p], s.n_discard[p], V_REMOVE, 1, out + n)
        out[n] = mk(V_DONE, 0, 0, 0, 0)
        return n + 1
    return 0

cdef int gen_moves(const Tables* tb, const State* s, int32_t* out) noexcept nogil:
    """The legal moves of the player to move, in the reference engine's order."""
    if s.phase == PH_OVER:
        return 0
    if s.n_todo:
        return step_moves(tb, s, &s.todo[s.n_todo - 1], out)
    return turn_moves(tb, s, out)


# ------------------------------------------------------------------------------ the steps

cdef void new_uid(Ctx* x, FlowItem* it) noexcept nogil:
    x.s.uid += 1
    it.uid = x.s.uid

cdef void step_turn(Ctx* x, int p) noexcept nogil:
    """A turn begins (N-turn-1); the start-of-Action-phase triggers resolve at once (N-flow-5)."""
    cdef State* s = x.s
    cdef int i, c
    cdef Step st
    if s.turns >= s.max_turns:  # D-omnia-1
        s.phase = PH_OVER
        return
    s.active = p
    s.turns += 1  # every card's "attacked" and "used" marks are of an earlier turn now
    s.phase = PH_ACTION
    st = mkstep(S_TRIGGER, p)
    for i in range(s.n_field[p]):
        c = s.field[p][i]
        if des(x.tb, s, c).n_trig:
            if st.n_list >= MAX_LIST:
                stop_over(s)
                return
            st.list[st.n_list] = c
            st.n_list += 1
    if st.n_list:
        push1(x, st)

cdef void step_put(Ctx* x, int p, const FlowItem* it) noexcept nogil:
    """The action goes on top of the Flow (its Activate cost paid now), and a window opens."""
    cdef State* s = x.s
    cdef const Design* d
    if it.kind == K_ACTIVATE:
        d = des(x.tb, s, it.card)
        pay(x, p, &d.ab_cost)
        if d.once:
            set16(x, &s.used[it.card], s.turns)
    if s.n_flow >= MAX_FLOW:
        stop_over(s)
        return
    trail_log(x.tr, s, &s.flow[s.n_flow], sizeof(FlowItem))
    s.flow[s.n_flow] = it[0]
    s.n_flow += 1
    push_step(x, S_PRIORITY, s.active)  # the window (see run)

cdef void push_effects(Ctx* x, const Eff* effs, int ne, int list_kind, int p, int card,
                       const FlowItem* target) noexcept nogil:
    """Push a step for each of ``ne`` effect operations of ``card``, the first in front."""
    cdef int i
    cdef Step* st
    for i in range(ne - 1, -1, -1):
        st = push_step(x, S_EFFECT, p)
        st.a = list_kind
        st.b = i
        memset(&st.it, 0, sizeof(FlowItem))
        st.it.card = card
        if target != NULL:
            st.it.tkind = target.tkind
            st.it.tval = target.tval

cdef void step_resolve(Ctx* x, int p) noexcept nogil:
    """N-flow-3: the whole Flow resolves, newest first; destroyed heroes and the end of the game are
    checked after each item (N-attack-4, N-flow-6)."""
    cdef State* s = x.s
    cdef FlowItem it
    if s.n_flow == 0:
        return
    s.n_flow -= 1
    it = s.flow[s.n_flow]
    push_step(x, S_RESOLVE, p)  # the steps of the item go in front of these two
    push_step(x, S_SETTLE, p)
    resolution(x, &it)

cdef void resolution(Ctx* x, const FlowItem* it) noexcept nogil:
    """Push the steps that resolve one item of the Flow (some of it done at once, as the reference)."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int p = it.player, c = it.card
    cdef const Design* d = des(tb, s, c)
    if it.kind == K_BUY:  # N-buy-1
        push_step(x, S_TO_DISCARD, p).a = c
        return
    if it.kind == K_ATTACK:
        attack(x, it)
        return
    if it.cancelled:  # N-card-2
        if it.kind == K_PLAY:
            push_step(x, S_TO_DISCARD, p).a = c
        return
    if it.kind == K_ACTIVATE:
        push_effects(x, d.ab, d.n_ab, E_ABILITY, p, c, it)
        return
    if d.stays:  # N-play-1
        if d.type == TY_EQUIPMENT and n_heroes(tb, s, p):
            push_step(x, S_ATTACH, p).a = c
            return
        append(x, s.field[p], &s.n_field[p], c)
        return
    push_step(x, S_TO_DISCARD, p).a = c  # after the effects
    push_effects(x, d.eff, d.n_eff, E_TEXT, p, c, it)

cdef void attack(Ctx* x, const FlowItem* it) noexcept nogil:
    """N-attack-3: the attack's damage."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int p = it.player, attacker = it.card, q = it.tval, i, h, k = 0
    cdef Step* st
    if index_of(s.field[p], s.n_field[p], attacker) < 0:
        return
    st = push_step(x, S_STRIKE, p)
    st.a = attacker
    st.b = q
    if can_be_defended(tb, s, attacker):
        for i in range(it.n_def):
            h = it.defenders[i]
            if index_of(s.field[q], s.n_field[q], h) >= 0:
                st.list[k] = h
                k += 1
        st.n_list = k
        for i in range(k):
            set32(x, &s.damage[attacker], s.damage[attacker] + atk(tb, s, st.list[i]))

cdef void step_strike(Ctx* x, const Step* st) noexcept nogil:
    """The attacker's Atk split among the defenders one at a time; the last takes the rest (D-omnia-4)."""
    cdef Step nxt
    if st.n_given < st.n_list - 1:
        nxt = st[0]
        nxt.kind = S_ASSIGN
        push1(x, nxt)
    else:
        deal_attack(x, st)

cdef void deal_attack(Ctx* x, const Step* st) noexcept nogil:
    """Damage as assigned; only the excess over every defender's lethal damage carries over to the
    defending player (D-omnia-4), and an attacker that dealt damage to him cycles (N-attack-5)."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int attacker = st.a, q = st.b, i, left, carry, all_lethal = 1, last_lethal
    cdef int amounts[MAX_LIST]
    left = atk(tb, s, attacker)
    for i in range(st.n_given):
        left -= st.given[i]
        amounts[i] = st.given[i]
    if st.n_list:
        amounts[st.n_given] = left
    carry = left if st.n_list == 0 else 0
    if st.n_list:
        for i in range(st.n_list):
            if amounts[i] < lethal(tb, s, st.list[i]):
                all_lethal = 0
        if all_lethal:
            last_lethal = lethal(tb, s, st.list[st.n_list - 1])
            carry = left - last_lethal if left > last_lethal else 0
    for i in range(st.n_list):
        set32(x, &s.damage[st.list[i]], s.damage[st.list[i]] + amounts[i])
    if carry > 0:
        s.life[q] -= carry
        leave_play(x, attacker)

cdef void step_settle(Ctx* x) noexcept nogil:
    cdef State* s = x.s
    cdef uint8_t heroes[MAX_IDS]
    cdef int p, i, k, h
    for p in range(s.n):
        k = 0
        for i in range(s.n_field[p]):  # Equipment only adds Def: below the printed Def, a hero stays
            h = s.field[p][i]
            if is_hero(x.tb, s, h) and s.damage[h] >= des(x.tb, s, h).defense:
                heroes[k] = h
                k += 1
        for i in range(k):
            h = heroes[i]
            if s.damage[h] >= defense(x.tb, s, h):
                leave_play(x, h)
    for p in range(s.n):
        if s.life[p] <= 0:  # N-end-1
            s.phase = PH_OVER

cdef void step_cleanup(Ctx* x, int player) noexcept nogil:
    """N-clean-1 steps 2 to 5 (step 1 is the priority window before)."""
    cdef State* s = x.s
    cdef uint8_t cards[MAX_IDS]
    cdef int p, i, k, c
    s.phase = PH_CLEANUP
    memset(s.pool, 0, sizeof(s.pool))
    for p in range(s.n):
        k = s.n_field[p]
        memcpy(cards, s.field[p], k)
        for i in range(k):
            c = cards[i]
            if des(x.tb, s, c).type == TY_EQUIPMENT and s.attached[c] == NONE:
                leave_play(x, c)
    for p in range(s.n):
        for i in range(s.n_field[p]):
            clear_marks(x, s.field[p][i])
    for i in range(s.n_hand[player]):
        append(x, s.discard[player], &s.n_discard[player], s.hand[player][i])
    s.n_hand[player] = 0

cdef void step_draw_phase(Ctx* x, int p) noexcept nogil:
    """N-draw-1: the active player draws 5, then the turn passes to the left."""
    x.s.phase = PH_DRAW
    draw(x, p, HAND)
    push_step(x, S_TURN, (p + 1) % x.s.n)

cdef void step_effect(Ctx* x, const Step* st) noexcept nogil:
    """One operation of a card text (docs/rules/omnia-cards.md, "Effect operations")."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef const Design* d = &tb.d[s.design[st.it.card]]
    cdef const Eff* e = &d.eff[st.b]
    cdef int p = st.player, n, op, i, q, k, h
    cdef Step steps[MAX_PLAYERS]
    cdef uint8_t heroes[MAX_IDS]
    if st.a == E_ABILITY:
        e = &d.ab[st.b]
    elif st.a == E_TRIGGER:
        e = &d.trig[st.b]
    n = e.n
    op = e.op
    if op == OP_GAIN_SOURCE:
        s.pool[p][s.flavor[p] if e.flavor == OWNER else e.flavor] += n
    elif op == OP_DRAW:
        draw(x, p, n)
    elif op == OP_DISCARD:
        push_step(x, S_DISCARD, p).a = n
    elif op == OP_OPPONENTS_DISCARD:  # N-card-3
        for i in range(1, s.n):
            steps[i - 1] = mkstep(S_DISCARD, (p + i) % s.n)
            steps[i - 1].a = n
        push(x, steps, s.n - 1)
    elif op == OP_DAMAGE_EACH:
        for q in range(s.n):
            for i in range(s.n_field[q]):
                h = s.field[q][i]
                if is_hero(tb, s, h):
                    set32(x, &s.damage[h], s.damage[h] + n)
        for i in range(1, s.n):
            s.life[(p + i) % s.n] -= n
    elif op == OP_DAMAGE_OPPONENTS or op == OP_LOSE_LIFE:
        for i in range(1, s.n):
            s.life[(p + i) % s.n] -= n
    elif op == OP_GAIN_LIFE:
        s.life[p] += n
    elif op == OP_DESTROY_ALL:
        for q in range(s.n):
            k = 0
            for i in range(s.n_field[q]):
                if is_hero(tb, s, s.field[q][i]):
                    heroes[k] = s.field[q][i]
                    k += 1
            for i in range(k):
                leave_play(x, heroes[i])
    elif op == OP_REMOVE:
        push_step(x, S_REMOVE, p).a = n
    else:
        targeted(x, op, n, &st.it, d)

cdef void targeted(Ctx* x, int op, int n, const FlowItem* t, const Design* source) noexcept nogil:
    """An operation on the target; a target gone or no longer legal is ignored (N-play-3)."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int i, h
    if t.tkind == T_PLAYER:
        if op == OP_DAMAGE:
            s.life[t.tval] -= n
        return
    if t.tkind == T_FLOW:
        for i in range(s.n_flow):
            if s.flow[i].uid == t.tval and op == OP_CANCEL:
                set8(x, &s.flow[i].cancelled, 1)
        return
    if t.tkind != T_HERO:
        return
    h = t.tval
    if controller(s, h) < 0 or not is_hero(tb, s, h):
        return
    if op == OP_DAMAGE:
        set32(x, &s.damage[h], s.damage[h] + n)
    elif op == OP_DESTROY:
        if source.target_def == NONE or defense(tb, s, h) <= source.target_def:
            leave_play(x, h)
    elif op == OP_PUMP:
        set32(x, &s.pumped[h], s.pumped[h] + n)
    elif op == OP_WEAKEN:
        set32(x, &s.pumped[h], s.pumped[h] - n)
    elif op == OP_UNBLOCKABLE:
        set8(x, &s.flags[h], s.flags[h] | F_UNBLOCKABLE)


# ------------------------------------------------------------------------------ moves

cdef void activate(Ctx* x, int p, int32_t m) noexcept nogil:
    """An Activate action (N-activate-1), or a primed spell cast (N-prime-2)."""
    cdef State* s = x.s
    cdef FlowItem it
    cdef int c, i
    if m_verb(m) == V_CAST:  # discard a card, turn the spell up, it is Played
        i = first_of_design(s, s.primed[p], s.n_primed[p], m_card(m))
        c = s.primed[p][i]
        remove_at(x, s.primed[p], &s.n_primed[p], i)
        it = new_item0(K_PLAY, p, c)
        it.cast = 1
        new_uid(x, &it)
        push_after_cost(x, p, &it)  # then, in front of it, the card to discard
        push_step(x, S_COST, p)
        return
    c = s.field[p][m_slot(m) - 1]
    it = new_item0(K_ACTIVATE, p, c)
    new_uid(x, &it)
    push_after_cost(x, p, &it)  # then, in front of it, the cost
    push_item(x, S_PAY, p, &it)

cdef void pay_source(Ctx* x, int p, int32_t m) noexcept nogil:
    cdef int c = take_from_hand(x, p, m_card(m))
    gain_source(x, p, c)
    to_discard(x, c)

cdef void resolve(Ctx* x, const Step* st, int32_t m) noexcept nogil:
    """A choice inside the queue (reference._resolve). ``st`` is the front record just taken off
    the queue, still in its slot: the first push writes over it, so it is read before."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int p = st.player, verb = m_verb(m), i, j, c, a = st.a, k = 0
    cdef const Design* d
    cdef Step nxt
    cdef Step* rest
    cdef uint8_t others[MAX_LIST]
    cdef FlowItem it
    if st.kind == S_PRIORITY:
        if verb == V_PASS:
            if a + 1 >= s.n:  # everyone passed in succession: the whole Flow resolves
                push_step(x, S_RESOLVE, s.active)
            else:
                push_step(x, S_PRIORITY, (p + 1) % s.n).a = a + 1
        else:
            activate(x, p, m)
    elif st.kind == S_TRIGGER:  # its effects, a settle, then the triggers left
        j = first_of_design(s, st.list, st.n_list, m_card(m))
        c = st.list[j]
        for i in range(st.n_list):
            if i != j:
                others[k] = st.list[i]
                k += 1
        if k:
            rest = push_step(x, S_TRIGGER, p)
            memcpy(rest.list, others, k)
            rest.n_list = k
        push_step(x, S_SETTLE, p)
        d = des(tb, s, c)
        push_effects(x, d.trig, d.n_trig, E_TRIGGER, p, c, NULL)
    elif st.kind == S_PAY:
        pay_source(x, p, m)
        s.n_todo += 1  # the step stays: its record is still in the slot
    elif st.kind == S_COST:
        to_discard(x, take_from_hand(x, p, m_card(m)))
    elif st.kind == S_TARGET:
        it = st.it
        target_of(s, m, &it)
        push_item(x, S_PUT, p, &it)
    elif st.kind == S_DEFEND:
        if verb == V_DONE:
            nxt = item_step(S_PUT, st.it.player, &st.it)
            memcpy(nxt.it.defenders, st.list, st.n_list)
            nxt.it.n_def = st.n_list
            push1(x, nxt)
        else:
            nxt = st[0]
            if nxt.n_list >= MAX_LIST:
                stop_over(s)
                return
            nxt.list[nxt.n_list] = s.field[p][m_slot(m) - 1]
            nxt.n_list += 1
            push1(x, nxt)
    elif st.kind == S_ASSIGN:
        nxt = st[0]
        nxt.kind = S_STRIKE
        nxt.given[nxt.n_given] = m_n(m)
        nxt.n_given += 1
        push1(x, nxt)
    elif st.kind == S_ATTACH:
        c = st.a
        append(x, s.field[p], &s.n_field[p], c)
        set8(x, &s.attached[c], s.field[p][m_slot(m) - 1])
    elif st.kind == S_DISCARD:
        to_discard(x, take_from_hand(x, p, m_card(m)))
        if a > 1:
            push_step(x, S_DISCARD, p).a = a - 1
    elif st.kind == S_REMOVE:
        if verb == V_DONE:
            return
        if m_zone(m) == 0:
            i = first_of_design(s, s.hand[p], s.n_hand[p], m_card(m))
            c = s.hand[p][i]
            remove_at(x, s.hand[p], &s.n_hand[p], i)
        else:
            i = first_of_design(s, s.discard[p], s.n_discard[p], m_card(m))
            c = s.discard[p][i]
            remove_at(x, s.discard[p], &s.n_discard[p], i)
        append(x, s.removed, &s.n_removed, c)
        if a > 1:
            push_step(x, S_REMOVE, p).a = a - 1

cdef void turn_move(Ctx* x, int32_t m) noexcept nogil:
    """An action of the Action phase (reference._turn_move)."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int p = s.active, verb = m_verb(m), c, i, h, q
    cdef FlowItem it
    if verb == V_SOURCE:  # N-source-1: a special action, off the Flow
        pay_source(x, p, m)
    elif verb == V_PLAY:
        c = take_from_hand(x, p, m_card(m))
        it = new_item0(K_PLAY, p, c)
        new_uid(x, &it)
        push_after_cost(x, p, &it)
    elif verb == V_PRIME:  # N-prime-1
        c = take_from_hand(x, p, m_card(m))
        append(x, s.primed[p], &s.n_primed[p], c)
    elif verb == V_BUY:  # N-buy-1, N-buy-2
        c = offered(s, m_card(m))
        pay(x, p, &des(tb, s, c).cost)
        i = index_of(s.row, s.n_row, c)
        if i >= 0:
            remove_at(x, s.row, &s.n_row, i)
            refill(x)
        else:
            for q in range(s.n):
                if s.n_stack[q] and s.stack[q][s.n_stack[q] - 1] == c:
                    s.n_stack[q] -= 1
        set8(x, &s.owner[c], p)
        it = new_item0(K_BUY, p, c)
        new_uid(x, &it)
        push_item(x, S_PUT, p, &it)
    elif verb == V_ACTIVATE or verb == V_CAST:
        activate(x, p, m)
    elif verb == V_ATTACK:  # N-attack-1
        h = s.field[p][m_slot(m) - 1]
        set16(x, &s.attacked[h], s.turns)
        q = m_seat(m)
        it = new_item0(K_ATTACK, p, h)
        it.tkind = T_PLAYER
        it.tval = q
        new_uid(x, &it)
        if can_be_defended(tb, s, h) and n_heroes(tb, s, q):
            push_item(x, S_DEFEND, q, &it)
        else:
            push_item(x, S_PUT, p, &it)
    elif verb == V_END:  # N-clean-1: a window, Clean-Up, the draw (pushed last to first)
        push_step(x, S_DRAW_PHASE, p)
        push_step(x, S_CLEANUP, p)
        push_step(x, S_PRIORITY, p)  # the window (see run)

cdef void run(Ctx* x) noexcept nogil:
    """Resolve steps until a player must choose (or the game is over)."""
    cdef State* s = x.s
    cdef int32_t moves[MAX_MOVES]
    cdef Step* st
    cdef int n
    while s.n_todo and s.phase != PH_OVER:
        st = &s.todo[s.n_todo - 1]  # read in place: each step_* reads it before its first push
        if st.kind < N_AUTO:
            s.n_todo -= 1
            if st.kind == S_TURN:
                step_turn(x, st.player)
            elif st.kind == S_WINDOW:  # N-flow-2: priority goes round from the active player. The
                push_step(x, S_PRIORITY, s.active)  # core pushes that at once where the reference
                                                    # pushes a window (in front, so taken at once); a
                                                    # window comes only from a copied position
            elif st.kind == S_PUT:
                step_put(x, st.player, &st.it)
            elif st.kind == S_RESOLVE:
                step_resolve(x, st.player)
            elif st.kind == S_STRIKE:
                step_strike(x, st)
            elif st.kind == S_EFFECT:
                step_effect(x, st)
            elif st.kind == S_SETTLE:
                step_settle(x)
            elif st.kind == S_TO_DISCARD:
                to_discard(x, st.a)
            elif st.kind == S_CLEANUP:
                step_cleanup(x, st.player)
            elif st.kind == S_DRAW_PHASE:
                step_draw_phase(x, st.player)
            continue
        n = step_moves(x.tb, s, st, moves)
        if n < 0:  # more moves than MAX_MOVES
            stop_over(s)
            break
        if n > 1:
            return
        s.n_todo -= 1
        if n == 1:  # a choice with one outcome is made for the player (D-omnia-2)
            resolve(x, st, moves[0])
    if s.phase == PH_OVER:
        s.n_todo = 0

cdef void do_move(Ctx* x, int32_t m) noexcept nogil:
    """Play a legal move and run to the next decision; the hot block is logged once."""
    cdef State* s = x.s
    trail_log(x.tr, s, s, <int>(<char*>&s.deck[0][0] - <char*>s))
    s.ply += 1
    if s.n_todo:
        s.n_todo -= 1
        resolve(x, &s.todo[s.n_todo], m)
    else:
        turn_move(x, m)
    run(x)

cdef void setup(const Tables* tb, State* s, uint64_t seed, const Setup* cfg) noexcept nogil:
    """Deal a game (N-setup-1 to N-setup-6, D-omnia-9) and run to the first decision."""
    cdef Ctx x
    cdef int p, i, f, c
    memset(s, 0, sizeof(State))
    rng_seed(s.rng, seed)
    s.n = cfg.players
    s.max_turns = cfg.max_turns
    s.n_flavors = tb.n_flavors
    memset(s.owner, NONE, MAX_IDS)
    memset(s.attached, NONE, MAX_IDS)
    memset(s.attacked, 0xFF, sizeof(s.attacked))  # NEVER
    memset(s.used, 0xFF, sizeof(s.used))
    for p in range(s.n):  # N-setup-2
        f = cfg.flavor[p]
        s.flavor[p] = f
        s.life[p] = START_LIFE
        for i in range(tb.n_deck[f]):
            s.design[s.n_ids] = tb.deck[f][i]
            s.shop[s.n_shop] = s.n_ids
            s.n_shop += 1
            s.n_ids += 1
        for i in range(tb.n_stack[f]):
            s.design[s.n_ids] = tb.stack[f][i]
            s.stack[p][s.n_stack[p]] = s.n_ids
            s.n_stack[p] += 1
            s.n_ids += 1
    shuffle(s.shop, s.n_shop, s.rng)
    for p in range(s.n):  # N-setup-3
        for i in range(tb.n_basics):
            c = s.n_ids
            s.design[c] = tb.basics[i]
            s.owner[c] = p
            s.deck[p][s.n_deck[p]] = c
            s.n_deck[p] += 1
            s.n_ids += 1
        shuffle(s.deck[p], s.n_deck[p], s.rng)
    s.active = rng_below(s.rng, s.n) if cfg.first_player == NONE else cfg.first_player  # N-setup-4
    x.tb = tb
    x.s = s
    x.tr = NULL
    refill(&x)  # N-setup-5
    for p in range(s.n):
        draw(&x, p, HAND)
    s.todo[0] = mkstep(S_TURN, s.active)
    s.n_todo = 1
    run(&x)

# ------------------------------------------------------------------------------ scoring

cdef int prestige(const Tables* tb, const State* s, int p) noexcept nogil:
    """N-score-1: the prestige of the cards a player owns, wherever they are but removed."""
    cdef int c, v = 0
    for c in range(s.n_ids):
        if s.owner[c] == p:
            v += des(tb, s, c).prestige
    for c in range(s.n_removed):
        if s.owner[s.removed[c]] == p:
            v -= des(tb, s, s.removed[c]).prestige
    return v

cdef inline int score(const Tables* tb, const State* s, int p) noexcept nogil:
    """N-score-2: prestige plus remaining life (below 0 counts as 0)."""
    return prestige(tb, s, p) + (s.life[p] if s.life[p] > 0 else 0)

cdef void shares(const Tables* tb, const State* s, double* out) noexcept nogil:
    """1 for a sole winner, 1/k for each of k sharing the win, 0 for the others (N-score-3)."""
    cdef int sc[MAX_PLAYERS]
    cdef int p, k = 0, bs = -1, bl = 0
    cdef bint first = True
    for p in range(s.n):
        sc[p] = score(tb, s, p)
        if first or sc[p] > bs or (sc[p] == bs and s.life[p] > bl):
            bs = sc[p]
            bl = s.life[p]
            first = False
    for p in range(s.n):
        k += sc[p] == bs and s.life[p] == bl
    for p in range(s.n):
        out[p] = 1.0 / k if sc[p] == bs and s.life[p] == bl else 0.0


# ------------------------------------------------------------------------------ determinisation

cdef void determinize(const Tables* tb, State* s, int player, uint64_t* rng) noexcept nogil:
    """Deal again everything ``player`` cannot see (docs/rules/omnia.md, "For the engine"): each
    opponent's unseen cards (his hand, face-down primed spells and deck) into his primed slots
    (Prime spells only), his hand and his deck; the player's own deck order; the Shop deck's order;
    and the generator. Every count stays; exactly the reference's ``determinized``."""
    cdef uint8_t unseen[MAX_IDS]
    cdef uint8_t rest[MAX_IDS]
    cdef int q, i, n, k, r, np_
    for q in range(s.n):
        if q == player:
            continue
        n = 0
        for i in range(s.n_hand[q]):
            unseen[n] = s.hand[q][i]
            n += 1
        for i in range(s.n_primed[q]):
            unseen[n] = s.primed[q][i]
            n += 1
        for i in range(s.n_deck[q]):
            unseen[n] = s.deck[q][i]
            n += 1
        shuffle(unseen, n, rng)
        k = 0
        r = 0
        np_ = s.n_primed[q]
        for i in range(n):
            if k < np_ and tb.d[s.design[unseen[i]]].prime:
                s.primed[q][k] = unseen[i]
                k += 1
            else:
                rest[r] = unseen[i]
                r += 1
        memcpy(s.hand[q], rest, s.n_hand[q])
        memcpy(s.deck[q], &rest[s.n_hand[q]], r - s.n_hand[q])
    shuffle(s.deck[player], s.n_deck[player], rng)
    shuffle(s.shop, s.n_shop, rng)
    rng_seed(s.rng, rng_next(rng))

# ------------------------------------------------------------------------------ the C contract

# what only this game says; the rest is game_api_table.pxi's (included below)

cdef int32_t api_seen_move(const void* tables, int32_t move, int mover, int viewer) noexcept nogil:
    """A primed spell is face down (N-hidden-2): the others see that a card was primed, not which;
    every other move is public."""
    if m_verb(move) == V_PRIME and mover != viewer:
        return HIDDEN_MOVE
    return move

cdef void api_track_begin(const void* tables, const void* s, void* track) noexcept nogil:
    pass  # no tracker: OMNIA reports no statistics to the advisor yet

cdef void api_track_step(const void* tables, const void* s, void* track) noexcept nogil:
    pass

cdef void api_track_stats(const void* tables, const void* s, const void* track, int player,
                          double* out) noexcept nogil:
    pass


include "game_api_table.pxi"

fill_game_api("omnia", 0, 0)

# the core's numbers are the data's and the rules' (a card file beyond the data's limits is refused
# by cards.py; a set or a deal beyond the core's by CoreTables and CoreState.new)
assert 4 * MAX_IDS + 10 <= MAX_MOVES  # the longest decision: see CoreState.new
assert (card_data.MAX_CARDS, card_data.MAX_FLAVORS, card_data.MAX_EFFECTS) == (MAX_DESIGNS, MAX_FLAVORS, MAX_EFFECTS)
assert card_data.MAX_STAT < 256 and card_data.MAX_COST < 256 and card_data.MAX_PRESTIGE < 256
assert (omnia_rules.HAND, omnia_rules.SHOP_ROW, omnia_rules.START_LIFE) == (HAND, SHOP_ROW, START_LIFE)
assert tuple(omnia_rules.PLAYER_COUNTS) == (2, 3, 4) and omnia_rules.MAX_TURNS < NEVER
assert TYPES == ("hero", "item", "equipment", "spell", "source")
assert TARGETS == ("combatant", "hero", "player", "own_hero", "self", "flow")
assert tuple(OPS) == ("gain_source", "draw", "discard", "opponents_discard", "damage", "damage_each",
                      "damage_opponents", "lose_life", "gain_life", "destroy", "destroy_all", "pump", "weaken",
                      "unblockable", "cancel", "remove")
assert VERB_NAMES == ("source", "play", "prime", "buy", "activate", "cast", "attack", "defend", "done", "player",
                      "hero", "counter", "assign", "discard", "remove", "attach", "trigger", "pass", "end")
assert ZONES == ("hand", "discard")
assert STEP_NAMES[:N_AUTO] == AUTO_STEPS


# ------------------------------------------------------------------------------ Python edge

def _refuse(cards, what, value):
    raise CoreLimitError(f"cards: {cards.name!r}: {what} is beyond a limit of OMNIA's core, got {value!r}")


cdef int _compile_cost(CostRec* out, cost, letters) except -1:
    cdef int f
    out.generic = cost.generic
    out.total = cost.total
    for letter in cost.flavored:
        out.need[letters.index(letter)] += 1
    for f in range(len(letters)):
        if out.need[f]:
            out.need_f[out.n_need] = f
            out.n_need += 1
    return 0


cdef int _compile_effects(Eff* out, effects, letters, cards, str where) except -1:
    if len(effects) > MAX_EFFECTS:
        _refuse(cards, f"the effects of {where}", len(effects))
    for i, e in enumerate(effects):
        out[i].op = tuple(OPS).index(e["op"])
        out[i].n = e.get("n", 0)
        flavor = e.get("flavor")
        out[i].flavor = 0 if flavor is None else OWNER if flavor == "owner" else letters.index(flavor)
    return len(effects)


cdef class CoreTables:
    """A card set compiled for the core (shared by every state dealt with it), and the moves of
    its ids (decoded once each)."""

    cdef Tables tb
    cdef readonly object cards
    cdef dict _decoded

    def __init__(self, cards: CardSet):
        cdef int i, k
        cdef Design* d
        memset(&self.tb, 0, sizeof(Tables))
        self.cards = cards
        self._decoded = {}
        if not 1 <= len(cards.cards) <= MAX_DESIGNS:
            _refuse(cards, "the number of card designs", len(cards.cards))
        if not 2 <= len(cards.flavors) <= MAX_FLAVORS:
            _refuse(cards, "the number of flavors", len(cards.flavors))
        letters = "".join(f.letter for f in cards.flavors)
        self.tb.n_designs = len(cards.cards)
        self.tb.n_flavors = len(cards.flavors)
        self.tb.min_cost = min([c.cost.total for c in cards.cards if c.cost is not None], default=NEVER)
        for i, c in enumerate(cards.cards):
            d = &self.tb.d[i]
            for value in (c.atk, c.defense, c.prestige, c.target_def or 0):
                if not 0 <= value < NONE:
                    _refuse(cards, f"a number of card {c.name!r}", value)
            d.type = TYPES.index(c.type)
            d.prime = c.prime
            d.stays = c.stays
            d.atk, d.defense, d.prestige = c.atk, c.defense, c.prestige
            d.purchasable = c.cost is not None
            if c.cost is not None:
                _compile_cost(&d.cost, c.cost, letters)
            d.target = NONE if c.target is None else TARGETS.index(c.target)
            d.target_def = NONE if c.target_def is None else c.target_def
            d.n_eff = _compile_effects(d.eff, c.effects, letters, cards, repr(c.name))
            d.ab_target = NONE
            if c.ability is not None:
                d.has_ability = 1
                d.once = c.ability.once
                d.ab_target = NONE if c.ability.target is None else TARGETS.index(c.ability.target)
                _compile_cost(&d.ab_cost, c.ability.cost, letters)
                d.n_ab = _compile_effects(d.ab, c.ability.effects, letters, cards, f"{c.name!r}'s ability")
            d.eq_atk = c.equip.get("atk", 0)
            d.eq_def = c.equip.get("def", 0)
            d.eq_unblockable = c.equip.get("unblockable", False)
            d.n_trig = _compile_effects(d.trig, c.trigger, letters, cards, f"{c.name!r}'s trigger")
        self.tb.n_basics = _designs(self.tb.basics, cards.basics(), cards, "each player's starting cards")
        for k, f in enumerate(cards.flavors):
            self.tb.n_deck[k] = _designs(self.tb.deck[k], cards.deck_of(f.name), cards, f"the {f.name} deck")
            self.tb.n_stack[k] = _designs(self.tb.stack[k], cards.stack_of(f.name), cards, f"the {f.name} stack")

    def ids_in_game(self, flavor) -> int:
        """The physical cards of a game whose seats have these flavors (indices)."""
        return (len(flavor) * self.tb.n_basics
                + sum(self.tb.n_deck[f] + self.tb.n_stack[f] for f in flavor))

    def decode(self, int32_t m) -> Move:
        """The move of an id (its notation names this set's cards)."""
        move = self._decoded.get(m)
        if move is None:
            move = self._decoded[m] = self._decode(m)
        return move

    def _decode(self, int32_t m) -> Move:
        verb = VERB_NAMES[m_verb(m)]
        if verb == "assign":
            return Move(verb, n=m_n(m))
        fields = {}
        for name in VERBS[verb]:
            if name == "card":
                fields[name] = self.cards.cards[m_card(m)].name
            elif name == "slot":
                fields[name] = m_slot(m)
            elif name == "seat":
                fields[name] = m_seat(m)
            elif name == "zone":
                fields[name] = ZONES[m_zone(m)]
        return Move(verb, **fields)


cdef int _designs(uint8_t* out, designs, cards, str what) except -1:
    if len(designs) > MAX_IDS:
        _refuse(cards, f"the number of cards in {what}", len(designs))
    for i, d in enumerate(designs):
        out[i] = d
    return len(designs)


_TABLES: dict = {}

def tables_for(cards: CardSet) -> CoreTables:
    """The compiled tables of a card set (one per set); raises :class:`CoreLimitError` for a set
    beyond the core's limits."""
    tables = _TABLES.get(id(cards))  # a card set holds dicts (its effects): kept by identity
    if tables is None or tables.cards is not cards:
        tables = _TABLES[id(cards)] = CoreTables(cards)
    return tables


def state_size() -> int:
    """Bytes of the flat state: what a clone copies."""
    return sizeof(State)


def limits() -> dict:
    """The core's fixed sizes (docs/limits): what a deal and a game must fit."""
    return {"MAX_IDS": MAX_IDS, "MAX_DESIGNS": MAX_DESIGNS, "MAX_FLAVORS": MAX_FLAVORS, "MAX_EFFECTS": MAX_EFFECTS,
            "MAX_FLOW": MAX_FLOW, "MAX_STEPS": MAX_STEPS, "MAX_LIST": MAX_LIST, "MAX_MOVES": MAX_MOVES}


include "undo_history.pxi"
include "core_state_base.pxi"


cdef class CoreState(CoreStateBase):
    """A game of OMNIA on the core, with the State interface of the reference engine
    (:class:`CoreStateBase`): ``scores()`` are each player's prestige plus life (N-score-2); ``returns()`` give 1 to a sole
    winner, 1/k to each of k sharing the win, 0 to the others (N-score-3).

    ``clone()`` copies the one flat struct (the clone keeps the moves but has no undo history);
    ``apply``/``undo`` keep a trail of (offset, width, old bytes) records owned by the state.
    """

    cdef State s
    cdef CoreTables tables
    cdef Setup deal               # what game_handle lends: the set-up

    @staticmethod
    def new(seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> CoreState:
        """Deal a game exactly as ``OmniaState.new`` does for the same seed (dealt in C); raises
        :class:`CoreLimitError` for a deal with more than ``MAX_IDS`` cards."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef int p
        cards = cards or default_cards()
        config = config or Config()
        if not isinstance(config, Config):
            raise UsageError(f"config: an OMNIA Config, got {type(config).__name__}")
        Rng(seed)  # validates the seed
        flavor = seat_flavors(cards, config)
        core.tables = tables_for(cards)
        ids = core.tables.ids_in_game(flavor)
        if ids > MAX_IDS:
            raise CoreLimitError(f"cards: {cards.name!r}: a game of {config.players} with the flavors "
                                 f"{', '.join(cards.flavors[f].name for f in flavor)} has {ids} cards; "
                                 f"OMNIA's core holds at most {MAX_IDS} (play it with --engine reference)")
        core.config = config
        core.seed = seed
        core.deal.players = config.players
        core.deal.first_player = NONE if config.first_player is None else config.first_player
        core.deal.max_turns = config.max_turns
        for p in range(config.players):
            core.deal.flavor[p] = flavor[p]
        setup(&core.tables.tb, &core.s, seed, &core.deal)
        return core

    # -- the hooks of CoreStateBase (core_state_base.pxi), which gives the State interface

    cdef int _lend(self, GameHandle* h) except -1:
        h.api = &GAME_API[self.s.n]
        h.tables = &self.tables.tb
        h.config = &self.deal
        h.state = &self.s
        return 0

    cdef int _ply(self) noexcept:
        return self.s.ply

    cdef object _decode(self, int32_t m):
        return self.tables.decode(m)

    cdef CoreStateBase _copy(self):
        cdef CoreState other = CoreState.__new__(CoreState)
        other.s = self.s
        other.tables = self.tables
        other.deal = self.deal
        return other

    cdef int _after_play(self) except -1:
        if self.s.overflow:
            self._take_back(&self.s)
            raise CoreLimitError(f"ply {self.s.ply}: the game went beyond a limit of OMNIA's core "
                                 f"({MAX_FLOW} items on the Prime Flow, {MAX_STEPS} steps, {MAX_LIST} defenders "
                                 "or triggers); play it with --engine reference")
        return 0

    @property
    def cards(self):
        return self.tables.cards

    def prestige(self, int player) -> int:
        return prestige(&self.tables.tb, &self.s, player)

    # -- the reference's fields, for the tools

    @property
    def life(self) -> list:
        return [self.s.life[p] for p in range(self.s.n)]

    @property
    def hand(self) -> list:
        return [self._zone(self.s.hand[p], self.s.n_hand[p]) for p in range(self.s.n)]

    @property
    def active(self) -> int:
        return self.s.active

    @property
    def turns(self) -> int:
        return self.s.turns

    @property
    def phase(self) -> str:
        return PHASES[self.s.phase]

    @property
    def todo(self) -> list:
        """The step queue as the reference's tuples, front first."""
        return [self._step_tuple(&self.s.todo[i]) for i in range(self.s.n_todo - 1, -1, -1)]

    def name(self, int c) -> str:
        return self.tables.cards.cards[self.s.design[c]].name

    cdef list _zone(self, const uint8_t* zone, int n):
        return [zone[i] for i in range(n)]

    cdef object _item(self, const FlowItem* it):
        target = (None if it.tkind == T_NONE else ("player", it.tval) if it.tkind == T_PLAYER
                  else ("hero", it.tval) if it.tkind == T_HERO else ("flow", it.tval))
        return Item(it.uid, KINDS[it.kind], it.player, it.card, target,
                    tuple(it.defenders[i] for i in range(it.n_def)), bool(it.cast), bool(it.cancelled))

    cdef object _step_tuple(self, const Step* st):
        name = STEP_NAMES[st.kind]
        k = st.kind
        if k in (S_PRIORITY, S_DISCARD, S_REMOVE):
            return (name, st.player, st.a)
        if k in (S_PUT, S_PAY, S_TARGET):
            return (name, st.player, self._item(&st.it))
        if k == S_DEFEND:
            return (name, st.player, self._item(&st.it), tuple(st.list[i] for i in range(st.n_list)))
        if k in (S_STRIKE, S_ASSIGN):
            return (name, st.player, st.a, st.b, tuple(st.list[i] for i in range(st.n_list)),
                    tuple(st.given[i] for i in range(st.n_given)))
        if k == S_EFFECT:
            card = self.tables.cards.cards[self.s.design[st.it.card]]
            effects = card.effects if st.a == E_TEXT else card.ability.effects if st.a == E_ABILITY else card.trigger
            item = self._item(&st.it)
            return (name, st.player, effects[st.b], item.target, st.it.card)
        if k in (S_TO_DISCARD, S_ATTACH):
            return (name, st.player, st.a)
        if k == S_TRIGGER:
            return (name, st.player, tuple(st.list[i] for i in range(st.n_list)))
        return (name, st.player)

    def view(self) -> OmniaState:
        """This position as a reference state (every zone, the Flow, the step queue and the
        generator), for ``observe``, the renderers and the tools that read the reference's fields."""
        cdef State* s = &self.s
        cdef int p, c
        ref = OmniaState.__new__(OmniaState)
        n = s.n
        ref.cards = self.tables.cards
        ref.config = self.config
        ref.seed = self.seed
        ref.n = n
        ref.flavor = tuple(s.flavor[p] for p in range(n))
        ref.rng = Rng.from_state([s.rng[i] for i in range(4)])
        ref.design = [s.design[c] for c in range(s.n_ids)]
        ref.owner = [None if s.owner[c] == NONE else s.owner[c] for c in range(s.n_ids)]
        ref.deck = [self._zone(s.deck[p], s.n_deck[p]) for p in range(n)]
        ref.hand = [self._zone(s.hand[p], s.n_hand[p]) for p in range(n)]
        ref.discard = [self._zone(s.discard[p], s.n_discard[p]) for p in range(n)]
        ref.field = [self._zone(s.field[p], s.n_field[p]) for p in range(n)]
        ref.primed = [self._zone(s.primed[p], s.n_primed[p]) for p in range(n)]
        ref.shop_deck = self._zone(s.shop, s.n_shop)
        ref.row = self._zone(s.row, s.n_row)
        ref.stacks = {s.flavor[p]: self._zone(s.stack[p], s.n_stack[p]) for p in range(n)}
        ref.removed = self._zone(s.removed, s.n_removed)
        ref.flow = [self._item(&s.flow[i]) for i in range(s.n_flow)]
        ref.life = [s.life[p] for p in range(n)]
        ref.pool = [[s.pool[p][f] for f in range(s.n_flavors)] for p in range(n)]
        ref.damage = {c: s.damage[c] for c in range(s.n_ids) if s.damage[c]}
        ref.pumped = {c: s.pumped[c] for c in range(s.n_ids) if s.pumped[c]}
        ref.unblockable = {c for c in range(s.n_ids) if s.flags[c] & F_UNBLOCKABLE}
        ref.attached = {c: s.attached[c] for c in range(s.n_ids) if s.attached[c] != NONE}
        ref.attacked = {c for c in range(s.n_ids) if s.attacked[c] == s.turns}
        ref.used = {c for c in range(s.n_ids) if s.used[c] == s.turns}
        ref.uid = s.uid
        ref.active = s.active
        ref.turns = s.turns
        ref.phase = PHASES[s.phase]
        ref.todo = self.todo
        ref.moves = list(self._moves)
        ref.first_ply = s.ply - len(self._moves)
        ref._history = []
        return ref

    @property
    def flavor(self) -> tuple:
        """Each seat's flavor, as an index into the card set's flavors."""
        return tuple(self.s.flavor[p] for p in range(self.s.n))

    @staticmethod
    def from_state(state) -> CoreState:
        """The same position on the core, from a reference ``OmniaState`` (or anything with its
        fields): every zone, the Flow, the step queue and the generator, so that it has the same
        future. Raises :class:`CoreLimitError` for a position beyond the core's limits and
        :class:`UsageError` for one it cannot read."""
        try:
            return CoreState._copy_of(state)
        except (AttributeError, TypeError, ValueError, IndexError, KeyError, OverflowError) as exc:
            raise UsageError(f"state: not a position the core can copy ({type(exc).__name__}: {exc})") from None

    @staticmethod
    def _copy_of(state) -> CoreState:
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef State* s = &core.s
        cdef int p, i, c
        cards, config = state.cards, state.config
        core.tables = tables_for(cards)
        core.config = config
        core.seed = getattr(state, "seed", None)
        n = config.players
        ids = len(state.design)
        if ids > MAX_IDS:
            raise CoreLimitError(f"state: {ids} cards; OMNIA's core holds at most {MAX_IDS}")
        core.deal.players = n
        core.deal.first_player = NONE if config.first_player is None else config.first_player
        core.deal.max_turns = config.max_turns
        memset(s, 0, sizeof(State))
        for i in range(4):
            s.rng[i] = state.rng.s[i]
        s.n = n
        s.n_ids = ids
        s.n_flavors = len(cards.flavors)
        s.max_turns = config.max_turns
        if not 0 <= state.turns < NEVER:
            raise ValueError(f"turns {state.turns!r}")
        s.turns = state.turns
        s.uid = state.uid
        s.active = state.active
        s.phase = PHASES.index(state.phase)
        s.ply = state.ply
        memset(s.owner, NONE, MAX_IDS)
        memset(s.attached, NONE, MAX_IDS)
        memset(s.attacked, 0xFF, sizeof(s.attacked))  # NEVER
        memset(s.used, 0xFF, sizeof(s.used))
        for c in range(ids):
            s.design[c] = state.design[c]
            s.owner[c] = NONE if state.owner[c] is None else state.owner[c]
        for p in range(n):
            s.flavor[p] = core.deal.flavor[p] = state.flavor[p]
            s.life[p] = state.life[p]
            for i, v in enumerate(state.pool[p]):
                s.pool[p][i] = v
            s.n_deck[p] = _ids(s.deck[p], state.deck[p])
            s.n_hand[p] = _ids(s.hand[p], state.hand[p])
            s.n_discard[p] = _ids(s.discard[p], state.discard[p])
            s.n_field[p] = _ids(s.field[p], state.field[p])
            s.n_primed[p] = _ids(s.primed[p], state.primed[p])
            s.n_stack[p] = _ids(s.stack[p], state.stacks[state.flavor[p]])
        s.n_shop = _ids(s.shop, state.shop_deck)
        s.n_row = _ids(s.row, state.row)
        s.n_removed = _ids(s.removed, state.removed)
        marked = [*state.damage, *state.pumped, *state.attached, *state.attached.values(), *state.unblockable,
                  *state.attacked, *state.used]
        strays = sorted(c for c in marked if not 0 <= c < ids)
        if strays:
            raise ValueError(f"marks on cards that are not in the game: {strays}")
        in_play = {c for p in range(n) for c in state.field[p]}
        for marks in (state.damage, state.pumped, state.unblockable):  # the core clears them in play only
            if not in_play.issuperset(marks):
                raise ValueError(f"damage or a change until end of turn on cards not in play: "
                                 f"{sorted(set(marks) - in_play)}")
        for c, v in state.damage.items():
            s.damage[c] = v
        for c, v in state.pumped.items():
            s.pumped[c] = v
        for e, h in state.attached.items():
            s.attached[e] = h
        for c in state.unblockable:
            s.flags[c] |= F_UNBLOCKABLE
        for c in state.attacked:
            s.attacked[c] = s.turns
        for c in state.used:
            s.used[c] = s.turns
        if len(state.flow) > MAX_FLOW or len(state.todo) > MAX_STEPS:
            raise CoreLimitError(f"state: {len(state.flow)} items on the Flow and {len(state.todo)} steps; "
                                 f"OMNIA's core holds at most {MAX_FLOW} and {MAX_STEPS}")
        for i, item in enumerate(state.flow):
            _item_record(&s.flow[i], item)
        s.n_flow = len(state.flow)
        for i, raw in enumerate(reversed(state.todo)):
            _step_record(&s.todo[i], raw, cards, state.design)
        s.n_todo = len(state.todo)
        core._moves = list(state.moves)
        return core


cdef int _copied(uint8_t* out, values, int most, str what) except -1:
    """Copy a reference position's list into a fixed array of ``most`` entries, or refuse it."""
    values = list(values)
    if len(values) > most:
        raise CoreLimitError(f"state: {what.format(len(values))}; OMNIA's core holds at most {most}")
    for i, v in enumerate(values):
        out[i] = v
    return len(values)


cdef int _ids(uint8_t* out, values) except -1:
    return _copied(out, values, MAX_IDS, "a zone of {} cards")


cdef int _list(uint8_t* out, values) except -1:
    return _copied(out, values, MAX_LIST, "{} defenders or triggers")


cdef int _item_record(FlowItem* out, item) except -1:
    memset(out, 0, sizeof(FlowItem))
    out.uid = item.uid
    out.kind = KINDS.index(item.kind)
    out.player = item.player
    out.card = item.card
    _target_record(out, item.target)
    out.n_def = _list(out.defenders, item.defenders)
    out.cast = item.cast
    out.cancelled = item.cancelled
    return 0


cdef int _target_record(FlowItem* out, target) except -1:
    if target is None:
        out.tkind = T_NONE
        return 0
    out.tkind = {"player": T_PLAYER, "hero": T_HERO, "flow": T_FLOW}[target[0]]
    out.tval = target[1]
    return 0


cdef int _step_record(Step* st, raw, cards, design) except -1:
    """A step record from a reference step tuple."""
    memset(st, 0, sizeof(Step))
    name = raw[0]
    st.kind = STEP_NAMES.index(name)
    st.player = raw[1]
    if name in ("priority", "discard", "remove", "to_discard", "attach"):
        st.a = raw[2]
    elif name in ("put", "pay", "target"):
        _item_record(&st.it, raw[2])
    elif name == "defend":
        _item_record(&st.it, raw[2])
        st.n_list = _list(st.list, raw[3])
    elif name in ("strike", "assign"):
        st.a, st.b = raw[2], raw[3]
        st.n_list = _list(st.list, raw[4])
        if len(raw[5]) > MAX_LIST:
            raise CoreLimitError(f"state: {len(raw[5])} amounts; OMNIA's core holds at most {MAX_LIST}")
        for i, v in enumerate(raw[5]):
            st.given[i] = v
        st.n_given = len(raw[5])
    elif name == "effect":
        _, _, effect, target, source = raw
        card = cards.cards[design[source]]
        for kind, effects in ((E_TEXT, card.effects), (E_ABILITY, card.ability.effects if card.ability else ()),
                              (E_TRIGGER, card.trigger)):
            for i, e in enumerate(effects):
                if e is effect:
                    st.a, st.b = kind, i
        st.it.card = source
        _target_record(&st.it, target)
    elif name == "trigger":
        st.n_list = _list(st.list, raw[2])
    return 0
