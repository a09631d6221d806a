"""What the conformance tests share: the sizes, the set-ups a game is played in, the seeded games
and positions they play, and the public face of a state that two states are compared by.

``OMEN_CONFORMANCE_GAMES`` (10 by default) sets how many seeded random games each test plays per
game, and with it how many positions the perft and search tests start from: raise it for a long run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from omen_search.errors import UsageError
import pytest

from omen_search.game import Game
from play_helper import random_walk

GAMES = int(os.environ.get("OMEN_CONFORMANCE_GAMES", "10"))
POSITIONS = max(3, GAMES // 3)  # positions per game for perft and the search


def needs_core(game: Game) -> None:
    """Skip a test of the core (the C search, the engines agreeing) for a game that has none yet."""
    if "core" not in game.engines:
        pytest.skip(f"{game.name} has no core yet (engines: {', '.join(game.engines)})")


def set_ups(game: Game) -> list[Any]:
    """The game's default configuration, then one for each other choice of each option that sets a
    game up by itself (Reign of War's ``deck = build`` also needs ``decks``, so it is left out)."""
    configs = [game.config()]
    for option in game.options:
        for choice in option.choices or ():
            if choice != option.default:
                try:
                    configs.append(game.config(**{option.name: choice}))
                except UsageError:
                    continue
    return configs


def seeded_games(game: Game, count: int = GAMES) -> Iterator[tuple[int, Any]]:
    """``count`` pairs of a seed and a configuration, going round the game's set-ups."""
    configs = set_ups(game)
    for seed in range(count):
        yield seed, configs[seed % len(configs)]


def positions(game: Game, engine: str, count: int = POSITIONS) -> Iterator[Any]:
    """``count`` games in progress on ``engine`` (none over), from the deal to near the end: game
    ``j`` is stopped ``j / count`` of the way through the random game its seed plays."""
    for j, (seed, config) in enumerate(seeded_games(game, count)):
        length = random_walk(game.new_initial_state(seed, engine=engine, config=config), seed).ply
        yield random_walk(game.new_initial_state(seed, engine=engine, config=config), seed, plies=length * j // count)


def public_face(state: Any, players: int) -> tuple:
    """Everything the State interface shows of a game in play: whose turn and which ply, the legal
    moves (as notation), every player's observation, the scores and the returns. (Not ``moves``:
    Heir's core starts that list afresh in a clone.)"""
    return (state.current_player, state.ply, state.is_terminal(), [str(m) for m in state.legal_moves()],
            [state.observation(p) for p in range(players)], tuple(state.scores()), tuple(state.returns()))
