"""The engines that implement the rules, by name: ``reference`` (readable Python) and ``core`` (Cython).

Both implement the same State interface (``current_player``, ``legal_moves``, ``apply``, ``undo``,
``clone``, ``is_terminal``, ``scores``, ``winner``, ``observation``), so everything above the rules
takes either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from omen_search.errors import UsageError
from omen_search.game import ENGINES
from omen_search.games.heir.cards import CardSet
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from omen_search.games.heir.state import State

EngineName = Literal["core", "reference"]


def new_game(engine: str = "core", seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> Any:
    """A new game on the named engine; the same seed deals the same game on both."""
    if engine == "reference":
        return GameState.new(seed=seed, cards=cards, config=config)
    if engine == "core":
        from omen_search._core import CoreState

        return CoreState.new(seed=seed, cards=cards, config=config)
    raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")


if TYPE_CHECKING:
    from omen_search._core import CoreState

    def _both_engines_conform(reference: GameState, core: CoreState) -> tuple[State, State]:
        """Never called: mypy fails here if either engine drifts from the State protocol."""
        return reference, core
