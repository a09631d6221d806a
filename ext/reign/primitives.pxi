# ------------------------------------------------------------------------------------------ C

cdef struct Ctx:
    const Tables* tb
    State* s
    Trail* tr       # NULL: no undo (playouts, set-up, determinisation)


# -- packed moves (the layout is omen_search.games.reign.encoding's)

cdef inline int32_t mk(int verb, int card=0, int city=0, int to=0, int enraged=0, int draw=0,
                       int coin=0) noexcept nogil:
    return verb | (card << 5) | (city << 11) | (to << 13) | (enraged << 15) | (draw << 16) | (coin << 22)

cdef inline int m_verb(int32_t m) noexcept nogil:
    return m & 31

cdef inline int m_card(int32_t m) noexcept nogil:
    return (m >> 5) & 63

cdef inline int m_city(int32_t m) noexcept nogil:
    return (m >> 11) & 3

cdef inline int m_to(int32_t m) noexcept nogil:
    return (m >> 13) & 3

cdef inline int m_enraged(int32_t m) noexcept nogil:
    return (m >> 15) & 1

cdef inline int m_draw(int32_t m) noexcept nogil:
    return (m >> 16) & 63

cdef inline int m_coin(int32_t m) noexcept nogil:
    return (m >> 22) & 63


# -- the undo trail: arrays are logged before each write; the header once per apply (do_move)

cdef inline void L(Ctx* c, void* p, int nbytes) noexcept nogil:
    trail_log(c.tr, c.s, p, nbytes)

cdef inline void set8(Ctx* c, uint8_t* p, int v) noexcept nogil:
    trail_log(c.tr, c.s, p, 1)
    p[0] = <uint8_t>v

cdef inline void inc(Ctx* c, uint8_t* p, int by) noexcept nogil:
    trail_log(c.tr, c.s, p, 1)
    p[0] = <uint8_t>(p[0] + by)

cdef inline void zero(Ctx* c, void* p, int nbytes) noexcept nogil:
    trail_log(c.tr, c.s, p, nbytes)
    memset(p, 0, nbytes)

cdef inline void clone_state(State* dst, const State* src) noexcept nogil:
    memcpy(dst, src, sizeof(State))

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


cdef inline int without_ablated(const Tables* tb, uint8_t* xs, int n) noexcept nogil:
    """The cards of ``xs`` (just shuffled) without those of designs the card set leaves out, in
    their order; returns how many are left (reference: CardSet.shuffled_without, D-ablate-1)."""
    cdef int i, k = 0
    if not tb.left_out:
        return n
    for i in range(n):
        if tb.copies[xs[i]]:
            xs[k] = xs[i]
            k += 1
    return k


# -- sets of unit designs as 64-bit masks (bit t: design t), walked lowest design first so that
# moves come out in the reference engine's order (as Heir's core does, ext/README.md)

cdef extern from *:
    """
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline uint64_t omen_nonzero50(const uint8_t* xs) {
        const __m128i zero = _mm_setzero_si128();
        uint64_t a = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)xs), zero));
        uint64_t b = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(xs + 16)), zero));
        uint64_t c = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(xs + 32)), zero));
        /* bytes 34..49, of which the top two are 48 and 49: never a read past the array */
        uint64_t d = (uint16_t)~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)(xs + 34)), zero));
        return a | (b << 16) | (c << 32) | ((d >> 14) << 48);
    }
    static inline int omen_sum50(const uint8_t* xs) {
        const __m128i zero = _mm_setzero_si128();
        __m128i s = _mm_sad_epu8(_mm_loadu_si128((const __m128i*)xs), zero);
        s = _mm_add_epi64(s, _mm_sad_epu8(_mm_loadu_si128((const __m128i*)(xs + 16)), zero));
        s = _mm_add_epi64(s, _mm_sad_epu8(_mm_loadu_si128((const __m128i*)(xs + 32)), zero));
        return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8)) + xs[48] + xs[49];
    }
    #else
    static inline uint64_t omen_nonzero50(const uint8_t* xs) {
        uint64_t m = 0;
        for (int t = 0; t < 50; t++) m |= (uint64_t)(xs[t] != 0) << t;
        return m;
    }
    static inline int omen_sum50(const uint8_t* xs) {
        int n = 0;
        for (int t = 0; t < 50; t++) n += xs[t];
        return n;
    }
    #endif
    /* bits set in x, in registers: the build targets plain x86-64, whose __builtin_popcountll is a
       library call */
    static inline int omen_popcount64(uint64_t x) {
        x -= (x >> 1) & 0x5555555555555555ULL;
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int omen_popcount64(uint64_t x) nogil  # bits set in x
    uint64_t omen_nonzero50(const uint8_t* xs) nogil  # bit t set: xs[t] != 0, for the 50 (MAX_T) entries
    int omen_sum50(const uint8_t* xs) nogil  # the sum of the 50 (MAX_T) entries

assert MAX_T == 50  # omen_nonzero50 and omen_sum50 read exactly MAX_T bytes


cdef inline uint64_t present(const uint8_t* counts) noexcept nogil:
    """The designs with a nonzero count in a MAX_T array (entries past T are always 0)."""
    return omen_nonzero50(counts)

cdef inline int pop_unit(uint64_t* units) noexcept nogil:
    """The lowest design of a nonempty set, removed from it."""
    cdef int t = __builtin_ctzll(units[0])
    units[0] &= units[0] - 1
    return t

cdef inline uint64_t units_from(int first) noexcept nogil:
    """The designs ``first`` and above (``first``: 0 to MAX_T)."""
    return ~((<uint64_t>1 << first) - 1)

cdef inline uint64_t passing(const Tables* tb, int enraged, int filter) noexcept nogil:
    """The designs whose units pass ``filter``, face up or Enraged (an Enraged unit is a Beast: R-enrage-2)."""
    if enraged:
        return tb.type_set[0] if filter == 0 or filter == TY_BEAST else 0
    return tb.type_set[filter]


cdef inline uint64_t affordable(const Tables* tb, int coins) noexcept nogil:
    """The designs a player with ``coins`` can pay for (costs are at most MAX_STAT)."""
    return tb.affordable[coins if coins < MAX_STAT else MAX_STAT]

cdef inline uint64_t fitting(const Tables* tb, int room) noexcept nogil:
    """The designs that fit a side with ``room`` units to spare (R-surge-2: a Beast takes 2)."""
    if room >= 2:
        return tb.type_set[0]
    return tb.type_set[0] & ~tb.type_set[TY_BEAST] if room == 1 else 0

cdef inline int nth_unit(uint64_t units, int i) noexcept nogil:
    """The ``i``-th lowest design of a set with more than ``i`` designs."""
    while i:
        units &= units - 1
        i -= 1
    return __builtin_ctzll(units)


# -- units

cdef inline int unit_size(const Tables* tb, int t, int enraged) noexcept nogil:
    return 2 if enraged else tb.size[t]

cdef inline int pile(const State* s, int p) noexcept nogil:
    """Which deck and discard pile are ``p``'s: their own (R-own-1) or the shared one."""
    return 0 if s.cfg.deck == DECK_SHARED else p

cdef inline int supply(const State* s) noexcept nogil:
    return s.cfg.coin_supply - s.coins[0] - s.coins[1] - s.pot

cdef inline int hand_size(const Tables* tb, const State* s, int p) noexcept nogil:
    return omen_sum50(s.hands[p])  # entries past T are 0

cdef inline int side_count(const Tables* tb, const State* s, int city, int p) noexcept nogil:
    """Units on a side, Beasts and Enraged units counting 2 (R-beast-1): the running total."""
    return s.side_n[city][p]

cdef int side_recount(const Tables* tb, const State* s, int city, int p) noexcept nogil:
    """:c:func:`side_count` counted from the zones (what ``side_n`` must hold)."""
    cdef int t, n = 0
    for t in range(tb.T):
        n += s.cities[city][p][t] * tb.size[t] + 2 * s.enraged[city][p][t]
    return n

cdef void recount_sides(const Tables* tb, State* s) noexcept nogil:
    """Set every running total from the zones (a state filled from outside)."""
    cdef int city, p
    for city in range(NCITIES):
        for p in range(2):
            s.side_n[city][p] = <uint16_t>side_recount(tb, s, city, p)

cdef inline int feats_done(const State* s, int p) noexcept nogil:
    cdef int f, n = 0
    for f in range(NFEATS):
        n += s.feats[p][f]
    return n

cdef inline uint8_t* side_zone(State* s, int city, int p, int enraged) noexcept nogil:
    return &s.enraged[city][p][0] if enraged else &s.cities[city][p][0]

cdef inline const Effect* effect_of(const Tables* tb, const Decision* d) noexcept nogil:
    return &tb.code[d.prog][d.index]


# -- zones

cdef int take_top(Ctx* c, int p) noexcept nogil:
    """The top card of ``p``'s deck, reshuffling its discard pile if it is empty (R-deck-1); -1 if
    both are empty."""
    cdef State* s = c.s
    cdef int i = pile(s, p)
    if s.deck_n[i] == 0:
        if s.discard_n[i] == 0:
            return -1
        L(c, s.decks[i], s.discard_n[i])
        memcpy(s.decks[i], s.discards[i], s.discard_n[i])
        s.deck_n[i] = s.discard_n[i]
        s.discard_n[i] = 0
        shuffle_raw(s.decks[i], s.deck_n[i], s.rng)
    s.deck_n[i] -= 1
    return s.decks[i][s.deck_n[i]]

cdef inline void mark(Ctx* c, uint64_t* units, int t, int count) noexcept nogil:
    """Keep design ``t``'s bit of a set of designs equal to whether its ``count`` is nonzero."""
    cdef uint64_t bit = <uint64_t>1 << t
    if ((units[0] & bit) != 0) != (count != 0):
        L(c, units, sizeof(uint64_t))
        units[0] ^= bit

cdef inline void hand_add(Ctx* c, int p, int t, int by) noexcept nogil:
    """``by`` cards of ``t`` into (or, negative, out of) ``p``'s hand: the only write of one card to
    ``hands``, keeping ``hand_set``."""
    inc(c, &c.s.hands[p][t], by)
    mark(c, &c.s.hand_set[p], t, c.s.hands[p][t])

cdef void recount_sets(State* s) noexcept nogil:
    """Set every set of designs from its counts (a state filled or dealt from outside)."""
    cdef int p, city
    for p in range(2):
        s.hand_set[p] = present(s.hands[p])
        for city in range(NCITIES):
            s.side_set[city][p][0] = present(s.cities[city][p])
            s.side_set[city][p][1] = present(s.enraged[city][p])

cdef void draw(Ctx* c, int p, int n) noexcept nogil:
    cdef int k, t
    for k in range(n):
        t = take_top(c, p)
        if t < 0:
            return
        hand_add(c, p, t, 1)

cdef inline void gain(Ctx* c, int p, int n) noexcept nogil:
    """R-comp-4: no more than the supply holds."""
    cdef int left = supply(c.s)
    c.s.coins[p] += n if n < left else left

cdef inline void seen(Ctx* c, int p, int t, int extra) noexcept nogil:
    """After a Simplified draft the opponent knows only part of a deck (R-sdraft-3): a card of it seen
    in public is known to be in it, as many copies as are in public places at once (reference: _seen;
    ``extra``: cards just revealed, which no decision holds yet)."""
    if c.s.cfg.deck == DECK_SDRAFT and c.s.deck_known[p][t] < c.s.deck_lists[p][t]:
        seen_sdraft(c, p, t, extra)

cdef int public_copies(const Tables* tb, const State* s, int p, int t) noexcept nogil:
    """Copies of ``t`` of ``p``'s that both players see, and so are not dealt again (reference: _public)."""
    cdef int i = pile(s, p), k, city, n = s.known[p][t]
    for k in range(s.discard_n[i]):
        n += s.discards[i][k] == t
    for city in range(NCITIES):
        n += s.cities[city][p][t] + s.enraged[city][p][t]
    if s.pending.kind == DK_KEEP and s.pending.player == p:
        n += s.limbo[t] + s.limbo_enraged[t]
    if s.pending.kind == DK_REVEAL_TAKE and s.pending.owner == p:
        n += s.revealed[t]
    return n + (s.beast == t and s.active == p)

cdef void seen_sdraft(Ctx* c, int p, int t, int extra) noexcept nogil:
    """:c:func:`seen` where it can change what is known: the public copies, the Beast set aside
    included (D-sdraft-2), and ``extra`` cards just revealed."""
    cdef State* s = c.s
    cdef int public = extra + public_copies(c.tb, s, p, t)
    if public > s.deck_lists[p][t]:
        public = s.deck_lists[p][t]
    if public > s.deck_known[p][t]:
        set8(c, &s.deck_known[p][t], public)

cdef void to_pile(Ctx* c, int p, int t) noexcept nogil:
    """A unit card of ``p``'s goes to their discard pile, face up (R-own-1, R-deck-4)."""
    cdef State* s = c.s
    cdef int i = pile(s, p)
    set8(c, &s.discards[i][s.discard_n[i]], t)
    s.discard_n[i] += 1
    seen(c, p, t, 0)

cdef void to_hand_public(Ctx* c, int p, int t) noexcept nogil:
    """A card enters a hand from a public place: both players know it is there (R-hidden-1)."""
    hand_add(c, p, t, 1)
    inc(c, &c.s.known[p][t], 1)
    seen(c, p, t, 0)

cdef inline void leave_hand(Ctx* c, int p, int t) noexcept nogil:
    """One known copy fewer, if any was known (D-known-1)."""
    hand_add(c, p, t, -1)
    if c.s.known[p][t] > 0:
        inc(c, &c.s.known[p][t], -1)

cdef void discard_from_hand(Ctx* c, int p, int t) noexcept nogil:
    """To the pile, counted for the feats (R-card-12)."""
    leave_hand(c, p, t)
    to_pile(c, p, t)
    c.s.hand_discards[p] += 1

cdef void take_from_discard(Ctx* c, int p, int t) noexcept nogil:
    """Remove the copy of ``t`` nearest the top of the pile (D-discard-1)."""
    cdef State* s = c.s
    cdef int i = pile(s, p), k = s.discard_n[i] - 1
    while k >= 0 and s.discards[i][k] != t:
        k -= 1
    if k < 0:
        return
    L(c, &s.discards[i][k], s.discard_n[i] - k)
    memmove(&s.discards[i][k], &s.discards[i][k + 1], s.discard_n[i] - k - 1)
    s.discard_n[i] -= 1

cdef inline void add_unit(Ctx* c, int city, int p, int t, int enraged, int by) noexcept nogil:
    """``by`` units of ``t`` onto (or, negative, off) a side: the only write of one unit to ``cities``
    or ``enraged``, keeping ``side_n`` (in the header, so undo restores it without a record) and
    ``side_set``."""
    cdef uint8_t* zone = side_zone(c.s, city, p, enraged)
    inc(c, zone + t, by)
    c.s.side_n[city][p] += by * unit_size(c.tb, t, enraged)
    mark(c, &c.s.side_set[city][p][enraged], t, zone[t])

cdef void remove_unit(Ctx* c, int city, int p, int t, int enraged) noexcept nogil:
    """Take a unit off its side; in the Portent step, a copy that has resolved leaves first (D-portent-1)."""
    cdef State* s = c.s
    add_unit(c, city, p, t, enraged, -1)
    if p == s.active and s.portent_left[city][t] > s.cities[city][p][t]:
        set8(c, &s.portent_left[city][t], s.cities[city][p][t])

cdef inline void set_pending(State* s, int kind, int player, int owner, int n, int last, int city, int prog,
                             int index) noexcept nogil:
    s.pending.kind = <uint8_t>kind
    s.pending.player = <int8_t>player
    s.pending.owner = <int8_t>owner
    s.pending.n = <uint8_t>n
    s.pending.last = <int16_t>last
    s.pending.city = <int8_t>city
    s.pending.prog = <int16_t>prog
    s.pending.index = <int8_t>index

cdef inline Decision decision(int kind, int player, int owner, int n, int city, int prog, int index) noexcept nogil:
    cdef Decision d
    d.kind = <uint8_t>kind
    d.player = <int8_t>player
    d.owner = <int8_t>owner
    d.n = <uint8_t>n
    d.last = 0
    d.city = <int8_t>city
    d.prog = <int16_t>prog
    d.index = <int8_t>index
    return d
