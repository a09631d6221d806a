"""The vocabulary of the toy game "tricks": cards, moves with their one text notation and packed
ids, player counts and deals, and the checks both engines make where input enters.

A card is ``rank`` then ``suit`` letter: ``"5C"`` is the 5 of crowns. Its id is
``suit * RANKS + rank - 1`` (0 … 14), so sorting ids sorts by suit, then rank. A move plays or
discards one card of the mover's hand::

    >>> m = Move.parse("discard 3W")
    >>> m, m.id, Move.from_id(m.id) == m
    (Move(card=12, discard=True), 28, True)
    >>> str(Move.parse("play 5C"))
    'play 5C'

Move id layout (both engines and the search use it): bits 0-3 the card id, bit 4 set for a
discard. Every id is below 32.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from omen_search.errors import IllegalMoveError, NotationError, UsageError

SUITS = "CSW"  # crowns (each crown in a trick scores 1 more for its taker), swords, wands
RANKS = 5
DECK_SIZE = len(SUITS) * RANKS
CROWNS = 0  # the suit whose cards score
HAND_SIZES = {2: 5, 3: 4, 4: 3}  # cards dealt to each seat by player count; the rest stay undealt
DISCARD_FLAG = 16  # bit 4 of a move id


def suit_of(card: int) -> int:
    return card // RANKS


def rank_of(card: int) -> int:
    """1 (lowest) … RANKS (highest)."""
    return card % RANKS + 1


def card_name(card: int) -> str:
    return f"{rank_of(card)}{SUITS[suit_of(card)]}"


def parse_card(text: str) -> int:
    """The id of a card name such as ``"5C"``; raises :class:`NotationError`."""
    if len(text) != 2 or not "1" <= text[0] <= str(RANKS) or text[1] not in SUITS:
        raise NotationError(f"card {text!r}: expected a rank 1-{RANKS} and a suit letter of {SUITS!r}, as '5C'")
    return SUITS.index(text[1]) * RANKS + int(text[0]) - 1


@dataclass(frozen=True, order=True)
class Move:
    """Play ``card`` to the trick, or (``discard``) put it face down before the first trick."""

    card: int
    discard: bool = False

    @property
    def id(self) -> int:
        return self.card | (DISCARD_FLAG if self.discard else 0)

    @classmethod
    def from_id(cls, move_id: int) -> Move:
        return cls(move_id & (DISCARD_FLAG - 1), bool(move_id & DISCARD_FLAG))

    @classmethod
    def parse(cls, text: str) -> Move:
        """``"play 5C"`` or ``"discard 5C"``; raises :class:`NotationError`."""
        verb, _, card = text.strip().partition(" ")
        if verb not in ("play", "discard"):
            raise NotationError(f"move {text!r}: expected 'play <card>' or 'discard <card>'")
        return cls(parse_card(card.strip()), verb == "discard")

    def __str__(self) -> str:
        return f"{'discard' if self.discard else 'play'} {card_name(self.card)}"


def hand_size(players: int) -> int:
    """Cards dealt to each seat; raises :class:`UsageError` for a player count the game lacks."""
    if isinstance(players, bool) or players not in HAND_SIZES:
        raise UsageError(f"players: must be one of {', '.join(map(str, HAND_SIZES))}, got {players!r}")
    return HAND_SIZES[players]


def check_seat(players: int, seat: int, name: str = "player") -> int:
    """``seat`` if it is a seat of the game; raises :class:`UsageError` naming the parameter."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise UsageError(f"{name}: must be a seat from 0 to {players - 1}, got {seat!r}")
    return seat


def deal_order(hands: Sequence[Sequence[int]], leader: int) -> list[int]:
    """The deck order that deals ``hands`` (seat 0's cards first), the undealt cards last, lowest
    first: how ``from_deal`` sets up a chosen deal on either engine. Raises :class:`UsageError`
    naming the bad card."""
    size = hand_size(len(hands))
    check_seat(len(hands), leader, "leader")
    seen: set[int] = set()
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise UsageError(f"hands[{seat}]: {len(hands)} players are dealt {size} cards each, got {len(hand)}")
        for i, card in enumerate(hand):
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE or card in seen:
                raise UsageError(f"hands[{seat}][{i}]: not a card id 0-{DECK_SIZE - 1} dealt once: {card!r}")
            seen.add(card)
    return [card for hand in hands for card in hand] + [c for c in range(DECK_SIZE) if c not in seen]


class TricksView(Protocol):
    """The members of a "tricks" state (reference or core) that the shared helpers read."""

    @property
    def players(self) -> int: ...
    @property
    def current_player(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def discards(self) -> list[int | None]: ...
    @property
    def history(self) -> list[tuple[int, Move]]: ...
    def scores(self) -> tuple[int, ...]: ...
    def legal_moves(self) -> list[Move]: ...


def checked_move(state: TricksView, move: Move | str) -> Move:
    """``move`` (or its notation) if it is legal in ``state``; raises :class:`IllegalMoveError`
    naming the move, the player and the ply, or :class:`NotationError`."""
    if isinstance(move, str):
        move = Move.parse(move)
    if move not in state.legal_moves():
        who = f"player {state.current_player}" if state.current_player >= 0 else "nobody (the game is over)"
        raise IllegalMoveError(f"ply {state.ply}: {who} cannot play {str(move)!r} here")
    return move
