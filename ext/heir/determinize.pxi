cdef void deal_unseen(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
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


cdef void determinize(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
    """:c:func:`deal_unseen`, dealt again while the opponent, part-way through discarding several
    cards, would be left without a legal pick: its picks run in unit order (``pending.last``, which
    ``p`` sees), so its new hand must hold its remaining picks from that unit up. After
    ``DEAL_ATTEMPTS`` deals that all fail, the true hidden cards stay (a world ``p`` cannot tell
    apart either) and only the game's generator is reseeded."""
    cdef State before
    cdef Ctx c
    cdef int32_t buf[MAX_MOVES]
    cdef int attempt, i
    if not (s.pending.kind == DK_DISCARD and s.pending.player == 1 - p):
        deal_unseen(tb, s, p, rng)
        return
    memcpy(&before, s, sizeof(State))
    c.tb = tb
    c.s = s
    c.tr = NULL
    for attempt in range(DEAL_ATTEMPTS):
        deal_unseen(tb, s, p, rng)
        if gen_moves(&c, &s.pending, buf) > 0:
            return
        memcpy(s, &before, sizeof(State))
    for i in range(4):
        s.rng[i] = rng_next(rng)
