# -- the game's side of the C contract with the search (ext/common/game_api.pxd)

cdef void api_new_game(const void* tables, const void* config, uint64_t seed, void* s) noexcept nogil:
    setup(<const Tables*>tables, <State*>s, seed, <const Setup*>config)

cdef int api_to_move(const void* tables, const void* s) noexcept nogil:
    cdef const State* st = <const State*>s
    return -1 if st.phase == PH_GAME_OVER else st.pending.player

cdef int api_legal_moves(const void* tables, void* s, int32_t* out) noexcept nogil:
    return gen_moves(<const Tables*>tables, <State*>s, &(<State*>s).pending, out)

cdef void api_apply(const void* tables, void* s, int32_t move, Trail* trail) noexcept nogil:
    cdef Ctx c
    c.tb = <const Tables*>tables
    c.s = <State*>s
    c.tr = trail
    do_move(&c, move)

cdef void api_returns(const void* tables, const void* s, double* out) noexcept nogil:
    cdef int w = winner(<const Tables*>tables, <const State*>s)
    out[0] = 0.5 if w < 0 else <double>(w == 0)
    out[1] = 0.5 if w < 0 else <double>(w == 1)

cdef void api_scores(const void* tables, const void* s, int32_t* out) noexcept nogil:
    out[0] = score(<const Tables*>tables, <const State*>s, 0)
    out[1] = score(<const Tables*>tables, <const State*>s, 1)

cdef void api_determinize(const void* tables, void* s, int player, uint64_t* rng) noexcept nogil:
    determinize(<const Tables*>tables, <State*>s, player, rng)

cdef int32_t api_seen_move(const void* tables, int32_t move, int mover, int viewer) noexcept nogil:
    """Every move is public but a Simplified-draft pick and an emissary, both face down."""
    cdef int verb = m_verb(move)
    if mover != viewer and (verb == V_PICK or verb == V_EMISSARY):
        return HIDDEN_MOVE
    return move

cdef int api_rollout(const void* tables, void* s, uint64_t* rng, void* track) noexcept nogil:
    return random_playout(<const Tables*>tables, <State*>s, rng)

cdef void api_track_begin(const void* tables, const void* s, void* track) noexcept nogil:
    pass  # no tracker: Reign of War reports no statistics to the advisor yet

cdef void api_track_step(const void* tables, const void* s, void* track) noexcept nogil:
    pass

cdef void api_track_stats(const void* tables, const void* s, const void* track, int player,
                          double* out) noexcept nogil:
    pass


cdef GameApi REIGN_API
REIGN_API.name = "reign-of-war"
REIGN_API.num_players = 2
REIGN_API.max_moves = MAX_MOVES
REIGN_API.state_size = sizeof(State)
REIGN_API.track_size = 0
REIGN_API.trail_per_move = TRAIL_MARGIN
REIGN_API.n_stats = 0
REIGN_API.new_game = api_new_game
REIGN_API.to_move = api_to_move
REIGN_API.legal_moves = api_legal_moves
REIGN_API.apply = api_apply
REIGN_API.returns = api_returns
REIGN_API.scores = api_scores
REIGN_API.determinize = api_determinize
REIGN_API.seen_move = api_seen_move
REIGN_API.rollout = api_rollout
REIGN_API.track_begin = api_track_begin
REIGN_API.track_step = api_track_step
REIGN_API.track_stats = api_track_stats
assert REIGN_API.state_size <= TRAIL_MAX_STATE and MAX_MOVES <= SEARCH_MAX_MOVES
