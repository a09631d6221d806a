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
    hook_entered(c, p, t, city)  # a unit that resolves for no god's player never gets here: it is no Neutral one

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

