"""The driver of an Omen reference engine, written once: a game is a sequence of decisions, each a
pending decision of a kind ``X`` whose legal moves ``_moves_X`` lists and whose move ``_do_X`` plays,
with undo and clone by snapshots of the parts that change (``_FIELDS``).

A game's ``GameState`` subclasses :class:`DecisionEngine` beside its own parts; it sets ``MOVE`` (its
move class, to parse notation), ``GAME_OVER`` (its last phase) and ``_FIELDS``, and has
``run_to_decision``, ``pending``, ``phase``, ``ply`` and the constructor ``(cards, config)``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from omen_search.errors import IllegalMoveError
from omen_search.rng import Rng


class DecisionEngine:
    """Decisions, moves, undo and clone of a reference engine (see the module)."""

    MOVE: ClassVar[Any]
    GAME_OVER: ClassVar[str]
    _FIELDS: ClassVar[tuple[str, ...]]
    pending: Any
    phase: str
    ply: int
    seed: int | None
    history: list[tuple]
    moves: list[Any]

    def run_to_decision(self) -> None:
        raise NotImplementedError

    @property
    def current_player(self) -> int:
        """The player who makes the next decision (``-1`` once the game is over)."""
        return self.pending.player if self.pending is not None else -1

    def is_terminal(self) -> bool:
        return self.phase == self.GAME_OVER

    def legal_moves(self) -> list[Any]:
        """Every legal move of :attr:`current_player`, in the engine's fixed generation order."""
        if self.pending is None:
            return []
        return getattr(self, "_moves_" + self.pending.kind)(self.pending)

    def apply(self, move: Any) -> None:
        """Play ``move`` (a move or its notation) after checking that it is legal.

        Raises :class:`IllegalMoveError` naming the move, the player and the ply.
        """
        if isinstance(move, str):
            move = self.MOVE.parse(move)
        legal = self.legal_moves()
        if move not in legal:
            who = f"player {self.current_player}" if self.pending else "nobody (the game is over)"
            raise IllegalMoveError(
                f"ply {self.ply}: {who} cannot play {str(move)!r} here"
                + (f" ({self.pending.kind} decision; {len(legal)} legal moves)" if self.pending else "")
            )
        self.apply_trusted(move)

    def apply_trusted(self, move: Any) -> None:
        """Play a move known to be legal (one from :meth:`legal_moves`), without checking it."""
        self.history.append(self._snapshot())
        self.moves.append(move)
        pending, self.pending = self.pending, None
        self.ply += 1
        getattr(self, "_do_" + pending.kind)(pending, move)  # a legal move means a decision was pending
        self.run_to_decision()

    def undo(self) -> Any:
        """Take back the last move and return it; raises ``IndexError`` at the start of the game."""
        if not self.history:
            raise IndexError("undo: no move to take back")
        self._restore(self.history.pop())
        return self.moves.pop()

    def clone(self) -> Self:
        """An independent copy, history included."""
        other = type(self)(self.cards, self.config)  # type: ignore[attr-defined, call-arg]
        other._restore(self._snapshot())
        other.history = list(self.history)
        other.moves = list(self.moves)
        other.seed = self.seed
        return other

    def _snapshot(self) -> tuple:
        return tuple(deep_copy(getattr(self, f)) for f in self._FIELDS)

    def _restore(self, snap: tuple) -> None:
        for f, v in zip(self._FIELDS, snap):
            setattr(self, f, deep_copy(v))

    @staticmethod
    def _pick_keys(counts: list[int], last: int, remaining: int, mandatory: bool) -> list[int]:
        """Keys ``k >= last`` with ``counts[k] > 0``; for a mandatory pick, only keys that leave
        enough at or above them to finish (so every sequence of picks can complete: D-pick-1)."""
        keys = []
        suffix = sum(counts[last:])
        for k in range(last, len(counts)):
            if counts[k] and (not mandatory or suffix >= remaining):
                keys.append(k)
            suffix -= counts[k]
        return keys


def deep_copy(v: Any) -> Any:
    """Copy nested lists (the only mutable things in a snapshot); the generator by its words."""
    if isinstance(v, list):
        return [deep_copy(x) for x in v] if v and isinstance(v[0], list) else list(v)
    if isinstance(v, Rng):
        return Rng.from_state(v.s)
    return v
