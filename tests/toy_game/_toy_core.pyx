# cython: language_level=3
"""The Cython core of "tricks": the rules of ``toy_game.reference`` move for move on one flat C
struct, with an undo trail, and its side of the C contract with the search
(``ext/common/game_api.pxd``), so that ``omen_search._search`` plays it as it plays Heir.

Same seed, same game: the deal and the determinisations draw from the project's generator
(``omen_rng``) exactly as the reference draws from ``omen_search.rng.Rng``. The player count is
part of the deal; the contract's table carries it, so there is one table per count.
"""

from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memset

from game_api cimport GAME_HANDLE_NAME, HIDDEN_MOVE, MAX_PLAYERS, MAX_STATS, SEARCH_MAX_MOVES, GameApi, GameHandle
from omen_rng cimport rng_below, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, Trail, trail_log, trail_undo

from omen_search.errors import IllegalMoveError
from omen_search.rng import Rng
from toy_game import vocabulary
from toy_game.observation import observe
from toy_game.vocabulary import Move, check_seat, checked_move, deal_order, hand_size

cdef enum:
    RANKS = 5
    DECK = 15                # 3 suits of RANKS cards; card id = suit * RANKS + rank - 1
    CROWNS = 0               # the suit that scores
    DISCARD = 16             # move id: bits 0-3 the card, bit 4 set for a discard
    CARD_MASK = 15
    MAX_HAND = 5             # the largest hand (two seats)
    MAX_PLIES = 12           # the longest game: seats × hand size (3 × 4 and 4 × 3)
    TRAIL_PER_MOVE = 16      # the most trail records (one a byte) one apply writes (a trick's last card: 15)
    N_STATS = 2              # per iteration: points and tricks the root player took after the root
    # TricksState.where: a hand is its seat (0..3); then
    DISCARDED = MAX_PLAYERS  # + seat: that seat's face-down discard
    UNDEALT = 2 * MAX_PLAYERS
    ON_TABLE = 2 * MAX_PLAYERS + 1  # in the trick being played
    TAKEN = 2 * MAX_PLAYERS + 2     # in a finished trick
    NOBODY = 255             # TricksState.to_move once the game is over

ctypedef struct Deal:
    # the set-up a handle lends the search (what api_new_game deals)
    uint8_t players
    uint8_t hand_size

ctypedef struct TricksState:
    # every byte of a game, no pointers: a clone is a memcpy, the trail undoes any byte
    uint8_t players          # seats, 2..MAX_PLAYERS
    uint8_t hand_size        # cards dealt to each seat
    uint8_t to_move          # the seat to decide, NOBODY once the game is over
    uint8_t leader           # the seat that led the trick being played (and discarded first)
    uint8_t ply              # moves played: the first `players` are the discards
    uint8_t trick_n          # cards in the trick being played
    uint8_t where[DECK]      # each card's place: a seat, DISCARDED + seat, UNDEALT, ON_TABLE, TAKEN
    uint8_t trick[MAX_PLAYERS]    # the trick's cards in order of play (stale past trick_n)
    uint8_t voids[MAX_PLAYERS]    # bit s: the seat did not follow suit s, so holds none
    uint8_t points[MAX_PLAYERS]
    uint8_t history[MAX_PLIES]    # the move ids played, oldest first
    uint8_t movers[MAX_PLIES]     # who played each

ctypedef struct Tracker:
    # one search iteration: points at its start, tricks taken since (stepped after every move)
    uint8_t points[MAX_PLAYERS]
    uint8_t tricks[MAX_PLAYERS]


# ------------------------------------------------------------------------------ the rules

cdef inline int suit_of(int card) noexcept nogil:
    return card // RANKS

cdef inline void put(Trail* tr, TricksState* s, uint8_t* field, int value) noexcept nogil:
    """Write one byte of ``s``, first logging its old value on the trail (NULL: no undo)."""
    trail_log(tr, s, field, 1)
    field[0] = <uint8_t>value

cdef void deal_cards(TricksState* s, int players, int hand_size, const uint8_t* order, int leader) noexcept nogil:
    """Rule 1 from a deck order: seat q gets order[q * hand_size ...], the rest stay undealt."""
    cdef int i
    memset(s, 0, sizeof(TricksState))
    s.players = players
    s.hand_size = hand_size
    for i in range(DECK):
        s.where[order[i]] = i // hand_size if i < players * hand_size else UNDEALT
    s.leader = leader
    s.to_move = leader

cdef void shuffle(uint8_t* xs, int n, uint64_t* rng) noexcept nogil:
    """Fisher-Yates from the end, as ``Rng.shuffle``."""
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = xs[i]
        xs[i] = xs[j]
        xs[j] = tmp

cdef void new_game(TricksState* s, int players, int hand_size, uint64_t seed) noexcept nogil:
    cdef uint64_t rng[4]
    cdef uint8_t order[DECK]
    cdef int i
    rng_seed(rng, seed)
    for i in range(DECK):
        order[i] = i
    shuffle(order, DECK, rng)
    deal_cards(s, players, hand_size, order, rng_below(rng, players))

cdef int gen_moves(const TricksState* s, int32_t* out) noexcept nogil:
    """The mover's cards it may discard or play, lowest card first; 0 once the game is over."""
    cdef int seat = s.to_move, n = 0, card, led
    if seat == NOBODY:
        return 0
    if s.ply < s.players:
        for card in range(DECK):
            if s.where[card] == seat:
                out[n] = card | DISCARD
                n += 1
        return n
    if s.trick_n > 0:
        led = suit_of(s.trick[0])
        for card in range(led * RANKS, (led + 1) * RANKS):
            if s.where[card] == seat:
                out[n] = card
                n += 1
        if n > 0:
            return n
    for card in range(DECK):
        if s.where[card] == seat:
            out[n] = card
            n += 1
    return n

cdef void take_trick(TricksState* s, Trail* tr) noexcept nogil:
    """Rule 3: the highest card of the led suit takes the trick and leads the next."""
    cdef int i, best = 0, crowns = 0, led = suit_of(s.trick[0]), winner
    for i in range(s.players):
        if suit_of(s.trick[i]) == led and s.trick[i] > s.trick[best]:
            best = i
        crowns += suit_of(s.trick[i]) == CROWNS
        put(tr, s, &s.where[s.trick[i]], TAKEN)
    winner = (s.leader + best) % s.players
    put(tr, s, &s.points[winner], s.points[winner] + 1 + crowns)
    put(tr, s, &s.leader, winner)
    put(tr, s, &s.trick_n, 0)
    put(tr, s, &s.to_move, NOBODY if s.ply == s.players * s.hand_size else winner)

cdef void do_move(TricksState* s, int32_t move, Trail* tr) noexcept nogil:
    """Play a legal move (rules 2 and 3), logging every byte written on ``tr`` (NULL: no undo)."""
    cdef int seat = s.to_move, card = move & CARD_MASK, led
    put(tr, s, &s.history[s.ply], move)
    put(tr, s, &s.movers[s.ply], seat)
    put(tr, s, &s.ply, s.ply + 1)
    if move & DISCARD:
        put(tr, s, &s.where[card], DISCARDED + seat)
        put(tr, s, &s.to_move, (seat + 1) % s.players)  # after the last discard: the leader
        return
    if s.trick_n > 0:
        led = suit_of(s.trick[0])
        if suit_of(card) != led:
            put(tr, s, &s.voids[seat], s.voids[seat] | (1 << led))
    put(tr, s, &s.where[card], ON_TABLE)
    put(tr, s, &s.trick[s.trick_n], card)
    put(tr, s, &s.trick_n, s.trick_n + 1)
    if s.trick_n == s.players:
        take_trick(s, tr)
    else:
        put(tr, s, &s.to_move, (seat + 1) % s.players)

cdef void top_shares(const TricksState* s, double* out) noexcept nogil:
    """Rule 4: the top scorers share 1."""
    cdef int q, top = 0, k = 0
    for q in range(s.players):
        if s.points[q] > top:
            top = s.points[q]
    for q in range(s.players):
        k += s.points[q] == top
    for q in range(s.players):
        out[q] = 1.0 / k if s.points[q] == top else 0.0

cdef void determinize(TricksState* s, int player, uint64_t* rng) noexcept nogil:
    """Deal again every card ``player`` cannot see, uniformly among the deals consistent with what
    they saw (as ``GameState.determinized``): the hidden cards, lowest first, keep their places in
    that order; the cards are shuffled until no seat holds a suit it failed to follow."""
    cdef uint8_t pool[DECK]
    cdef uint8_t slots[DECK]
    cdef int n = 0, card, k, i, consistent
    for card in range(DECK):
        if s.where[card] == UNDEALT or (s.where[card] < UNDEALT and s.where[card] % MAX_PLAYERS != player):
            pool[n] = card
            slots[n] = s.where[card]
            n += 1
    consistent = 0
    while not consistent:
        shuffle(pool, n, rng)
        consistent = 1
        for k in range(n):
            if slots[k] < DISCARDED and s.voids[slots[k]] >> suit_of(pool[k]) & 1:
                consistent = 0
                break
    for k in range(n):
        s.where[pool[k]] = slots[k]
    for i in range(s.ply):  # the other seats' discards in the history follow their new cards
        if s.history[i] & DISCARD and s.movers[i] != player:
            for card in range(DECK):
                if s.where[card] == DISCARDED + s.movers[i]:
                    s.history[i] = card | DISCARD

cdef void track_step(const TricksState* s, Tracker* track) noexcept nogil:
    """After a move: count the trick it finished, if any, for its taker (who leads next)."""
    if s.trick_n == 0 and s.ply > s.players and s.history[s.ply - 1] & DISCARD == 0:
        track.tricks[s.leader] += 1

cdef int random_playout(TricksState* s, uint64_t* rng, Tracker* track) noexcept nogil:
    """Uniformly random moves to the end (one ``rng_below`` per move, as ``RandomBot``)."""
    cdef int32_t moves[MAX_HAND]
    cdef int plies = 0
    while s.to_move != NOBODY:
        do_move(s, moves[rng_below(rng, gen_moves(s, moves))], NULL)
        if track != NULL:
            track_step(s, track)
        plies += 1
    return plies


# ------------------------------------------------------------------------------ the C contract

cdef void api_new_game(const void* tables, const void* config, uint64_t seed, void* s) noexcept nogil:
    cdef const Deal* d = <const Deal*>config
    new_game(<TricksState*>s, d.players, d.hand_size, seed)

cdef int api_to_move(const void* tables, const void* s) noexcept nogil:
    cdef int seat = (<const TricksState*>s).to_move
    return -1 if seat == NOBODY else seat

cdef int api_legal_moves(const void* tables, void* s, int32_t* out) noexcept nogil:
    return gen_moves(<TricksState*>s, out)

cdef void api_apply(const void* tables, void* s, int32_t move, Trail* trail) noexcept nogil:
    do_move(<TricksState*>s, move, trail)

cdef void api_returns(const void* tables, const void* s, double* out) noexcept nogil:
    top_shares(<const TricksState*>s, out)

cdef void api_scores(const void* tables, const void* s, int32_t* out) noexcept nogil:
    cdef const TricksState* st = <const TricksState*>s
    cdef int q
    for q in range(st.players):
        out[q] = st.points[q]

cdef void api_determinize(const void* tables, void* s, int player, uint64_t* rng) noexcept nogil:
    determinize(<TricksState*>s, player, rng)

cdef int32_t api_seen_move(const void* tables, int32_t move, int mover, int viewer) noexcept nogil:
    """Every card played is public; another seat's discard is face down."""
    if mover != viewer and move & DISCARD:
        return HIDDEN_MOVE
    return move

cdef int api_rollout(const void* tables, void* s, uint64_t* rng, void* track) noexcept nogil:
    return random_playout(<TricksState*>s, rng, <Tracker*>track)

cdef void api_track_begin(const void* tables, const void* s, void* track) noexcept nogil:
    cdef const TricksState* st = <const TricksState*>s
    cdef Tracker* t = <Tracker*>track
    cdef int q
    for q in range(MAX_PLAYERS):
        t.points[q] = st.points[q]
        t.tricks[q] = 0

cdef void api_track_step(const void* tables, const void* s, void* track) noexcept nogil:
    track_step(<const TricksState*>s, <Tracker*>track)

cdef void api_track_stats(const void* tables, const void* s, const void* track, int player,
                          double* out) noexcept nogil:
    cdef const Tracker* t = <const Tracker*>track
    out[0] = (<const TricksState*>s).points[player] - t.points[player]
    out[1] = t.tricks[player]


cdef GameApi TRICKS_API[MAX_PLAYERS + 1]  # by player count (2..MAX_PLAYERS); the table fixes it
cdef int _players
for _players in range(2, MAX_PLAYERS + 1):
    TRICKS_API[_players].name = "tricks"
    TRICKS_API[_players].num_players = _players
    TRICKS_API[_players].max_moves = MAX_HAND
    TRICKS_API[_players].state_size = sizeof(TricksState)
    TRICKS_API[_players].track_size = sizeof(Tracker)
    TRICKS_API[_players].trail_per_move = TRAIL_PER_MOVE
    TRICKS_API[_players].n_stats = N_STATS
    TRICKS_API[_players].new_game = api_new_game
    TRICKS_API[_players].to_move = api_to_move
    TRICKS_API[_players].legal_moves = api_legal_moves
    TRICKS_API[_players].apply = api_apply
    TRICKS_API[_players].returns = api_returns
    TRICKS_API[_players].scores = api_scores
    TRICKS_API[_players].determinize = api_determinize
    TRICKS_API[_players].seen_move = api_seen_move
    TRICKS_API[_players].rollout = api_rollout
    TRICKS_API[_players].track_begin = api_track_begin
    TRICKS_API[_players].track_step = api_track_step
    TRICKS_API[_players].track_stats = api_track_stats
assert sizeof(TricksState) <= TRAIL_MAX_STATE and <int>MAX_HAND <= <int>SEARCH_MAX_MOVES and <int>N_STATS <= <int>MAX_STATS
assert (vocabulary.RANKS, vocabulary.DECK_SIZE, vocabulary.CROWNS, vocabulary.DISCARD_FLAG) == (
    RANKS, DECK, CROWNS, DISCARD), "the core's constants drifted from toy_game.vocabulary"
assert max(vocabulary.HAND_SIZES.values()) == MAX_HAND and max(
    n * size for n, size in vocabulary.HAND_SIZES.items()) == MAX_PLIES


# ------------------------------------------------------------------------------ Python edge

cdef class CoreState:
    """A game of "tricks" on the core: the reference's State interface over one flat struct."""

    cdef TricksState s
    cdef Deal deal                # what game_handle lends: the set-up, ...
    cdef GameHandle handle        # ... and the C contract with the search
    cdef Trail tr                 # the undo trail, in the arrays below
    cdef uint16_t trail_off[MAX_PLIES * TRAIL_PER_MOVE]
    cdef uint8_t trail_width[MAX_PLIES * TRAIL_PER_MOVE]
    cdef uint64_t trail_old[MAX_PLIES * TRAIL_PER_MOVE]
    cdef int marks[MAX_PLIES]     # the trail's length before each move undo can take back
    cdef int undoable
    cdef public object seed

    def __cinit__(self):
        self.tr.off = self.trail_off
        self.tr.width = self.trail_width
        self.tr.old = self.trail_old
        self.tr.n = 0
        self.tr.cap = MAX_PLIES * TRAIL_PER_MOVE
        self.tr.enabled = 1
        self.undoable = 0

    @staticmethod
    def new(seed: int = 0, players: int = 3) -> CoreState:
        """Deal a game from ``seed`` exactly as ``GameState.new`` does."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef int size = hand_size(players)
        Rng(seed)  # validates the seed
        new_game(&core.s, players, size, seed)
        core.seed = seed
        return core

    @staticmethod
    def from_deal(hands, leader) -> CoreState:
        """A game with these hands (card ids) and first leader, as ``GameState.from_deal``."""
        cdef CoreState core = CoreState.__new__(CoreState)
        cdef uint8_t order[DECK]
        cdef int i
        for i, card in enumerate(deal_order(hands, leader)):
            order[i] = card
        deal_cards(&core.s, len(hands), hand_size(len(hands)), order, leader)
        return core

    # -- decisions

    @property
    def players(self) -> int:
        return self.s.players

    @property
    def ply(self) -> int:
        return self.s.ply

    @property
    def current_player(self) -> int:
        return api_to_move(NULL, &self.s)

    def is_terminal(self) -> bool:
        return self.s.to_move == NOBODY

    def legal_move_ids(self) -> list:
        cdef int32_t moves[MAX_HAND]
        cdef int i, n = gen_moves(&self.s, moves)
        return [moves[i] for i in range(n)]

    def legal_moves(self) -> list:
        return [Move.from_id(m) for m in self.legal_move_ids()]

    def apply(self, move) -> None:
        """Play ``move`` (or its notation) after checking it; raises ``IllegalMoveError``."""
        self.apply_id(checked_move(self, move).id)

    def apply_trusted(self, move) -> None:
        self.apply_id(move.id)

    cpdef apply_id(self, int32_t move):
        """Play a move id from :meth:`legal_move_ids`, kept for :meth:`undo`. The fast door: only
        a finished game is refused (the trail would overflow); any other id is trusted."""
        if self.s.to_move == NOBODY:
            raise IllegalMoveError(f"ply {self.s.ply}: nobody (the game is over) cannot play move id {move}")
        self.marks[self.undoable] = self.tr.n
        self.undoable += 1
        do_move(&self.s, move, &self.tr)

    def undo(self):
        """Take back the last move (since the deal or the clone) and return it."""
        if self.undoable == 0:
            raise IndexError("undo: no move to take back")
        move = Move.from_id(self.s.history[self.s.ply - 1])
        self.undoable -= 1
        trail_undo(&self.s, &self.tr, self.marks[self.undoable])
        return move

    def clone(self) -> CoreState:
        """An independent copy: one struct copy; the copy has no undo history."""
        cdef CoreState other = CoreState.__new__(CoreState)
        other.s = self.s
        other.seed = self.seed
        return other

    def determinized(self, int player, seed: int = 0) -> CoreState:
        """A copy with every card ``player`` cannot see dealt again (as ``GameState.determinized``)."""
        cdef uint64_t rng[4]
        cdef CoreState other
        check_seat(self.s.players, player)
        Rng(seed)  # validates the seed
        rng_seed(rng, seed)
        other = self.clone()
        determinize(&other.s, player, rng)
        return other

    # -- outcome and information

    def scores(self) -> tuple:
        cdef int32_t points[MAX_PLAYERS]
        api_scores(NULL, &self.s, points)
        return tuple(points[q] for q in range(self.s.players))

    def returns(self) -> tuple:
        cdef double out[MAX_PLAYERS]
        if not self.is_terminal():
            return (0.0,) * self.s.players
        top_shares(&self.s, out)
        return tuple(out[q] for q in range(self.s.players))

    def observation(self, int player) -> dict:
        return observe(self, player)

    @property
    def hands(self) -> list:
        return [[c for c in range(DECK) if self.s.where[c] == q] for q in range(self.s.players)]

    @property
    def discards(self) -> list:
        return [next((c for c in range(DECK) if self.s.where[c] == DISCARDED + q), None)
                for q in range(self.s.players)]

    @property
    def undealt(self) -> list:
        return [c for c in range(DECK) if self.s.where[c] == UNDEALT]

    @property
    def history(self) -> list:
        return [(self.s.movers[i], Move.from_id(self.s.history[i])) for i in range(self.s.ply)]

    @property
    def moves(self) -> list:
        return [Move.from_id(self.s.history[i]) for i in range(self.s.ply)]

    def state_bytes(self) -> bytes:
        """The flat struct, byte for byte (to check that undo restores it exactly)."""
        return (<char*>&self.s)[:sizeof(TricksState)]

    def game_handle(self):
        """The C contract with the search: a capsule pointing at this state and its set-up,
        valid while this object lives."""
        self.deal.players = self.s.players
        self.deal.hand_size = self.s.hand_size
        self.handle.api = &TRICKS_API[self.s.players]
        self.handle.tables = NULL
        self.handle.config = &self.deal
        self.handle.state = &self.s
        return PyCapsule_New(&self.handle, GAME_HANDLE_NAME, NULL)
