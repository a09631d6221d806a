# -- features of a position for a learned evaluation (the contract's optional `features` entry)

cdef enum:
    N_FEATURES = 16       # doubles heir_features writes (FEATURE_NAMES in edge.pxi names them)

cdef void heir_features(const Tables* tb, const State* s, int p, double* out) noexcept nogil:
    """``p``'s side of a (determinised) position as numbers a linear evaluation weighs: the points
    and what makes points (tiles, structures, treasured cards), the cities' wars as they stand,
    and the game's clock. A learned evaluation compares these between the players, so each is
    ``p``'s own; the clock enters through its products with the points and the leads."""
    cdef State* st = <State*>s  # strength() reads only
    cdef int o = 1 - p, c, t, mine, theirs, tiles_left = 0, hand = 0, hand_strength = 0, built = 0, beneath = 0
    cdef int leads = 0, prize = 0, total_strength = 0, units = 0, points = score(tb, s, p)
    cdef double clock
    for c in range(NCITIES):
        tiles_left += s.city_tiles_n[c]
        mine = strength(tb, st, c, p)
        theirs = strength(tb, st, c, o)
        total_strength += mine
        units += side_count(tb, st, c, p)
        if mine > theirs:
            leads += 1
            prize += s.city_tiles_n[c]
    for t in range(tb.T):
        hand += s.hands[p][t]
        hand_strength += s.hands[p][t] * tb.strength[t]
        beneath += s.under[p][t]
    for c in range(3):
        built += s.completed[p][c]
    clock = 1.0 - tiles_left / <double>(3 * NCITIES)
    out[0] = points
    out[1] = points * clock
    out[2] = popcount16(s.unused[p])
    out[3] = popcount16(s.used[p])
    out[4] = treasured_in_hand(tb, s, p)
    out[5] = built
    out[6] = beneath
    out[7] = s.coins[p]
    out[8] = hand
    out[9] = hand_strength
    out[10] = total_strength
    out[11] = units
    out[12] = leads
    out[13] = prize
    out[14] = prize * clock
    out[15] = s.favor == s.gods[p]
