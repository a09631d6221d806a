# -- legal moves of each decision, in the reference engine's order (reference: _moves_*)

cdef int pick_keys(const uint8_t* counts, uint64_t units, int last, int remaining, int mandatory,
                   int* keys) noexcept nogil:
    """Designs ``t >= last`` of the set ``units`` (their counts in a MAX_T array); for a mandatory
    pick, only those that leave enough at or above them to finish (D-pick-1). Returns their number."""
    cdef int t, suffix = 0, n = 0
    cdef uint64_t rest
    units &= units_from(last)
    rest = units
    while rest:
        suffix += counts[pop_unit(&rest)]
    while units:
        t = pop_unit(&units)
        if not mandatory or suffix >= remaining:
            keys[n] = t
            n += 1
        suffix -= counts[t]
    return n

cdef int pick_listed(const int* keys, const uint8_t* cnts, int m, int last, int remaining, int mandatory,
                     int* out) noexcept nogil:
    """:c:func:`pick_keys` over a list of ``m`` keys in increasing order with their counts."""
    cdef int i, first = 0, suffix = 0, n = 0
    while first < m and keys[first] < last:
        first += 1
    for i in range(first, m):
        suffix += cnts[i]
    for i in range(first, m):
        if not mandatory or suffix >= remaining:
            out[n] = keys[i]
            n += 1
        suffix -= cnts[i]
    return n

cdef inline void play_fits(const Tables* tb, const State* s, int p, int only_city, uint64_t* fit) noexcept nogil:
    """For each city, the designs ``p`` may play there (R-surge-2; ``only_city`` >= 0: that one alone)."""
    cdef int city
    for city in range(NCITIES):
        fit[city] = fitting(tb, CITY_LIMIT - side_count(tb, s, city, p)) if only_city < 0 or city == only_city else 0

cdef int play_moves(const Tables* tb, const State* s, int p, uint64_t units, int paid, int only_city,
                    int32_t* out, int n) noexcept nogil:
    """Play each design of the set ``units`` (``paid``: that ``p`` can pay for) into each city where it
    fits, design by design. Each move is written and kept only if it fits, without a branch (``out``
    has room for one more than the moves)."""
    cdef int t
    cdef int32_t m
    cdef uint64_t fit[NCITIES]
    play_fits(tb, s, p, only_city, fit)
    if paid:
        units &= affordable(tb, s.coins[p])
    units &= fit[0] | fit[1] | fit[2]
    while units:
        t = pop_unit(&units)
        m = mk(V_PLAY, t, 0)
        out[n] = m
        n += (fit[0] >> t) & 1
        out[n] = m + (1 << 11)
        n += (fit[1] >> t) & 1
        out[n] = m + (2 << 11)
        n += (fit[2] >> t) & 1
    return n

cdef int units_in_cities(const Tables* tb, const State* s, int side, int this_city, int city, int filter,
                         int* keys, uint8_t* cnts, int* total) noexcept nogil:
    """A side's units passing an effect's ``where``/``filter`` as a list of keys
    ``(city * 2 + enraged) * T + unit``, increasing, with their counts; returns the list's length
    and sets ``total`` to the units."""
    cdef int c, enr, t, m = 0, sum = 0
    cdef uint64_t units
    cdef const uint8_t* zone
    for c in range(NCITIES):
        if this_city and c != city:
            continue
        for enr in range(2):
            zone = &s.enraged[c][side][0] if enr else &s.cities[c][side][0]
            units = s.side_set[c][side][enr] & passing(tb, enr, filter)
            while units:
                t = pop_unit(&units)
                keys[m] = (c * 2 + enr) * tb.T + t
                cnts[m] = zone[t]
                sum += zone[t]
                m += 1
    total[0] = sum
    return m

cdef int enrage_counts(const Tables* tb, const State* s, const Decision* d, int* keys, uint8_t* cnts,
                       int* room) noexcept nogil:
    """The candidates as a list of keys ``city * T + unit``, increasing, with their counts, and each
    city's room (R-enrage-3); returns the list's length."""
    cdef const Effect* e = effect_of(tb, d)
    cdef int side = d.owner if e.side == 0 else 1 - d.owner, c, t, m = 0
    cdef uint64_t units
    for c in range(NCITIES):
        room[c] = CITY_LIMIT - side_count(tb, s, c, side)
        if e.this_city and c != d.city:
            continue
        units = s.side_set[c][side][0] & passing(tb, 0, e.filter) & ~tb.type_set[TY_BEAST]  # not a Beast
        while units:
            t = pop_unit(&units)
            keys[m] = c * tb.T + t
            cnts[m] = s.cities[c][side][t]
            m += 1
    return m

cdef int reach(const int* keys, const uint8_t* cnts, int m, const int* room, int first, int T) noexcept nogil:
    """How many units can be Enraged taking the candidates from ``first`` on, each city capped by its room."""
    cdef int c, i = first, total = 0, sm
    for c in range(NCITIES):
        sm = 0
        while i < m and keys[i] < (c + 1) * T:
            sm += cnts[i]
            i += 1
        if room[c] < sm:
            sm = room[c]
        if sm > 0:
            total += sm
    return total

cdef int war_torn(const Tables* tb, const State* s, int* torn) noexcept nogil:
    """R-war-1: cities with reward cards where the opposing side has 3 units or both sides 5."""
    cdef int c, n = 0, o, a
    for c in range(NCITIES):
        if s.city_rewards_n[c]:
            o = side_count(tb, s, c, 1 - s.active)
            a = side_count(tb, s, c, s.active)
            if o >= 3 or o + a >= 5:
                torn[n] = c
                n += 1
    return n

cdef int gen_moves(const Tables* tb, const State* s, const Decision* d, int32_t* out) noexcept nogil:
    """The legal moves of decision ``d``, in the reference engine's order; returns their number."""
    cdef int n = 0, p = d.player, t, k, c, i, v, side, src, dst, enr, nk, m, cnt, size, total
    cdef int keys[NCITIES * 2 * MAX_T]
    cdef int listed[NCITIES * 2 * MAX_T]
    cdef uint8_t counts[NCITIES * 2 * MAX_T]
    cdef int room[NCITIES]
    cdef int taken[4]
    cdef uint64_t units
    cdef const Effect* e
    cdef const uint8_t* zone
    cdef int kind = d.kind
    if kind == DK_DRAFT:
        taken[0] = taken[1] = taken[2] = taken[3] = 0
        for i in range(s.drafted_n[p]):
            taken[tb.type[s.drafted[p][i]]] += 1
        for i in range(s.pool_n):
            t = s.pool[i]
            if taken[tb.type[t]] < DRAFT_LIMIT[tb.type[t]]:
                out[n] = mk(V_DRAFT, t)
                n += 1
        if n == 0:  # the escape: any stack if none is within the limits
            for i in range(s.pool_n):
                out[n] = mk(V_DRAFT, s.pool[i])
                n += 1
    elif kind == DK_SDRAFT:
        units = present(s.packs[p])
        while units:
            out[n] = mk(V_PICK, pop_unit(&units))
            n += 1
    elif kind == DK_EMISSARY:
        units = s.hand_set[p]
        while units:
            out[n] = mk(V_EMISSARY, pop_unit(&units))
            n += 1
    elif kind == DK_WEALTH:
        for k in range(d.n, -1, -1):
            out[n] = mk(V_WEALTH, 0, 0, 0, 0, k, d.n - k)
            n += 1
    elif kind == DK_SURGE:
        units = s.hand_set[p]
        n = play_moves(tb, s, p, units, 1, -1, out, n)
        units &= tb.type_set[TY_BEAST] & affordable(tb, s.coins[p])
        while units:
            out[n] = mk(V_BEAST, pop_unit(&units))
            n += 1
        if not s.reward_used:
            for k in range(tb.R):
                if s.rewards_hand[p][k]:
                    out[n] = mk(V_USE, k)
                    n += 1
        out[n] = mk(V_END)
        n += 1
    elif kind == DK_PORTENT:
        for c in range(NCITIES):
            units = present(s.portent_left[c])
            while units:
                out[n] = mk(V_ORACLE, pop_unit(&units), c)
                n += 1
    elif kind == DK_WAR:
        nk = war_torn(tb, s, keys)
        for i in range(nk):
            out[n] = mk(V_WAR, 0, keys[i])
            n += 1
    elif kind == DK_KEEP:  # keys enraged * T + unit from d.last on
        if d.last < tb.T:
            units = present(s.limbo) & units_from(d.last)
            while units:
                t = pop_unit(&units)
                if tb.size[t] <= d.n:
                    out[n] = mk(V_KEEP, t)
                    n += 1
        if 2 <= d.n:
            units = present(s.limbo_enraged) & units_from(d.last - tb.T if d.last > tb.T else 0)
            while units:
                out[n] = mk(V_KEEP, pop_unit(&units), 0, 0, 1)
                n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_DISCARD:
        nk = pick_keys(s.hands[p], s.hand_set[p], d.last, d.n, 1, keys)
        for i in range(nk):
            out[n] = mk(V_DISCARD, keys[i])
            n += 1
    elif kind == DK_TRASH:
        e = effect_of(tb, d)
        units = s.hand_set[1 - p] & passing(tb, 0, e.filter) & units_from(d.last)
        while units:
            out[n] = mk(V_DISCARD, pop_unit(&units))
            n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_RECLAIM:
        e = effect_of(tb, d)
        memset(counts, 0, MAX_T)
        i = pile(s, p)
        for k in range(s.discard_n[i]):
            counts[s.discards[i][k]] += 1
        units = present(counts) & passing(tb, 0, e.filter) & units_from(d.last)
        while units:
            out[n] = mk(V_TAKE, pop_unit(&units))
            n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_DESTROY or kind == DK_RETURN_UNIT:
        e = effect_of(tb, d)
        side = d.owner if e.side == 0 else 1 - d.owner
        m = units_in_cities(tb, s, side, e.this_city, d.city, e.filter, listed, counts, &total)
        nk = pick_listed(listed, counts, m, d.last, d.n, not e.up_to, keys)
        v = V_DESTROY if kind == DK_DESTROY else V_RETURN
        for i in range(nk):
            c = keys[i] // (2 * tb.T)
            enr = (keys[i] // tb.T) % 2
            out[n] = mk(v, keys[i] % tb.T, c, 0, enr)
            n += 1
        if e.up_to:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_ENRAGE:
        e = effect_of(tb, d)
        m = enrage_counts(tb, s, d, listed, counts, room)
        for i in range(m):
            k = listed[i]
            if k < d.last:
                continue
            c = k // tb.T
            if room[c] < 1:
                continue
            if not e.up_to:
                counts[i] -= 1
                room[c] -= 1
                cnt = reach(listed, counts, m, room, i, tb.T)
                counts[i] += 1
                room[c] += 1
                if 1 + cnt < d.n:
                    continue
            out[n] = mk(V_ENRAGE, k - c * tb.T, c)
            n += 1
        if e.up_to:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_MOVE:
        e = effect_of(tb, d)
        side = d.owner if e.side == 0 else 1 - d.owner
        for c in range(NCITIES):
            room[c] = CITY_LIMIT - side_count(tb, s, c, side)
        for src in range(NCITIES):
            if e.out_of_city and src != d.city:
                continue
            for enr in range(2):
                zone = &s.enraged[src][side][0] if enr else &s.cities[src][side][0]
                units = s.side_set[src][side][enr] & passing(tb, enr, e.filter)
                while units:
                    t = pop_unit(&units)
                    size = unit_size(tb, t, enr)
                    for dst in range(NCITIES):
                        if dst != src and size <= room[dst]:
                            out[n] = mk(V_MOVE, t, src, dst, enr)
                            n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_PLAY_FREE:
        n = play_moves(tb, s, p, s.hand_set[p], 0, -1, out, n)
    elif kind == DK_REVEAL_TAKE:
        e = effect_of(tb, d)
        units = present(s.revealed) & passing(tb, 0, e.filter)
        if e.to_city:
            n = play_moves(tb, s, p, units, 0, d.city, out, n)
        else:
            nk = pick_keys(s.revealed, units, d.last, d.n, not e.up_to, keys)
            for i in range(nk):
                out[n] = mk(V_TAKE, keys[i])
                n += 1
        if e.up_to:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_OFFERING:
        out[n] = mk(V_PASS)
        n += 1
        units = s.hand_set[p]
        while units:  # each split of the OFFERING value, cards first: mk(V_OFFER, t, 0, 0, 0, k, v - k)
            t = pop_unit(&units)
            v = tb.offering[t]
            m = mk(V_OFFER, t, 0, 0, 0, v, 0)
            for k in range(v + 1):
                out[n] = m
                n += 1
                m += (1 << 22) - (1 << 16)  # one card fewer, one coin more
    return n

cdef int32_t random_move(const Tables* tb, const State* s, uint64_t* rng, int32_t* buf) noexcept nogil:
    """``buf[rng_below(rng, n)]`` of the ``n`` moves :c:func:`gen_moves` lists for the pending decision,
    the same draw from the same generator, ``-1`` if there is none. The Surge and the Offering (half
    the plies of a random game) count their moves and make only the one drawn; ``buf`` has room for
    MAX_MOVES."""
    cdef const Decision* d = &s.pending
    cdef int p = d.player, n, i, k, t, v, plays, beasts, rewards = 0
    cdef uint64_t units, hand, fit[NCITIES]
    if d.kind == DK_SURGE:  # plays (design by design, city by city), Beasts, reward cards, end
        units = s.hand_set[p] & affordable(tb, s.coins[p])
        play_fits(tb, s, p, -1, fit)
        plays = omen_popcount64(units & fit[0]) + omen_popcount64(units & fit[1]) + \
            omen_popcount64(units & fit[2])
        beasts = omen_popcount64(units & tb.type_set[TY_BEAST])
        if not s.reward_used:
            for k in range(tb.R):
                rewards += s.rewards_hand[p][k] != 0
        i = rng_below(rng, plays + beasts + rewards + 1)
        if i < plays:
            units &= fit[0] | fit[1] | fit[2]
            while True:
                t = pop_unit(&units)
                for k in range(NCITIES):
                    if (fit[k] >> t) & 1:
                        if i == 0:
                            return mk(V_PLAY, t, k)
                        i -= 1
        i -= plays
        if i < beasts:
            return mk(V_BEAST, nth_unit(units & tb.type_set[TY_BEAST], i))
        i -= beasts
        if i < rewards:
            for k in range(tb.R):
                if s.rewards_hand[p][k]:
                    if i == 0:
                        return mk(V_USE, k)
                    i -= 1
        return mk(V_END)
    if d.kind == DK_WEALTH:  # each split of the actions, cards first
        i = rng_below(rng, d.n + 1)
        return mk(V_WEALTH, 0, 0, 0, 0, d.n - i, i)
    if d.kind == DK_OFFERING:  # pass, then each design's splits of its OFFERING value, cards first
        hand = s.hand_set[p]
        units = hand
        n = 1
        while units:
            n += tb.offering[pop_unit(&units)] + 1
        i = rng_below(rng, n)
        if i == 0:
            return mk(V_PASS)
        i -= 1
        units = hand
        while True:
            t = pop_unit(&units)
            v = tb.offering[t]
            if i <= v:
                return mk(V_OFFER, t, 0, 0, 0, v - i, i)
            i -= v + 1
    n = gen_moves(tb, s, d, buf)
    return buf[rng_below(rng, n)] if n else -1

cdef int real_choices(const Tables* tb, const State* s, const Decision* d) noexcept nogil:
    """Legal moves of ``d`` other than ``pass`` (which, where offered, comes last)."""
    cdef int32_t buf[MAX_MOVES]
    cdef int n = gen_moves(tb, s, d, buf)
    if n and m_verb(buf[n - 1]) == V_PASS:
        n -= 1
    return n

cdef inline int n_moves(const Tables* tb, const State* s, const Decision* d) noexcept nogil:
    cdef int32_t buf[MAX_MOVES]
    return gen_moves(tb, s, d, buf)
