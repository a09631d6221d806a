"""Omen as a PettingZoo AEC environment, backed by the Cython core.

    from omen_search.adapters.pettingzoo import env
    e = env()                      # two players; env(level="hard") for the solo game
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* Agents ``player_0`` and ``player_1`` (seat 0 and seat 1); in the solo game only ``player_0``
  (the Corrupted Heir moves inside the transitions).
* Actions: ``Discrete(NUM_ACTIONS)``, the dense indices of :mod:`omen_search.adapters.actions`;
  ``action_mask`` marks the legal ones. ``info["moves"]`` maps the legal indices to our notation.
* Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``. The vector is
  :class:`omen_search.adapters.encoding.ObservationEncoder`'s encoding of what the agent's seat
  sees (its hand, the cities, the discard pile, tiles, structures, phase and decision, coins...;
  ``env.encoder.layout`` names every segment); nothing the seat cannot see is in it. The mask
  is all zeros for an agent that is not to move.
* Rewards: +1 to the winner and -1 to the loser when the game ends (0 each for a tie).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from omen_search._core import CoreState
from omen_search.adapters.actions import NUM_ACTIONS, action_of, packed_of
from omen_search.adapters.encoding import ObservationEncoder
from omen_search.errors import UsageError
from omen_search.games.heir.cards import CardSet, default_cards
from omen_search.games.heir.render import describe_board
from omen_search.games.heir.rules import Config

def env(**kwargs: Any) -> OmenEnv:
    """An Omen environment (see :class:`OmenEnv` for the arguments)."""
    return OmenEnv(**kwargs)


class OmenEnv(AECEnv):
    """The AEC environment; ``level`` plays the solo game, ``emissary`` the variant."""

    RENDER_MODES = ("ansi", "human")
    metadata = {"name": "omen_heir_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, level: str | None = None, emissary: bool = False,
                 cards: CardSet | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise UsageError(f"render_mode: must be one of {', '.join(self.RENDER_MODES)}, got {render_mode!r}")
        self.render_mode = render_mode
        self.config = Config(level=level, emissary=emissary)
        self.cards = cards or default_cards()
        self.encoder = ObservationEncoder(self.cards)
        self.possible_agents = ["player_0"] if self.config.solo else ["player_0", "player_1"]
        high = float(max(1000, self.config.max_turns))  # counts are at most 40; the turn at most max_turns
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, high, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._rng = np.random.default_rng()
        self.core: CoreState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.core = CoreState.new(seed=int(self._rng.integers(2**63)), cards=self.cards, config=self.config)
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
        self.infos[self.agent_selection] = {
            "moves": {action_of(m): str(move) for m, move in zip(self.core.legal_move_ids(), self.core.legal_moves())}
        }

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.core is not None
        p = self.possible_agents.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if agent == self.agent_selection and not self.core.is_terminal():
            mask[[action_of(m) for m in self.core.legal_move_ids()]] = 1
        return {"observation": self._vector(p), "action_mask": mask}

    def _vector(self, p: int) -> np.ndarray:
        assert self.core is not None
        return self.encoder.encode(self.core.observation(p))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.core is not None
        if action is None or not 0 <= int(action) < NUM_ACTIONS:
            raise UsageError(f"action: must be an index below {NUM_ACTIONS}, got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        self.core.apply_id(packed_of(int(action)))  # an illegal move raises IllegalMoveError
        if self.core.is_terminal():
            winner = self.core.winner()
            for a in self.agents:
                seat = self.possible_agents.index(a)
                self.rewards[a] = 0.0 if winner is None else (1.0 if seat == winner else -1.0)
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.core is None:
            return None
        text = describe_board(self.core)  # type: ignore[arg-type]
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
