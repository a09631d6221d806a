"""Omen as OpenSpiel Python games, backed by the Cython core: ``omen_heir`` (two players) and
``omen_heir_solo`` (one player against the Corrupted Heir automaton).

Importing this module registers both games (``pyspiel.load_game("omen_heir")``).

* **Chance.** The only chance event OpenSpiel sees is the deal: one explicit chance node at the
  root whose outcomes are the game seeds ``0 .. deals-1`` (parameter ``deals``, default 4096),
  equally likely (``ChanceMode.EXPLICIT_STOCHASTIC``). Everything random after it (deck order,
  reshuffles, the Heir's tie-breaks) is fixed by that seed inside the core's own generator, so
  every later transition is deterministic, as OpenSpiel's conventions for explicit stochastic
  games require. (``SAMPLED_STOCHASTIC`` with a seed parameter would also be possible; the explicit
  deal lets OpenSpiel's algorithms and tests see and enumerate the randomness.)
* **Actions** are the dense indices of :mod:`omen_search.adapters.actions` (``NUM_ACTIONS``), the
  same move having the same index in every state; ``action_to_string`` gives our move notation.
* **Information.** ``observation_string(p)`` and ``information_state_string(p)`` are the JSON of
  what seat ``p`` sees (``docs/formats.md``, observations), which carries the turn, the ply and
  every public fact, including the cards each player knows the other holds. It is the game's
  own notion of an information set (our searches use it too), not a perfect-recall history: two
  histories that end in the same observation share a string. ``observation_tensor(p)`` is the
  vector of :mod:`omen_search.adapters.encoding`. A public observer
  (``IIGObservationType(private_info=PrivateInfoType.NONE)``) hides both seats' private cards.
  ``resample_from_infostate`` re-deals exactly the cards ``p`` cannot see
  (``CoreState.determinized``).
* **Serialisation.** OpenSpiel serialises a Python state by pickling its attributes; the core
  state among them pickles as its position document (``docs/formats.md``), which holds everything
  that decides the rest of the game, the random generator included, so a deserialised state plays
  on exactly as the original (``game.deserialize_state(state.serialize())``; Python games have no
  undo in OpenSpiel, so the core's undo history is not kept).
* **Solo.** The automaton moves inside the core's transitions (it has no decisions of its own
  that a learner could take), so ``omen_heir_solo`` is a one-player game: the player's return is
  +1 for a win, -1 for a loss; parameter ``level``.

OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search these games (nor any Python game with hidden
information): its ``step`` releases the GIL and then calls back into Python (a segmentation
fault), and called with the GIL held (``pyspiel.Bot.step(bot, state)``) it stops because
OpenSpiel's Python-game bridge does not forward ``ResampleFromInfostate`` to Python. OpenSpiel's
Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays them.
"""

from __future__ import annotations

import copyreg
import json
from typing import Any

import numpy as np
import pyspiel

from omen_search._core import CoreState
from omen_search.adapters.actions import NUM_ACTIONS, action_of, packed_of
from omen_search.adapters.encoding import ObservationEncoder
from omen_search.games.heir.cards import default_cards
from omen_search.games.heir.positions import load_position, to_position
from omen_search.games.heir.rules import DEFAULT_MAX_TURNS, Config

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
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


def _game_info(players: int, deals: int) -> Any:
    return pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=deals, num_players=players,
                            min_utility=-1.0, max_utility=1.0, utility_sum=0.0 if players == 2 else None,
                            max_game_length=MAX_GAME_LENGTH)


HEIR_TYPE = _game_type("omen_heir", "Omen: Heir to the Dunes", 2, {"deals": DEALS, "emissary": False})
SOLO_TYPE = _game_type("omen_heir_solo", "Omen: Heir to the Dunes, Corrupted Heir solo", 1,
                       {"deals": DEALS, "level": "normal"})


def _core_of(position: dict[str, Any], seed: int | None) -> CoreState:
    core = CoreState.from_state(load_position(position))
    core.seed = seed
    return core


copyreg.pickle(CoreState, lambda core: (_core_of, (to_position(core), core.seed)))


class _Shared:
    """What every state of one game shares; a deep copy (OpenSpiel's clone) keeps the same object."""

    __slots__ = ("deals", "config", "players")

    def __init__(self, deals: int, config: Config, players: int):
        self.deals, self.config, self.players = deals, config, players

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class OmenGame(pyspiel.Game):
    """``omen_heir`` or ``omen_heir_solo`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None, solo: bool = False):
        params = dict(params or {})
        game_type = SOLO_TYPE if solo else HEIR_TYPE
        deals = int(params.get("deals", DEALS))
        if deals < 1:
            raise ValueError(f"deals: must be at least 1, got {deals}")
        if solo:
            config = Config(level=str(params.get("level", "normal")), max_turns=DEFAULT_MAX_TURNS)
        else:
            config = Config(emissary=bool(params.get("emissary", False)))
        self.shared = _Shared(deals, config, 1 if solo else 2)
        self.encoder = ObservationEncoder(default_cards())
        super().__init__(game_type, _game_info(self.shared.players, deals), params)

    def new_initial_state(self) -> OmenState:
        return OmenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OmenObserver:
        return OmenObserver(self.encoder, iig_obs_type, params)


class OmenState(pyspiel.State):
    """A game in progress: ``core`` is ``None`` until the deal (the chance node). OpenSpiel clones a
    Python state by deep-copying its attributes: the core deep-copies as a clone (one memcpy)."""

    def __init__(self, game: OmenGame):
        super().__init__(game)
        self.shared = game.shared
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
        return sorted(map(action_of, self.core.legal_move_ids()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.shared.deals
        return [(seed, p) for seed in range(self.shared.deals)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            self.core = CoreState.new(seed=action, config=self.shared.config)
        else:
            self.core.apply_id(packed_of(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.core is None:
            return f"deal {action}"
        packed = packed_of(action)
        for m, move in zip(self.core.legal_move_ids(), self.core.legal_moves()):
            if m == packed:
                return str(move)
        return f"action {action}"  # not legal here: no card names to decode it with

    def is_terminal(self) -> bool:
        return self.core is not None and self.core.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.shared.players
        assert self.core is not None
        winner = self.core.winner()
        both = [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]
        return both[: self.shared.players]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OmenState:
        """A state seat ``player_id`` cannot tell from this one: the unseen cards re-dealt uniformly
        (``probability_sampler()``, a number in [0, 1), seeds the re-deal)."""
        if self.core is None:
            return self.clone()  # before the deal nobody has seen anything
        seed = int(probability_sampler() * 2**63)
        other = self.clone()
        other.core = self.core.determinized(player_id, seed)
        return other

    def __str__(self) -> str:
        if self.core is None:
            return "before the deal"
        return json.dumps(self.core.observation(0))  # not used by algorithms; seat 0's view for humans


class OmenObserver:
    """Observation strings (the observation JSON) and tensors (the encoder's vector) of one seat.

    ``iig_obs_type.private_info``: ``SINGLE_PLAYER`` (the default) sees the seat's own cards,
    ``NONE`` only what is public; ``ALL_PLAYERS`` is refused. ``perfect_recall`` changes nothing
    (see the module docstring)."""

    def __init__(self, encoder: ObservationEncoder, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("omen_heir: an observer of all players' private information is not supported")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {name: self.tensor[encoder.slice(name)] for name in encoder.layout}

    def _observation(self, state: OmenState, player: int) -> dict[str, Any] | None:
        if state.core is None:
            return None
        o = state.core.observation(player)
        if self.public_only:
            me = o["players"][player]
            me["hand"] = me["unused_tiles"] = None
            if "emissary" in me:
                me["emissary_chosen"] = me.pop("emissary") is not None
            o["player"] = None
        return o

    def set_from(self, state: OmenState, player: int) -> None:
        o = self._observation(state, player)
        if o is None:
            self.tensor.fill(0)
            return
        if self.public_only:
            o = dict(o, player=player)
            o["players"] = [dict(p, hand=[], unused_tiles=[]) for p in o["players"]]
        self.encoder.encode(o, self.tensor)

    def string_from(self, state: OmenState, player: int) -> str:
        o = self._observation(state, player)
        if o is None:
            return "before the deal"
        # sorted keys in the public view: the same text from either seat
        return json.dumps(o, separators=(",", ":"), sort_keys=self.public_only)


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
