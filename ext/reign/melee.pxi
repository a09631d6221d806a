# -- the Grand Melee (reference: omen_search/games/melee/reference.py): four players, one draft, four
# table games of Reign of War, each played on this core's State.
#
# The Melee struct begins with the table game's State, so a table move's trail records (offsets from
# the table) are offsets from the melee too, and one trail undoes both. Moves are packed ids:
#
#     a draft pick       the Reign id of `draft <design>`, or of `pick <card>` in a Simplified draft
#     a table move       the Reign id | MELEE_TABLE_BIT | (the other table player's seat << 28)
#
# so seen_move can tell, without the state, who sits at the table a move was made at.

cdef enum:
    MELEE_PLAYERS = 4
    MELEE_TABLES = 4              # melee.rules.TABLES: two rounds of two tables
    MELEE_DRAFT_PICKS = 40        # melee.rules.DRAFT_PICKS
    SD_ROUND = 40                 # melee.rules.SDRAFT_PICKS_A_ROUND: a pack of 10 for each of four
    SD_PICKS = 120                # melee.rules.SDRAFT_PICKS: 3 rounds, 30 cards each
    MELEE_DRAFTED = 30            # the most a player drafts: 10 stacks, or 30 cards
    MD_CARD = 0                   # melee.rules.DRAFTS
    MD_SIMPLIFIED = 1
    MELEE_TABLE_BIT = 1 << 30
    MELEE_SEAT_SHIFT = 28
    MELEE_REIGN_MASK = (1 << 28) - 1
    MPH_DRAFT = 0                 # melee.rules.PHASES
    MPH_TABLE = 1
    MPH_OVER = 2
    MELEE_TRAIL = TRAIL_MARGIN + 1024  # one apply: a table move, then a whole new table State logged

cdef struct MeleeResult:
    int8_t seats[2]               # table seat 0 (the older player), table seat 1
    int8_t winner                 # a global seat
    uint8_t drawn                 # drawn on points, given to the second player (R-melee-7)
    int16_t scores[2]

cdef struct MeleeSetup:
    uint8_t emissary
    uint8_t catch_up
    uint16_t max_turns
    uint8_t draft                 # MD_*

cdef struct Melee:
    State table                   # the table game in play: first, so its trail offsets are the melee's
    uint64_t rng[4]               # the melee's generator: match cards, each table's seed
    uint32_t ply
    uint8_t phase                 # MPH_*
    uint8_t picks
    uint8_t pool_n
    uint8_t results_n
    int8_t match[MELEE_PLAYERS]   # each player's match card (R-melee-2)
    int8_t table_seats[2]         # the global seats at the table in play, -1 none
    uint8_t drafted_n[MELEE_PLAYERS]
    uint8_t drafted[MELEE_PLAYERS][MELEE_DRAFTED]  # each player's stacks (cards), in pick order
    uint8_t pool[MAX_CARDS]       # the stacks left, in design order; Simplified: the undealt cards
    uint8_t dealt_n
    uint8_t dealt[SD_PICKS]       # the Simplified draft's packs, as dealt (melee.sdraft.pack_dealt)
    MeleeResult results[MELEE_TABLES]
    MeleeSetup cfg

cdef int8_t MELEE_MATCH_CARDS[MELEE_PLAYERS]
cdef uint8_t MELEE_DRAFT_ORDER[MELEE_PLAYERS]
cdef double MELEE_PLACE_RETURN[3]
for _i in range(MELEE_PLAYERS):
    MELEE_MATCH_CARDS[_i] = _melee_rules.MATCH_CARDS[_i]
    MELEE_DRAFT_ORDER[_i] = _melee_rules.DRAFT_ORDER[_i]
for _i in range(3):
    MELEE_PLACE_RETURN[_i] = _melee_rules.PLACE_RETURNS[_i]
assert (_melee_rules.PLAYERS, _melee_rules.TABLES, _melee_rules.DRAFT_PICKS, _melee_rules.PHASES,
        _melee_rules.TABLE_COINS, _melee_rules.SDRAFT_PICKS_A_ROUND, _melee_rules.SDRAFT_PICKS,
        _melee_rules.DRAFTS) == (MELEE_PLAYERS, MELEE_TABLES, MELEE_DRAFT_PICKS, ("draft", "table", "game_over"), 20,
                                 SD_ROUND, SD_PICKS, ("card", "simplified"))


cdef int melee_to_move(const Melee* m) noexcept nogil:
    if m.phase == MPH_DRAFT:  # the Simplified draft asks in seat order (R-sdraft-2)
        return MELEE_DRAFT_ORDER[m.picks % MELEE_PLAYERS] if m.cfg.draft == MD_CARD else m.picks % MELEE_PLAYERS
    if m.phase == MPH_TABLE:
        return m.table_seats[m.table.pending.player]
    return -1

cdef int melee_draftable(const Tables* tb, const Melee* m, int p, int32_t* out) noexcept nogil:
    """The stacks ``p`` may take: within the type limits (R-draft-3), any if none is."""
    cdef int taken[4]
    cdef int i, t, n = 0
    taken[0] = taken[1] = taken[2] = taken[3] = 0
    for i in range(m.drafted_n[p]):
        taken[tb.type[m.drafted[p][i]]] += 1
    for i in range(m.pool_n):
        t = m.pool[i]
        if taken[tb.type[t]] < DRAFT_LIMIT[tb.type[t]]:
            out[n] = mk(V_DRAFT, t)
            n += 1
    if n == 0:
        for i in range(m.pool_n):
            out[n] = mk(V_DRAFT, m.pool[i])
            n += 1
    return n

# -- the Simplified draft (reference: omen_search/games/melee/sdraft.py)

cdef inline int sd_picked(const Melee* m, int r, int t, int q) noexcept nogil:
    """The card ``q`` took at step ``t`` of round ``r``, -1 if not yet (sdraft.picked)."""
    cdef int i = SDRAFT_PACK * r + t
    return m.drafted[q][i] if i < m.drafted_n[q] else -1

cdef void sd_pack_at(const Melee* m, int r, int j, int t, uint8_t* counts) noexcept nogil:
    """Pack ``j`` of round ``r`` at step ``t``, before that step's pick, as counts (sdraft.pack_at)."""
    cdef int k, s
    memset(counts, 0, MAX_T)
    for k in range(SDRAFT_PACK):
        counts[m.dealt[SD_ROUND * r + SDRAFT_PACK * j + k]] += 1
    for s in range(t):
        counts[m.drafted[(j - s + SD_ROUND) % MELEE_PLAYERS][SDRAFT_PACK * r + s]] -= 1

cdef void sort_small(uint8_t* xs, int n) noexcept nogil:
    """Insertion sort of a few cards."""
    cdef int i, k
    cdef uint8_t x
    for i in range(1, n):
        x = xs[i]
        k = i - 1
        while k >= 0 and xs[k] > x:
            xs[k + 1] = xs[k]
            k -= 1
        xs[k + 1] = x

cdef void sd_deal_packs(Melee* m, Trail* tr) noexcept nogil:
    """A round's packs: 10 cards to each seat, 0 first, from the top (MeleeState._deal_packs)."""
    cdef int j, k
    trail_log(tr, m, &m.dealt[m.dealt_n], SD_ROUND)
    trail_log(tr, m, &m.dealt_n, 1)
    trail_log(tr, m, &m.pool_n, 1)
    for j in range(MELEE_PLAYERS):
        for k in range(SDRAFT_PACK):
            m.pool_n -= 1
            m.dealt[m.dealt_n + k] = m.pool[m.pool_n]
        sort_small(&m.dealt[m.dealt_n], SDRAFT_PACK)
        m.dealt_n += SDRAFT_PACK

cdef int sd_legal(const Tables* tb, const Melee* m, int32_t* out) noexcept nogil:
    """The cards of the pack held, each design once, in design order."""
    cdef uint8_t counts[MAX_T]
    cdef int q = m.picks % MELEE_PLAYERS, r = m.picks // SD_ROUND, t = m.picks % SD_ROUND // MELEE_PLAYERS
    cdef int u, n = 0
    sd_pack_at(m, r, (q + t) % MELEE_PLAYERS, t, counts)
    for u in range(tb.T):
        if counts[u]:
            out[n] = mk(V_PICK, u)
            n += 1
    return n

cdef void sd_deal_unseen(const Tables* tb, Melee* m, int me, uint64_t* rng) noexcept nogil:
    """What ``me`` has not seen of a Simplified draft, dealt again (sdraft.deal_unseen: the same
    draws in the same order)."""
    cdef uint8_t counts[MAX_T]
    cdef uint8_t left[MAX_T]
    cdef uint8_t unseen[MAX_CARDS]
    cdef uint8_t gone[SDRAFT_PACK]
    cdef uint8_t pack[SDRAFT_PACK]
    cdef uint8_t dealt[SD_PICKS]
    cdef uint8_t drafted[MELEE_PLAYERS][MELEE_DRAFTED]
    cdef int8_t first[SDRAFT_ROUNDS][MELEE_PLAYERS]
    cdef int r_now = m.picks // SD_ROUND, t_now = m.picks % SD_ROUND // MELEE_PLAYERS
    cdef int seat_now = m.picks % MELEE_PLAYERS
    cdef int s, r, t, j, u, k, n = 0, cursor = 0, pn, gn, gi, made, last, a, after, mine, dealt_n = 0
    memset(first, -1, sizeof(first))
    memcpy(left, tb.copies, MAX_T)  # every unit card in play, less those seen
    for s in range(SDRAFT_PACK * r_now + t_now + 1):
        r = s // SDRAFT_PACK
        t = s % SDRAFT_PACK
        j = (me + t) % MELEE_PLAYERS
        if first[r][j] < 0:
            first[r][j] = t
            sd_pack_at(m, r, j, t, counts)
            for u in range(tb.T):
                left[u] -= counts[u]
    for u in range(tb.T):
        for k in range(left[u]):
            unseen[n] = <uint8_t>u
            n += 1
    shuffle_raw(unseen, n, rng)
    for r in range(r_now + 1):
        for j in range(MELEE_PLAYERS):
            made = SDRAFT_PACK if r < r_now else t_now + (((j - t_now + SD_ROUND) % MELEE_PLAYERS) < seat_now)
            pn = 0
            if first[r][j] < 0:
                for t in range(made):
                    drafted[(j - t + SD_ROUND) % MELEE_PLAYERS][SDRAFT_PACK * r + t] = unseen[cursor]
                    pack[pn] = unseen[cursor]
                    pn += 1
                    cursor += 1
                for k in range(SDRAFT_PACK - made):
                    pack[pn] = unseen[cursor]
                    pn += 1
                    cursor += 1
            else:
                for t in range(first[r][j]):
                    drafted[(j - t + SD_ROUND) % MELEE_PLAYERS][SDRAFT_PACK * r + t] = unseen[cursor]
                    pack[pn] = unseen[cursor]
                    pn += 1
                    cursor += 1
                last = made if r < r_now else t_now + 1
                a = first[r][j]
                while a < last:
                    sd_pack_at(m, r, j, a, left)
                    if a < made:
                        mine = m.drafted[me][SDRAFT_PACK * r + a]
                        drafted[me][SDRAFT_PACK * r + a] = <uint8_t>mine
                        pack[pn] = <uint8_t>mine
                        pn += 1
                        left[mine] -= 1
                    after = a + MELEE_PLAYERS
                    if after < last:
                        sd_pack_at(m, r, j, after, counts)
                        for u in range(tb.T):
                            left[u] -= counts[u]
                    gn = 0
                    for u in range(tb.T):
                        for k in range(left[u]):
                            gone[gn] = <uint8_t>u
                            gn += 1
                    shuffle_raw(gone, gn, rng)
                    gi = 0
                    for t in range(a + 1, after if after < made else made):
                        drafted[(j - t + SD_ROUND) % MELEE_PLAYERS][SDRAFT_PACK * r + t] = gone[gi]
                        pack[pn] = gone[gi]
                        pn += 1
                        gi += 1
                    if after >= last:
                        while gi < gn:
                            pack[pn] = gone[gi]
                            pn += 1
                            gi += 1
                    a = after
            sort_small(pack, SDRAFT_PACK)
            memcpy(&dealt[dealt_n], pack, SDRAFT_PACK)
            dealt_n += SDRAFT_PACK
    memcpy(m.dealt, dealt, dealt_n)
    for j in range(MELEE_PLAYERS):
        memcpy(m.drafted[j], drafted[j], m.drafted_n[j])
    m.pool_n = <uint8_t>(n - cursor)
    memcpy(m.pool, &unseen[cursor], n - cursor)

cdef int melee_legal(const Tables* tb, Melee* m, int32_t* out) noexcept nogil:
    cdef int n, i, other
    cdef int32_t tag
    if m.phase == MPH_DRAFT:
        if m.cfg.draft == MD_SIMPLIFIED:
            return sd_legal(tb, m, out)
        return melee_draftable(tb, m, melee_to_move(m), out)
    if m.phase != MPH_TABLE:
        return 0
    n = gen_moves(tb, &m.table, &m.table.pending, out)
    other = m.table_seats[1 - m.table.pending.player]
    tag = MELEE_TABLE_BIT | (other << MELEE_SEAT_SHIFT)
    for i in range(n):
        out[i] |= tag
    return n

cdef int table_first_player(const State* s) noexcept nogil:
    """The table seat that took the first turn (reference: GameState.first_player)."""
    return s.active if s.turn % 2 == 1 else 1 - s.active

cdef void melee_start_table(const Tables* tb, Melee* m, Trail* tr) noexcept nogil:
    """The next table game (R-melee-5, R-melee-6), dealt from a seed the melee's generator draws."""
    cdef Setup cfg
    cdef int a, b, p, i, t, k = 0
    cdef int pair[2]
    cdef int index = m.results_n
    if index < 2:
        for p in range(MELEE_PLAYERS):
            if m.match[p] == MELEE_MATCH_CARDS[2 * index]:
                pair[k] = p
                k += 1
    elif index == 2:
        pair[0] = m.results[0].winner
        pair[1] = m.results[1].winner
    else:
        for i in range(2):
            pair[i] = m.results[i].seats[0] if m.results[i].winner == m.results[i].seats[1] else m.results[i].seats[1]
    a = pair[0] if pair[0] < pair[1] else pair[1]
    b = pair[1] if pair[0] < pair[1] else pair[0]
    memset(&cfg, 0, sizeof(Setup))
    cfg.first_player = 0
    cfg.emissary = m.cfg.emissary
    cfg.beginner = 0
    cfg.deck = DECK_GIVEN
    cfg.catch_up = m.cfg.catch_up
    cfg.max_turns = m.cfg.max_turns
    cfg.coin_supply = 20
    for k in range(2):
        p = a if k == 0 else b
        for i in range(m.drafted_n[p]):
            t = m.drafted[p][i]
            cfg.lists[k][t] = tb.copies[t] if m.cfg.draft == MD_CARD else cfg.lists[k][t] + 1
    trail_log(tr, m, &m.table, sizeof(State))
    trail_log(tr, m, &m.table_seats, sizeof(m.table_seats))
    trail_log(tr, m, &m.phase, 1)
    m.table_seats[0] = <int8_t>a
    m.table_seats[1] = <int8_t>b
    m.phase = MPH_TABLE
    setup(tb, &m.table, rng_next(m.rng), &cfg)

cdef void melee_finish_table(const Tables* tb, Melee* m, Trail* tr) noexcept nogil:
    """Record a finished table game (a draw goes to the second player: R-melee-7); then the next one."""
    cdef MeleeResult* r = &m.results[m.results_n]
    cdef int w = winner(tb, &m.table)
    trail_log(tr, m, r, sizeof(MeleeResult))
    trail_log(tr, m, &m.results_n, 1)
    r.seats[0] = m.table_seats[0]
    r.seats[1] = m.table_seats[1]
    r.drawn = w < 0
    if w < 0:
        w = 1 - table_first_player(&m.table)
    r.winner = m.table_seats[w]
    r.scores[0] = <int16_t>score(tb, &m.table, 0)
    r.scores[1] = <int16_t>score(tb, &m.table, 1)
    m.results_n += 1
    if m.results_n == MELEE_TABLES:
        trail_log(tr, m, &m.table_seats, sizeof(m.table_seats))
        trail_log(tr, m, &m.phase, 1)
        m.table_seats[0] = m.table_seats[1] = -1
        m.phase = MPH_OVER
    else:
        melee_start_table(tb, m, tr)

cdef void melee_apply(const Tables* tb, Melee* m, int32_t move, Trail* tr) noexcept nogil:
    """Play a legal move (reference: MeleeState.apply_trusted)."""
    cdef Ctx c
    cdef int p, t, i
    trail_log(tr, m, m.rng, sizeof(m.rng))
    trail_log(tr, m, &m.ply, sizeof(m.ply))
    m.ply += 1
    if m.phase == MPH_DRAFT:
        p = melee_to_move(m)
        t = (move >> 5) & 63
        trail_log(tr, m, &m.pool_n, 1)
        trail_log(tr, m, &m.picks, 1)
        trail_log(tr, m, &m.drafted_n[p], 1)
        trail_log(tr, m, &m.drafted[p][m.drafted_n[p]], 1)
        if m.cfg.draft == MD_CARD:
            trail_log(tr, m, m.pool, m.pool_n)
            i = 0
            while m.pool[i] != t:
                i += 1
            memmove(&m.pool[i], &m.pool[i + 1], m.pool_n - i - 1)
            m.pool_n -= 1
        m.drafted[p][m.drafted_n[p]] = <uint8_t>t
        m.drafted_n[p] += 1
        m.picks += 1
        if m.picks == (MELEE_DRAFT_PICKS if m.cfg.draft == MD_CARD else SD_PICKS):  # R-draft-4, R-melee-5
            m.pool_n = 0  # undrafted (undealt) cards leave
            melee_start_table(tb, m, tr)
        elif m.cfg.draft == MD_SIMPLIFIED and m.picks % SD_ROUND == 0:
            sd_deal_packs(m, tr)  # the packs, empty, are not passed on: the next round is dealt
        return
    c.tb = tb
    c.s = &m.table
    c.tr = tr
    do_move(&c, move & MELEE_REIGN_MASK)
    if m.table.phase == PH_GAME_OVER:
        melee_finish_table(tb, m, tr)

cdef int melee_victories(const Melee* m, int p) noexcept nogil:
    cdef int i, v = 0
    for i in range(m.results_n):
        v += m.results[i].winner == p
    return v

cdef bint melee_result_seen(const Melee* m, int index, int player) noexcept nogil:
    """D-melee-2 (reference: melee.rules.result_seen)."""
    return (m.results[index].seats[0] == player or m.results[index].seats[1] == player
            or m.results_n >= 2 * (index // 2 + 1))

cdef void melee_determinize(const Tables* tb, Melee* m, int player, uint64_t* rng) noexcept nogil:
    """Reference: MeleeState.determinized, the same draws in the same order."""
    cdef int8_t cards[3]
    cdef int others[3]
    cdef int q, k = 0, i, seat
    cdef uint64_t table_rng[4]
    if m.phase == MPH_DRAFT:
        for q in range(MELEE_PLAYERS):
            if q != player:
                others[k] = q
                cards[k] = m.match[q]
                k += 1
        shuffle_raw(<uint8_t*>cards, 3, rng)
        for k in range(3):
            m.match[others[k]] = cards[k]
        if m.cfg.draft == MD_SIMPLIFIED:
            sd_deal_unseen(tb, m, player, rng)
    for i in range(m.results_n):
        if not melee_result_seen(m, i, player):
            m.results[i].winner = m.results[i].seats[rng_below(rng, 2)]
            m.results[i].drawn = 0
            m.results[i].scores[0] = m.results[i].scores[1] = 0
    if m.phase == MPH_TABLE:
        rng_seed(table_rng, rng_next(rng))
        seat = 0 if m.table_seats[0] == player else 1 if m.table_seats[1] == player else m.table.pending.player
        determinize(tb, &m.table, seat, table_rng)
    for i in range(4):
        m.rng[i] = rng_next(rng)

cdef int melee_rollout(const Tables* tb, Melee* m, uint64_t* policy) noexcept nogil:
    """Uniformly random moves to the end (the choices of ``RandomBot``); returns the plies."""
    cdef int32_t buf[MAX_MOVES]
    cdef int n, plies = 0
    while m.phase != MPH_OVER:
        if m.phase == MPH_DRAFT:
            n = melee_legal(tb, m, buf)
            melee_apply(tb, m, buf[rng_below(policy, n)], NULL)
            plies += 1
        else:
            n = random_playout(tb, &m.table, policy)
            plies += n
            m.ply += n
            if m.table.phase != PH_GAME_OVER:  # a decision without a move: stuck, as the reference
                break
            melee_finish_table(tb, m, NULL)
    return plies


# -- the melee's side of the contract with the search

cdef void mapi_new_game(const void* tables, const void* config, uint64_t seed, void* s) noexcept nogil:
    melee_new(<const Tables*>tables, <Melee*>s, seed, <const MeleeSetup*>config)

cdef void melee_new(const Tables* tb, Melee* m, uint64_t seed, const MeleeSetup* cfg) noexcept nogil:
    """Reference: MeleeState.new: the match cards shuffled, then every stack in the pool; or every
    unit card shuffled (a design left out as D-ablate-1) and the first packs dealt."""
    cdef int t, k, n = 0
    memset(m, 0, sizeof(Melee))
    m.cfg = cfg[0]
    rng_seed(m.rng, seed)
    memcpy(m.match, MELEE_MATCH_CARDS, sizeof(m.match))
    shuffle_raw(<uint8_t*>m.match, MELEE_PLAYERS, m.rng)
    if m.cfg.draft == MD_CARD:
        for t in range(tb.T):
            if tb.copies[t]:
                m.pool[m.pool_n] = <uint8_t>t
                m.pool_n += 1
    else:
        for t in range(tb.T):
            for k in range(tb.dealt[t]):
                m.pool[n] = <uint8_t>t
                n += 1
        shuffle_raw(m.pool, n, m.rng)
        m.pool_n = <uint8_t>without_ablated(tb, m.pool, n)
        sd_deal_packs(m, NULL)
    m.table_seats[0] = m.table_seats[1] = -1
    m.phase = MPH_DRAFT

cdef int mapi_to_move(const void* tables, const void* s) noexcept nogil:
    return melee_to_move(<const Melee*>s)

cdef int mapi_legal_moves(const void* tables, void* s, int32_t* out) noexcept nogil:
    return melee_legal(<const Tables*>tables, <Melee*>s, out)

cdef void mapi_apply(const void* tables, void* s, int32_t move, Trail* trail) noexcept nogil:
    melee_apply(<const Tables*>tables, <Melee*>s, move, trail)

cdef void mapi_returns(const void* tables, const void* s, double* out) noexcept nogil:
    cdef int p
    for p in range(MELEE_PLAYERS):
        out[p] = MELEE_PLACE_RETURN[melee_victories(<const Melee*>s, p)]

cdef void mapi_scores(const void* tables, const void* s, int32_t* out) noexcept nogil:
    cdef int p
    for p in range(MELEE_PLAYERS):
        out[p] = melee_victories(<const Melee*>s, p)

cdef void mapi_determinize(const void* tables, void* s, int player, uint64_t* rng) noexcept nogil:
    melee_determinize(<const Tables*>tables, <Melee*>s, player, rng)

cdef int32_t mapi_seen_move(const void* tables, int32_t move, int mover, int viewer) noexcept nogil:
    """A stack drafted is public (R-draft-1), a card picked face down (R-sdraft-3); a table move is
    seen only at its table (D-melee-2), and there as Reign of War shows it."""
    cdef int other
    if not (move & MELEE_TABLE_BIT):
        return api_seen_move(tables, move, mover, viewer)
    if viewer == mover:
        return move
    other = (move >> MELEE_SEAT_SHIFT) & 3
    if viewer != other:
        return HIDDEN_MOVE
    return move if api_seen_move(tables, move & MELEE_REIGN_MASK, 0, 1) != HIDDEN_MOVE else HIDDEN_MOVE

cdef int mapi_rollout(const void* tables, void* s, uint64_t* rng, void* track) noexcept nogil:
    return melee_rollout(<const Tables*>tables, <Melee*>s, rng)


cdef GameApi MELEE_API
MELEE_API.name = "reign-of-war-melee"
MELEE_API.num_players = MELEE_PLAYERS
MELEE_API.max_moves = MAX_MOVES
MELEE_API.state_size = sizeof(Melee)
MELEE_API.track_size = 0
MELEE_API.trail_per_move = MELEE_TRAIL
MELEE_API.n_stats = 0
MELEE_API.new_game = mapi_new_game
MELEE_API.to_move = mapi_to_move
MELEE_API.legal_moves = mapi_legal_moves
MELEE_API.apply = mapi_apply
MELEE_API.returns = mapi_returns
MELEE_API.scores = mapi_scores
MELEE_API.determinize = mapi_determinize
MELEE_API.seen_move = mapi_seen_move
MELEE_API.rollout = mapi_rollout
MELEE_API.track_begin = api_track_begin
MELEE_API.track_step = api_track_step
MELEE_API.track_stats = api_track_stats
assert MELEE_API.state_size <= TRAIL_MAX_STATE and sizeof(Melee) // 8 + 64 < MELEE_TRAIL - TRAIL_MARGIN




# ------------------------------------------------------------------------------- Python edge

cdef class MeleeCore(UndoHistory):
    """A Grand Melee on the Cython core, with the State interface of ``MeleeState``.

    ``clone()`` copies the one flat struct (the clone starts with an empty undo history);
    ``apply``/``undo`` keep a trail owned by the state, one for the melee and its table game.
    """

    cdef Melee m
    cdef CoreTables tables
    cdef object _config
    cdef public object seed
    cdef MeleeSetup deal
    cdef GameHandle handle

    @classmethod
    def new(cls, seed: int = 0, cards: CardSet | None = None, config=None) -> MeleeCore:
        """Deal a Grand Melee exactly as ``MeleeState.new`` does for the same seed."""
        cdef MeleeCore core = MeleeCore.__new__(MeleeCore)
        cdef MeleeSetup cfg
        cards = cards or default_cards()
        config = config or _melee_rules.MeleeConfig()
        Rng(seed)  # validates the seed
        _melee_rules.check_cards(cards, config)
        core.tables = tables_for(cards)
        core._config = config
        core.seed = seed
        cfg.emissary = config.emissary
        cfg.catch_up = config.catch_up
        cfg.max_turns = config.max_turns
        cfg.draft = _melee_rules.DRAFTS.index(config.draft)
        melee_new(&core.tables.tb, &core.m, seed, &cfg)
        return core

    @classmethod
    def from_state(cls, state) -> MeleeCore:
        """The same Grand Melee on the core, from a reference ``MeleeState``; :class:`UsageError` for
        a part the struct cannot hold, naming it."""
        cdef MeleeCore core = MeleeCore.__new__(MeleeCore)
        cdef Melee* m = &core.m
        cdef CoreState table
        cdef int p, i
        _melee_rules.check_cards(state.cards, state.config)
        core.tables = tables_for(state.cards)
        core._config = state.config
        core.seed = state.seed
        memset(m, 0, sizeof(Melee))
        m.cfg.emissary = state.config.emissary
        m.cfg.catch_up = state.config.catch_up
        m.cfg.max_turns = state.config.max_turns
        m.cfg.draft = _melee_rules.DRAFTS.index(state.config.draft)
        for i in range(4):
            m.rng[i] = state.rng.s[i]
        m.ply = state.ply
        m.phase = _melee_rules.PHASES.index(state.phase)
        m.picks = _small(state.picks, state.config.picks, "picks")
        _fill(m.pool, state.pool, MAX_CARDS, "pool", core.tables.tb.T)
        m.pool_n = len(state.pool)
        _fill(m.dealt, state.dealt, SD_PICKS, "dealt", core.tables.tb.T)
        m.dealt_n = len(state.dealt)
        for p in range(MELEE_PLAYERS):
            m.match[p] = _small(state.match[p], 2, f"match[{p}]", 1)
            _fill(m.drafted[p], state.drafted[p], MELEE_DRAFTED, f"drafted[{p}]", core.tables.tb.T)
            m.drafted_n[p] = len(state.drafted[p])
        if len(state.results) > MELEE_TABLES:
            raise UsageError(f"results: at most {MELEE_TABLES} table games, got {len(state.results)}")
        for i, r in enumerate(state.results):
            m.results[i].seats[0] = _small(r.seats[0], MELEE_PLAYERS - 1, f"results[{i}].seats")
            m.results[i].seats[1] = _small(r.seats[1], MELEE_PLAYERS - 1, f"results[{i}].seats")
            m.results[i].winner = _small(r.winner, MELEE_PLAYERS - 1, f"results[{i}].winner")
            m.results[i].drawn = r.drawn
            m.results[i].scores[0] = _small(r.scores[0], 32767, f"results[{i}].scores")
            m.results[i].scores[1] = _small(r.scores[1], 32767, f"results[{i}].scores")
        m.results_n = len(state.results)
        m.table_seats[0] = m.table_seats[1] = -1
        if state.table is not None:
            table = CoreState.from_state(state.table)
            clone_state(&m.table, &table.s)
            m.table_seats[0] = _small(state.table_seats[0], MELEE_PLAYERS - 1, "table_seats")
            m.table_seats[1] = _small(state.table_seats[1], MELEE_PLAYERS - 1, "table_seats")
        return core

    # -- the State interface

    @property
    def cards(self):
        return self.tables.cards

    @property
    def config(self):
        return self._config

    @property
    def units(self):
        return self.tables.cards.units

    @property
    def players(self) -> int:
        return MELEE_PLAYERS

    @property
    def current_player(self) -> int:
        return melee_to_move(&self.m)

    @property
    def ply(self) -> int:
        return self.m.ply

    def is_terminal(self) -> bool:
        return self.m.phase == MPH_OVER

    def legal_move_ids(self) -> list:
        cdef int32_t buf[MAX_MOVES]
        cdef int n = melee_legal(&self.tables.tb, &self.m, buf)
        return [buf[i] for i in range(n)]

    def legal_moves(self) -> list:
        decode = self.tables.codec.decode
        return [decode(m & MELEE_REIGN_MASK) for m in self.legal_move_ids()]

    def move_id(self, move) -> int:
        """The id of a legal move (a :class:`Move` or its notation); :class:`IllegalMoveError` naming
        the move, the player and the ply if it is not legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        for m in self.legal_move_ids():
            if self.tables.codec.decode(m & MELEE_REIGN_MASK) == move:
                return m
        who = f"player {self.current_player}" if self.m.phase != MPH_OVER else "nobody (the Grand Melee is over)"
        raise IllegalMoveError(f"ply {self.m.ply}: {who} cannot play {str(move)!r} here ({self.phase})")

    def apply(self, move) -> None:
        self.apply_id(self.move_id(move))

    def apply_trusted(self, move) -> None:
        self.apply_id(self.move_id(move))

    cpdef apply_id(self, int32_t m):
        """Play a legal move id (from :meth:`legal_move_ids`), kept on the undo trail."""
        self._begin_move(self.tables.codec.decode(m & MELEE_REIGN_MASK), MELEE_TRAIL)
        melee_apply(&self.tables.tb, &self.m, m, &self.tr)
        if self.tr.enabled == 2:
            raise MemoryError("undo trail overflow")

    def undo(self):
        return self._take_back(&self.m)

    def clone(self) -> MeleeCore:
        cdef MeleeCore other = MeleeCore.__new__(MeleeCore)
        memcpy(&other.m, &self.m, sizeof(Melee))
        other.tables = self.tables
        other._config = self._config
        other.seed = self.seed
        return other

    def determinized(self, player: int, seed: int = 0) -> MeleeCore:
        """As ``MeleeState.determinized(player, seed)``: the same draws in the same order."""
        cdef uint64_t rng[4]
        cdef MeleeCore other
        if player not in range(MELEE_PLAYERS) or isinstance(player, bool):
            raise UsageError(f"player: must be 0 to {MELEE_PLAYERS - 1}, got {player!r}")
        Rng(seed)
        rng_seed(rng, seed)
        other = self.clone()
        melee_determinize(&self.tables.tb, &other.m, player, rng)
        return other

    def scores(self) -> tuple:
        return tuple(melee_victories(&self.m, p) for p in range(MELEE_PLAYERS))

    def returns(self) -> tuple:
        if self.m.phase != MPH_OVER:
            return (0.0,) * MELEE_PLAYERS
        return tuple(MELEE_PLACE_RETURN[melee_victories(&self.m, p)] for p in range(MELEE_PLAYERS))

    def observation(self, int player) -> dict:
        return _melee_observe(self, player)

    def playout(self, seed: int = 0) -> tuple:
        """Play to the end with uniformly random moves (``RandomBot(seed)``'s); returns the scores."""
        cdef uint64_t policy[4]
        Rng(seed)
        rng_seed(policy, seed)
        self._forget()
        with nogil:
            melee_rollout(&self.tables.tb, &self.m, policy)
        return self.scores()

    def game_handle(self):
        self.deal = self.m.cfg
        self.handle.api = &MELEE_API
        self.handle.tables = &self.tables.tb
        self.handle.config = &self.deal
        self.handle.state = &self.m
        return PyCapsule_New(&self.handle, GAME_HANDLE_NAME, NULL)

    def state_bytes(self) -> bytes:
        return (<char*>&self.m)[:sizeof(Melee)]

    # -- views with the reference engine's attribute names (melee.observe reads these)

    @property
    def phase(self) -> str:
        return _melee_rules.PHASES[self.m.phase]

    @property
    def match(self) -> list:
        return [self.m.match[p] for p in range(MELEE_PLAYERS)]

    @property
    def picks(self) -> int:
        return self.m.picks

    @property
    def dealt(self) -> list:
        return [self.m.dealt[i] for i in range(self.m.dealt_n)]

    @property
    def pool(self) -> list:
        return [self.m.pool[i] for i in range(self.m.pool_n)]

    @property
    def drafted(self) -> list:
        return [[self.m.drafted[p][i] for i in range(self.m.drafted_n[p])] for p in range(MELEE_PLAYERS)]

    @property
    def results(self) -> list:
        cdef int i
        cdef MeleeResult* r
        out = []
        for i in range(self.m.results_n):
            r = &self.m.results[i]
            out.append(_melee_rules.TableResult((r.seats[0], r.seats[1]), r.winner, bool(r.drawn),
                                                (r.scores[0], r.scores[1])))
        return out

    @property
    def table_seats(self) -> tuple:
        return (self.m.table_seats[0], self.m.table_seats[1])

    @property
    def table(self):
        """The table game in play as a Reign of War core state (a copy), or ``None``."""
        cdef CoreState t
        if self.m.phase != MPH_TABLE:
            return None
        t = CoreState.__new__(CoreState)
        clone_state(&t.s, &self.m.table)
        t.tables = self.tables
        t._config = _melee_rules.table_config(self.tables.cards, self._config, self.drafted, self.table_seats)
        return t

    def result_seen(self, int index, int player) -> bool:
        return _melee_rules.result_seen(self.results, index, player)
