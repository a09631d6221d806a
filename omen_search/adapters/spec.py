"""What the OpenSpiel and PettingZoo adapters need of a game, beyond :class:`~omen_search.game.Game`:
``game.adapter(cards)`` returns an object of this shape (``HeirGame``'s is
``omen_search.games.heir.adapter.HeirAdapter``). It is a protocol, matched by shape: a game's folder
imports no tool, so its adapter does not name this class.

The adapters run on the game's core state (``game.new_initial_state(seed, engine="core")``):
``legal_move_ids()``, ``legal_moves()``, ``apply_id(id)``, ``current_player``, ``is_terminal()``,
``determinized(player, seed)``, ``observation(player)`` and ``clone()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from omen_search.game import Game


@runtime_checkable
class GameAdapter(Protocol):
    """One game (and card set) as the adapters see it: a fixed action space, observations as fixed-size
    ``float32`` vectors, the returns in the frameworks' convention and a way to store a core state."""

    @property
    def game(self) -> Game:
        """The game this adapts."""

    # -- set-up

    @property
    def params(self) -> Mapping[str, Any]:
        """The OpenSpiel parameters of the game's set-up and their defaults (``deals``, the number of
        deals the chance node chooses among, is every game's and not listed here)."""

    def config(self, params: Mapping[str, Any]) -> Any:
        """The game's configuration from OpenSpiel parameter values (:attr:`params`, defaults filled in)."""

    def new_core(self, seed: int, config: Any) -> Any:
        """A core state dealt from ``seed``."""

    # -- actions

    @property
    def num_actions(self) -> int:
        """The size of the action space: every move the core can generate has an index below it."""

    def action_of(self, move_id: int) -> int:
        """The action index of a core move id (the same in every state)."""

    def move_id_of(self, action: int) -> int:
        """The core move id of an action index (the inverse of :meth:`action_of`); raises
        :class:`~omen_search.errors.UsageError` for an index outside the action space."""

    # -- observations

    @property
    def observation_size(self) -> int:
        """The length of an observation vector."""

    @property
    def observation_layout(self) -> Mapping[str, slice]:
        """The segments of the vector by name, in order, tiling it."""

    def observation_high(self, config: Any) -> float:
        """The largest number an observation vector holds under ``config`` (the smallest is 0)."""

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of one seat's observation (``core.observation(seat)``), written into ``out``
        if given and returned; nothing the seat cannot see is in it."""

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        """What everyone sees of ``player``'s observation (which it may change and return): JSON
        that is the same whichever seat's observation it comes from."""

    def encode_public(self, view: dict[str, Any], player: int,
                      out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of a :meth:`public_view` from ``player``'s chair."""

    # -- the end

    @property
    def max_game_length(self) -> int:
        """The most moves a game can last (the deal not counted)."""

    @property
    def min_utility(self) -> float:
        """The lowest return a seat can get."""

    @property
    def max_utility(self) -> float:
        """The highest."""

    @property
    def utility_sum(self) -> float | None:
        """What the returns of the deciding seats always add up to (``None``: no constant)."""

    def returns(self, core: Any) -> tuple[float, ...]:
        """Per seat, the returns of a finished game in the adapters' convention."""

    # -- storage

    def serialize(self, core: Any) -> Any:
        """A picklable value that :meth:`deserialize` makes an equal core state of (one that plays
        on exactly as ``core``)."""

    def deserialize(self, data: Any) -> Any:
        """The core state :meth:`serialize` stored."""


def adapter_of(game: Game, cards: Any = None) -> GameAdapter:
    """``game``'s adapter (raises :class:`~omen_search.errors.UsageError` for a game that has none)."""
    adapter: GameAdapter = game.adapter(cards)
    return adapter
