"""The reference engine of the Grand Melee: four players, one draft, four knockout table games.

Readable Python, the executable rulebook the core is checked against. Each rule cites its id
(``R-melee-…``, ``R-draft-…`` in ``docs/rules/reign-of-war.md``; ``D-melee-…`` in
``docs/rulings.md``).

How it runs. The four players draft design stacks together (R-melee-4, with the Card Drafting
limits and R-draft-3's escape), in :data:`~omen_search.games.melee.rules.DRAFT_ORDER`; or, with
``draft = "simplified"``, they pick cards from packs passed round the table (D-melee-4,
:mod:`~omen_search.games.melee.sdraft`). Then the
match cards are shown (R-melee-5) and four table games follow, each a whole game of Reign of War on
its reference engine with the two players' drafted decks (``deck = "given"``) and 20 coins
(R-melee-3): round 1's two tables (the players whose match cards show 1, then 2), then round 2's
winners' table and losers' table (R-melee-6). The two tables of a round are played at the same time
at a real table; the engine plays them one after the other, and a player does not see the other
table's game or result until the round is over (D-melee-2). Every decision is a move of the player
who makes it, in Reign of War's notation; at a table, a table seat is the global seat of the player
sitting there (:attr:`MeleeState.table_seats`).

Chance: the melee's own generator shuffles the match cards and gives each table game its seed, drawn
when the table starts; each table game then deals from its own generator.
"""

from __future__ import annotations

from typing import Any

from omen_search.errors import IllegalMoveError, UsageError
from omen_search.games.melee.rules import (
    DRAFT,
    DRAFT_ORDER,
    GAME_OVER,
    MATCH_CARDS,
    PLACE_RETURNS,
    PLAYERS,
    TABLE,
    TABLES,
    MeleeConfig,
    TableResult,
    check_cards,
    result_seen,
    table_config,
    table_pair,
)
from omen_search.games.melee import sdraft
from omen_search.games.reign.cards import CardSet, default_cards
from omen_search.games.reign.notation import Move
from omen_search.games.reign.reference import GameState as TableState
from omen_search.games.reign.rules import draftable
from omen_search.rng import Rng

class MeleeState:
    """A Grand Melee in progress (see the module)."""

    players = PLAYERS

    def __init__(self, cards: CardSet, config: MeleeConfig):
        self.cards = cards
        self.config = config
        self.units = cards.units
        self.seed: int | None = None
        self.rng = Rng(0)
        self.match = [0] * PLAYERS  # each player's match card (R-melee-2)
        self.pool: list[int] = []  # the design stacks left, in card order
        self.drafted: list[list[int]] = [[] for _ in range(PLAYERS)]  # each player's stacks (cards), in pick order
        self.dealt: list[int] = []  # the Simplified draft's packs, as dealt (sdraft.pack_dealt)
        self.picks = 0
        self.results: list[TableResult] = []
        self.table: TableState | None = None  # the table game being played
        self.table_seats: tuple[int, int] = (-1, -1)
        self.phase = DRAFT
        self.ply = 0
        self.moves: list[Move] = []
        self.history: list[tuple] = []

    @classmethod
    def new(cls, seed: int = 0, cards: CardSet | None = None, config: MeleeConfig | None = None) -> MeleeState:
        """Deal a Grand Melee: ``seed`` fixes the match cards and every table game's deal.

        Raises :class:`UsageError` if the card set has fewer design stacks than the draft takes."""
        state = cls(cards or default_cards(), config or MeleeConfig())
        check_cards(state.cards, state.config)
        state.seed = seed
        state.rng = Rng(seed)
        match = list(MATCH_CARDS)
        state.rng.shuffle(match)  # R-melee-2: dealt to seats 0 to 3
        state.match = match
        if state.config.draft == "card":
            state.pool = [u.index for u in state.units if u.copies]
        else:  # R-sdraft-1: every unit card shuffled (a design left out as D-ablate-1), then the first packs
            full = [t for t in range(len(state.units)) for _ in range(state.cards.dealt_copies(t))]
            state.pool = state.cards.shuffled_without(full, state.rng.shuffle)
            state._deal_packs()
        return state

    def _deal_packs(self) -> None:
        """A round of the Simplified draft: 10 cards to each seat, 0 first, from the top (D-melee-4)."""
        for _ in range(PLAYERS):
            self.dealt += sorted(self.pool.pop() for _ in range(sdraft.SDRAFT_PACK))

    # ------------------------------------------------------------------ the State interface

    @property
    def current_player(self) -> int:
        """The player who makes the next decision (``-1`` once the Grand Melee is over)."""
        if self.phase == DRAFT:  # the Simplified draft asks in seat order (R-sdraft-2)
            return DRAFT_ORDER[self.picks % PLAYERS] if self.config.draft == "card" else self.picks % PLAYERS
        if self.phase == TABLE:
            assert self.table is not None
            return self.table_seats[self.table.current_player]
        return -1

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def legal_moves(self) -> list[Move]:
        """The draft: a stack within the type limits (R-draft-3), any stack if none is; at a table,
        the table game's moves."""
        if self.phase == DRAFT:
            p = self.current_player
            if self.config.draft == "simplified":  # a card of the pack held (R-sdraft-1), each design once
                return [Move("pick", card=self.units[t].name)
                        for t in sorted(set(sdraft.pack_now(self.dealt, self.drafted, self.picks, p)))]
            return [Move("draft", card=self.units[t].name) for t in draftable(self.units, self.drafted[p], self.pool)]
        if self.phase == TABLE:
            assert self.table is not None
            return self.table.legal_moves()
        return []

    def apply(self, move: Move | str) -> None:
        """Play ``move`` (a move or its notation) after checking that it is legal.

        Raises :class:`IllegalMoveError` naming the move, the player and the ply."""
        if isinstance(move, str):
            move = Move.parse(move)
        legal = self.legal_moves()
        if move not in legal:
            who = f"player {self.current_player}" if legal else "nobody (the Grand Melee is over)"
            raise IllegalMoveError(f"ply {self.ply}: {who} cannot play {str(move)!r} here "
                                   f"({self.phase}; {len(legal)} legal moves)")
        self.apply_trusted(move)

    def apply_trusted(self, move: Move) -> None:
        """Play a move known to be legal (one from :meth:`legal_moves`)."""
        self.history.append(self._snapshot())
        self.moves.append(move)
        self.ply += 1
        if self.phase == DRAFT:
            p = self.current_player
            t = self.cards.unit(move.card).index  # type: ignore[arg-type]
            if self.config.draft == "card":
                self.pool.remove(t)
            self.drafted[p].append(t)  # R-draft-2: a coin to the middle, which changes nothing here
            self.picks += 1
            if self.picks == self.config.picks:  # R-draft-4, R-melee-5: undrafted cards leave; match cards shown
                self.pool = []
                self._start_table()
            elif self.config.draft == "simplified" and self.picks % sdraft.ROUND == 0:
                self._deal_packs()  # the packs, empty, are not passed on: the next round is dealt
            return
        assert self.table is not None
        self.table.apply_trusted(move)
        if self.table.is_terminal():
            self.results.append(self._result(self.table, self.table_seats))
            if len(self.results) == TABLES:
                self.table, self.table_seats, self.phase = None, (-1, -1), GAME_OVER
            else:
                self._start_table()

    def undo(self) -> Move:
        """Take back the last move and return it; ``IndexError`` at the start."""
        if not self.history:
            raise IndexError("undo: no move to take back")
        phase, picks, pool, drafted, results, table, seats, rng, dealt = self.history.pop()
        self.phase, self.picks, self.pool, self.drafted, self.dealt = phase, picks, pool, drafted, dealt
        self.results, self.table, self.table_seats, self.rng = results, table, seats, rng
        if phase == TABLE:
            table.undo()
        self.ply -= 1
        return self.moves.pop()

    def _snapshot(self) -> tuple:
        """What a move can change of the melee itself; the table game in play undoes its own moves."""
        return (self.phase, self.picks, list(self.pool), [list(d) for d in self.drafted], list(self.results),
                self.table, self.table_seats, Rng.from_state(self.rng.s), list(self.dealt))

    def clone(self) -> MeleeState:
        """An independent copy, history included (each table game in it copied once)."""
        copies: dict[int, TableState] = {}

        def copied(table: TableState | None) -> TableState | None:
            if table is None:
                return None
            if id(table) not in copies:
                copies[id(table)] = table.clone()
            return copies[id(table)]

        other = self._bare_copy()
        other.table = copied(self.table)
        other.history = [h[:5] + (copied(h[5]),) + h[6:] for h in self.history]
        other.moves = list(self.moves)
        return other

    def _bare_copy(self) -> MeleeState:
        """A copy of the melee's own parts with no history; the table game still shared."""
        other = MeleeState(self.cards, self.config)
        other.seed, other.rng, other.match = self.seed, Rng.from_state(self.rng.s), list(self.match)
        other.pool, other.drafted, other.picks = list(self.pool), [list(d) for d in self.drafted], self.picks
        other.dealt = list(self.dealt)
        other.results, other.table, other.table_seats = list(self.results), self.table, self.table_seats
        other.phase, other.ply = self.phase, self.ply
        return other

    def determinized(self, player: int, seed: int = 0) -> MeleeState:
        """A copy in which everything ``player`` cannot see is dealt again from ``seed``,
        consistently with what they see; the copy has no history. In this order: in the draft, the
        other players' match cards (the three left once ``player``'s own is known); in a Simplified
        draft, what ``player`` has not seen of the packs and picks (:func:`sdraft.deal_unseen`); the winner of
        every table game whose result ``player`` does not see yet (D-melee-2), even odds; the table
        game in play, by its own ``determinized`` for ``player``'s table seat (for a player not at
        it, who sees none of it, for the table seat to move, so that who moves stays the engine's
        order of play); then the generator."""
        if player not in range(PLAYERS) or isinstance(player, bool):
            raise UsageError(f"player: must be 0 to {PLAYERS - 1}, got {player!r}")
        rng = Rng(seed)
        world = self._bare_copy()
        if self.phase == DRAFT:
            others = [q for q in range(PLAYERS) if q != player]
            cards = [self.match[q] for q in others]
            rng.shuffle(cards)
            for q, card in zip(others, cards):
                world.match[q] = card
            if self.config.draft == "simplified":
                world.dealt, world.drafted, world.pool = sdraft.deal_unseen(
                    self.unit_cards(), sdraft.held(self.dealt, self.drafted, self.picks, player),
                    self.drafted[player], player, self.picks, rng.shuffle)
        for i, r in enumerate(self.results):
            if not self.result_seen(i, player):
                world.results[i] = TableResult(r.seats, r.seats[rng.below(2)], False, (0, 0))
        if self.table is not None:
            table_seed = rng.next64()
            seat = self.table_seats.index(player) if player in self.table_seats else self.table.current_player
            world.table = self.table.determinized(seat, table_seed)
        world.rng = Rng.from_state([rng.next64() for _ in range(4)])
        return world

    def unit_cards(self) -> list[int]:
        """Every unit card in play, in card order (a Simplified draft deals from them)."""
        return [t for t, u in enumerate(self.units) for _ in range(u.copies)]

    def scores(self) -> tuple[int, ...]:
        """Each player's Victory cards so far (R-melee-6)."""
        return tuple(sum(r.winner == p for r in self.results) for p in range(PLAYERS))

    def returns(self) -> tuple[float, ...]:
        """The return of each player's place once the Grand Melee is over (D-melee-3), 0 before."""
        if not self.is_terminal():
            return (0.0,) * PLAYERS
        return tuple(PLACE_RETURNS[v] for v in self.scores())

    def observation(self, player: int) -> dict[str, Any]:
        """Exactly what ``player`` knows, as a JSON-ready dict (``docs/formats.md``)."""
        from omen_search.games.melee.observe import observe

        return observe(self, player)

    # ------------------------------------------------------------------ the tables

    def result_seen(self, index: int, player: int) -> bool:
        """Whether ``player`` knows how table game ``index`` ended (D-melee-2)."""
        return result_seen(self.results, index, player)

    def _start_table(self) -> None:
        """The next table game, dealt from a seed the melee's generator draws now."""
        seats = table_pair(len(self.results), self.match, self.results)
        config = table_config(self.cards, self.config, self.drafted, seats)
        self.table = TableState.new(self.rng.next64(), self.cards, config)
        self.table_seats = seats
        self.phase = TABLE

    @staticmethod
    def _result(table: TableState, seats: tuple[int, int]) -> TableResult:
        """A finished table game's result; a draw goes to the player who took the second turn (R-melee-7)."""
        w, first = table.winner(), table.first_player
        assert first is not None, "a finished game has had its first turn"
        drawn = w is None
        if w is None:
            w = 1 - first
        a, b = table.scores()
        return TableResult(seats, seats[w], drawn, (a, b))
