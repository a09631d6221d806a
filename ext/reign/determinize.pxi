# -- re-dealing what a player cannot see (reference: determinized, _deal_unseen and its helpers)

cdef inline int counts_sum(const uint8_t* xs, int T) noexcept nogil:
    cdef int t, n = 0
    for t in range(T):
        n += xs[t]
    return n

cdef inline int sdraft_step(const State* s) noexcept nogil:
    """The pick of the round a Simplified draft is at (0 to 9)."""
    return (s.draft_picks % (2 * SDRAFT_PACK)) // 2

cdef int unseen_cards(const Tables* tb, const State* s, int p, uint8_t* out) noexcept nogil:
    """The cards of the designs in play that ``p`` has not seen in a Simplified draft (R-sdraft-3),
    in card order; returns their number (reference: _unseen_cards)."""
    cdef int opp = 1 - p, t, k, seen, n = 0
    cdef uint8_t counts[MAX_T]
    designs(tb, &s.cfg, counts, EACH_COPY)  # never a card of a design left out (D-ablate-1)
    for t in range(tb.T):
        seen = s.deck_lists[p][t] + s.deck_known[opp][t]
        if s.phase == PH_SDRAFT:
            seen += s.packs[p][t] + (s.chosen[p] == t)
            if sdraft_step(s) > 0:
                seen += s.packs[opp][t] + (s.chosen[opp] == t)
        for k in range(counts[t] - seen):
            out[n] = <uint8_t>t
            n += 1
    return n

cdef int deal_unknown_picks(const Tables* tb, State* s, int p, uint64_t* rng, uint8_t* rest) noexcept nogil:
    """The opponent's picks that ``p`` never saw, dealt again from the cards ``p`` never saw; the
    cards left over go to ``rest``, shuffled; returns their number."""
    cdef uint8_t unseen[MAX_CARDS]
    cdef int opp = 1 - p, n = unseen_cards(tb, s, p, unseen), k, i
    shuffle_raw(unseen, n, rng)
    k = counts_sum(s.deck_lists[opp], tb.T) - counts_sum(s.deck_known[opp], tb.T)
    if k > n:
        k = n
    memcpy(s.deck_lists[opp], s.deck_known[opp], MAX_T)
    for i in range(k):
        s.deck_lists[opp][unseen[i]] += 1
    memcpy(rest, &unseen[k], n - k)
    return n - k

cdef void deal_sdraft(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
    """During a Simplified draft: the opponent's unseen picks; at a round's first pick their pack (and
    its pick, if made) from the cards ``p`` never saw, later their pick of this step from the pack
    ``p`` passed them; the undealt cards from the rest (reference: _deal_sdraft)."""
    cdef uint8_t rest[MAX_CARDS]
    cdef uint8_t pack[MAX_CARDS]
    cdef int opp = 1 - p, n = deal_unknown_picks(tb, s, p, rng, rest), k, t, i, j
    if sdraft_step(s) == 0:  # the pack is rest[:k], its pick (if made) the last of them
        k = counts_sum(s.packs[opp], tb.T) + (s.chosen[opp] >= 0)
        if k > n:
            k = n
        memset(s.packs[opp], 0, MAX_T)
        for i in range(k):
            s.packs[opp][rest[i]] += 1
        if s.chosen[opp] >= 0 and k > 0:
            s.chosen[opp] = <int8_t>rest[k - 1]
            s.packs[opp][rest[k - 1]] -= 1
        memmove(rest, &rest[k], n - k)
        n -= k
    elif s.chosen[opp] >= 0:
        k = 0
        for t in range(tb.T):
            for i in range(s.packs[opp][t] + (s.chosen[opp] == t)):
                pack[k] = <uint8_t>t
                k += 1
        j = rng_below(rng, k)
        s.chosen[opp] = <int8_t>pack[j]
        memset(s.packs[opp], 0, MAX_T)
        for i in range(k):
            if i != j:
                s.packs[opp][pack[i]] += 1
    memcpy(s.pool, rest, n)
    s.pool_n = <uint8_t>n

cdef void deal_unseen(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
    """One deal of everything ``p`` cannot see, uniformly among exactly the unseen cards: the
    opponent's hidden hand cards and undisclosed emissary with the deck they draw from, ``p``'s own
    deck order, the reward cards in the cities with the opponent's in hand, and in a Simplified draft
    what ``p`` has not seen of the opponent's picks and pack (R-sdraft-3); the game's generator is
    reseeded too, so future shuffles are as unknown as the deck (reference: _deal_unseen)."""
    cdef uint8_t pool[2 * MAX_CARDS]
    cdef uint8_t rest[MAX_CARDS]
    cdef uint8_t rewards[NREWARDS]
    cdef uint8_t public[MAX_T]
    cdef int opp = 1 - p, i = pile(s, opp), n = 0, hidden = 0, emissary = s.emissaries[opp], k = 0, t, j, city, r
    cdef int nr = 0
    if s.phase == PH_SDRAFT:
        deal_sdraft(tb, s, p, rng)
    elif s.cfg.deck == DECK_SDRAFT:
        for t in range(tb.T):  # the public copies as they were, before the opponent's list changes
            public[t] = <uint8_t>public_copies(tb, s, opp, t)
        deal_unknown_picks(tb, s, p, rng, rest)  # the cards left over have left the game
    for t in range(tb.T):
        hidden += s.hands[opp][t] - s.known[opp][t]
    if s.cfg.deck == DECK_SDRAFT and s.phase != PH_SDRAFT:  # the opponent's cards from their new list
        for t in range(tb.T):
            for j in range(s.deck_lists[opp][t] - public[t]):
                pool[n] = <uint8_t>t
                n += 1
    else:
        for t in range(tb.T):
            for j in range(s.hands[opp][t] - s.known[opp][t]):
                pool[n] = <uint8_t>t
                n += 1
        if emissary >= 0:
            pool[n] = <uint8_t>emissary
            n += 1
        memcpy(&pool[n], s.decks[i], s.deck_n[i])
        n += s.deck_n[i]
    shuffle_raw(pool, n, rng)
    memcpy(s.hands[opp], s.known[opp], MAX_T)
    for j in range(hidden):
        if k < n:
            s.hands[opp][pool[k]] += 1
            k += 1
    s.hand_set[opp] = present(s.hands[opp])
    if emissary >= 0 and k < n:
        s.emissaries[opp] = <int8_t>pool[k]
        k += 1
    memcpy(s.decks[i], &pool[k], n - k)
    s.deck_n[i] = <uint8_t>(n - k)
    if s.cfg.deck != DECK_SHARED:
        shuffle_raw(s.decks[p], s.deck_n[p], rng)
    for city in range(NCITIES):
        for j in range(s.city_rewards_n[city]):
            rewards[nr] = <uint8_t>s.city_rewards[city][j]
            nr += 1
    for r in range(tb.R):
        for j in range(s.rewards_hand[opp][r]):
            rewards[nr] = <uint8_t>r
            nr += 1
    shuffle_raw(rewards, nr, rng)
    k = 0
    for city in range(NCITIES):
        for j in range(s.city_rewards_n[city]):
            s.city_rewards[city][j] = <int8_t>rewards[k]
            k += 1
    memset(s.rewards_hand[opp], 0, MAX_R)
    while k < nr:
        s.rewards_hand[opp][rewards[k]] += 1
        k += 1
    for j in range(4):
        s.rng[j] = rng_next(rng)

cdef void determinize(const Tables* tb, State* s, int p, uint64_t* rng) noexcept nogil:
    """:c:func:`deal_unseen`, dealt again while the opponent, part-way through discarding several
    cards, would be left without a legal pick; after DEAL_ATTEMPTS failed deals the true hidden
    cards stay and only the game's generator is reseeded (reference: determinized)."""
    cdef State before
    cdef int attempt, i
    if not (s.pending.kind == DK_DISCARD and s.pending.player == 1 - p):
        deal_unseen(tb, s, p, rng)
        return
    memcpy(&before, s, sizeof(State))
    for attempt in range(DEAL_ATTEMPTS):
        deal_unseen(tb, s, p, rng)
        if n_moves(tb, s, &s.pending) > 0:
            return
        memcpy(s, &before, sizeof(State))
    for i in range(4):
        s.rng[i] = rng_next(rng)
