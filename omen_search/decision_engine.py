"""The driver of an Omen reference engine, written once: a game is a sequence of decisions, each a
pending decision of a kind ``X`` whose legal moves ``_moves_X`` lists and whose move ``_do_X`` plays,
with undo and clone by snapshots of the parts that change (``_FIELDS``).

A game's ``GameState`` subclasses :class:`DecisionEngine` beside its own parts; it sets ``MOVE`` (its
move class, to parse notation), ``GAME_OVER`` (its last phase), ``DEAL_ATTEMPTS`` and ``_FIELDS``, and
has ``run_to_decision``, ``_deal_unseen``, ``from_parts``, ``pending``, ``phase``, ``ply``, ``rng`` and
the constructor ``(cards, config)``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from omen_search.errors import IllegalMoveError, UsageError
from omen_search.rng import Rng


class DecisionEngine:
    """Decisions, moves, undo and clone of a reference engine (see the module)."""

    MOVE: ClassVar[Any]
    GAME_OVER: ClassVar[str]
    DEAL_ATTEMPTS: ClassVar[int]  # deals tried for an opponent part-way through a discard of several cards
    _FIELDS: ClassVar[tuple[str, ...]]
    pending: Any
    phase: str
    ply: int
    seed: int | None
    rng: Rng
    history: list[tuple]
    moves: list[Any]

    def run_to_decision(self) -> None:
        raise NotImplementedError

    def _deal_unseen(self, player: int, rng: Rng) -> Self:
        """One deal of everything ``player`` cannot see, drawn from ``rng`` (the game says what)."""
        raise NotImplementedError

    @classmethod
    def from_parts(cls, parts: Any) -> Self:
        raise NotImplementedError

    def determinized(self, player: int, seed: int = 0) -> Self:
        """A copy in which everything ``player`` cannot see is dealt again (:meth:`_deal_unseen`),
        uniformly among exactly the unseen cards, so that ``player`` observes it exactly as this
        state; the copy has no history (undoing would bring the true hidden cards back). The same
        draws in the same order as the core's ``determinize``, so a seed gives the same world on both
        engines.

        An opponent part-way through discarding several cards, in card order (``pending.last``,
        which the player sees), is dealt again until its new hand holds its remaining picks from
        that card up; after ``DEAL_ATTEMPTS`` failures the true hidden cards stay, the game's
        generator reseeded."""
        if player not in (0, 1) or isinstance(player, bool):
            raise UsageError(f"player: must be 0 or 1, got {player!r}")
        rng = Rng(seed)
        if not (self.pending is not None and self.pending.kind == "discard" and self.pending.player == 1 - player):
            return self._deal_unseen(player, rng)
        for _ in range(self.DEAL_ATTEMPTS):
            world = self._deal_unseen(player, rng)
            if world.legal_moves():
                return world
        world = type(self).from_parts(self)
        world.rng = Rng.from_state([rng.next64() for _ in range(4)])
        return world

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
