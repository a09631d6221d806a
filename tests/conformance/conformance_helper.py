"""What the conformance tests share: the sizes, the set-ups a game is played in, the seeded games
and positions they play, and the public face of a state that two states are compared by.

``OMEN_CONFORMANCE_GAMES`` (10 by default) sets how many seeded random games each test plays per
game, and with it how many positions the perft and search tests start from: raise it for a long run.
``OMEN_CONFORMANCE_PLIES`` (1,500 by default) caps the plies of those games in all, so that a game
whose random games are long (the Grand Melee's 750 plies, OMEGA's 500 for four players) costs about
what a short one does: a test stops starting games once the cap is reached, after at least
``MIN_GAMES`` of them.
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
PLIES = int(os.environ.get("OMEN_CONFORMANCE_PLIES", "1500"))
MIN_GAMES = 3
POSITIONS = max(3, GAMES // 3)  # positions per game for perft and the search

_lengths: dict[tuple[str, int], int] = {}


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
    """Up to ``count`` pairs of a seed and a configuration, going round the game's set-ups, until
    their random games (on the game's first engine) have played :data:`PLIES` plies in all."""
    configs = set_ups(game)
    plies = 0
    for seed in range(count):
        if seed >= MIN_GAMES and plies >= PLIES:
            return
        config = configs[seed % len(configs)]
        yield seed, config
        plies += random_game_length(game, seed, config)


def random_game_length(game: Game, seed: int, config: Any) -> int:
    """The plies of the random game ``seed`` plays from the deal (kept: several tests ask)."""
    key = (game.name, seed)
    if key not in _lengths:
        _lengths[key] = random_walk(game.new_initial_state(seed, engine=game.engines[0], config=config), seed).ply
    return _lengths[key]


def positions(game: Game, engine: str, count: int = POSITIONS) -> Iterator[Any]:
    """``count`` games in progress on ``engine`` (none over), from the deal to near the end: game
    ``j`` is stopped ``j / count`` of the way through the random game its seed plays."""
    for j, (seed, config) in enumerate(seeded_games(game, count)):
        length = random_game_length(game, seed, config)
        yield random_walk(game.new_initial_state(seed, engine=engine, config=config), seed, plies=length * j // count)


def public_face(state: Any, players: int) -> tuple:
    """Everything the State interface shows of a game in play: whose turn and which ply, the legal
    moves (as notation), every player's observation, the scores and the returns. (Not ``moves``:
    Heir's core starts that list afresh in a clone.)"""
    return (state.current_player, state.ply, state.is_terminal(), [str(m) for m in state.legal_moves()],
            [state.observation(p) for p in range(players)], tuple(state.scores()), tuple(state.returns()))
