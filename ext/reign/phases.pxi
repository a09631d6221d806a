# -- the automatic phases: drafts, set-up steps and the turn (reference: _phase_*)

cdef void deal(Ctx* c) noexcept nogil:
    """R-setup-2: 4 unit cards and 4 coins each, seat 0 first; then the Emissary or the first turn."""
    cdef int p
    for p in range(2):
        draw(c, p, START_HAND)
        gain(c, p, START_COINS)
    c.s.phase = PH_EMISSARY if c.s.cfg.emissary else PH_WEALTH

cdef void own_decks(Ctx* c, const uint8_t* lists) noexcept nogil:
    """Each player's deck from their cards (``lists``: 2 x MAX_T counts; R-own-1), sorted then
    shuffled seat 0 first; then the deal. A card of a design left out (Test of Skill's) is shuffled
    in, then taken out (D-ablate-1)."""
    cdef State* s = c.s
    cdef int p, t, k, n
    L(c, s.decks, sizeof(s.decks))
    L(c, s.deck_lists, sizeof(s.deck_lists))
    L(c, s.deck_known, sizeof(s.deck_known))
    for p in range(2):
        n = 0
        for t in range(c.tb.T):
            for k in range(lists[p * MAX_T + t]):
                s.decks[p][n] = <uint8_t>t
                n += 1
        shuffle_raw(s.decks[p], n, s.rng)
        s.deck_n[p] = <uint8_t>without_ablated(c.tb, s.decks[p], n)
        for t in range(MAX_T):
            s.deck_lists[p][t] = lists[p * MAX_T + t] if c.tb.copies[t] else 0
        if s.cfg.deck != DECK_SDRAFT:  # R-hidden-3: what each deck holds is public
            memcpy(s.deck_known[p], s.deck_lists[p], MAX_T)
    deal(c)

cdef void phase_draft(Ctx* c) noexcept nogil:
    """Card Drafting (R-draft-2): the youngest player (not the first player) picks first."""
    cdef State* s = c.s
    cdef uint8_t lists[2 * MAX_T]
    cdef int p, i, young = 1 - s.cfg.first_player
    if s.draft_picks == 2 * DRAFT_STACKS:
        s.coins[0] = s.coins[1] = 0  # R-draft-4: the drafting coins go back to the supply
        s.pot = 0
        s.pool_n = 0  # undrafted stacks leave the game
        memset(lists, 0, sizeof(lists))
        for p in range(2):
            for i in range(s.drafted_n[p]):
                lists[p * MAX_T + s.drafted[p][i]] = c.tb.copies[s.drafted[p][i]]
        own_decks(c, lists)
        return
    set_pending(s, DK_DRAFT, young if s.draft_picks % 2 == 0 else 1 - young, -1, 0, 0, -1, -1, -1)

cdef void phase_sdraft(Ctx* c) noexcept nogil:
    """Simplified Drafting (R-sdraft-1, R-sdraft-2): deal a round's packs, ask seat 0 then seat 1 for a
    hidden pick, then pass the packs; after 3 rounds each player's picks are their deck."""
    cdef State* s = c.s
    cdef uint8_t lists[2 * MAX_T]
    cdef int p, k
    if s.draft_picks == 2 * SDRAFT_ROUNDS * SDRAFT_PACK:
        s.pool_n = 0  # undealt cards leave the game
        memcpy(lists, s.deck_lists, sizeof(lists))
        own_decks(c, lists)
        return
    if s.draft_picks % (2 * SDRAFT_PACK) == 0:
        for p in range(2):  # 10 to each, seat 0 first, from the top
            for k in range(SDRAFT_PACK):
                s.pool_n -= 1
                inc(c, &s.packs[p][s.pool[s.pool_n]], 1)
    set_pending(s, DK_SDRAFT, s.draft_picks % 2, -1, 0, 0, -1, -1, -1)

cdef void phase_emissary(Ctx* c) noexcept nogil:
    """R-emissary-1: each seat puts a unit card forward, in seat order, unseen by the other; the
    stronger (cost + strength + offering, then strength) goes first. A seat with no unit card in hand
    puts none forward and the next is still asked (D-emissary-2)."""
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int p, first, k0, k1, e
    for p in range(2):
        if s.emissaries[p] < 0 and hand_size(tb, s, p) > 0:
            set_pending(s, DK_EMISSARY, p, -1, 0, 0, -1, -1, -1)
            return
    if s.emissaries[0] < 0 and s.emissaries[1] < 0:  # D-emissary-2: nobody put one forward
        first = s.cfg.first_player
    elif s.emissaries[0] < 0 or s.emissaries[1] < 0:  # D-emissary-2: the one who did goes first
        first = 0 if s.emissaries[0] >= 0 else 1
    else:
        e = s.emissaries[0]
        k0 = tb.cost[e] + tb.strength[e] + tb.offering[e]
        e = s.emissaries[1]
        k1 = tb.cost[e] + tb.strength[e] + tb.offering[e]
        if k0 == k1:
            k0 = tb.strength[s.emissaries[0]]
            k1 = tb.strength[s.emissaries[1]]
        first = s.cfg.first_player if k0 == k1 else (0 if k0 > k1 else 1)
    s.active = <uint8_t>first
    for p in range(2):
        e = s.emissaries[p]
        if e >= 0:
            if p == first:
                to_pile(c, p, e)
            else:
                to_hand_public(c, p, e)
    s.emissaries[0] = s.emissaries[1] = -1
    s.phase = PH_WEALTH

cdef void phase_portent(Ctx* c) noexcept nogil:
    """R-portent-1: the active player's Oracles resolve one at a time, in the order they choose
    (asked only when two or more could go next)."""
    cdef State* s = c.s
    cdef int city, n = 0, one_city = 0, one_t = 0
    cdef uint64_t units
    for city in range(NCITIES):
        units = present(s.portent_left[city])
        if units:
            n += 1 if (units & (units - 1)) == 0 else 2  # only none, one or more matter
            one_city = city
            one_t = 63 - __builtin_clzll(units)
    if n == 0:  # every count is 0 already
        s.phase = PH_FEAT
    elif n == 1:
        resolve_oracle(c, one_city, one_t)
    else:
        set_pending(s, DK_PORTENT, s.active, -1, 0, 0, -1, -1, -1)

cdef inline void resolve_oracle(Ctx* c, int city, int t) noexcept nogil:
    inc(c, &c.s.portent_left[city][t], -1)
    push(c, t, c.s.active, city)

cdef int side_has(const Tables* tb, const State* s, int city, int p, int filter) noexcept nogil:
    """Whether ``p``'s side of ``city`` has a unit matching ``filter`` (an Enraged one is a Beast)."""
    return (s.side_set[city][p][0] & passing(tb, 0, filter)) != 0 or \
        (s.side_set[city][p][1] & passing(tb, 1, filter)) != 0

cdef int feat_holds(const Tables* tb, const State* s, int p, int f) noexcept nogil:
    """R-feat-3, R-card-12."""
    cdef int city, kind = tb.feat_kind[f]
    if kind == COND_IN_EVERY_CITY:
        for city in range(NCITIES):
            if not side_has(tb, s, city, p, tb.feat_filter[f]):
                return 0
        return 1
    if kind == COND_UNITS_IN_ONE_CITY:
        for city in range(NCITIES):
            if side_count(tb, s, city, p) >= tb.feat_n[f]:
                return 1
        return 0
    if kind == COND_OPPONENT_HAND_DISCARDS:
        return s.hand_discards[1 - p] >= tb.feat_n[f]
    return s.beast_abilities >= tb.feat_n[f]

cdef int strength(const Tables* tb, const State* s, int city, int p) noexcept nogil:
    """R-war-3: printed strength of face-up units, 4 for each Enraged one."""
    cdef int t, n = 0
    cdef uint64_t units = s.side_set[city][p][0]
    while units:
        t = pop_unit(&units)
        n += s.cities[city][p][t] * tb.strength[t]
    units = s.side_set[city][p][1]
    while units:
        n += ENRAGED_STRENGTH * s.enraged[city][p][pop_unit(&units)]
    return n

cdef int soldiers(const Tables* tb, const State* s, int city, int p) noexcept nogil:
    cdef int n = 0
    cdef uint64_t units = s.side_set[city][p][0] & tb.type_set[TY_SOLDIER]
    while units:
        n += s.cities[city][p][pop_unit(&units)]
    return n

cdef void resolve_war(Ctx* c, int city) noexcept nogil:
    """R-war-3, R-war-4: strength, then Soldiers; the winner takes the top reward card into hand."""
    cdef State* s = c.s
    cdef int a0 = strength(c.tb, s, city, 0), a1 = strength(c.tb, s, city, 1), victor
    if a0 == a1:
        a0 = soldiers(c.tb, s, city, 0)
        a1 = soldiers(c.tb, s, city, 1)
    victor = -1 if a0 == a1 else (0 if a0 > a1 else 1)
    if victor >= 0:
        s.city_rewards_n[city] -= 1
        s.rewards_hand[victor][s.city_rewards[city][s.city_rewards_n[city]]] += 1
    s.war_city = <int8_t>city
    s.war_victor = <int8_t>victor
    s.keep_step = 0
    s.phase = PH_WAR_KEEP

cdef void discard_limbo(Ctx* c, int p) noexcept nogil:
    """The units not kept go to their owner's pile, in card order (D-discard-1, R-war-6)."""
    cdef State* s = c.s
    cdef int t, k
    cdef uint64_t units = present(s.limbo) | present(s.limbo_enraged)
    while units:
        t = pop_unit(&units)
        for k in range(s.limbo[t] + s.limbo_enraged[t]):
            to_pile(c, p, t)
    zero(c, s.limbo, MAX_T)
    zero(c, s.limbo_enraged, MAX_T)

cdef void phase_war_keep(Ctx* c) noexcept nogil:
    """R-war-4, R-war-5: the active player keeps at most their limit first, then the other."""
    cdef State* s = c.s
    cdef int p, limit, city = s.war_city
    cdef Decision d
    if s.keep_step == 2:
        s.keep_step = 0
        s.war_city = -1
        s.war_victor = -1
        s.phase = PH_WAR
        return
    p = s.active if s.keep_step == 0 else 1 - s.active
    s.keep_step += 1
    limit = WINNER_KEEPS if p == s.war_victor else LOSER_KEEPS
    if side_count(c.tb, s, city, p) <= limit:
        return
    L(c, s.limbo, MAX_T)
    L(c, s.limbo_enraged, MAX_T)
    memcpy(s.limbo, s.cities[city][p], MAX_T)
    memcpy(s.limbo_enraged, s.enraged[city][p], MAX_T)
    zero(c, s.cities[city][p], MAX_T)
    zero(c, s.enraged[city][p], MAX_T)
    zero(c, s.side_set[city][p], sizeof(s.side_set[city][p]))
    s.side_n[city][p] = 0
    d = decision(DK_KEEP, p, -1, limit, city, -1, -1)
    if n_moves(c.tb, s, &d) > 1:
        s.pending = d
    else:  # nothing fits (a winner with only Beasts): no choice
        discard_limbo(c, p)

cdef void phase_end_check(Ctx* c) noexcept nogil:
    """R-offer-3 (the active side's Enraged units flip face up), then R-end-1 to R-end-4."""
    cdef State* s = c.s
    cdef int a = s.active, city, t, empty = 0
    cdef uint64_t units
    for city in range(NCITIES):
        units = s.side_set[city][a][1]
        if units:  # else nothing changes
            L(c, s.cities[city][a], MAX_T)
            L(c, s.side_set[city][a], sizeof(s.side_set[city][a]))
            s.side_set[city][a][0] |= units
            s.side_set[city][a][1] = 0
            while units:
                t = pop_unit(&units)
                s.cities[city][a][t] += s.enraged[city][a][t]
                s.side_n[city][a] += s.enraged[city][a][t] * (c.tb.size[t] - 2)
            zero(c, s.enraged[city][a], MAX_T)
        empty += s.city_rewards_n[city] == 0
    if empty >= 2 or feats_done(s, 1 - a) >= FEATS_TO_END or s.turn >= s.cfg.max_turns:
        s.phase = PH_GAME_OVER
        return
    s.active = <uint8_t>(1 - a)
    s.turn += 1
    s.first_turn = 0
    s.reward_used = 0
    s.hand_discards[0] = s.hand_discards[1] = 0
    s.beast_abilities = 0
    s.phase = PH_WEALTH

cdef void run_phase(Ctx* c) noexcept nogil:
    cdef State* s = c.s
    cdef const Tables* tb = c.tb
    cdef int ph = s.phase, p = s.active, city, t, f, n
    cdef uint64_t units
    cdef int torn[NCITIES]
    if ph == PH_DRAFT:
        phase_draft(c)
    elif ph == PH_SDRAFT:
        phase_sdraft(c)
    elif ph == PH_EMISSARY:
        phase_emissary(c)
    elif ph == PH_WEALTH:  # R-wealth-1: 3 actions, 2 on the first player's first turn; R-wealth-4
        n = 2 if s.first_turn else 3
        if s.cfg.catch_up:
            n += (hand_size(tb, s, p) == 0) + (s.coins[p] == 0)
        set_pending(s, DK_WEALTH, p, -1, n, 0, -1, -1, -1)
    elif ph == PH_SURGE:
        set_pending(s, DK_SURGE, p, -1, 0, 0, -1, -1, -1)
    elif ph == PH_PORTENT_START:
        L(c, s.portent_left, sizeof(s.portent_left))
        memset(s.portent_left, 0, sizeof(s.portent_left))
        n = 0
        for city in range(NCITIES):
            units = s.side_set[city][p][0] & tb.type_set[TY_ORACLE]
            n += units != 0
            while units:
                t = pop_unit(&units)
                s.portent_left[city][t] = s.cities[city][p][t]
        s.phase = PH_PORTENT if n else PH_FEAT  # no Oracle: phase_portent would find none
    elif ph == PH_PORTENT:
        phase_portent(c)
    elif ph == PH_FEAT:  # R-feat-1
        for f in range(NFEATS):
            if not s.feats[p][f] and feat_holds(tb, s, p, f):
                s.feats[p][f] = 1
        s.phase = PH_WAR
    elif ph == PH_WAR:
        n = war_torn(tb, s, torn)
        if n == 0:
            s.phase = PH_OFFERING
        elif n == 1:
            resolve_war(c, torn[0])
        else:
            set_pending(s, DK_WAR, p, -1, 0, 0, -1, -1, -1)  # R-war-2
    elif ph == PH_WAR_KEEP:
        phase_war_keep(c)
    elif ph == PH_OFFERING:
        if s.hand_set[p] == 0:  # D-decision-1: `pass` would be the only move
            s.phase = PH_END_CHECK
        else:
            set_pending(s, DK_OFFERING, p, -1, 0, 0, -1, -1, -1)
    elif ph == PH_END_CHECK:
        phase_end_check(c)

cdef void run(Ctx* c) noexcept nogil:
    """Resolve everything automatic until a decision is pending or the game is over."""
    cdef State* s = c.s
    while s.pending.kind == DK_NONE and s.phase != PH_GAME_OVER:
        if s.stack_n:
            step_stack(c)
        else:
            run_phase(c)
