# -- playing a move (reference: apply_trusted and _do_*)

cdef void pick_next(Ctx* c, Decision d, int n_left, int last, int need_real) noexcept nogil:
    """The next pick of a decision of several: pending again if it has picks left and a choice
    (``need_real``: a move other than ``pass``; else more than one move)."""
    cdef int choice
    d.n = <uint8_t>n_left
    d.last = <int16_t>last
    if d.n == 0:
        return
    choice = real_choices(c.tb, c.s, &d) > 0 if need_real else n_moves(c.tb, c.s, &d) > 1
    if choice:
        c.s.pending = d

cdef void do_move(Ctx* c, int32_t m) noexcept nogil:
    """Play a legal move of the pending decision, then run to the next decision."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef Decision d = s.pending
    cdef int verb = m_verb(m), t = m_card(m), city = m_city(m), enr = m_enraged(m)
    cdef int p = d.player, i, q, side, left, dst
    cdef const Effect* e
    L(c, s, <int>(<char*>(s.rng + 4) - <char*>s))  # the header, up to the end of rng
    s.pending.kind = DK_NONE
    s.ply += 1
    if d.kind == DK_DRAFT:
        i = 0
        while s.pool[i] != t:
            i += 1
        L(c, &s.pool[i], s.pool_n - i)
        memmove(&s.pool[i], &s.pool[i + 1], s.pool_n - i - 1)
        s.pool_n -= 1
        set8(c, &s.drafted[p][s.drafted_n[p]], t)
        s.drafted_n[p] += 1
        s.coins[p] -= 1  # R-draft-2: one coin to the middle
        s.pot += 1
        s.draft_picks += 1
    elif d.kind == DK_SDRAFT:
        inc(c, &s.packs[p][t], -1)
        s.chosen[p] = <int8_t>t
        s.draft_picks += 1
        if p == 1:  # both have picked: the picks join the decks, and the packs pass left
            for q in range(2):
                inc(c, &s.deck_lists[q][s.chosen[q]], 1)
                if s.draft_picks % (2 * SDRAFT_PACK) != 2:  # R-sdraft-3: the opponent held this pack before
                    inc(c, &s.deck_known[q][s.chosen[q]], 1)
            s.chosen[0] = s.chosen[1] = -1
            L(c, s.packs, sizeof(s.packs))
            for i in range(MAX_T):
                q = s.packs[0][i]
                s.packs[0][i] = s.packs[1][i]
                s.packs[1][i] = <uint8_t>q
    elif d.kind == DK_EMISSARY:
        hand_add(c, p, t, -1)  # set aside face down: its known status is kept
        if s.known[p][t] > s.hands[p][t]:
            set8(c, &s.known[p][t], s.hands[p][t])
        s.emissaries[p] = <int8_t>t
    elif d.kind == DK_WEALTH:  # R-wealth-1, R-wealth-2
        draw(c, p, m_draw(m) + (m_draw(m) == d.n))
        gain(c, p, m_coin(m) + (m_draw(m) == 0))
        s.phase = PH_SURGE
    elif d.kind == DK_SURGE:
        if verb == V_END:
            s.phase = PH_PORTENT_START
        elif verb == V_USE:  # R-surge-5
            s.rewards_hand[p][t] -= 1
            s.rewards_used[p][t] += 1
            s.reward_used = 1
            push(c, MAX_T + t, p, -1)
        else:
            s.coins[p] -= tb.cost[t]
            leave_hand(c, p, t)
            if verb == V_BEAST:  # R-surge-4: pay, resolve the ability, then discard
                s.beast = <int8_t>t  # set aside face up, in public (D-beast-1)
                seen(c, p, t, 0)
                s.hand_discards[p] += 1
                s.beast_abilities += 1
                push_frame(c, FR_BEAST, decision(DK_NONE, -1, -1, 0, -1, -1, -1))
                push(c, t, p, -1)
            else:
                place(c, p, t, city)
    elif d.kind == DK_PORTENT:
        resolve_oracle(c, city, t)
    elif d.kind == DK_WAR:
        resolve_war(c, city)
    elif d.kind == DK_KEEP:
        if verb == V_PASS:
            discard_limbo(c, p)
        else:
            inc(c, &s.limbo_enraged[t] if enr else &s.limbo[t], -1)
            add_unit(c, d.city, p, t, enr, 1)
            d.n -= unit_size(tb, t, enr)
            d.last = <int16_t>(enr * tb.T + t)
            if n_moves(tb, s, &d) > 1:
                s.pending = d
            else:
                discard_limbo(c, p)
    elif d.kind == DK_DISCARD:
        discard_from_hand(c, p, t)
        if d.n > 1:
            d.n -= 1
            d.last = <int16_t>t
            s.pending = d
    elif d.kind == DK_TRASH:
        if verb != V_PASS:
            discard_from_hand(c, 1 - p, t)
            pick_next(c, d, d.n - 1, t, 0)
    elif d.kind == DK_DESTROY or d.kind == DK_RETURN_UNIT:
        if verb != V_PASS:
            e = effect_of(tb, &d)
            side = d.owner if e.side == 0 else 1 - d.owner
            remove_unit(c, city, side, t, enr)
            if d.kind == DK_DESTROY:
                to_pile(c, side, t)
            else:
                to_hand_public(c, side, t)  # R-enrage-6: an Enraged unit returns as its card
            pick_next(c, d, d.n - 1, (city * 2 + enr) * tb.T + t, 1)
    elif d.kind == DK_ENRAGE:
        if verb != V_PASS:
            e = effect_of(tb, &d)
            side = d.owner if e.side == 0 else 1 - d.owner
            remove_unit(c, city, side, t, 0)
            add_unit(c, city, side, t, 1, 1)
            pick_next(c, d, d.n - 1, city * tb.T + t, 1)
    elif d.kind == DK_MOVE:  # R-card-7, R-surge-8; an Oracle still to resolve moves along (R-portent-2)
        if verb != V_PASS:
            e = effect_of(tb, &d)
            side = d.owner if e.side == 0 else 1 - d.owner
            dst = m_to(m)
            left = s.portent_left[city][t] if side == s.active and not enr else 0
            remove_unit(c, city, side, t, enr)
            add_unit(c, dst, side, t, enr, 1)
            if left > s.portent_left[city][t]:
                inc(c, &s.portent_left[dst][t], 1)
            if d.n > 1:
                d.n -= 1
                push_frame(c, FR_RESUME, d)
            if not enr:
                enter(c, side, t, dst)
    elif d.kind == DK_RECLAIM:
        if verb != V_PASS:
            take_from_discard(c, p, t)
            to_hand_public(c, p, t)
            pick_next(c, d, d.n - 1, t, 0)
    elif d.kind == DK_REVEAL_TAKE:
        if verb == V_PASS:
            end_reveal(c, p)
        else:
            inc(c, &s.revealed[t], -1)
            if verb == V_TAKE:
                to_hand_public(c, p, t)  # R-deck-3: not drawing
                d.n -= 1
                d.last = <int16_t>t
                if d.n and real_choices(tb, s, &d):
                    s.pending = d
                else:
                    end_reveal(c, p)
            else:
                end_reveal(c, p)  # a free play takes 1 at most (the loader's rule): the rest go first
                place(c, p, t, city)
    elif d.kind == DK_PLAY_FREE:
        leave_hand(c, p, t)
        place(c, p, t, city)
    elif d.kind == DK_OFFERING:
        s.phase = PH_END_CHECK
        if verb != V_PASS:
            leave_hand(c, p, t)
            to_pile(c, p, t)
            draw(c, p, m_draw(m))
            gain(c, p, m_coin(m))
    run(c)
