# -- scores and playouts

cdef int score(const Tables* tb, const State* s, int p) noexcept nogil:
    """R-score-1: 2 per feat done, 2 per reward card in hand, 1 per used reward card."""
    cdef int r, vp = 2 * feats_done(s, p)
    for r in range(tb.R):
        vp += 2 * s.rewards_hand[p][r] + s.rewards_used[p][r]
    return vp

cdef int winner(const Tables* tb, const State* s) noexcept nogil:
    """R-score-2: score, then feats done; -1 for a draw."""
    cdef int a = score(tb, s, 0), b = score(tb, s, 1)
    if a == b:
        a = feats_done(s, 0)
        b = feats_done(s, 1)
    return -1 if a == b else (0 if a > b else 1)

cdef int random_playout(const Tables* tb, State* s, uint64_t* policy) noexcept nogil:
    """Play uniformly random legal moves to the end (the choices of ``RandomBot``); returns the plies."""
    cdef Ctx c
    cdef int32_t buf[MAX_MOVES]
    cdef int32_t m
    cdef int plies = 0
    c.tb = tb
    c.s = s
    c.tr = NULL
    while s.phase != PH_GAME_OVER:
        m = random_move(tb, s, policy, buf)
        if m < 0:  # a decision without a move: the reference engine would be stuck as well
            break
        do_move(&c, m)
        plies += 1
    return plies
