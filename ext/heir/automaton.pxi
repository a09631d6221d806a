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

