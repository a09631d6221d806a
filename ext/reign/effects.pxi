# -- the stack and the effect ops (reference: _step_stack, _enter, _op_*)

cdef void push_frame(Ctx* c, int kind, Decision d) noexcept nogil:
    cdef State* s = c.s
    if s.stack_n >= MAX_STACK:  # beyond the bound of MAX_STACK's comment: cannot happen
        return
    L(c, &s.stack[s.stack_n], sizeof(Frame))
    s.stack[s.stack_n].kind = <uint8_t>kind
    s.stack[s.stack_n].d = d
    s.stack_n += 1

cdef inline void push(Ctx* c, int prog, int owner, int city) noexcept nogil:
    push_frame(c, FR_EFFECTS, decision(DK_NONE, -1, owner, 0, city, prog, 0))

cdef void enter(Ctx* c, int p, int t, int city) noexcept nogil:
    """A face-up unit has entered ``city``: a Soldier's ability resolves for its owner at once
    (R-unit-3, R-surge-7, R-surge-8), unless MAX_CHAIN Soldier abilities are already resolving."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int k, depth = 0, prog
    seen(c, p, t, 0)
    if tb.type[t] != TY_SOLDIER:
        return
    for k in range(s.stack_n):
        prog = s.stack[k].d.prog
        if s.stack[k].kind == FR_EFFECTS and prog < MAX_T and tb.type[prog] == TY_SOLDIER:
            depth += 1
    if depth < MAX_CHAIN:
        push(c, t, p, city)

cdef inline void place(Ctx* c, int p, int t, int city) noexcept nogil:
    """A unit card onto ``p``'s side of ``city`` (R-surge-1)."""
    add_unit(c, city, p, t, 0, 1)
    enter(c, p, t, city)

cdef void end_reveal(Ctx* c, int owner) noexcept nogil:
    """Revealed cards not taken go to the owner's pile in card order (R-deck-2, R-card-4)."""
    cdef State* s = c.s
    cdef int t, k
    cdef uint64_t units = present(s.revealed)
    while units:
        t = pop_unit(&units)
        for k in range(s.revealed[t]):
            to_pile(c, owner, t)
    zero(c, s.revealed, MAX_T)

cdef void start_city_pick(Ctx* c, int kind, const Effect* e, int prog, int index, int owner,
                          int city) noexcept nogil:
    """Destroy (R-card-1) or return (R-card-8): all that can be, up to N, unless "up to"."""
    cdef int keys[NCITIES * 2 * MAX_T]
    cdef uint8_t counts[NCITIES * 2 * MAX_T]
    cdef int side = owner if e.side == 0 else 1 - owner, total
    units_in_cities(c.tb, c.s, side, e.this_city, city, e.filter, keys, counts, &total)
    if total:
        set_pending(c.s, kind, owner, owner, e.n if e.up_to or e.n < total else total, 0, city, prog, index)

cdef void run_effect(Ctx* c, const Effect* e, int prog, int index, int owner, int city) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef Decision d
    cdef int n, opp = 1 - owner, t, fitting, m
    cdef int keys[NCITIES * MAX_T]
    cdef uint8_t counts[NCITIES * MAX_T]
    cdef uint64_t units
    cdef int room[NCITIES]
    cdef int op = e.op
    if op == OP_DRAW:
        draw(c, owner, e.n)
    elif op == OP_GAIN:
        gain(c, owner, e.n)
    elif op == OP_TAKE_COINS:  # R-card-6
        n = e.n if e.n < s.coins[opp] else s.coins[opp]
        s.coins[opp] -= n
        s.coins[owner] += n
    elif op == OP_DISCARD:  # R-card-3
        n = hand_size(tb, s, owner)
        n = e.n if e.n < n else n
        if n:
            set_pending(s, DK_DISCARD, owner, owner, n, 0, -1, -1, -1)
    elif op == OP_OPP_DISCARDS:  # R-card-2
        n = hand_size(tb, s, opp)
        n = e.n if e.n < n else n
        if n:
            set_pending(s, DK_DISCARD, opp, owner, n, 0, -1, -1, -1)
    elif op == OP_REVEAL_HAND_DISCARD:  # R-card-11
        L(c, s.known[opp], MAX_T)
        memcpy(s.known[opp], s.hands[opp], MAX_T)
        units = s.hand_set[opp]
        while units:
            seen(c, opp, pop_unit(&units), 0)
        d = decision(DK_TRASH, owner, owner, e.n, -1, prog, index)
        if n_moves(tb, s, &d) > 1:
            s.pending = d
    elif op == OP_RECLAIM:  # R-card-5
        d = decision(DK_RECLAIM, owner, owner, e.n, -1, prog, index)
        if n_moves(tb, s, &d) > 1:
            s.pending = d
    elif op == OP_DESTROY:
        start_city_pick(c, DK_DESTROY, e, prog, index, owner, city)
    elif op == OP_RETURN_UNIT:
        start_city_pick(c, DK_RETURN_UNIT, e, prog, index, owner, city)
    elif op == OP_ENRAGE:  # R-enrage-1 to R-enrage-3, R-card-9
        d = decision(DK_ENRAGE, owner, owner, e.n, city, prog, index)
        if not e.up_to:
            m = enrage_counts(tb, s, &d, keys, counts, room)
            n = reach(keys, counts, m, room, 0, tb.T)
            d.n = <uint8_t>(e.n if e.n < n else n)
        if d.n and real_choices(tb, s, &d):
            s.pending = d
    elif op == OP_MOVE:  # R-card-7
        d = decision(DK_MOVE, owner, owner, e.n, city, prog, index)
        if n_moves(tb, s, &d) > 1:
            s.pending = d
    elif op == OP_PLAY_FREE:  # R-card-10
        d = decision(DK_PLAY_FREE, owner, owner, 0, -1, -1, -1)
        if n_moves(tb, s, &d) > 0:
            s.pending = d
    elif op == OP_REVEAL_TAKE:  # R-card-4
        for n in range(e.n):
            t = take_top(c, owner)
            if t < 0:
                break
            inc(c, &s.revealed[t], 1)
        fitting = 0
        units = present(s.revealed) & passing(tb, 0, e.filter)
        while units:
            fitting += s.revealed[pop_unit(&units)]
        d = decision(DK_REVEAL_TAKE, owner, owner, e.take if e.up_to or e.take < fitting else fitting, city, prog,
                     index)
        if s.cfg.deck == DECK_SDRAFT:  # seen() changes nothing in any other variant
            units = present(s.revealed)
            while units:
                t = pop_unit(&units)
                seen(c, owner, t, s.revealed[t])
        if d.n and real_choices(tb, s, &d):
            s.pending = d
        else:
            end_reveal(c, owner)

cdef void step_stack(Ctx* c) noexcept nogil:
    cdef int t
    cdef State* s = c.s
    cdef Frame* top = &s.stack[s.stack_n - 1]
    cdef Decision d = top.d
    if top.kind == FR_RESUME:
        s.stack_n -= 1
        if real_choices(c.tb, s, &d):
            s.pending = d
        elif d.kind == DK_REVEAL_TAKE:
            end_reveal(c, d.owner)
        return
    if top.kind == FR_BEAST:
        s.stack_n -= 1
        t = s.beast
        s.beast = -1  # no longer set aside (D-beast-1) ...
        to_pile(c, s.active, t)  # ... but on the pile, after its ability (R-surge-4)
        return
    if d.index >= c.tb.prog_len[d.prog]:
        s.stack_n -= 1
        return
    L(c, &top.d.index, sizeof(top.d.index))
    top.d.index += 1
    run_effect(c, &c.tb.code[d.prog][d.index], d.prog, d.index, d.owner, d.city)
