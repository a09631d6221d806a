"""The reference engine of "tricks": the rules written to be read, in plain Python.

The rules, for 2, 3 or 4 seats and a deck of 15 cards (ranks 1-5 in crowns, swords and wands):

1. Deal: shuffle the deck (``Rng(seed).shuffle``), deal each seat its hand in blocks (seat 0 the
   first cards; 5, 4 or 3 cards for 2, 3 or 4 seats); the rest stay undealt, face down. Then
   draw the first leader, ``Rng.below(players)``.
2. Discard: from the leader round the table, each seat puts one card of its hand face down. Only
   the seat itself knows which (the game's hidden move).
3. Tricks: the leader plays any card; each next seat must follow the led suit if it can. The
   highest card of the led suit wins the trick; its taker scores 1, plus 1 for each crown in the
   trick, and leads the next. The game ends when the hands are empty.
4. Returns: the seats with the highest score share 1 equally (1/k each for a k-way tie); the
   others get 0. A score is the points taken.

    >>> state = GameState.new(seed=1)
    >>> state.players, state.current_player, [str(m) for m in state.legal_moves()]
    (3, 0, ['discard 1C', 'discard 4C', 'discard 1W', 'discard 3W'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from omen_search.rng import Rng
from toy_game.observation import observe
from toy_game.vocabulary import (CROWNS, DECK_SIZE, Move, check_seat, checked_move, deal_order, hand_size,
                                 rank_of, suit_of)

Place = tuple[str, int]  # where a card is: ("hand", seat), ("discard", seat) or ("undealt", 0)


class GameState:
    """A game of "tricks" in progress, with the State interface every engine shares."""

    def __init__(self, players: int, order: Sequence[int], leader: int, seed: int | None = None):
        """The game dealt from the deck ``order`` (see rule 1); use :meth:`new` or :meth:`from_deal`."""
        size = hand_size(players)
        self.players = players
        self.seed = seed
        self.hands = [sorted(order[seat * size:(seat + 1) * size]) for seat in range(players)]
        self.discards: list[int | None] = [None] * players
        self.undealt = sorted(order[players * size:])
        self.leader = leader
        self.trick: list[int] = []  # the cards of the trick being played, the leader's first
        self.voids = [0] * players  # bit s: the seat did not follow suit s, so holds none
        self.points = [0] * players
        self.history: list[tuple[int, Move]] = []
        self._plies = players * size
        self._undo: list[tuple] = []

    @classmethod
    def new(cls, seed: int = 0, players: int = 3) -> GameState:
        """Deal a game from ``seed`` (rule 1)."""
        rng = Rng(seed)
        hand_size(players)
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        return cls(players, deck, rng.below(players), seed)

    @classmethod
    def from_deal(cls, hands: Sequence[Sequence[int]], leader: int) -> GameState:
        """A game with these hands (card ids) and first leader, to set up a chosen position."""
        return cls(len(hands), deal_order(hands, leader), leader)

    # ------------------------------------------------------------------ decisions

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def moves(self) -> list[Move]:
        """The moves played since the deal, oldest first."""
        return [move for _, move in self.history]

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return -1
        if self.ply < self.players:  # rule 2: the discards go round from the leader
            return (self.leader + self.ply) % self.players
        return (self.leader + len(self.trick)) % self.players

    def is_terminal(self) -> bool:
        return self.ply == self._plies

    def legal_moves(self) -> list[Move]:
        """The mover's cards that it may discard or play, lowest card id first."""
        if self.is_terminal():
            return []
        hand = self.hands[self.current_player]
        if self.ply < self.players:
            return [Move(card, discard=True) for card in hand]
        if self.trick:
            following = [card for card in hand if suit_of(card) == suit_of(self.trick[0])]
            if following:
                return [Move(card) for card in following]
        return [Move(card) for card in hand]

    def legal_move_ids(self) -> list[int]:
        return [move.id for move in self.legal_moves()]

    def apply(self, move: Move | str) -> None:
        """Play ``move`` (or its notation) after checking it; raises ``IllegalMoveError``."""
        self.apply_trusted(checked_move(self, move))

    def apply_trusted(self, move: Move) -> None:
        """Play a move taken from :meth:`legal_moves`, without checking it."""
        seat = self.current_player
        self._undo.append(self._snapshot())
        self.history.append((seat, move))
        self.hands[seat].remove(move.card)
        if move.discard:
            self.discards[seat] = move.card
            return
        if self.trick and suit_of(move.card) != suit_of(self.trick[0]):
            self.voids[seat] |= 1 << suit_of(self.trick[0])
        self.trick.append(move.card)
        if len(self.trick) == self.players:
            self._take_trick()

    def _take_trick(self) -> None:
        """Rule 3: the highest card of the led suit takes the trick and leads the next."""
        led = suit_of(self.trick[0])
        best = max((i for i, card in enumerate(self.trick) if suit_of(card) == led),
                   key=lambda i: rank_of(self.trick[i]))
        winner = (self.leader + best) % self.players
        self.points[winner] += 1 + sum(suit_of(card) == CROWNS for card in self.trick)
        self.leader = winner
        self.trick = []

    def undo(self) -> Move:
        """Take back the last move and return it; raises ``IndexError`` when there is none."""
        if not self._undo:
            raise IndexError("undo: no move to take back")
        self._restore(self._undo.pop())
        return self.history.pop()[1]

    _FIELDS = ("hands", "discards", "undealt", "leader", "trick", "voids", "points")

    def _snapshot(self) -> tuple:
        return tuple(_copied(getattr(self, field)) for field in self._FIELDS)

    def _restore(self, snapshot: tuple) -> None:
        for field, value in zip(self._FIELDS, snapshot):
            setattr(self, field, _copied(value))

    def clone(self) -> GameState:
        """An independent copy; like the core's, it has no undo history."""
        other = GameState.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other._restore(self._snapshot())
        other.history = list(self.history)
        other._undo = []
        return other

    # ------------------------------------------------------------------ outcome and information

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def returns(self) -> tuple[float, ...]:
        """Rule 4: the top scorers share 1 once the game is over (0 each before)."""
        if not self.is_terminal():
            return (0.0,) * self.players
        top = max(self.points)
        share = 1 / self.points.count(top)
        return tuple(share if points == top else 0.0 for points in self.points)

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    def determinized(self, player: int, seed: int = 0) -> GameState:
        """A copy in which every card ``player`` cannot see (the other hands and discards, the
        undealt cards) is dealt again, uniformly among the deals consistent with what ``player``
        saw: each seat keeps its hand size and holds no suit it failed to follow. Cards drawn as
        in the core: the hidden cards lowest id first keep their places in that order, then the
        cards are shuffled with ``Rng(seed)`` until the deal respects every void."""
        check_seat(self.players, player)
        rng = Rng(seed)
        places = self._places()
        pool = [card for card in range(DECK_SIZE) if places[card] != ("hand", player)
                and places[card] != ("discard", player) and places[card][0] != "played"]
        slots = [places[card] for card in pool]
        while True:
            rng.shuffle(pool)
            if not any(kind == "hand" and self.voids[seat] >> suit_of(card) & 1
                       for card, (kind, seat) in zip(pool, slots)):
                break
        other = self.clone()
        for seat in range(self.players):
            if seat != player:
                other.hands[seat] = sorted(card for card, slot in zip(pool, slots) if slot == ("hand", seat))
                other.discards[seat] = next((card for card, slot in zip(pool, slots) if slot == ("discard", seat)),
                                            None)
        other.undealt = sorted(card for card, slot in zip(pool, slots) if slot[0] == "undealt")
        other.history = [(seat, Move(other.discards[seat], True) if move.discard else move)  # type: ignore[arg-type]
                         for seat, move in self.history]
        return other

    def _places(self) -> dict[int, Place]:
        places: dict[int, Place] = {card: ("played", 0) for card in range(DECK_SIZE)}
        for seat in range(self.players):
            places.update({card: ("hand", seat) for card in self.hands[seat]})
            if self.discards[seat] is not None:
                places[self.discards[seat]] = ("discard", seat)  # type: ignore[index]
        places.update({card: ("undealt", 0) for card in self.undealt})
        return places


def _copied(value: Any) -> Any:
    """A copy of a field, lists of lists included (ints and ``None`` are immutable)."""
    return [_copied(v) for v in value] if isinstance(value, list) else value
