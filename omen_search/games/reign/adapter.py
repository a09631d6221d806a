"""What the OpenSpiel and PettingZoo adapters (:mod:`omen_search.adapters`) need of Reign of War: its
moves as the dense actions of :mod:`~omen_search.games.reign.actions`, its observations as the vectors
of :mod:`~omen_search.games.reign.vectors`, what a public observer sees, the returns (+1 to the
winner, -1 to the loser, 0 each for a draw), the OpenSpiel parameters (the variants) and a core
state as its position document.

>>> from omen_search.game import get_game
>>> adapter = get_game("reign-of-war").adapter()
>>> core = adapter.new_core(7, adapter.config({"deck": "skill"}))
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

from omen_search._reign_core import CoreState
from omen_search.action_space import DenseActions
from omen_search.game import Game
from omen_search.games.reign.actions import SPACE
from omen_search.games.reign.cards import CardSet
from omen_search.games.reign.positions import load_position, to_position
from omen_search.games.reign.rules import Config
from omen_search.games.reign.vectors import ObservationVector

MAX_GAME_LENGTH = 20000  # plies: a game ends after 200 turns (R-end-4); random games take about 200


class ReignAdapter(DenseActions):
    """``reign-of-war`` with one card set, for the adapters."""

    space = SPACE
    max_game_length = MAX_GAME_LENGTH
    min_utility, max_utility = -1.0, 1.0
    utility_sum = 0.0
    params: dict[str, Any] = {"emissary": False, "beginner": False, "deck": "shared", "catch_up": False}

    def __init__(self, game: Game, cards: CardSet):
        self.game = game
        self.cards = cards
        self.encoder = ObservationVector(cards)
        self.observation_size = self.encoder.size
        self.observation_layout = {name: self.encoder.slice(name) for name in self.encoder.layout}

    def config(self, params: Mapping[str, Any]) -> Config:
        """The configuration OpenSpiel's parameters set up (Deck Building needs decks: not offered)."""
        return Config(emissary=bool(params.get("emissary", False)), beginner=bool(params.get("beginner", False)),
                      deck=str(params.get("deck", "shared")), catch_up=bool(params.get("catch_up", False)))

    def new_core(self, seed: int, config: Config) -> CoreState:
        return CoreState.new(seed=seed, cards=self.cards, config=config)

    def observation_high(self, config: Config) -> float:
        """The largest number the encoding holds: card counts are at most 174, coins the table's
        ``coin_supply``, the turn ``max_turns``."""
        return float(max(sum(u.copies for u in self.cards.units), config.coin_supply, config.max_turns))

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return self.encoder.encode(observation, out)

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        """``player``'s observation without what only that seat sees (its hand, its reward cards, its
        emissary, its deck list, its draft pack) and without its seat."""
        me = observation["players"][player]
        me["hand"] = me["rewards"] = None
        if "emissary" in me:
            me["emissary_chosen"] = me.pop("emissary") is not None
        if "deck_list" in me and observation["config"]["deck"] == "sdraft":
            me["deck_list"] = None
        observation.pop("sdraft", None)
        observation["player"] = None
        return observation

    def encode_public(self, view: dict[str, Any], player: int,
                      out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of a public view, "mine" being ``player``'s: no cards in any hand."""
        view = dict(view, player=player)
        view["players"] = [dict(p, hand=[], rewards=[], deck_list=p.get("deck_list") or []) for p in view["players"]]
        return self.encoder.encode(view, out)

    def returns(self, core: CoreState) -> tuple[float, ...]:
        """Per seat: +1 for the winner, -1 for the loser, 0 each for a draw."""
        winner = core.winner()
        return (0.0, 0.0) if winner is None else tuple(1.0 if p == winner else -1.0 for p in (0, 1))

    def serialize(self, core: CoreState) -> Any:
        """The position document (the random generator included) and the deal's seed."""
        return to_position(core), core.seed

    def deserialize(self, data: Any) -> CoreState:
        position, seed = data
        core = CoreState.from_state(load_position(position, self.cards))
        core.seed = seed
        return core
