# cython: language_level=3
"""The Cython core of Omen: A Reign of War, in one flat C struct.

A line-by-line port of the reference engine (``omen_search/games/reign/reference.py``): same phases,
same stack, same decisions, same generation order of legal moves, same random generator drawn in the
same order, so that a seed and a list of moves are the same game on both engines (checked by
``tests/test_reign_core.py``). The C part (the included ``.pxi`` files, by concern) runs without the
GIL and without Python objects; this file is the Python edge. The search (``ext/search/_search.pyx``)
reaches the game only through ``game_api.pxi``, its side of the contract in ``ext/common/game_api.pxd``.

Moves are packed ``int32`` ids, laid out as :mod:`omen_search.games.reign.encoding` documents.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcmp, memcpy, memmove, memset
from cpython.pycapsule cimport PyCapsule_New

from core_state cimport *
from game_api cimport GAME_HANDLE_NAME, HIDDEN_MOVE, SEARCH_MAX_MOVES, GameApi, GameHandle
from omen_rng cimport rng_below, rng_next, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, Trail, trail_log, trail_reserve, trail_undo

from omen_search.errors import IllegalMoveError, UsageError
from omen_search.games.melee import rules as _melee_rules
from omen_search.games.melee.observe import observe as _melee_observe
from omen_search.games.reign import cards as _cards
from omen_search.games.reign import rules as _rules
from omen_search.games.reign.cards import CardSet, default_cards
from omen_search.games.reign.encoding import MoveCodec
from omen_search.games.reign.notation import VERBS, Move
from omen_search.games.reign.observe import observe
from omen_search.games.reign.rules import DECISIONS, PHASES, Config, Pending, check_decks
from omen_search.limits import TURNS
from omen_search.rng import Rng

include "codes.pxi"
include "primitives.pxi"       # packed moves, the trail, units and zones
include "legal_moves.pxi"      # every decision's legal moves, in the reference engine's order
include "effects.pxi"          # the stack and the effect ops
include "phases.pxi"           # drafts, set-up steps and the turn's automatic phases
include "decisions.pxi"        # playing a move
include "scoring.pxi"          # scores, winner, random playouts
include "setup.pxi"            # dealing a new game
include "determinize.pxi"      # re-dealing what a player cannot see
include "game_api.pxi"         # the game's side of the contract with the search

# ------------------------------------------------------------------------------- Python edge


cdef class CoreTables:
    """A card set compiled for the core, refused with :class:`UsageError` naming the limit it breaks."""

    cdef Tables tb
    cdef readonly object cards
    cdef readonly object codec

    def __init__(self, cards: CardSet):
        cdef int t, r, f, k
        self.cards = cards
        self.codec = MoveCodec(cards)
        memset(&self.tb, 0, sizeof(Tables))
        units, rewards, feats = cards.units, cards.rewards, cards.feats
        if len(units) > MAX_T:
            raise UsageError(f"cards: {len(units)} unit designs, the core holds at most {MAX_T} (MAX_UNIT_DESIGNS)")
        for k, (t, n) in enumerate(cards.ablated):  # D-ablate-1: only as CardSet.without leaves them
            if not (isinstance(t, int) and 0 <= t < len(units) and isinstance(n, int) and n >= 1) or units[t].copies:
                raise UsageError(f"cards: ablated[{k}] is {(t, n)!r}: a design left out (CardSet.without) is one "
                                 "of the set's units, with copies to shuffle in and none of its own")
        dealt = sum(u.copies for u in units) + sum(n for _, n in cards.ablated)
        if dealt > MAX_CARDS:
            raise UsageError(f"cards: {dealt} unit cards (those left out included), the core holds at most "
                             f"{MAX_CARDS} (MAX_UNIT_CARDS)")
        if len(rewards) > MAX_R or sum(r.copies for r in rewards) != NREWARDS:
            raise UsageError(f"cards: the core deals exactly {NREWARDS} reward cards of at most {MAX_R} designs "
                             "(REWARD_CARDS)")
        if len(feats) != NFEATS:
            raise UsageError(f"cards: the core needs exactly {NFEATS} feats (FEATS), got {len(feats)}")
        # the longest legal-move list is an offering: pass, then each design's every split of its value
        if 1 + sum(u.offering + 1 for u in units) > MAX_MOVES:
            raise UsageError(f"cards: the units' OFFERING values are too large for the core's {MAX_MOVES}-move lists")
        self.tb.T = len(units)
        self.tb.R = len(rewards)
        for u in units:
            t = u.index
            for name, value in (("cost", u.cost), ("strength", u.strength), ("offering", u.offering)):
                if not 0 <= value <= _cards.MAX_STAT:
                    raise UsageError(f"cards: unit {u.name!r}: {name} {value} is outside the core's 0 to "
                                     f"{_cards.MAX_STAT} (MAX_STAT)")
            self.tb.type[t] = _TYPES[u.type]
            self.tb.size[t] = 2 if u.type == "beast" else 1
            self.tb.cost[t] = u.cost
            self.tb.strength[t] = u.strength
            self.tb.offering[t] = u.offering
            self.tb.copies[t] = u.copies
            self.tb.dealt[t] = cards.dealt_copies(t)
            self.tb.beginner[t] = u.beginner
            self._compile(t, u.name, u.ability)
        self.tb.left_out = any(u.copies == 0 for u in units)
        for u in units:
            self.tb.type_set[0] |= <uint64_t>1 << u.index
            self.tb.type_set[_TYPES[u.type]] |= <uint64_t>1 << u.index
            for k in range(u.cost, MAX_STAT + 1):
                self.tb.affordable[k] |= <uint64_t>1 << u.index
        for rc in rewards:
            self.tb.reward_copies[rc.index] = rc.copies
            self._compile(MAX_T + rc.index, rc.name, rc.effects)
        for feat in feats:
            f = feat.index
            self.tb.feat_kind[f] = tuple(_cards.CONDITIONS).index(feat.condition.kind)
            self.tb.feat_filter[f] = _FILTERS[feat.condition.filter]
            if not 0 <= feat.condition.n <= _cards.MAX_COUNT:
                raise UsageError(f"cards: feat {feat.name!r}: n is above the core's {_cards.MAX_COUNT} (MAX_COUNT)")
            self.tb.feat_n[f] = feat.condition.n

    def _compile(self, int prog, name, effects):
        cdef Effect* x
        if len(effects) > MAX_EFFECTS:
            raise UsageError(f"cards: {name!r}: {len(effects)} effects, the core holds {MAX_EFFECTS} (MAX_EFFECTS)")
        self.tb.prog_len[prog] = len(effects)
        for i, e in enumerate(effects):
            if not (0 <= e.n <= _cards.MAX_COUNT and 0 <= e.take <= _cards.MAX_COUNT):
                raise UsageError(f"cards: {name!r}: an effect's n or take is above the core's {_cards.MAX_COUNT} "
                                 "(MAX_COUNT)")
            x = &self.tb.code[prog][i]
            x.op = _OP_CODES[e.op]
            x.n = e.n
            x.take = e.take
            x.side = e.side == "opposing"
            x.this_city = e.where == "this_city"
            x.filter = _FILTERS[e.filter]
            x.out_of_city = e.mode == "out_of_this_city"
            x.to_city = e.to == "this_city"
            x.up_to = e.up_to


assert TURNS[1] <= 65535  # Setup.max_turns and State.turn are 16-bit: Config's own check keeps them in range

_TABLES: dict = {}


def tables_for(cards: CardSet) -> CoreTables:
    """The compiled tables of a card set (compiled once per set)."""
    if cards.sha256 not in _TABLES:
        _TABLES[cards.sha256] = CoreTables(cards)
    return _TABLES[cards.sha256]


cdef int setup_of(CoreTables tables, config, Setup* cfg) except -1:
    """A ``Config`` as the core deals it; raises :class:`UsageError` for one the card set cannot hold."""
    check_decks(tables.cards, config)
    if not 1 <= config.max_turns <= 65535:
        raise UsageError(f"max_turns: the core counts turns to 65535, got {config.max_turns}")
    memset(cfg, 0, sizeof(Setup))
    cfg.first_player = config.first_player
    cfg.emissary = config.emissary
    cfg.beginner = config.beginner
    cfg.deck = _rules.DECKS.index(config.deck)
    cfg.catch_up = config.catch_up
    cfg.max_turns = config.max_turns
    cfg.coin_supply = config.coin_supply  # Config checks it against rules.COIN_SUPPLY, 8 bits
    for p, names in enumerate(config.decks):  # check_decks keeps each count within the card set's copies
        for name in names:
            t = tables.cards.unit(name).index
            cfg.lists[p][t] = tables.tb.copies[t] if config.deck == "build" else cfg.lists[p][t] + 1
    return 0


def _ref(int prog):
    """A program number as the reference engine's ``ref``."""
    if prog < 0:
        return ()
    return ("unit", prog) if prog < MAX_T else ("reward", prog - MAX_T)


cdef object _pending(const Decision* d, int T):
    return Pending(DECISION_NAMES[d.kind], d.player, d.owner, d.n, d.last, d.city, _ref(d.prog), d.index)


def _small(value, most, str what, least=0) -> int:
    """A number of a state that must fit its field."""
    if not least <= value <= most:
        raise UsageError(f"state: {what} is {value!r}, the core holds {least} to {most}")
    return value


cdef int _fill(uint8_t* dst, values, int size, str what, int ids) except -1:
    """A list of card ids into a fixed array of ``size``."""
    if len(values) > size:
        raise UsageError(f"state: {what} holds {len(values)} cards, the core holds {size}")
    for k, v in enumerate(values):
        dst[k] = _small(v, ids - 1, what)
    return 0


cdef int _counts_in(uint8_t* dst, values, int size, str what) except -1:
    """A count array of ``size`` entries (a unit's, a reward card's or a feat's)."""
    if len(values) != size:
        raise UsageError(f"state: {what} has {len(values)} entries for {size}")
    for k, v in enumerate(values):
        dst[k] = _small(v, 255, what)
    return 0


def _tally(ids, int size) -> list:
    counts = [0] * size
    for r in ids:
        counts[_small(r, size - 1, "reward card")] += 1
    return counts


cdef Decision _decision(kind, player, owner, n, last, city, ref, index, int T):
    """A reference ``Pending`` (or an effects frame: ``kind`` None) as the core's decision."""
    cdef Decision out
    out.kind = DECISION_NAMES.index(kind)
    out.player = _small(player, 1, "pending.player", -1)
    out.owner = _small(owner, 1, "pending.owner", -1)
    out.n = _small(n, 255, "pending.n")
    out.last = _small(last, NCITIES * 2 * T, "pending.last")
    out.city = _small(city, NCITIES - 1, "pending.city", -1)
    out.index = _small(index, MAX_EFFECTS, "pending.index", -1)
    out.prog = -1 if not ref else (ref[1] if ref[0] == "unit" else MAX_T + ref[1])
    return out


cdef Decision _pending_in(d, int T):
    return _decision(d.kind, d.player, d.owner, d.n, d.last, d.city, d.ref, d.index, T)


cdef class UndoHistory:
    """The moves a core state has played and its undo trail (one mark of trail records per move),
    owned by the state: what CoreState and the Grand Melee's MeleeCore share."""

    cdef Trail tr
    cdef int* marks
    cdef int hist_n, hist_cap
    cdef list _moves

    def __cinit__(self):
        self.tr.off = NULL
        self.tr.width = NULL
        self.tr.old = NULL
        self.tr.n = 0
        self.tr.cap = 0
        self.tr.enabled = 1
        self.marks = NULL
        self.hist_n = 0
        self.hist_cap = 0
        self._moves = []

    def __dealloc__(self):
        free(self.tr.off)
        free(self.tr.width)
        free(self.tr.old)
        free(self.marks)

    @property
    def moves(self) -> list:
        """The moves played since this state was made (or cloned), oldest first."""
        return list(self._moves)

    cdef int _begin_move(self, move, int margin) except -1:
        """Before a move of at most ``margin`` trail records: room for it (never inside the C
        loops), its mark, and the move in the list."""
        cdef int cap
        trail_reserve(&self.tr, margin)
        if self.hist_n >= self.hist_cap:
            cap = max(64, 2 * self.hist_cap)
            grown = <int*>realloc(self.marks, cap * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.marks = grown
            self.hist_cap = cap
        self.marks[self.hist_n] = self.tr.n
        self.hist_n += 1
        self._moves.append(move)
        return 0

    cdef object _take_back(self, void* state):
        """Undo the last move on ``state`` (the flat struct the trail was written against) and
        return it; ``IndexError`` when there is none."""
        if self.hist_n == 0:
            raise IndexError("undo: no move to take back")
        self.hist_n -= 1
        trail_undo(state, &self.tr, self.marks[self.hist_n])
        return self._moves.pop()

    cdef void _forget(self):
        """No move to take back any more (a playout has rewritten the state)."""
        self.hist_n = 0
        self.tr.n = 0
        self._moves = []


cdef class CoreState(UndoHistory):
    """A game on the Cython core, with the State interface of the reference engine.

    ``clone()`` copies the one flat struct (the clone starts with an empty undo history);
    ``apply``/``undo`` keep a trail of (offset, width, old bytes) records owned by the state.

    >>> s = CoreState.new(seed=7)
    >>> s.current_player, len(s.legal_moves()) > 0
    (0, True)
    """

    cdef State s
    cdef CoreTables tables
    cdef object _config
    cdef public object seed
    cdef Setup deal               # what game_handle lends: this game's set-up, ...
    cdef GameHandle handle        # ... and the C contract with the search

    # -- construction

    @classmethod
    def new(cls, seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> CoreState:
        """Set up a game exactly as ``GameState.new`` does for the same seed (dealt in C).

        Raises :class:`UsageError` for a card set or configuration the core cannot hold."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef Setup cfg
        cards = cards or default_cards()
        config = config or Config()
        Rng(seed)  # validates the seed
        core.tables = tables_for(cards)
        setup_of(core.tables, config, &cfg)
        core._config = config
        core.seed = seed
        setup(&core.tables.tb, &core.s, seed, &cfg)
        return core

    @classmethod
    def from_state(cls, state) -> CoreState:
        """The same position on the core, from a reference ``GameState`` (or anything with its parts);
        with no decision pending, the core's rules run on to the next one. Raises :class:`UsageError`
        for a part the struct cannot hold, naming it."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef State* s = &core.s
        cdef Ctx ctx
        cdef int p, c, k
        core.tables = tables_for(state.cards)
        core._config = state.config
        core.seed = getattr(state, "seed", None)
        memset(s, 0, sizeof(State))
        setup_of(core.tables, state.config, &s.cfg)
        T = core.tables.tb.T
        for p in range(2):
            _fill(s.decks[p], state.decks[p], MAX_CARDS, f"decks[{p}]", T)
            s.deck_n[p] = len(state.decks[p])
            _fill(s.discards[p], state.discards[p], MAX_CARDS, f"discards[{p}]", T)
            s.discard_n[p] = len(state.discards[p])
            _fill(s.drafted[p], state.drafted[p], DRAFT_MAX, f"drafted[{p}]", T)
            s.drafted_n[p] = len(state.drafted[p])
            _counts_in(s.hands[p], state.hands[p], T, f"hands[{p}]")
            _counts_in(s.known[p], state.known[p], T, f"known[{p}]")
            _counts_in(s.packs[p], state.packs[p], T, f"packs[{p}]")
            _counts_in(s.deck_lists[p], state.deck_lists[p], T, f"deck_lists[{p}]")
            _counts_in(s.deck_known[p], state.deck_known[p], T, f"deck_known[{p}]")
            for c in range(NCITIES):
                _counts_in(s.cities[c][p], state.cities[c][p], T, f"cities[{c}][{p}]")
                _counts_in(s.enraged[c][p], state.enraged[c][p], T, f"enraged[{c}][{p}]")
            _counts_in(s.rewards_hand[p], _tally(state.rewards_hand[p], core.tables.tb.R), core.tables.tb.R,
                       f"rewards_hand[{p}]")
            _counts_in(s.rewards_used[p], _tally(state.rewards_used[p], core.tables.tb.R), core.tables.tb.R,
                       f"rewards_used[{p}]")
            _counts_in(s.feats[p], [int(done) for done in state.feats[p]], NFEATS, f"feats[{p}]")
            s.coins[p] = _small(state.coins[p], s.cfg.coin_supply, "coins")
            s.hand_discards[p] = _small(state.hand_discards[p], 255, "hand_discards")
            s.emissaries[p] = _small(state.emissaries[p], T - 1, "emissaries", -1)
            s.chosen[p] = _small(state.chosen[p], T - 1, "chosen", -1)
        for c in range(NCITIES):
            _fill(<uint8_t*>s.city_rewards[c], state.city_rewards[c], REWARDS_PER_CITY, f"city_rewards[{c}]",
                  core.tables.tb.R)
            s.city_rewards_n[c] = len(state.city_rewards[c])
            _counts_in(s.portent_left[c], state.portent_left[c], T, f"portent_left[{c}]")
        _counts_in(s.revealed, state.revealed, T, "revealed")
        _counts_in(s.limbo, state.limbo, T, "limbo")
        _counts_in(s.limbo_enraged, state.limbo_enraged, T, "limbo_enraged")
        _fill(s.pool, state.pool, MAX_CARDS, "pool", T)
        s.pool_n = len(state.pool)
        if len(state.stack) > MAX_STACK:
            raise UsageError(f"stack: {len(state.stack)} entries, the core holds {MAX_STACK} (MAX_STACK)")
        for k, entry in enumerate(state.stack):
            if entry[0] == "effects":
                s.stack[k].kind = FR_EFFECTS
                s.stack[k].d = _decision(None, -1, entry[3], 0, 0, entry[4], entry[1], entry[2], T)
            elif entry[0] == "resume":
                s.stack[k].kind = FR_RESUME
                s.stack[k].d = _pending_in(entry[1], T)
            else:
                s.stack[k].kind = FR_BEAST
        s.stack_n = len(state.stack)
        if state.pending is not None:
            s.pending = _pending_in(state.pending, T)
        s.beast = _small(state.beast, T - 1, "beast", -1)
        s.pot = _small(state.pot, s.cfg.coin_supply, "pot")
        s.beast_abilities = _small(state.beast_abilities, 255, "beast_abilities")
        s.active = _small(state.active, 1, "active")
        s.turn = _small(state.turn, 65535, "turn")
        s.first_turn = state.first_turn
        s.reward_used = state.reward_used
        s.war_city = _small(state.war_city, NCITIES - 1, "war_city", -1)
        s.war_victor = _small(state.war_victor, 1, "war_victor", -1)
        s.keep_step = _small(state.keep_step, 2, "keep_step")
        s.draft_picks = _small(state.draft_picks, 255, "draft_picks")
        s.ply = _small(state.ply, 2 ** 32 - 1, "ply")
        s.phase = PHASES.index(state.phase)
        for k in range(4):
            s.rng[k] = state.rng.s[k]
        recount_sides(&core.tables.tb, s)
        recount_sets(s)
        ctx.tb = &core.tables.tb
        ctx.s = s
        ctx.tr = NULL
        run(&ctx)  # a state left between decisions goes on, on the core
        return core

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
    def T(self) -> int:
        return self.tables.tb.T

    @property
    def current_player(self) -> int:
        return self.s.pending.player if self.s.pending.kind != DK_NONE else -1

    def is_terminal(self) -> bool:
        return self.s.phase == PH_GAME_OVER

    def legal_move_ids(self) -> list:
        """The legal moves as packed ids, in the reference engine's order."""
        cdef int32_t buf[MAX_MOVES]
        cdef int n, i
        if self.s.pending.kind == DK_NONE:
            return []
        n = gen_moves(&self.tables.tb, &self.s, &self.s.pending, buf)
        return [buf[i] for i in range(n)]

    def legal_moves(self) -> list:
        """Every legal move of the current player, in the reference engine's order."""
        decode = self.tables.codec.decode
        return [decode(m) for m in self.legal_move_ids()]

    def move_id(self, move) -> int:
        """The id of a legal move (a :class:`Move` or its notation); raises :class:`IllegalMoveError`
        naming the move, the player and the ply if it is not legal."""
        if isinstance(move, str):
            move = Move.parse(move)
        ids = self.legal_move_ids()
        try:
            m = self.tables.codec.encode(move)
        except Exception:
            m = -1
        if m in ids and self.tables.codec.decode(m) == move:
            return m
        who = f"player {self.current_player}" if ids else "nobody (the game is over)"
        kind = DECISION_NAMES[self.s.pending.kind]
        raise IllegalMoveError(f"ply {self.s.ply}: {who} cannot play {str(move)!r} here"
                               + (f" ({kind} decision; {len(ids)} legal moves)" if kind else ""))

    def apply(self, move) -> None:
        """Play ``move`` (a :class:`Move` or its notation) after checking that it is legal.

        Raises :class:`IllegalMoveError` naming the move, the player and the ply."""
        self.apply_id(self.move_id(move))

    def apply_trusted(self, move) -> None:
        """Play a move known to be legal (the core checks it anyway: its unchecked door is :meth:`apply_id`)."""
        self.apply_id(self.move_id(move))

    cpdef apply_id(self, int32_t m):
        """Play a legal move id (from :meth:`legal_move_ids`), kept on the undo trail."""
        cdef Ctx c
        self._begin_move(self.tables.codec.decode(m), TRAIL_MARGIN)
        c.tb = &self.tables.tb
        c.s = &self.s
        c.tr = &self.tr
        do_move(&c, m)
        if self.tr.enabled == 2:
            raise MemoryError("undo trail overflow")

    def undo(self):
        """Take back the last move (since creation or the last clone) and return it; raises
        ``IndexError`` when there is none."""
        return self._take_back(&self.s)

    def clone(self) -> CoreState:
        """An independent copy: one memcpy of the state; the copy has no undo history."""
        cdef CoreState other = CoreState.__new__(CoreState)
        clone_state(&other.s, &self.s)
        other.tables = self.tables
        other._config = self._config
        other.seed = self.seed
        return other

    def __copy__(self) -> CoreState:
        return self.clone()

    def __deepcopy__(self, memo: dict) -> CoreState:
        return self.clone()

    def determinized(self, player: int, seed: int = 0) -> CoreState:
        """A copy in which everything ``player`` cannot see is dealt again, as the reference engine's
        ``GameState.determinized(player, seed)`` deals it (same draws in the same order)."""
        cdef uint64_t rng[4]
        cdef CoreState other
        if player not in (0, 1) or isinstance(player, bool):
            raise UsageError(f"player: must be 0 or 1, got {player!r}")
        Rng(seed)  # validates the seed
        rng_seed(rng, seed)
        other = self.clone()
        determinize(&self.tables.tb, &other.s, player, rng)
        return other

    def determinize(self, player: int, seed: int = 0) -> CoreState:
        """The same as :meth:`determinized`."""
        return self.determinized(player, seed)

    def scores(self) -> tuple:
        """Victory points of each seat now (R-score-1)."""
        return (score(&self.tables.tb, &self.s, 0), score(&self.tables.tb, &self.s, 1))

    def winner(self):
        """The winning seat once the game is over; ``None`` before, and for a draw (R-score-2)."""
        if self.s.phase != PH_GAME_OVER:
            return None
        w = winner(&self.tables.tb, &self.s)
        return None if w < 0 else w

    def returns(self) -> tuple:
        """1 for the winner and 0 for the loser, a half each for a draw; 0 each while the game goes on."""
        if self.s.phase != PH_GAME_OVER:
            return (0.0, 0.0)
        w = self.winner()
        return (0.5, 0.5) if w is None else (float(w == 0), float(w == 1))

    def observation(self, int player) -> dict:
        return observe(self, player)

    def playout(self, seed: int = 0) -> tuple:
        """Play this game to the end with uniformly random moves (the choices of ``RandomBot(seed)``);
        returns the scores. Runs without the GIL; the undo history is cleared."""
        cdef uint64_t policy[4]
        Rng(seed)
        rng_seed(policy, seed)
        self._forget()
        with nogil:
            random_playout(&self.tables.tb, &self.s, policy)
        return self.scores()

    def game_handle(self):
        """The C contract with the search (``ext/common/game_api.pxd``): a capsule pointing at this
        state, its compiled card set and its set-up, valid while this object lives."""
        self.deal = self.s.cfg
        self.handle.api = &REIGN_API
        self.handle.tables = &self.tables.tb
        self.handle.config = &self.deal
        self.handle.state = &self.s
        return PyCapsule_New(&self.handle, GAME_HANDLE_NAME, NULL)

    def totals_ok(self) -> bool:
        """Whether every running total of the struct (``side_n``) and every set of designs
        (``hand_set``, ``side_set``) equals a recount from the zones: the self-check the tests run at
        every ply."""
        cdef int city, p
        cdef State counted = self.s
        recount_sets(&counted)
        if memcmp(counted.hand_set, self.s.hand_set, sizeof(self.s.hand_set)) or \
                memcmp(counted.side_set, self.s.side_set, sizeof(self.s.side_set)):
            return False
        for city in range(NCITIES):
            for p in range(2):
                if self.s.side_n[city][p] != side_recount(&self.tables.tb, &self.s, city, p):
                    return False
        return True

    def state_bytes(self) -> bytes:
        """The flat state's bytes (what a clone copies): equal bytes, equal games."""
        return (<char*>&self.s)[:sizeof(State)]

    # -- views with the reference engine's attribute names (observe.observe reads these)

    def supply(self) -> int:
        return supply(&self.s)

    def pile(self, int p) -> int:
        return pile(&self.s, p)

    def hand_size(self, int p) -> int:
        return hand_size(&self.tables.tb, &self.s, p)

    def side_count(self, int city, int p) -> int:
        return side_count(&self.tables.tb, &self.s, city, p)

    def strength(self, int city, int p) -> int:
        return strength(&self.tables.tb, &self.s, city, p)

    def feats_done(self, int p) -> int:
        return feats_done(&self.s, p)

    def war_torn_cities(self) -> list:
        cdef int torn[NCITIES]
        cdef int n = war_torn(&self.tables.tb, &self.s, torn)
        return [torn[i] for i in range(n)]

    cdef list _counts(self, const uint8_t* xs):
        return [xs[t] for t in range(self.tables.tb.T)]

    @property
    def decks(self):
        return [[self.s.decks[p][k] for k in range(self.s.deck_n[p])] for p in range(2)]

    @property
    def discards(self):
        return [[self.s.discards[p][k] for k in range(self.s.discard_n[p])] for p in range(2)]

    @property
    def city_rewards(self):
        return [[self.s.city_rewards[c][k] for k in range(self.s.city_rewards_n[c])] for c in range(NCITIES)]

    @property
    def hands(self):
        return [self._counts(self.s.hands[p]) for p in range(2)]

    @property
    def known(self):
        return [self._counts(self.s.known[p]) for p in range(2)]

    @property
    def rewards_hand(self):
        return [[r for r in range(self.tables.tb.R) for _ in range(self.s.rewards_hand[p][r])] for p in range(2)]

    @property
    def rewards_used(self):
        return [[r for r in range(self.tables.tb.R) for _ in range(self.s.rewards_used[p][r])] for p in range(2)]

    @property
    def cities(self):
        return [[self._counts(self.s.cities[c][p]) for p in range(2)] for c in range(NCITIES)]

    @property
    def enraged(self):
        return [[self._counts(self.s.enraged[c][p]) for p in range(2)] for c in range(NCITIES)]

    @property
    def revealed(self):
        return self._counts(self.s.revealed)

    @property
    def limbo(self):
        return self._counts(self.s.limbo)

    @property
    def limbo_enraged(self):
        return self._counts(self.s.limbo_enraged)

    @property
    def beast(self):
        return self.s.beast

    @property
    def coins(self):
        return [self.s.coins[0], self.s.coins[1]]

    @property
    def pot(self):
        return self.s.pot

    @property
    def feats(self):
        return [[bool(self.s.feats[p][f]) for f in range(NFEATS)] for p in range(2)]

    @property
    def hand_discards(self):
        return [self.s.hand_discards[0], self.s.hand_discards[1]]

    @property
    def beast_abilities(self):
        return self.s.beast_abilities

    @property
    def stack(self):
        cdef int k, T = self.tables.tb.T
        cdef Frame* f
        out = []
        for k in range(self.s.stack_n):
            f = &self.s.stack[k]
            if f.kind == FR_EFFECTS:
                out.append(("effects", _ref(f.d.prog), f.d.index, f.d.owner, f.d.city))
            elif f.kind == FR_RESUME:
                out.append(("resume", _pending(&f.d, T)))
            else:
                out.append(("beast",))
        return out

    @property
    def pending(self):
        if self.s.pending.kind == DK_NONE:
            return None
        return _pending(&self.s.pending, self.tables.tb.T)

    @property
    def emissaries(self):
        return [self.s.emissaries[0], self.s.emissaries[1]]

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
    def first_player(self):
        """The seat that took the first turn, ``None`` before it is decided (reference: first_player)."""
        if self.s.phase <= PH_EMISSARY:
            return None
        return self.s.active if self.s.turn % 2 == 1 else 1 - self.s.active

    @property
    def reward_used(self):
        return bool(self.s.reward_used)

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
    def portent_left(self):
        return [self._counts(self.s.portent_left[c]) for c in range(NCITIES)]

    @property
    def pool(self):
        return [self.s.pool[k] for k in range(self.s.pool_n)]

    @property
    def drafted(self):
        return [[self.s.drafted[p][k] for k in range(self.s.drafted_n[p])] for p in range(2)]

    @property
    def packs(self):
        return [self._counts(self.s.packs[p]) for p in range(2)]

    @property
    def chosen(self):
        return [self.s.chosen[0], self.s.chosen[1]]

    @property
    def draft_picks(self):
        return self.s.draft_picks

    @property
    def deck_lists(self):
        return [self._counts(self.s.deck_lists[p]) for p in range(2)]

    @property
    def deck_known(self):
        return [self._counts(self.s.deck_known[p]) for p in range(2)]

    @property
    def ply(self):
        return self.s.ply

    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def rng(self):
        return Rng.from_state([self.s.rng[k] for k in range(4)])


def state_size() -> int:
    """Bytes of the flat state (what a clone copies)."""
    return sizeof(State)


include "melee.pxi"            # the Grand Melee: four players, a draft and four table games
