cdef void step_effect(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef Frame* f = &s.stack[s.stack_n - 1]
    cdef int prog = f.prog, index = f.pc, owner = f.owner, city = f.city
    cdef int opp = 1 - owner, n, total, t, p, dest
    cdef const Instr* e
    cdef Decision d
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef int32_t buf[MAX_MOVES]
    if hook_frame(c, f):
        return
    if index >= tb.prog_len[prog]:
        inc(c, &s.stack_n, -1)
        return
    L(c, &f.pc, sizeof(f.pc))
    f.pc += 1
    e = instr(tb, prog, index)
    if e.op == OP_DRAW:
        draw(c, owner, e.n)
    elif e.op == OP_GAIN:
        gain(c, owner, e.n)
    elif e.op == OP_FAVOR:
        set8(c, &s.favor, s.gods[owner])
    elif e.op == OP_IF_FAVORED:
        if favored(s, owner):
            push(c, e.then_prog, owner, city)
    elif e.op == OP_DISCARD:
        n = hand_size(tb, s, owner)
        n = e.n if e.n < n else n
        if n:
            set_pending(c, DK_DISCARD, owner, owner, n)
    elif e.op == OP_OPP_DISCARDS:
        n = hand_size(tb, s, opp)
        n = e.n if e.n < n else n
        if n:
            set_pending(c, DK_DISCARD, opp, owner, n, 0, -1, -1, prog, index)
    elif e.op == OP_REVEAL_HAND_DISCARD:
        L(c, s.known[opp], MAX_T)
        memcpy(s.known[opp], s.hands[opp], MAX_T)
        d.kind = DK_TRASH; d.player = owner; d.owner = owner; d.n = e.n; d.last = 0
        d.card = -1; d.city = -1; d.prog = prog; d.index = index
        if has_choice(c, &d):
            set_pending(c, DK_TRASH, owner, owner, e.n, 0, -1, -1, prog, index)
    elif e.op == OP_ENTOMB:
        if incomplete_count(s, owner) == 0:
            return
        d.kind = DK_ENTOMB; d.player = owner; d.owner = owner; d.n = e.n; d.last = 0
        d.card = -1; d.city = city; d.prog = prog; d.index = index
        total = entomb_counts(c, &d, counts)
        if total:
            set_pending(c, DK_ENTOMB, owner, owner, e.n if (e.up_to or e.n < total) else total,
                        0, -1, city, prog, index)
    elif e.op == OP_RECLAIM:
        if s.discard_n:
            set_pending(c, DK_RECLAIM, owner, owner, e.n)
    elif e.op == OP_MOVE:
        d.kind = DK_MOVE; d.player = owner; d.owner = owner; d.n = e.n; d.last = 0
        d.card = -1; d.city = city; d.prog = prog; d.index = index
        if has_choice(c, &d):
            set_pending(c, DK_MOVE, owner, owner, e.n, 0, -1, city, prog, index)
    elif e.op == OP_DESTROY_ALL:
        total = 0
        for n in range(NCITIES):
            for p in range(2):
                for t in range(tb.T):
                    if s.cities[n][p][t] and matches(tb, t, e.filter):
                        for dest in range(s.cities[n][p][t]):
                            discard_card(c, t)
                        total += s.cities[n][p][t]
                        set8(c, &s.cities[n][p][t], 0)
        draw(c, owner, total * e.draw_each)
    elif e.op == OP_STEAL_UNIT:
        d.kind = DK_STEAL; d.player = owner; d.owner = owner; d.n = 0; d.last = 0
        d.card = -1; d.city = city; d.prog = prog; d.index = index
        if gen_moves(c, &d, buf) > 0:
            set_pending(c, DK_STEAL, owner, owner, 0, 0, -1, city, prog, index)
    elif e.op == OP_PLAY_FREE:
        if play_moves(c, owner, s.hands[owner], 0, 0, buf) > 0:
            set_pending(c, DK_PLAY_FREE, owner)
    elif e.op == OP_UNEARTH:
        n = unit_total(s.revealed)
        d.kind = DK_UNEARTH; d.player = owner; d.owner = owner; d.n = e.take if e.take < n else n; d.last = 0
        d.card = -1; d.city = -1; d.prog = -1; d.index = -1
        if gen_moves(c, &d, buf) == 1 and buf[0] == mk(V_PASS):  # no play and nothing to take
            unearth_rest(c)
        else:
            set_pending(c, DK_UNEARTH, owner, owner, d.n)
    elif e.op == OP_CHOOSE:
        set_pending(c, DK_CHOOSE, owner, owner, 0, 0, -1, city, prog, index)
    elif e.op == OP_REINFORCE_CHOICE:
        d.kind = DK_REINFORCE; d.player = owner; d.owner = -1; d.n = 0; d.last = 0
        d.card = -1; d.city = -1; d.prog = -1; d.index = -1
        if has_choice(c, &d):
            set_pending(c, DK_REINFORCE, owner)
    elif e.op == OP_DISCARD_BUILT:
        discard_card(c, e.n)
    else:
        hook_op(c, e, prog, index, owner, city)


# -- phases (reference: _phase_*)

cdef void destroy_limbo(Ctx* c, int p) noexcept nogil:
    cdef State* s = c.s
    cdef int t, k
    for t in range(c.tb.T):
        for k in range(s.limbo[t]):
            discard_card(c, t)
        if s.limbo[t] and c.tb.enduring[t] and resolves_for(c, t, p):
            inc(c, &s.destroyed[p][t], s.limbo[t])
    zero(c, s.limbo, MAX_T)

cdef void god_reveal(Ctx* c) noexcept nogil:
    cdef int t = take_top(c)
    if t < 0:
        return
    if devoted_to(c.tb, t, c.s.gods[c.s.active]):
        to_hand_public(c, c.s.active, t)
    else:
        discard_card(c, t)

# -- the Corrupted Heir (reference: GameState._heir_*)

