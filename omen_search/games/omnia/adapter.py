"""OMNIA for the OpenSpiel and PettingZoo adapters (:mod:`omen_search.adapters`), one adapter per
player count and card set: moves numbered by :mod:`~omen_search.games.omnia.actions`, observations
encoded by :mod:`~omen_search.games.omnia.vectors`, a public observer who sees every hand and
primed spell as a count, the winners of N-score-3 sharing 1 (:class:`~omen_search.fields_adapter.FieldsAdapter`),
and OpenSpiel's parameters ``flavors``, ``first_player`` and ``max_turns``.

>>> from omen_search.game import get_game
>>> adapter = get_game("omnia-3").adapter()
>>> core = adapter.new_core(7, adapter.config({"flavors": "dusk,ember,tide", "first_player": 1}))
>>> actions = [adapter.action_of(m) for m in core.legal_move_ids()]
>>> [adapter.move_id_of(a) for a in actions] == core.legal_move_ids(), adapter.num_actions
(True, 6964)
>>> stored = adapter.deserialize(adapter.serialize(core))
>>> [stored.observation(p) for p in range(3)] == [core.observation(p) for p in range(3)]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from omen_search._omnia_core import CoreState
from omen_search.fields_adapter import FieldsAdapter
from omen_search.game import Game
from omen_search.games.omnia.actions import action_space
from omen_search.games.omnia.cards import CardSet
from omen_search.games.omnia.reference import seat_flavors
from omen_search.games.omnia.rules import DEFAULT_MAX_TURNS, MAX_TURNS, Config
from omen_search.games.omnia.vectors import ObservationVector

# plies a turn, a generous bound for max_game_length: random games take 3.3 a turn on average and
# at most 25 in 300 games (a turn is a run of small moves and of the others' priority passes, each
# spending a card or some source)
PLIES_PER_TURN = 400


class OmniaAdapter(FieldsAdapter):
    """``omnia``, ``omnia-3`` or ``omnia-4`` with one card set, for the adapters; raises
    :class:`~omen_search.errors.UsageError` for a card set whose moves do not fit the action space
    (:func:`~omen_search.games.omnia.actions.action_space`)."""

    core = CoreState
    fields = ("design", "owner", "flavor", "deck", "hand", "discard", "field", "primed", "shop_deck", "row",
              "stacks", "removed", "flow", "life", "pool", "damage", "pumped", "unblockable", "attached", "attacked",
              "used", "uid", "active", "turns", "phase", "ply", "todo")
    # flavors "": the set's first ones; first_player -1: drawn from the deal (N-setup-4)
    params: Mapping[str, Any] = {"flavors": "", "first_player": -1, "max_turns": DEFAULT_MAX_TURNS}

    def __init__(self, game: Game, cards: CardSet):
        super().__init__(game, cards, ObservationVector(cards))
        self.space = action_space(cards, game.players)
        self.max_game_length = MAX_TURNS * PLIES_PER_TURN

    def config(self, params: Mapping[str, Any]) -> Config:
        """The configuration OpenSpiel's parameters set up; raises
        :class:`~omen_search.errors.UsageError` for a bad one."""
        first = int(params.get("first_player", -1))
        flavors = str(params.get("flavors", "")).strip()
        config: Config = self.game.config(**({"flavors": flavors} if flavors else {}),
                                          first_player=None if first == -1 else first,
                                          max_turns=int(params.get("max_turns", DEFAULT_MAX_TURNS)))
        seat_flavors(self.cards, config)  # a flavor the set does not have: refused now, not at the deal
        return config

    def observation_high(self, config: Config) -> float:
        """No bound below infinity: a life total, an Atk or a pool can grow without a rule's limit."""
        return float("inf")

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        """``player``'s observation without its seat and with its hand and primed spells as
        counts, among its unseen cards, as everyone else sees them (N-hidden-1, N-hidden-2)."""
        for seat in observation["players"]:
            for zone in ("hand", "primed"):
                if isinstance(seat[zone], list):
                    seat["unseen"] = sorted(seat["unseen"] + seat[zone])
                    seat[zone] = len(seat[zone])
        observation["player"] = None
        return observation

    def stored(self, fields: dict[str, Any]) -> dict[str, Any]:
        """An effect step's operation is the card's own dict (the core finds it by identity, which
        a pickle loses): it is stored as where it is on the card."""
        return dict(fields, todo=[self._stored_step(step, fields["design"]) for step in fields["todo"]])

    def read(self, fields: dict[str, Any]) -> dict[str, Any]:
        return dict(fields, todo=[self._read_step(step, fields["design"]) for step in fields["todo"]])

    def _stored_step(self, step: tuple, design: list[int]) -> tuple:
        if step[0] != "effect":
            return step
        name, player, effect, target, source = step
        return name, player, self.cards.cards[design[source]].operation_place(effect), target, source

    def _read_step(self, step: tuple, design: list[int]) -> tuple:
        if step[0] != "effect":
            return step
        name, player, (k, i), target, source = step
        return name, player, self.cards.cards[design[source]].operations()[k][i], target, source
