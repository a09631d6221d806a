cdef int gen_moves(Ctx* c, const Decision* d, int32_t* out) noexcept nogil:
    """Every legal move of the pending decision ``d``, in the reference engine's order."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int T = tb.T, p = d.player, n = 0, t, k, city, src, dst, v, nk, god, slot
    cdef uint64_t units, small, single, moved
    cdef int room[NCITIES]
    cdef int keys[NCITIES * MAX_T]
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef int cities[NCITIES]
    cdef const Instr* e
    cdef int kind = d.kind
    if kind == DK_EMISSARY:
        n = emit_units(out, n, units_present(s.hands[p]), V_EMISSARY)
    elif kind == DK_REVEAL:
        n = emit_units(out, n, units_present(s.hands[p]) & tb.filter_set[FILTER_NEUTRAL], V_REVEAL)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_WEALTH:
        k = d.n
        while k >= 0:
            out[n] = mk(V_WEALTH, 0, 0, 0, k, d.n - k)
            n += 1
            k -= 1
    elif kind == DK_SURGE:
        n = play_moves(c, p, s.hands[p], 1, 0, out)
        n = hook_surge_moves(c, p, out, n)
        if not s.reward_used:
            for k in range(NTILES):
                if s.unused[p] & (1 << k):
                    out[n] = mk(V_USE, k)
                    n += 1
        out[n] = mk(V_END)
        n += 1
    elif kind == DK_REINFORCE:
        god = s.gods[p]
        for city in range(NCITIES):
            units = units_present(s.cities[city][p]) & tb.reinforcer_set[god]
            while units:
                out[n] = mk(V_REINFORCE, pop_unit(&units), city)
                n += 1
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_WAR:
        nk = war_torn(tb, s, cities)
        for k in range(nk):
            out[n] = mk(V_WAR, 0, cities[k])
            n += 1
    elif kind == DK_KEEP:  # H-war-4: only picks after which the kept set can still be made maximal
        units = units_present(s.limbo) & units_from(d.last)
        if d.n < 2:  # room for no COLOSSAL unit (size 2), or for none at all
            units &= 0 if d.n < 1 else ~tb.colossal_set
        else:  # room for two: a unit of size 1 needs another one at or after it, or to be the only one
            small = units_present(s.limbo) & ~tb.colossal_set
            single = units & small
            while single:
                t = pop_unit(&single)
                if s.limbo[t] < 2 and not (small & units_from(t + 1)) and small != (<uint64_t>1 << t):
                    units &= ~(<uint64_t>1 << t)
        n = emit_units(out, n, units, V_KEEP)
    elif kind == DK_ENDURING:
        n = emit_units(out, n, units_present(s.destroyed[p]), V_ENDURING)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_DISCARD:
        memcpy(counts, s.hands[p], T)
        if d.card >= 0:
            counts[d.card] -= 1
        nk = pick_keys(counts, T, d.last, d.n, 1, keys)
        for k in range(nk):
            out[n] = mk(V_DISCARD, keys[k])
            n += 1
    elif kind == DK_TRASH:
        e = instr(tb, d.prog, d.index)
        n = emit_units(out, n, units_present(s.hands[1 - p]) & tb.filter_set[e.filter] & units_from(d.last),
                       V_DISCARD)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_ENTOMB:
        e = instr(tb, d.prog, d.index)
        entomb_counts(c, d, counts)
        nk = pick_keys(counts, NCITIES * T, d.last, d.n, not e.up_to, keys)
        for k in range(nk):
            out[n] = mk(V_ENTOMB, keys[k] % T, keys[k] // T)
            n += 1
        if e.up_to:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_STRUCTURE:
        for slot in range(3):
            if not s.completed[p][slot]:
                out[n] = mk(V_STRUCTURE, slot)
                n += 1
    elif kind == DK_RECLAIM:
        memset(counts, 0, T)
        for k in range(s.discard_n):
            counts[s.discard[k]] += 1
        for t in range(d.last, T):
            out[n] = mk(V_TAKE, t)
            n += (counts[t] != 0) & hook_reclaimable(c, d, t)
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_MOVE:
        e = instr(tb, d.prog, d.index)
        for dst in range(NCITIES):
            room[dst] = CAPACITY - side_count(tb, s, dst, p)
        for src in range(NCITIES):
            units = units_present(s.cities[src][p])
            moved = units_present(s.moved[src])
            while moved:  # H-surge-7: each unit moves once; those moved here stay
                t = pop_unit(&moved)
                if s.cities[src][p][t] <= s.moved[src][t]:
                    units &= ~(<uint64_t>1 << t)
            if e.mode == 1:  # a MANEUVER move: not a MANEUVER unit, and from or to the maneuvering city
                units &= ~tb.maneuver_set
            while units:
                t = pop_unit(&units)
                for dst in range(NCITIES):  # branch-free: write always, keep if allowed
                    out[n] = mk(V_MOVE, t, src, dst)
                    n += ((dst != src) & (tb.size[t] <= room[dst])
                          & ((e.mode != 1) | (d.city == src) | (d.city == dst)))
        out[n] = mk(V_PASS)
        n += 1
    elif kind == DK_STEAL:
        e = instr(tb, d.prog, d.index)
        n = emit_units(out, n, units_present(s.cities[d.city][1 - p]) & tb.filter_set[e.filter], V_TAKE)
    elif kind == DK_PLAY_FREE:
        n = play_moves(c, p, s.hands[p], 0, 0, out)
    elif kind == DK_UNEARTH:  # H-card-10: a free play, or exactly n takes; pass only when n is 0
        if d.card < 0:
            n = play_moves(c, p, s.revealed, 0, 1, out)
        if d.n:
            nk = pick_keys(s.revealed, T, d.last, d.n, 1, keys)
            for k in range(nk):
                out[n] = mk(V_TAKE, keys[k])
                n += 1
        elif d.card < 0:
            out[n] = mk(V_PASS)
            n += 1
    elif kind == DK_CHOOSE:
        e = instr(tb, d.prog, d.index)
        for k in range(e.n_options):
            out[n] = mk(V_CHOOSE, k)
            n += 1
    elif kind == DK_OFFERING:
        out[n] = mk(V_PASS)
        n += 1
        nk = 0  # the structures a unit can be built into
        if s.building[p] >= 0:
            cities[0] = s.building[p]
            nk = 1
        else:
            for slot in range(3):
                cities[nk] = slot
                nk += s.completed[p][slot] == 0
        units = units_present(s.hands[p])
        while units:
            t = pop_unit(&units)
            v = tb.offering[t]
            for k in range(tb.max_offering + 1):  # a fixed length: the writes past v are overwritten
                out[n + k] = mk(V_OFFER, t, 0, 0, (v - k) & 31, k)
            n += v + 1
            for k in range(nk):
                out[n + k] = mk(V_BUILD, t, 0, 0, 0, 0, cities[k])
            n += nk
    else:
        n = hook_moves(c, d, out)
    return n

cdef inline int has_choice(Ctx* c, const Decision* d) noexcept nogil:
    """More legal moves than just ``pass`` (reference: ``self._moves_X(d)[:-1]``)."""
    cdef int32_t buf[MAX_MOVES]
    return gen_moves(c, d, buf) > 1


# -- effect ops (reference: _op_*)

