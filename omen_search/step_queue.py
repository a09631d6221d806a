"""The State interface of a reference engine whose turn runs through a queue of steps (OMEGA's,
OMNIA's), written once.

A game keeps ``self.todo``, the steps its rules take next, each a tuple ``(kind, seat, ...)``. A
step whose kind is in :attr:`StepQueueState.AUTO_STEPS` resolves by itself
(``self._step_<kind>(*args)``); any other is a choice of its seat: it waits for a move when it has
more than one, is played for the seat when it has exactly one (a choice with one outcome), and is
skipped when it has none. With the queue empty, the player whose turn it is picks a move of the
turn itself. Undo restores a snapshot of everything a move can change.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Self

from omen_search.errors import IllegalMoveError, NotationError
from omen_search.rng import Rng


class StepQueueState:
    """What a step-queue reference engine shares. A game supplies ``MOVE`` (its move class, with
    ``parse``), ``AUTO_STEPS``, ``DEFAULT_CARDS`` (its built-in card set's loader) and ``CONFIG`` (its
    configuration class), the field ``active``, and the methods ``_setup`` (the deal), ``_snapshot`` (a copy of every field a move changes), ``_step_moves(step)`` and
    ``_resolve(step, move)`` (the choices inside the queue), ``_turn_moves()`` and ``_turn_move(move)``
    (the moves of the turn itself, with the queue empty)."""

    MOVE: ClassVar[Any]
    AUTO_STEPS: ClassVar[tuple[str, ...]]
    DEFAULT_CARDS: ClassVar[Any]
    CONFIG: ClassVar[Any]
    active: int
    first_ply = 0  # the plies before this state's moves (a position read from an observation)

    def __init__(self, cards: Any, config: Any, seed: int):
        """What every step-queue game keeps: its card set, configuration and seed, the number of
        players, the generator that deals, and an empty queue, list of moves and undo history."""
        self.cards = cards
        self.config = config
        self.seed = seed
        self.n: int = config.players
        self.rng = Rng(seed)
        self.phase = "setup"
        self.todo: list[tuple] = []
        self.moves: list[Any] = []
        self._history: list[dict[str, Any]] = []

    @classmethod
    def new(cls, seed: int = 0, cards: Any = None, config: Any = None) -> Self:
        """Deal a game (the game's ``_setup``) and run to its first decision: with the built-in card set
        and the default configuration unless given."""
        state = cls(cards or cls.DEFAULT_CARDS(), config or cls.CONFIG(), seed)
        state._setup()
        return state

    def _setup(self) -> None:
        raise NotImplementedError  # the game's deal

    @property
    def ply(self) -> int:
        return self.first_ply + len(self.moves)

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return -1
        return self.todo[0][1] if self.todo else self.active

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_moves(self) -> list[Any]:
        if self.phase == "over":
            return []
        if self.todo:
            return self._step_moves(self.todo[0])
        return self._turn_moves()

    def apply(self, move: Any) -> None:
        """The checked door: ``move`` (or its text) must be legal here; raises
        :class:`IllegalMoveError` naming the move, the player and the ply, changing nothing."""
        if isinstance(move, str):
            try:
                move = self.MOVE.parse(move)
            except NotationError as exc:
                raise IllegalMoveError(f"ply {self.ply}: {exc}") from None
        if move not in self.legal_moves():
            who = f"seat {self.current_player}" if self.phase != "over" else "nobody (the game is over)"
            raise IllegalMoveError(f"ply {self.ply}: {move} is not legal for {who} here")
        self.apply_trusted(move)

    def apply_trusted(self, move: Any) -> None:
        """The fast door, for a move taken from :meth:`legal_moves`."""
        self._history.append(self._snapshot())
        self.moves.append(move)
        if self.todo:
            self._resolve(self.todo.pop(0), move)
        else:
            self._turn_move(move)
        self._run()

    def undo(self) -> Any:
        if not self._history:
            raise IndexError("undo: no move to take back")
        move = self.moves.pop()
        self.__dict__.update(self._history.pop())
        return move

    def clone(self) -> Any:
        other = copy.copy(self)
        other.__dict__.update(self._snapshot())
        other.moves = list(self.moves)
        other._history = list(self._history)  # snapshots are never changed, so they can be shared
        return other

    def _run(self) -> None:
        """Resolve steps until a player must choose (or the game is over)."""
        while self.todo and self.phase != "over":
            step = self.todo[0]
            if step[0] in self.AUTO_STEPS:
                self.todo.pop(0)
                getattr(self, f"_step_{step[0]}")(*step[1:])
                continue
            moves = self._step_moves(step)
            if len(moves) > 1:
                return
            self.todo.pop(0)
            if moves:  # a choice with one outcome is made for the player
                self._resolve(step, moves[0])
        if self.phase == "over":
            self.todo = []

    def _push(self, *steps: tuple) -> None:
        """Put steps at the front of the queue, in order: they happen at once."""
        self.todo[0:0] = list(steps)

    # -- what the game supplies

    def _snapshot(self) -> dict[str, Any]:
        raise NotImplementedError

    def _step_moves(self, step: tuple) -> list[Any]:
        raise NotImplementedError

    def _resolve(self, step: tuple, move: Any) -> None:
        raise NotImplementedError

    def _turn_moves(self) -> list[Any]:
        raise NotImplementedError

    def _turn_move(self, move: Any) -> None:
        raise NotImplementedError
