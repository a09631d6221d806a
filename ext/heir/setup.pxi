cdef void setup(const Tables* tb, State* s, uint64_t seed, uint8_t god0, uint8_t first_player,
                uint8_t emissary, uint16_t max_turns, uint8_t level) noexcept nogil:
    """A new game exactly as ``GameState._setup`` deals it (rules Setup 1-4)."""
    cdef Ctx c
    cdef uint8_t tiles[NTILES]
    cdef int i, t, k, p
    c.tb = tb
    c.s = s
    c.tr = NULL
    memset(s, 0, sizeof(State))
    rng_seed(s.rng, seed)
    for i in range(tb.n_tiles):
        tiles[i] = i
    shuffle_u8(&c, tiles, tb.n_tiles)
    for i in range(NCITIES):
        for k in range(3):
            s.city_tiles[i][k] = tiles[3 * i + k]
        s.city_tiles_n[i] = 3
    k = 0
    for t in range(tb.T):
        for i in range(tb.dealt[t]):
            s.deck[k] = t
            k += 1
    s.deck_n = k
    shuffle_u8(&c, s.deck, s.deck_n)
    k = 0
    for i in range(s.deck_n):  # an ablated unit is shuffled in, then taken out (CardSet.shuffled_deck)
        if tb.copies[s.deck[i]]:
            s.deck[k] = s.deck[i]
            k += 1
    s.deck_n = k
    s.gods[0] = god0
    s.gods[1] = 1 - god0
    s.first_player = first_player
    s.emissary = emissary
    s.max_turns = max_turns
    s.building[0] = -1
    s.building[1] = -1
    s.emissaries[0] = -1
    s.emissaries[1] = -1
    s.war_city = -1
    s.war_victor = -1
    s.active = first_player
    s.turn = 1
    s.first_turn = 1
    s.pending.kind = DK_NONE
    s.level = level
    if level:
        s.coins[CH] = (level - 2) if level > 2 else 0  # hard 1, brutal 2 (S-level-1)
        s.reserve = CH_COINS - s.coins[CH]
        draw(&c, 0, START_HAND)
        gain(&c, 0, START_COINS)
        s.favor = s.gods[0]
        s.active = CH
        s.phase = PH_WEALTH_REVEAL
        run(&c)
        return
    for p in range(2):
        draw(&c, p, START_HAND)
        gain(&c, p, START_COINS)
    s.favor = s.gods[1 - first_player]
    s.phase = PH_EMISSARY if emissary else PH_WEALTH_REVEAL
    run(&c)


