# -- scores and playouts

cdef int popcount16(uint16_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= <uint16_t>(x - 1)
        n += 1
    return n

cdef int treasured_in_hand(const Tables* tb, const State* s, int p) noexcept nogil:
    cdef int t, n = 0
    for t in range(tb.T):
        if tb.treasured[t]:
            n += s.hands[p][t]
    return n

cdef int score(const Tables* tb, const State* s, int p) noexcept nogil:
    """H-score-1."""
    cdef int slot, vp = 2 * popcount16(s.unused[p]) + popcount16(s.used[p]) + treasured_in_hand(tb, s, p)
    for slot in range(3):
        if s.completed[p][slot]:
            vp += tb.vp[s.gods[p]][slot]
    return vp + hook_score(tb, s, p)

cdef int winner(const Tables* tb, const State* s) noexcept nogil:
    """H-score-1 with its tie-breaks (favor always decides the last one)."""
    cdef int k, a, b
    for k in range(4 + EXTRA_TIEBREAKS):
        if k == 0:
            a, b = score(tb, s, 0), score(tb, s, 1)
        elif k == 1:
            a, b = popcount16(s.unused[0]), popcount16(s.unused[1])
        elif k == 2:
            a, b = treasured_in_hand(tb, s, 0), treasured_in_hand(tb, s, 1)
        elif k < 3 + EXTRA_TIEBREAKS:
            a, b = hook_tiebreak(tb, s, 0), hook_tiebreak(tb, s, 1)
        else:
            a, b = s.favor == s.gods[0], s.favor == s.gods[1]
        if a != b:
            return 0 if a > b else 1
    return 1

cdef int random_playout(const Tables* tb, State* s, uint64_t* policy, WarTrack* track) noexcept nogil:
    """Play uniformly random legal moves to the end, noting the wars in ``track`` unless it is
    NULL; returns the number of plies played."""
    cdef Ctx c
    cdef int32_t buf[MAX_MOVES]
    cdef int n, plies = 0
    c.tb = tb
    c.s = s
    c.tr = NULL
    while s.phase != PH_GAME_OVER:
        n = gen_moves(&c, &s.pending, buf)
        do_move(&c, buf[rng_below(policy, n)])
        if track != NULL:
            track_wars(s, track)
        plies += 1
    return plies
