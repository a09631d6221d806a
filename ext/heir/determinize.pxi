cdef inline bint emissary_unseen(const State* s, int opp) noexcept nogil:
    """Whether the opponent's emissary is face down, unseen (only while it waits to be revealed)."""
    return s.phase == PH_EMISSARY and s.emissaries[opp] >= 0


cdef bint discard_stuck(const Tables* tb, State* s, int p) noexcept nogil:
    """Whether the opponent of ``p``, part-way through discarding several cards, has no legal pick
    in this deal (their picks run in unit order, which ``p`` sees)."""
    cdef Ctx c
    cdef int32_t buf[MAX_MOVES]
    if not (s.pending.kind == DK_DISCARD and s.pending.player == 1 - p):
        return 0
    c.tb = tb
    c.s = s
    c.tr = NULL
    return gen_moves(&c, &s.pending, buf) == 0


cdef void deal_unseen(const Tables* tb, State* s, int p, uint64_t* rng, const uint8_t* hand) noexcept nogil:
    """Re-deal everything ``p`` cannot see, uniformly among exactly the unseen cards and tiles; with
    ``hand`` (not NULL: counts by card type, checked by :c:func:`deal_like`) the opponent's hand is
    that one and only the rest is dealt.

    Hidden from ``p``: the opponent's hand beyond its publicly known cards, the deck order, the cards
    beneath both players' structures, the opponent's undisclosed emissary, the reward tiles still in
    the cities and the opponent's unused tiles. Every count stays as it was, so ``p``'s observation
    does not change. The game's own generator is reseeded from ``rng`` too: future reshuffles are
    as unknown as the deck.
    """
    cdef uint8_t pool[NCARDS]
    cdef uint8_t tiles[NTILES]
    cdef int opp = 1 - p, n = 0, k = 0, t, i, q, c, nt = 0
    cdef int hidden_hand = 0, under_n[2], emissary = emissary_unseen(s, opp)
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
    if hand != NULL:  # the hand's hidden copies leave the pool, which is dealt to the rest
        n = 0
        for i in range(hidden_hand + under_n[0] + under_n[1] + emissary + s.deck_n):
            t = pool[i]
            if s.hands[opp][t] < hand[t]:
                s.hands[opp][t] += 1
            else:
                pool[n] = t
                n += 1
        hidden_hand = 0
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
    cdef int attempt, i
    if not (s.pending.kind == DK_DISCARD and s.pending.player == 1 - p):
        deal_unseen(tb, s, p, rng, NULL)
        return
    memcpy(&before, s, sizeof(State))
    for attempt in range(DEAL_ATTEMPTS):
        deal_unseen(tb, s, p, rng, NULL)
        if not discard_stuck(tb, s, p):
            return
        memcpy(s, &before, sizeof(State))
    for i in range(4):
        s.rng[i] = rng_next(rng)


cdef bint deal_like(const Tables* tb, State* s, int p, const State* source, uint64_t* rng) noexcept nogil:
    """:c:func:`determinize`, but the opponent holds the hand they hold in ``source`` (a state at the
    same point of the game in another world: a deal of an earlier state played forward). Returns 0,
    leaving ``s`` as it was, when that hand cannot be theirs as ``p`` sees ``s``: a size of its own,
    fewer copies than are publicly known, copies ``p`` sees elsewhere, or (part-way through their
    discards) no legal pick."""
    cdef State before
    cdef int unseen[MAX_T]
    cdef int opp = 1 - p, t, i, extra = 0
    for t in range(tb.T):
        unseen[t] = s.hands[opp][t] - s.known[opp][t] + s.under[0][t] + s.under[1][t]
    if emissary_unseen(s, opp):
        unseen[s.emissaries[opp]] += 1
    for i in range(s.deck_n):
        unseen[s.deck[i]] += 1
    for t in range(tb.T):
        if source.hands[opp][t] < s.known[opp][t] or source.hands[opp][t] - s.known[opp][t] > unseen[t]:
            return 0
        extra += source.hands[opp][t] - s.hands[opp][t]
    if extra != 0:
        return 0
    memcpy(&before, s, sizeof(State))
    deal_unseen(tb, s, p, rng, source.hands[opp])
    if discard_stuck(tb, s, p):
        memcpy(s, &before, sizeof(State))
        return 0
    return 1
