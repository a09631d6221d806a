"""The registered games as OpenSpiel Python games, backed by their cores: ``omen_<identifier>`` for
each game of :mod:`omen_search.game`'s registry that has an adapter (``game.adapter()``, see
:mod:`omen_search.adapters.spec`; :attr:`~omen_search.game.Game.identifier` is the name with ``-``
written ``_`` unless the game says otherwise): ``omen_heir`` (two players), ``omen_heir_solo`` (one
player against the Corrupted Heir automaton), ``omen_reign`` (Reign of War), ``omen_omega``,
``omen_omega_3``, ``omen_omega_4`` (OMEGA: the ritual for 2, 3 and 4 players) and ``omen_omnia``,
``omen_omnia_3``, ``omen_omnia_4`` (OMNIA: the deck builder for 2, 3 and 4 players).

Importing this module registers every game registered by then (``pyspiel.load_game("omen_heir")``);
:func:`register_openspiel_game` registers one more (a game registered later, a test's game).

* **Players** are the game's deciding seats (``game.deciding_seats``): a seat that the rules play
  by themselves (the solo game's Corrupted Heir) moves inside the core's transitions and is no
  OpenSpiel player, so ``omen_heir_solo`` is a one-player game.
* **Chance.** The only chance event OpenSpiel sees is the deal: one explicit chance node at the
  root whose outcomes are the game seeds ``0 .. deals-1`` (parameter ``deals``, default 4096),
  equally likely (``ChanceMode.EXPLICIT_STOCHASTIC``). Everything random after it (deck order,
  reshuffles, the Heir's tie-breaks) is fixed by that seed inside the core's own generator, so
  every later transition is deterministic, as OpenSpiel's conventions for explicit stochastic
  games require. (``SAMPLED_STOCHASTIC`` with a seed parameter would also be possible; the explicit
  deal lets OpenSpiel's algorithms and tests see and enumerate the randomness.) The game's other
  parameters are its adapter's (``params``: Heir's ``emissary``, the solo game's ``level``).
* **Actions** are the adapter's dense indices (Heir: :mod:`omen_search.games.heir.actions`), the
  same move having the same index in every state; ``action_to_string`` gives the game's notation.
* **Information.** ``observation_string(p)`` and ``information_state_string(p)`` are the JSON of
  what player ``p`` sees (``core.observation(seat)``; Heir: ``docs/formats.md``, observations),
  which carries the turn, the ply and every public fact, including the cards each player knows
  another holds. It is the game's own notion of an information set (our searches use it too), not
  a perfect-recall history: two histories that end in the same observation share a string.
  ``observation_tensor(p)`` is the adapter's vector (Heir: :mod:`omen_search.games.heir.encoding`).
  A public observer (``IIGObservationType(private_info=PrivateInfoType.NONE)``) sees the
  adapter's ``public_view``: no seat's private cards. ``resample_from_infostate`` re-deals exactly
  the cards ``p`` cannot see (``core.determinized``).
* **Returns** are the adapter's (Heir: +1 for a win, -1 for a loss, 0 each for a tie; in the solo
  game the player's alone). A game whose deciding seats' returns always add up to the same number
  is zero-sum (the sum 0) or constant-sum, any other general-sum.
* **Serialisation.** OpenSpiel serialises a Python state by pickling its attributes; the core
  state among them pickles as what the adapter's ``serialize`` makes of it (Heir: its position
  document, ``docs/formats.md``, which holds everything that decides the rest of the game, the
  random generator included), so a deserialised state plays on exactly as the original
  (``game.deserialize_state(state.serialize())``; Python games have no undo in OpenSpiel, so the
  core's undo history is not kept).

OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search these games (nor any Python game with hidden
information): its ``step`` releases the GIL and then calls back into Python (a segmentation
fault), and called with the GIL held (``pyspiel.Bot.step(bot, state)``) it stops because
OpenSpiel's Python-game bridge does not forward ``ResampleFromInfostate`` to Python. OpenSpiel's
Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from omen_search.adapters.spec import GameAdapter, adapter_of
from omen_search.errors import UsageError
from omen_search.game import Game, all_games

DEALS = 4096


def short_name(game: Game) -> str:
    """The OpenSpiel name of a game: ``omen_heir_solo`` for ``heir-solo``, ``omen_reign`` for
    ``reign-of-war`` (:attr:`Game.identifier`)."""
    return "omen_" + game.identifier


@dataclass(frozen=True)
class _Entry:
    """A game registered with OpenSpiel: the game, its adapter and its OpenSpiel type."""

    game: Game
    adapter: GameAdapter
    game_type: Any
    shape: tuple[int, tuple[tuple[str, Any], ...]]  # what OpenSpiel fixed: the players and the parameters


_ENTRIES: dict[str, _Entry] = {}  # by short name
GAMES: dict[str, type[OmenGame]] = {}  # the OpenSpiel game class registered for each short name


def _utility(utility_sum: float | None) -> Any:
    if utility_sum is None:
        return pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType.Utility.ZERO_SUM if utility_sum == 0 else pyspiel.GameType.Utility.CONSTANT_SUM


def register_openspiel_game(game: Game, cards: Any = None) -> str:
    """Register ``game`` (with ``cards``, its built-in set by default) with OpenSpiel and return its
    short name (:func:`short_name`); raises :class:`UsageError` for a game without an adapter.

    Registering a game of that name again binds the name to the new game and adapter (OpenSpiel
    keeps a name's type: the players and the parameters must stay the same)."""
    return _register(game, adapter_of(game, cards))


def _register(game: Game, adapter: GameAdapter) -> str:
    name = short_name(game)
    players = len(game.deciding_seats)
    params = {"deals": DEALS, **adapter.params}
    shape = (players, tuple(sorted(params.items())))
    old = _ENTRIES.get(name)
    if old is not None:
        if old.shape != shape:
            raise UsageError(f"openspiel: {name} is registered already, with other players or parameters")
        _ENTRIES[name] = _Entry(game, adapter, old.game_type, shape)
        return name
    game_type = pyspiel.GameType(
        short_name=name, long_name=game.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_utility(adapter.utility_sum),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)
    _ENTRIES[name] = _Entry(game, adapter, game_type, shape)
    # one class per game, kept here: a class lives as long as the interpreter (a lambda factory,
    # freed by OpenSpiel's registry after the interpreter, crashed it at exit)
    title = "".join(part.capitalize() for part in name.split("_"))
    GAMES[name] = type(f"{title}Game", (OmenGame,), {"short_name": name, "__doc__": f"``{name}``: {game.title}."})
    pyspiel.register_game(game_type, GAMES[name])
    return name


class _Shared:
    """What every state of one game shares; a deep copy (OpenSpiel's clone) keeps the same object,
    and a pickle (OpenSpiel's serialisation) names the game and its parameters."""

    __slots__ = ("name", "params", "adapter", "deals", "config", "seats", "players")

    def __init__(self, name: str, params: Mapping[str, Any]):
        entry = _ENTRIES[name]
        self.name, self.params, self.adapter = name, dict(params), entry.adapter
        self.deals = int(self.params.get("deals", DEALS))
        if self.deals < 1:
            raise ValueError(f"deals: must be at least 1, got {self.deals}")
        self.config = entry.adapter.config(self.params)
        self.seats = entry.game.deciding_seats
        self.players = len(self.seats)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _Shared, (self.name, self.params)


class _Core:
    """A state's core: a deep copy is a clone, a pickle is the adapter's ``serialize``."""

    __slots__ = ("name", "core")

    def __init__(self, name: str, core: Any):
        self.name, self.core = name, core

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return _Core(self.name, self.core.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return _stored_core, (self.name, _ENTRIES[self.name].adapter.serialize(self.core))


def _stored_core(name: str, data: Any) -> _Core:
    return _Core(name, _ENTRIES[name].adapter.deserialize(data))


class OmenGame(pyspiel.Game):
    """A registered game (see the module docstring); :func:`register_openspiel_game` makes one
    subclass per game, which names it (``short_name``)."""

    short_name: str

    def __init__(self, params: dict[str, Any] | None = None):
        entry = _ENTRIES[self.short_name]
        params = {**dict(entry.shape[1]), **(params or {})}
        self.shared = _Shared(self.short_name, params)
        self.adapter = entry.adapter
        adapter = entry.adapter
        info = pyspiel.GameInfo(num_distinct_actions=adapter.num_actions, max_chance_outcomes=self.shared.deals,
                                num_players=self.shared.players, min_utility=adapter.min_utility,
                                max_utility=adapter.max_utility, utility_sum=adapter.utility_sum,
                                max_game_length=adapter.max_game_length)
        super().__init__(entry.game_type, info, params)

    def new_initial_state(self) -> OmenState:
        return OmenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OmenObserver:
        return OmenObserver(self.shared, iig_obs_type, params)


class OmenState(pyspiel.State):
    """A game in progress: ``core`` is ``None`` until the deal (the chance node). OpenSpiel clones a
    Python state by deep-copying its attributes: the core deep-copies as a clone (one memcpy)."""

    def __init__(self, game: OmenGame):
        super().__init__(game)
        self.shared = game.shared
        self._core: _Core | None = None

    @property
    def core(self) -> Any:
        """The game's core state (``None`` before the deal)."""
        return None if self._core is None else self._core.core

    @core.setter
    def core(self, core: Any) -> None:
        self._core = None if core is None else _Core(self.shared.name, core)

    # -- the OpenSpiel state API
    def current_player(self) -> int:
        core = self.core
        if core is None:
            return pyspiel.PlayerId.CHANCE
        if core.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.shared.seats.index(core.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.core is not None
        return sorted(map(self.shared.adapter.action_of, self.core.legal_move_ids()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.shared.deals
        return [(seed, p) for seed in range(self.shared.deals)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            self.core = self.shared.adapter.new_core(action, self.shared.config)
        else:
            self.core.apply_id(self.shared.adapter.move_id_of(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self.core
        if player == pyspiel.PlayerId.CHANCE or core is None:
            return f"deal {action}"
        move_id = self.shared.adapter.move_id_of(action)
        for m, move in zip(core.legal_move_ids(), core.legal_moves()):
            if m == move_id:
                return str(move)
        return f"action {action}"  # not legal here: no card names to decode it with

    def is_terminal(self) -> bool:
        core = self.core
        return core is not None and bool(core.is_terminal())

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.shared.players
        returns = self.shared.adapter.returns(self.core)
        return [float(returns[seat]) for seat in self.shared.seats]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OmenState:
        """A state player ``player_id`` cannot tell from this one: the unseen cards re-dealt uniformly
        (``probability_sampler()``, a number in [0, 1), seeds the re-deal)."""
        core = self.core
        if core is None:
            return self.clone()  # before the deal nobody has seen anything
        seed = int(probability_sampler() * 2**63)
        other = self.clone()
        other.core = core.determinized(self.shared.seats[player_id], seed)
        return other

    def __str__(self) -> str:
        core = self.core
        if core is None:
            return "before the deal"
        # not used by algorithms; the first player's view, for humans
        return json.dumps(core.observation(self.shared.seats[0]))


class OmenObserver:
    """Observation strings (the observation JSON) and tensors (the adapter's vector) of one player.

    ``iig_obs_type.private_info``: ``SINGLE_PLAYER`` (the default) sees the player's own cards,
    ``NONE`` only what is public (the adapter's ``public_view``); ``ALL_PLAYERS`` is refused.
    ``perfect_recall`` changes nothing (see the module docstring)."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(f"{shared.name}: an observer of all players' private information is not supported")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.shared = shared
        self.adapter = shared.adapter
        self.tensor = np.zeros(self.adapter.observation_size, np.float32)
        self.dict = {name: self.tensor[where] for name, where in self.adapter.observation_layout.items()}

    def _observation(self, state: OmenState, seat: int) -> dict[str, Any] | None:
        core = state.core
        if core is None:
            return None
        o: dict[str, Any] = core.observation(seat)
        return self.adapter.public_view(o, seat) if self.public_only else o

    def set_from(self, state: OmenState, player: int) -> None:
        seat = self.shared.seats[player]
        o = self._observation(state, seat)
        if o is None:
            self.tensor.fill(0)
        elif self.public_only:
            self.adapter.encode_public(o, seat, self.tensor)
        else:
            self.adapter.encode(o, self.tensor)

    def string_from(self, state: OmenState, player: int) -> str:
        o = self._observation(state, self.shared.seats[player])
        if o is None:
            return "before the deal"
        # sorted keys in the public view: the same text from every seat
        return json.dumps(o, separators=(",", ":"), sort_keys=self.public_only)


def _register_all() -> None:
    for game in all_games():
        try:
            adapter = adapter_of(game)
        except UsageError:
            continue  # a game without an adapter
        _register(game, adapter)


_register_all()
