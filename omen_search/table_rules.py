"""What a game gives the table companion (:mod:`omen_search.table`): the rules of following a game
played on a real table from one seat, event by event.

A game that can be followed so returns a :class:`TableRules` from :meth:`Game.table_rules`. Its
*world* is a game state built from what the user knows: the cards the user has not seen are placed
anywhere they could be, and moved among the hidden places whenever an event shows one of them (a
card drawn, a card the opponent plays), so that the world always agrees with every event entered.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from omen_search.errors import OmenError


class TableEventError(OmenError):
    """An event entered at the table that the rules do not allow, or a table record that does not
    replay: names the event and the reason (``event 12: Fallen Archivist is not in your hand``)."""


class MissingSeenError(OmenError):
    """An event (or the set-up) that showed the user something not yet said: which card was drawn,
    revealed or won. :attr:`question` says what to ask, and with which choices."""

    def __init__(self, message: str, question: TableQuestion):
        super().__init__(message)
        self.question = question


@dataclass(frozen=True)
class TableQuestion:
    """What the companion must ask next.

    ``kind`` is ``decision`` (seat ``seat`` decides: ``moves`` are what can be entered, in the
    game's notation: the legal moves for the user, every move the opponent could make with cards
    the user has not seen for the opponent), ``seen`` (the user saw a hidden card: ``choices``
    are its possible names) or ``over``."""

    kind: str
    seat: int
    prompt: str
    moves: tuple[Any, ...] = ()
    choices: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "prompt": self.prompt, "choices": list(self.choices)}


class TableRules(ABC):
    """A game's table play (see the module); refusals are :class:`TableEventError` without the
    event's number (the caller adds it), missing answers :class:`MissingSeenError`."""

    @abstractmethod
    def hand_choices(self, config: Any, cards: Any) -> tuple[int, tuple[str, ...]]:
        """How many cards a starting hand holds in ``config``, and the names it can hold."""

    @abstractmethod
    def start(self, config: Any, cards: Any, seat: int, hand: Sequence[str], seen: Sequence[str]) -> Any:
        """The world at the first decision: the user in ``seat`` holds ``hand``; ``seen`` names
        what the set-up showed the user beyond the hand (the first revealed card)."""

    @abstractmethod
    def apply(self, world: Any, seat: int, move: Any, seen: Sequence[str]) -> Any:
        """The world after ``seat`` made ``move``, which showed the user the hidden cards ``seen``
        (in the order they came); a new world, ``world`` is left as it was."""

    @abstractmethod
    def ask(self, world: Any) -> TableQuestion:
        """The decision the world waits for, or ``over``."""

    @abstractmethod
    def observation(self, world: Any) -> dict[str, Any]:
        """What the user knows: their observation of the world."""
