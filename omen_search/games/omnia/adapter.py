"""What the OpenSpiel and PettingZoo adapters (:mod:`omen_search.adapters`) need of OMNIA, for 2, 3
or 4 players (``omnia``, ``omnia-3``, ``omnia-4``): its moves as the dense actions of
:mod:`~omen_search.games.omnia.actions`, its observations as the vectors of
:mod:`~omen_search.games.omnia.vectors`, what a public observer sees, the returns (the winners of
N-score-3 share 1), the OpenSpiel parameters (``flavors``, ``first_player``, ``max_turns``) and a
core state as its fields and generator (everything ``CoreState.from_state`` rebuilds it from).

>>> from omen_search.game import get_game
>>> adapter = get_game("omnia-3").adapter()
>>> core = adapter.new_core(7, adapter.config({"flavors": "dusk,ember,tide", "first_player": 1}))
>>> [adapter.move_id_of(adapter.action_of(m)) for m in core.legal_move_ids()] == core.legal_move_ids()
True
>>> copy = adapter.deserialize(adapter.serialize(core))
>>> copy.observation(2) == core.observation(2) and copy.playout(5) == core.playout(5)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search._omnia_core import CoreState
from omen_search.action_space import DenseActions
from omen_search.game import Game
from omen_search.games.omnia.actions import action_space
from omen_search.games.omnia.cards import CardSet
from omen_search.games.omnia.reference import seat_flavors
from omen_search.games.omnia.rules import DEFAULT_MAX_TURNS, MAX_TURNS, Config
from omen_search.games.omnia.vectors import ObservationVector
from omen_search.rng import Rng

# plies a turn, a generous bound for max_game_length: random games take about 6 a turn (a turn is
# a run of small moves and of the others' priority passes, each spending a card or some source)
PLIES_PER_TURN = 400
_FIELDS = ("design", "owner", "flavor", "deck", "hand", "discard", "field", "primed", "shop_deck", "row", "stacks",
           "removed", "flow", "life", "pool", "damage", "pumped", "unblockable", "attached", "attacked", "used", "uid",
           "active", "turns", "phase", "ply")


class OmniaAdapter(DenseActions):
    """``omnia``, ``omnia-3`` or ``omnia-4`` with one card set, for the adapters; raises
    :class:`~omen_search.errors.UsageError` for a card set whose moves do not fit the action space
    (:func:`~omen_search.games.omnia.actions.action_space`)."""

    min_utility, max_utility, utility_sum = 0.0, 1.0, 1.0
    # flavors "": the set's first ones; first_player -1: drawn from the deal (N-setup-4)
    params: Mapping[str, Any] = {"flavors": "", "first_player": -1, "max_turns": DEFAULT_MAX_TURNS}

    def __init__(self, game: Game, cards: CardSet):
        self.game = game
        self.cards = cards
        self.players = game.players
        self.space = action_space(cards, game.players)
        self.max_game_length = MAX_TURNS * PLIES_PER_TURN
        self.encoder = ObservationVector(cards)
        self.observation_size = self.encoder.size
        self.observation_layout = {name: self.encoder.slice(name) for name in self.encoder.layout}

    def config(self, params: Mapping[str, Any]) -> Config:
        """The configuration OpenSpiel's parameters set up; raises :class:`~omen_search.errors.UsageError` for a bad one."""
        first = int(params.get("first_player", -1))
        flavors = str(params.get("flavors", "")).strip()
        config: Config = self.game.config(**({"flavors": flavors} if flavors else {}),
                                          first_player=None if first == -1 else first,
                                          max_turns=int(params.get("max_turns", DEFAULT_MAX_TURNS)))
        seat_flavors(self.cards, config)  # a flavor the set does not have: refused now, not at the deal
        return config

    def new_core(self, seed: int, config: Config) -> CoreState:
        return CoreState.new(seed, self.cards, config)

    def observation_high(self, config: Config) -> float:
        """No bound below infinity: a life total, an Atk or a pool can grow without a rule's limit."""
        return float("inf")

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return self.encoder.encode(observation, out)

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        """``player``'s observation without its seat and with its hand and primed spells as
        counts, as everyone else sees them (N-hidden-1, N-hidden-2)."""
        for seat in observation["players"]:
            for zone in ("hand", "primed"):
                if isinstance(seat[zone], list):
                    seat[zone] = len(seat[zone])
        observation["player"] = None
        return observation

    def encode_public(self, view: dict[str, Any], player: int,
                      out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of a public view, "mine" being ``player``'s: no card of any hand or primed."""
        return self.encoder.encode(dict(view, player=player), out)

    def returns(self, core: CoreState) -> tuple[float, ...]:
        """Per seat: 1 for a sole winner, 1/k each for k sharing the win, 0 for the others (N-score-3)."""
        return tuple(core.returns())

    def serialize(self, core: CoreState) -> Any:
        """The reference's fields of the state (an effect waiting in the step queue named by its
        card, its list and its place there), its generator's words, the set-up and the deal's seed."""
        view = core.view()
        fields = {name: getattr(view, name) for name in _FIELDS}
        fields["todo"] = [self._stored_step(step, view.design) for step in view.todo]
        return fields, view.rng.s, core.config, core.seed

    def deserialize(self, data: Any) -> CoreState:
        fields, words, config, seed = data
        design = fields["design"]
        todo = [self._read_step(step, design) for step in fields["todo"]]
        state = SimpleNamespace(cards=self.cards, config=config, rng=Rng.from_state(words), seed=seed, moves=(),
                                **dict(fields, todo=todo))
        return CoreState.from_state(state)

    def _effects(self, source: int, design: list[int]) -> list[tuple[dict[str, Any], ...]]:
        card = self.cards.cards[design[source]]
        return [card.effects, card.ability.effects if card.ability else (), card.trigger]

    def _stored_step(self, step: tuple, design: list[int]) -> tuple:
        """An effect step's operation is the card's own dict (the core finds it by identity): it
        is stored as where it is on the card."""
        if step[0] != "effect":
            return step
        name, player, effect, target, source = step
        where = next((k, i) for k, effects in enumerate(self._effects(source, design))
                     for i, e in enumerate(effects) if e is effect)
        return name, player, where, target, source

    def _read_step(self, step: tuple, design: list[int]) -> tuple:
        if step[0] != "effect":
            return step
        name, player, (k, i), target, source = step
        return name, player, self._effects(source, design)[k][i], target, source
