"""The State interface of Heir's two engines, written down for the type checker: the generic one
(:class:`omen_search.state.State`) and the public game state its formats and rendering read.

The reference engine (:class:`omen_search.games.heir.reference.GameState`) and the Cython core
(:class:`omen_search._core.CoreState`) are separate classes with no common base: the core is a
``cdef class`` over a flat C struct. Everything in the game folder above the rules (observations, positions,
rendering, the heuristic) takes either, so it is typed against this :class:`State` protocol
rather than against one engine. A class conforms by having the members below; nothing subclasses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Self

if TYPE_CHECKING:  # type-only: the engines and the formats below import this module
    from omen_search.games.heir.cards import CardSet, Unit
    from omen_search.games.heir.rules import Config, Pending
    from omen_search.games.heir.notation import Move
    from omen_search.rng import Rng


class State(Protocol):
    """A game in progress, as every engine presents it.

    The methods are the decision interface that search and play use. The read-only properties
    are the public game state, under the reference engine's names, that
    :func:`~omen_search.games.heir.observe.observe`, :func:`~omen_search.games.heir.positions.to_position`,
    the records and :mod:`omen_search.games.heir.render` read; the core exposes
    the same names as views of its struct. Changing them means going through the methods.
    """

    # ------------------------------------------------------------------ decisions

    @property
    def current_player(self) -> int:
        """The seat that makes the next decision (``-1`` once the game is over)."""
        ...

    def legal_moves(self) -> list[Move]:
        """Every legal move of :attr:`current_player`, in the engine's fixed generation order."""
        ...

    def apply(self, move: Move | str, /) -> None:
        """Play a move after checking it; raises ``IllegalMoveError`` naming move, player and ply."""
        ...

    def apply_trusted(self, move: Move, /) -> None:
        """Play a move taken from :meth:`legal_moves` without checking it (the fast door)."""
        ...

    def undo(self) -> Move:
        """Take back the last move and return it."""
        ...

    def clone(self) -> Self:
        """An independent copy on the same engine."""
        ...

    def is_terminal(self) -> bool: ...

    def scores(self) -> tuple[int, int]:
        """Victory points of each seat now."""
        ...

    def winner(self) -> int | None:
        """The winning seat once the game is over, else ``None``."""
        ...

    def returns(self) -> tuple[float, float]:
        """1 for the winner and 0 for the loser (0 each while the game goes on)."""
        ...

    def observation(self, player: int, /) -> dict[str, Any]:
        """Exactly what ``player`` knows, as a JSON-ready dict (``omen-observation/1``)."""
        ...

    def determinized(self, player: int, seed: int = 0) -> Self:
        """A copy with everything ``player`` cannot see dealt again from ``seed`` (the same world on
        both engines), observed by ``player`` exactly as this state."""
        ...

    def hand_size(self, player: int, /) -> int: ...

    def strength(self, city: int, player: int, /) -> int:
        """A side's strength in a war at ``city`` now (favor included)."""
        ...

    def war_torn_cities(self) -> list[int]:
        """H-war-1: the cities that would go to war in this turn's War step, as things stand."""
        ...

    def side_count(self, city: int, player: int, /) -> int:
        """A side's unit-count at ``city`` (COLOSSAL counts 2): capacity and war-torn checks."""
        ...

    # ------------------------------------------------------------------ the game and its set-up

    @property
    def cards(self) -> CardSet: ...
    @property
    def config(self) -> Config: ...
    @property
    def units(self) -> tuple[Unit, ...]:
        """The card set's unit designs; every count array below is indexed by their ids."""
        ...
    @property
    def T(self) -> int:
        """The number of unit designs (the length of every count array)."""
        ...
    @property
    def seed(self) -> int | None:
        """The deal's seed, for records; ``None`` for a state not made from a seed."""
        ...
    @property
    def moves(self) -> list[Move]:
        """The moves played so far, oldest first."""
        ...
    @property
    def rng(self) -> Rng:
        """The game's generator: part of the state, so chance replays exactly."""
        ...

    # ------------------------------------------------------------------ turn and phase

    @property
    def turn(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def active(self) -> int: ...
    @property
    def first_turn(self) -> bool: ...
    @property
    def phase(self) -> str: ...
    @property
    def favor(self) -> str: ...
    @property
    def pending(self) -> Pending | None:
        """The decision waiting for a move; ``None`` once the game is over."""
        ...
    @property
    def stack(self) -> list[tuple]:
        """Effect frames being resolved, ``(ref, index, owner, city)``."""
        ...
    @property
    def discount_used(self) -> bool: ...
    @property
    def reward_used(self) -> bool: ...
    @property
    def reveal_again_used(self) -> bool: ...
    @property
    def war_city(self) -> int: ...
    @property
    def war_victor(self) -> int: ...
    @property
    def keep_step(self) -> int: ...

    # ------------------------------------------------------------------ zones (unit ids, tile ids, counts)

    @property
    def deck(self) -> list[int]:
        """Unit ids, top of the deck last (hidden: observations show only its size)."""
        ...
    @property
    def discard(self) -> list[int]: ...
    @property
    def city_tiles(self) -> list[list[int]]:
        """Reward tile ids stacked on each city, top last (hidden: observations count them)."""
        ...
    @property
    def cities(self) -> list[list[list[int]]]:
        """Unit counts by city, then seat."""
        ...
    @property
    def revealed(self) -> list[int]: ...
    @property
    def limbo(self) -> list[int]: ...
    @property
    def hands(self) -> list[list[int]]: ...
    @property
    def known(self) -> list[list[int]]:
        """Per seat, the counts of hand cards the opponent knows about."""
        ...
    @property
    def under(self) -> list[list[int]]: ...
    @property
    def destroyed(self) -> list[list[int]]: ...
    @property
    def coins(self) -> list[int]: ...
    @property
    def reserve(self) -> int: ...  # solo game: the Corrupted Heir's coins beside its card
    @property
    def unused(self) -> list[list[int]]: ...
    @property
    def used(self) -> list[list[int]]: ...
    @property
    def building(self) -> list[int]:
        """Per seat, the slot of the structure being built, or ``-1``."""
        ...
    @property
    def completed(self) -> list[list[bool]]: ...
    @property
    def emissaries(self) -> list[int]: ...
