"""The State interface every engine of every game implements, written down for the type checker.

The search and the tools (perft, records, bots, match, advisor) take a game's state through these
members only; what a game shows beyond them (Heir's cities, hands and coins) is the game's own
(:mod:`omen_search.games.heir.state`). A class conforms by having the members below; nothing
subclasses it. A *core* state (:class:`CoreState`) adds the move ids and the C contract that the
search in ``ext/search/_search.pyx`` runs on.
"""

from __future__ import annotations

from typing import Any, Protocol, Self


class State(Protocol):
    """A game in progress, as every engine presents it: the decision interface."""

    @property
    def current_player(self) -> int:
        """The seat that makes the next decision (``-1`` once the game is over)."""
        ...

    @property
    def ply(self) -> int:
        """The moves played so far."""
        ...

    @property
    def moves(self) -> list[Any]:
        """The moves played so far, oldest first."""
        ...

    def legal_moves(self) -> list[Any]:
        """Every legal move of :attr:`current_player`, in the engine's fixed generation order."""
        ...

    def apply(self, move: Any, /) -> None:
        """Play a move after checking it; raises ``IllegalMoveError`` naming move, player and ply."""
        ...

    def apply_trusted(self, move: Any, /) -> None:
        """Play a move taken from :meth:`legal_moves` without checking it (the fast door)."""
        ...

    def undo(self) -> Any:
        """Take back the last move and return it."""
        ...

    def clone(self) -> Self:
        """An independent copy on the same engine."""
        ...

    def is_terminal(self) -> bool: ...

    def scores(self) -> tuple[int, ...]:
        """Each seat's points now."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Each seat's result once the game is over (the winners share 1), 0 each before."""
        ...

    def observation(self, player: int, /) -> dict[str, Any]:
        """Exactly what ``player`` knows, as a JSON-ready dict."""
        ...

    def determinized(self, player: int, seed: int = 0) -> Self:
        """A copy with everything ``player`` cannot see dealt again from ``seed`` (the same world on
        both engines), observed by ``player`` exactly as this state."""
        ...


class CoreState(State, Protocol):
    """A state on a game's Cython core: moves as ids, and the C contract the search runs on."""

    def legal_move_ids(self) -> list[int]: ...

    def apply_id(self, move_id: int, /) -> None: ...

    def game_handle(self) -> Any:
        """A capsule holding the game's C function table and this state (``ext/common/game_api.pxd``)."""
        ...
