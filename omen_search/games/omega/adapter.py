"""What the OpenSpiel and PettingZoo adapters (:mod:`omen_search.adapters`) need of OMEGA, for 2, 3
or 4 players (``omega``, ``omega-3``, ``omega-4``): its moves as the dense actions of
:mod:`~omen_search.games.omega.actions`, its observations as the vectors of
:mod:`~omen_search.games.omega.vectors`, what a public observer sees, the returns (the winners of
O-judge-2 share 1), the OpenSpiel parameters (``first_player``, ``max_turns``) and a core state as
its fields and generator (everything ``CoreState.from_state`` rebuilds it from).

>>> from omen_search.game import get_game
>>> adapter = get_game("omega-3").adapter()
>>> core = adapter.new_core(7, adapter.config({"first_player": 1}))
>>> [adapter.move_id_of(adapter.action_of(m)) for m in core.legal_move_ids()] == core.legal_move_ids()
True
>>> copy = adapter.deserialize(adapter.serialize(core))
>>> copy.observation(2) == core.observation(2) and copy.playout(5) == core.playout(5)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from omen_search._omega_core import CoreState
from omen_search.fields_adapter import FieldsAdapter
from omen_search.game import Game
from omen_search.games.omega.actions import SPACE
from omen_search.games.omega.cards import CardSet
from omen_search.games.omega.rules import DEFAULT_MAX_TURNS, MAX_TURNS, Config
from omen_search.games.omega.vectors import ObservationVector

# plies a turn, a generous bound for max_game_length: random games take about 11 (a Main phase is a
# run of small moves, each spending runes of a Pyramid, which holds at most the bag's 155)
PLIES_PER_TURN = 400


class OmegaAdapter(FieldsAdapter):
    """``omega``, ``omega-3`` or ``omega-4`` with one card set, for the adapters."""

    core = CoreState
    fields = ("ply", "turns", "active", "phase", "todo", "gained", "disowned", "mask_moved", "used", "announcer",
              "final", "bag", "altar", "gallery", "stack", "discard", "arcana", "pyramid", "known", "controlled",
              "carried", "mask", "pawn", "prestige", "taken", "lost")
    space = SPACE
    params: Mapping[str, Any] = {"first_player": 0, "max_turns": DEFAULT_MAX_TURNS}

    def __init__(self, game: Game, cards: CardSet):
        super().__init__(game, cards, ObservationVector(cards))
        self.max_game_length = MAX_TURNS * PLIES_PER_TURN

    def config(self, params: Mapping[str, Any]) -> Config:
        """The configuration OpenSpiel's parameters set up (checked by :class:`Config`)."""
        return Config(players=self.players, first_player=int(params.get("first_player", 0)),
                      max_turns=int(params.get("max_turns", DEFAULT_MAX_TURNS)))

    def observation_high(self, config: Config) -> float:
        """The largest number the encoding holds: rune counts are at most the set's runes, the turn
        ``max_turns``, a prestige (each Arcanum and full Egregor of the set) below 1,000."""
        return float(max(sum(self.cards.runes), config.max_turns, 1000))

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        """``player``'s observation without its seat and with every Pyramid reduced to its size:
        the observer's own Pyramid shows all its runes and not which of them the others know, so
        the known runes cannot be told the same way from every seat."""
        for seat in observation["players"]:
            seat["pyramid"] = {"size": seat["pyramid"]["size"]}
        observation["player"] = None
        return observation

    def words(self, core: Any, view: Any) -> list[int]:
        """The core's own generator (its view has none)."""
        words: list[int] = core.rng.s
        return words
