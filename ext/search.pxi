# Information-Set Monte Carlo Tree Search on the core (included into _core.pyx).
#
# Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012:
# SO-ISMCTS grows one tree over the root player's information set; every iteration samples a fresh
# determinisation (everything the root player cannot see dealt again), descends the tree choosing
# among the moves legal in that determinisation by UCB1 with availability counts (the subset-armed
# bandit of section V), expands one untried move, plays a random rollout to the end and
# backpropagates. MO-ISMCTS keeps one tree per player; a move the other player cannot see (a
# face-down emissary) enters the other player's tree as one merged "hidden" move.
#
# The per-iteration loop runs without the GIL on fixed arrays: nodes live in a pool allocated once
# per search with a cap; a full pool stops the tree growing (reported) and never exhausts memory.

from libc.math cimport log, sqrt
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef enum:
    HIDDEN_MOVE = -2          # the merged move of MO-ISMCTS for a move its tree's owner cannot see
    NO_NODE = -1

cdef struct Node:
    int32_t move              # packed move that leads here (HIDDEN_MOVE: merged hidden move)
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int8_t player             # the player who made the move (rewards are from their side)
    uint32_t visits
    uint32_t avail            # times this move was legal when its parent was visited
    double reward             # sum of rewards for `player` (win 1, tie 1/2, loss 0)
    double margin             # sum of the root player's VP margin over the visits
    double margin_sq

cdef struct Outlook:
    # the war outlook behind one root move, summed over the iterations that began with it
    int32_t node              # the root child in the root player's tree
    double first_win[NCITIES] # iterations in which the root player won the next war in the city
    double taken[NCITIES]     # reward tiles the root player took from the city by the end

cdef struct Tree:
    Node* nodes
    int32_t n
    int32_t cap
    int full                  # 1 once the cap stopped the tree from growing


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

cdef inline int32_t tree_add(Tree* t, int32_t parent, int32_t move, int player) noexcept nogil:
    cdef int32_t k
    cdef Node* node
    if t.n >= t.cap:
        t.full = 1
        return NO_NODE
    k = t.n
    t.n += 1
    node = &t.nodes[k]
    node.move = move
    node.parent = parent
    node.first_child = NO_NODE
    node.player = <int8_t>player
    node.visits = 0
    node.avail = 0
    node.reward = 0
    node.margin = 0
    node.margin_sq = 0
    if parent >= 0:
        node.next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = k
    else:
        node.next_sibling = NO_NODE
    return k

cdef inline int32_t find_child(Tree* t, int32_t parent, int32_t move) noexcept nogil:
    cdef int32_t k = t.nodes[parent].first_child
    while k != NO_NODE:
        if t.nodes[k].move == move:
            return k
        k = t.nodes[k].next_sibling
    return NO_NODE

cdef inline int32_t seen_move(int32_t m, int mover, int owner, int mo) noexcept nogil:
    """The move as ``owner``'s tree records it: in MO-ISMCTS an opponent's face-down emissary
    is one merged move; every other move of this game is public."""
    if mo and mover != owner and m_verb(m) == V_EMISSARY:
        return HIDDEN_MOVE
    return m

cdef int32_t select_child(Tree* t, int32_t node, int32_t* legal, int n, double c, int owner, int mover,
                          int mo, uint64_t* rng, int32_t* chosen_move) noexcept nogil:
    """UCB1 with availability over the children legal now; expands one untried move if any.
    Returns the child (NO_NODE if the pool is full) and the real move to play in ``chosen_move``."""
    cdef int i, untried = 0, pick
    cdef int32_t k, best = NO_NODE
    cdef double score, best_score = -1.0
    cdef int32_t untried_moves[MAX_MOVES]
    cdef int32_t children[MAX_MOVES]  # the child of each legal move (NO_NODE: untried), found once
    for i in range(n):
        k = find_child(t, node, seen_move(legal[i], mover, owner, mo))
        children[i] = k
        if k == NO_NODE:
            untried_moves[untried] = legal[i]
            untried += 1
        else:
            t.nodes[k].avail += 1
    if untried and not t.full:
        pick = rng_below(rng, untried)
        chosen_move[0] = untried_moves[pick]
        return tree_add(t, node, seen_move(untried_moves[pick], mover, owner, mo), mover)
    for i in range(n):
        k = children[i]
        if k == NO_NODE:
            continue
        if t.nodes[k].visits == 0:
            score = 1e300
        else:
            score = (t.nodes[k].reward / t.nodes[k].visits
                     + c * sqrt(log(<double>t.nodes[k].avail) / t.nodes[k].visits))
        if score > best_score:
            best_score = score
            best = k
            chosen_move[0] = legal[i]
    if best == NO_NODE:  # pool full and nothing expanded here yet: play on at random
        chosen_move[0] = legal[rng_below(rng, n)]
    return best


cdef struct SearchResult:
    long iterations
    long determinizations
    double seconds


cdef inline void note_tiles(const State* d, uint8_t* tiles_n, int8_t* first, int8_t* taken,
                            int owner) noexcept nogil:
    """After a move: the reward tiles that left each city, and who took them (a won tile is in
    its winner's ``unused`` set)."""
    cdef int city, k, p, tile
    for city in range(NCITIES):
        for k in range(d.city_tiles_n[city], tiles_n[city]):
            tile = d.city_tiles[city][k]
            p = 0 if d.unused[0] >> tile & 1 else (1 if d.unused[1] >> tile & 1 else -1)
            if first[city] == -1:
                first[city] = p
            taken[city] += p == owner
        tiles_n[city] = d.city_tiles_n[city]

cdef void add_outlook(Outlook* outlook, int* n_outlook, int32_t node, int8_t* first, int8_t* taken,
                      int owner) noexcept nogil:
    cdef int i, city
    for i in range(n_outlook[0]):
        if outlook[i].node == node:
            break
    else:
        if n_outlook[0] >= MAX_MOVES:
            return
        i = n_outlook[0]
        n_outlook[0] += 1
        outlook[i].node = node
        for city in range(NCITIES):
            outlook[i].first_win[city] = 0
            outlook[i].taken[city] = 0
    for city in range(NCITIES):
        outlook[i].first_win[city] += first[city] == owner
        outlook[i].taken[city] += taken[city]


cdef SearchResult ismcts(const Tables* tb, const State* root, Tree* trees, int mo, long iterations,
                         double seconds, double c, uint64_t* rng, Outlook* outlook,
                         int* n_outlook, int* stop, int32_t root_move) noexcept nogil:
    """Run SO-ISMCTS (``mo`` = 0, one tree) or MO-ISMCTS (``mo`` = 1, one tree per player).

    Stops after ``iterations`` (if > 0) or ``seconds`` (if > 0), whichever comes first, or when
    another thread sets ``stop``. With ``root_move`` >= 0 only that root move is searched (to value
    a move that is not the best). Each
    iteration's war results (who took each city's next reward tile, and how many the root player
    took) are added to the ``outlook`` of the root move it began with."""
    cdef State d
    cdef Ctx ctx
    cdef int32_t legal[MAX_MOVES]
    cdef int32_t path[2][4096]
    cdef int depth[2]
    cdef int32_t cur[2]
    cdef int n, mover, q, owner = root.pending.player, expanded[2], i, city, at_root
    cdef uint8_t tiles_n[NCITIES]
    cdef int8_t first[NCITIES]
    cdef int8_t taken[NCITIES]
    cdef int32_t move, child
    cdef long it = 0
    cdef double start = now_seconds(), margin, r
    cdef int w
    cdef SearchResult res
    ctx.tb = tb
    ctx.s = &d
    ctx.tr = NULL
    while True:
        if iterations > 0 and it >= iterations:
            break
        if (it & 15) == 0 and (omen_load_flag(stop) or seconds > 0 and now_seconds() - start >= seconds):
            break
        it += 1
        memcpy(&d, root, sizeof(State))
        determinize(tb, &d, owner, rng)
        for city in range(NCITIES):
            tiles_n[city] = d.city_tiles_n[city]
            first[city] = -1
            taken[city] = 0
        for q in range(1 + mo):
            cur[q] = 0
            depth[q] = 0
            path[q][0] = 0
            expanded[q] = 0
        # selection and expansion, while every tree is still inside itself
        at_root = 1
        while d.phase != PH_GAME_OVER:
            n = gen_moves(&ctx, &d.pending, legal)
            if at_root and root_move >= 0:
                legal[0] = root_move
                n = 1
            at_root = 0
            mover = d.pending.player
            q = (mover if mo else 0)
            if expanded[q] or cur[q] == NO_NODE:
                break
            child = select_child(&trees[q], cur[q], legal, n, c, owner if not mo else q, mover, mo, rng, &move)
            if mo:
                # the other tree follows the same move as its owner sees it
                i = 1 - q
                if not expanded[i] and cur[i] != NO_NODE:
                    cur[i] = descend_other(&trees[i], cur[i], seen_move(move, mover, i, 1), mover)
                    if cur[i] != NO_NODE and depth[i] < 4095:
                        depth[i] += 1
                        path[i][depth[i]] = cur[i]
                        if trees[i].nodes[cur[i]].visits == 0:
                            expanded[i] = 1
            cur[q] = child
            if child != NO_NODE and depth[q] < 4095:
                depth[q] += 1
                path[q][depth[q]] = child
                if trees[q].nodes[child].visits == 0:
                    expanded[q] = 1
            do_move(&ctx, move)
            note_tiles(&d, tiles_n, first, taken, owner)
        # rollout
        while d.phase != PH_GAME_OVER:
            n = gen_moves(&ctx, &d.pending, legal)
            do_move(&ctx, legal[rng_below(rng, n)])
            note_tiles(&d, tiles_n, first, taken, owner)
        q = owner if mo else 0
        if depth[q] >= 1:
            add_outlook(outlook, n_outlook, path[q][1], first, taken, owner)
        w = winner(tb, &d)
        margin = score(tb, &d, owner) - score(tb, &d, 1 - owner)
        # backpropagation
        for q in range(1 + mo):
            for i in range(depth[q] + 1):
                child = path[q][i]
                trees[q].nodes[child].visits += 1
                r = 1.0 if w == trees[q].nodes[child].player else 0.0
                trees[q].nodes[child].reward += r
                trees[q].nodes[child].margin += margin
                trees[q].nodes[child].margin_sq += margin * margin
    res.iterations = it
    res.determinizations = it
    res.seconds = now_seconds() - start
    return res

cdef int32_t descend_other(Tree* t, int32_t node, int32_t seen, int mover) noexcept nogil:
    """MO-ISMCTS: the child of ``node`` for a move made in another tree, created if new."""
    cdef int32_t k = find_child(t, node, seen)
    if k == NO_NODE:
        k = tree_add(t, node, seen, mover)
    if k != NO_NODE:
        t.nodes[k].avail += 1
    return k


cdef void best_per_world(const Tables* tb, const State* root, const int32_t* moves, int n_moves, int worlds,
                         int rollouts, uint64_t* rng, double* share) noexcept nogil:
    """For each of ``worlds`` determinisations: play ``rollouts`` random games after each candidate
    move and credit the move that won most (ties share the credit) -- how often each move is best
    whatever the hidden cards turn out to be."""
    cdef State world, d
    cdef int k, i, r, owner = root.pending.player, n_best
    cdef double wins[MAX_MOVES]
    cdef double best
    cdef uint64_t policy[4]
    cdef Ctx ctx
    ctx.tr = NULL
    ctx.tb = tb
    for i in range(n_moves):
        share[i] = 0
    for k in range(worlds):
        memcpy(&world, root, sizeof(State))
        determinize(tb, &world, owner, rng)
        best = -1
        for i in range(n_moves):
            wins[i] = 0
            memcpy(policy, rng, sizeof(policy))  # common random numbers: every move meets the same dice
            for r in range(rollouts):
                memcpy(&d, &world, sizeof(State))
                ctx.s = &d
                do_move(&ctx, moves[i])
                random_playout(tb, &d, policy)
                # a win counts 1; the VP margin breaks ties between equally winning moves
                wins[i] += (winner(tb, &d) == owner) + 1e-3 * (score(tb, &d, owner) - score(tb, &d, 1 - owner))
            if wins[i] > best:
                best = wins[i]
        rng_next(rng)
        n_best = 0
        for i in range(n_moves):
            n_best += wins[i] == best
        for i in range(n_moves):
            if wins[i] == best:
                share[i] += 1.0 / n_best
    for i in range(n_moves):
        share[i] /= worlds if worlds > 0 else 1
