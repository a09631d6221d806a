# cython: language_level=3
"""OMEGA's Cython core: the rules of ``omen_search.games.omega.reference`` move for move on one
flat C struct, with an undo trail, and its side of the C contract with the search
(``ext/common/game_api.pxd``), one table per player count (2, 3, 4).

Same seed, same game: chance draws from the state's own xoshiro256** (``omen_rng``) with the same
calls in the same order as the reference: a bag draw is ``below(total)`` walked in kind order, a
shuffle is ``Rng.shuffle``. The step queue of the reference (``todo``) is a stack of fixed-size
records here, its front on top.

Move ids (int32, >= 0), bit layout::

    bits  0-4   verb (the index of the verb in notation.VERBS)
    bits  5-10  card: an Egregor id (arcana: the Arcanum kind on top of the stack)
    bits 11-16  other: an Egregor id (pair, replace; arcana: the stack, 0-5)
    bits 17-19  kind: a rune kind 0-5 (draw: 6 for the bag)
    bits 20-23  n: runes of that kind (1-10)
"""

from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset

from game_api cimport GAME_HANDLE_NAME, MAX_PLAYERS, SEARCH_MAX_MOVES, GameApi, GameHandle
from omen_rng cimport rng_below, rng_next, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, Trail, trail_log, trail_reserve, trail_undo

from omen_search.errors import IllegalMoveError, NotationError, UsageError
from omen_search.games.omega import cards as card_data
from omen_search.games.omega import rules as omega_rules
from omen_search.games.omega.cards import KINDS, CardSet, default_cards
from omen_search.games.omega.notation import VERBS, Move
from omen_search.games.omega.observe import observe
from omen_search.games.omega.rules import Config
from omen_search.rng import Rng

cdef enum:
    # the limits of the core (checked against cards.py and rules.py at import)
    MAX_EGREGORS = 64        # Egregor cards in a set (card ids 0..63: one bit each in State.used)
    MAX_ARCANA = 64          # Arcana tokens in a set (and Arcanum kinds)
    ARCANA_STACKS = 6        # O-setup-4
    NK = 6                   # rune kinds: blue, gold, red, green, white, black
    NCOL = 5                 # the colours (black is no colour)
    BLUE = 0
    GOLD = 1
    RED = 2
    GREEN = 3
    WHITE = 4
    BLACK = 5
    ALTAR = 6                # runes on the Altar after an Upkeep
    GALLERY = 4              # Egregors in the Gallery after an Upkeep
    CARRY = 10               # runes on one Egregor at most
    COLOURS_ON_ONE = 2
    CONTROL = 4              # Egregors held at the end of a Main phase
    MAX_CONTROL = 5          # held at most: CONTROL at a turn's start, one gain a turn
    BLUE_SQUARES = 2
    WHITES_AGAINST_BLACK = 2
    PRESTIGE_BONUS = 5
    GOLD_POINTS = 2
    MAX_STEPS = 96           # records in the step queue (the longest seen is far shorter; checked)
    MAX_MOVES = 512          # legal moves of one decision (a Main phase: at most about 370)
    TRAIL_PER_MOVE = 2048    # trail records one apply writes at most (the hot block is ~70)
    N_STATS = 3              # the advisor's game statistics (api_track_stats)
    NONE = 255               # no card, no seat, no colour
    DEAL_ATTEMPTS = 64       # deals a determinisation tries for a player in the middle of a reveal
    # verbs, in notation.VERBS order
    V_DRAW = 0
    V_SUMMON = 1
    V_CAPTURE = 2
    V_WITH = 3
    V_ADD = 4
    V_DONE = 5
    V_PLACE = 6
    V_PAIR = 7
    V_BLACK = 8
    V_MASK = 9
    V_POWER = 10
    V_SKIP = 11
    V_PROLIFERATE = 12
    V_DISOWN = 13
    V_END = 14
    V_KEEP = 15
    V_CYCLE = 16
    V_REPLACE = 17
    V_RETAIN = 18
    V_ARCANA = 19
    BAG_SOURCE = 6           # the kind field of "draw bag"
    # the steps of the queue (reference names in STEP_NAMES)
    S_TURN = 0               # steps S_TURN .. S_ENDINGS resolve by themselves
    S_MAIN = 1
    S_GAIN = 2
    S_LOSE = 3
    S_BAG_REST = 4
    S_COLOURED_DRAW = 5
    S_END_PHASE = 6
    S_ENDINGS = 7
    N_AUTO = 8               # the steps from here wait for a choice
    S_DRAW = 8
    S_ARCANA = 9
    S_PROLIFERATE = 10
    S_LIGHTNING = 11
    S_KEEP = 12
    S_CYCLE = 13
    S_KEY = 14
    S_REVEAL = 15
    # how an Egregor is gained or lost
    HOW_SUMMON = 0
    HOW_CAPTURE = 1
    HOW_DISOWN = 2
    # phases
    PH_SETUP = 0
    PH_DRAW = 1
    PH_MAIN = 2
    PH_END = 3
    PH_OVER = 4
    # Egregor powers and triggers
    T_NONE = 0
    T_BOOK = 1
    T_LIGHTNING = 2
    P_NONE = 0
    P_CYCLE = 1
    P_THRUST = 2
    P_FATE = 3
    P_KEY = 4

STEP_NAMES = ("turn", "main", "gain", "lose", "bag_rest", "coloured_draw", "end_phase", "endings", "draw",
              "arcana", "proliferate", "lightning", "keep", "cycle", "key", "reveal")
HOWS = ("summon", "capture", "disown")
PHASES = ("setup", "draw", "main", "end", "over")
VERB_NAMES = tuple(VERBS)
SOURCES = (*KINDS, "bag")

ctypedef struct Egr:
    # one Egregor card of the set
    uint8_t snake, thrust
    uint8_t trigger          # T_*
    uint8_t power            # P_*
    uint8_t n                # the power's number
    uint8_t colour           # the rune kind the power is limited to, NONE
    uint8_t renegade, primitive

ctypedef struct Tables:
    # a card set, compiled once (shared by every state of the set, lent to the search)
    int n_egregors
    int n_tokens
    int squares               # the Ritual Disc's squares
    uint8_t runes[NK]         # the bag at the start, by kind
    Egr egr[MAX_EGREGORS]
    int n_arcana              # Arcanum kinds
    int points[MAX_ARCANA]    # each kind's fixed points, -1 for a formula
    uint8_t counts[MAX_ARCANA]  # a formula's index in cards.FORMULAS
    uint8_t tokens[MAX_ARCANA]  # every token as its kind, in the file's order

ctypedef struct Setup:
    # the set-up a handle lends the search (what api_new_game deals)
    int players
    int first_player
    int max_turns

ctypedef struct Step:
    # one record of the step queue (a reference step tuple)
    uint8_t kind              # S_*
    uint8_t player            # the seat concerned (S_BAG_REST: unused)
    uint8_t card              # the Egregor concerned, NONE
    uint8_t a                 # GAIN/LOSE/BAG_REST: HOW_*; KEEP, CYCLE: runes left; COLOURED_DRAW: the colour;
                              # KEY: the index of the current Key in State.key_keys; REVEAL: 1 for a capture
    uint8_t b                 # KEEP: the least kind; CYCLE: the colour or NONE; REVEAL: the first colour or NONE
    uint8_t c                 # CYCLE: the position after which; REVEAL: the first colour's runes
    uint8_t d                 # CYCLE: the kind after which
    uint8_t runes[NK]         # GAIN: the runes revealed
    uint8_t pad[3]            # to 16 bytes: a record is copied in two aligned words

ctypedef struct State:
    # every byte of a game, no pointers: a clone is a memcpy. Everything up to `todo` is the hot
    # block, logged whole on the trail at each apply; the arrays after it are logged where written.
    uint64_t rng[4]           # the game's generator (xoshiro256**)
    uint32_t ply              # moves played
    uint16_t turns            # turns begun (O-upkeep-1; D-omega-1 judges at max_turns)
    uint16_t max_turns
    uint8_t n                 # players, 2..4
    uint8_t first_player
    uint8_t phase             # PH_*
    uint8_t active            # the seat whose turn it is
    uint8_t gained            # the Egregor gained this turn, NONE
    uint8_t disowned          # an Egregor was disowned this turn
    uint8_t mask_moved        # the Mask was moved this turn
    uint8_t announcer         # the seat that announced the end (O-end-1), NONE
    uint8_t n_final           # the players still to play a final turn ...
    uint8_t final[MAX_PLAYERS]  # ... in order
    uint8_t bag[NK]           # runes in the bag by kind
    uint8_t altar[NK]         # runes on the Altar by kind
    uint8_t pyramid[MAX_PLAYERS][NK]  # each Pyramid by kind
    uint8_t known[MAX_PLAYERS][NK]    # the part of each Pyramid every player knows (O-hidden-2)
    uint8_t n_controlled[MAX_PLAYERS]
    uint8_t controlled[MAX_PLAYERS][MAX_CONTROL]  # each player's Egregors, in the order gained
    uint8_t mask[MAX_PLAYERS]  # the Egregor under each player's Mask, NONE
    uint8_t pawn[MAX_PLAYERS]  # each pawn's square on the Ritual Disc, 0-based
    uint8_t lost[MAX_PLAYERS]  # lost an Egregor by capture since his own last turn ended
    uint16_t prestige[MAX_PLAYERS]  # Prestige tokens
    uint8_t n_gallery
    uint8_t gallery[GALLERY]   # the Gallery's Egregors, in order
    uint8_t n_stack            # the Egregor stack's height (cards in `stack`)
    uint8_t n_discard          # the discard pile's size (cards in `discard`)
    uint8_t height[ARCANA_STACKS]  # each Arcana stack's height (tokens in `arcana`)
    uint8_t n_taken[MAX_PLAYERS]   # Arcana tokens each player took (in `taken`)
    uint8_t key_n              # the Summoning Keys of the pending Key step (in key_keys) ...
    uint8_t key_n_revealed     # ... and the Egregors it revealed (in key_revealed)
    uint64_t key_chosen        # bit c: revealed Egregor c replaced a Key already
    uint64_t used              # bit c: Egregor c's power was used this turn
    uint8_t carried[MAX_EGREGORS][NK]  # runes on each Egregor in play (zero out of play)
    uint16_t n_todo            # records in the step queue
    # -- logged where written
    Step todo[MAX_STEPS]       # the step queue, its front at todo[n_todo - 1]
    uint8_t stack[MAX_EGREGORS]    # the Egregor stack, top last
    uint8_t discard[MAX_EGREGORS]  # the discard pile, in order
    uint8_t arcana[ARCANA_STACKS][MAX_ARCANA]  # each Arcana stack's tokens (Arcanum kinds), top last
    uint8_t taken[MAX_PLAYERS][MAX_ARCANA]     # each player's tokens, in the order taken
    uint8_t key_keys[MAX_CONTROL]      # the Keys of the pending Key step
    uint8_t key_revealed[MAX_EGREGORS]  # the Egregors it revealed, in order

ctypedef struct Ctx:
    const Tables* tb
    State* s
    Trail* tr

cdef enum:
    # what a variable Arcanum counts (the order of cards.FORMULAS)
    F_WHITE = 0
    F_PRESTIGE = 1
    F_BLUE = 2
    F_ARCANA = 3
    F_PYRAMID_BLACK = 4
    F_GREEN = 5
    F_FULL_EGREGORS = 6
    F_GOLD = 7
    F_KINDS = 8


# ------------------------------------------------------------------------------ moves and steps

cdef inline int32_t mk(int verb, int card, int other, int kind, int n) noexcept nogil:
    return verb | (card << 5) | (other << 11) | (kind << 17) | (n << 20)

cdef inline int m_verb(int32_t m) noexcept nogil:
    return m & 31

cdef inline int m_card(int32_t m) noexcept nogil:
    return (m >> 5) & 63

cdef inline int m_other(int32_t m) noexcept nogil:
    return (m >> 11) & 63

cdef inline int m_kind(int32_t m) noexcept nogil:
    return (m >> 17) & 7

cdef inline int m_n(int32_t m) noexcept nogil:
    return (m >> 20) & 15

cdef inline Step step(int kind, int player, int card, int a, int b, int c, int d) noexcept nogil:
    cdef Step out
    memset(&out, 0, sizeof(Step))
    out.kind = kind
    out.player = player
    out.card = card
    out.a = a
    out.b = b
    out.c = c
    out.d = d
    return out

cdef inline void push(Ctx* x, const Step* steps, int n) noexcept nogil:
    """Put ``steps`` at the front of the queue, in order (the first one ends up in front)."""
    cdef State* s = x.s
    cdef int i
    if s.n_todo + n > MAX_STEPS:  # cannot happen within the card files' limits (MAX_STEPS)
        n = MAX_STEPS - s.n_todo
    for i in range(n - 1, -1, -1):
        trail_log(x.tr, s, &s.todo[s.n_todo], sizeof(Step))
        s.todo[s.n_todo] = steps[i]
        s.n_todo += 1

cdef inline void push1(Ctx* x, Step st) noexcept nogil:
    push(x, &st, 1)


# ------------------------------------------------------------------------------ rune zones

cdef inline int total6(const uint8_t* r) noexcept nogil:
    return r[0] + r[1] + r[2] + r[3] + r[4] + r[5]

cdef void shuffle(uint8_t* xs, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates from the end, as ``Rng.shuffle``."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = xs[i]
        xs[i] = xs[j]
        xs[j] = t

cdef int draw_from(uint8_t* source, uint8_t* zone, uint64_t* rng) noexcept nogil:
    """One rune at random from ``source`` into ``zone`` (``below(total)`` walked in kind order); its
    kind, or -1 from an empty source."""
    cdef int total = total6(source), r, k
    if total == 0:
        return -1
    r = rng_below(rng, total)
    for k in range(NK):
        if r < source[k]:
            source[k] -= 1
            zone[k] += 1
            return k
        r -= source[k]
    return -1

cdef inline int bag_to(State* s, uint8_t* zone) noexcept nogil:
    return draw_from(s.bag, zone, s.rng)

cdef inline void to_pyramid(State* s, int p, int kind, int n) noexcept nogil:
    """Runes put in a Pyramid in sight of all."""
    s.pyramid[p][kind] += n
    s.known[p][kind] += n

cdef inline void from_pyramid(State* s, int p, int kind, int n) noexcept nogil:
    """Runes leave a Pyramid from its known part first (O-hidden-2)."""
    if n > s.pyramid[p][kind]:  # never on a legal move
        n = s.pyramid[p][kind]
    s.pyramid[p][kind] -= n
    s.known[p][kind] -= n if n < s.known[p][kind] else s.known[p][kind]

cdef inline int runes_on(const State* s, int card) noexcept nogil:
    return total6(s.carried[card])

cdef inline int n_colours_on(const State* s, int card) noexcept nogil:
    cdef int k, n = 0
    for k in range(NCOL):
        n += s.carried[card][k] > 0
    return n

cdef bint accepts(const Tables* tb, const State* s, int card, int kind, int n) noexcept nogil:
    """O-place-1, O-place-3: 10 runes, 2 colours, 1 on a Primitive."""
    if runes_on(s, card) + n > CARRY:
        return False
    if s.carried[card][kind] > 0:
        return True
    return n_colours_on(s, card) < (1 if tb.egr[card].primitive else COLOURS_ON_ONE)

cdef int owner(const State* s, int card) noexcept nogil:
    cdef int p, i
    for p in range(s.n):
        for i in range(s.n_controlled[p]):
            if s.controlled[p][i] == card:
                return p
    return -1

cdef int position(const State* s, int p, int card) noexcept nogil:
    cdef int i
    for i in range(s.n_controlled[p]):
        if s.controlled[p][i] == card:
            return i
    return -1

cdef void remove_at(uint8_t* xs, uint8_t* n, int i) noexcept nogil:
    cdef int j
    for j in range(i, n[0] - 1):
        xs[j] = xs[j + 1]
    n[0] -= 1

cdef void discard_card(Ctx* x, int card) noexcept nogil:
    cdef State* s = x.s
    trail_log(x.tr, s, &s.discard[s.n_discard], 1)
    s.discard[s.n_discard] = card
    s.n_discard += 1

cdef int top_of_stack(Ctx* x) noexcept nogil:
    """The top Egregor of the stack, the discard pile shuffled into a new stack if it is empty; -1
    with neither."""
    cdef State* s = x.s
    if s.n_stack == 0 and s.n_discard > 0:
        trail_log(x.tr, s, s.stack, s.n_discard)
        memcpy(s.stack, s.discard, s.n_discard)
        s.n_stack = s.n_discard
        s.n_discard = 0
        shuffle(s.stack, s.n_stack, s.rng)
    if s.n_stack == 0:
        return -1
    s.n_stack -= 1
    return s.stack[s.n_stack]


# ------------------------------------------------------------------------------ judgment

cdef int score(const Tables* tb, const State* s, int p) noexcept nogil:
    """O-judge-1: Arcana points + Runes Table + the Prestige bonus + the gold bonus."""
    cdef int on[NK]
    cdef int i, k, c, t, best = 0, total = 0, full = 0, kinds = 0, runes
    cdef int table[CARRY + 1]
    table[:] = [0, 0, 1, 2, 3, 4, 5, 6, 7, 9, 12]
    for k in range(NK):
        on[k] = 0
    for i in range(s.n_controlled[p]):
        c = s.controlled[p][i]
        runes = runes_on(s, c)
        total += table[runes]
        full += runes == CARRY
        for k in range(NK):
            on[k] += s.carried[c][k]
    total += GOLD_POINTS * on[GOLD]
    for i in range(s.n):
        if s.prestige[i] > best:
            best = s.prestige[i]
    if s.prestige[p] >= 1 and s.prestige[p] == best:
        total += PRESTIGE_BONUS
    for k in range(NK):
        kinds += on[k] > 0
    for i in range(s.n_taken[p]):
        t = s.taken[p][i]
        if tb.points[t] >= 0:
            total += tb.points[t]
        elif tb.counts[t] == F_WHITE:
            total += on[WHITE]
        elif tb.counts[t] == F_PRESTIGE:
            total += 2 * s.prestige[p]
        elif tb.counts[t] == F_BLUE:
            total += on[BLUE]
        elif tb.counts[t] == F_ARCANA:
            total += s.n_taken[p] // 2
        elif tb.counts[t] == F_PYRAMID_BLACK:
            total += s.pyramid[p][BLACK]
        elif tb.counts[t] == F_GREEN:
            total += on[GREEN]
        elif tb.counts[t] == F_FULL_EGREGORS:
            total += 3 * full
        elif tb.counts[t] == F_GOLD:
            total += on[GOLD]
        elif tb.counts[t] == F_KINDS:
            total += kinds
    return total

cdef int runes_carried(const State* s, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(s.n_controlled[p]):
        n += runes_on(s, s.controlled[p][i])
    return n

cdef void shares(const Tables* tb, const State* s, double* out) noexcept nogil:
    """O-judge-2: the best (score, runes carried, tokens) shares 1."""
    cdef long key[MAX_PLAYERS]
    cdef long best = -1
    cdef int p, k = 0
    for p in range(s.n):
        key[p] = (<long>score(tb, s, p) * 100000 + runes_carried(s, p)) * 1000 + s.n_taken[p]
        if key[p] > best:
            best = key[p]
    for p in range(s.n):
        k += key[p] == best
    for p in range(s.n):
        out[p] = 1.0 / k if key[p] == best else 0.0


# ------------------------------------------------------------------------------ legal moves

cdef bint power_does_something(const Tables* tb, const State* s, int p, int card) noexcept nogil:
    """D-omega-5: a power that would do nothing is not offered."""
    cdef const Egr* e = &tb.egr[card]
    cdef int k
    if e.power == P_CYCLE:
        return cycle_spots(s, p, e.colour) > 0
    if e.power == P_FATE:
        if e.colour == NONE:
            return total6(s.altar) + total6(s.bag) > 0
        return s.altar[e.colour] + s.bag[e.colour] > 0
    if e.power == P_KEY:
        return s.n_stack > 0 or s.n_discard > 0
    return e.power == P_THRUST and e.n > 0

cdef int cycle_spots(const State* s, int p, int colour) noexcept nogil:
    """The runes Runic Cycling may take (O-power-3)."""
    cdef int i, k, n = 0
    for i in range(s.n_controlled[p]):
        for k in range(NK):
            if colour == NONE or colour == k:
                n += s.carried[s.controlled[p][i]][k]
    return n

cdef int reveal_moves(const Tables* tb, const State* s, const Step* st, int32_t* out) noexcept nogil:
    """The runes of a summon or capture, first colour then second (D-omega-4)."""
    cdef const uint8_t* pyr = s.pyramid[st.player]
    cdef int primitive = tb.egr[st.card].primitive
    cdef int need = runes_on(s, st.card) + 1 if st.a == HOW_CAPTURE else 1
    cdef int a, b, n, m, best, most, count = 0
    if st.b == NONE:
        for a in range(NCOL):
            most = pyr[a] if pyr[a] < CARRY else CARRY
            for n in range(1, most + 1):
                best = 0
                if not primitive:
                    for b in range(a + 1, NCOL):
                        m = pyr[b] if pyr[b] < CARRY - n else CARRY - n
                        if m > best:
                            best = m
                if n + best >= need:
                    out[count] = mk(V_WITH, 0, 0, a, n)
                    count += 1
        return count
    a = st.b
    n = st.c
    if primitive:
        out[0] = mk(V_DONE, 0, 0, 0, 0)
        return 1
    if n >= need:
        out[count] = mk(V_DONE, 0, 0, 0, 0)
        count += 1
    for b in range(a + 1, NCOL):
        most = pyr[b] if pyr[b] < CARRY - n else CARRY - n
        for m in range(1, most + 1):
            if n + m >= need:
                out[count] = mk(V_ADD, 0, 0, b, m)
                count += 1
    return count

cdef bint can_reveal(const Tables* tb, const State* s, int p, int card, int need) noexcept nogil:
    """Whether reveal_moves would offer a first colour: some colour's most runes (up to 10) and the
    best second colour after it reach ``need`` (n plus the best second colour never falls as n grows)."""
    cdef const uint8_t* pyr = s.pyramid[p]
    cdef int a, b, m, best, second
    for a in range(NCOL):
        m = pyr[a] if pyr[a] < CARRY else CARRY
        if m == 0:
            continue
        best = 0
        if not tb.egr[card].primitive:
            for b in range(a + 1, NCOL):
                second = pyr[b] if pyr[b] < CARRY - m else CARRY - m
                if second > best:
                    best = second
        if m + best >= need:
            return True
    return False

cdef int step_moves(const Tables* tb, const State* s, const Step* st, int32_t* out) noexcept nogil:
    """The choices of the step in front of the queue (the reference's _step_moves)."""
    cdef int p = st.player, n = 0, k, i, c, pos, group, spots, colours, key
    cdef const Egr* e
    if st.kind == S_DRAW:
        for k in range(NK):
            if s.altar[k]:
                out[n] = mk(V_DRAW, 0, 0, k, 0)
                n += 1
        if total6(s.bag):
            out[n] = mk(V_DRAW, 0, 0, BAG_SOURCE, 0)
            n += 1
        return n
    if st.kind == S_ARCANA:
        for i in range(ARCANA_STACKS):
            if s.height[i]:
                out[n] = mk(V_ARCANA, s.arcana[i][s.height[i] - 1], i, 0, 0)
                n += 1
        return n
    if st.kind == S_PROLIFERATE:
        if s.altar[RED] and runes_on(s, st.card) < CARRY:
            out[0] = mk(V_PROLIFERATE, 0, 0, 0, 0)
            out[1] = mk(V_SKIP, 0, 0, 0, 0)
            return 2
        return 0
    if st.kind == S_LIGHTNING:
        if tb.egr[st.card].trigger == T_LIGHTNING and power_does_something(tb, s, p, st.card):
            out[0] = mk(V_POWER, st.card, 0, 0, 0)
            out[1] = mk(V_SKIP, 0, 0, 0, 0)
            return 2
        return 0
    if st.kind == S_KEEP:
        for k in range(st.b, NK):
            spots = 0
            for i in range(k, NK):
                spots += s.carried[st.card][i]
            if s.carried[st.card][k] and spots >= st.a:
                out[n] = mk(V_KEEP, 0, 0, k, 0)
                n += 1
        return n
    if st.kind == S_CYCLE:
        spots = cycle_spots(s, p, st.b)
        group = 0
        for pos in range(s.n_controlled[p]):
            c = s.controlled[p][pos]
            for k in range(NK):
                if (st.b == NONE or st.b == k) and s.carried[c][k]:
                    if (pos > st.c or (pos == st.c and k >= st.d)) and spots - group >= st.a:
                        out[n] = mk(V_CYCLE, c, 0, k, 0)
                        n += 1
                    group += s.carried[c][k]
        return n
    if st.kind == S_KEY:
        key = s.key_keys[st.a]
        colours = n_colours_on(s, key)
        for i in range(s.key_n_revealed):
            c = s.key_revealed[i]
            e = &tb.egr[c]
            if not (s.key_chosen >> c) & 1 and e.power != P_KEY and (not e.primitive or colours <= 1):
                out[n] = mk(V_REPLACE, key, c, 0, 0)
                n += 1
        out[n] = mk(V_RETAIN, key, 0, 0, 0)
        return n + 1
    if st.kind == S_REVEAL:
        return reveal_moves(tb, s, st, out)
    return 0

cdef bint can_capture(const State* s, int p, int card, int victim) noexcept nogil:
    """O-capture-2 (``victim``: the card's controller)."""
    if victim == p or s.announcer != NONE or s.lost[victim]:
        return False
    return runes_on(s, card) < CARRY and s.mask[victim] != card and s.n_controlled[victim] > 1

cdef int main_moves(const Tables* tb, const State* s, int32_t* out) noexcept nogil:
    """The active player's Main-phase moves: summon, capture, place, pair, black, mask, power,
    disown, end (the reference's order)."""
    cdef int p = s.active, n = 0, i, j, q, c, d, k, m, most, room, new_colour
    cdef const uint8_t* pyr = s.pyramid[p]
    cdef int own = s.n_controlled[p]
    if s.gained == NONE and pyr[0] + pyr[1] + pyr[2] + pyr[3] + pyr[4] > 0:
        for i in range(s.n_gallery):
            out[n] = mk(V_SUMMON, s.gallery[i], 0, 0, 0)
            n += 1
        for i in range(1, s.n):
            q = (p + i) % s.n
            for j in range(s.n_controlled[q]):
                c = s.controlled[q][j]
                if can_capture(s, p, c, q) and can_reveal(tb, s, p, c, runes_on(s, c) + 1):
                    out[n] = mk(V_CAPTURE, c, 0, 0, 0)
                    n += 1
    for i in range(own):  # the lines accepts() allows: up to 10 runes on it, a colour it has or room for one
        c = s.controlled[p][i]
        room = CARRY - runes_on(s, c)
        new_colour = n_colours_on(s, c) < (1 if tb.egr[c].primitive else COLOURS_ON_ONE)
        for k in range(NCOL):
            if s.carried[c][k] or new_colour:
                most = pyr[k] if pyr[k] < room else room
                for m in range(1, most + 1):
                    out[n] = mk(V_PLACE, c, 0, k, m)
                    n += 1
    if pyr[GREEN] >= 2:
        for i in range(own):
            c = s.controlled[p][i]
            for j in range(i + 1, own):
                d = s.controlled[p][j]
                if accepts(tb, s, c, GREEN, 1) and accepts(tb, s, d, GREEN, 1):
                    out[n] = mk(V_PAIR, c, d, 0, 0)
                    n += 1
    if pyr[BLACK]:
        for i in range(1, s.n):
            q = (p + i) % s.n
            for j in range(s.n_controlled[q]):
                c = s.controlled[q][j]
                if s.carried[c][WHITE] < WHITES_AGAINST_BLACK:
                    for k in range(NK):  # D-omega-11: a black for a black only while it shows a rune
                        if k != WHITE and s.carried[c][k] and not (k == BLACK and s.known[p][BLACK]):
                            out[n] = mk(V_BLACK, c, 0, k, 0)
                            n += 1
    if not s.mask_moved:
        for i in range(own):
            c = s.controlled[p][i]
            if not tb.egr[c].renegade and s.mask[p] != c:
                out[n] = mk(V_MASK, c, 0, 0, 0)
                n += 1
    for i in range(own):
        c = s.controlled[p][i]
        if tb.egr[c].trigger == T_BOOK and not (s.used >> c) & 1 and power_does_something(tb, s, p, c):
            out[n] = mk(V_POWER, c, 0, 0, 0)
            n += 1
    if s.gained != NONE and not s.disowned:
        for i in range(own):
            c = s.controlled[p][i]
            if c != s.gained:
                out[n] = mk(V_DISOWN, c, 0, 0, 0)
                n += 1
    if own <= CONTROL:
        out[n] = mk(V_END, 0, 0, 0, 0)
        n += 1
    return n

cdef int gen_moves(const Tables* tb, const State* s, int32_t* out) noexcept nogil:
    if s.phase == PH_OVER:
        return 0
    if s.n_todo:
        return step_moves(tb, s, &s.todo[s.n_todo - 1], out)
    return main_moves(tb, s, out)


# ------------------------------------------------------------------------------ effects

cdef int advance(Ctx* x, int p, int squares, Step* out) noexcept nogil:
    """Move a pawn; one Arcanum step per crossing of the Eye (O-disc-2, O-arcana-1)."""
    cdef int total = x.s.pawn[p] + squares, i, n = total // x.tb.squares
    x.s.pawn[p] = total % x.tb.squares
    for i in range(n):
        out[i] = step(S_ARCANA, p, NONE, 0, 0, 0, 0)
    return n

cdef int placed(Ctx* x, int p, int card, const uint8_t* runes, Step* out) noexcept nogil:
    """Runes placed: blue moves the pawn, then each red may proliferate, then each pair of greens
    draws (O-rune-1 to O-rune-5; D-omega-3)."""
    cdef int k, n
    for k in range(NK):
        x.s.carried[card][k] += runes[k]
    n = advance(x, p, BLUE_SQUARES * runes[BLUE], out)
    for k in range(runes[RED]):
        out[n] = step(S_PROLIFERATE, p, card, 0, 0, 0, 0)
        n += 1
    for k in range(runes[GREEN] // 2):
        out[n] = step(S_DRAW, p, NONE, 0, 0, 0, 0)
        n += 1
    return n

cdef void use_power(Ctx* x, int p, int card) noexcept nogil:
    cdef const Tables* tb = x.tb
    cdef State* s = x.s
    cdef const Egr* e = &tb.egr[card]
    cdef Step steps[MAX_STEPS]
    cdef int n, i, c, reveal = 0, top
    s.used |= (<uint64_t>1) << card
    if e.power == P_CYCLE:  # O-power-3, O-card-1
        n = cycle_spots(s, p, e.colour)
        if n:
            push1(x, step(S_CYCLE, p, NONE, e.n if e.n < n else n, e.colour, 0, 0))
    elif e.power == P_THRUST:  # O-power-4
        n = advance(x, p, e.n, steps)
        push(x, steps, n)
    elif e.power == P_FATE:  # O-power-5
        for i in range(e.n):
            steps[i] = step(S_DRAW, p, NONE, 0, 0, 0, 0) if e.colour == NONE else \
                step(S_COLOURED_DRAW, p, NONE, e.colour, 0, 0, 0)
        push(x, steps, e.n)
    elif e.power == P_KEY:  # O-power-6
        trail_log(x.tr, s, s.key_keys, sizeof(s.key_keys) + sizeof(s.key_revealed))
        s.key_n = 0
        for i in range(s.n_controlled[p]):
            c = s.controlled[p][i]
            if tb.egr[c].power == P_KEY and (c == card or (tb.egr[c].trigger == T_BOOK and not (s.used >> c) & 1)):
                s.key_keys[s.key_n] = c
                s.key_n += 1
        for i in range(s.key_n):
            s.used |= (<uint64_t>1) << s.key_keys[i]
            reveal += tb.egr[s.key_keys[i]].n
        s.key_n_revealed = 0
        for i in range(reveal):
            top = top_of_stack(x)
            if top < 0:
                break
            s.key_revealed[s.key_n_revealed] = top
            s.key_n_revealed += 1
        s.key_chosen = 0
        push1(x, step(S_KEY, p, NONE, 0, 0, 0, 0))

cdef void replace_key(Ctx* x, int p, int key, int new) noexcept nogil:
    """O-power-7: the runes move without triggering, the Key goes to the discard pile, the Mask
    follows (or returns unplaced from a Renegade)."""
    cdef State* s = x.s
    s.controlled[p][position(s, p, key)] = new
    memcpy(s.carried[new], s.carried[key], NK)
    memset(s.carried[key], 0, NK)
    discard_card(x, key)
    if s.mask[p] == key:
        s.mask[p] = NONE if x.tb.egr[new].renegade else new
    if s.gained == key:
        s.gained = new

cdef void step_turn(Ctx* x, int p) noexcept nogil:
    """A turn begins: Upkeep (O-upkeep-1), then the Draw (O-draw-1) and the Main phase."""
    cdef State* s = x.s
    cdef Step steps[2]
    cdef int card
    s.active = p
    s.turns += 1
    s.gained = NONE
    s.disowned = 0
    s.mask_moved = 0
    s.used = 0
    s.lost[p] = 0
    s.phase = PH_DRAW
    while total6(s.altar) < ALTAR and bag_to(s, s.altar) >= 0:
        pass
    while s.n_gallery < GALLERY:
        card = top_of_stack(x)
        if card < 0:
            break
        s.gallery[s.n_gallery] = card
        s.n_gallery += 1
    steps[0] = step(S_DRAW, p, NONE, 0, 0, 0, 0)
    steps[1] = step(S_MAIN, p, NONE, 0, 0, 0, 0)
    push(x, steps, 2)

cdef void step_end_phase(Ctx* x, int p) noexcept nogil:
    """O-endturn-1: the pawn moves by the Time Thrust of the Egregors controlled."""
    cdef State* s = x.s
    cdef Step steps[MAX_STEPS]
    cdef int i, thrust = 0, n
    s.phase = PH_END
    for i in range(s.n_controlled[p]):
        thrust += x.tb.egr[s.controlled[p][i]].thrust
    n = advance(x, p, thrust, steps)
    steps[n] = step(S_ENDINGS, p, NONE, 0, 0, 0, 0)
    push(x, steps, n + 1)

cdef void step_endings(Ctx* x, int p) noexcept nogil:
    """O-end-1 to O-end-3: announce the end, or play on; Judgment after the final turns."""
    cdef State* s = x.s
    cdef int i, full, following
    if s.announcer == NONE:
        full = s.n_controlled[p] == CONTROL
        for i in range(s.n_controlled[p]):
            full = full and runes_on(s, s.controlled[p][i]) == CARRY
        if s.n_taken[p] >= (6 if s.n == 4 else 7) or full or total6(s.bag) == 0:
            s.announcer = p
            s.n_final = s.n - 1
            for i in range(1, s.n):
                s.final[i - 1] = (p + i) % s.n
    elif s.n_final and s.final[0] == p:
        remove_at(s.final, &s.n_final, 0)
    if (s.announcer != NONE and s.n_final == 0) or s.turns >= s.max_turns:
        s.phase = PH_OVER
        s.n_todo = 0
        return
    following = s.final[0] if s.announcer != NONE else (p + 1) % s.n
    push1(x, step(S_TURN, following, NONE, 0, 0, 0, 0))

cdef void step_gain(Ctx* x, const Step* st) noexcept nogil:
    """A summon (O-summon-1 to 3) or the capturer's part of a capture (O-capture-3)."""
    cdef State* s = x.s
    cdef Step steps[MAX_STEPS]
    cdef int p = st.player, card = st.card, k, n, first
    if st.a == HOW_SUMMON:
        for k in range(s.n_gallery):
            if s.gallery[k] == card:
                remove_at(s.gallery, &s.n_gallery, k)
                break
    first = s.n_controlled[p] == 0
    s.controlled[p][s.n_controlled[p]] = card
    s.n_controlled[p] += 1
    memset(s.carried[card], 0, NK)
    if first and s.mask[p] == NONE and not x.tb.egr[card].renegade:
        s.mask[p] = card
    s.gained = card
    for k in range(NK):
        from_pyramid(s, p, k, st.runes[k])
    n = placed(x, p, card, st.runes, steps)
    if st.a == HOW_CAPTURE:
        s.prestige[p] += 1
    steps[n] = step(S_LIGHTNING, p, card, 0, 0, 0, 0)
    push(x, steps, n + 1)

cdef void step_lose(Ctx* x, const Step* st) noexcept nogil:
    """O-lose-1, O-lose-2: whites back to the Pyramid, then min(Snake Number, the others) runes of
    the loser's choice, then the rest to the bag."""
    cdef State* s = x.s
    cdef Step steps[2]
    cdef int p = st.player, card = st.card, keep, n = 0
    remove_at(s.controlled[p], &s.n_controlled[p], position(s, p, card))
    to_pyramid(s, p, WHITE, s.carried[card][WHITE])
    s.carried[card][WHITE] = 0
    if s.mask[p] == card:
        s.mask[p] = NONE
    if st.a == HOW_CAPTURE:
        s.lost[p] = 1
    keep = runes_on(s, card)
    if x.tb.egr[card].snake < keep:
        keep = x.tb.egr[card].snake
    if keep:
        steps[n] = step(S_KEEP, p, card, keep, 0, 0, 0)
        n += 1
    steps[n] = step(S_BAG_REST, p, card, st.a, 0, 0, 0)
    push(x, steps, n + 1)

cdef void step_bag_rest(Ctx* x, const Step* st) noexcept nogil:
    cdef State* s = x.s
    cdef int k
    for k in range(NK):
        s.bag[k] += s.carried[st.card][k]
    memset(s.carried[st.card], 0, NK)
    if st.a == HOW_DISOWN:
        discard_card(x, st.card)  # O-disown-3

cdef void step_coloured_draw(Ctx* x, int p, int colour) noexcept nogil:
    """From the Altar while it has that colour, else searched from the bag, else nothing (O-power-5)."""
    cdef State* s = x.s
    if s.altar[colour]:
        s.altar[colour] -= 1
        to_pyramid(s, p, colour, 1)
    elif s.bag[colour]:
        s.bag[colour] -= 1
        to_pyramid(s, p, colour, 1)

cdef void resolve(Ctx* x, const Step* st, int32_t m) noexcept nogil:
    """A choice of a step (the reference's _resolve)."""
    cdef State* s = x.s
    cdef const Tables* tb = x.tb
    cdef int p = st.player, verb = m_verb(m), kind = m_kind(m), card, i, t, c
    cdef Step nxt
    cdef Step steps[2]
    if st.kind == S_DRAW:
        if kind == BAG_SOURCE:
            bag_to(s, s.pyramid[p])
        else:
            s.altar[kind] -= 1
            to_pyramid(s, p, kind, 1)
    elif st.kind == S_ARCANA:
        i = m_other(m)
        s.height[i] -= 1
        t = s.arcana[i][s.height[i]]
        trail_log(x.tr, s, &s.taken[p][s.n_taken[p]], 1)
        s.taken[p][s.n_taken[p]] = t
        s.n_taken[p] += 1
    elif st.kind == S_PROLIFERATE:
        if verb == V_PROLIFERATE:
            s.altar[RED] -= 1
            s.carried[st.card][RED] += 1
    elif st.kind == S_LIGHTNING:
        if verb == V_POWER:
            use_power(x, p, st.card)
    elif st.kind == S_KEEP:
        s.carried[st.card][kind] -= 1
        to_pyramid(s, p, kind, 1)
        if st.a > 1:
            push1(x, step(S_KEEP, p, st.card, st.a - 1, kind, 0, 0))
    elif st.kind == S_CYCLE:
        card = m_card(m)
        s.carried[card][kind] -= 1
        to_pyramid(s, p, kind, 1)
        if st.a > 1:
            push1(x, step(S_CYCLE, p, NONE, st.a - 1, st.b, position(s, p, card), kind))
    elif st.kind == S_KEY:
        if verb == V_REPLACE:
            c = m_other(m)
            replace_key(x, p, s.key_keys[st.a], c)
            s.key_chosen |= (<uint64_t>1) << c
        if st.a + 1 < s.key_n:
            push1(x, step(S_KEY, p, NONE, st.a + 1, 0, 0, 0))
        else:
            for i in range(s.key_n_revealed):  # O-power-7
                c = s.key_revealed[i]
                if not (s.key_chosen >> c) & 1:
                    discard_card(x, c)
    elif st.kind == S_REVEAL:
        if verb == V_WITH:
            push1(x, step(S_REVEAL, p, st.card, st.a, kind, m_n(m), 0))
            return
        nxt = step(S_GAIN, p, st.card, st.a, 0, 0, 0)
        nxt.runes[st.b] = st.c
        if verb == V_ADD:
            nxt.runes[kind] = m_n(m)
        if st.a == HOW_SUMMON:
            push1(x, nxt)
        else:
            steps[0] = step(S_LOSE, owner(s, st.card), st.card, HOW_CAPTURE, 0, 0, 0)
            steps[1] = nxt
            push(x, steps, 2)

cdef void main_move(Ctx* x, int32_t m) noexcept nogil:
    """A Main-phase move of the active player (the reference's _main)."""
    cdef State* s = x.s
    cdef int p = s.active, verb = m_verb(m), card = m_card(m), kind = m_kind(m), n
    cdef uint8_t runes[NK]
    cdef Step steps[MAX_STEPS]
    if verb == V_SUMMON or verb == V_CAPTURE:
        push1(x, step(S_REVEAL, p, card, HOW_CAPTURE if verb == V_CAPTURE else HOW_SUMMON, NONE, 0, 0))
    elif verb == V_PLACE:
        memset(runes, 0, NK)
        runes[kind] = m_n(m)
        from_pyramid(s, p, kind, m_n(m))
        n = placed(x, p, card, runes, steps)
        push(x, steps, n)
    elif verb == V_PAIR:
        from_pyramid(s, p, GREEN, 2)
        s.carried[card][GREEN] += 1
        s.carried[m_other(m)][GREEN] += 1
        push1(x, step(S_DRAW, p, NONE, 0, 0, 0, 0))
    elif verb == V_BLACK:  # O-rune-9
        from_pyramid(s, p, BLACK, 1)
        s.carried[card][BLACK] += 1
        s.carried[card][kind] -= 1
        to_pyramid(s, p, kind, 1)
    elif verb == V_MASK:
        s.mask[p] = card
        s.mask_moved = 1
    elif verb == V_POWER:
        use_power(x, p, card)
    elif verb == V_DISOWN:
        s.disowned = 1
        push1(x, step(S_LOSE, p, card, HOW_DISOWN, 0, 0, 0))
    elif verb == V_END:
        push1(x, step(S_END_PHASE, p, NONE, 0, 0, 0, 0))

cdef void run(Ctx* x) noexcept nogil:
    """Resolve steps until a player must choose (or the game is over)."""
    cdef State* s = x.s
    cdef int32_t moves[MAX_MOVES]
    cdef Step st
    cdef int n
    while s.n_todo:
        st = s.todo[s.n_todo - 1]
        if st.kind < N_AUTO:
            s.n_todo -= 1
            if st.kind == S_TURN:
                step_turn(x, st.player)
            elif st.kind == S_MAIN:
                s.phase = PH_MAIN
            elif st.kind == S_GAIN:
                step_gain(x, &st)
            elif st.kind == S_LOSE:
                step_lose(x, &st)
            elif st.kind == S_BAG_REST:
                step_bag_rest(x, &st)
            elif st.kind == S_COLOURED_DRAW:
                step_coloured_draw(x, st.player, st.a)
            elif st.kind == S_END_PHASE:
                step_end_phase(x, st.player)
            elif st.kind == S_ENDINGS:
                step_endings(x, st.player)
            continue
        n = step_moves(x.tb, s, &st, moves)
        if n > 1:
            return
        s.n_todo -= 1
        if n == 1:  # a choice with one outcome is made for the player (D-omega-2)
            resolve(x, &st, moves[0])

cdef void do_move(Ctx* x, int32_t m) noexcept nogil:
    """Play a legal move and run to the next decision; the hot block is logged once."""
    cdef State* s = x.s
    cdef Step st
    trail_log(x.tr, s, s, <int>(<char*>&s.todo[0] - <char*>s))
    s.ply += 1
    if s.n_todo:
        st = s.todo[s.n_todo - 1]
        s.n_todo -= 1
        resolve(x, &st, m)
    else:
        main_move(x, m)
    run(x)

cdef void setup(const Tables* tb, State* s, uint64_t seed, const Setup* cfg) noexcept nogil:
    """Deal a game (O-setup-1 to O-setup-6) and run to the first decision."""
    cdef Ctx x
    cdef int i, place, seat, count
    cdef int start[3][MAX_PLAYERS]
    cdef uint8_t tokens[MAX_ARCANA]
    start[0][:] = [4, 5, 0, 0]
    start[1][:] = [4, 5, 6, 0]
    start[2][:] = [4, 5, 5, 6]
    memset(s, 0, sizeof(State))
    rng_seed(s.rng, seed)
    s.n = cfg.players
    s.first_player = cfg.first_player
    s.max_turns = cfg.max_turns
    s.gained = NONE
    s.announcer = NONE
    for i in range(MAX_PLAYERS):
        s.mask[i] = NONE
    memcpy(s.bag, tb.runes, NK)
    for i in range(ALTAR):  # O-setup-2
        bag_to(s, s.altar)
    for i in range(tb.n_egregors):  # O-setup-3
        s.stack[i] = i
    s.n_stack = tb.n_egregors
    shuffle(s.stack, s.n_stack, s.rng)
    for i in range(GALLERY):
        s.n_stack -= 1
        s.gallery[i] = s.stack[s.n_stack]
    s.n_gallery = GALLERY
    memcpy(tokens, tb.tokens, tb.n_tokens)  # O-setup-4
    shuffle(tokens, tb.n_tokens, s.rng)
    for i in range(tb.n_tokens):
        s.arcana[i % ARCANA_STACKS][s.height[i % ARCANA_STACKS]] = tokens[i]
        s.height[i % ARCANA_STACKS] += 1
    for place in range(s.n):  # O-setup-6, in turn order
        seat = (s.first_player + place) % s.n
        for count in range(start[s.n - 2][place]):
            bag_to(s, s.pyramid[seat])
    s.todo[0] = step(S_TURN, s.first_player, NONE, 0, 0, 0, 0)
    s.n_todo = 1
    x.tb = tb
    x.s = s
    x.tr = NULL
    run(&x)


# ------------------------------------------------------------------------------ determinisation

cdef void determinize(const Tables* tb, State* s, int player, uint64_t* rng) noexcept nogil:
    """:c:func:`deal_unseen`, dealt again while another player is in the middle of a summon or a
    capture he could not finish with the runes dealt to him (his choice showed he can); after
    DEAL_ATTEMPTS failed deals the true hidden runes stay and only the generator is reseeded."""
    cdef State before
    cdef int32_t moves[MAX_MOVES]
    cdef int attempt, i
    if s.n_todo == 0 or s.todo[s.n_todo - 1].kind != S_REVEAL or s.todo[s.n_todo - 1].player == player:
        deal_unseen(s, player, rng)
        return
    memcpy(&before, s, sizeof(State))
    for attempt in range(DEAL_ATTEMPTS):
        deal_unseen(s, player, rng)
        if gen_moves(tb, s, moves) > 0:
            return
        memcpy(s, &before, sizeof(State))
    for i in range(4):
        s.rng[i] = rng_next(rng)

cdef void deal_unseen(State* s, int player, uint64_t* rng) noexcept nogil:
    """Deal again everything ``player`` cannot see (issue 18, point 4): the runes unseen by him
    (the bag and the hidden part of each other Pyramid) go uniformly into each opponent's hidden
    slots, counts kept, in seat order, the rest to the bag; the Egregor stack is shuffled; the
    face-down Arcana under every stack's top are shuffled among the stacks, heights kept; the game's
    generator is reseeded, so future bag draws are unknown too. Runes an opponent is revealing
    (his pending ``with``) are known to all and stay."""
    cdef uint8_t pool[NK]
    cdef uint8_t fixed[MAX_PLAYERS][NK]
    cdef uint8_t under[ARCANA_STACKS * MAX_ARCANA]
    cdef int hidden[MAX_PLAYERS]
    cdef int q, k, i, j, n = 0
    cdef const Step* front = &s.todo[s.n_todo - 1] if s.n_todo else NULL
    memcpy(pool, s.bag, NK)
    for q in range(s.n):
        if q == player:
            continue
        memcpy(fixed[q], s.known[q], NK)
        if front != NULL and front.kind == S_REVEAL and front.player == q and front.b != NONE \
                and fixed[q][front.b] < front.c:
            fixed[q][front.b] = front.c
        hidden[q] = 0
        for k in range(NK):
            pool[k] += s.pyramid[q][k] - fixed[q][k]
            hidden[q] += s.pyramid[q][k] - fixed[q][k]
            s.pyramid[q][k] = fixed[q][k]
    for q in range(s.n):
        if q != player:
            for i in range(hidden[q]):
                draw_from(pool, s.pyramid[q], rng)
    memcpy(s.bag, pool, NK)
    shuffle(s.stack, s.n_stack, rng)
    for i in range(ARCANA_STACKS):
        for j in range(s.height[i] - 1):
            under[n] = s.arcana[i][j]
            n += 1
    shuffle(under, n, rng)
    n = 0
    for i in range(ARCANA_STACKS):
        for j in range(s.height[i] - 1):
            s.arcana[i][j] = under[n]
            n += 1
    for i in range(4):
        s.rng[i] = rng_next(rng)

# ------------------------------------------------------------------------------ the C contract

# what only this game says; the rest is game_api_table.pxi's (included below)

cdef int32_t api_seen_move(const void* tables, int32_t move, int mover, int viewer) noexcept nogil:
    """Every OMEGA move is public; only what a bag draw brings is hidden, and that is no move."""
    return move

ctypedef struct Track:
    # the advisor's game statistics (OmegaGame.outlook): the turn an iteration starts from
    int turns

cdef void api_track_begin(const void* tables, const void* s, void* track) noexcept nogil:
    (<Track*>track).turns = (<const State*>s).turns

cdef void api_track_step(const void* tables, const void* s, void* track) noexcept nogil:
    pass

cdef void api_track_stats(const void* tables, const void* s, const void* track, int player,
                          double* out) noexcept nogil:
    """At the end of an iteration (a finished game), from ``player``'s chair: his Judgment total,
    the best of his opponents', and the turns the game still took."""
    cdef const State* st = <const State*>s
    cdef int p, points, best = -2147483647
    for p in range(st.n):
        points = score(<const Tables*>tables, st, p)
        if p != player and points > best:
            best = points
    out[0] = score(<const Tables*>tables, st, player)
    out[1] = best  # so out[0] - out[1] is the search's VP margin (margin_of)
    out[2] = st.turns - (<const Track*>track).turns


include "game_api_table.pxi"

fill_game_api("omega", sizeof(Track), N_STATS)

# the core's limits and numbers are the data's and the rules' (a card file beyond them is refused by cards.py)
assert (card_data.MAX_EGREGORS, card_data.MAX_ARCANA, card_data.ARCANA_STACKS) == (MAX_EGREGORS, MAX_ARCANA, ARCANA_STACKS)
assert card_data.MAX_RUNES_OF_A_KIND <= 255 and card_data.MAX_SQUARES <= 255  # uint8 counts and squares
assert card_data.MAX_POWER <= CARRY and card_data.MAX_THRUST * CONTROL // card_data.MIN_SQUARES + 1 < MAX_STEPS
assert tuple(card_data.FORMULAS) == ("white", "prestige", "blue", "arcana", "pyramid_black", "green",
                                     "full_egregors", "gold", "kinds")
assert (omega_rules.ALTAR, omega_rules.GALLERY, omega_rules.CARRY, omega_rules.COLOURS_ON_ONE, omega_rules.CONTROL,
        omega_rules.BLUE_SQUARES, omega_rules.WHITES_AGAINST_BLACK, omega_rules.PRESTIGE_BONUS,
        omega_rules.GOLD_POINTS) == (ALTAR, GALLERY, CARRY, COLOURS_ON_ONE, CONTROL, BLUE_SQUARES,
                                     WHITES_AGAINST_BLACK, PRESTIGE_BONUS, GOLD_POINTS)
assert omega_rules.RUNES_TABLE == (0, 0, 1, 2, 3, 4, 5, 6, 7, 9, 12)
assert omega_rules.START_RUNES == {2: (4, 5), 3: (4, 5, 6), 4: (4, 5, 5, 6)}
assert omega_rules.MAX_TURNS < 65536 and VERB_NAMES == (
    "draw", "summon", "capture", "with", "add", "done", "place", "pair", "black", "mask", "power", "skip",
    "proliferate", "disown", "end", "keep", "cycle", "replace", "retain", "arcana")
assert [omega_rules.arcanic_end(n) for n in (2, 3, 4)] == [7, 7, 6]
assert STEP_NAMES[:N_AUTO] == omega_rules.AUTO_STEPS


# ------------------------------------------------------------------------------ Python edge

cdef class CoreTables:
    """A card set compiled for the core (shared by every state dealt with it), and the moves of
    its ids (decoded once each)."""

    cdef Tables tb
    cdef readonly object cards
    cdef dict _decoded

    def __init__(self, cards: CardSet):
        cdef int i
        _check_limits(cards)
        memset(&self.tb, 0, sizeof(Tables))
        self.cards = cards
        self._decoded = {}
        self.tb.n_egregors = len(cards.egregors)
        self.tb.squares = cards.squares
        for i in range(NK):
            self.tb.runes[i] = cards.runes[i]
        for i, e in enumerate(cards.egregors):
            self.tb.egr[i].snake = e.snake
            self.tb.egr[i].thrust = e.thrust
            self.tb.egr[i].trigger = (T_BOOK if e.trigger == "book" else T_LIGHTNING) if e.trigger else T_NONE
            self.tb.egr[i].power = card_data.POWERS.index(e.power) + 1 if e.power else P_NONE
            self.tb.egr[i].n = e.n
            self.tb.egr[i].colour = NONE if e.colour is None else e.colour
            self.tb.egr[i].renegade = e.renegade
            self.tb.egr[i].primitive = e.primitive
        self.tb.n_arcana = len(cards.arcana)
        for i, a in enumerate(cards.arcana):
            self.tb.points[i] = -1 if a.points is None else a.points
            self.tb.counts[i] = 0 if a.counts is None else tuple(card_data.FORMULAS).index(a.counts)
        self.tb.n_tokens = len(cards.tokens)
        for i, t in enumerate(cards.tokens):
            self.tb.tokens[i] = t

    def decode(self, int32_t m) -> Move:
        """The move of an id (its notation names this set's cards)."""
        move = self._decoded.get(m)
        if move is None:
            move = self._decoded[m] = self._decode(m)
        return move

    def _decode(self, int32_t m) -> Move:
        verb = VERB_NAMES[m_verb(m)]
        card, other, kind, n = m_card(m), m_other(m), m_kind(m), m_n(m)
        fields = {}
        for name in VERBS[verb]:
            if name == "card":
                fields[name] = (self.cards.arcana[card] if verb == "arcana" else self.cards.egregors[card]).name
            elif name == "other":
                fields[name] = self.cards.egregors[other].name
            elif name == "kind":
                fields[name] = KINDS[kind]
            elif name == "runes":
                fields[name] = (KINDS[kind], n)
            elif name == "source":
                fields[name] = SOURCES[kind]
            elif name == "stack":
                fields[name] = other + 1
        return Move(verb, **fields)


def _small(value, int most, str what) -> int:
    """``value`` as an int from 0 to ``most``; :class:`UsageError` naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise UsageError(f"{what}: must be a whole number from 0 to {most}, got {value!r}")
    return value


cdef int _card_or_none(value, int E, str what) except -1:
    return NONE if value is None else _small(value, E - 1, what)


cdef int _fill(uint8_t* dst, values, int size, int most, str what) except -1:
    """Writes ``values`` (at most ``size`` of them, each 0 to ``most``) to ``dst``; their number."""
    values = list(values)
    if len(values) > size:
        raise UsageError(f"{what}: at most {size} entries, got {len(values)}")
    for i, v in enumerate(values):
        dst[i] = _small(v, most, what)
    return len(values)


def _check_limits(cards) -> None:
    """A card set built in Python (not read by ``load_cards``) within the limits the card files are
    held to, which the core's arrays are sized by; :class:`UsageError` naming what is beyond."""
    def refuse(what, value):
        raise UsageError(f"cards: {cards.name!r}: {what} is beyond the limits of a card file, got {value!r}")
    if not card_data.MIN_EGREGORS <= len(cards.egregors) <= MAX_EGREGORS:
        refuse("the number of Egregors", len(cards.egregors))
    if not 1 <= len(cards.tokens) <= MAX_ARCANA or len(cards.arcana) > MAX_ARCANA:
        refuse("the number of Arcana tokens", len(cards.tokens))
    if len(cards.runes) != NK or any(not 0 <= n <= card_data.MAX_RUNES_OF_A_KIND for n in cards.runes) \
            or sum(cards.runes) < card_data.MIN_RUNES or sum(cards.runes[:NCOL]) < 1:
        refuse("runes", cards.runes)
    if not card_data.MIN_SQUARES <= cards.squares <= card_data.MAX_SQUARES:
        refuse("squares", cards.squares)
    for e in cards.egregors:
        if not (0 <= e.snake <= card_data.MAX_SNAKE and 0 <= e.thrust <= card_data.MAX_THRUST
                and 0 <= e.n <= card_data.MAX_POWER and e.trigger in (None, *card_data.TRIGGERS)
                and e.power in (None, *card_data.POWERS) and e.colour in (None, *range(NK))
                and e.tag in (None, *card_data.TAGS)):
            refuse(f"Egregor {e.name!r}", e)
    for a in cards.arcana:
        if not (a.points is None and a.counts in card_data.FORMULAS
                or a.counts is None and a.points is not None and 0 <= a.points <= card_data.MAX_POINTS):
            refuse(f"Arcanum {a.name!r}", a)


_TABLES: dict = {}

def tables_for(cards: CardSet) -> CoreTables:
    """The compiled tables of a card set (one per set)."""
    tables = _TABLES.get(cards)
    if tables is None:
        tables = _TABLES[cards] = CoreTables(cards)
    return tables


def state_size() -> int:
    """Bytes of the flat state: what a clone copies."""
    return sizeof(State)


include "undo_history.pxi"
include "core_state_base.pxi"


cdef class CoreState(CoreStateBase):
    """A game of OMEGA on the core, with the State interface of the reference engine
    (:class:`CoreStateBase`): ``scores()`` are each player's Judgment total (O-judge-1); ``returns()`` give 1 to a sole
    winner, 1/k to each of k sharing the win, 0 to the others (O-judge-2).

    ``clone()`` copies the one flat struct (the clone keeps the moves but has no undo history);
    ``apply``/``undo`` keep a trail of (offset, width, old bytes) records owned by the state.
    """

    cdef State s
    cdef CoreTables tables
    cdef Setup deal               # what game_handle lends: the set-up

    @staticmethod
    def new(seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> CoreState:
        """Deal a game exactly as ``OmegaState.new`` does for the same seed (dealt in C)."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cards = cards or default_cards()
        config = config or Config()
        if not isinstance(config, Config):
            raise UsageError(f"config: an OMEGA Config, got {type(config).__name__}")
        Rng(seed)  # validates the seed
        core.tables = tables_for(cards)
        core.config = config
        core.seed = seed
        core.deal.players = config.players
        core.deal.first_player = config.first_player
        core.deal.max_turns = config.max_turns
        setup(&core.tables.tb, &core.s, seed, &core.deal)
        return core

    @staticmethod
    def from_state(state) -> CoreState:
        """The same position on the core, from a reference ``OmegaState`` (or anything with its
        fields): every zone, the turn's flags, the step queue and the generator, so that it has the
        same future. Raises :class:`UsageError` naming a field the core cannot hold."""
        try:
            return CoreState._copy_of(state)
        except (AttributeError, TypeError, ValueError, IndexError, KeyError, OverflowError) as exc:
            raise UsageError(f"state: not a position the core can copy ({type(exc).__name__}: {exc})") from None

    @staticmethod
    def _copy_of(state) -> CoreState:
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef State* s = &core.s
        cdef int p, i, k
        cards, config = state.cards, state.config
        core.tables = tables_for(cards)
        core.config = config
        core.seed = getattr(state, "seed", None)
        core.deal.players = config.players
        core.deal.first_player = config.first_player
        core.deal.max_turns = config.max_turns
        E, n = len(cards.egregors), config.players
        memset(s, 0, sizeof(State))
        for i, word in enumerate(state.rng.s):
            s.rng[i] = word
        s.ply = _small(state.ply, 2**31 - 1, "ply")
        s.turns = _small(state.turns, 65535, "turns")
        s.max_turns = config.max_turns
        s.n = n
        s.first_player = config.first_player
        s.phase = PHASES.index(state.phase)
        s.active = _small(state.active, n - 1, "active")
        s.gained = _card_or_none(state.gained, E, "gained")
        s.disowned = bool(state.disowned)
        s.mask_moved = bool(state.mask_moved)
        s.announcer = NONE if state.announcer is None else _small(state.announcer, n - 1, "announcer")
        s.n_final = _fill(s.final, state.final, n - 1, n - 1, "final")
        _fill(s.bag, state.bag, NK, 255, "bag")
        _fill(s.altar, state.altar, NK, 255, "altar")
        for p in range(MAX_PLAYERS):
            s.mask[p] = NONE
        for p in range(n):
            _fill(s.pyramid[p], state.pyramid[p], NK, 255, f"pyramid[{p}]")
            _fill(s.known[p], state.known[p], NK, 255, f"known[{p}]")
            if any(s.known[p][k] > s.pyramid[p][k] for k in range(NK)):
                raise UsageError(f"known[{p}]: more known runes than the Pyramid holds")
            s.n_controlled[p] = _fill(s.controlled[p], state.controlled[p], MAX_CONTROL, E - 1, f"controlled[{p}]")
            s.mask[p] = _card_or_none(state.mask[p], E, f"mask[{p}]")
            s.pawn[p] = _small(state.pawn[p], cards.squares - 1, f"pawn[{p}]")
            s.lost[p] = bool(state.lost[p])
            s.prestige[p] = _small(state.prestige[p], 65535, f"prestige[{p}]")
            s.n_taken[p] = _fill(s.taken[p], state.taken[p], MAX_ARCANA, len(cards.arcana) - 1, f"taken[{p}]")
        s.n_gallery = _fill(s.gallery, state.gallery, GALLERY, E - 1, "gallery")
        s.n_stack = _fill(s.stack, state.stack, MAX_EGREGORS, E - 1, "stack")
        s.n_discard = _fill(s.discard, state.discard, MAX_EGREGORS, E - 1, "discard")
        if len(state.arcana) != ARCANA_STACKS:
            raise UsageError(f"arcana: {ARCANA_STACKS} stacks, got {len(state.arcana)}")
        for i in range(ARCANA_STACKS):
            s.height[i] = _fill(s.arcana[i], state.arcana[i], MAX_ARCANA, len(cards.arcana) - 1, f"arcana[{i}]")
        for c in state.used:
            s.used |= (<uint64_t>1) << _small(c, E - 1, "used")
        for c, runes in state.carried.items():
            _fill(s.carried[_small(c, E - 1, "carried")], runes, NK, CARRY, f"carried[{c}]")
        todo = list(state.todo)
        if len(todo) > MAX_STEPS:
            raise UsageError(f"todo: at most {MAX_STEPS} steps, got {len(todo)}")
        for i, raw in enumerate(reversed(todo)):
            s.todo[i] = core._step_record(raw, E)
        s.n_todo = len(todo)
        core._moves = list(state.moves)
        return core

    cdef Step _step_record(self, raw, int E):
        """A step record from a reference step tuple."""
        cdef Step st = step(STEP_NAMES.index(raw[0]), 0, NONE, 0, 0, 0, 0)
        cdef int k
        cdef State* s = &self.s
        name = raw[0]
        if name == "bag_rest":
            st.card, st.a = _small(raw[1], E - 1, "todo"), HOWS.index(raw[2])
            return st
        st.player = _small(raw[1], s.n - 1, "todo")
        if name == "gain":
            st.card, st.a = _small(raw[2], E - 1, "todo"), HOWS.index(raw[4])
            _fill(st.runes, raw[3], NK, CARRY, "todo gain")
        elif name == "lose":
            st.card, st.a = _small(raw[2], E - 1, "todo"), HOWS.index(raw[3])
        elif name == "coloured_draw":
            st.a = _small(raw[2], NK - 1, "todo")
        elif name in ("proliferate", "lightning"):
            st.card = _small(raw[2], E - 1, "todo")
        elif name == "keep":
            st.card, st.a, st.b = _small(raw[2], E - 1, "todo"), _small(raw[3], CARRY, "todo"), _small(raw[4], NK - 1, "todo")
        elif name == "cycle":
            st.a = _small(raw[2], CARRY, "todo")
            st.b = NONE if raw[3] is None else _small(raw[3], NK - 1, "todo")
            st.c, st.d = _small(raw[4][0], MAX_CONTROL, "todo"), _small(raw[4][1], NK - 1, "todo")
        elif name == "key":
            s.key_n = _fill(s.key_keys, raw[2], MAX_CONTROL, E - 1, "todo key")
            s.key_n_revealed = _fill(s.key_revealed, raw[3], MAX_EGREGORS, E - 1, "todo key")
            for c in raw[4]:
                s.key_chosen |= (<uint64_t>1) << _small(c, E - 1, "todo key")
        elif name == "reveal":
            st.a, st.card, st.b = ("summon", "capture").index(raw[2]), _small(raw[3], E - 1, "todo"), NONE
            if raw[4] is not None:
                st.b, st.c = _small(raw[4][0], NCOL - 1, "todo"), _small(raw[4][1], CARRY, "todo")
        return st

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

    @property
    def cards(self):
        return self.tables.cards

    # -- the reference's fields, for observe() and the renderers

    @property
    def bag(self) -> list:
        return [self.s.bag[k] for k in range(NK)]

    @property
    def altar(self) -> list:
        return [self.s.altar[k] for k in range(NK)]

    @property
    def pyramid(self) -> list:
        return [[self.s.pyramid[p][k] for k in range(NK)] for p in range(self.s.n)]

    @property
    def known(self) -> list:
        return [[self.s.known[p][k] for k in range(NK)] for p in range(self.s.n)]

    @property
    def controlled(self) -> list:
        return [[self.s.controlled[p][i] for i in range(self.s.n_controlled[p])] for p in range(self.s.n)]

    @property
    def carried(self) -> dict:
        """The runes on each Egregor in play (and on one being lost), as the reference's dict."""
        out = {}
        for p in range(self.s.n):
            for i in range(self.s.n_controlled[p]):
                c = self.s.controlled[p][i]
                out[c] = [self.s.carried[c][k] for k in range(NK)]
        for i in range(self.s.n_todo):
            st = &self.s.todo[i]
            if st.kind in (S_KEEP, S_BAG_REST) and st.card not in out:
                out[st.card] = [self.s.carried[st.card][k] for k in range(NK)]
        return out

    @property
    def mask(self) -> list:
        return [None if self.s.mask[p] == NONE else self.s.mask[p] for p in range(self.s.n)]

    @property
    def pawn(self) -> list:
        return [self.s.pawn[p] for p in range(self.s.n)]

    @property
    def prestige(self) -> list:
        return [self.s.prestige[p] for p in range(self.s.n)]

    @property
    def lost(self) -> list:
        return [bool(self.s.lost[p]) for p in range(self.s.n)]

    @property
    def taken(self) -> list:
        return [[self.s.taken[p][i] for i in range(self.s.n_taken[p])] for p in range(self.s.n)]

    @property
    def gallery(self) -> list:
        return [self.s.gallery[i] for i in range(self.s.n_gallery)]

    @property
    def stack(self) -> list:
        return [self.s.stack[i] for i in range(self.s.n_stack)]

    @property
    def discard(self) -> list:
        return [self.s.discard[i] for i in range(self.s.n_discard)]

    @property
    def arcana(self) -> list:
        return [[self.s.arcana[i][j] for j in range(self.s.height[i])] for i in range(ARCANA_STACKS)]

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
    def gained(self):
        return None if self.s.gained == NONE else self.s.gained

    @property
    def disowned(self) -> bool:
        return bool(self.s.disowned)

    @property
    def mask_moved(self) -> bool:
        return bool(self.s.mask_moved)

    @property
    def used(self) -> set:
        return {c for c in range(MAX_EGREGORS) if (self.s.used >> c) & 1}

    @property
    def announcer(self):
        return None if self.s.announcer == NONE else self.s.announcer

    @property
    def final(self) -> list:
        return [self.s.final[i] for i in range(self.s.n_final)]

    @property
    def todo(self) -> list:
        """The step queue as the reference's tuples, front first."""
        return [self._step_tuple(i) for i in range(self.s.n_todo - 1, -1, -1)]

    cdef object _step_tuple(self, int i):
        cdef Step st = self.s.todo[i]
        name = STEP_NAMES[st.kind]
        if st.kind in (S_TURN, S_MAIN, S_DRAW, S_END_PHASE, S_ENDINGS, S_ARCANA):
            return (name, st.player)
        if st.kind == S_GAIN:
            return (name, st.player, st.card, tuple(st.runes[k] for k in range(NK)), HOWS[st.a])
        if st.kind == S_LOSE:
            return (name, st.player, st.card, HOWS[st.a])
        if st.kind == S_BAG_REST:
            return (name, st.card, HOWS[st.a])
        if st.kind == S_COLOURED_DRAW:
            return (name, st.player, st.a)
        if st.kind in (S_PROLIFERATE, S_LIGHTNING):
            return (name, st.player, st.card)
        if st.kind == S_KEEP:
            return (name, st.player, st.card, st.a, st.b)
        if st.kind == S_CYCLE:
            return (name, st.player, st.a, None if st.b == NONE else st.b, (st.c, st.d))
        if st.kind == S_KEY:
            return (name, st.player, tuple(self.s.key_keys[j] for j in range(st.a, self.s.key_n)),
                    tuple(self.s.key_revealed[j] for j in range(self.s.key_n_revealed)),
                    frozenset(c for c in range(MAX_EGREGORS) if (self.s.key_chosen >> c) & 1))
        return (name, st.player, HOWS[st.a], st.card, None if st.b == NONE else (st.b, st.c))

    @property
    def rng(self) -> Rng:
        """A copy of the game's generator (drawing from it does not move the game's): with
        :meth:`view`'s fields, what :meth:`from_state` needs to rebuild this state (the adapters'
        serialisation)."""
        return Rng.from_state([self.s.rng[i] for i in range(4)])

    def view(self):
        """The reference's fields at once (what ``observe`` reads), cheaper than property by property."""
        return _View(self)


class _View:
    """A snapshot of a core state with the reference's field names."""

    def __init__(self, core):
        for name in ("cards", "config", "n", "ply", "turns", "active", "phase", "current_player", "todo",
                     "gained", "disowned", "mask_moved", "used", "announcer", "final", "bag", "altar",
                     "gallery", "stack", "discard", "arcana", "pyramid", "known", "controlled", "carried",
                     "mask", "pawn", "prestige", "taken", "lost"):
            setattr(self, name, getattr(core, name))
