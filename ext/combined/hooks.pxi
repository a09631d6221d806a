# ---------------------------------------------------------------------------------------- hooks
# What the Reign of War units add to Heir's rules (omen_search/games/combined/reference.py, C-…),
# through the hooks Heir's .pxi files call (ext/heir/hooks.pxi says where each is called).

cdef const char* API_NAME = "heir+reign"  # the GameApi table's name

cdef enum:
    AFTER_SURGE = PH_PORTENT_START  # C-3: Surge -> Portent -> Feat -> War
    EXTRA_TIEBREAKS = 1             # C-12: face-down feats, before favor
    PROG_RESUME = -2                # a frame's prog: a decision waiting in StateMore.resume


cdef inline int card_of(const Tables* tb, int t) noexcept nogil:
    """An Enraged unit leaving a city is its card again (R-enrage-6)."""
    return tb.more.base[t]

cdef inline int popcount8(uint8_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= <uint8_t>(x - 1)
        n += 1
    return n

cdef inline int side_of(Ctx* c, const Decision* d) noexcept nogil:
    """The side a Reign of War pick works on (``_side``)."""
    return d.owner if instr(c.tb, d.prog, d.index).side == 0 else 1 - d.owner

cdef inline void init_decision(Decision* d, int kind, int player, int owner, int n, int city, int prog,
                               int index) noexcept nogil:
    d.kind = kind; d.player = player; d.owner = owner; d.n = n; d.last = 0
    d.card = -1; d.city = city; d.prog = prog; d.index = index

cdef inline void pend(Ctx* c, const Decision* d) noexcept nogil:
    set_pending(c, d.kind, d.player, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)

cdef inline int has_pick(Ctx* c, const Decision* d, int up_to) noexcept nogil:
    """Some move but ``pass`` (which is listed last, only when ``up_to``)."""
    cdef int32_t buf[MAX_MOVES]
    return gen_moves(c, d, buf) - up_to > 0


# -- Soldiers entering cities, and decisions waiting for them (R-unit-3, R-surge-7, C-7)

cdef void enter(Ctx* c, int p, int t, int city) noexcept nogil:
    """A Soldier's ability resolves for ``p`` at once, unless MAX_CHAIN Soldier triggers already are."""
    cdef const Tables* tb = c.tb
    cdef State* s = c.s
    cdef int k, depth = 0, prog
    if tb.more.kind[t] != KIND_SOLDIER or tb.more.prog_ability[t] < 0:
        return
    for k in range(s.stack_n):
        prog = s.stack[k].prog
        if prog >= 0 and tb.more.soldier_prog[prog]:
            depth += 1
    if depth < MAX_CHAIN:
        push(c, tb.more.prog_ability[t], p, city)

cdef inline void hook_entered(Ctx* c, int p, int t, int city) noexcept nogil:
    enter(c, p, t, city)

cdef void resume_later(Ctx* c, const Decision* d) noexcept nogil:
    """Set ``d`` aside (with the units its moves have moved) until the frames above it resolve."""
    cdef State* s = c.s
    cdef int slot = s.more.resume_n
    if slot >= MAX_RESUME:
        return  # cannot happen: one waits under each Soldier trigger (MAX_CHAIN), and one more
    L(c, &s.more.resume[slot], sizeof(Decision))
    s.more.resume[slot] = d[0]
    L(c, s.more.resume_moved[slot], sizeof(s.moved))
    memcpy(s.more.resume_moved[slot], s.moved, sizeof(s.moved))
    zero(c, <uint8_t*>s.moved, sizeof(s.moved))
    inc(c, &s.more.resume_n, 1)
    push(c, PROG_RESUME, d.player, -1)

cdef inline int hook_frame(Ctx* c, Frame* f) noexcept nogil:
    """A resume frame: the decision goes on if it still has a move but ``pass``."""
    cdef State* s = c.s
    cdef Decision d
    if f.prog != PROG_RESUME:
        return 0
    inc(c, &s.stack_n, -1)
    inc(c, &s.more.resume_n, -1)
    d = s.more.resume[s.more.resume_n]
    L(c, s.moved, sizeof(s.moved))
    memcpy(s.moved, s.more.resume_moved[s.more.resume_n], sizeof(s.moved))
    if has_pick(c, &d, 1):
        pend(c, &d)
    elif d.kind == DK_MOVE:
        zero(c, <uint8_t*>s.moved, sizeof(s.moved))  # the moves are over
    return 1

cdef void carry_portent(Ctx* c, int side, int t, int src, int dst) noexcept nogil:
    """An Oracle of the active player moved before its turn came takes its turn along (R-portent-2)."""
    cdef State* s = c.s
    if side == s.active and s.more.portent_left[src][t] > s.cities[src][side][t]:
        inc(c, &s.more.portent_left[src][t], -1)
        inc(c, &s.more.portent_left[dst][t], 1)


# -- Enrage (R-enrage-1 to R-enrage-3, D-pick-1)

cdef inline int enrageable(const Tables* tb, int t, int f) noexcept nogil:
    """A face-up Soldier or Oracle an effect with filter ``f`` can Enrage."""
    return tb.more.enraged[t] >= 0 and (f == 0 or f == FILTER_OF_KIND[tb.more.kind[t]])

cdef void enrage_counts(Ctx* c, const Decision* d, uint8_t* counts, int* room) noexcept nogil:
    cdef const Tables* tb = c.tb
    cdef const Instr* e = instr(tb, d.prog, d.index)
    cdef int side = side_of(c, d), city, t, T = tb.T
    memset(counts, 0, NCITIES * MAX_T)
    for city in range(NCITIES):
        room[city] = CAPACITY - side_count(tb, c.s, city, side)
        if e.where == 1 and city != d.city:
            continue
        for t in range(T):
            if enrageable(tb, t, e.filter):
                counts[city * T + t] = c.s.cities[city][side][t]

cdef int enrage_reach(const uint8_t* counts, const int* room, int start, int T) noexcept nogil:
    """How many can be Enraged taking keys from ``start`` on, each city capped by its room."""
    cdef int city, k, total = 0, n
    for city in range(NCITIES):
        n = 0
        for k in range(start if start > city * T else city * T, (city + 1) * T):
            n += counts[k]
        n = room[city] if room[city] < n else n
        total += n if n > 0 else 0
    return total

cdef int enrage_keys(uint8_t* counts, int* room, int last, int n, int up_to, int T, int* out) noexcept nogil:
    """reign.rules.enrage_keys: the next picks, a mandatory one only if the rest can follow."""
    cdef int k, city, ok, nk = 0
    for k in range(last, NCITIES * T):
        city = k // T
        if not counts[k] or room[city] < 1:
            continue
        if not up_to:
            counts[k] -= 1
            room[city] -= 1
            ok = 1 + enrage_reach(counts, room, k, T) >= n
            counts[k] += 1
            room[city] += 1
            if not ok:
                continue
        out[nk] = k
        nk += 1
    return nk


# -- legal moves

cdef inline int hook_surge_moves(Ctx* c, int p, int32_t* out, int n) noexcept nogil:
    """After the plays, each Beast in hand that can be paid for, to discard for its ability (R-surge-4, C-5)."""
    cdef uint64_t units = units_present(c.s.hands[p]) & c.tb.more.beast_set
    cdef int t
    while units:
        t = pop_unit(&units)
        out[n] = mk(V_BEAST, t)
        n += c.tb.cost[t] <= c.s.coins[p]
    return n

cdef inline int hook_reclaimable(Ctx* c, const Decision* d, int t) noexcept nogil:
    """A Reign of War reclaim takes its filter's type (R-card-5); Heir's takes any unit."""
    return d.prog < 0 or matches(c.tb, t, instr(c.tb, d.prog, d.index).filter)

cdef int hook_moves(Ctx* c, const Decision* d, int32_t* out) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int T = tb.T, n = 0, t, k, nk, city, src, dst, side, verb
    cdef int room[NCITIES]
    cdef int keys[NCITIES * MAX_T]
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef uint64_t units
    cdef const Instr* e
    if d.kind == DK_PORTENT:
        for city in range(NCITIES):
            units = units_present(s.more.portent_left[city])
            while units:
                out[n] = mk(V_ORACLE, pop_unit(&units), city)
                n += 1
        return n
    e = instr(tb, d.prog, d.index)
    if d.kind == DK_ENRAGE:
        enrage_counts(c, d, counts, room)
        nk = enrage_keys(counts, room, d.last, d.n, e.up_to, T, keys)
        for k in range(nk):
            out[n] = mk(V_ENRAGE, keys[k] % T, keys[k] // T)
            n += 1
    elif d.kind == DK_UNIT_MOVE:  # R-card-7
        side = side_of(c, d)
        for dst in range(NCITIES):
            room[dst] = CAPACITY - side_count(tb, s, dst, side)
        for src in range(NCITIES):
            if e.mode == MODE_OUT_OF_THIS_CITY and src != d.city:
                continue
            units = units_present(s.cities[src][side]) & tb.filter_set[e.filter]
            while units:
                t = pop_unit(&units)
                for dst in range(NCITIES):
                    out[n] = mk(V_MOVE, t, src, dst)
                    n += (dst != src) & (tb.size[t] <= room[dst])
        out[n] = mk(V_PASS)
        return n + 1
    elif d.kind == DK_DESTROY or d.kind == DK_RETURN_UNIT:  # R-unit-2, R-beast-2
        verb = V_DESTROY if d.kind == DK_DESTROY else V_RETURN
        entomb_counts(c, d, counts)
        nk = pick_keys(counts, NCITIES * T, d.last, d.n, not e.up_to, keys)
        for k in range(nk):
            out[n] = mk(verb, keys[k] % T, keys[k] // T)
            n += 1
    elif d.kind == DK_REVEAL_TAKE:  # R-card-4
        for t in range(T):
            counts[t] = s.revealed[t] * matches(tb, t, e.filter)
        if e.to == TO_THIS_CITY:
            for t in range(T):
                out[n] = mk(V_PLAY, t, d.city)
                n += (counts[t] != 0) & fits(tb, s, d.city, d.player, t)
        else:
            nk = pick_keys(counts, T, d.last, d.n, not e.up_to, keys)
            for k in range(nk):
                out[n] = mk(V_TAKE, keys[k])
                n += 1
    if e.up_to:
        out[n] = mk(V_PASS)
        n += 1
    return n


# -- effect ops in Reign of War's vocabulary (C-11; the ops Heir has with the same meaning are Heir's)

cdef void hook_op(Ctx* c, const Instr* e, int prog, int index, int owner, int city) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int opp = 1 - owner, n, t, total
    cdef Decision d
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef int room[NCITIES]
    if e.op == OP_R_OPP_DISCARDS:  # R-card-2: the opponent chooses; fewer if they have fewer
        n = hand_size(tb, s, opp)
        n = e.n if e.n < n else n
        if n:
            set_pending(c, DK_DISCARD, opp, owner, n)
    elif e.op == OP_R_TAKE_COINS:  # R-card-6: from the opponent; fewer if they have fewer
        n = e.n if e.n < s.coins[opp] else s.coins[opp]
        inc(c, &s.coins[opp], -n)
        inc(c, &s.coins[owner], n)
    elif e.op == OP_R_RECLAIM:  # R-card-5
        init_decision(&d, DK_RECLAIM, owner, owner, e.n, -1, prog, index)
        if has_pick(c, &d, 1):
            pend(c, &d)
    elif e.op == OP_R_DESTROY or e.op == OP_R_RETURN_UNIT:  # R-card-1, R-card-8: all that can be, up to n
        init_decision(&d, DK_DESTROY if e.op == OP_R_DESTROY else DK_RETURN_UNIT, owner, owner, e.n, city,
                      prog, index)
        total = entomb_counts(c, &d, counts)
        if total:
            d.n = e.n if (e.up_to or e.n < total) else total
            pend(c, &d)
    elif e.op == OP_R_ENRAGE:  # R-enrage-1 to R-enrage-3
        init_decision(&d, DK_ENRAGE, owner, owner, e.n, city, prog, index)
        if not e.up_to:
            enrage_counts(c, &d, counts, room)
            n = enrage_reach(counts, room, 0, tb.T)
            d.n = e.n if e.n < n else n
        if d.n and has_pick(c, &d, e.up_to):
            pend(c, &d)
    elif e.op == OP_R_MOVE:  # R-card-7
        init_decision(&d, DK_UNIT_MOVE, owner, owner, e.n, city, prog, index)
        if has_pick(c, &d, 1):
            pend(c, &d)
    elif e.op == OP_R_REVEAL_TAKE:  # R-card-4: the rest go to the discard pile in card order (R-deck-2)
        for n in range(e.n):
            t = take_top(c)
            if t < 0:
                break
            inc(c, &s.revealed[t], 1)
        total = 0
        for t in range(tb.T):
            total += s.revealed[t] * matches(tb, t, e.filter)
        init_decision(&d, DK_REVEAL_TAKE, owner, owner, e.take if (e.up_to or e.take < total) else total, city,
                      prog, index)
        if d.n and has_pick(c, &d, e.up_to):
            pend(c, &d)
        else:
            unearth_rest(c)


# -- moves

cdef void resolve_oracle(Ctx* c, int city, int t) noexcept nogil:
    inc(c, &c.s.more.portent_left[city][t], -1)
    if c.tb.more.prog_ability[t] >= 0:
        push(c, c.tb.more.prog_ability[t], c.s.active, city)

cdef int hook_decide(Ctx* c, Decision* d, int32_t m) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int verb = m_verb(m), a = m_a(m), p = d.player, side, city = m_city(m), dst
    cdef const Instr* e
    if d.kind == DK_SURGE:
        if verb != V_BEAST:
            return 0
        inc(c, &s.coins[p], -tb.cost[a])  # R-surge-4, D-combined-6: its full cost (Neutral, C-5)
        leave_hand(c, p, a)
        inc(c, &s.more.hand_discards[p], 1)
        inc(c, &s.more.beast_abilities, 1)
        push(c, tb.prog_built[a], p, -1)  # to the discard pile after its ability
        if tb.more.prog_ability[a] >= 0:
            push(c, tb.more.prog_ability[a], p, -1)
        return 1
    if d.kind == DK_DISCARD:  # C-13, D-combined-5: a stolen card counts too
        inc(c, &s.more.hand_discards[p], 1)
        return 0
    if d.kind == DK_TRASH or d.kind == DK_REVEAL:
        if verb != V_PASS:
            inc(c, &s.more.hand_discards[1 - p if d.kind == DK_TRASH else p], 1)
        return 0
    if d.kind == DK_PORTENT:
        resolve_oracle(c, city, a)
        return 1
    if d.kind < DK_PORTENT:
        return 0
    if verb == V_PASS:
        if d.kind == DK_REVEAL_TAKE:
            unearth_rest(c)
        return 1
    e = instr(tb, d.prog, d.index)
    side = side_of(c, d)
    if d.kind == DK_ENRAGE:
        inc(c, &s.cities[city][side][a], -1)
        inc(c, &s.cities[city][side][tb.more.enraged[a]], 1)
        d.n -= 1
        d.last = city * tb.T + a
        if d.n and has_pick(c, d, e.up_to):
            pend(c, d)
    elif d.kind == DK_UNIT_MOVE:  # a moved Soldier resolves before the next move (R-surge-8)
        dst = m_to(m)
        inc(c, &s.cities[city][side][a], -1)
        inc(c, &s.cities[dst][side][a], 1)
        carry_portent(c, side, a, city, dst)
        if d.n > 1:
            d.n -= 1
            resume_later(c, d)
        enter(c, side, a, dst)
    elif d.kind == DK_DESTROY or d.kind == DK_RETURN_UNIT:
        inc(c, &s.cities[city][side][a], -1)
        if d.kind == DK_DESTROY:
            discard_card(c, a)
        else:
            to_hand_public(c, side, a)
        d.n -= 1
        d.last = city * tb.T + a
        if d.n and has_pick(c, d, e.up_to):
            pend(c, d)
    elif d.kind == DK_REVEAL_TAKE:
        inc(c, &s.revealed[a], -1)
        if verb == V_TAKE:
            to_hand_public(c, p, a)  # R-deck-3: not drawing
            d.n -= 1
            d.last = a
            if d.n and has_pick(c, d, e.up_to):
                pend(c, d)
            else:
                unearth_rest(c)
        else:
            unearth_rest(c)  # a free play takes one card: the rest go first
            play_unit(c, p, a, city, 0, 0)
    return 1

cdef void hook_decided(Ctx* c, const Decision* d, int32_t m) noexcept nogil:
    """MANEUVER and Sandstorm: a Soldier moved resolves its ability before the rest of the moves
    (C-7, D-combined-7)."""
    cdef State* s = c.s
    cdef int a = m_a(m), dst = m_to(m)
    cdef Decision rest
    if d.kind != DK_MOVE or m_verb(m) == V_PASS:
        return
    carry_portent(c, d.player, a, m_city(m), dst)
    if c.tb.more.kind[a] != KIND_SOLDIER:
        return
    if s.pending.kind != DK_NONE:
        rest = s.pending
        clear_pending(c)
        resume_later(c, &rest)
    enter(c, d.player, a, dst)


# -- phases and the turn

cdef inline void hook_turn_start(Ctx* c) noexcept nogil:
    """"This turn" counts from the start of the turn (R-feat-3)."""
    if c.s.more.hand_discards[0] or c.s.more.hand_discards[1] or c.s.more.beast_abilities:
        zero(c, c.s.more.hand_discards, 2)
        set8(c, &c.s.more.beast_abilities, 0)

cdef int feat_holds(const Tables* tb, State* s, int p, int f) noexcept nogil:
    """R-feat-3, R-card-12, C-13."""
    cdef int city, kind = tb.more.feat_kind[f], n = tb.more.feat_n[f]
    if kind == FEAT_IN_EVERY_CITY:
        for city in range(NCITIES):
            if not (units_present(s.cities[city][p]) & tb.filter_set[tb.more.feat_filter[f]]):
                return 0
        return 1
    if kind == FEAT_UNITS_IN_ONE_CITY:
        for city in range(NCITIES):
            if side_count(tb, s, city, p) >= n:
                return 1
        return 0
    if kind == FEAT_OPP_HAND_DISCARDS:
        return s.more.hand_discards[1 - p] >= n
    return s.more.beast_abilities >= n

cdef void hook_phase(Ctx* c, int ph) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int a = s.active, city, t, n = 0, last_city = 0, last_t = 0, f
    cdef uint64_t units
    if ph == PH_PORTENT_START:
        L(c, s.more.portent_left, sizeof(s.more.portent_left))
        for city in range(NCITIES):
            for t in range(MAX_T):
                s.more.portent_left[city][t] = s.cities[city][a][t] if tb.more.kind[t] == KIND_ORACLE else 0
        set8(c, &s.phase, PH_PORTENT)
    elif ph == PH_PORTENT:  # R-portent-1, R-portent-2, D-combined-4
        for city in range(NCITIES):
            units = units_present(s.more.portent_left[city])
            while units:
                t = pop_unit(&units)
                if s.more.portent_left[city][t] > s.cities[city][a][t]:
                    set8(c, &s.more.portent_left[city][t], s.cities[city][a][t])
                if s.more.portent_left[city][t]:
                    n += 1
                    last_city, last_t = city, t
        if n == 0:
            set8(c, &s.phase, PH_FEAT)
        elif n == 1:
            resolve_oracle(c, last_city, last_t)
        else:
            set_pending(c, DK_PORTENT, a)
    elif ph == PH_FEAT:  # R-feat-1
        for f in range(tb.more.n_feats):
            if not (s.more.feats[a] >> f & 1) and feat_holds(tb, s, a, f):
                set8(c, &s.more.feats[a], s.more.feats[a] | (1 << f))
        set8(c, &s.phase, PH_WAR)

cdef inline void hook_end_check(Ctx* c) noexcept nogil:
    """C-9: the active side's Enraged units flip face up (flipping up is not entering, R-enrage-5)."""
    cdef State* s = c.s
    cdef int city, t, a = s.active
    cdef uint64_t units
    for city in range(NCITIES):
        units = units_present(s.cities[city][a]) & c.tb.more.enraged_set
        while units:
            t = pop_unit(&units)
            inc(c, &s.cities[city][a][c.tb.more.base[t]], s.cities[city][a][t])
            set8(c, &s.cities[city][a][t], 0)

cdef inline int hook_game_ends(const Tables* tb, const State* s) noexcept nogil:
    return popcount8(s.more.feats[1 - s.active]) >= FEATS_TO_END  # R-end-1, R-end-2

cdef inline int hook_score(const Tables* tb, const State* s, int p) noexcept nogil:
    return 2 * popcount8(s.more.feats[p])  # C-12

cdef inline int hook_tiebreak(const Tables* tb, const State* s, int p) noexcept nogil:
    return popcount8(s.more.feats[p])  # C-12: face-down feats, before favor
