# cython: language_level=3
"""The search, written once for every game: ISMCTS (SO and MO, N players), the best-move shares
of determinised worlds, perft and random playouts.

It sees a game only through the C contract of ``ext/common/game_api.pxd``: a state object of any
game's core lends a :c:type:`GameHandle` (``state.game_handle()``, a capsule), and everything here
runs on copies of the flat state (``memcpy`` of ``api.state_size`` bytes) with calls into the
game's functions, without the GIL and without Python objects.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012:
SO-ISMCTS grows one tree over the root player's information set; every iteration samples a fresh
determinisation (everything the root player cannot see dealt again), descends the tree choosing
among the moves legal in that determinisation by UCB1 with availability counts (the subset-armed
bandit of section V), expands one untried move, plays a random rollout to the end and
backpropagates. MO-ISMCTS keeps one tree per player; a move another player cannot see
(``seen_move`` answers ``HIDDEN_MOVE``) enters that player's tree as one merged move.

Two options, both off by default (then the search is the plain one above, draw for draw):

- ``rollout="mast"``: the Move-Average Sampling Technique (Finnsson & Björnsson, "Simulation-Based
  Approach to General Game Playing", AAAI 2008; ε-greedy form as in Powley, Whitehouse & Cowling,
  "Bandits All the Way Down", IEEE CIG 2013): every (move id, mover) keeps the mean reward of the
  iterations that played it, and the rollout, driven ply by ply through ``legal_moves``/``apply``
  instead of the game's one-call ``rollout``, plays the best-rated legal move, or a uniform one with
  probability ``MAST_EPSILON``. It needs no knowledge of the game.
- :meth:`Search.reroot`: tree reuse between two decisions of the same player, the subtree that the
  moves played since (as the player saw them) lead to becomes the new root.
- ``value=`` weights (with ``cutoff``): a learned evaluation. After the tree, the playout stops
  after ``cutoff`` plies (random, or MAST's) and the position is valued by the game's ``features``
  (the contract's optional entry) weighed by ``value``: each player's weighted sum, and the rewards
  are their softmax, a conditional logit (McFadden 1974) of who wins. A game that supplies no
  features has none.
- :meth:`Search.believe`: belief weighting of the determinisations. Deals of an earlier state
  (where the other players' moves since the searcher's last decision begin) are played forward
  along the moves made since, each weighed by how likely the other players' moves were in it under
  a model of their play (a conditional logit over their legal moves of weighted features, the
  mover's after the move less the mean of the others', learned from self-play); an iteration then
  deals the root with the hands of a world drawn by weight (the contract's optional ``deal_like``). Importance resampling, as in
  the particle filter of Silver & Veness, "Monte-Carlo Planning in Large POMDPs", NIPS 2010, and
  the inference of Buro et al., "Improving State Evaluation, Inference, and Search in Trick-Based
  Card Games", IJCAI 2009.

Nodes live in a pool allocated once per search with a cap; a full pool stops the tree growing
(reported) and never exhausts memory.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.math cimport INFINITY, exp, log, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcmp, memcpy
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from game_api cimport (GAME_HANDLE_NAME, HIDDEN_MOVE, MAX_FEATURES, MAX_PLAYERS, MAX_STATS, SEARCH_MAX_MOVES,
                      GameApi, GameHandle)
from omen_rng cimport rng_below, rng_next, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, Trail, trail_undo

import numpy as np

from omen_search.errors import UsageError
from omen_search.rng import Rng

cdef extern from *:
    """
    static inline int omen_load_flag(int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void omen_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    """
    int omen_load_flag(int* p) nogil  # a flag another thread may set (a search's stop request)
    void omen_store_flag(int* p, int v) nogil

cdef enum:
    NO_NODE = -1
    MAX_DEPTH = 4096          # tree plies recorded per iteration (deeper: the path stops growing)
    MAST_SLOTS = 1 << 16      # (move id, mover) pairs one MAST table rates (more: the new ones go unrated)
    MAST_RECORD = 4096        # moves of one iteration credited in MAST (a longer game: the rest are not)
    ROLLOUT_RANDOM = 0        # the game's own one-call rollout (uniform moves)
    ROLLOUT_MAST = 1          # MAST, ply by ply

cdef double MAST_EPSILON = 0.1    # the share of a MAST rollout's moves drawn uniformly
cdef double MAST_UNRATED = 1.0    # the rating of a move never credited yet (optimistic: tried first)

cdef struct Node:
    int32_t move              # move that leads here (HIDDEN_MOVE: merged hidden move)
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int8_t player             # the player who made the move (rewards are from their side)
    uint32_t visits
    uint32_t avail            # times this move was legal when its parent was visited
    double reward             # sum of rewards for `player` (0 loss .. 1 win)
    double margin             # sum of the root player's score margin over the visits
    double margin_sq

cdef struct RootStats:
    # the game's statistics behind one root move, summed over the iterations that began with it
    int32_t node              # the root child in the root player's tree
    double sums[MAX_STATS]

cdef struct Tree:
    Node* nodes
    int32_t n
    int32_t cap
    int full                  # 1 once the cap stopped the tree from growing

cdef struct Evaluation:
    # value=: the learned evaluation that ends a playout after `cutoff` plies
    int cutoff
    int n                     # the game's n_features (the length of w)
    double w[MAX_FEATURES]

cdef struct Belief:
    # believe(): worlds of the root with their weights; n = 0: every iteration determinises as usual
    int n
    char* worlds              # n states, each a deal of an earlier state played forward to the root
    double* cdf               # their normalised weights, cumulated

cdef struct Mast:
    # the MAST table: open addressing over MAST_SLOTS slots, keyed by (move id << 3 | mover) + 1
    int64_t* key              # 0: an empty slot
    double* reward            # the mover's summed reward over the iterations that played the move
    double* count
    int used


cdef inline int features_of(const GameApi* api) noexcept nogil:
    """The number of evaluation features the game supplies (0 without its ``features`` entry)."""
    return api.n_features if api.features != NULL else 0


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

cdef inline int32_t seen_move(const GameHandle* g, int32_t m, int mover, int owner, int mo) noexcept nogil:
    """The move as ``owner``'s tree records it: in MO-ISMCTS, as the game says ``owner`` sees it."""
    if mo and mover != owner:
        return g.api.seen_move(g.tables, m, mover, owner)
    return m

cdef int32_t select_child(const GameHandle* g, Tree* t, int32_t node, int32_t* legal, int n, double c, int owner,
                          int mover, int mo, uint64_t* rng, int32_t* chosen_move) noexcept nogil:
    """UCB1 with availability over the children legal now; expands one untried move if any.
    Returns the child (NO_NODE if the pool is full) and the real move to play in ``chosen_move``."""
    cdef int i, untried = 0, pick
    cdef int32_t k, best = NO_NODE
    cdef double score, best_score = -1.0
    cdef int32_t untried_moves[SEARCH_MAX_MOVES]
    cdef int32_t children[SEARCH_MAX_MOVES]  # the child of each legal move (NO_NODE: untried), found once
    for i in range(n):
        k = find_child(t, node, seen_move(g, legal[i], mover, owner, mo))
        children[i] = k
        if k == NO_NODE:
            untried_moves[untried] = legal[i]
            untried += 1
        else:
            t.nodes[k].avail += 1
    if untried and not t.full:
        pick = rng_below(rng, untried)
        chosen_move[0] = untried_moves[pick]
        return tree_add(t, node, seen_move(g, untried_moves[pick], mover, owner, mo), mover)
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

cdef int32_t descend_other(Tree* t, int32_t node, int32_t seen, int mover) noexcept nogil:
    """MO-ISMCTS: the child of ``node`` for a move made in another tree, created if new."""
    cdef int32_t k = find_child(t, node, seen)
    if k == NO_NODE:
        k = tree_add(t, node, seen, mover)
    if k != NO_NODE:
        t.nodes[k].avail += 1
    return k

cdef double margin_of(const GameHandle* g, const void* s, int player) noexcept nogil:
    """``player``'s score less the best score of the others, in a finished game."""
    cdef int32_t scores[MAX_PLAYERS]
    cdef int q
    cdef int32_t best_other = -2147483647
    g.api.scores(g.tables, s, scores)
    for q in range(g.api.num_players):
        if q != player and scores[q] > best_other:
            best_other = scores[q]
    return scores[player] - best_other

cdef void add_stats(RootStats* stats, int* n_stats, int32_t node, const double* sums, int width) noexcept nogil:
    cdef int i, k
    for i in range(n_stats[0]):
        if stats[i].node == node:
            break
    else:
        if n_stats[0] >= SEARCH_MAX_MOVES:
            return
        i = n_stats[0]
        n_stats[0] += 1
        stats[i].node = node
        for k in range(width):
            stats[i].sums[k] = 0
    for k in range(width):
        stats[i].sums[k] += sums[k]


cdef inline int mast_slot(Mast* t, int32_t move, int mover, int insert) noexcept nogil:
    """The slot of (``move``, ``mover``), made with ``insert`` while the table is under 3/4 full;
    -1 when it has none."""
    cdef int64_t key = ((<int64_t>move << 3) | mover) + 1
    cdef int i = <int>((<uint64_t>key * <uint64_t>0x9E3779B97F4A7C15) >> 48)  # 16 bits: MAST_SLOTS
    while True:
        if t.key[i] == key:
            return i
        if t.key[i] == 0:
            if insert and t.used < MAST_SLOTS // 4 * 3:
                t.key[i] = key
                t.reward[i] = 0
                t.count[i] = 0
                t.used += 1
                return i
            return -1
        i = (i + 1) & (MAST_SLOTS - 1)


cdef inline double mast_rating(Mast* t, int32_t move, int mover) noexcept nogil:
    cdef int i = mast_slot(t, move, mover, 0)
    if i < 0 or t.count[i] == 0:
        return MAST_UNRATED
    return t.reward[i] / t.count[i]


cdef int32_t mast_pick(Mast* t, const int32_t* legal, int n, int mover, uint64_t* rng) noexcept nogil:
    """ε-greedy over the MAST ratings: a uniform move with probability MAST_EPSILON, else the
    best-rated one (ties broken uniformly)."""
    cdef int i, ties = 0, best = 0
    cdef double rating, best_rating = -1.0
    if n == 1:
        return legal[0]
    if (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0) < MAST_EPSILON:
        return legal[rng_below(rng, n)]
    for i in range(n):
        rating = mast_rating(t, legal[i], mover)
        if rating > best_rating:
            best_rating = rating
            best = i
            ties = 1
        elif rating == best_rating:
            ties += 1
            if rng_below(rng, ties) == 0:
                best = i
    return legal[best]


cdef void playout(const GameHandle* g, void* d, Mast* t, uint64_t* rng, void* track, int32_t* played,
                  int8_t* played_by, int* n_played, int plies) noexcept nogil:
    """Play ``plies`` moves (-1: to the end) driven ply by ply, by MAST (``mast_pick``) with ``t``,
    else uniformly, noting each move and its mover in ``played``."""
    cdef int32_t legal[SEARCH_MAX_MOVES]
    cdef int32_t move
    cdef int n, mover
    while plies != 0:
        mover = g.api.to_move(g.tables, d)
        if mover < 0:
            return
        n = g.api.legal_moves(g.tables, d, legal)
        move = mast_pick(t, legal, n, mover, rng) if t != NULL else legal[rng_below(rng, n)]
        g.api.apply(g.tables, d, move, NULL)
        g.api.track_step(g.tables, d, track)
        if n_played[0] < MAST_RECORD:
            played[n_played[0]] = move
            played_by[n_played[0]] = <int8_t>mover
            n_played[0] += 1
        plies -= 1


cdef void mast_credit(Mast* t, const int32_t* played, const int8_t* played_by, int n, const double* ret) noexcept nogil:
    """Add the iteration's rewards to the rating of every move it played, from its mover's side."""
    cdef int i, k
    for i in range(n):
        k = mast_slot(t, played[i], played_by[i], 1)
        if k >= 0:
            t.reward[k] += ret[played_by[i]]
            t.count[k] += 1


cdef void evaluate(const GameHandle* g, void* d, const Evaluation* ev, Mast* t, uint64_t* rng, void* track,
                   int32_t* played, int8_t* played_by, int* n_played, double* ret) noexcept nogil:
    """The playout of a search with a learned evaluation: ``ev.cutoff`` plies (uniform, or MAST's
    with ``t``), then every player's reward from the position's features (:c:func:`feature_rewards`),
    or the game's returns if it ended first."""
    playout(g, d, t, rng, track, played, played_by, n_played, ev.cutoff)
    if g.api.to_move(g.tables, d) < 0:
        g.api.returns(g.tables, d, ret)
    else:
        feature_rewards(g, d, ev, ret)


cdef void feature_rewards(const GameHandle* g, const void* d, const Evaluation* ev, double* ret) noexcept nogil:
    """Each player's chance of winning by the evaluation: the softmax of their weighted features."""
    cdef double f[MAX_FEATURES]
    cdef double top = -INFINITY, total = 0.0
    cdef int p, k
    for p in range(g.api.num_players):
        g.api.features(g.tables, d, p, f)
        ret[p] = 0.0
        for k in range(ev.n):
            ret[p] += ev.w[k] * f[k]
        if ret[p] > top:
            top = ret[p]
    for p in range(g.api.num_players):
        ret[p] = exp(ret[p] - top)
        total += ret[p]
    for p in range(g.api.num_players):
        ret[p] /= total


cdef void deal(const GameHandle* g, void* d, int owner, uint64_t* rng, const Belief* belief) noexcept nogil:
    """Determinise ``d`` for ``owner``: with worlds in ``belief``, with the hands of one drawn by
    weight (``deal_like``; should its hands not fit, as usual)."""
    cdef double u
    cdef int lo = 0, hi, mid
    if belief.n == 0:
        g.api.determinize(g.tables, d, owner, rng)
        return
    hi = belief.n - 1
    u = (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)
    while lo < hi:
        mid = (lo + hi) // 2
        if belief.cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    if not g.api.deal_like(g.tables, d, owner, belief.worlds + <size_t>lo * g.api.state_size, rng):
        g.api.determinize(g.tables, d, owner, rng)


cdef double move_utility(const GameHandle* g, const void* s, int mover, const Evaluation* model) noexcept nogil:
    """The model of play's weighted features of a position reached by ``mover``'s move: the
    mover's features less the mean of the other players' (value_training.move_features)."""
    cdef double f[MAX_FEATURES]
    cdef double u = 0.0, side
    cdef int p, k
    for p in range(g.api.num_players):
        g.api.features(g.tables, s, p, f)
        side = 1.0 if p == mover else -1.0 / (g.api.num_players - 1)
        for k in range(model.n):
            u += side * model.w[k] * f[k]
    return u


cdef double move_log_prob(const GameHandle* g, void* s, void* scratch, int32_t move,
                          const Evaluation* model) noexcept nogil:
    """The log-probability that the player to move in ``s`` plays ``move``, by the model of play
    of :meth:`Search.believe`: a softmax over the legal moves of :c:func:`move_utility` after each;
    without ``model`` (NULL), uniform over the legal moves. -INFINITY for a move not legal there."""
    cdef int32_t legal[SEARCH_MAX_MOVES]
    cdef double u[SEARCH_MAX_MOVES]
    cdef double top = -INFINITY, total = 0.0
    cdef int n, i, found = -1, mover = g.api.to_move(g.tables, s)
    n = g.api.legal_moves(g.tables, s, legal)
    for i in range(n):
        if legal[i] == move:
            found = i
    if found < 0:
        return -INFINITY
    if model == NULL:
        return -log(<double>n)
    for i in range(n):
        memcpy(scratch, s, g.api.state_size)
        g.api.apply(g.tables, scratch, legal[i], NULL)
        u[i] = move_utility(g, scratch, mover, model)
        if u[i] > top:
            top = u[i]
    for i in range(n):
        total += exp(u[i] - top)
    return u[found] - top - log(total)


cdef void weigh_worlds(const GameHandle* g, const void* past, const void* root, const int32_t* path, int n_path,
                       int owner, const Evaluation* model, int worlds, uint64_t* rng, char* out,
                       double* logw, void* scratch) noexcept nogil:
    """Deal ``past`` for ``owner`` ``worlds`` times into ``out``, play each along ``path`` and
    note in ``logw`` the log-likelihood of the other players' moves in it (:c:func:`move_log_prob`;
    ``owner``'s own moves say nothing of what they cannot see, and count only as legal or not);
    -INFINITY for a world in which a move of the path is not legal or whose hands cannot be
    ``root``'s (``deal_like`` tried on a copy of it)."""
    cdef size_t size = g.api.state_size
    cdef char* w
    cdef int k, i, mover
    for k in range(worlds):
        w = out + <size_t>k * size
        memcpy(w, past, size)
        g.api.determinize(g.tables, w, owner, rng)
        logw[k] = 0.0
        for i in range(n_path):
            mover = g.api.to_move(g.tables, w)
            if mover < 0:
                logw[k] = -INFINITY
            elif mover == owner:  # legal or not
                if move_log_prob(g, w, scratch, path[i], NULL) == -INFINITY:
                    logw[k] = -INFINITY
            else:
                logw[k] += move_log_prob(g, w, scratch, path[i], model)
            if logw[k] == -INFINITY:
                break
            g.api.apply(g.tables, w, path[i], NULL)
        if logw[k] != -INFINITY:
            memcpy(scratch, root, size)
            if not g.api.deal_like(g.tables, scratch, owner, w, rng):
                logw[k] = -INFINITY


cdef struct SearchResult:
    long iterations
    double seconds


cdef SearchResult ismcts(const GameHandle* g, const void* root, void* d, void* track, Tree* trees, int mo,
                         long iterations, double seconds, double c, uint64_t* rng, RootStats* stats,
                         int* n_stats, int* stop, int32_t root_move, Mast* mast, const Evaluation* ev,
                         const Belief* belief) noexcept nogil:
    """Run SO-ISMCTS (``mo`` = 0, one tree) or MO-ISMCTS (``mo`` = 1, one tree per player) from
    ``root``, using ``d`` (``state_size`` bytes) and ``track`` (``track_size`` bytes) as scratch.
    With ``mast`` (not NULL) the rollouts are MAST's and every iteration credits its moves there;
    NULL: the game's random rollout. With ``ev`` (not NULL) the playout stops at its cutoff and
    the learned evaluation gives the rewards (:c:func:`evaluate`). Each iteration's determinisation
    is :c:func:`deal`'s, by ``belief``.

    Stops after ``iterations`` (if > 0) or ``seconds`` (if > 0), whichever comes first, or when
    another thread sets ``stop``. With ``root_move`` >= 0 only that root move is searched (to value
    a move that is not the best). Each iteration's game statistics (``track_stats``) are added to
    the ``stats`` of the root move it began with."""
    cdef const GameApi* api = g.api
    cdef int32_t legal[SEARCH_MAX_MOVES]
    cdef int32_t path[MAX_PLAYERS][MAX_DEPTH]
    cdef int depth[MAX_PLAYERS]
    cdef int32_t cur[MAX_PLAYERS]
    cdef int expanded[MAX_PLAYERS]
    cdef double ret[MAX_PLAYERS]
    cdef double sums[MAX_STATS]
    cdef int32_t played[MAST_RECORD]  # MAST: the moves of this iteration and their movers
    cdef int8_t played_by[MAST_RECORD]
    cdef int n_played
    cdef int n, mover, q, i, at_root, trees_n = api.num_players if mo else 1
    cdef int owner = api.to_move(g.tables, root)
    cdef int32_t move, child
    cdef long it = 0
    cdef double start = now_seconds(), margin, r
    cdef SearchResult res
    while True:
        if iterations > 0 and it >= iterations:
            break
        # the clock at every iteration (a few dozen nanoseconds): an iteration may take milliseconds,
        # a playout of a long game, and a time budget must not overrun by many of them
        if omen_load_flag(stop) or seconds > 0 and now_seconds() - start >= seconds:
            break
        it += 1
        memcpy(d, root, api.state_size)
        deal(g, d, owner, rng, belief)
        api.track_begin(g.tables, d, track)
        for q in range(trees_n):
            cur[q] = 0
            depth[q] = 0
            path[q][0] = 0
            expanded[q] = 0
        n_played = 0
        # selection and expansion, while every tree is still inside itself
        at_root = 1
        while True:
            mover = api.to_move(g.tables, d)
            if mover < 0:
                break
            n = api.legal_moves(g.tables, d, legal)
            if at_root and root_move >= 0:
                legal[0] = root_move
                n = 1
            at_root = 0
            q = mover if mo else 0
            if expanded[q] or cur[q] == NO_NODE:
                break
            child = select_child(g, &trees[q], cur[q], legal, n, c, q if mo else owner, mover, mo, rng, &move)
            if mo:
                # the other trees follow the same move as their owners see it
                for i in range(trees_n):
                    if i == q or expanded[i] or cur[i] == NO_NODE:
                        continue
                    cur[i] = descend_other(&trees[i], cur[i], seen_move(g, move, mover, i, 1), mover)
                    if cur[i] != NO_NODE and depth[i] < MAX_DEPTH - 1:
                        depth[i] += 1
                        path[i][depth[i]] = cur[i]
                        if trees[i].nodes[cur[i]].visits == 0:
                            expanded[i] = 1
            cur[q] = child
            if child != NO_NODE and depth[q] < MAX_DEPTH - 1:
                depth[q] += 1
                path[q][depth[q]] = child
                if trees[q].nodes[child].visits == 0:
                    expanded[q] = 1
            api.apply(g.tables, d, move, NULL)
            api.track_step(g.tables, d, track)
            if mast != NULL and n_played < MAST_RECORD:
                played[n_played] = move
                played_by[n_played] = <int8_t>mover
                n_played += 1
        if ev != NULL:
            evaluate(g, d, ev, mast, rng, track, played, played_by, &n_played, ret)
        elif mast == NULL:
            api.rollout(g.tables, d, rng, track)
        else:
            playout(g, d, mast, rng, track, played, played_by, &n_played, -1)
        q = owner if mo else 0
        if depth[q] >= 1:
            api.track_stats(g.tables, d, track, owner, sums)
            add_stats(stats, n_stats, path[q][1], sums, api.n_stats)
        if ev == NULL:
            api.returns(g.tables, d, ret)
        if mast != NULL:
            mast_credit(mast, played, played_by, n_played, ret)
        margin = margin_of(g, d, owner)
        # backpropagation
        for q in range(trees_n):
            for i in range(depth[q] + 1):
                child = path[q][i]
                trees[q].nodes[child].visits += 1
                r = ret[trees[q].nodes[child].player] if trees[q].nodes[child].player >= 0 else 0.0
                trees[q].nodes[child].reward += r
                trees[q].nodes[child].margin += margin
                trees[q].nodes[child].margin_sq += margin * margin
    res.iterations = it
    res.seconds = now_seconds() - start
    return res


cdef void best_per_world(const GameHandle* g, const void* root, void* world, void* d, const int32_t* moves,
                         int n_moves, int worlds, int rollouts, uint64_t* rng, double* share) noexcept nogil:
    """For each of ``worlds`` determinisations: play ``rollouts`` random games after each candidate
    move and credit the move that won most (ties share the credit) -- how often each move is best
    whatever the hidden cards turn out to be."""
    cdef const GameApi* api = g.api
    cdef int k, i, r, owner = api.to_move(g.tables, root), n_best
    cdef double wins[SEARCH_MAX_MOVES]
    cdef double ret[MAX_PLAYERS]
    cdef double best
    cdef uint64_t policy[4]
    for i in range(n_moves):
        share[i] = 0
    for k in range(worlds):
        memcpy(world, root, api.state_size)
        api.determinize(g.tables, world, owner, rng)
        best = -INFINITY  # a tally can be below -1: a margin loss of 1000/rollouts points
        for i in range(n_moves):
            wins[i] = 0
            memcpy(policy, rng, sizeof(policy))  # common random numbers: every move meets the same dice
            for r in range(rollouts):
                memcpy(d, world, api.state_size)
                api.apply(g.tables, d, moves[i], NULL)
                api.rollout(g.tables, d, policy, NULL)
                api.returns(g.tables, d, ret)
                # a win counts 1; the score margin breaks ties between equally winning moves
                wins[i] += ret[owner] + 1e-3 * margin_of(g, d, owner)
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


cdef int64_t count_leaves(const GameHandle* g, void* s, Trail* tr, int depth) noexcept nogil:
    """Leaves of the move tree ``depth`` plies deep (chance fixed by the state's own generator)."""
    cdef int32_t buf[SEARCH_MAX_MOVES]
    cdef int n, i, mark
    cdef int64_t total = 0
    if depth == 0 or g.api.to_move(g.tables, s) < 0:
        return 1
    n = g.api.legal_moves(g.tables, s, buf)
    if depth == 1:
        return n
    for i in range(n):
        mark = tr.n
        g.api.apply(g.tables, s, buf[i], tr)
        total += count_leaves(g, s, tr, depth - 1)
        trail_undo(s, tr, mark)
    return total


cdef int keep_subtree(Tree* t, int32_t top) noexcept nogil:
    """Tree reuse: keep only the subtree under ``top``, ``top`` becoming the root (node 0), the
    nodes renumbered breadth first with their sibling order; returns 0 when out of memory."""
    cdef int32_t* order = <int32_t*>malloc(t.n * sizeof(int32_t))  # new index -> old index
    cdef int32_t* where = <int32_t*>malloc(t.n * sizeof(int32_t))  # old index -> new index
    cdef Node* kept = <Node*>malloc(t.n * sizeof(Node))
    cdef int32_t head = 0, tail = 1, k, child
    if order == NULL or where == NULL or kept == NULL:
        free(order)
        free(where)
        free(kept)
        return 0
    order[0] = top
    while head < tail:
        child = t.nodes[order[head]].first_child
        head += 1
        while child != NO_NODE:
            order[tail] = child
            tail += 1
            child = t.nodes[child].next_sibling
    for k in range(tail):
        where[order[k]] = k
    for k in range(tail):
        kept[k] = t.nodes[order[k]]
        if kept[k].first_child != NO_NODE:
            kept[k].first_child = where[kept[k].first_child]
        if k == 0:
            kept[k].parent = NO_NODE
            kept[k].next_sibling = NO_NODE
            kept[k].move = 0
            kept[k].player = -1
        else:
            kept[k].parent = where[kept[k].parent]
            if kept[k].next_sibling != NO_NODE:
                kept[k].next_sibling = where[kept[k].next_sibling]
    memcpy(t.nodes, kept, tail * sizeof(Node))
    t.n = tail
    t.full = 0
    free(order)
    free(where)
    free(kept)
    return 1


# ------------------------------------------------------------------------------- Python edge

ROLLOUTS = ("random", "mast")  # the rollout policies: the game's uniform one-call rollout, or MAST

cdef const GameHandle* handle_of(state) except NULL:
    """The C contract of a game's state object (any core that offers ``game_handle()``), its sizes
    checked against the search's fixed arrays before any of them is used."""
    cdef const GameHandle* h
    cdef const GameApi* api
    try:
        capsule = state.game_handle()
    except AttributeError:
        raise UsageError(f"search: {type(state).__name__} is not a state of a game's core") from None
    h = <const GameHandle*>PyCapsule_GetPointer(capsule, GAME_HANDLE_NAME)
    api = h.api
    name = api.name.decode("utf-8", "replace")
    for what, value, low, high in (("num_players", api.num_players, 1, MAX_PLAYERS),
                                   ("n_stats", api.n_stats, 0, MAX_STATS),
                                   ("max_moves", api.max_moves, 1, SEARCH_MAX_MOVES),
                                   ("n_features", features_of(api), 0, MAX_FEATURES),
                                   ("state_size", api.state_size, 1, TRAIL_MAX_STATE)):
        if not low <= value <= high:
            raise UsageError(f"search: game {name!r}: {what} is {value}, the search holds {low} to {high}")
    return h


cdef class Search:
    """An ISMCTS search that can be run in slices on the same tree (the result of slices of N1 and
    N2 iterations is that of one run of N1 + N2), and stopped from another thread. ``root_move``
    (a legal move id) searches that move alone at the root: its value when another move is best.

    ``run`` releases the GIL, so several searches run in parallel in threads."""
    cdef Tree trees[MAX_PLAYERS]
    cdef int n_trees
    cdef uint64_t rng[4]
    cdef RootStats* stats
    cdef int n_stats
    cdef int stop_flag
    cdef GameHandle game     # the root: its state and tables belong to the clone `root`
    cdef void* scratch       # a state to play an iteration on, then the tracker
    cdef readonly bint mo
    cdef readonly double c
    cdef readonly long iterations
    cdef readonly double seconds
    cdef readonly int player
    cdef object root         # the game's state object that owns game.state and the tables
    cdef int32_t root_move
    cdef Mast mast           # rollout="mast": the move ratings (kept across reroot)
    cdef readonly str rollout
    cdef Evaluation ev       # value=: the learned evaluation's weights and cutoff
    cdef readonly object value
    cdef Belief belief       # believe(): the weighed worlds of the root (until a reroot)
    cdef Evaluation model    # believe(): the evaluation its model of the other players' play weighs

    def __cinit__(self):
        cdef int q
        for q in range(MAX_PLAYERS):
            self.trees[q].nodes = NULL
        self.stats = NULL
        self.scratch = NULL
        self.mast.key = NULL
        self.mast.reward = NULL
        self.mast.count = NULL
        self.belief.n = 0
        self.belief.worlds = NULL
        self.belief.cdf = NULL

    def __init__(self, state, double c=0.7, bint mo=False, seed=0, long max_nodes=1_000_000, root_move=None,
                 rollout="random", value=None, int cutoff=0):
        cdef const GameHandle* h
        cdef int q, k
        if state.is_terminal():
            raise UsageError("search: the game is over")
        if max_nodes < 1 or max_nodes > 200_000_000:
            raise UsageError(f"max_nodes: must be from 1 to 200000000, got {max_nodes}")
        Rng(seed)  # validates the seed
        rng_seed(self.rng, seed)
        if root_move is not None and root_move not in state.legal_move_ids():
            raise UsageError(f"search: root_move {root_move} is not a legal move id here")
        if rollout not in ROLLOUTS:
            raise UsageError(f"rollout: must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        self.rollout = rollout
        self.root_move = -1 if root_move is None else root_move
        self.root = state.clone()
        h = handle_of(self.root)
        self.game = h[0]
        self.player = h.api.to_move(h.tables, h.state)
        self.c, self.mo = c, mo
        self.value = None if value is None else evaluation_weights(h, value, cutoff)
        if self.value is not None:
            self.ev.n = h.api.n_features
            self.ev.cutoff = cutoff
            for k in range(self.ev.n):
                self.ev.w[k] = self.value[k]
        self.scratch = malloc(h.api.state_size + h.api.track_size)
        self.stats = <RootStats*>malloc(SEARCH_MAX_MOVES * sizeof(RootStats))
        if self.stats == NULL or self.scratch == NULL:
            raise MemoryError("search: cannot allocate its scratch state")
        self.n_trees = h.api.num_players if mo else 1
        for q in range(self.n_trees):
            self.trees[q].nodes = <Node*>malloc(max_nodes * sizeof(Node))
            if self.trees[q].nodes == NULL:
                raise MemoryError(f"search: cannot allocate {max_nodes} nodes")
            self.trees[q].n = 0
            self.trees[q].cap = max_nodes
            self.trees[q].full = 0
            tree_add(&self.trees[q], NO_NODE, 0, -1)
        if rollout == "mast":
            self.mast.key = <int64_t*>calloc(MAST_SLOTS, sizeof(int64_t))
            self.mast.reward = <double*>malloc(MAST_SLOTS * sizeof(double))
            self.mast.count = <double*>malloc(MAST_SLOTS * sizeof(double))
            self.mast.used = 0
            if self.mast.key == NULL or self.mast.reward == NULL or self.mast.count == NULL:
                raise MemoryError("search: cannot allocate the MAST table")

    def __dealloc__(self):
        cdef int q
        free(self.stats)
        free(self.scratch)
        free(self.mast.key)
        free(self.mast.reward)
        free(self.mast.count)
        free(self.belief.worlds)
        free(self.belief.cdf)
        for q in range(MAX_PLAYERS):
            free(self.trees[q].nodes)

    def run(self, long iterations=0, double seconds=0.0) -> int:
        """Add ``iterations`` (if > 0) or ``seconds`` (if > 0) of search, whichever ends first, or
        less if :meth:`stop` is called; returns the iterations done."""
        cdef SearchResult res
        cdef char* scratch = <char*>self.scratch
        if iterations <= 0 and seconds <= 0:
            raise UsageError("search: give iterations or seconds (a positive budget)")
        omen_store_flag(&self.stop_flag, 0)
        with nogil:
            res = ismcts(&self.game, self.game.state, scratch, scratch + self.game.api.state_size, self.trees,
                         self.mo, iterations, seconds, self.c, self.rng, self.stats, &self.n_stats,
                         &self.stop_flag, self.root_move, &self.mast if self.mast.key != NULL else NULL,
                         &self.ev if self.value is not None else NULL, &self.belief)
        self.iterations += res.iterations
        self.seconds += res.seconds
        return res.iterations

    def stop(self) -> None:
        """Ask a running :meth:`run` (in another thread) to return soon."""
        omen_store_flag(&self.stop_flag, 1)

    def take_mast(self, Search other) -> None:
        """Carry MAST's ratings over from ``other``, an earlier search of the same game, which gets
        this search's (empty) ones: a new tree goes on from what the old one learnt of the moves
        (``reuse=mast``: the ratings kept from decision to decision, the tree not)."""
        cdef Mast mine = self.mast
        if self.mast.key == NULL or other.mast.key == NULL:
            raise UsageError("take_mast: both searches must play MAST rollouts (rollout='mast')")
        if other.game.api != self.game.api:
            raise UsageError("take_mast: the searches are of different games")
        self.mast = other.mast
        other.mast = mine

    def reroot(self, state, list path, seed=0) -> bool:
        """Tree reuse: make ``state``, reached from this search's root by ``path`` (``[(move id,
        mover), ...]``, the moves played since, oldest first), the new root, keeping the subtree
        those moves lead to in every tree, and reseed the search with ``seed``. The node must stand
        for what the searching player knows now: a move of another player that the searcher cannot
        see (``seen_move`` answers ``HIDDEN_MOVE``) fails in a single-observer tree, whose nodes
        name other players' real moves. Returns False, leaving the search as it was, when the path
        leaves a tree, a tree is empty there, ``state`` is another game's or not the searcher's
        decision, or the search values one root move only (``root_move``); the caller then starts
        a new search. Nor does it trust the path: the root played on by it (each move legal, each
        by the player to move) must be ``state`` byte for byte, or it returns False. The root
        statistics and the counts of iterations and seconds start again."""
        cdef const GameHandle* h
        cdef int32_t tops[MAX_PLAYERS]
        cdef int32_t node, move
        cdef int q, mover, viewer
        if self.root_move >= 0 or state.is_terminal():
            return False
        h = handle_of(state)
        if h.api != self.game.api or h.api.to_move(h.tables, h.state) != self.player:
            return False
        Rng(seed)
        if not self._leads(self.game.state, path, h.state):
            return False
        for q in range(self.n_trees):
            viewer = q if self.mo else self.player
            node = 0
            for move, mover in path:
                if not self.mo and mover != viewer and h.api.seen_move(h.tables, move, mover, viewer) == HIDDEN_MOVE:
                    return False
                node = find_child(&self.trees[q], node, seen_move(&self.game, move, mover, viewer, self.mo))
                if node == NO_NODE:
                    return False
            tops[q] = node
        for q in range(self.n_trees):
            if not keep_subtree(&self.trees[q], tops[q]):
                raise MemoryError("search: cannot allocate the tree reuse's scratch")
        rng_seed(self.rng, seed)
        self.root = state.clone()
        self.game = handle_of(self.root)[0]
        self.belief.n = 0
        self.n_stats = 0
        self.iterations = 0
        self.seconds = 0
        return True

    cdef bint _leads(self, const void* start, list path, const void* end):
        """Whether ``start`` played on by ``path`` (on the scratch state) is ``end`` byte for byte."""
        cdef int32_t legal[SEARCH_MAX_MOVES]
        cdef int32_t move
        cdef int mover, n, i
        cdef const GameApi* api = self.game.api
        memcpy(self.scratch, start, api.state_size)
        for move, mover in path:
            if api.to_move(self.game.tables, self.scratch) != mover:
                return False
            n = api.legal_moves(self.game.tables, self.scratch, legal)
            for i in range(n):
                if legal[i] == move:
                    break
            else:
                return False
            api.apply(self.game.tables, self.scratch, move, NULL)
        return memcmp(self.scratch, end, api.state_size) == 0

    def believe(self, past, list path, weights=None, int worlds=128) -> dict:
        """Belief weighting: from now on (until :meth:`reroot`) each iteration deals the root with
        the hands of one of ``worlds`` deals of ``past`` (an earlier state of this game, as this
        search's player saw it) played forward along ``path`` (``[(move id, mover), ...]``, the
        moves from ``past`` to the root, which must lead there byte for byte) up to the other
        players' last move in it, drawn with the likelihood of the other players' moves in it.
        (Beyond their last move a world would deal this player's own draws afresh, and their own
        moves after it may play what they drew.) The model of play is a softmax over the legal
        moves of the game's features after each, the mover's less the mean of the others', weighed
        by ``weights`` (one per feature; None: a uniformly random player). A world in which a move
        of the path is not legal, or whose hands cannot be the root's, weighs nothing; with no
        world left the search determinises as before, and so it does when the path holds another
        player's move this one cannot see (Heir's face-down Emissary: a world must not be held to
        a move its player does not know), weighing no world. Returns
        ``{"worlds", "kept", "ess"}``: the deals made, those of positive weight and their
        effective number (Kish's, (Σw)²/Σw²)."""
        cdef const GameHandle* h
        cdef const GameApi* api = self.game.api
        cdef int32_t* moves = NULL
        cdef double* logw = NULL
        cdef char* out = NULL
        cdef int n_path = len(path), n_replay = 0, k, i, kept = 0, owner = self.player
        cdef double top = -INFINITY, total = 0.0, squares = 0.0
        cdef const Evaluation* model = NULL  # None: a uniformly random player
        name = api.name.decode("utf-8", "replace")
        if api.deal_like == NULL:
            raise UsageError(f"believe: game {name!r} cannot deal a state like another (no deal_like)")
        if not 1 <= worlds <= MAX_WORLDS:
            raise UsageError(f"worlds: must be from 1 to {MAX_WORLDS}, got {worlds}")
        if weights is not None:
            self.model.n = api.n_features
            self.model.cutoff = 0
            for k, w in enumerate(evaluation_weights(&self.game, weights, 0, "weights")):
                self.model.w[k] = w
            model = &self.model
        if self.root_move >= 0:
            raise UsageError("believe: the search values one root move only")
        h = handle_of(past)
        if h.api != api or not self._leads(h.state, path, self.game.state):
            raise UsageError("believe: path does not lead from past to this search's root")
        try:
            moves = <int32_t*>malloc(max(n_path, 1) * sizeof(int32_t))
            logw = <double*>malloc(worlds * sizeof(double))
            out = <char*>malloc(<size_t>worlds * api.state_size)
            if moves == NULL or logw == NULL or out == NULL:
                raise MemoryError(f"believe: cannot allocate {worlds} worlds")
            for i, (move, mover) in enumerate(path):
                moves[i] = move
                if mover != owner:
                    n_replay = i + 1
                    if api.seen_move(self.game.tables, move, mover, owner) == HIDDEN_MOVE:
                        self.belief.n = 0
                        return {"worlds": 0, "kept": 0, "ess": 0.0}
            with nogil:
                weigh_worlds(&self.game, h.state, self.game.state, moves, n_replay, owner,
                             model, worlds, self.rng, out, logw, self.scratch)
            for k in range(worlds):
                if logw[k] > top:
                    top = logw[k]
            free(self.belief.worlds)
            free(self.belief.cdf)
            self.belief.n = 0
            self.belief.worlds = out
            self.belief.cdf = logw
            out = NULL
            logw = NULL
            for k in range(worlds):
                if self.belief.cdf[k] != -INFINITY:
                    memcpy(self.belief.worlds + <size_t>kept * api.state_size,
                           self.belief.worlds + <size_t>k * api.state_size, api.state_size)
                    self.belief.cdf[kept] = exp(self.belief.cdf[k] - top)
                    total += self.belief.cdf[kept]
                    squares += self.belief.cdf[kept] * self.belief.cdf[kept]
                    kept += 1
            for k in range(kept):
                self.belief.cdf[k] = self.belief.cdf[k] / total + (self.belief.cdf[k - 1] if k else 0.0)
            self.belief.n = kept
        finally:
            free(moves)
            free(logw)
            free(out)
        return {"worlds": worlds, "kept": kept, "ess": total * total / squares if kept else 0.0}

    def result(self, int pv_depth=0) -> dict:
        """The root's statistics: ``iterations``, ``seconds``, ``nodes`` (of the searching player's
        tree), ``full`` (the node cap was reached in any tree), ``children``: ``(move id, visits, availability, reward sum, margin sum, margin
        squares)``, ``stats``: ``{move id: [the game's statistics summed over the move's
        iterations]}`` and, with ``pv_depth`` > 0, ``pv``: ``{move id: [(move id, player, visits),
        ...]}``, the most visited line after each root move (``HIDDEN_MOVE`` = -2 for a move the
        root player's MO tree cannot see)."""
        cdef int q = self.player if self.mo else 0, i, k
        cdef Tree* t = &self.trees[q]
        cdef int32_t node, j, best
        children = []
        lines = {}
        node = t.nodes[0].first_child
        while node != NO_NODE:
            children.append((t.nodes[node].move, t.nodes[node].visits, t.nodes[node].avail, t.nodes[node].reward,
                             t.nodes[node].margin, t.nodes[node].margin_sq))
            line = []
            j = node
            while len(line) < pv_depth:  # follow the most visited child while it has been visited twice
                best = NO_NODE
                j = t.nodes[j].first_child
                while j != NO_NODE:
                    if best == NO_NODE or t.nodes[j].visits > t.nodes[best].visits:
                        best = j
                    j = t.nodes[j].next_sibling
                if best == NO_NODE or t.nodes[best].visits < 2:
                    break
                line.append((t.nodes[best].move, t.nodes[best].player, t.nodes[best].visits))
                j = best
            lines[t.nodes[node].move] = line
            node = t.nodes[node].next_sibling
        sums = {t.nodes[self.stats[i].node].move: [self.stats[i].sums[k] for k in range(self.game.api.n_stats)]
                for i in range(self.n_stats)}
        result = {"iterations": self.iterations, "seconds": self.seconds, "nodes": t.n,
                  "full": any(self.trees[k].full for k in range(self.n_trees)), "children": children,
                  "stats": sums}
        if pv_depth > 0:
            result["pv"] = lines
        return result


MAX_CUTOFF = 100_000  # plies a learned evaluation's playout may run before it values the position
MAX_WORLDS = 4096     # deals one belief weighting may weigh (Search.believe)


def can_believe(state) -> bool:
    """Whether the game of ``state`` can weigh determinisations by belief (:meth:`Search.believe`:
    its core supplies ``deal_like``, and features for a model of play)."""
    cdef const GameHandle* h = handle_of(state)
    return h.api.deal_like != NULL and features_of(h.api) > 0


cdef tuple evaluation_weights(const GameHandle* h, value, int cutoff, str what="value"):
    """``value`` as the game's feature weights (a tuple of floats), checked: one finite number per
    feature of the game, and a cutoff from 0 to MAX_CUTOFF plies; errors name the argument ``what``."""
    name = h.api.name.decode("utf-8", "replace")
    n = features_of(h.api)
    if n == 0:
        raise UsageError(f"{what}: game {name!r} supplies no evaluation features")
    try:
        weights = tuple(float(w) for w in value)
    except (TypeError, ValueError):
        raise UsageError(f"{what}: must be {n} numbers, got {value!r}") from None
    if len(weights) != n:
        raise UsageError(f"{what}: game {name!r} has {n} features, got {len(weights)} weights")
    if not all(np.isfinite(weights)):
        raise UsageError(f"{what}: the weights must be finite numbers")
    if not 0 <= cutoff <= MAX_CUTOFF:
        raise UsageError(f"cutoff: must be from 0 to {MAX_CUTOFF} plies, got {cutoff}")
    return weights


def deal_like(state, int player, source, seed=0):
    """A copy of ``state`` with what ``player`` cannot see dealt again, the other players holding
    the hands they hold in ``source`` (the game's ``deal_like``), or None when those hands cannot
    be theirs in ``state`` as ``player`` sees it."""
    cdef const GameHandle* h = handle_of(state)
    cdef const GameHandle* src = handle_of(source)
    cdef const GameHandle* out
    cdef uint64_t rng[4]
    name = h.api.name.decode("utf-8", "replace")
    if h.api.deal_like == NULL:
        raise UsageError(f"deal_like: game {name!r} cannot deal a state like another")
    if src.api != h.api:
        raise UsageError(f"deal_like: source is not a state of {name!r}")
    if not 0 <= player < h.api.num_players:
        raise UsageError(f"player: must be from 0 to {h.api.num_players - 1}, got {player}")
    Rng(seed)
    rng_seed(rng, seed)
    other = state.clone()
    out = handle_of(other)
    return other if h.api.deal_like(out.tables, out.state, player, src.state, rng) else None


def move_probabilities(state, weights=None):
    """The probability of each legal move of ``state`` (in ``legal_move_ids`` order) by the model of
    play a belief weighting weighs deals by (:meth:`Search.believe`): a softmax of the features
    after each move, the mover's less the mean of the others', weighed by ``weights`` (None:
    uniform)."""
    cdef const GameHandle* h = handle_of(state)
    cdef Evaluation model
    cdef const Evaluation* m = NULL
    cdef void* scratch
    cdef int k
    if state.is_terminal():
        raise UsageError("move_probabilities: the game is over")
    if weights is not None:
        model.n = h.api.n_features
        for k, w in enumerate(evaluation_weights(h, weights, 0, "weights")):
            model.w[k] = w
        m = &model
    scratch = malloc(h.api.state_size)
    if scratch == NULL:
        raise MemoryError("move_probabilities: cannot allocate a state")
    try:
        return np.exp([move_log_prob(h, h.state, scratch, move, m) for move in state.legal_move_ids()])
    finally:
        free(scratch)


def state_features(state, int player):
    """The game's evaluation features of ``player``'s side of ``state`` (a float64 array, empty
    for a game that supplies none): what a learned evaluation weighs."""
    cdef const GameHandle* h = handle_of(state)
    cdef int n = features_of(h.api)
    cdef double f[MAX_FEATURES]
    if not 0 <= player < h.api.num_players:
        raise UsageError(f"player: must be from 0 to {h.api.num_players - 1}, got {player}")
    out = np.zeros(n, dtype=np.float64)
    if n:
        h.api.features(h.tables, h.state, player, f)
        for k in range(n):
            out[k] = f[k]
    return out


def search(state, long iterations=1000, double seconds=0.0, double c=0.7, bint mo=False,
           seed=0, long max_nodes=1_000_000, int pv_depth=0, str rollout="random"):
    """Run ISMCTS from ``state`` for its current player; returns :meth:`Search.result`.

    Stops after ``iterations`` or ``seconds`` (a value <= 0 means no limit of that kind; at least one
    must be set). ``mo`` selects MO-ISMCTS. The tree holds at most ``max_nodes`` nodes per player.
    ``rollout`` is one of :data:`ROLLOUTS`.
    """
    if iterations <= 0 and seconds <= 0:
        raise UsageError("search: give iterations or seconds (a positive budget)")
    engine = Search(state, c, mo, seed, max_nodes, None, rollout)
    engine.run(iterations, seconds)
    return engine.result(pv_depth)


def best_shares(state, list move_ids, int worlds, int rollouts, seed=0):
    """For each of ``move_ids`` (legal root moves), the share of ``worlds`` determinisations in
    which it won the most of ``rollouts`` random games played after it (ties share)."""
    cdef const GameHandle* h
    cdef uint64_t rng[4]
    cdef int32_t moves[SEARCH_MAX_MOVES]
    cdef double share[SEARCH_MAX_MOVES]
    cdef int i, n = len(move_ids)
    cdef char* scratch
    if state.is_terminal():
        raise UsageError("best_shares: the game is over")
    legal = set(state.legal_move_ids())
    if not 0 < n <= SEARCH_MAX_MOVES or any(m not in legal for m in move_ids):
        raise UsageError("best_shares: move_ids must be legal moves of the state")
    if worlds < 1 or rollouts < 1:
        raise UsageError(f"best_shares: worlds and rollouts must be positive, got {worlds} and {rollouts}")
    Rng(seed)
    rng_seed(rng, seed)
    for i in range(n):
        moves[i] = move_ids[i]
    h = handle_of(state)
    scratch = <char*>malloc(2 * h.api.state_size)
    if scratch == NULL:
        raise MemoryError("best_shares: cannot allocate two states")
    with nogil:
        best_per_world(h, h.state, scratch, scratch + h.api.state_size, moves, n, worlds, rollouts, rng, share)
    free(scratch)
    return [share[i] for i in range(n)]


def perft(state, int depth) -> int:
    """Leaves of the move tree ``depth`` plies deep from ``state`` (searched on a copy)."""
    cdef const GameHandle* h
    cdef Trail tr
    cdef int64_t n
    cdef void* s
    if depth < 0:
        raise UsageError(f"depth: must be at least 0, got {depth}")
    h = handle_of(state)
    tr.n = 0
    tr.enabled = 1
    tr.cap = h.api.trail_per_move * (depth + 1)
    tr.off = <uint16_t*>malloc(tr.cap * sizeof(uint16_t))
    tr.width = <uint8_t*>malloc(tr.cap * sizeof(uint8_t))
    tr.old = <uint64_t*>malloc(tr.cap * sizeof(uint64_t))
    s = malloc(h.api.state_size)
    try:
        if s == NULL or tr.off == NULL or tr.width == NULL or tr.old == NULL:
            raise MemoryError(f"perft: cannot allocate the undo trail for depth {depth}")
        memcpy(s, h.state, h.api.state_size)
        with nogil:
            n = count_leaves(h, s, &tr, depth)
        if tr.enabled == 2:
            raise RuntimeError("perft: the undo trail overflowed (a game's trail_per_move is too small)")
        return n
    finally:
        free(s)
        free(tr.off)
        free(tr.width)
        free(tr.old)


cdef extern from *:
    """
    static inline void omen_search_barrier(void* p) { __asm__ __volatile__("" : : "g"(p) : "memory"); }
    """
    void omen_search_barrier(void* p) nogil  # a compiler barrier: the bytes at p are used


def state_size(state) -> int:
    """Bytes in the game's flat state: what the search copies to clone it."""
    return handle_of(state).api.state_size


def bench_clone(state, long n):
    """Seconds for ``n`` clones of ``state`` as the search makes them (a copy of the game's
    ``state_size`` bytes from its state) and for ``n`` bare memcpys of as many bytes between two
    heap buffers, both in C loops. Each iteration changes the source and reads the copy, so
    neither loop can be optimised away. Returns ``(clone_s, memcpy_s, sink)``."""
    import time
    cdef const GameHandle* h = handle_of(state)
    cdef size_t size = h.api.state_size
    cdef char* src = <char*>malloc(size)
    cdef char* dst = <char*>malloc(size)
    cdef char* raw_src = <char*>malloc(size)
    cdef char* raw_dst = <char*>malloc(size)
    cdef long i
    cdef uint64_t sink = 0
    if src == NULL or dst == NULL or raw_src == NULL or raw_dst == NULL:
        free(src)
        free(dst)
        free(raw_src)
        free(raw_dst)
        raise MemoryError("bench_clone: cannot allocate the states")
    memcpy(src, h.state, size)
    memcpy(raw_src, h.state, size)
    t0 = time.perf_counter()
    with nogil:
        for i in range(n):
            src[size - 1] = <char>i
            omen_search_barrier(src)
            memcpy(dst, src, h.api.state_size)
            omen_search_barrier(dst)
            sink += <uint8_t>dst[size - 1]
    t1 = time.perf_counter()
    with nogil:
        for i in range(n):
            raw_src[size - 1] = <char>i
            omen_search_barrier(raw_src)
            memcpy(raw_dst, raw_src, size)
            omen_search_barrier(raw_dst)
            sink += <uint8_t>raw_dst[size - 1]
    t2 = time.perf_counter()
    free(src)
    free(dst)
    free(raw_src)
    free(raw_dst)
    return t1 - t0, t2 - t1, sink


def playout_returns(state, seed: int = 0) -> tuple:
    """Each seat's return at the end of a game played on from ``state`` by the game's rollout
    policy seeded ``seed`` (on a copy: ``state`` is left as it is). For Heir the policy is uniform
    over the legal moves, as ``RandomBot(seed)`` plays."""
    cdef const GameHandle* h = handle_of(state)
    cdef uint64_t policy[4]
    cdef double out[MAX_PLAYERS]
    cdef void* s
    cdef int q
    Rng(seed)
    rng_seed(policy, seed)
    s = malloc(h.api.state_size)
    if s == NULL:
        raise MemoryError("playout_returns: cannot allocate a state")
    memcpy(s, h.state, h.api.state_size)
    with nogil:
        h.api.rollout(h.tables, s, policy, NULL)
        h.api.returns(h.tables, s, out)
    free(s)
    return tuple(out[q] for q in range(h.api.num_players))


def run_playouts(state, int n, seed: int = 0):
    """``n`` random games from fresh deals of ``state``'s game and configuration, all in C without
    the GIL and without allocating per game.

    Game ``i`` is dealt with seed ``seed + i`` and played by a random policy seeded ``seed + i``
    (so it is the game ``RandomBot(seed + i)`` plays against itself on the deal ``seed + i``).
    Returns numpy arrays ``(scores[n, players], plies[n])``.
    """
    cdef const GameHandle* h = handle_of(state)
    cdef const GameApi* api = h.api
    cdef uint64_t policy[4]
    cdef uint64_t base
    cdef int i
    cdef void* s
    if n < 0:
        raise UsageError(f"n: must be at least 0, got {n}")
    Rng(seed)
    Rng(seed + max(n - 1, 0))  # the last game's seed is a seed too: no silent wrap to 0
    base = seed
    scores = np.zeros((n, api.num_players), dtype=np.int32)
    plies = np.zeros(n, dtype=np.int32)
    cdef int32_t[:, ::1] sv = scores
    cdef int32_t[::1] pv = plies
    s = malloc(api.state_size)
    if s == NULL:
        raise MemoryError("run_playouts: cannot allocate a state")
    with nogil:
        for i in range(n):
            api.new_game(h.tables, h.config, base + <uint64_t>i, s)
            rng_seed(policy, base + <uint64_t>i)
            pv[i] = api.rollout(h.tables, s, policy, NULL)
            api.scores(h.tables, s, &sv[i, 0])
    free(s)
    return scores, plies
