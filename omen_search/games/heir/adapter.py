"""What the OpenSpiel and PettingZoo adapters (:mod:`omen_search.adapters`) need of Heir: its moves
as the dense actions of :mod:`~omen_search.games.heir.actions`, its observations as the vectors of
:mod:`~omen_search.games.heir.encoding`, what a public observer sees, the returns (+1 to the winner,
-1 to the loser, 0 each for a tie), the OpenSpiel parameters (``emissary`` for two players,
``level`` for the solo game) and a core state as its position document.

:class:`HeirAdapter` has the shape of ``omen_search.adapters.spec.GameAdapter`` (a game imports no
tool, so it does not name it); ``HeirGame.adapter(cards)`` makes one.

>>> from omen_search.game import get_game
>>> adapter = get_game("heir").adapter()
>>> core = adapter.new_core(7, adapter.config({"emissary": True}))
>>> [adapter.move_id_of(adapter.action_of(m)) for m in core.legal_move_ids()] == core.legal_move_ids()
True
>>> adapter.deserialize(adapter.serialize(core)).observation(0) == core.observation(0)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search._core import CoreState
from omen_search.game import Game
from omen_search.games.heir.actions import NUM_ACTIONS, action_of, packed_of
from omen_search.games.heir.cards import CardSet
from omen_search.games.heir.encoding import ObservationEncoder
from omen_search.games.heir.positions import load_position, to_position
from omen_search.games.heir.rules import Config

MAX_GAME_LENGTH = 3000  # plies; a game ends after 200 turns (ruling D-end-2), far fewer plies in practice


class HeirAdapter:
    """``heir`` or ``heir-solo`` with one card set, for the adapters."""

    num_actions = NUM_ACTIONS
    max_game_length = MAX_GAME_LENGTH
    min_utility, max_utility = -1.0, 1.0

    def __init__(self, game: Game, cards: CardSet):
        self.game = game
        self.cards = cards
        self.solo = len(game.deciding_seats) == 1
        self.encoder = ObservationEncoder(cards)
        self.observation_size = self.encoder.size
        self.observation_layout = {name: self.encoder.slice(name) for name in self.encoder.layout}
        self.utility_sum = None if self.solo else 0.0
        self.params: dict[str, Any] = {"level": "normal"} if self.solo else {"emissary": False}

    # -- set-up

    def config(self, params: Mapping[str, Any]) -> Config:
        """The configuration OpenSpiel's parameters set up (the others take their defaults)."""
        if self.solo:
            return Config(level=str(params.get("level", "normal")))
        return Config(emissary=bool(params.get("emissary", False)))

    def new_core(self, seed: int, config: Config) -> CoreState:
        return CoreState.new(seed=seed, cards=self.cards, config=config)

    def observation_high(self, config: Config) -> float:
        """The largest number the encoding can hold: counts are at most 40, the turn at most ``max_turns``."""
        return float(max(1000, config.max_turns))

    # -- actions

    def action_of(self, move_id: int) -> int:
        return action_of(move_id)

    def move_id_of(self, action: int) -> int:
        return packed_of(action)

    # -- observations

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return self.encoder.encode(observation, out)

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        """``player``'s observation without what only that seat sees (its hand, its unused tiles,
        which emissary it chose) and without its seat: the same from either seat."""
        me = observation["players"][player]
        me["hand"] = me["unused_tiles"] = None
        if "emissary" in me:
            me["emissary_chosen"] = me.pop("emissary") is not None
        observation["player"] = None
        return observation

    def encode_public(self, view: dict[str, Any], player: int,
                      out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of a public view, "mine" being ``player``'s: no cards in any hand, no unused tiles."""
        view = dict(view, player=player)
        view["players"] = [dict(p, hand=[], unused_tiles=[]) for p in view["players"]]
        return self.encoder.encode(view, out)

    # -- the end

    def returns(self, core: CoreState) -> tuple[float, ...]:
        """Per seat: +1 for the winner, -1 for the loser, 0 each for a tie."""
        winner = core.winner()
        return (0.0, 0.0) if winner is None else tuple(1.0 if p == winner else -1.0 for p in (0, 1))

    # -- serialisation

    def serialize(self, core: CoreState) -> Any:
        """The position document (everything that decides the rest of the game, the random
        generator included) and the deal's seed."""
        return to_position(core), core.seed

    def deserialize(self, data: Any) -> CoreState:
        position, seed = data
        core = CoreState.from_state(load_position(position, self.cards))
        core.seed = seed
        return core
