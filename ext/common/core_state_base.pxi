# The Python side of a core's state, written once: the State interface (omen_search/state.py's
# CoreState protocol) on top of the core's own GameApi table, so a core's state class only says
# where its flat struct, tables and set-up are and adds its own fields. OMEGA's and OMNIA's states
# derive from CoreStateBase. Include it after undo_history.pxi, in a module that cimports
# PyCapsule_New, uint64_t, int32_t, rng_seed, GAME_HANDLE_NAME, GameHandle, MAX_PLAYERS and
# SEARCH_MAX_MOVES and imports IllegalMoveError, NotationError, UsageError, Rng, its game's Move
# (with Move.parse) and observe: the class names them as the including module's globals.


cdef class CoreStateBase(UndoHistory):
    """The State interface of a core's state, through its GameApi table; a game's state class
    supplies the hooks below (its GameHandle, the ply, a move id's Move, a copy) and, if it has any,
    its own refusals after a move (``_after_play``)."""

    cdef readonly object config
    cdef public object seed
    cdef GameHandle handle        # what game_handle lends: the C contract with the search

    # -- the hooks a game's state class overrides

    cdef int _lend(self, GameHandle* h) except -1:
        """Fill ``h`` with this game's GameApi table (for its player count), its compiled tables,
        its set-up and its flat struct: what the search is lent, and what the methods here call."""
        raise NotImplementedError

    cdef int _ply(self) noexcept:
        """Moves played since the deal (the errors name it)."""
        return 0

    cdef object _decode(self, int32_t m):
        """The Move of a packed move id."""
        raise NotImplementedError

    cdef CoreStateBase _copy(self):
        """A new state of the game's class with this one's flat struct, tables and set-up (clone
        adds the rest)."""
        raise NotImplementedError

    cdef int _after_play(self) except -1:
        """After a move's trail is written: a game refuses here (taking the move back) what its
        core cannot hold."""
        return 0

    # -- the State interface

    @property
    def n(self) -> int:
        cdef GameHandle h
        self._lend(&h)
        return h.api.num_players

    @property
    def players(self) -> int:
        return self.n

    @property
    def ply(self) -> int:
        return self._ply()

    @property
    def current_player(self) -> int:
        cdef GameHandle h
        self._lend(&h)
        return h.api.to_move(h.tables, h.state)

    def is_terminal(self) -> bool:
        return self.current_player == -1

    def legal_move_ids(self) -> list:
        """The legal moves as packed ids, in the reference engine's order."""
        cdef int32_t buf[SEARCH_MAX_MOVES]
        cdef GameHandle h
        cdef int n, i
        self._lend(&h)
        n = h.api.legal_moves(h.tables, h.state, buf)
        return [buf[i] for i in range(n)]

    def legal_moves(self) -> list:
        return [self._decode(m) for m in self.legal_move_ids()]

    cdef str _who(self):
        """Who is to move, for an error message."""
        player = self.current_player
        return f"seat {player}" if player != -1 else "nobody (the game is over)"

    def move_id(self, move) -> int:
        """The id of a legal move (a :class:`Move` or its notation); raises :class:`IllegalMoveError`
        naming the move, the player and the ply, as the reference does."""
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except NotationError as exc:
                raise IllegalMoveError(f"ply {self._ply()}: {exc}") from None
        for m in self.legal_move_ids():
            if self._decode(m) == move:
                return m
        raise IllegalMoveError(f"ply {self._ply()}: {move} is not legal for {self._who()} here")

    def apply(self, move) -> None:
        """The checked door; raises :class:`IllegalMoveError` and changes nothing then."""
        self._play(self.move_id(move))

    def apply_trusted(self, move) -> None:
        self._play(self.move_id(move))

    def apply_id(self, int32_t m) -> None:
        """Play a move id from :meth:`legal_move_ids` (checked: an id that is not legal here raises
        :class:`IllegalMoveError`)."""
        if m not in self.legal_move_ids():
            raise IllegalMoveError(f"ply {self._ply()}: move id {m} is not legal for {self._who()} here")
        self._play(m)

    cdef int _play(self, int32_t m) except -1:
        cdef GameHandle h
        self._lend(&h)
        self._begin_move(self._decode(m), h.api.trail_per_move)
        h.api.apply(h.tables, h.state, m, &self.tr)
        if self.tr.enabled == 2:
            raise RuntimeError("undo trail overflow (TRAIL_PER_MOVE too small)")
        return self._after_play()

    def undo(self):
        """Take back the last move (since the deal or the clone) and return it."""
        cdef GameHandle h
        self._lend(&h)
        return self._take_back(h.state)

    def trail_records(self) -> int:
        """Trail records held (to measure what one apply writes)."""
        return self.tr.n

    def clone(self):
        """An independent copy: one struct copy; it keeps the moves, not the undo history."""
        cdef CoreStateBase other = self._copy()
        other.config = self.config
        other.seed = self.seed
        other._moves = list(self._moves)
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo: dict):
        return self.clone()

    def determinized(self, player: int, seed: int = 0):
        """A copy with everything ``player`` cannot see dealt again (the game's ``determinize`` in C)."""
        cdef uint64_t rng[4]
        cdef GameHandle h
        cdef int n = self.n
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise UsageError(f"player: a seat from 0 to {n - 1}, got {player!r}")
        Rng(seed)  # validates the seed
        rng_seed(rng, seed)
        other = self.clone()
        (<CoreStateBase>other)._lend(&h)
        h.api.determinize(h.tables, h.state, player, rng)
        return other

    def scores(self) -> tuple:
        """Each player's score on the board as it stands (the game's ``scores`` in C)."""
        cdef int32_t out[MAX_PLAYERS]
        cdef GameHandle h
        self._lend(&h)
        h.api.scores(h.tables, h.state, out)
        return tuple(out[p] for p in range(h.api.num_players))

    def returns(self) -> tuple:
        """Each player's reward, from 0 (loss) to 1 (win) (the game's ``returns`` in C)."""
        cdef double out[MAX_PLAYERS]
        cdef GameHandle h
        self._lend(&h)
        h.api.returns(h.tables, h.state, out)
        return tuple(out[p] for p in range(h.api.num_players))

    def observation(self, int player) -> dict:
        return observe(self.view(), player)

    def playout(self, seed: int = 0) -> tuple:
        """Play on to the end with uniformly random moves (``RandomBot(seed)``'s); returns the
        scores. The undo history is cleared."""
        cdef uint64_t policy[4]
        cdef GameHandle h
        Rng(seed)
        rng_seed(policy, seed)
        self._forget()
        self._lend(&h)
        with nogil:
            h.api.rollout(h.tables, h.state, policy, NULL)
        return self.scores()

    def state_bytes(self) -> bytes:
        """The flat struct, byte for byte (to check that undo restores it exactly)."""
        cdef GameHandle h
        self._lend(&h)
        return (<char*>h.state)[:h.api.state_size]

    def game_handle(self):
        """The C contract with the search: a capsule pointing at this state and its set-up,
        valid while this object lives."""
        self._lend(&self.handle)
        return PyCapsule_New(&self.handle, GAME_HANDLE_NAME, NULL)
