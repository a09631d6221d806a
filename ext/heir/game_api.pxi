# -- the game's side of the C contract with the search (ext/common/game_api.pxd)

cdef void api_new_game(const void* tables, const void* config, uint64_t seed, void* s) noexcept nogil:
    cdef const Setup* g = <const Setup*>config
    setup(<const Tables*>tables, <State*>s, seed, g.god0, g.first_player, g.emissary, g.max_turns, g.level)

cdef int api_to_move(const void* tables, const void* s) noexcept nogil:
    cdef const State* st = <const State*>s
    return -1 if st.phase == PH_GAME_OVER else st.pending.player

cdef int api_legal_moves(const void* tables, void* s, int32_t* out) noexcept nogil:
    cdef Ctx c
    c.tb = <const Tables*>tables
    c.s = <State*>s
    c.tr = NULL
    return gen_moves(&c, &c.s.pending, out)

cdef void api_apply(const void* tables, void* s, int32_t move, Trail* trail) noexcept nogil:
    cdef Ctx c
    c.tb = <const Tables*>tables
    c.s = <State*>s
    c.tr = trail
    do_move(&c, move)

cdef void api_returns(const void* tables, const void* s, double* out) noexcept nogil:
    cdef int w = winner(<const Tables*>tables, <const State*>s)  # H-score-1: never a tie
    out[0] = w == 0
    out[1] = w == 1

cdef void api_scores(const void* tables, const void* s, int32_t* out) noexcept nogil:
    out[0] = score(<const Tables*>tables, <const State*>s, 0)
    out[1] = score(<const Tables*>tables, <const State*>s, 1)

cdef void api_determinize(const void* tables, void* s, int player, uint64_t* rng) noexcept nogil:
    determinize(<const Tables*>tables, <State*>s, player, rng)

cdef int api_deal_like(const void* tables, void* s, int player, const void* source, uint64_t* rng) noexcept nogil:
    return deal_like(<const Tables*>tables, <State*>s, player, <const State*>source, rng)

cdef int32_t api_seen_move(const void* tables, int32_t move, int mover, int viewer) noexcept nogil:
    """Every move is public but the emissary another player places face down."""
    if mover != viewer and m_verb(move) == V_EMISSARY:
        return HIDDEN_MOVE
    return move

cdef int api_rollout(const void* tables, void* s, uint64_t* rng, void* track) noexcept nogil:
    return random_playout(<const Tables*>tables, <State*>s, rng, <WarTrack*>track)

cdef void api_track_begin(const void* tables, const void* s, void* track) noexcept nogil:
    cdef const State* st = <const State*>s
    cdef WarTrack* w = <WarTrack*>track
    cdef int city
    for city in range(NCITIES):
        w.tiles_n[city] = st.city_tiles_n[city]
        w.first[city] = -1
        w.taken[city][0] = 0
        w.taken[city][1] = 0

cdef void api_track_step(const void* tables, const void* s, void* track) noexcept nogil:
    track_wars(<const State*>s, <WarTrack*>track)

cdef void api_track_stats(const void* tables, const void* s, const void* track, int player,
                          double* out) noexcept nogil:
    cdef const WarTrack* w = <const WarTrack*>track
    cdef int city
    for city in range(NCITIES):
        out[city] = w.first[city] == player
        out[NCITIES + city] = w.taken[city][player]

cdef void api_features(const void* tables, const void* s, int player, double* out) noexcept nogil:
    heir_features(<const Tables*>tables, <const State*>s, player, out)


cdef GameApi CORE_API
CORE_API.name = API_NAME
CORE_API.num_players = 2
CORE_API.max_moves = MAX_MOVES
CORE_API.state_size = sizeof(State)
CORE_API.track_size = sizeof(WarTrack)
CORE_API.trail_per_move = TRAIL_MARGIN
CORE_API.n_stats = N_WAR_STATS
CORE_API.new_game = api_new_game
CORE_API.to_move = api_to_move
CORE_API.legal_moves = api_legal_moves
CORE_API.apply = api_apply
CORE_API.returns = api_returns
CORE_API.scores = api_scores
CORE_API.determinize = api_determinize
CORE_API.seen_move = api_seen_move
CORE_API.rollout = api_rollout
CORE_API.track_begin = api_track_begin
CORE_API.track_step = api_track_step
CORE_API.track_stats = api_track_stats
CORE_API.n_features = N_FEATURES
CORE_API.features = api_features
CORE_API.deal_like = api_deal_like
assert CORE_API.state_size <= TRAIL_MAX_STATE and MAX_MOVES <= SEARCH_MAX_MOVES
assert CORE_API.n_stats <= MAX_STATS and CORE_API.n_features <= MAX_FEATURES
