# cython: language_level=3
"""The Cython core: Heir to the Dunes in one flat C struct.

A line-by-line port of the reference engine (``omen_search/reference/state.py``): same phases, same
effect frames, same decisions, same generation order of legal moves, same random generator, so that
a seed and a list of moves are the same game on both engines (checked by the differential tests).
Everything below ``# ---- C`` runs without the GIL and without Python objects.

Move bit layout (a packed ``int32``; converted to :class:`~omen_search.moves.Move` only at the edge)::

    bits  0-4   verb      index into moves.VERBS
    bits  5-10  a         unit id | reward tile id | structure slot | option index (by verb)
    bits 11-12  city      0-2
    bits 13-14  to        0-2 (move)
    bits 15-19  draw      0-31 (wealth, offer)
    bits 20-24  coin      0-31 (wealth, offer)
    bits 25-26  target    structure slot (build)
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from core_state cimport *

import numpy as np

from omen_search import cards as _limits
from omen_search.cards import GODS, CardSet, default_cards
from omen_search.errors import IllegalMoveError, UsageError
from omen_search.games.heir.observe import observe
from omen_search.games.heir.rules import LEVELS, Config, Pending, program
from omen_search.moves import VERBS, Move
from omen_search.rng import Rng

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

cdef enum:
    FILTER_NEUTRAL = 1  # _FILTERS["neutral"]

# phases: index into positions.PHASES
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

PHASE_NAMES = (
    "emissary", "wealth_reveal", "wealth_again", "wealth", "surge_start", "surge", "war", "war_keep",
    "war_enduring", "offering", "offering_limits", "end_check", "game_over",
)

# decision kinds: 1 + index into positions.DECISIONS (0: none)
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

DECISION_NAMES = (
    "", "emissary", "reveal", "wealth", "surge", "reinforce", "war", "keep", "enduring", "discard",
    "trash", "entomb", "structure", "reclaim", "move", "steal", "play_free", "unearth", "choose",
    "offering",
)

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
# the loader refuses card sets beyond the core's tables: both must name the same limits
assert (MAX_T, NCARDS, MAX_STACK, MAX_CODE, MAX_PROGS, MAX_OPTIONS, MAX_MOVES) == (
    _limits.MAX_UNIT_TYPES, _limits.DECK_SIZE, _limits.MAX_STACK, _limits.MAX_CODE, _limits.MAX_LISTS,
    _limits.MAX_OPTIONS, _limits.MAX_MOVES)

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
    LEVEL_NOVICE = 1      # levels: 1 + index in state.LEVELS
    TRAIL_MARGIN = 8192   # writes one move can make, at the most, with room to spare

# ------------------------------------------------------------------------------------------ C

cdef struct Ctx:
    const Tables* tb
    State* s
    Trail* tr


cdef inline int32_t mk(int verb, int a=0, int city=0, int to=0, int draw=0, int coin=0, int target=0) noexcept nogil:
    return verb | (a << 5) | (city << 11) | (to << 13) | (draw << 15) | (coin << 20) | (target << 25)

cdef inline int m_verb(int32_t m) noexcept nogil:
    return m & 31

cdef inline int m_a(int32_t m) noexcept nogil:
    return (m >> 5) & 63

cdef inline int m_city(int32_t m) noexcept nogil:
    return (m >> 11) & 3

cdef inline int m_to(int32_t m) noexcept nogil:
    return (m >> 13) & 3

cdef inline int m_draw(int32_t m) noexcept nogil:
    return (m >> 15) & 31

cdef inline int m_coin(int32_t m) noexcept nogil:
    return (m >> 20) & 31

cdef inline int m_target(int32_t m) noexcept nogil:
    return (m >> 25) & 3


# -- the undo trail: log the old bytes of a region, then write it directly

cdef inline void L(Ctx* c, void* p, int nbytes) noexcept nogil:
    cdef Trail* tr = c.tr
    cdef int off, w
    if tr == NULL or not tr.enabled:
        return
    off = <int>(<char*>p - <char*>c.s)
    while nbytes > 0:
        w = 8 if nbytes > 8 else nbytes
        if tr.n >= tr.cap:
            tr.enabled = 2  # overflow: reported by the caller
            return
        tr.off[tr.n] = <uint16_t>off
        tr.width[tr.n] = <uint8_t>w
        tr.old[tr.n] = 0
        memcpy(&tr.old[tr.n], <char*>c.s + off, w)
        tr.n += 1
        off += w
        nbytes -= w

cdef void trail_undo(State* s, Trail* tr, int mark) noexcept nogil:
    cdef int i = tr.n - 1
    while i >= mark:
        memcpy(<char*>s + tr.off[i], &tr.old[i], tr.width[i])
        i -= 1
    tr.n = mark


cdef inline void clone_state(State* dst, const State* src) noexcept nogil:
    """The core's clone: one copy of the flat struct."""
    memcpy(dst, src, sizeof(State))


# -- random numbers (omen_search.rng, bit for bit)

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(uint64_t* s) noexcept nogil:
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result

cdef inline uint32_t rng_below(uint64_t* s, uint32_t n) noexcept nogil:
    cdef int shift
    cdef uint64_t x
    if n <= 1:
        return 0
    shift = __builtin_clzll(<unsigned long long>(n - 1))  # = 64 - bit_length(n - 1)
    while True:
        x = rng_next(s) >> shift
        if x < n:
            return <uint32_t>x

cdef extern from *:
    """
    static inline void omen_barrier(void* p) { __asm__ __volatile__("" : : "g"(p) : "memory"); }
    static inline int omen_load_flag(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void omen_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline uint64_t omen_nonzero48(const uint8_t* xs) {
        const __m128i zero = _mm_setzero_si128();
        uint64_t a = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)xs), zero));
        uint64_t b = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(xs + 16)), zero));
        uint64_t c = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(xs + 32)), zero));
        return a | (b << 16) | (c << 32);
    }
    static inline int omen_sum48_and(const uint8_t* xs, const uint8_t* mask) {
        const __m128i zero = _mm_setzero_si128();
        __m128i s = _mm_setzero_si128();
        for (int i = 0; i < 48; i += 16) {
            __m128i x = _mm_and_si128(_mm_loadu_si128((const __m128i*)(xs + i)),
                                      _mm_loadu_si128((const __m128i*)(mask + i)));
            s = _mm_add_epi64(s, _mm_sad_epu8(x, zero));
        }
        return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8));
    }
    #else
    static inline uint64_t omen_nonzero48(const uint8_t* xs) {
        uint64_t m = 0;
        for (int t = 0; t < 48; t++) m |= (uint64_t)(xs[t] != 0) << t;
        return m;
    }
    static inline int omen_sum48_and(const uint8_t* xs, const uint8_t* mask) {
        int n = 0;
        for (int t = 0; t < 48; t++) n += xs[t] & mask[t];
        return n;
    }
    #endif
    """
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    uint64_t omen_nonzero48(const uint8_t* xs) nogil  # bit t set: xs[t] != 0, for the 48 (MAX_T) entries
    int omen_sum48_and(const uint8_t* xs, const uint8_t* mask) nogil  # sum of xs[t] & mask[t], 48 (MAX_T) entries
    void omen_barrier(void* p) nogil  # a compiler barrier: the bytes at p are used
    int omen_load_flag(int* p) nogil  # a flag another thread may set (a search's stop request)
    void omen_store_flag(int* p, int v) nogil

assert MAX_T == 48  # omen_nonzero48 and omen_sum48_and read exactly MAX_T bytes
cdef uint8_t ALL_UNITS[MAX_T]
memset(ALL_UNITS, 0xFF, MAX_T)  # the mask that keeps every count


cdef inline uint64_t units_present(const uint8_t* counts) noexcept nogil:
    """The set of units with a nonzero count, as bits; iterate with :func:`pop_unit`, lowest first."""
    return omen_nonzero48(counts)

cdef inline int pop_unit(uint64_t* units) noexcept nogil:
    """The lowest unit of a nonempty set, removed from it."""
    cdef int t = __builtin_ctzll(units[0])
    units[0] &= units[0] - 1
    return t

cdef inline uint64_t units_from(int first) noexcept nogil:
    """The set of units ``first`` and above."""
    return ~((<uint64_t>1 << first) - 1)

cdef inline int emit_units(int32_t* out, int n, uint64_t units, int verb) noexcept nogil:
    """Append ``verb`` of each unit of the set, lowest first; returns the new length."""
    while units:
        out[n] = mk(verb, pop_unit(&units))
        n += 1
    return n

cdef inline void rng_seed(uint64_t* s, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed, z
    cdef int i
    for i in range(4):
        x += <uint64_t>0x9E3779B97F4A7C15
        z = x
        z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
        s[i] = z ^ (z >> 31)

cdef inline void shuffle_raw(uint8_t* xs, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates from the end, as ``Rng.shuffle``."""
    cdef int i = n - 1, j
    cdef uint8_t tmp
    while i > 0:
        j = rng_below(rng, i + 1)
        tmp = xs[i]
        xs[i] = xs[j]
        xs[j] = tmp
        i -= 1

cdef inline void shuffle_u8(Ctx* c, uint8_t* xs, int n) noexcept nogil:
    """Shuffle with the game's generator (logged on the trail)."""
    L(c, xs, n)
    L(c, c.s.rng, sizeof(c.s.rng))
    shuffle_raw(xs, n, c.s.rng)


# -- small helpers (reference: GameState "small helpers")

cdef inline int devoted_to(const Tables* tb, int t, int god) noexcept nogil:
    return tb.devoted[god][t]

cdef inline int matches(const Tables* tb, int t, int f) noexcept nogil:
    return tb.passes[f][t]

cdef inline int resolves_for(Ctx* c, int t, int p) noexcept nogil:
    cdef int d = c.tb.devotion[t]
    return d == 3 or d == 2 or d == c.s.gods[p]

cdef inline int favored(State* s, int p) noexcept nogil:
    return s.favor == s.gods[p]

cdef inline int supply(State* s) noexcept nogil:
    return COINS - s.coins[0] - s.coins[1] - s.reserve

cdef inline int weighted(const uint8_t* counts, const uint8_t* weights) noexcept nogil:
    """Sum of ``counts[t] * weights[t]`` over all MAX_T units: a fixed length the compiler vectorises
    (entries past T are 0 in states and tables)."""
    cdef int t, n = 0
    for t in range(MAX_T):
        n += counts[t] * weights[t]
    return n

cdef inline int side_count(const Tables* tb, State* s, int city, int p) noexcept nogil:
    """Units in a city side, a COLOSSAL unit counting 2 (H-colossal)."""
    return unit_total(s.cities[city][p]) + omen_sum48_and(s.cities[city][p], tb.colossal)

cdef inline int fits(const Tables* tb, State* s, int city, int p, int t) noexcept nogil:
    return side_count(tb, s, city, p) + tb.size[t] <= CAPACITY

cdef inline int hand_size(const Tables* tb, State* s, int p) noexcept nogil:
    return unit_total(s.hands[p])

cdef inline int unit_total(const uint8_t* counts) noexcept nogil:
    """The sum of a count array over all MAX_T units."""
    return omen_sum48_and(counts, ALL_UNITS)

cdef inline int take_top(Ctx* c) noexcept nogil:
    """Top card of the deck, reshuffling the discard pile if it is empty (H-deck-1); -1 if none."""
    cdef State* s = c.s
    if s.deck_n == 0:
        if s.discard_n == 0:
            return -1
        L(c, s.deck, NCARDS)
        memcpy(s.deck, s.discard, s.discard_n)
        L(c, &s.deck_n, 1)
        L(c, &s.discard_n, 1)
        s.deck_n = s.discard_n
        s.discard_n = 0
        shuffle_u8(c, s.deck, s.deck_n)
    L(c, &s.deck_n, 1)
    s.deck_n -= 1
    return s.deck[s.deck_n]

cdef inline void inc(Ctx* c, uint8_t* p, int delta) noexcept nogil:
    L(c, p, 1)
    p[0] = <uint8_t>(p[0] + delta)

cdef inline void draw(Ctx* c, int p, int n) noexcept nogil:
    cdef int i, t
    for i in range(n):
        t = take_top(c)
        if t < 0:
            return
        inc(c, &c.s.hands[p][t], 1)

cdef inline void gain(Ctx* c, int p, int n) noexcept nogil:
    cdef int sup = supply(c.s)
    inc(c, &c.s.coins[p], n if n < sup else sup)

cdef inline void to_hand_public(Ctx* c, int p, int t) noexcept nogil:
    inc(c, &c.s.hands[p][t], 1)
    inc(c, &c.s.known[p][t], 1)

cdef inline void leave_hand(Ctx* c, int p, int t) noexcept nogil:
    inc(c, &c.s.hands[p][t], -1)
    if c.s.known[p][t] > 0:
        inc(c, &c.s.known[p][t], -1)

cdef inline void discard_card(Ctx* c, int t) noexcept nogil:
    cdef State* s = c.s
    L(c, &s.discard[s.discard_n], 1)
    s.discard[s.discard_n] = <uint8_t>t
    inc(c, &s.discard_n, 1)

cdef inline void take_from_discard(Ctx* c, int t) noexcept nogil:
    """Remove the copy of ``t`` nearest the top of the discard pile."""
    cdef State* s = c.s
    cdef int i = s.discard_n - 1, j
    while i >= 0:
        if s.discard[i] == t:
            L(c, &s.discard[i], s.discard_n - i)
            for j in range(i, s.discard_n - 1):
                s.discard[j] = s.discard[j + 1]
            inc(c, &s.discard_n, -1)
            return
        i -= 1

cdef inline int incomplete_count(State* s, int p) noexcept nogil:
    return (not s.completed[p][0]) + (not s.completed[p][1]) + (not s.completed[p][2])

cdef inline int first_incomplete(State* s, int p) noexcept nogil:
    cdef int k
    for k in range(3):
        if not s.completed[p][k]:
            return k
    return -1

cdef inline void push(Ctx* c, int prog, int owner, int city) noexcept nogil:
    cdef State* s = c.s
    if s.stack_n >= MAX_STACK:
        return  # cannot happen: the loader refuses card sets that could need more (cards.MAX_STACK)
    L(c, &s.stack[s.stack_n], sizeof(Frame))
    s.stack[s.stack_n].prog = <int16_t>prog
    s.stack[s.stack_n].pc = 0
    s.stack[s.stack_n].owner = <int8_t>owner
    s.stack[s.stack_n].city = <int8_t>city
    inc(c, &s.stack_n, 1)

cdef inline void set_pending(Ctx* c, int kind, int player, int owner=-1, int n=0, int last=0, int card=-1,
                             int city=-1, int prog=-1, int index=-1) noexcept nogil:
    cdef Decision* d = &c.s.pending
    L(c, d, sizeof(Decision))
    d.kind = <uint8_t>kind
    d.player = <int8_t>player
    d.owner = <int8_t>owner
    d.n = <uint8_t>n
    d.last = <uint8_t>last
    d.card = <int8_t>card
    d.city = <int8_t>city
    d.prog = <int16_t>prog
    d.index = <int8_t>index

cdef inline void clear_pending(Ctx* c) noexcept nogil:
    L(c, &c.s.pending.kind, 1)
    c.s.pending.kind = DK_NONE

cdef inline void set8(Ctx* c, uint8_t* p, int v) noexcept nogil:
    L(c, p, 1)
    p[0] = <uint8_t>v

cdef inline void seti8(Ctx* c, int8_t* p, int v) noexcept nogil:
    L(c, p, 1)
    p[0] = <int8_t>v

cdef inline void zero(Ctx* c, uint8_t* p, int n) noexcept nogil:
    L(c, p, n)
    memset(p, 0, n)

cdef inline const Instr* instr(const Tables* tb, int prog, int index) noexcept nogil:
    return &tb.code[tb.prog_start[prog] + index]


# -- strength and war

cdef int strength(const Tables* tb, State* s, int city, int p) noexcept nogil:
    cdef int total = weighted(s.cities[city][p], tb.strength)
    if favored(s, p) and not (s.level and p == CH):  # S-invocation-1: never the Corrupted Heir's
        total += weighted(s.cities[city][p], tb.invocation)
    return total

cdef int printed_cost(const Tables* tb, State* s, int city, int p) noexcept nogil:
    return weighted(s.cities[city][p], tb.cost)

cdef int war_torn(const Tables* tb, State* s, int* out) noexcept nogil:
    """H-war-1: fills ``out`` with the war-torn cities; returns how many."""
    cdef int c, n = 0, other = 1 - s.active, mine, theirs
    for c in range(NCITIES):  # branch-free: write always, keep if war-torn
        theirs = side_count(tb, s, c, other)
        mine = side_count(tb, s, c, s.active)
        out[n] = c
        n += (s.city_tiles_n[c] != 0) & ((theirs >= 3) | (theirs + mine >= 5))
    return n

cdef void resolve_war(Ctx* c, int city) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int a = s.active, b = 1 - s.active, victor, tile
    cdef int sa = strength(tb, s, city, a), sb = strength(tb, s, city, b)
    cdef int ca = printed_cost(tb, s, city, a), cb = printed_cost(tb, s, city, b)
    if sa == sb and ca == cb:
        victor = -1
    elif sa > sb or (sa == sb and ca > cb):
        victor = a
    else:
        victor = b
    if victor >= 0:
        inc(c, &s.city_tiles_n[city], -1)
        tile = s.city_tiles[city][s.city_tiles_n[city]]
        L(c, &s.unused[victor], 2)
        s.unused[victor] |= <uint16_t>(1 << tile)
    seti8(c, &s.war_city, city)
    seti8(c, &s.war_victor, victor)
    set8(c, &s.keep_step, 0)
    set8(c, &s.phase, PH_WAR_KEEP)


# -- playing a unit (reference: _play_unit)

cdef inline int play_cost(Ctx* c, int p, int t) noexcept nogil:
    cdef int cost = c.tb.cost[t]
    return cost - (devoted_to(c.tb, t, c.s.gods[p]) & (c.s.discount_used == 0) & (cost > 0))

cdef inline void flip_favor(Ctx* c, int t) noexcept nogil:
    """H-surge-4: favor flips when the unit is devoted to the god not favored."""
    if c.tb.devotion[t] == 2:
        set8(c, &c.s.favor, 1 - c.s.favor)
    elif c.tb.devotion[t] < 2 and c.tb.devotion[t] != c.s.favor:
        set8(c, &c.s.favor, c.tb.devotion[t])

cdef void play_unit(Ctx* c, int p, int t, int city, int paid, int from_hand) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int god = s.gods[p], cost
    if paid:
        inc(c, &s.coins[p], -play_cost(c, p, t))
    if from_hand and devoted_to(tb, t, god) and not s.discount_used:  # H-surge-3, even when free
        set8(c, &s.discount_used, 1)
    inc(c, &s.cities[city][p][t], 1)
    flip_favor(c, t)
    if not resolves_for(c, t, p):
        return
    if tb.maneuver[t]:
        push(c, tb.prog_maneuver[t], p, city)
    if tb.invocation[t] and favored(s, p):
        push(c, tb.prog_invocation[t], p, city)
    if devoted_to(tb, t, god):
        push(c, tb.prog_reinforce_choice, p, city)

cdef int play_moves(Ctx* c, int p, const uint8_t* counts, int paid, int only_god, int32_t* out) noexcept nogil:
    cdef const Tables* tb = c.tb
    cdef int t, city, ok, n = 0
    cdef int room[NCITIES]
    for city in range(NCITIES):
        room[city] = CAPACITY - side_count(tb, c.s, city, p)
    cdef uint64_t units = units_present(counts)
    if only_god:
        units &= tb.devoted_set[c.s.gods[p]]
    while units:
        t = pop_unit(&units)
        ok = (paid == 0) | (play_cost(c, p, t) <= c.s.coins[p])
        for city in range(NCITIES):  # branch-free: write always, keep if playable and it fits
            out[n] = mk(V_PLAY, t, city)
            n += ok & (tb.size[t] <= room[city])
    return n


# -- several picks in key order (reference: _pick_keys)

cdef int pick_keys(const uint8_t* counts, int size, int last, int remaining, int mandatory, int* out) noexcept nogil:
    cdef int k, n = 0, suffix = 0
    for k in range(last, size):
        suffix += counts[k]
    for k in range(last, size):
        out[n] = k
        n += (counts[k] != 0) & ((not mandatory) | (suffix >= remaining))
        suffix -= counts[k]
    return n


# -- decisions: legal moves (reference: _moves_*)

cdef int entomb_counts(Ctx* c, const Decision* d, uint8_t* counts) noexcept nogil:
    cdef const Instr* e = instr(c.tb, d.prog, d.index)
    cdef int side = d.owner if e.side == 0 else 1 - d.owner
    cdef int city, t, T = c.tb.T, total = 0
    memset(counts, 0, NCITIES * MAX_T)
    for city in range(NCITIES):
        if e.where == 1 and city != d.city:
            continue
        for t in range(T):
            counts[city * T + t] = c.s.cities[city][side][t] * matches(c.tb, t, e.filter)
            total += counts[city * T + t]
    return total

cdef int gen_moves(Ctx* c, const Decision* d, int32_t* out) noexcept nogil:
    """Every legal move of the pending decision ``d``, in the reference engine's order."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int T = tb.T, p = d.player, n = 0, t, k, city, src, dst, v, nk, god, slot
    cdef uint64_t units, small, single, moved
    cdef int room[NCITIES]
    cdef int keys[NCITIES * MAX_T]
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef int cities[NCITIES]
    cdef const Instr* e
    cdef int kind = d.kind
    if kind == DK_EMISSARY:
        n = emit_units(out, n, units_present(s.hands[p]), V_EMISSARY)
    elif kind == DK_REVEAL:
        n = emit_units(out, n, units_present(s.hands[p]) & tb.filter_set[FILTER_NEUTRAL], V_REVEAL)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_WEALTH:
        k = d.n
        while k >= 0:
            out[n] = mk(V_WEALTH, 0, 0, 0, k, d.n - k)
            n += 1
            k -= 1
    elif kind == DK_SURGE:
        n = play_moves(c, p, s.hands[p], 1, 0, out)
        if not s.reward_used:
            for k in range(NTILES):
                if s.unused[p] & (1 << k):
                    out[n] = mk(V_USE, k)
                    n += 1
        out[n] = mk(V_END)
        n += 1
    elif kind == DK_REINFORCE:
        god = s.gods[p]
        for city in range(NCITIES):
            units = units_present(s.cities[city][p]) & tb.reinforcer_set[god]
            while units:
                out[n] = mk(V_REINFORCE, pop_unit(&units), city)
                n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_WAR:
        nk = war_torn(tb, s, cities)
        for k in range(nk):
            out[n] = mk(V_WAR, 0, cities[k])
            n += 1
    elif kind == DK_KEEP:  # H-war-4: only picks after which the kept set can still be made maximal
        units = units_present(s.limbo) & units_from(d.last)
        if d.n < 2:  # room for no COLOSSAL unit (size 2), or for none at all
            units &= 0 if d.n < 1 else ~tb.colossal_set
        else:  # room for two: a unit of size 1 needs another one at or after it, or to be the only one
            small = units_present(s.limbo) & ~tb.colossal_set
            single = units & small
            while single:
                t = pop_unit(&single)
                if s.limbo[t] < 2 and not (small & units_from(t + 1)) and small != (<uint64_t>1 << t):
                    units &= ~(<uint64_t>1 << t)
        n = emit_units(out, n, units, V_KEEP)
    elif kind == DK_ENDURING:
        n = emit_units(out, n, units_present(s.destroyed[p]), V_ENDURING)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_DISCARD:
        memcpy(counts, s.hands[p], T)
        if d.card >= 0:
            counts[d.card] -= 1
        nk = pick_keys(counts, T, d.last, d.n, 1, keys)
        for k in range(nk):
            out[n] = mk(V_DISCARD, keys[k])
            n += 1
    elif kind == DK_TRASH:
        e = instr(tb, d.prog, d.index)
        n = emit_units(out, n, units_present(s.hands[1 - p]) & tb.filter_set[e.filter] & units_from(d.last),
                       V_DISCARD)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_ENTOMB:
        e = instr(tb, d.prog, d.index)
        entomb_counts(c, d, counts)
        nk = pick_keys(counts, NCITIES * T, d.last, d.n, not e.up_to, keys)
        for k in range(nk):
            out[n] = mk(V_ENTOMB, keys[k] % T, keys[k] // T)
            n += 1
        if e.up_to:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_STRUCTURE:
        for slot in range(3):
            if not s.completed[p][slot]:
                out[n] = mk(V_STRUCTURE, slot)
                n += 1
    elif kind == DK_RECLAIM:
        memset(counts, 0, T)
        for k in range(s.discard_n):
            counts[s.discard[k]] += 1
        for t in range(d.last, T):
            out[n] = mk(V_TAKE, t)
            n += counts[t] != 0
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_MOVE:
        e = instr(tb, d.prog, d.index)
        for dst in range(NCITIES):
            room[dst] = CAPACITY - side_count(tb, s, dst, p)
        for src in range(NCITIES):
            units = units_present(s.cities[src][p])
            moved = units_present(s.moved[src])
            while moved:  # H-surge-7: each unit moves once; those moved here stay
                t = pop_unit(&moved)
                if s.cities[src][p][t] <= s.moved[src][t]:
                    units &= ~(<uint64_t>1 << t)
            if e.mode == 1:  # a MANEUVER move: not a MANEUVER unit, and from or to the maneuvering city
                units &= ~tb.maneuver_set
            while units:
                t = pop_unit(&units)
                for dst in range(NCITIES):  # branch-free: write always, keep if allowed
                    out[n] = mk(V_MOVE, t, src, dst)
                    n += ((dst != src) & (tb.size[t] <= room[dst])
                          & ((e.mode != 1) | (d.city == src) | (d.city == dst)))
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_STEAL:
        e = instr(tb, d.prog, d.index)
        n = emit_units(out, n, units_present(s.cities[d.city][1 - p]) & tb.filter_set[e.filter], V_TAKE)
    elif kind == DK_PLAY_FREE:
        n = play_moves(c, p, s.hands[p], 0, 0, out)
    elif kind == DK_UNEARTH:  # H-card-10: a free play, or exactly n takes; pass only when n is 0
        if d.card < 0:
            n = play_moves(c, p, s.revealed, 0, 1, out)
        if d.n:
            nk = pick_keys(s.revealed, T, d.last, d.n, 1, keys)
            for k in range(nk):
                out[n] = mk(V_TAKE, keys[k])
                n += 1
        elif d.card < 0:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_CHOOSE:
        e = instr(tb, d.prog, d.index)
        for k in range(e.n_options):
            out[n] = mk(V_CHOOSE, k)
            n += 1
    elif kind == DK_OFFERING:
        out[n] = mk(V_PASS)
        n += 1
        nk = 0  # the structures a unit can be built into
        if s.building[p] >= 0:
            cities[0] = s.building[p]
            nk = 1
        else:
            for slot in range(3):
                cities[nk] = slot
                nk += s.completed[p][slot] == 0
        units = units_present(s.hands[p])
        while units:
            t = pop_unit(&units)
            v = tb.offering[t]
            for k in range(tb.max_offering + 1):  # a fixed length: the writes past v are overwritten
                out[n + k] = mk(V_OFFER, t, 0, 0, (v - k) & 31, k)
            n += v + 1
            for k in range(nk):
                out[n + k] = mk(V_BUILD, t, 0, 0, 0, 0, cities[k])
            n += nk
    return n

cdef inline int has_choice(Ctx* c, const Decision* d) noexcept nogil:
    """More legal moves than just ``pass`` (reference: ``self._moves_X(d)[:-1]``)."""
    cdef int32_t buf[MAX_MOVES]
    return gen_moves(c, d, buf) > 1


# -- effect ops (reference: _op_*)

cdef void step_effect(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef Frame* f = &s.stack[s.stack_n - 1]
    cdef int prog = f.prog, index = f.pc, owner = f.owner, city = f.city
    cdef int opp = 1 - owner, n, total, t, p, dest
    cdef const Instr* e
    cdef Decision d
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef int32_t buf[MAX_MOVES]
    if index >= tb.prog_len[prog]:
        inc(c, &s.stack_n, -1)
        return
    L(c, &f.pc, sizeof(f.pc))
    f.pc += 1
    e = instr(tb, prog, index)
    if e.op == OP_DRAW:
        draw(c, owner, e.n)
    elif e.op == OP_GAIN:
        gain(c, owner, e.n)
    elif e.op == OP_FAVOR:
        set8(c, &s.favor, s.gods[owner])
    elif e.op == OP_IF_FAVORED:
        if favored(s, owner):
            push(c, e.then_prog, owner, city)
    elif e.op == OP_DISCARD:
        n = hand_size(tb, s, owner)
        n = e.n if e.n < n else n
        if n:
            set_pending(c, DK_DISCARD, owner, owner, n)
    elif e.op == OP_OPP_DISCARDS:
        n = hand_size(tb, s, opp)
        n = e.n if e.n < n else n
        if n:
            set_pending(c, DK_DISCARD, opp, owner, n, 0, -1, -1, prog, index)
    elif e.op == OP_REVEAL_HAND_DISCARD:
        L(c, s.known[opp], MAX_T)
        memcpy(s.known[opp], s.hands[opp], MAX_T)
        d.kind = DK_TRASH; d.player = owner; d.owner = owner; d.n = e.n; d.last = 0
        d.card = -1; d.city = -1; d.prog = prog; d.index = index
        if has_choice(c, &d):
            set_pending(c, DK_TRASH, owner, owner, e.n, 0, -1, -1, prog, index)
    elif e.op == OP_ENTOMB:
        if incomplete_count(s, owner) == 0:
            return
        d.kind = DK_ENTOMB; d.player = owner; d.owner = owner; d.n = e.n; d.last = 0
        d.card = -1; d.city = city; d.prog = prog; d.index = index
        total = entomb_counts(c, &d, counts)
        if total:
            set_pending(c, DK_ENTOMB, owner, owner, e.n if (e.up_to or e.n < total) else total,
                        0, -1, city, prog, index)
    elif e.op == OP_RECLAIM:
        if s.discard_n:
            set_pending(c, DK_RECLAIM, owner, owner, e.n)
    elif e.op == OP_MOVE:
        d.kind = DK_MOVE; d.player = owner; d.owner = owner; d.n = e.n; d.last = 0
        d.card = -1; d.city = city; d.prog = prog; d.index = index
        if has_choice(c, &d):
            set_pending(c, DK_MOVE, owner, owner, e.n, 0, -1, city, prog, index)
    elif e.op == OP_DESTROY_ALL:
        total = 0
        for n in range(NCITIES):
            for p in range(2):
                for t in range(tb.T):
                    if s.cities[n][p][t] and matches(tb, t, e.filter):
                        for dest in range(s.cities[n][p][t]):
                            discard_card(c, t)
                        total += s.cities[n][p][t]
                        set8(c, &s.cities[n][p][t], 0)
        draw(c, owner, total * e.draw_each)
    elif e.op == OP_STEAL_UNIT:
        d.kind = DK_STEAL; d.player = owner; d.owner = owner; d.n = 0; d.last = 0
        d.card = -1; d.city = city; d.prog = prog; d.index = index
        if gen_moves(c, &d, buf) > 0:
            set_pending(c, DK_STEAL, owner, owner, 0, 0, -1, city, prog, index)
    elif e.op == OP_PLAY_FREE:
        if play_moves(c, owner, s.hands[owner], 0, 0, buf) > 0:
            set_pending(c, DK_PLAY_FREE, owner)
    elif e.op == OP_UNEARTH:
        n = unit_total(s.revealed)
        d.kind = DK_UNEARTH; d.player = owner; d.owner = owner; d.n = e.take if e.take < n else n; d.last = 0
        d.card = -1; d.city = -1; d.prog = -1; d.index = -1
        if gen_moves(c, &d, buf) == 1 and buf[0] == mk(V_PASS):  # no play and nothing to take
            unearth_rest(c)
        else:
            set_pending(c, DK_UNEARTH, owner, owner, d.n)
    elif e.op == OP_CHOOSE:
        set_pending(c, DK_CHOOSE, owner, owner, 0, 0, -1, city, prog, index)
    elif e.op == OP_REINFORCE_CHOICE:
        d.kind = DK_REINFORCE; d.player = owner; d.owner = -1; d.n = 0; d.last = 0
        d.card = -1; d.city = -1; d.prog = -1; d.index = -1
        if has_choice(c, &d):
            set_pending(c, DK_REINFORCE, owner)
    elif e.op == OP_DISCARD_BUILT:
        discard_card(c, e.n)


# -- phases (reference: _phase_*)

cdef void destroy_limbo(Ctx* c, int p) noexcept nogil:
    cdef State* s = c.s
    cdef int t, k
    for t in range(c.tb.T):
        for k in range(s.limbo[t]):
            discard_card(c, t)
        if s.limbo[t] and c.tb.enduring[t] and resolves_for(c, t, p):
            inc(c, &s.destroyed[p][t], s.limbo[t])
    zero(c, s.limbo, MAX_T)

cdef void god_reveal(Ctx* c) noexcept nogil:
    cdef int t = take_top(c)
    if t < 0:
        return
    if devoted_to(c.tb, t, c.s.gods[c.s.active]):
        to_hand_public(c, c.s.active, t)
    else:
        discard_card(c, t)

# -- the Corrupted Heir (reference: GameState._heir_*)

cdef inline int heir_active(const State* s) noexcept nogil:
    return s.level != 0 and s.active == CH

cdef inline int game_below(Ctx* c, int n) noexcept nogil:
    """A draw from the game's generator (logged on the trail), as ``self.rng.below(n)``."""
    L(c, c.s.rng, sizeof(c.s.rng))
    return rng_below(c.s.rng, n)

cdef int heir_place(Ctx* c, int t, int city) noexcept nogil:
    """S-place-1: into ``city`` or the next one to the right with reward tiles and room; -1 and
    discarded when none has."""
    cdef int k, cc
    for k in range(NCITIES):
        cc = (city + k) % NCITIES
        if c.s.city_tiles_n[cc] and fits(c.tb, c.s, cc, CH, t):
            inc(c, &c.s.cities[cc][CH][t], 1)
            flip_favor(c, t)
            return cc
    discard_card(c, t)
    return -1

cdef void heir_wealth(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef int t
    if s.reserve > 0 and s.coins[CH] < CH_COINS and not (s.level == LEVEL_NOVICE and s.first_turn):
        inc(c, &s.reserve, -1)
        inc(c, &s.coins[CH], 1)
    t = take_top(c)
    if t >= 0:
        if devoted_to(c.tb, t, s.gods[CH]):
            heir_place(c, t, OMEN_CITY)
        else:
            discard_card(c, t)
    set8(c, &s.phase, PH_SURGE_START)

cdef void heir_surge(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int budget = s.coins[CH], paid = 0, city = OMEN_CITY, t, cost, discounted, placed, slot, k
    cdef int best = -1, key, n_tied = 0, pick
    cdef int tied[MAX_T]
    cdef uint8_t beneath[MAX_T]
    while True:
        t = take_top(c)
        if t < 0:
            break
        discounted = devoted_to(tb, t, s.gods[CH]) and not s.discount_used
        cost = tb.cost[t]
        if discounted and cost > 0:
            cost -= 1
        paid += cost
        if discounted:
            set8(c, &s.discount_used, 1)
        placed = heir_place(c, t, city)  # S-surge-2: placed even when it takes the total over
        if paid > budget or placed < 0:  # D-solo-surge-1
            break
        city = (placed + 1) % NCITIES
    slot = s.building[CH]
    if slot >= 0 and unit_total(s.under[CH]) >= tb.build[s.gods[CH]][slot]:
        set8(c, &s.completed[CH][slot], 1)
        seti8(c, &s.building[CH], -1)
        memcpy(beneath, s.under[CH], MAX_T)
        zero(c, s.under[CH], MAX_T)
        for t in range(tb.T):
            if beneath[t]:
                key = tb.strength[t] * 256 + tb.cost[t]
                if key > best:
                    best = key
                    n_tied = 0
                if key == best:
                    tied[n_tied] = t
                    n_tied += 1
        pick = tied[game_below(c, n_tied)] if n_tied > 1 else tied[0]
        beneath[pick] -= 1
        for t in range(tb.T):
            for k in range(beneath[t]):
                discard_card(c, t)
        heir_place(c, pick, OMEN_CITY)
    set8(c, &s.phase, PH_WAR)

cdef void heir_keep(Ctx* c, int limit) noexcept nogil:
    """The legal (maximal, H-war-4) set of the Heir's units in limbo with the greatest printed
    strength, then cost, at random among equals (D-solo-keep-1); sets are listed in the reference's
    order."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int opt_a[64]
    cdef int opt_b[64]
    cdef int new_a[64]
    cdef int new_b[64]
    cdef int n_opt = 1, n_new, i, k, t, u, units, size, key, best_key, n_tied = 0, pick, maximal
    cdef int tied[64]
    opt_a[0] = -1
    opt_b[0] = -1
    for t in range(tb.T):
        if not s.limbo[t]:
            continue
        n_new = 0
        for i in range(n_opt):
            units = (opt_a[i] >= 0) + (opt_b[i] >= 0)
            size = (tb.size[opt_a[i]] if opt_a[i] >= 0 else 0) + (tb.size[opt_b[i]] if opt_b[i] >= 0 else 0)
            for k in range(s.limbo[t] + 1):
                if units + k > 2 or size + k * tb.size[t] > limit or n_new >= 64:
                    break  # a keep holds at most 2 units: larger sets are never legal
                new_a[n_new] = opt_a[i] if opt_a[i] >= 0 else (t if k >= 1 else -1)
                new_b[n_new] = opt_b[i] if opt_a[i] >= 0 and opt_b[i] >= 0 else (
                    (t if k >= 1 else -1) if opt_a[i] >= 0 else (t if k >= 2 else -1))
                n_new += 1
        n_opt = n_new
        memcpy(opt_a, new_a, n_new * sizeof(int))
        memcpy(opt_b, new_b, n_new * sizeof(int))
    best_key = -1
    for i in range(n_opt):
        key = 0
        size = 0
        for t in range(2):
            k = opt_a[i] if t == 0 else opt_b[i]
            if k >= 0:  # strength, then cost (each below 64 in a set of two)
                key += tb.strength[k] * 256 + tb.cost[k]
                size += tb.size[k]
        maximal = 1
        for u in range(tb.T):  # a legal set leaves no unit that would still fit
            if s.limbo[u] > (opt_a[i] == u) + (opt_b[i] == u) and size + tb.size[u] <= limit:
                maximal = 0
        if not maximal:
            continue
        if key > best_key:
            best_key = key
            n_tied = 0
        if key == best_key:
            tied[n_tied] = i
            n_tied += 1
    pick = tied[game_below(c, n_tied)] if n_tied > 1 else tied[0]
    for t in range(2):
        k = opt_a[pick] if t == 0 else opt_b[pick]
        if k >= 0:
            inc(c, &s.limbo[k], -1)
            inc(c, &s.cities[s.war_city][CH][k], 1)
    destroy_limbo(c, CH)

cdef void heir_offering(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef int t, k, card
    set8(c, &s.phase, PH_END_CHECK)
    if s.building[CH] < 0 and incomplete_count(s, CH) == 0:
        return  # D-solo-offer-1
    t = take_top(c)
    if t < 0:
        return
    discard_card(c, t)
    if s.building[CH] < 0:
        seti8(c, &s.building[CH], first_incomplete(s, CH))
    for k in range(c.tb.strength[t]):
        card = take_top(c)
        if card < 0:
            break
        inc(c, &s.under[CH][card], 1)

cdef void step_phase(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int p, t, slot, first, k0, k1, excess, empty, limit, nt, city
    cdef int torn[NCITIES]
    cdef Decision d
    cdef int32_t buf[MAX_MOVES]
    cdef int ph = s.phase
    if ph == PH_EMISSARY:
        p = 0 if s.emissaries[0] < 0 else 1
        if s.emissaries[p] < 0 and hand_size(tb, s, p) > 0:
            set_pending(c, DK_EMISSARY, p)
            return
        if s.emissaries[0] < 0 or s.emissaries[1] < 0:
            first = 0 if s.emissaries[1] < 0 else 1
        else:
            k0 = tb.cost[s.emissaries[0]] + tb.strength[s.emissaries[0]] + tb.offering[s.emissaries[0]]
            k1 = tb.cost[s.emissaries[1]] + tb.strength[s.emissaries[1]] + tb.offering[s.emissaries[1]]
            if k0 != k1:
                first = 0 if k0 > k1 else 1
            elif tb.strength[s.emissaries[0]] != tb.strength[s.emissaries[1]]:
                first = 0 if tb.strength[s.emissaries[0]] > tb.strength[s.emissaries[1]] else 1
            else:
                first = s.first_player  # the oldest player (Setup 4)
        set8(c, &s.active, first)
        set8(c, &s.favor, s.gods[1 - first])
        for p in range(2):
            if s.emissaries[p] >= 0:
                if p == first:
                    discard_card(c, s.emissaries[p])
                else:
                    to_hand_public(c, p, s.emissaries[p])
        seti8(c, &s.emissaries[0], -1)
        seti8(c, &s.emissaries[1], -1)
        set8(c, &s.phase, PH_WEALTH_REVEAL)
    elif ph == PH_WEALTH_REVEAL:
        if heir_active(s):
            heir_wealth(c)
            return
        god_reveal(c)
        set8(c, &s.phase, PH_WEALTH_AGAIN)
    elif ph == PH_WEALTH_AGAIN:
        set8(c, &s.phase, PH_WEALTH)
        if not s.reveal_again_used and units_present(s.hands[s.active]) & tb.filter_set[FILTER_NEUTRAL]:
            set_pending(c, DK_REVEAL, s.active)
    elif ph == PH_WEALTH:
        set_pending(c, DK_WEALTH, s.active, -1, 2 if s.first_turn else 3)
    elif ph == PH_SURGE_START:
        if heir_active(s):
            heir_surge(c)
            return
        p = s.active
        set8(c, &s.phase, PH_SURGE)
        slot = s.building[p]
        if slot >= 0 and unit_total(s.under[p]) >= tb.build[s.gods[p]][slot]:
            set8(c, &s.completed[p][slot], 1)
            seti8(c, &s.building[p], -1)
            L(c, s.revealed, MAX_T)
            memcpy(s.revealed, s.under[p], MAX_T)
            zero(c, s.under[p], MAX_T)
            push(c, tb.prog_structure[s.gods[p]][slot], p, -1)
    elif ph == PH_SURGE:
        set_pending(c, DK_SURGE, s.active)
    elif ph == PH_WAR:
        nt = war_torn(tb, s, torn)
        if nt == 0:
            set8(c, &s.phase, PH_OFFERING)
        elif nt == 1 or heir_active(s):
            resolve_war(c, torn[0])  # D-solo-war-1
        else:
            set_pending(c, DK_WAR, s.active)
    elif ph == PH_WAR_KEEP:
        if s.keep_step == 2:
            set8(c, &s.keep_step, 0)
            set8(c, &s.phase, PH_WAR_ENDURING)
            return
        p = s.active if s.keep_step == 0 else 1 - s.active
        inc(c, &s.keep_step, 1)
        limit = 1 if p == s.war_victor else 2
        city = s.war_city
        if side_count(tb, s, city, p) <= limit:
            return
        L(c, s.limbo, MAX_T)
        memcpy(s.limbo, s.cities[city][p], MAX_T)
        zero(c, s.cities[city][p], MAX_T)
        if s.level and p == CH:
            heir_keep(c, limit)
            return
        d.kind = DK_KEEP; d.player = p; d.owner = -1; d.n = limit; d.last = 0
        d.card = -1; d.city = city; d.prog = -1; d.index = -1
        if gen_moves(c, &d, buf) > 0:
            set_pending(c, DK_KEEP, p, -1, limit, 0, -1, city)
        else:
            destroy_limbo(c, p)
    elif ph == PH_WAR_ENDURING:
        for k0 in range(2):
            p = s.active if k0 == 0 else 1 - s.active
            if unit_total(s.destroyed[p]):
                if hand_size(tb, s, p) >= 1:
                    set_pending(c, DK_ENDURING, p)
                    return
                zero(c, s.destroyed[p], MAX_T)
        seti8(c, &s.war_city, -1)
        seti8(c, &s.war_victor, -1)
        set8(c, &s.phase, PH_WAR)
    elif ph == PH_OFFERING:
        if heir_active(s):
            heir_offering(c)
        elif hand_size(tb, s, s.active) == 0:  # D-decision-1: `pass` would be the only move
            set8(c, &s.phase, PH_OFFERING_LIMITS)
        else:
            set_pending(c, DK_OFFERING, s.active)
    elif ph == PH_OFFERING_LIMITS:
        p = s.active
        excess = hand_size(tb, s, p) - HAND_LIMIT
        set8(c, &s.phase, PH_END_CHECK)
        if excess > 0:
            set_pending(c, DK_DISCARD, p, p, excess)
    elif ph == PH_END_CHECK:
        p = s.active
        if s.coins[p] > COIN_LIMIT:
            set8(c, &s.coins[p], COIN_LIMIT)
        empty = 0
        for city in range(NCITIES):
            if s.city_tiles_n[city] == 0:
                empty += 1
        if (empty >= 2 or (s.completed[0][0] and s.completed[0][1] and s.completed[0][2])
                or (s.completed[1][0] and s.completed[1][1] and s.completed[1][2]) or s.turn >= s.max_turns):
            set8(c, &s.phase, PH_GAME_OVER)
            return
        set8(c, &s.active, 1 - p)
        L(c, &s.turn, sizeof(s.turn))
        s.turn += 1
        set8(c, &s.first_turn, 0)
        set8(c, &s.discount_used, 0)
        set8(c, &s.reward_used, 0)
        set8(c, &s.reveal_again_used, 0)
        set8(c, &s.phase, PH_WEALTH_REVEAL)

cdef void run(Ctx* c) noexcept nogil:
    """Resolve everything automatic until a decision is pending or the game is over."""
    cdef State* s = c.s
    while s.pending.kind == DK_NONE and s.phase != PH_GAME_OVER:
        if s.stack_n:
            step_effect(c)
        else:
            step_phase(c)


# -- decisions: playing a move (reference: _do_*)

cdef void entomb_under(Ctx* c, Decision d, int slot) noexcept nogil:
    """ENTOMB beneath ``slot``; ``d.last`` is the unit's key (city * T + unit); then the next pick."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef const Instr* e = instr(tb, d.prog, d.index)
    cdef int city = d.last // tb.T, t = d.last % tb.T
    cdef int side = d.owner if e.side == 0 else 1 - d.owner
    cdef int32_t buf[MAX_MOVES]
    inc(c, &s.cities[city][side][t], -1)
    inc(c, &s.under[d.owner][t], 1)
    seti8(c, &s.building[d.owner], slot)
    d.kind = DK_ENTOMB
    d.player = d.owner
    if d.n > 0 and gen_moves(c, &d, buf) - (1 if e.up_to else 0) > 0:
        set_pending(c, DK_ENTOMB, d.owner, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)

cdef void unearth_rest(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef int t, k
    for t in range(c.tb.T):
        for k in range(s.revealed[t]):
            discard_card(c, t)
    zero(c, s.revealed, MAX_T)

cdef void do_move(Ctx* c, int32_t m) noexcept nogil:
    """Play a legal move of the pending decision, then run to the next decision."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef Decision d = s.pending
    cdef int verb = m_verb(m), a = m_a(m), p = d.player, t, draws, coins, slot, k
    cdef const Instr* e
    cdef int32_t buf[MAX_MOVES]
    clear_pending(c)
    L(c, &s.ply, sizeof(s.ply))
    s.ply += 1
    if d.kind == DK_EMISSARY:
        inc(c, &s.hands[p][a], -1)
        if s.known[p][a] > s.hands[p][a]:
            set8(c, &s.known[p][a], s.hands[p][a])
        seti8(c, &s.emissaries[p], a)
    elif d.kind == DK_REVEAL:
        if verb != V_PASS:
            leave_hand(c, p, a)
            discard_card(c, a)
            set8(c, &s.reveal_again_used, 1)
            god_reveal(c)
    elif d.kind == DK_WEALTH:
        draws = m_draw(m) + (1 if m_draw(m) == d.n else 0)
        coins = m_coin(m) + (1 if m_draw(m) == 0 else 0)
        draw(c, p, draws)
        gain(c, p, coins)
        set8(c, &s.phase, PH_SURGE_START)
    elif d.kind == DK_SURGE:
        if verb == V_END:
            set8(c, &s.phase, PH_WAR)
        elif verb == V_USE:
            L(c, &s.unused[p], 2)
            s.unused[p] &= <uint16_t>~(1 << a)
            L(c, &s.used[p], 2)
            s.used[p] |= <uint16_t>(1 << a)
            set8(c, &s.reward_used, 1)
            push(c, tb.prog_reward[a], p, -1)
        else:
            leave_hand(c, p, a)
            play_unit(c, p, a, m_city(m), 1, 1)
    elif d.kind == DK_REINFORCE:
        if verb == V_REINFORCE:
            push(c, tb.prog_reinforce[a], p, m_city(m))
    elif d.kind == DK_WAR:
        resolve_war(c, m_city(m))
    elif d.kind == DK_KEEP:
        inc(c, &s.limbo[a], -1)
        inc(c, &s.cities[d.city][p][a], 1)
        d.n -= tb.size[a]
        d.last = a
        if gen_moves(c, &d, buf) > 0:
            set_pending(c, DK_KEEP, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
            run(c)
            return
        destroy_limbo(c, p)
    elif d.kind == DK_ENDURING:
        if verb == V_PASS:
            zero(c, s.destroyed[p], MAX_T)
        else:
            inc(c, &s.destroyed[p][a], -1)
            take_from_discard(c, a)
            to_hand_public(c, p, a)
            set_pending(c, DK_DISCARD, p, p, 1, 0, a)
    elif d.kind == DK_DISCARD:
        leave_hand(c, p, a)
        e = instr(tb, d.prog, d.index) if d.prog >= 0 else NULL
        if e != NULL and e.steal_if and devoted_to(tb, a, e.steal_if - 1):
            to_hand_public(c, d.owner, a)
        else:
            discard_card(c, a)
        if d.n > 1:
            set_pending(c, DK_DISCARD, p, d.owner, d.n - 1, a, d.card, d.city, d.prog, d.index)
    elif d.kind == DK_TRASH:
        if verb != V_PASS:
            leave_hand(c, 1 - p, a)
            discard_card(c, a)
            d.n -= 1
            d.last = a
            if d.n and has_choice(c, &d):
                set_pending(c, DK_TRASH, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
    elif d.kind == DK_ENTOMB:
        if verb != V_PASS:
            d.n -= 1
            d.last = m_city(m) * tb.T + a
            if s.building[d.owner] < 0 and incomplete_count(s, d.owner) > 1:
                set_pending(c, DK_STRUCTURE, d.owner, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
            else:
                slot = s.building[d.owner] if s.building[d.owner] >= 0 else first_incomplete(s, d.owner)
                entomb_under(c, d, slot)
    elif d.kind == DK_STRUCTURE:
        entomb_under(c, d, a)
    elif d.kind == DK_RECLAIM:
        if verb != V_PASS:
            take_from_discard(c, a)
            to_hand_public(c, p, a)
            d.n -= 1
            d.last = a
            if d.n and has_choice(c, &d):
                set_pending(c, DK_RECLAIM, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
    elif d.kind == DK_MOVE:
        if verb != V_PASS:
            inc(c, &s.cities[m_city(m)][p][a], -1)
            inc(c, &s.cities[m_to(m)][p][a], 1)
            inc(c, &s.moved[m_to(m)][a], 1)
            d.n -= 1
        if verb != V_PASS and d.n and has_choice(c, &d):
            set_pending(c, DK_MOVE, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
        else:
            for k in range(NCITIES):  # the moves are over: forget which units moved
                if units_present(s.moved[k]):
                    zero(c, s.moved[k], MAX_T)
    elif d.kind == DK_STEAL:
        inc(c, &s.cities[d.city][1 - p][a], -1)
        to_hand_public(c, p, a)
        push(c, instr(tb, d.prog, d.index).then_prog, p, d.city)
    elif d.kind == DK_PLAY_FREE:
        leave_hand(c, p, a)
        play_unit(c, p, a, m_city(m), 0, 1)
    elif d.kind == DK_UNEARTH:
        if verb == V_TAKE:
            inc(c, &s.revealed[a], -1)
            to_hand_public(c, p, a)
            if d.n > 1:
                set_pending(c, DK_UNEARTH, p, d.owner, d.n - 1, a, a, d.city, d.prog, d.index)
                run(c)
                return
            unearth_rest(c)
        elif verb == V_PLAY:
            inc(c, &s.revealed[a], -1)
            unearth_rest(c)
            play_unit(c, p, a, m_city(m), 0, 0)
        else:
            unearth_rest(c)
    elif d.kind == DK_CHOOSE:
        e = instr(tb, d.prog, d.index)
        push(c, e.option_prog[a], d.owner, d.city)
    elif d.kind == DK_OFFERING:
        set8(c, &s.phase, PH_OFFERING_LIMITS)
        if verb != V_PASS:
            leave_hand(c, p, a)
            if verb == V_OFFER:
                discard_card(c, a)
                draw(c, p, m_draw(m))
                gain(c, p, m_coin(m))
            else:
                seti8(c, &s.building[p], m_target(m))
                for k in range(tb.strength[a]):
                    t = take_top(c)
                    if t < 0:
                        break
                    inc(c, &s.under[p][t], 1)
                push(c, tb.prog_built[a], p, -1)
                if tb.prog_labor[a] >= 0:
                    push(c, tb.prog_labor[a], p, -1)
    run(c)


# -- scores and playouts

cdef int popcount16(uint16_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= <uint16_t>(x - 1)
        n += 1
    return n

cdef int treasured_in_hand(const Tables* tb, const State* s, int p) noexcept nogil:
    cdef int t, n = 0
    for t in range(tb.T):
        if tb.treasured[t]:
            n += s.hands[p][t]
    return n

cdef int score(const Tables* tb, const State* s, int p) noexcept nogil:
    """H-score-1."""
    cdef int slot, vp = 2 * popcount16(s.unused[p]) + popcount16(s.used[p]) + treasured_in_hand(tb, s, p)
    for slot in range(3):
        if s.completed[p][slot]:
            vp += tb.vp[s.gods[p]][slot]
    return vp

cdef int winner(const Tables* tb, const State* s) noexcept nogil:
    """H-score-1 with its tie-breaks (favor always decides the last one)."""
    cdef int k, a, b
    for k in range(4):
        if k == 0:
            a, b = score(tb, s, 0), score(tb, s, 1)
        elif k == 1:
            a, b = popcount16(s.unused[0]), popcount16(s.unused[1])
        elif k == 2:
            a, b = treasured_in_hand(tb, s, 0), treasured_in_hand(tb, s, 1)
        else:
            a, b = s.favor == s.gods[0], s.favor == s.gods[1]
        if a != b:
            return 0 if a > b else 1
    return 1

cdef int random_playout(const Tables* tb, State* s, uint64_t* policy) noexcept nogil:
    """Play uniformly random legal moves to the end; returns the number of plies played."""
    cdef Ctx c
    cdef int32_t buf[MAX_MOVES]
    cdef int n, plies = 0
    c.tb = tb
    c.s = s
    c.tr = NULL
    while s.phase != PH_GAME_OVER:
        n = gen_moves(&c, &s.pending, buf)
        do_move(&c, buf[rng_below(policy, n)])
        plies += 1
    return plies

cdef int64_t perft(const Tables* tb, State* s, Trail* tr, int depth) noexcept nogil:
    """Leaves of the move tree ``depth`` plies deep (chance fixed by the state's generator)."""
    cdef Ctx c
    cdef int32_t buf[MAX_MOVES]
    cdef int n, i, mark
    cdef int64_t total = 0
    if depth == 0 or s.phase == PH_GAME_OVER:
        return 1
    c.tb = tb
    c.s = s
    c.tr = tr
    n = gen_moves(&c, &s.pending, buf)
    if depth == 1:
        return n
    for i in range(n):
        mark = tr.n
        do_move(&c, buf[i])
        total += perft(tb, s, tr, depth - 1)
        trail_undo(s, tr, mark)
    return total


cdef void setup(const Tables* tb, State* s, uint64_t seed, uint8_t god0, uint8_t first_player,
                uint8_t emissary, uint16_t max_turns, uint8_t level) noexcept nogil:
    """A new game exactly as ``GameState._setup`` deals it (rules Setup 1-4)."""
    cdef Ctx c
    cdef uint8_t tiles[NTILES]
    cdef int i, t, k, p
    c.tb = tb
    c.s = s
    c.tr = NULL
    memset(s, 0, sizeof(State))
    rng_seed(s.rng, seed)
    for i in range(tb.n_tiles):
        tiles[i] = i
    shuffle_u8(&c, tiles, tb.n_tiles)
    for i in range(NCITIES):
        for k in range(3):
            s.city_tiles[i][k] = tiles[3 * i + k]
        s.city_tiles_n[i] = 3
    k = 0
    for t in range(tb.T):
        for i in range(tb.dealt[t]):
            s.deck[k] = t
            k += 1
    s.deck_n = k
    shuffle_u8(&c, s.deck, s.deck_n)
    k = 0
    for i in range(s.deck_n):  # an ablated unit is shuffled in, then taken out (CardSet.shuffled_deck)
        if tb.copies[s.deck[i]]:
            s.deck[k] = s.deck[i]
            k += 1
    s.deck_n = k
    s.gods[0] = god0
    s.gods[1] = 1 - god0
    s.first_player = first_player
    s.emissary = emissary
    s.max_turns = max_turns
    s.building[0] = -1
    s.building[1] = -1
    s.emissaries[0] = -1
    s.emissaries[1] = -1
    s.war_city = -1
    s.war_victor = -1
    s.active = first_player
    s.turn = 1
    s.first_turn = 1
    s.pending.kind = DK_NONE
    s.level = level
    if level:
        s.coins[CH] = (level - 2) if level > 2 else 0  # hard 1, brutal 2 (S-level-1)
        s.reserve = CH_COINS - s.coins[CH]
        draw(&c, 0, START_HAND)
        gain(&c, 0, START_COINS)
        s.favor = s.gods[0]
        s.active = CH
        s.phase = PH_WEALTH_REVEAL
        run(&c)
        return
    for p in range(2):
        draw(&c, p, START_HAND)
        gain(&c, p, START_COINS)
    s.favor = s.gods[1 - first_player]
    s.phase = PH_EMISSARY if emissary else PH_WEALTH_REVEAL
    run(&c)


cdef void determinize(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
    """Re-deal everything ``p`` cannot see, uniformly among exactly the unseen cards and tiles.

    Hidden from ``p``: the opponent's hand beyond its publicly known cards, the deck order, the cards
    beneath both players' structures, the opponent's undisclosed emissary, the reward tiles still in
    the cities and the opponent's unused tiles. Every count stays as it was, so ``p``'s observation
    does not change. The game's own generator is reseeded from ``rng`` too: future reshuffles are
    as unknown as the deck.
    """
    cdef uint8_t pool[NCARDS]
    cdef uint8_t tiles[NTILES]
    cdef int opp = 1 - p, n = 0, k = 0, t, i, q, c, nt = 0
    cdef int hidden_hand = 0, under_n[2], emissary = s.phase == PH_EMISSARY and s.emissaries[opp] >= 0
    for t in range(tb.T):
        for i in range(s.hands[opp][t] - s.known[opp][t]):
            pool[n] = t
            n += 1
            hidden_hand += 1
        s.hands[opp][t] = s.known[opp][t]
    for q in range(2):
        under_n[q] = 0
        for t in range(tb.T):
            for i in range(s.under[q][t]):
                pool[n] = t
                n += 1
                under_n[q] += 1
            s.under[q][t] = 0
    if emissary:
        pool[n] = s.emissaries[opp]
        n += 1
    for i in range(s.deck_n):
        pool[n] = s.deck[i]
        n += 1
    shuffle_raw(pool, n, rng)
    for i in range(hidden_hand):
        s.hands[opp][pool[k]] += 1
        k += 1
    for q in range(2):
        for i in range(under_n[q]):
            s.under[q][pool[k]] += 1
            k += 1
    if emissary:
        s.emissaries[opp] = pool[k]
        k += 1
    for i in range(s.deck_n):
        s.deck[i] = pool[k]
        k += 1
    for c in range(NCITIES):
        for i in range(s.city_tiles_n[c]):
            tiles[nt] = s.city_tiles[c][i]
            nt += 1
    for i in range(NTILES):
        if s.unused[opp] & (1 << i):
            tiles[nt] = i
            nt += 1
    shuffle_raw(tiles, nt, rng)
    k = 0
    for c in range(NCITIES):
        for i in range(s.city_tiles_n[c]):
            s.city_tiles[c][i] = tiles[k]
            k += 1
    s.unused[opp] = 0
    while k < nt:
        s.unused[opp] |= <uint16_t>(1 << tiles[k])
        k += 1
    for i in range(4):
        s.rng[i] = rng_next(rng)


# ------------------------------------------------------------------------------- Python edge

_GOD_INDEX = {g: i for i, g in enumerate(GODS)}
_DEVOTION = {"anubis": 0, "horus": 1, "both": 2, "neutral": 3}
_NAMED = {"unit": 0, "maneuver": 0, "built": 0, "reward": 1, "structure": 2}


cdef class CoreTables:
    """A card set compiled for the core: flat tables and effect opcodes, plus the name maps."""

    cdef Tables tb
    cdef readonly object cards
    cdef readonly list prog_refs
    cdef readonly dict ref_progs

    def __init__(self, cards):
        cdef int t
        cdef uint64_t bit
        self.cards = cards
        self.prog_refs = []
        self.ref_progs = {}
        memset(&self.tb, 0, sizeof(Tables))
        T = len(cards.units)
        if (T > MAX_T or sum(u.copies for u in cards.units) + sum(n for _, n in cards.ablated) > NCARDS
                or len(cards.rewards) != NTILES):
            raise UsageError(f"cards: the core needs at most {NCARDS} cards of at most {MAX_T} designs and {NTILES} tiles")
        # the longest list of legal moves is an offering (pass, then per unit in hand its offers and
        # up to 3 builds), written with up to max_offering spare entries: it must fit the move buffers
        if 1 + sum(u.offering + 4 for u in cards.units) + max(u.offering for u in cards.units) > MAX_MOVES:
            raise UsageError(f"cards: the units' OFFERING values are too large for the core's {MAX_MOVES}-move lists")
        self.tb.T = T
        self.tb.n_tiles = len(cards.rewards)
        self._code_n = 0
        for u in cards.units:
            t = u.index
            for name, value in (("cost", u.cost), ("strength", u.strength), ("offering", u.offering)):
                if value > 31:
                    raise UsageError(f"cards: unit {u.name!r}: {name} {value} is above the core's limit of 31")
            self.tb.cost[t] = u.cost
            self.tb.strength[t] = u.strength
            self.tb.offering[t] = u.offering
            self.tb.max_offering = max(self.tb.max_offering, u.offering)
            self.tb.size[t] = u.size
            self.tb.colossal[t] = 0xFF if u.size == 2 else 0
            bit = <uint64_t>1 << t  # a 64-bit set: units 31 to 47 too
            self.tb.colossal_set |= bit if u.size == 2 else 0
            self.tb.devotion[t] = _DEVOTION[u.devotion]
            for g in range(2):
                self.tb.devoted[g][t] = self.tb.devotion[t] in (g, 2)
                if self.tb.devoted[g][t]:
                    self.tb.devoted_set[g] |= bit
                    if u.reinforce:
                        self.tb.reinforcer_set[g] |= bit
            for f, code in _FILTERS.items():
                self.tb.passes[code][t] = (f == "any" or (f == "neutral" and u.devotion == "neutral")
                                           or (f == "treasured" and u.treasured)
                                           or (f in GODS and self.tb.devoted[_GOD_INDEX[f]][t]))
                self.tb.filter_set[code] |= <uint64_t>self.tb.passes[code][t] << t
            self.tb.maneuver_set |= bit if u.maneuver else 0
            self.tb.treasured[t] = u.treasured
            self.tb.enduring[t] = u.enduring
            self.tb.invocation[t] = bool(u.invocation)
            self.tb.maneuver[t] = u.maneuver
            self.tb.copies[t] = u.copies
            self.tb.dealt[t] = u.copies + dict(cards.ablated).get(t, 0)
            self.tb.prog_reinforce[t] = self._compile(("unit", t, "reinforce")) if u.reinforce else -1
            self.tb.prog_invocation[t] = self._compile(("unit", t, "invocation")) if u.invocation else -1
            self.tb.prog_labor[t] = self._compile(("unit", t, "labor")) if u.labor else -1
            self.tb.prog_maneuver[t] = self._compile(("maneuver", t)) if u.maneuver else -1
            self.tb.prog_built[t] = self._compile(("built", t))
        for r in cards.rewards:
            self.tb.prog_reward[r.index] = self._compile(("reward", r.index))
        for st in cards.structures:
            g = _GOD_INDEX[st.god]
            if st.build > 255 or st.vp > 255:
                raise UsageError(f"cards: structure {st.name!r}: BUILD and VP must be below 256")
            self.tb.build[g][st.slot] = st.build
            self.tb.vp[g][st.slot] = st.vp
            self.tb.prog_structure[g][st.slot] = self._compile(("structure", st.index))
        self.tb.prog_reinforce_choice = self._compile(("reinforce",))

    cdef public int _code_n

    def _compile(self, ref):
        """Compile the effect list ``ref`` (and everything nested in it); returns its program id."""
        effects = program(self.cards, ref)
        prog = len(self.prog_refs)
        if prog >= MAX_PROGS or self._code_n + len(effects) > MAX_CODE:
            raise UsageError("cards: the abilities are too many for the core's tables")
        self.prog_refs.append(ref)
        self.ref_progs[ref] = prog
        start = self._code_n
        self.tb.prog_start[prog] = start
        self.tb.prog_len[prog] = len(effects)
        self._code_n += len(effects)
        for i, e in enumerate(effects):
            self._instr(start + i, ref, i, e)
        return prog

    def _instr(self, int at, ref, int i, e):
        cdef Instr* x = &self.tb.code[at]
        for name, value in (("n", e.n), ("draw_each", e.draw_each), ("take", e.take)):
            if value > 63:
                raise UsageError(f"cards: an effect's {name} of {value} is above the core's limit of 63")
        x.op = _OP_CODES[e.op]
        x.n = e.n
        x.filter = _FILTERS[e.filter]
        x.side = 0 if e.side == "own" else 1
        x.where = 1 if e.where == "this_city" else 0
        x.up_to = e.up_to
        x.mode = 1 if e.mode == "maneuver" else 0
        x.draw_each = e.draw_each
        x.take = e.take
        x.steal_if = 1 + _GOD_INDEX[e.steal_if] if e.steal_if else 0
        x.then_prog = self._compile(ref + (i, "then")) if e.op in ("steal_unit", "if_favored") else -1
        if len(e.options) > MAX_OPTIONS:
            raise UsageError(f"cards: at most {MAX_OPTIONS} options in a 'choose'")
        x.n_options = len(e.options)
        for k in range(len(e.options)):
            x.option_prog[k] = self._compile(ref + (i, k))

    # -- moves at the edge (a Move is matched to a packed id through the legal list: CoreState.move_id)

    def int_to_move(self, int m, player_god: str, options=()) -> Move:
        verb = tuple(VERBS)[m_verb(m)]
        shape = VERBS[verb]
        a = m_a(m)
        kw = {}
        if "card" in shape:
            if verb == "use":
                kw["card"] = self.cards.rewards[a].name
            elif verb == "structure":
                kw["card"] = self.cards.structures_of(player_god)[a].name
            else:
                kw["card"] = self.cards.units[a].name
        if "city" in shape:
            kw["city"] = m_city(m)
        if "to" in shape:
            kw["to"] = m_to(m)
        if "target" in shape:
            kw["target"] = self.cards.structures_of(player_god)[m_target(m)].name
        if "label" in shape:
            kw["label"] = options[a].label
        if "draw" in shape:
            kw["draw"] = m_draw(m)
            kw["coin"] = m_coin(m)
        return Move(verb, **kw)


_TABLES = {}


def _level_code(config) -> int:
    """The State's ``level`` byte: 0 for two players, 1 + the level's index in the solo game."""
    return 0 if config.level is None else 1 + LEVELS.index(config.level)


def tables_for(cards) -> CoreTables:
    """The compiled tables of a card set (compiled once per set)."""
    key = cards.sha256
    if key not in _TABLES:
        _TABLES[key] = CoreTables(cards)
    return _TABLES[key]


cdef class CoreState:
    """A game on the Cython core, with the same State interface as the reference engine.

    ``clone()`` copies the one flat struct (the clone starts with an empty undo history);
    ``apply``/``undo`` keep a trail of (offset, width, old bytes) records owned by the state.
    """

    cdef State s
    cdef Trail tr
    cdef CoreTables tables
    cdef int32_t* hist
    cdef int* marks
    cdef int hist_n, hist_cap
    cdef public object seed
    cdef list _moves

    def __cinit__(self):
        self.tr.off = NULL
        self.tr.width = NULL
        self.tr.old = NULL
        self.tr.n = 0
        self.tr.cap = 0
        self.tr.enabled = 1
        self.hist = NULL
        self.marks = NULL
        self.hist_n = 0
        self.hist_cap = 0
        self._moves = []

    def __dealloc__(self):
        free(self.tr.off)
        free(self.tr.width)
        free(self.tr.old)
        free(self.hist)
        free(self.marks)

    # -- construction

    @staticmethod
    def new(seed: int = 0, cards=None, config=None) -> CoreState:
        """Set up a game exactly as ``GameState.new`` does for the same seed (dealt in C)."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cards = cards or default_cards()
        config = config or Config()
        Rng(seed)  # validates the seed
        core.tables = tables_for(cards)
        core._config = config
        core.seed = seed
        setup(&core.tables.tb, &core.s, seed, _GOD_INDEX[config.gods[0]], config.first_player,
              config.emissary, config.max_turns, _level_code(config))
        core._grow()
        return core

    @staticmethod
    def from_state(state) -> CoreState:
        """The same position on the core (from a reference ``GameState`` or another view); with no
        decision pending, the core's rules run on to the next one."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef State* s = &core.s
        cdef Ctx ctx
        cdef int p, c, t, k
        tables = tables_for(state.cards)
        core.tables = tables
        core.seed = getattr(state, "seed", None)
        memset(s, 0, sizeof(State))
        T = len(state.cards.units)
        if len(state.deck) > NCARDS or len(state.discard) > NCARDS:
            raise UsageError("state: more than 40 cards in the deck or discard pile")
        for k, t in enumerate(state.deck):
            s.deck[k] = t
        s.deck_n = len(state.deck)
        for k, t in enumerate(state.discard):
            s.discard[k] = t
        s.discard_n = len(state.discard)
        for p in range(2):
            for t in range(T):
                s.hands[p][t] = state.hands[p][t]
                s.known[p][t] = state.known[p][t]
                s.under[p][t] = state.under[p][t]
                s.destroyed[p][t] = state.destroyed[p][t]
                for c in range(NCITIES):
                    s.cities[c][p][t] = state.cities[c][p][t]
            s.unused[p] = sum(1 << r for r in state.unused[p])
            s.used[p] = sum(1 << r for r in state.used[p])
            s.building[p] = state.building[p]
            for k in range(3):
                s.completed[p][k] = state.completed[p][k]
            s.coins[p] = state.coins[p]
            s.emissaries[p] = state.emissaries[p]
            s.gods[p] = _GOD_INDEX[state.config.gods[p]]
        for t in range(T):
            s.revealed[t] = state.revealed[t]
            s.limbo[t] = state.limbo[t]
        for c in range(NCITIES):
            s.city_tiles_n[c] = len(state.city_tiles[c])
            for k, r in enumerate(state.city_tiles[c]):
                s.city_tiles[c][k] = r
        if len(state.stack) > MAX_STACK:
            raise UsageError("state: too many effect frames for the core")
        for k, (ref, index, owner, city) in enumerate(state.stack):
            s.stack[k].prog = tables.ref_progs[tuple(ref)]
            s.stack[k].pc = index
            s.stack[k].owner = owner
            s.stack[k].city = city
        s.stack_n = len(state.stack)
        d = state.pending
        if d is None:
            s.pending.kind = DK_NONE
        else:
            s.pending.kind = DECISION_NAMES.index(d.kind)
            s.pending.player = d.player
            s.pending.owner = d.owner
            s.pending.n = d.n
            s.pending.last = d.last
            s.pending.card = d.card
            s.pending.city = d.city
            s.pending.prog = tables.ref_progs[tuple(d.ref)] if d.ref else -1
            s.pending.index = d.index
            for k in d.moved:
                s.moved[k // T][k % T] += 1
        s.active = state.active
        s.turn = state.turn
        s.first_turn = state.first_turn
        s.discount_used = state.discount_used
        s.reward_used = state.reward_used
        s.reveal_again_used = state.reveal_again_used
        s.war_city = state.war_city
        s.war_victor = state.war_victor
        s.keep_step = state.keep_step
        s.ply = state.ply
        s.favor = _GOD_INDEX[state.favor]
        s.phase = PHASE_NAMES.index(state.phase)
        for k in range(4):
            s.rng[k] = state.rng.s[k]
        s.first_player = state.config.first_player
        s.emissary = state.config.emissary
        s.max_turns = state.config.max_turns
        s.level = _level_code(state.config)
        s.reserve = state.reserve
        core._config = state.config
        core._grow()
        ctx = core._ctx()
        ctx.tr = NULL
        run(&ctx)  # a state left in an automatic phase (load_position(settle=False)) goes on, on the core
        return core

    cdef public object _config

    cdef int _grow(self) except -1:
        """Make room for one more move in the trail and history (never inside the C loops)."""
        cdef int cap
        if self.tr.cap - self.tr.n < TRAIL_MARGIN:
            self._grow_trail(max(2 * self.tr.cap, self.tr.n + 2 * TRAIL_MARGIN))
        if self.hist_n >= self.hist_cap:
            cap = max(64, 2 * self.hist_cap)
            hist = <int32_t*>realloc(self.hist, cap * sizeof(int32_t))
            if hist == NULL:
                raise MemoryError()
            self.hist = hist
            marks = <int*>realloc(self.marks, cap * sizeof(int))
            if marks == NULL:
                raise MemoryError()
            self.marks = marks
            self.hist_cap = cap
        return 0

    cdef int _grow_trail(self, int cap) except -1:
        if cap <= self.tr.cap:
            return 0
        off = <uint16_t*>realloc(self.tr.off, cap * sizeof(uint16_t))
        if off == NULL:
            raise MemoryError()
        self.tr.off = off
        width = <uint8_t*>realloc(self.tr.width, cap * sizeof(uint8_t))
        if width == NULL:
            raise MemoryError()
        self.tr.width = width
        old = <uint64_t*>realloc(self.tr.old, cap * sizeof(uint64_t))
        if old == NULL:
            raise MemoryError()
        self.tr.old = old
        self.tr.cap = cap
        return 0

    cdef Ctx _ctx(self) noexcept nogil:
        cdef Ctx c
        c.tb = &self.tables.tb
        c.s = &self.s
        c.tr = &self.tr
        return c

    # -- the State interface

    @property
    def cards(self):
        return self.tables.cards

    @property
    def config(self):
        return self._config

    @property
    def units(self):
        return self.tables.cards.units

    @property
    def T(self):
        return self.tables.tb.T

    @property
    def current_player(self) -> int:
        return self.s.pending.player if self.s.pending.kind != DK_NONE else -1

    def is_terminal(self) -> bool:
        return self.s.phase == PH_GAME_OVER

    def _options(self):
        cdef Decision* d = &self.s.pending
        if d.kind == DK_CHOOSE:
            return program(self.cards, self.tables.prog_refs[d.prog])[d.index].options
        return ()

    def legal_move_ids(self) -> list:
        """The legal moves as packed integers, in generation order."""
        cdef int32_t buf[MAX_MOVES]
        cdef Ctx c = self._ctx()
        cdef int n, i
        if self.s.pending.kind == DK_NONE:
            return []
        n = gen_moves(&c, &self.s.pending, buf)
        return [buf[i] for i in range(n)]

    def legal_moves(self) -> list:
        """Every legal move of the current player, in the reference engine's order."""
        if self.s.pending.kind == DK_NONE:
            return []
        god = self.config.gods[self.s.pending.player]
        options = self._options()
        return [self.tables.int_to_move(m, god, options) for m in self.legal_move_ids()]

    def move_id(self, move) -> int:
        """The packed integer of a legal move; raises :class:`IllegalMoveError` if it is not legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        ids = self.legal_move_ids()
        moves = self.legal_moves()
        for i, m in enumerate(moves):
            if m == move:
                return ids[i]
        who = f"player {self.current_player}" if ids else "nobody (the game is over)"
        raise IllegalMoveError(f"ply {self.s.ply}: {who} cannot play {str(move)!r} here")

    def apply(self, move) -> None:
        """Play ``move`` (a :class:`Move` or its notation) after checking it is legal.

        Raises :class:`IllegalMoveError` naming the move, the player and the ply."""
        if isinstance(move, str):
            move = Move.parse(move)
        self.apply_id(self.move_id(move))

    def apply_trusted(self, move) -> None:
        """Same as :meth:`apply` (the core's unchecked door is :meth:`apply_id`)."""
        self.apply(move)

    @property
    def moves(self) -> list:
        """The moves played since this state was made (or cloned), oldest first."""
        return list(self._moves)

    cpdef apply_id(self, int32_t m):
        """Play a packed move that is legal (from :meth:`legal_move_ids`); kept on the undo trail."""
        cdef Ctx c
        self._grow()
        self.marks[self.hist_n] = self.tr.n
        self.hist[self.hist_n] = m
        self.hist_n += 1
        self._moves.append(self.tables.int_to_move(m, self.config.gods[self.s.pending.player], self._options()))
        c = self._ctx()
        do_move(&c, m)
        if self.tr.enabled == 2:
            raise MemoryError("undo trail overflow")

    def undo(self):
        """Take back the last move (since creation or the last clone) and return it."""
        if self.hist_n == 0:
            raise IndexError("undo: no move to take back")
        self.hist_n -= 1
        trail_undo(&self.s, &self.tr, self.marks[self.hist_n])
        return self._moves.pop()

    def clone(self) -> CoreState:
        """An independent copy: one memcpy of the state; the copy has no undo history."""
        cdef CoreState other = CoreState.__new__(CoreState)
        clone_state(&other.s, &self.s)
        other.tables = self.tables
        other._config = self._config
        other.seed = self.seed
        other._grow()
        return other

    def __copy__(self) -> CoreState:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> CoreState:
        """copy.deepcopy is a clone (frameworks such as OpenSpiel copy states this way)."""
        return self.clone()

    def determinized(self, int player, seed: int = 0) -> CoreState:
        """A copy in which everything ``player`` cannot see is dealt again at random (uniformly
        among exactly the unseen cards and tiles): ``player`` observes the copy exactly as this state."""
        cdef uint64_t rng[4]
        cdef CoreState other
        if player not in (0, 1):
            raise UsageError(f"player: must be 0 or 1, got {player!r}")
        Rng(seed)  # validates the seed
        rng_seed(rng, seed)
        other = self.clone()
        determinize(&self.tables.tb, &other.s, player, rng)
        return other

    def scores(self):
        return (score(&self.tables.tb, &self.s, 0), score(&self.tables.tb, &self.s, 1))

    def winner(self):
        if self.s.phase != PH_GAME_OVER:
            return None
        return winner(&self.tables.tb, &self.s)

    def returns(self):
        w = self.winner()
        return (0.0, 0.0) if w is None else (float(w == 0), float(w == 1))

    def observation(self, int player):
        return observe(self, player)

    def playout(self, seed: int = 0):
        """Play this game to the end with uniformly random moves (the same choices as
        ``RandomBot(seed)``); returns the scores. Runs without the GIL; the undo history is cleared."""
        cdef uint64_t policy[4]
        rng_seed(policy, seed)
        self.hist_n = 0
        self.tr.n = 0
        self._moves = []
        with nogil:
            random_playout(&self.tables.tb, &self.s, policy)
        return self.scores()

    def perft(self, int depth) -> int:
        """Leaves of the move tree ``depth`` plies deep from here (undone afterwards)."""
        cdef int64_t n
        if depth < 0:
            raise UsageError(f"depth: must be at least 0, got {depth}")
        self._grow_trail(self.tr.n + TRAIL_MARGIN * (depth + 1))
        with nogil:
            n = perft(&self.tables.tb, &self.s, &self.tr, depth)
        return n

    # -- views with the reference engine's attribute names (positions.observe reads these)

    def hand_size(self, int p) -> int:
        return hand_size(&self.tables.tb, &self.s, p)

    def side_count(self, int city, int p) -> int:
        return side_count(&self.tables.tb, &self.s, city, p)

    def strength(self, int city, int p) -> int:
        return strength(&self.tables.tb, &self.s, city, p)

    def supply(self) -> int:
        return supply(&self.s)

    def war_torn_cities(self) -> list:
        """H-war-1: the cities that would go to war in this turn's War step, as things stand."""
        cdef int torn[NCITIES]
        cdef int n = war_torn(&self.tables.tb, &self.s, torn)
        return [torn[i] for i in range(n)]

    def _structure(self, int p, int slot):
        return self.cards.structures_of(self.config.gods[p])[slot]

    @property
    def deck(self):
        return [self.s.deck[i] for i in range(self.s.deck_n)]

    @property
    def discard(self):
        return [self.s.discard[i] for i in range(self.s.discard_n)]

    @property
    def city_tiles(self):
        return [[self.s.city_tiles[c][i] for i in range(self.s.city_tiles_n[c])] for c in range(NCITIES)]

    @property
    def hands(self):
        cdef int T = self.tables.tb.T
        return [[self.s.hands[p][t] for t in range(T)] for p in range(2)]

    @property
    def known(self):
        cdef int T = self.tables.tb.T
        return [[self.s.known[p][t] for t in range(T)] for p in range(2)]

    @property
    def under(self):
        cdef int T = self.tables.tb.T
        return [[self.s.under[p][t] for t in range(T)] for p in range(2)]

    @property
    def destroyed(self):
        cdef int T = self.tables.tb.T
        return [[self.s.destroyed[p][t] for t in range(T)] for p in range(2)]

    @property
    def cities(self):
        cdef int T = self.tables.tb.T
        return [[[self.s.cities[c][p][t] for t in range(T)] for p in range(2)] for c in range(NCITIES)]

    @property
    def revealed(self):
        cdef int T = self.tables.tb.T
        return [self.s.revealed[t] for t in range(T)]

    @property
    def limbo(self):
        cdef int T = self.tables.tb.T
        return [self.s.limbo[t] for t in range(T)]

    @property
    def building(self):
        return [self.s.building[0], self.s.building[1]]

    @property
    def completed(self):
        return [[bool(self.s.completed[p][k]) for k in range(3)] for p in range(2)]

    @property
    def unused(self):
        return [[r for r in range(NTILES) if self.s.unused[p] & (1 << r)] for p in range(2)]

    @property
    def used(self):
        return [[r for r in range(NTILES) if self.s.used[p] & (1 << r)] for p in range(2)]

    @property
    def coins(self):
        return [self.s.coins[0], self.s.coins[1]]

    @property
    def emissaries(self):
        return [self.s.emissaries[0], self.s.emissaries[1]]

    @property
    def stack(self):
        return [(self.tables.prog_refs[self.s.stack[k].prog], self.s.stack[k].pc, self.s.stack[k].owner,
                 self.s.stack[k].city) for k in range(self.s.stack_n)]

    @property
    def pending(self):
        cdef Decision* d = &self.s.pending
        if d.kind == DK_NONE:
            return None
        T = self.tables.tb.T
        moved = tuple(c * T + t for c in range(NCITIES) for t in range(T) for _ in range(self.s.moved[c][t]))
        return Pending(DECISION_NAMES[d.kind], d.player, d.owner, d.n, d.last, d.card, d.city,
                       self.tables.prog_refs[d.prog] if d.prog >= 0 else (), d.index, moved)

    @property
    def active(self):
        return self.s.active

    @property
    def turn(self):
        return self.s.turn

    @property
    def first_turn(self):
        return bool(self.s.first_turn)

    @property
    def discount_used(self):
        return bool(self.s.discount_used)

    @property
    def reward_used(self):
        return bool(self.s.reward_used)

    @property
    def reveal_again_used(self):
        return bool(self.s.reveal_again_used)

    @property
    def war_city(self):
        return self.s.war_city

    @property
    def war_victor(self):
        return self.s.war_victor

    @property
    def keep_step(self):
        return self.s.keep_step

    @property
    def ply(self):
        return self.s.ply

    @property
    def favor(self):
        return GODS[self.s.favor]

    @property
    def phase(self):
        return PHASE_NAMES[self.s.phase]

    @property
    def reserve(self):
        return self.s.reserve

    @property
    def rng(self):
        return Rng.from_state([self.s.rng[k] for k in range(4)])

    @staticmethod
    def state_size() -> int:
        """Bytes in the flat state (what a clone copies)."""
        return sizeof(State)


def run_playouts(int n, seed: int = 0, cards=None, config=None):
    """``n`` random games from fresh deals, all in C without the GIL and without allocating.

    Game ``i`` is dealt with seed ``seed + i`` and played by a random policy seeded ``seed + i``
    (so it is the game ``RandomBot(seed + i)`` plays against itself on the deal ``seed + i``).
    Returns numpy arrays ``(scores[n, 2], plies[n])``.
    """
    cdef CoreTables tables
    cdef State s
    cdef uint64_t policy[4]
    cdef int i
    cdef uint64_t base = seed
    cdef uint8_t god0, first, emissary, level
    cdef uint16_t max_turns
    cards = cards or default_cards()
    config = config or Config()
    tables = tables_for(cards)
    god0 = _GOD_INDEX[config.gods[0]]
    first = config.first_player
    emissary = config.emissary
    max_turns = config.max_turns
    level = _level_code(config)
    scores = np.zeros((n, 2), dtype=np.int32)
    plies = np.zeros(n, dtype=np.int32)
    cdef int[:, :] sv = scores
    cdef int[:] pv = plies
    with nogil:
        for i in range(n):
            setup(&tables.tb, &s, base + i, god0, first, emissary, max_turns, level)
            rng_seed(policy, base + i)
            pv[i] = random_playout(&tables.tb, &s, policy)
            sv[i, 0] = score(&tables.tb, &s, 0)
            sv[i, 1] = score(&tables.tb, &s, 1)
    return scores, plies


def bench_clone(CoreState state, long n):
    """Seconds for ``n`` clones of ``state`` and for ``n`` bare memcpys of as many bytes, both in C loops.

    Each iteration changes the source and reads the copy, so neither loop can be optimised away.
    """
    import time
    cdef State src, dst
    cdef char* raw_src = <char*>malloc(sizeof(State))
    cdef char* raw_dst = <char*>malloc(sizeof(State))
    cdef long i
    cdef uint64_t sink = 0
    if raw_src == NULL or raw_dst == NULL:
        free(raw_src)
        free(raw_dst)
        raise MemoryError()
    memcpy(&src, &state.s, sizeof(State))
    memcpy(raw_src, &state.s, sizeof(State))
    t0 = time.perf_counter()
    with nogil:
        for i in range(n):
            src.ply = <uint32_t>i
            omen_barrier(&src)
            clone_state(&dst, &src)
            omen_barrier(&dst)
            sink += dst.ply
    t1 = time.perf_counter()
    with nogil:
        for i in range(n):
            (<uint32_t*>raw_src)[0] = <uint32_t>i
            omen_barrier(raw_src)
            memcpy(raw_dst, raw_src, sizeof(State))
            omen_barrier(raw_dst)
            sink += (<uint32_t*>raw_dst)[0]
    t2 = time.perf_counter()
    free(raw_src)
    free(raw_dst)
    return t1 - t0, t2 - t1, sink


# ------------------------------------------------------------------------------------- search

include "search.pxi"


cdef class Search:
    """An ISMCTS search that can be run in slices on the same tree (the result of slices of N1 and
    N2 iterations is that of one run of N1 + N2), and stopped from another thread. ``root_move``
    (a legal move id) searches that move alone at the root: its value when another move is best.

    ``run`` releases the GIL, so several searches run in parallel in threads."""
    cdef Tree trees[2]
    cdef uint64_t rng[4]
    cdef Outlook* outlook
    cdef int n_outlook
    cdef int stop_flag
    cdef readonly bint mo
    cdef readonly double c
    cdef readonly long iterations
    cdef readonly double seconds
    cdef CoreState root
    cdef int32_t root_move

    def __cinit__(self):
        self.trees[0].nodes = NULL
        self.trees[1].nodes = NULL
        self.outlook = NULL

    def __init__(self, CoreState state, double c=0.7, bint mo=False, seed=0, long max_nodes=1_000_000,
                 root_move=None):
        cdef int q
        if state.s.phase == PH_GAME_OVER:
            raise UsageError("search: the game is over")
        if max_nodes < 1 or max_nodes > 200_000_000:
            raise UsageError(f"max_nodes: must be from 1 to 200000000, got {max_nodes}")
        Rng(seed)  # validates the seed
        rng_seed(self.rng, seed)
        if root_move is not None and root_move not in state.legal_move_ids():
            raise UsageError(f"search: root_move {root_move} is not a legal move id here")
        self.root_move = -1 if root_move is None else root_move
        self.root = state.clone()
        self.c, self.mo = c, mo
        self.outlook = <Outlook*>malloc(MAX_MOVES * sizeof(Outlook))
        if self.outlook == NULL:
            raise MemoryError("search: cannot allocate the war outlook")
        for q in range(1 + mo):
            self.trees[q].nodes = <Node*>malloc(max_nodes * sizeof(Node))
            if self.trees[q].nodes == NULL:
                raise MemoryError(f"search: cannot allocate {max_nodes} nodes")
            self.trees[q].n = 0
            self.trees[q].cap = max_nodes
            self.trees[q].full = 0
            tree_add(&self.trees[q], NO_NODE, 0, -1)

    def __dealloc__(self):
        free(self.outlook)
        free(self.trees[0].nodes)
        free(self.trees[1].nodes)

    def run(self, long iterations=0, double seconds=0.0) -> int:
        """Add ``iterations`` (if > 0) or ``seconds`` (if > 0) of search, whichever ends first, or
        less if :meth:`stop` is called; returns the iterations done."""
        cdef SearchResult res
        if iterations <= 0 and seconds <= 0:
            raise UsageError("search: give iterations or seconds (a positive budget)")
        omen_store_flag(&self.stop_flag, 0)
        with nogil:
            res = ismcts(&self.root.tables.tb, &self.root.s, self.trees, self.mo, iterations, seconds, self.c,
                         self.rng, self.outlook, &self.n_outlook, &self.stop_flag, self.root_move)
        self.iterations += res.iterations
        self.seconds += res.seconds
        return res.iterations

    def stop(self) -> None:
        """Ask a running :meth:`run` (in another thread) to return soon."""
        omen_store_flag(&self.stop_flag, 1)

    def result(self, int pv_depth=0) -> dict:
        """The root's statistics: ``iterations``, ``seconds``, ``nodes``, ``full`` (the node cap was
        reached), ``children``: ``(move id, visits, availability, reward sum, VP-margin sum,
        VP-margin squares)``, ``outlook``: ``{move id: (next wars won per city, tiles taken per
        city)}`` (sums over the move's iterations) and, with ``pv_depth`` > 0, ``pv``: ``{move id:
        [(move id, player, visits), ...]}``, the most visited line after each root move
        (``HIDDEN_MOVE`` = -2 for a move the root player's MO tree cannot see)."""
        cdef int q = self.root.s.pending.player if self.mo else 0, i
        cdef Tree* t = &self.trees[q]
        cdef int32_t k, j, best
        children = []
        lines = {}
        k = t.nodes[0].first_child
        while k != NO_NODE:
            children.append((t.nodes[k].move, t.nodes[k].visits, t.nodes[k].avail, t.nodes[k].reward,
                             t.nodes[k].margin, t.nodes[k].margin_sq))
            line = []
            j = k
            while len(line) < pv_depth:  # follow the most visited child while it has been visited twice
                best = NO_NODE
                j = t.nodes[j].first_child
                while j != NO_NODE:
                    if best == NO_NODE or t.nodes[j].visits > t.nodes[best].visits:
                        best = j
                    j = t.nodes[j].next_sibling
                if best == NO_NODE or t.nodes[best].visits < 2:
                    break
                line.append((t.nodes[best].move, t.nodes[best].player, t.nodes[best].visits))
                j = best
            lines[t.nodes[k].move] = line
            k = t.nodes[k].next_sibling
        wars = {t.nodes[self.outlook[i].node].move: (list(self.outlook[i].first_win), list(self.outlook[i].taken))
                for i in range(self.n_outlook)}
        result = {"iterations": self.iterations, "seconds": self.seconds, "nodes": t.n,
                  "full": bool(self.trees[0].full or self.trees[1 if self.mo else 0].full), "children": children,
                  "outlook": wars}
        if pv_depth > 0:
            result["pv"] = lines
        return result


def search(CoreState state, long iterations=1000, double seconds=0.0, double c=0.7, bint mo=False,
           seed=0, long max_nodes=1_000_000, int pv_depth=0):
    """Run ISMCTS from ``state`` for its current player; returns :meth:`Search.result`.

    Stops after ``iterations`` or ``seconds`` (a value <= 0 means no limit of that kind; at least one
    must be set). ``mo`` selects MO-ISMCTS. The tree holds at most ``max_nodes`` nodes per player.
    """
    if iterations <= 0 and seconds <= 0:
        raise UsageError("search: give iterations or seconds (a positive budget)")
    engine = Search(state, c, mo, seed, max_nodes)
    engine.run(iterations, seconds)
    return engine.result(pv_depth)


def best_shares(CoreState state, list move_ids, int worlds, int rollouts, seed=0):
    """For each of ``move_ids`` (legal root moves), the share of ``worlds`` determinisations in
    which it won the most of ``rollouts`` random games played after it (ties share)."""
    cdef uint64_t rng[4]
    cdef int32_t moves[MAX_MOVES]
    cdef double share[MAX_MOVES]
    cdef int i, n = len(move_ids)
    if state.s.phase == PH_GAME_OVER:
        raise UsageError("best_shares: the game is over")
    legal = set(state.legal_move_ids())
    if not 0 < n <= MAX_MOVES or any(m not in legal for m in move_ids):
        raise UsageError("best_shares: move_ids must be legal moves of the state")
    if worlds < 1 or rollouts < 1:
        raise UsageError(f"best_shares: worlds and rollouts must be positive, got {worlds} and {rollouts}")
    Rng(seed)
    rng_seed(rng, seed)
    for i in range(n):
        moves[i] = move_ids[i]
    with nogil:
        best_per_world(&state.tables.tb, &state.s, moves, n, worlds, rollouts, rng, share)
    return [share[i] for i in range(n)]
