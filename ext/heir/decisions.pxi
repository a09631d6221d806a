# -- decisions: playing a move (reference: _do_*)

cdef void entomb_under(Ctx* c, Decision d, int slot) noexcept nogil:
    """ENTOMB beneath ``slot``; ``d.last`` is the unit's key (city * T + unit); then the next pick."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef const Instr* e = instr(tb, d.prog, d.index)
    cdef int city = d.last // tb.T, t = d.last % tb.T
    cdef int side = d.owner if e.side == 0 else 1 - d.owner
    cdef int32_t buf[MAX_MOVES]
    inc(c, &s.cities[city][side][t], -1)
    inc(c, &s.under[d.owner][card_of(tb, t)], 1)
    seti8(c, &s.building[d.owner], slot)
    d.kind = DK_ENTOMB
    d.player = d.owner
    if d.n > 0 and gen_moves(c, &d, buf) - (1 if e.up_to else 0) > 0:
        set_pending(c, DK_ENTOMB, d.owner, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)

cdef void unearth_rest(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef int t, k
    for t in range(c.tb.T):
        for k in range(s.revealed[t]):
            discard_card(c, t)
    zero(c, s.revealed, MAX_T)

cdef void do_move(Ctx* c, int32_t m) noexcept nogil:
    """Play a legal move of the pending decision, then run to the next decision."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef Decision d = s.pending
    cdef int verb = m_verb(m), a = m_a(m), p = d.player, t, draws, coins, slot, k
    cdef const Instr* e
    cdef int32_t buf[MAX_MOVES]
    clear_pending(c)
    L(c, &s.ply, sizeof(s.ply))
    s.ply += 1
    if hook_decide(c, &d, m):
        run(c)
        return
    if d.kind == DK_EMISSARY:
        inc(c, &s.hands[p][a], -1)
        if s.known[p][a] > s.hands[p][a]:
            set8(c, &s.known[p][a], s.hands[p][a])
        seti8(c, &s.emissaries[p], a)
    elif d.kind == DK_REVEAL:
        if verb != V_PASS:
            leave_hand(c, p, a)
            discard_card(c, a)
            set8(c, &s.reveal_again_used, 1)
            god_reveal(c)
    elif d.kind == DK_WEALTH:
        draws = m_draw(m) + (1 if m_draw(m) == d.n else 0)
        coins = m_coin(m) + (1 if m_draw(m) == 0 else 0)
        draw(c, p, draws)
        gain(c, p, coins)
        set8(c, &s.phase, PH_SURGE_START)
    elif d.kind == DK_SURGE:
        if verb == V_END:
            set8(c, &s.phase, AFTER_SURGE)
        elif verb == V_USE:
            L(c, &s.unused[p], 2)
            s.unused[p] &= <uint16_t>~(1 << a)
            L(c, &s.used[p], 2)
            s.used[p] |= <uint16_t>(1 << a)
            set8(c, &s.reward_used, 1)
            push(c, tb.prog_reward[a], p, -1)
        else:
            leave_hand(c, p, a)
            play_unit(c, p, a, m_city(m), 1, 1)
    elif d.kind == DK_REINFORCE:
        if verb == V_REINFORCE:
            push(c, tb.prog_reinforce[a], p, m_city(m))
    elif d.kind == DK_WAR:
        resolve_war(c, m_city(m))
    elif d.kind == DK_KEEP:
        inc(c, &s.limbo[a], -1)
        inc(c, &s.cities[d.city][p][a], 1)
        d.n -= tb.size[a]
        d.last = a
        if gen_moves(c, &d, buf) > 0:
            set_pending(c, DK_KEEP, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
            run(c)
            return
        destroy_limbo(c, p)
    elif d.kind == DK_ENDURING:
        if verb == V_PASS:
            zero(c, s.destroyed[p], MAX_T)
        else:
            inc(c, &s.destroyed[p][a], -1)
            take_from_discard(c, a)
            to_hand_public(c, p, a)
            set_pending(c, DK_DISCARD, p, p, 1, 0, a)
    elif d.kind == DK_DISCARD:
        leave_hand(c, p, a)
        e = instr(tb, d.prog, d.index) if d.prog >= 0 else NULL
        if e != NULL and e.steal_if and devoted_to(tb, a, e.steal_if - 1):
            to_hand_public(c, d.owner, a)
        else:
            discard_card(c, a)
        if d.n > 1:
            set_pending(c, DK_DISCARD, p, d.owner, d.n - 1, a, d.card, d.city, d.prog, d.index)
    elif d.kind == DK_TRASH:
        if verb != V_PASS:
            leave_hand(c, 1 - p, a)
            discard_card(c, a)
            d.n -= 1
            d.last = a
            if d.n and has_choice(c, &d):
                set_pending(c, DK_TRASH, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
    elif d.kind == DK_ENTOMB:
        if verb != V_PASS:
            d.n -= 1
            d.last = m_city(m) * tb.T + a
            if s.building[d.owner] < 0 and incomplete_count(s, d.owner) > 1:
                set_pending(c, DK_STRUCTURE, d.owner, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
            else:
                slot = s.building[d.owner] if s.building[d.owner] >= 0 else first_incomplete(s, d.owner)
                entomb_under(c, d, slot)
    elif d.kind == DK_STRUCTURE:
        entomb_under(c, d, a)
    elif d.kind == DK_RECLAIM:
        if verb != V_PASS:
            take_from_discard(c, a)
            to_hand_public(c, p, a)
            d.n -= 1
            d.last = a
            if d.n and has_choice(c, &d):
                set_pending(c, DK_RECLAIM, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
    elif d.kind == DK_MOVE:
        if verb != V_PASS:
            inc(c, &s.cities[m_city(m)][p][a], -1)
            inc(c, &s.cities[m_to(m)][p][a], 1)
            inc(c, &s.moved[m_to(m)][a], 1)
            d.n -= 1
        if verb != V_PASS and d.n and has_choice(c, &d):
            set_pending(c, DK_MOVE, p, d.owner, d.n, d.last, d.card, d.city, d.prog, d.index)
        else:
            for k in range(NCITIES):  # the moves are over: forget which units moved
                if units_present(s.moved[k]):
                    zero(c, s.moved[k], MAX_T)
    elif d.kind == DK_STEAL:
        inc(c, &s.cities[d.city][1 - p][a], -1)
        to_hand_public(c, p, a)
        push(c, instr(tb, d.prog, d.index).then_prog, p, d.city)
    elif d.kind == DK_PLAY_FREE:
        leave_hand(c, p, a)
        play_unit(c, p, a, m_city(m), 0, 1)
    elif d.kind == DK_UNEARTH:
        if verb == V_TAKE:
            inc(c, &s.revealed[a], -1)
            to_hand_public(c, p, a)
            if d.n > 1:
                set_pending(c, DK_UNEARTH, p, d.owner, d.n - 1, a, a, d.city, d.prog, d.index)
                run(c)
                return
            unearth_rest(c)
        elif verb == V_PLAY:
            inc(c, &s.revealed[a], -1)
            unearth_rest(c)
            play_unit(c, p, a, m_city(m), 0, 0)
        else:
            unearth_rest(c)
    elif d.kind == DK_CHOOSE:
        e = instr(tb, d.prog, d.index)
        push(c, e.option_prog[a], d.owner, d.city)
    elif d.kind == DK_OFFERING:
        set8(c, &s.phase, PH_OFFERING_LIMITS)
        if verb != V_PASS:
            leave_hand(c, p, a)
            if verb == V_OFFER:
                discard_card(c, a)
                draw(c, p, m_draw(m))
                gain(c, p, m_coin(m))
            else:
                seti8(c, &s.building[p], m_target(m))
                for k in range(tb.strength[a]):
                    t = take_top(c)
                    if t < 0:
                        break
                    inc(c, &s.under[p][t], 1)
                push(c, tb.prog_built[a], p, -1)
                if tb.prog_labor[a] >= 0:
                    push(c, tb.prog_labor[a], p, -1)
    hook_decided(c, &d, m)
    run(c)


