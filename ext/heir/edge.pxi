# ------------------------------------------------------------------------------- Python edge
# The card set compiled (CoreTables) and a game on the core (CoreState), with the State interface of
# the reference engine. A core including this file names its own TABLES (the CoreTables class it
# compiles sets with), DEAL (the set and configuration a new game is dealt with), DECISIONS, PHASES and observe.

_GOD_INDEX = {g: i for i, g in enumerate(GODS)}
_DEVOTION = {"anubis": 0, "horus": 1, "both": 2, "neutral": 3}
_NAMED = {"unit": 0, "maneuver": 0, "built": 0, "reward": 1, "structure": 2}


cdef class CoreTables:
    """A card set compiled for the core: flat tables and effect opcodes, plus the name maps."""

    cdef Tables tb
    cdef readonly object cards
    cdef readonly list prog_refs
    cdef readonly dict ref_progs

    def __init__(self, cards):
        cdef int t
        cdef uint64_t bit
        self.cards = cards
        self.prog_refs = []
        self.ref_progs = {}
        memset(&self.tb, 0, sizeof(Tables))
        T = len(cards.units)
        if (T > MAX_T or sum(u.copies for u in cards.units) + sum(n for _, n in cards.ablated) > NCARDS
                or len(cards.rewards) != NTILES):
            raise UsageError(f"cards: the core needs at most {NCARDS} cards of at most {MAX_T} designs and {NTILES} tiles")
        # the longest list of legal moves is an offering (pass, then per unit in hand its offers and
        # up to 3 builds), written with up to max_offering spare entries: it must fit the move buffers
        if 1 + sum(u.offering + 4 for u in cards.units) + max(u.offering for u in cards.units) > MAX_MOVES:
            raise UsageError(f"cards: the units' OFFERING values are too large for the core's {MAX_MOVES}-move lists")
        self.tb.T = T
        self.tb.n_tiles = len(cards.rewards)
        self._code_n = 0
        for u in cards.units:
            t = u.index
            for name, value in (("cost", u.cost), ("strength", u.strength), ("offering", u.offering)):
                if value > 31:
                    raise UsageError(f"cards: unit {u.name!r}: {name} {value} is above the core's limit of 31")
            self.tb.cost[t] = u.cost
            self.tb.strength[t] = u.strength
            self.tb.offering[t] = u.offering
            self.tb.max_offering = max(self.tb.max_offering, u.offering)
            self.tb.size[t] = u.size
            self.tb.colossal[t] = 0xFF if u.size == 2 else 0
            bit = <uint64_t>1 << t  # a 64-bit set: units 31 to 47 too
            self.tb.colossal_set |= bit if u.size == 2 else 0
            self.tb.devotion[t] = _DEVOTION[u.devotion]
            for g in range(2):
                self.tb.devoted[g][t] = self.tb.devotion[t] in (g, 2)
                if self.tb.devoted[g][t]:
                    self.tb.devoted_set[g] |= bit
                    if u.reinforce:
                        self.tb.reinforcer_set[g] |= bit
            for f, code in _FILTERS.items():
                self.tb.passes[code][t] = (f == "any" or (f == "neutral" and u.devotion == "neutral")
                                           or (f == "treasured" and u.treasured)
                                           or (f in GODS and self.tb.devoted[_GOD_INDEX[f]][t]))
                self.tb.filter_set[code] |= <uint64_t>self.tb.passes[code][t] << t
            self.tb.maneuver_set |= bit if u.maneuver else 0
            self.tb.treasured[t] = u.treasured
            self.tb.enduring[t] = u.enduring
            self.tb.invocation[t] = bool(u.invocation)
            self.tb.maneuver[t] = u.maneuver
            self.tb.copies[t] = u.copies
            self.tb.dealt[t] = u.copies + dict(cards.ablated).get(t, 0)
            self.tb.prog_reinforce[t] = self._compile(("unit", t, "reinforce")) if u.reinforce else -1
            self.tb.prog_invocation[t] = self._compile(("unit", t, "invocation")) if u.invocation else -1
            self.tb.prog_labor[t] = self._compile(("unit", t, "labor")) if u.labor else -1
            self.tb.prog_maneuver[t] = self._compile(("maneuver", t)) if u.maneuver else -1
            self.tb.prog_built[t] = self._compile(("built", t))
        for r in cards.rewards:
            self.tb.prog_reward[r.index] = self._compile(("reward", r.index))
        for st in cards.structures:
            g = _GOD_INDEX[st.god]
            if st.build > 255 or st.vp > 255:
                raise UsageError(f"cards: structure {st.name!r}: BUILD and VP must be below 256")
            self.tb.build[g][st.slot] = st.build
            self.tb.vp[g][st.slot] = st.vp
            self.tb.prog_structure[g][st.slot] = self._compile(("structure", st.index))
        self.tb.prog_reinforce_choice = self._compile(("reinforce",))
        self._compile_more()

    def _compile_more(self):
        """What a core that adds to Heir compiles beyond Heir's tables (Heir: nothing)."""

    cdef public int _code_n

    def _compile(self, ref):
        """Compile the effect list ``ref`` (and everything nested in it); returns its program id."""
        effects = program(self.cards, ref)
        prog = len(self.prog_refs)
        if prog >= MAX_PROGS or self._code_n + len(effects) > MAX_CODE:
            raise UsageError("cards: the abilities are too many for the core's tables")
        self.prog_refs.append(ref)
        self.ref_progs[ref] = prog
        start = self._code_n
        self.tb.prog_start[prog] = start
        self.tb.prog_len[prog] = len(effects)
        self._code_n += len(effects)
        for i, e in enumerate(effects):
            self._instr(start + i, ref, i, e)
        return prog

    def _instr(self, int at, ref, int i, e):
        cdef Instr* x = &self.tb.code[at]
        for name, value in (("n", e.n), ("draw_each", e.draw_each), ("take", e.take)):
            if value > 63:
                raise UsageError(f"cards: an effect's {name} of {value} is above the core's limit of 63")
        x.op = _OP_CODES[e.op]
        x.n = e.n
        x.filter = _FILTERS[e.filter]
        x.side = 0 if e.side == "own" else 1
        x.where = 1 if e.where == "this_city" else 0
        x.up_to = e.up_to
        x.mode = 1 if e.mode == "maneuver" else 0
        x.draw_each = e.draw_each
        x.take = e.take
        x.steal_if = 1 + _GOD_INDEX[e.steal_if] if e.steal_if else 0
        x.then_prog = self._compile(ref + (i, "then")) if e.op in ("steal_unit", "if_favored") else -1
        if len(e.options) > MAX_OPTIONS:
            raise UsageError(f"cards: at most {MAX_OPTIONS} options in a 'choose'")
        x.n_options = len(e.options)
        for k in range(len(e.options)):
            x.option_prog[k] = self._compile(ref + (i, k))

    # -- moves at the edge (a Move is matched to a packed id through the legal list: CoreState.move_id)

    def int_to_move(self, int m, player_god: str, options=()) -> Move:
        verb = tuple(VERBS)[m_verb(m)]
        shape = VERBS[verb]
        a = m_a(m)
        kw = {}
        if "card" in shape:
            if verb == "use":
                kw["card"] = self.cards.rewards[a].name
            elif verb == "structure":
                kw["card"] = self.cards.structures_of(player_god)[a].name
            else:
                kw["card"] = self.cards.units[a].name
        if "city" in shape:
            kw["city"] = m_city(m)
        if "to" in shape:
            kw["to"] = m_to(m)
        if "target" in shape:
            kw["target"] = self.cards.structures_of(player_god)[m_target(m)].name
        if "label" in shape:
            kw["label"] = options[a].label
        if "draw" in shape:
            kw["draw"] = m_draw(m)
            kw["coin"] = m_coin(m)
        return Move(verb, **kw)


_TABLES = {}


def _level_code(config) -> int:
    """The State's ``level`` byte: 0 for two players, 1 + the level's index in the solo game."""
    return 0 if config.level is None else 1 + LEVELS.index(config.level)


def tables_for(cards) -> CoreTables:
    """The compiled tables of a card set (compiled once per set)."""
    key = cards.sha256
    if key not in _TABLES:
        _TABLES[key] = TABLES(cards)
    return _TABLES[key]


cdef class CoreState:
    """A game on the Cython core, with the same State interface as the reference engine.

    ``clone()`` copies the one flat struct (the clone starts with an empty undo history);
    ``apply``/``undo`` keep a trail of (offset, width, old bytes) records owned by the state.
    """

    cdef State s
    cdef Trail tr
    cdef CoreTables tables
    cdef int32_t* hist
    cdef int* marks
    cdef int hist_n, hist_cap
    cdef public object seed
    cdef list _moves
    cdef Setup deal               # what game_handle lends: this game's set-up, ...
    cdef GameHandle handle        # ... and the C contract with the search

    def __cinit__(self):
        self.tr.off = NULL
        self.tr.width = NULL
        self.tr.old = NULL
        self.tr.n = 0
        self.tr.cap = 0
        self.tr.enabled = 1
        self.hist = NULL
        self.marks = NULL
        self.hist_n = 0
        self.hist_cap = 0
        self._moves = []

    def __dealloc__(self):
        free(self.tr.off)
        free(self.tr.width)
        free(self.tr.old)
        free(self.hist)
        free(self.marks)

    # -- construction

    @classmethod
    def new(cls, seed: int = 0, cards=None, config=None) -> CoreState:
        """Set up a game exactly as ``GameState.new`` does for the same seed (dealt in C)."""
        cdef CoreState core = cls.__new__(cls)
        cards, config = DEAL(cards, config)
        Rng(seed)  # validates the seed
        core.tables = tables_for(cards)
        core._config = config
        core.seed = seed
        setup(&core.tables.tb, &core.s, seed, _GOD_INDEX[config.gods[0]], config.first_player,
              config.emissary, config.max_turns, _level_code(config))
        core._grow()
        return core

    @classmethod
    def from_state(cls, state) -> CoreState:
        """The same position on the core (from a reference ``GameState`` or another view); with no
        decision pending, the core's rules run on to the next one."""
        cdef CoreState core = cls.__new__(cls)
        cdef State* s = &core.s
        cdef Ctx ctx
        cdef int p, c, t, k
        tables = tables_for(state.cards)
        core.tables = tables
        core.seed = getattr(state, "seed", None)
        memset(s, 0, sizeof(State))
        T = len(state.cards.units)
        if len(state.deck) > NCARDS or len(state.discard) > NCARDS:
            raise UsageError(f"state: more than {NCARDS} cards in the deck or discard pile")
        for k, t in enumerate(state.deck):
            s.deck[k] = t
        s.deck_n = len(state.deck)
        for k, t in enumerate(state.discard):
            s.discard[k] = t
        s.discard_n = len(state.discard)
        for p in range(2):
            for t in range(T):
                s.hands[p][t] = state.hands[p][t]
                s.known[p][t] = state.known[p][t]
                s.under[p][t] = state.under[p][t]
                s.destroyed[p][t] = state.destroyed[p][t]
                for c in range(NCITIES):
                    s.cities[c][p][t] = state.cities[c][p][t]
            s.unused[p] = sum(1 << r for r in state.unused[p])
            s.used[p] = sum(1 << r for r in state.used[p])
            s.building[p] = state.building[p]
            for k in range(3):
                s.completed[p][k] = state.completed[p][k]
            s.coins[p] = state.coins[p]
            s.emissaries[p] = state.emissaries[p]
            s.gods[p] = _GOD_INDEX[state.config.gods[p]]
        for t in range(T):
            s.revealed[t] = state.revealed[t]
            s.limbo[t] = state.limbo[t]
        for c in range(NCITIES):
            s.city_tiles_n[c] = len(state.city_tiles[c])
            for k, r in enumerate(state.city_tiles[c]):
                s.city_tiles[c][k] = r
        if len(state.stack) > MAX_STACK:
            raise UsageError("state: too many effect frames for the core")
        for k, frame in enumerate(state.stack):
            core._load_frame(k, frame)
        s.stack_n = len(state.stack)
        s.pending.kind = DK_NONE
        if state.pending is not None:
            core._load_decision(&s.pending, &s.moved[0][0], state.pending)
        s.active = state.active
        s.turn = state.turn
        s.first_turn = state.first_turn
        s.discount_used = state.discount_used
        s.reward_used = state.reward_used
        s.reveal_again_used = state.reveal_again_used
        s.war_city = state.war_city
        s.war_victor = state.war_victor
        s.keep_step = state.keep_step
        s.ply = state.ply
        s.favor = _GOD_INDEX[state.favor]
        s.phase = PHASES.index(state.phase)
        for k in range(4):
            s.rng[k] = state.rng.s[k]
        s.first_player = state.config.first_player
        s.emissary = state.config.emissary
        s.max_turns = state.config.max_turns
        s.level = _level_code(state.config)
        s.reserve = state.reserve
        core._config = state.config
        core._load_more(state)
        core._grow()
        ctx = core._ctx()
        ctx.tr = NULL
        run(&ctx)  # a state left in an automatic phase (load_position(settle=False)) goes on, on the core
        return core

    cdef public object _config

    def _load_frame(self, int k, frame):
        """Effect frame ``k`` of a reference state's stack."""
        ref, index, owner, city = frame
        self.s.stack[k].prog = self.tables.ref_progs[tuple(ref)]
        self.s.stack[k].pc = index
        self.s.stack[k].owner = owner
        self.s.stack[k].city = city

    cdef _load_decision(self, Decision* out, uint8_t* moved_by_city, d):
        """A :class:`Pending` into ``out``, the units it has moved into ``moved_by_city`` (NCITIES x MAX_T counts)."""
        T = self.tables.tb.T
        out.kind = DECISION_NAMES.index(d.kind)
        out.player = d.player
        out.owner = d.owner
        out.n = d.n
        out.last = d.last
        out.card = d.card
        out.city = d.city
        out.prog = self.tables.ref_progs[tuple(d.ref)] if d.ref else -1
        out.index = d.index
        for k in d.moved:
            moved_by_city[(k // T) * MAX_T + k % T] += 1

    def _load_more(self, state):
        """What a core that adds to Heir reads of a reference state beyond Heir's parts (Heir: nothing)."""

    cdef int _grow(self) except -1:
        """Make room for one more move in the trail and history (never inside the C loops)."""
        cdef int cap
        trail_reserve(&self.tr, TRAIL_MARGIN)
        if self.hist_n >= self.hist_cap:
            cap = max(64, 2 * self.hist_cap)
            hist = <int32_t*>realloc(self.hist, cap * sizeof(int32_t))
            if hist == NULL:
                raise MemoryError()
            self.hist = hist
            marks = <int*>realloc(self.marks, cap * sizeof(int))
            if marks == NULL:
                raise MemoryError()
            self.marks = marks
            self.hist_cap = cap
        return 0

    cdef Ctx _ctx(self) noexcept nogil:
        cdef Ctx c
        c.tb = &self.tables.tb
        c.s = &self.s
        c.tr = &self.tr
        return c

    # -- the State interface

    @property
    def cards(self):
        return self.tables.cards

    @property
    def config(self):
        return self._config

    @property
    def units(self):
        return self.tables.cards.units

    @property
    def T(self):
        return self.tables.tb.T

    @property
    def current_player(self) -> int:
        return self.s.pending.player if self.s.pending.kind != DK_NONE else -1

    def is_terminal(self) -> bool:
        return self.s.phase == PH_GAME_OVER

    def _options(self):
        cdef Decision* d = &self.s.pending
        if d.kind == DK_CHOOSE:
            return program(self.cards, self.tables.prog_refs[d.prog])[d.index].options
        return ()

    def legal_move_ids(self) -> list:
        """The legal moves as packed integers, in generation order."""
        cdef int32_t buf[MAX_MOVES]
        cdef Ctx c = self._ctx()
        cdef int n, i
        if self.s.pending.kind == DK_NONE:
            return []
        n = gen_moves(&c, &self.s.pending, buf)
        return [buf[i] for i in range(n)]

    def legal_moves(self) -> list:
        """Every legal move of the current player, in the reference engine's order."""
        if self.s.pending.kind == DK_NONE:
            return []
        god = self.config.gods[self.s.pending.player]
        options = self._options()
        return [self.tables.int_to_move(m, god, options) for m in self.legal_move_ids()]

    def move_id(self, move) -> int:
        """The packed integer of a legal move; raises :class:`IllegalMoveError` if it is not legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        ids = self.legal_move_ids()
        moves = self.legal_moves()
        for i, m in enumerate(moves):
            if m == move:
                return ids[i]
        who = f"player {self.current_player}" if ids else "nobody (the game is over)"
        raise IllegalMoveError(f"ply {self.s.ply}: {who} cannot play {str(move)!r} here")

    def apply(self, move) -> None:
        """Play ``move`` (a :class:`Move` or its notation) after checking it is legal.

        Raises :class:`IllegalMoveError` naming the move, the player and the ply."""
        if isinstance(move, str):
            move = Move.parse(move)
        self.apply_id(self.move_id(move))

    def apply_trusted(self, move) -> None:
        """Same as :meth:`apply` (the core's unchecked door is :meth:`apply_id`)."""
        self.apply(move)

    @property
    def moves(self) -> list:
        """The moves played since this state was made (or cloned), oldest first."""
        return list(self._moves)

    cpdef apply_id(self, int32_t m):
        """Play a packed move that is legal (from :meth:`legal_move_ids`); kept on the undo trail."""
        cdef Ctx c
        self._grow()
        self.marks[self.hist_n] = self.tr.n
        self.hist[self.hist_n] = m
        self.hist_n += 1
        self._moves.append(self.tables.int_to_move(m, self.config.gods[self.s.pending.player], self._options()))
        c = self._ctx()
        do_move(&c, m)
        if self.tr.enabled == 2:
            raise MemoryError("undo trail overflow")

    def undo(self):
        """Take back the last move (since creation or the last clone) and return it."""
        if self.hist_n == 0:
            raise IndexError("undo: no move to take back")
        self.hist_n -= 1
        trail_undo(&self.s, &self.tr, self.marks[self.hist_n])
        return self._moves.pop()

    def state_bytes(self) -> bytes:
        """The flat state's bytes (what a clone copies): equal bytes, equal games."""
        return (<char*>&self.s)[:sizeof(State)]

    def clone(self) -> CoreState:
        """An independent copy: one memcpy of the state; the copy has no undo history."""
        cdef CoreState other = (CoreState.__new__(CoreState) if type(self) is CoreState  # the fast door
                                else type(self).__new__(type(self)))
        clone_state(&other.s, &self.s)
        other.tables = self.tables
        other._config = self._config
        other.seed = self.seed
        other._grow()
        return other

    def __copy__(self) -> CoreState:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> CoreState:
        """copy.deepcopy is a clone (frameworks such as OpenSpiel copy states this way)."""
        return self.clone()

    def determinized(self, int player, seed: int = 0) -> CoreState:
        """A copy in which everything ``player`` cannot see is dealt again at random (uniformly
        among exactly the unseen cards and tiles): ``player`` observes the copy exactly as this state."""
        cdef uint64_t rng[4]
        cdef CoreState other
        if player not in (0, 1):
            raise UsageError(f"player: must be 0 or 1, got {player!r}")
        Rng(seed)  # validates the seed
        rng_seed(rng, seed)
        other = self.clone()
        determinize(&self.tables.tb, &other.s, player, rng)
        return other

    def scores(self):
        return (score(&self.tables.tb, &self.s, 0), score(&self.tables.tb, &self.s, 1))

    def winner(self):
        if self.s.phase != PH_GAME_OVER:
            return None
        return winner(&self.tables.tb, &self.s)

    def returns(self):
        w = self.winner()
        return (0.0, 0.0) if w is None else (float(w == 0), float(w == 1))

    def observation(self, int player):
        return observe(self, player)

    def playout(self, seed: int = 0):
        """Play this game to the end with uniformly random moves (the same choices as
        ``RandomBot(seed)``); returns the scores. Runs without the GIL; the undo history is cleared."""
        cdef uint64_t policy[4]
        rng_seed(policy, seed)
        self.hist_n = 0
        self.tr.n = 0
        self._moves = []
        with nogil:
            random_playout(&self.tables.tb, &self.s, policy, NULL)
        return self.scores()

    def game_handle(self):
        """The C contract with the search (``ext/common/game_api.pxd``): a capsule pointing at this
        state, its compiled card set and its set-up, valid while this object lives."""
        self.deal.god0 = self.s.gods[0]
        self.deal.first_player = self.s.first_player
        self.deal.emissary = self.s.emissary
        self.deal.max_turns = self.s.max_turns
        self.deal.level = self.s.level
        self.handle.api = &CORE_API
        self.handle.tables = &self.tables.tb
        self.handle.config = &self.deal
        self.handle.state = &self.s
        return PyCapsule_New(&self.handle, GAME_HANDLE_NAME, NULL)

    # -- views with the reference engine's attribute names (games.heir.observe reads these)

    def hand_size(self, int p) -> int:
        return hand_size(&self.tables.tb, &self.s, p)

    def side_count(self, int city, int p) -> int:
        return side_count(&self.tables.tb, &self.s, city, p)

    def strength(self, int city, int p) -> int:
        return strength(&self.tables.tb, &self.s, city, p)

    def supply(self) -> int:
        return supply(&self.s)

    def war_torn_cities(self) -> list:
        """H-war-1: the cities that would go to war in this turn's War step, as things stand."""
        cdef int torn[NCITIES]
        cdef int n = war_torn(&self.tables.tb, &self.s, torn)
        return [torn[i] for i in range(n)]

    def _structure(self, int p, int slot):
        return self.cards.structures_of(self.config.gods[p])[slot]

    @property
    def deck(self):
        return [self.s.deck[i] for i in range(self.s.deck_n)]

    @property
    def discard(self):
        return [self.s.discard[i] for i in range(self.s.discard_n)]

    @property
    def city_tiles(self):
        return [[self.s.city_tiles[c][i] for i in range(self.s.city_tiles_n[c])] for c in range(NCITIES)]

    @property
    def hands(self):
        cdef int T = self.tables.tb.T
        return [[self.s.hands[p][t] for t in range(T)] for p in range(2)]

    @property
    def known(self):
        cdef int T = self.tables.tb.T
        return [[self.s.known[p][t] for t in range(T)] for p in range(2)]

    @property
    def under(self):
        cdef int T = self.tables.tb.T
        return [[self.s.under[p][t] for t in range(T)] for p in range(2)]

    @property
    def destroyed(self):
        cdef int T = self.tables.tb.T
        return [[self.s.destroyed[p][t] for t in range(T)] for p in range(2)]

    @property
    def cities(self):
        cdef int T = self.tables.tb.T
        return [[[self.s.cities[c][p][t] for t in range(T)] for p in range(2)] for c in range(NCITIES)]

    @property
    def revealed(self):
        cdef int T = self.tables.tb.T
        return [self.s.revealed[t] for t in range(T)]

    @property
    def limbo(self):
        cdef int T = self.tables.tb.T
        return [self.s.limbo[t] for t in range(T)]

    @property
    def building(self):
        return [self.s.building[0], self.s.building[1]]

    @property
    def completed(self):
        return [[bool(self.s.completed[p][k]) for k in range(3)] for p in range(2)]

    @property
    def unused(self):
        return [[r for r in range(NTILES) if self.s.unused[p] & (1 << r)] for p in range(2)]

    @property
    def used(self):
        return [[r for r in range(NTILES) if self.s.used[p] & (1 << r)] for p in range(2)]

    @property
    def coins(self):
        return [self.s.coins[0], self.s.coins[1]]

    @property
    def emissaries(self):
        return [self.s.emissaries[0], self.s.emissaries[1]]

    @property
    def stack(self):
        return [(self.tables.prog_refs[self.s.stack[k].prog], self.s.stack[k].pc, self.s.stack[k].owner,
                 self.s.stack[k].city) for k in range(self.s.stack_n)]

    @property
    def pending(self):
        if self.s.pending.kind == DK_NONE:
            return None
        return self._pending(&self.s.pending, &self.s.moved[0][0])

    cdef _pending(self, const Decision* d, const uint8_t* moved_by_city):
        """``d`` as a :class:`Pending`, with the units moved (``moved_by_city``: NCITIES x MAX_T counts)."""
        T = self.tables.tb.T
        moved = tuple(c * T + t for c in range(NCITIES) for t in range(T) for _ in range(moved_by_city[c * MAX_T + t]))
        return Pending(DECISION_NAMES[d.kind], d.player, d.owner, d.n, d.last, d.card, d.city,
                       self.tables.prog_refs[d.prog] if d.prog >= 0 else (), d.index, moved)

    @property
    def active(self):
        return self.s.active

    @property
    def turn(self):
        return self.s.turn

    @property
    def first_turn(self):
        return bool(self.s.first_turn)

    @property
    def discount_used(self):
        return bool(self.s.discount_used)

    @property
    def reward_used(self):
        return bool(self.s.reward_used)

    @property
    def reveal_again_used(self):
        return bool(self.s.reveal_again_used)

    @property
    def war_city(self):
        return self.s.war_city

    @property
    def war_victor(self):
        return self.s.war_victor

    @property
    def keep_step(self):
        return self.s.keep_step

    @property
    def ply(self):
        return self.s.ply

    @property
    def favor(self):
        return GODS[self.s.favor]

    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def reserve(self):
        return self.s.reserve

    @property
    def rng(self):
        return Rng.from_state([self.s.rng[k] for k in range(4)])


