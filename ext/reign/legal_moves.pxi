# -- legal moves of each decision, in the reference engine's order (reference: _moves_*)

cdef int pick_keys(const uint8_t* counts, int size, int last, int remaining, int mandatory,
                   int* keys) noexcept nogil:
    """Keys ``k >= last`` with ``counts[k] > 0``; for a mandatory pick, only those that leave enough
    at or above them to finish (D-pick-1). Returns their number."""
    cdef int k, suffix = 0, n = 0
    for k in range(last, size):
        suffix += counts[k]
    for k in range(last, size):
        if counts[k] and (not mandatory or suffix >= remaining):
            keys[n] = k
            n += 1
        suffix -= counts[k]
    return n

cdef int play_moves(const Tables* tb, const State* s, int p, const uint8_t* counts, int paid, int only_city,
                    int32_t* out, int n) noexcept nogil:
    """Play each unit of ``counts`` into each city where it fits (``only_city`` >= 0: that one)."""
    cdef int t, city
    cdef int room[NCITIES]
    for city in range(NCITIES):
        room[city] = CITY_LIMIT - side_count(tb, s, city, p)
    for t in range(tb.T):
        if counts[t] and (not paid or tb.cost[t] <= s.coins[p]):
            for city in range(NCITIES):
                if (only_city < 0 or city == only_city) and tb.size[t] <= room[city]:
                    out[n] = mk(V_PLAY, t, city)
                    n += 1
    return n

cdef int units_in_cities(const Tables* tb, const State* s, int side, int this_city, int city, int filter,
                         uint8_t* counts) noexcept nogil:
    """Counts keyed ``(city * 2 + enraged) * T + unit`` of a side's units passing an effect's
    ``where``/``filter``; returns their total."""
    cdef int c, enr, t, k, total = 0
    cdef const uint8_t* zone
    memset(counts, 0, NCITIES * 2 * MAX_T)
    for c in range(NCITIES):
        if this_city and c != city:
            continue
        for enr in range(2):
            zone = &s.enraged[c][side][0] if enr else &s.cities[c][side][0]
            for t in range(tb.T):
                if zone[t] and matches(tb, t, enr, filter):
                    k = (c * 2 + enr) * tb.T + t
                    counts[k] = zone[t]
                    total += zone[t]
    return total

cdef int enrage_counts(const Tables* tb, const State* s, const Decision* d, uint8_t* counts,
                       int* room) noexcept nogil:
    """The side, the candidates keyed ``city * T + unit`` and each city's room (R-enrage-3)."""
    cdef const Effect* e = effect_of(tb, d)
    cdef int side = d.owner if e.side == 0 else 1 - d.owner, c, t
    memset(counts, 0, NCITIES * MAX_T)
    for c in range(NCITIES):
        room[c] = CITY_LIMIT - side_count(tb, s, c, side)
        if e.this_city and c != d.city:
            continue
        for t in range(tb.T):
            if s.cities[c][side][t] and enrageable(tb, t, e.filter):
                counts[c * tb.T + t] = s.cities[c][side][t]
    return side

cdef int reach(const uint8_t* counts, const int* room, int start, int T) noexcept nogil:
    """How many units can be Enraged taking keys from ``start`` on, each city capped by its room."""
    cdef int c, k, total = 0, sm
    for c in range(NCITIES):
        sm = 0
        for k in range(start if start > c * T else c * T, (c + 1) * T):
            sm += counts[k]
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
    cdef int n = 0, p = d.player, t, k, c, i, v, side, src, dst, enr, nk, cnt
    cdef int keys[NCITIES * 2 * MAX_T]
    cdef uint8_t counts[NCITIES * 2 * MAX_T]
    cdef int room[NCITIES]
    cdef int taken[4]
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
        for t in range(tb.T):
            if s.packs[p][t]:
                out[n] = mk(V_PICK, t)
                n += 1
    elif kind == DK_EMISSARY:
        for t in range(tb.T):
            if s.hands[p][t]:
                out[n] = mk(V_EMISSARY, t)
                n += 1
    elif kind == DK_WEALTH:
        for k in range(d.n, -1, -1):
            out[n] = mk(V_WEALTH, 0, 0, 0, 0, k, d.n - k)
            n += 1
    elif kind == DK_SURGE:
        n = play_moves(tb, s, p, s.hands[p], 1, -1, out, n)
        for t in range(tb.T):
            if s.hands[p][t] and tb.type[t] == TY_BEAST and tb.cost[t] <= s.coins[p]:
                out[n] = mk(V_BEAST, t)
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
            for t in range(tb.T):
                if s.portent_left[c][t]:
                    out[n] = mk(V_ORACLE, t, c)
                    n += 1
    elif kind == DK_WAR:
        nk = war_torn(tb, s, keys)
        for i in range(nk):
            out[n] = mk(V_WAR, 0, keys[i])
            n += 1
    elif kind == DK_KEEP:
        for k in range(d.last, 2 * tb.T):
            enr = k // tb.T
            t = k % tb.T
            zone = &s.limbo_enraged[0] if enr else &s.limbo[0]
            if zone[t] and unit_size(tb, t, enr) <= d.n:
                out[n] = mk(V_KEEP, t, 0, 0, enr)
                n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_DISCARD:
        nk = pick_keys(s.hands[p], tb.T, d.last, d.n, 1, keys)
        for i in range(nk):
            out[n] = mk(V_DISCARD, keys[i])
            n += 1
    elif kind == DK_TRASH:
        e = effect_of(tb, d)
        for t in range(d.last, tb.T):
            if s.hands[1 - p][t] and matches(tb, t, 0, e.filter):
                out[n] = mk(V_DISCARD, t)
                n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_RECLAIM:
        e = effect_of(tb, d)
        memset(counts, 0, MAX_T)
        i = pile(s, p)
        for k in range(s.discard_n[i]):
            counts[s.discards[i][k]] += 1
        for t in range(d.last, tb.T):
            if counts[t] and matches(tb, t, 0, e.filter):
                out[n] = mk(V_TAKE, t)
                n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_DESTROY or kind == DK_RETURN_UNIT:
        e = effect_of(tb, d)
        side = d.owner if e.side == 0 else 1 - d.owner
        units_in_cities(tb, s, side, e.this_city, d.city, e.filter, counts)
        nk = pick_keys(counts, NCITIES * 2 * tb.T, d.last, d.n, not e.up_to, keys)
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
        enrage_counts(tb, s, d, counts, room)
        for k in range(d.last, NCITIES * tb.T):
            c = k // tb.T
            t = k % tb.T
            if not counts[k] or room[c] < 1:
                continue
            if not e.up_to:
                counts[k] -= 1
                room[c] -= 1
                cnt = reach(counts, room, k, tb.T)
                counts[k] += 1
                room[c] += 1
                if 1 + cnt < d.n:
                    continue
            out[n] = mk(V_ENRAGE, t, c)
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
                for t in range(tb.T):
                    if not zone[t] or not matches(tb, t, enr, e.filter):
                        continue
                    for dst in range(NCITIES):
                        if dst != src and unit_size(tb, t, enr) <= room[dst]:
                            out[n] = mk(V_MOVE, t, src, dst, enr)
                            n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_PLAY_FREE:
        n = play_moves(tb, s, p, s.hands[p], 0, -1, out, n)
    elif kind == DK_REVEAL_TAKE:
        e = effect_of(tb, d)
        for t in range(tb.T):
            counts[t] = s.revealed[t] if matches(tb, t, 0, e.filter) else 0
        if e.to_city:
            n = play_moves(tb, s, p, counts, 0, d.city, out, n)
        else:
            nk = pick_keys(counts, tb.T, d.last, d.n, not e.up_to, keys)
            for i in range(nk):
                out[n] = mk(V_TAKE, keys[i])
                n += 1
        if e.up_to:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_OFFERING:
        out[n] = mk(V_PASS)
        n += 1
        for t in range(tb.T):
            if s.hands[p][t]:
                v = tb.offering[t]
                for k in range(v, -1, -1):
                    out[n] = mk(V_OFFER, t, 0, 0, 0, k, v - k)
                    n += 1
    return n

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
