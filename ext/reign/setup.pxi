# -- dealing a new game (reference: GameState.new and _setup)

cdef enum:  # what designs() counts of each design in play
    EACH_COPY = 0         # its copies: none for a design left out (D-ablate-1)
    EACH_DEALT = 1        # the copies the full set's deal shuffles in (tb.dealt)
    EACH_ONCE = 2         # one card (Test of Skill), a design left out too: shuffled in, then taken out

cdef int designs(const Tables* tb, const Setup* cfg, uint8_t* counts, int each) noexcept nogil:
    """The unit designs in play (all, or the beginner set: R-var-1) as counts, ``each`` saying
    what is counted of a design; returns the cards."""
    cdef int t, n = 0
    for t in range(MAX_T):
        counts[t] = 0
    for t in range(tb.T):
        if tb.beginner[t] or not cfg.beginner:
            counts[t] = tb.copies[t] if each == EACH_COPY else tb.dealt[t] if each == EACH_DEALT else 1
            n += counts[t]
    return n

cdef void setup(const Tables* tb, State* s, uint64_t seed, const Setup* cfg) noexcept nogil:
    """A new game exactly as ``GameState.new`` deals it: the reward cards (R-setup-1), then the deck
    or decks of the variant; a design left out is shuffled in, then taken out (D-ablate-1)."""
    cdef Ctx c
    cdef uint8_t rewards[NREWARDS]
    cdef uint8_t lists[2 * MAX_T]
    cdef int i, k, r, t
    c.tb = tb
    c.s = s
    c.tr = NULL
    memset(s, 0, sizeof(State))
    s.cfg = cfg[0]
    rng_seed(s.rng, seed)
    s.beast = -1
    s.emissaries[0] = s.emissaries[1] = -1
    s.chosen[0] = s.chosen[1] = -1
    s.war_city = -1
    s.war_victor = -1
    s.active = cfg.first_player
    s.turn = 1
    s.first_turn = 1
    s.phase = PH_DRAFT if cfg.deck == DECK_DRAFT else PH_SDRAFT if cfg.deck == DECK_SDRAFT else PH_WEALTH
    k = 0
    for r in range(tb.R):
        for i in range(tb.reward_copies[r]):
            rewards[k] = <uint8_t>r
            k += 1
    shuffle_raw(rewards, NREWARDS, s.rng)
    for i in range(NCITIES):
        for k in range(REWARDS_PER_CITY):
            s.city_rewards[i][k] = <int8_t>rewards[REWARDS_PER_CITY * i + k]
        s.city_rewards_n[i] = REWARDS_PER_CITY
    if cfg.deck == DECK_SHARED:
        designs(tb, cfg, lists, EACH_DEALT)
        k = 0
        for t in range(tb.T):
            for i in range(lists[t]):
                s.decks[0][k] = <uint8_t>t
                k += 1
        shuffle_raw(s.decks[0], k, s.rng)
        s.deck_n[0] = <uint8_t>without_ablated(tb, s.decks[0], k)
        deal(&c)
    elif cfg.deck == DECK_SKILL:  # R-skill-1: one card of each design
        designs(tb, cfg, lists, EACH_ONCE)
        memcpy(&lists[MAX_T], lists, MAX_T)
        own_decks(&c, lists)
    elif cfg.deck == DECK_BUILD or cfg.deck == DECK_GIVEN:  # R-build-1, D-given-1: the decks of the set-up
        own_decks(&c, &cfg.lists[0][0])
    elif cfg.deck == DECK_DRAFT:  # R-draft-1: a design left out has no stack
        designs(tb, cfg, lists, EACH_COPY)
        for t in range(tb.T):
            if lists[t]:
                s.pool[s.pool_n] = <uint8_t>t
                s.pool_n += 1
        s.coins[0] = s.coins[1] = DRAFT_COINS
    else:  # Simplified Drafting, R-sdraft-1
        designs(tb, cfg, lists, EACH_DEALT)
        k = 0
        for t in range(tb.T):
            for i in range(lists[t]):
                s.pool[k] = <uint8_t>t
                k += 1
        shuffle_raw(s.pool, k, s.rng)
        s.pool_n = <uint8_t>without_ablated(tb, s.pool, k)
    run(&c)
