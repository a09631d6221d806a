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
    trail_log(c.tr, c.s, p, nbytes)


cdef inline void clone_state(State* dst, const State* src) noexcept nogil:
    """The core's clone: one copy of the flat struct."""
    memcpy(dst, src, sizeof(State))


cdef extern from *:
    """
    static inline void omen_barrier(void* p) { __asm__ __volatile__("" : : "g"(p) : "memory"); }
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
    int __builtin_ctzll(unsigned long long) nogil
    uint64_t omen_nonzero48(const uint8_t* xs) nogil  # bit t set: xs[t] != 0, for the 48 (MAX_T) entries
    int omen_sum48_and(const uint8_t* xs, const uint8_t* mask) nogil  # sum of xs[t] & mask[t], 48 (MAX_T) entries
    void omen_barrier(void* p) nogil  # a compiler barrier: the bytes at p are used

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
    inc(c, &c.s.hands[p][card_of(c.tb, t)], 1)  # an Enraged unit comes back as its card (combined game)
    inc(c, &c.s.known[p][card_of(c.tb, t)], 1)

cdef inline void leave_hand(Ctx* c, int p, int t) noexcept nogil:
    inc(c, &c.s.hands[p][t], -1)
    if c.s.known[p][t] > 0:
        inc(c, &c.s.known[p][t], -1)

cdef inline void discard_card(Ctx* c, int t) noexcept nogil:
    cdef State* s = c.s
    L(c, &s.discard[s.discard_n], 1)
    s.discard[s.discard_n] = <uint8_t>card_of(c.tb, t)  # an Enraged unit is discarded as its card
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

