"""The registered games as PettingZoo AEC environments, backed by their cores.

    from omen_search.adapters.pettingzoo import env
    e = env()                      # Heir, two players; env(level="hard") for the solo game
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* ``env(game="heir", **options)`` plays a game of :mod:`omen_search.game`'s registry that has an
  adapter (``game.adapter()``, :mod:`omen_search.adapters.spec`), set up by its options
  (``game.config(**options)``; an option given as ``None`` is left out). Without ``game``, the
  first registered game that takes every option given: ``env(level="hard")`` is ``heir-solo``.
  ``players_count=N`` picks the member of the game's family played by N (``env("omega",
  players_count=4)`` is ``omega-4``), as ``--players-count`` does on the command line.
* Agents ``player_<seat>``, one per deciding seat (``game.deciding_seats``): ``player_0`` and
  ``player_1`` in Heir, only ``player_0`` in the solo game (the Corrupted Heir moves inside the
  transitions), ``player_0`` to ``player_3`` in ``omega-4`` and ``omnia-4``.
* Actions: ``Discrete(num_actions)``, the adapter's dense indices (Heir:
  :mod:`omen_search.games.heir.actions`); ``action_mask`` marks the legal ones. ``info["moves"]``
  maps the legal indices to the game's notation.
* Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The vector is the
  adapter's encoding of what the agent's seat sees (Heir: :mod:`omen_search.games.heir.encoding`:
  its hand, the cities, the discard pile, tiles, structures, phase and decision, coins...;
  ``env.adapter.observation_layout`` names every segment); nothing the seat cannot see is in it.
  The mask is all zeros for an agent that is not to move.
* Rewards: the adapter's returns when the game ends (Heir: +1 to the winner and -1 to the loser,
  0 each for a tie; OMEGA and OMNIA: the winners share 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from omen_search.adapters.spec import adapter_of
from omen_search.errors import UsageError
from omen_search.game import DEFAULT_GAME, Game, game_taking, game_with_players, get_game


def env(game: str | Game | None = None, **kwargs: Any) -> OmenEnv:
    """An environment (see :class:`OmenEnv` for the arguments)."""
    return OmenEnv(game=game, **kwargs)


class OmenEnv(AECEnv):
    """The AEC environment of ``game`` (a name or a :class:`~omen_search.game.Game`) set up by
    ``options`` (Heir: ``emissary`` plays the variant, ``level`` the solo game); ``cards`` is a
    card set of the game (its built-in one by default)."""

    RENDER_MODES = ("ansi", "human")
    # the default game's name; each environment names its own game (__init__)
    metadata = {"name": f"omen_{DEFAULT_GAME.replace('-', '_')}_v0", "render_modes": list(RENDER_MODES),
                "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, *, game: str | Game | None = None, cards: Any = None,
                 **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise UsageError(f"render_mode: must be one of {', '.join(self.RENDER_MODES)}, got {render_mode!r}")
        self.render_mode = render_mode
        options = {name: value for name, value in options.items() if value is not None}
        players_count = options.pop("players_count", None)
        if game is None:
            game = game_taking(options)
            game.check_options(options)  # names an option no game takes
        elif isinstance(game, str):
            game = get_game(game)
        if players_count is not None:
            game = game_with_players(game.name, players_count, field="players_count")
        self.game = game
        self.metadata = dict(self.metadata, name=f"omen_{game.name.replace('-', '_')}_v0")
        self.cards = game.default_cards() if cards is None else cards
        self.adapter = adapter_of(game, self.cards)
        self.config = game.config(**options)
        self.seats = game.deciding_seats
        self.possible_agents = [f"player_{seat}" for seat in self.seats]
        self._seat_of = {agent: seat for agent, seat in zip(self.possible_agents, self.seats)}
        n = self.adapter.num_actions
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, self.adapter.observation_high(self.config),
                                      (self.adapter.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self._act_space = spaces.Discrete(n)
        self._rng = np.random.default_rng()
        self.core: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.core = self.adapter.new_core(int(self._rng.integers(2**63)), self.config)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        assert self.core is not None
        self.agent_selection = f"player_{self.core.current_player}"
        action_of = self.adapter.action_of
        self.infos[self.agent_selection] = {
            "moves": {action_of(m): str(move) for m, move in zip(self.core.legal_move_ids(), self.core.legal_moves())}
        }

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.core is not None
        mask = np.zeros(self.adapter.num_actions, np.int8)
        if agent == self.agent_selection and not self.core.is_terminal():
            mask[[self.adapter.action_of(m) for m in self.core.legal_move_ids()]] = 1
        return {"observation": self.adapter.encode(self.core.observation(self._seat_of[agent])), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.core is not None
        n = self.adapter.num_actions
        if action is None or not 0 <= int(action) < n:
            raise UsageError(f"action: must be an index below {n}, got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.core.apply_id(self.adapter.move_id_of(int(action)))  # an illegal move raises IllegalMoveError
        if self.core.is_terminal():
            returns = self.adapter.returns(self.core)
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat_of[a]])
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.core is None:
            return None
        text = self.game.describe_board(self.core)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
