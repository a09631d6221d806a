"""Omen as OpenSpiel Python games, backed by the Cython core: ``omen_heir`` (two players) and
``omen_heir_solo`` (one player against the Corrupted Heir automaton).

Importing this module registers both games (``pyspiel.load_game("omen_heir")``).

* **Chance.** The only chance event OpenSpiel sees is the deal, one explicit chance node at the
  root whose outcomes are the game seeds ``0 .. deals-1`` (parameter ``deals``, default 4096),
  equally likely. Everything random after it (deck order, reshuffles, the Heir's tie-breaks) is
  fixed by that seed inside the core, so every later transition is deterministic, as OpenSpiel's
  conventions for explicit stochastic games require.
* **Actions** are the dense indices of :mod:`omen_search.adapters.actions` (``NUM_ACTIONS``), the
  same move having the same index in every state; ``action_to_string`` gives our move notation.
* **Information.** ``observation_string(p)`` and ``information_state_string(p)`` are the JSON of
  what seat ``p`` sees (``docs/formats.md``, observations), which already carries the turn, the
  ply and every public fact, so equal strings mean equal information sets.
  ``resample_from_infostate`` re-deals exactly the cards ``p`` cannot see
  (``CoreState.determinized``).
* **Solo.** The automaton moves inside the core's transitions, so ``omen_heir_solo`` is a
  one-player game (the player's return is +1 for a win, -1 for a loss); parameter ``level``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from omen_search._core import CoreState
from omen_search.adapters.actions import NUM_ACTIONS, action_of, packed_of
from omen_search.reference.state import DEFAULT_MAX_TURNS, Config

DEALS = 4096
MAX_GAME_LENGTH = 3000  # plies; a game ends after 200 turns (ruling D-end-2), far fewer plies in practice


def _game_type(short_name: str, long_name: str, players: int, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification=params)


def _game_info(players: int, deals: int) -> Any:
    return pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=deals, num_players=players,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0 if players == 2 else None,
                            max_game_length=MAX_GAME_LENGTH)


HEIR_TYPE = _game_type("omen_heir", "Omen: Heir to the Dunes", 2, {"deals": DEALS, "emissary": False})
SOLO_TYPE = _game_type("omen_heir_solo", "Omen: Heir to the Dunes, Corrupted Heir solo", 1,
                       {"deals": DEALS, "level": "normal"})


class OmenGame(pyspiel.Game):
    """``omen_heir`` or ``omen_heir_solo`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None, solo: bool = False):
        params = dict(params or {})
        game_type = SOLO_TYPE if solo else HEIR_TYPE
        self.deals = int(params.get("deals", DEALS))
        if solo:
            self.config = Config(level=str(params.get("level", "normal")), max_turns=DEFAULT_MAX_TURNS)
        else:
            self.config = Config(emissary=bool(params.get("emissary", False)))
        super().__init__(game_type, _game_info(1 if solo else 2, self.deals), params)

    def new_initial_state(self) -> OmenState:
        return OmenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OmenObserver:
        return OmenObserver(iig_obs_type, params)


class OmenState(pyspiel.State):
    """A game in progress: ``core`` is ``None`` until the deal (the chance node). OpenSpiel clones a
    Python state by deep-copying its attributes; a core state deep-copies as a clone (a memcpy)."""

    def __init__(self, game: OmenGame):
        super().__init__(game)
        self.deals, self.config, self.players = game.deals, game.config, game.num_players()
        self.core: CoreState | None = None

    # -- the OpenSpiel state API
    def current_player(self) -> int:
        if self.core is None:
            return pyspiel.PlayerId.CHANCE
        if self.core.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.core.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.core is not None
        return sorted(action_of(m) for m in self.core.legal_move_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.deals
        return [(seed, p) for seed in range(self.deals)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            self.core = CoreState.new(seed=action, config=self.config)
        else:
            self.core.apply_id(packed_of(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.core is None:
            return f"deal {action}"
        packed = packed_of(action)
        for m, move in zip(self.core.legal_move_ids(), self.core.legal_moves()):
            if m == packed:
                return str(move)
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.core is not None and self.core.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.players
        assert self.core is not None
        winner = self.core.winner()
        both = [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]
        return both[: self.players]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OmenState:
        """A state seat ``player_id`` cannot tell from this one: the unseen cards re-dealt."""
        assert self.core is not None
        seed = int(probability_sampler() * 2**63)
        other = self.clone()
        other.core = self.core.determinized(player_id, seed)
        return other

    def __str__(self) -> str:
        if self.core is None:
            return "before the deal"
        return json.dumps(self.core.observation(0))  # not used by algorithms; seat 0's view for humans


class OmenObserver:
    """Observation and information-state strings: the JSON of what the seat sees (no tensor)."""

    def __init__(self, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: OmenState, player: int) -> None:
        pass

    def string_from(self, state: OmenState, player: int) -> str:
        if state.core is None:
            return "before the deal"
        return json.dumps(state.core.observation(player), sort_keys=True, separators=(",", ":"))


class OmenHeirGame(OmenGame):
    """``omen_heir``: two players."""

    def __init__(self, params: dict[str, Any] | None = None):
        super().__init__(params, solo=False)


class OmenHeirSoloGame(OmenGame):
    """``omen_heir_solo``: one player against the Corrupted Heir."""

    def __init__(self, params: dict[str, Any] | None = None):
        super().__init__(params, solo=True)


pyspiel.register_game(HEIR_TYPE, OmenHeirGame)
pyspiel.register_game(SOLO_TYPE, OmenHeirSoloGame)
