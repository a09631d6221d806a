# The C side of the contract (game_api.pxd) that a one-file core (OMEGA's, OMNIA's) writes alike,
# written once: the whole random playout, the api_* functions that cast the contract's void
# pointers to the core's types, and its GameApi table, one per player count (GAME_API[n], filled
# by fill_game_api at import). Include it after the core's rules. The core supplies, as its own
# module-level names:
#   types      Tables, Setup, State (with phase, n, active, n_todo and todo[i].player: the front
#              step's player is to move, else the active player) and Ctx (tb, s, tr)
#   constants  PH_OVER (the phase of a finished game), MAX_MOVES, TRAIL_PER_MOVE
#   rules      setup(tb, s, seed, cfg), gen_moves(tb, s, out), do_move(x, m) (apply and run to the
#              next decision), shares(tb, s, out) (the returns), score(tb, s, p),
#              determinize(tb, s, player, rng)
#   its own    api_seen_move and the tracker, api_track_begin, api_track_step and api_track_stats
# and, in the module's body, calls fill_game_api(name, track_size, n_stats) once. The module
# cimports int32_t, uint64_t, rng_below, Trail, TRAIL_MAX_STATE, GameApi, MAX_PLAYERS and
# SEARCH_MAX_MOVES.


cdef int random_playout(const Tables* tb, State* s, uint64_t* rng) noexcept nogil:
    """Uniformly random moves to the end (one ``rng_below`` per move, as ``RandomBot``)."""
    cdef int32_t moves[MAX_MOVES]
    cdef int plies = 0, n
    cdef Ctx x
    x.tb = tb
    x.s = s
    x.tr = NULL
    while s.phase != PH_OVER:
        n = gen_moves(tb, s, moves)
        do_move(&x, moves[rng_below(rng, n)])
        plies += 1
    return plies


cdef void api_new_game(const void* tables, const void* config, uint64_t seed, void* s) noexcept nogil:
    setup(<const Tables*>tables, <State*>s, seed, <const Setup*>config)

cdef int api_to_move(const void* tables, const void* s) noexcept nogil:
    cdef const State* st = <const State*>s
    if st.phase == PH_OVER:
        return -1
    return st.todo[st.n_todo - 1].player if st.n_todo else st.active

cdef int api_legal_moves(const void* tables, void* s, int32_t* out) noexcept nogil:
    return gen_moves(<const Tables*>tables, <State*>s, out)

cdef void api_apply(const void* tables, void* s, int32_t move, Trail* trail) noexcept nogil:
    cdef Ctx x
    x.tb = <const Tables*>tables
    x.s = <State*>s
    x.tr = trail
    do_move(&x, move)

cdef void api_returns(const void* tables, const void* s, double* out) noexcept nogil:
    shares(<const Tables*>tables, <const State*>s, out)

cdef void api_scores(const void* tables, const void* s, int32_t* out) noexcept nogil:
    cdef int p
    for p in range((<const State*>s).n):
        out[p] = score(<const Tables*>tables, <const State*>s, p)

cdef void api_determinize(const void* tables, void* s, int player, uint64_t* rng) noexcept nogil:
    determinize(<const Tables*>tables, <State*>s, player, rng)

cdef int api_rollout(const void* tables, void* s, uint64_t* rng, void* track) noexcept nogil:
    return random_playout(<const Tables*>tables, <State*>s, rng)


cdef GameApi GAME_API[MAX_PLAYERS + 1]  # by player count (2..MAX_PLAYERS): the table fixes it

cdef int fill_game_api(const char* name, size_t track_size, int n_stats) except -1:
    """Fill GAME_API[2..MAX_PLAYERS]: the core's sizes and functions; ``name`` must outlive it (a
    literal)."""
    cdef int players
    for players in range(2, MAX_PLAYERS + 1):
        GAME_API[players].name = name
        GAME_API[players].num_players = players
        GAME_API[players].max_moves = MAX_MOVES
        GAME_API[players].state_size = sizeof(State)
        GAME_API[players].track_size = track_size
        GAME_API[players].trail_per_move = TRAIL_PER_MOVE
        GAME_API[players].n_stats = n_stats
        GAME_API[players].new_game = api_new_game
        GAME_API[players].to_move = api_to_move
        GAME_API[players].legal_moves = api_legal_moves
        GAME_API[players].apply = api_apply
        GAME_API[players].returns = api_returns
        GAME_API[players].scores = api_scores
        GAME_API[players].determinize = api_determinize
        GAME_API[players].seen_move = api_seen_move
        GAME_API[players].rollout = api_rollout
        GAME_API[players].track_begin = api_track_begin
        GAME_API[players].track_step = api_track_step
        GAME_API[players].track_stats = api_track_stats
    return 0


# the search copies the whole state with a trail of 16-bit offsets and lists at most SEARCH_MAX_MOVES
assert sizeof(State) <= TRAIL_MAX_STATE and <int>MAX_MOVES <= <int>SEARCH_MAX_MOVES
