"""What the OpenSpiel and PettingZoo adapters (``omen_search.adapters``) need of "tricks": the shape
of ``omen_search.adapters.spec.GameAdapter``, which ``ToyGame.adapter()`` returns.

* Actions are the move ids themselves (``Move.id``: the card, plus 16 for a discard): 32 actions.
* The observation vector, "mine" being the observing seat's and the other seats' in playing order
  after it (``N`` seats, ``C`` = 15 cards in card id order):

  =============  ======  ===================================================================
  segment        length  meaning
  =============  ======  ===================================================================
  ``hand``       C       my hand
  ``discard``    C       my face-down discard
  ``played``     N C     the cards each seat has played (mine first)
  ``trick``      C       the cards of the trick being played
  ``discarded``  N       which seats have discarded
  ``hand_sizes`` N       the size of each hand
  ``points``     N       each seat's points
  ``to_move``    N       the seat to move (one-hot; none once the game is over)
  ``ply``        1       the moves played
  =============  ======  ===================================================================

* The public view hides the observing seat's hand and discard (every discard shows as
  ``"discard ?"``) and its seat; its vector has no hand and no discard.
* Returns are the game's: the seats with the highest score share 1, so they add up to 1.
* A core state is stored as its deal (the hands dealt, the first leader), its moves and its seed:
  a re-dealt state (``determinized``) keeps the seed of the deal it was re-dealt from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search.errors import UsageError
from toy_game.build import load_core
from toy_game.game import ToyGame, TricksConfig, _dealt_hands
from toy_game.observation import HIDDEN_DISCARD
from toy_game.vocabulary import DECK_SIZE, DISCARD_FLAG, hand_size, parse_card

NUM_ACTIONS = 2 * DISCARD_FLAG  # every move id is below 32


class TricksAdapter:
    """``tricks-<players>`` for the adapters."""

    num_actions = NUM_ACTIONS
    min_utility, max_utility, utility_sum = 0.0, 1.0, 1.0
    params: Mapping[str, Any] = {}

    def __init__(self, game: ToyGame):
        self.game = game
        self.players = n = game.players
        self.max_game_length = n * hand_size(n)
        self.observation_layout: dict[str, slice] = {}
        start = 0
        for name, length in (("hand", DECK_SIZE), ("discard", DECK_SIZE), ("played", n * DECK_SIZE),
                             ("trick", DECK_SIZE), ("discarded", n), ("hand_sizes", n), ("points", n),
                             ("to_move", n), ("ply", 1)):
            self.observation_layout[name] = slice(start, start + length)
            start += length
        self.observation_size = start

    # -- set-up

    def config(self, params: Mapping[str, Any]) -> TricksConfig:
        return self.game.config()

    def new_core(self, seed: int, config: TricksConfig) -> Any:
        return self.game.new_initial_state(seed, engine="core", config=config)

    def observation_high(self, config: TricksConfig) -> float:
        return float(DECK_SIZE)  # points, plies and counts are all at most the deck

    # -- actions

    def action_of(self, move_id: int) -> int:
        return move_id

    def move_id_of(self, action: int) -> int:
        if not 0 <= action < NUM_ACTIONS:
            raise UsageError(f"action: {action} is outside 0..{NUM_ACTIONS - 1}")
        return action

    # -- observations

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return self._encode(observation, observation["seat"], out)

    def public_view(self, observation: dict[str, Any], player: int) -> dict[str, Any]:
        history = [[who, HIDDEN_DISCARD if move.startswith("discard") else move]
                   for who, move in observation["history"]]
        return dict(observation, seat=None, hand=None, discard=None, history=history)

    def encode_public(self, view: dict[str, Any], player: int,
                      out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return self._encode(view, player, out)

    def _encode(self, o: dict[str, Any], seat: int, out: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
        v = np.zeros(self.observation_size, np.float32) if out is None else out
        v[:] = 0
        n, at = self.players, {name: where.start for name, where in self.observation_layout.items()}

        def mine(s: int) -> int:  # a seat counted from the observing one
            return (s - seat) % n

        for card in o["hand"] or ():
            v[at["hand"] + parse_card(card)] = 1
        if o["discard"] is not None:
            v[at["discard"] + parse_card(o["discard"])] = 1
        plays = [(who, parse_card(move.split()[1])) for who, move in o["history"] if move.startswith("play")]
        for who, card in plays:
            v[at["played"] + mine(who) * DECK_SIZE + card] = 1
        for who, card in plays[len(plays) - len(plays) % n:]:
            v[at["trick"] + card] = 1
        for who, move in o["history"]:
            if move.startswith("discard"):
                v[at["discarded"] + mine(who)] = 1
        for s in range(n):
            v[at["hand_sizes"] + mine(s)] = o["hand_sizes"][s]
            v[at["points"] + mine(s)] = o["points"][s]
        if 0 <= o["to_move"] < n:
            v[at["to_move"] + mine(o["to_move"])] = 1
        v[at["ply"]] = o["ply"]
        return v

    # -- the end

    def returns(self, core: Any) -> tuple[float, ...]:
        return tuple(core.returns())

    # -- storage

    def serialize(self, core: Any) -> dict[str, Any]:
        history = core.history
        leader = history[0][0] if history else core.current_player
        return {"hands": _dealt_hands(core), "leader": leader, "moves": [move.id for _, move in history],
                "seed": core.seed}

    def deserialize(self, data: dict[str, Any]) -> Any:
        core = load_core().CoreState.from_deal(data["hands"], data["leader"])
        for move_id in data["moves"]:
            core.apply_id(move_id)
        core.seed = data["seed"]
        return core
