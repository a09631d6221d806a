cdef void step_phase(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int p, t, slot, first, k0, k1, excess, empty, limit, nt, city
    cdef int torn[NCITIES]
    cdef Decision d
    cdef int32_t buf[MAX_MOVES]
    cdef int ph = s.phase
    if ph == PH_EMISSARY:
        p = 0 if s.emissaries[0] < 0 else 1
        if s.emissaries[p] < 0 and hand_size(tb, s, p) > 0:
            set_pending(c, DK_EMISSARY, p)
            return
        if s.emissaries[0] < 0 or s.emissaries[1] < 0:
            first = 0 if s.emissaries[1] < 0 else 1
        else:
            k0 = tb.cost[s.emissaries[0]] + tb.strength[s.emissaries[0]] + tb.offering[s.emissaries[0]]
            k1 = tb.cost[s.emissaries[1]] + tb.strength[s.emissaries[1]] + tb.offering[s.emissaries[1]]
            if k0 != k1:
                first = 0 if k0 > k1 else 1
            elif tb.strength[s.emissaries[0]] != tb.strength[s.emissaries[1]]:
                first = 0 if tb.strength[s.emissaries[0]] > tb.strength[s.emissaries[1]] else 1
            else:
                first = s.first_player  # the oldest player (Setup 4)
        set8(c, &s.active, first)
        set8(c, &s.favor, s.gods[1 - first])
        for p in range(2):
            if s.emissaries[p] >= 0:
                if p == first:
                    discard_card(c, s.emissaries[p])
                else:
                    to_hand_public(c, p, s.emissaries[p])
        seti8(c, &s.emissaries[0], -1)
        seti8(c, &s.emissaries[1], -1)
        set8(c, &s.phase, PH_WEALTH_REVEAL)
    elif ph == PH_WEALTH_REVEAL:
        hook_turn_start(c)
        if heir_active(s):
            heir_wealth(c)
            return
        god_reveal(c)
        set8(c, &s.phase, PH_WEALTH_AGAIN)
    elif ph == PH_WEALTH_AGAIN:
        set8(c, &s.phase, PH_WEALTH)
        if not s.reveal_again_used and units_present(s.hands[s.active]) & tb.filter_set[FILTER_NEUTRAL]:
            set_pending(c, DK_REVEAL, s.active)
    elif ph == PH_WEALTH:
        set_pending(c, DK_WEALTH, s.active, -1, 2 if s.first_turn else 3)
    elif ph == PH_SURGE_START:
        if heir_active(s):
            heir_surge(c)
            return
        p = s.active
        set8(c, &s.phase, PH_SURGE)
        slot = s.building[p]
        if slot >= 0 and unit_total(s.under[p]) >= tb.build[s.gods[p]][slot]:
            set8(c, &s.completed[p][slot], 1)
            seti8(c, &s.building[p], -1)
            L(c, s.revealed, MAX_T)
            memcpy(s.revealed, s.under[p], MAX_T)
            zero(c, s.under[p], MAX_T)
            push(c, tb.prog_structure[s.gods[p]][slot], p, -1)
    elif ph == PH_SURGE:
        set_pending(c, DK_SURGE, s.active)
    elif ph == PH_WAR:
        nt = war_torn(tb, s, torn)
        if nt == 0:
            set8(c, &s.phase, PH_OFFERING)
        elif nt == 1 or heir_active(s):
            resolve_war(c, torn[0])  # D-solo-war-1
        else:
            set_pending(c, DK_WAR, s.active)
    elif ph == PH_WAR_KEEP:
        if s.keep_step == 2:
            set8(c, &s.keep_step, 0)
            set8(c, &s.phase, PH_WAR_ENDURING)
            return
        p = s.active if s.keep_step == 0 else 1 - s.active
        inc(c, &s.keep_step, 1)
        limit = 1 if p == s.war_victor else 2
        city = s.war_city
        if side_count(tb, s, city, p) <= limit:
            return
        L(c, s.limbo, MAX_T)
        memcpy(s.limbo, s.cities[city][p], MAX_T)
        zero(c, s.cities[city][p], MAX_T)
        if s.level and p == CH:
            heir_keep(c, limit)
            return
        d.kind = DK_KEEP; d.player = p; d.owner = -1; d.n = limit; d.last = 0
        d.card = -1; d.city = city; d.prog = -1; d.index = -1
        if gen_moves(c, &d, buf) > 0:
            set_pending(c, DK_KEEP, p, -1, limit, 0, -1, city)
        else:
            destroy_limbo(c, p)
    elif ph == PH_WAR_ENDURING:
        for k0 in range(2):
            p = s.active if k0 == 0 else 1 - s.active
            if unit_total(s.destroyed[p]):
                if hand_size(tb, s, p) >= 1:
                    set_pending(c, DK_ENDURING, p)
                    return
                zero(c, s.destroyed[p], MAX_T)
        seti8(c, &s.war_city, -1)
        seti8(c, &s.war_victor, -1)
        set8(c, &s.phase, PH_WAR)
    elif ph == PH_OFFERING:
        if heir_active(s):
            heir_offering(c)
        elif hand_size(tb, s, s.active) == 0:  # D-decision-1: `pass` would be the only move
            set8(c, &s.phase, PH_OFFERING_LIMITS)
        else:
            set_pending(c, DK_OFFERING, s.active)
    elif ph == PH_OFFERING_LIMITS:
        p = s.active
        excess = hand_size(tb, s, p) - HAND_LIMIT
        set8(c, &s.phase, PH_END_CHECK)
        if excess > 0:
            set_pending(c, DK_DISCARD, p, p, excess)
    elif ph == PH_END_CHECK:
        hook_end_check(c)
        p = s.active
        if s.coins[p] > COIN_LIMIT:
            set8(c, &s.coins[p], COIN_LIMIT)
        empty = 0
        for city in range(NCITIES):
            if s.city_tiles_n[city] == 0:
                empty += 1
        if (empty >= 2 or (s.completed[0][0] and s.completed[0][1] and s.completed[0][2])
                or (s.completed[1][0] and s.completed[1][1] and s.completed[1][2]) or s.turn >= s.max_turns
                or hook_game_ends(tb, s)):
            set8(c, &s.phase, PH_GAME_OVER)
            return
        set8(c, &s.active, 1 - p)
        L(c, &s.turn, sizeof(s.turn))
        s.turn += 1
        set8(c, &s.first_turn, 0)
        set8(c, &s.discount_used, 0)
        set8(c, &s.reward_used, 0)
        set8(c, &s.reveal_again_used, 0)
        set8(c, &s.phase, PH_WEALTH_REVEAL)
    else:
        hook_phase(c, ph)

cdef void run(Ctx* c) noexcept nogil:
    """Resolve everything automatic until a decision is pending or the game is over."""
    cdef State* s = c.s
    while s.pending.kind == DK_NONE and s.phase != PH_GAME_OVER:
        if s.stack_n:
            step_effect(c)
        else:
            step_phase(c)


