"""A determinisation deals again what a player cannot see and keeps what they can (OpenSpiel's
ResampleInfostateTest), on every engine that offers ``determinized(player, seed)`` (the core
always: the search needs it).

The State interface has no way to list a game's cards, so that a world keeps every card is
checked by each game's own tests. Here, at random plies of seeded games, every player's world
must show that player exactly what the true game shows, be reproducible from its seed, leave the
true game alone, and be a game that plays on to an end.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from omen_search.game import Game
from omen_search.rng import Rng
from conformance_helper import public_face, random_game_length, seeded_games

SAMPLED = 4  # one ply in SAMPLED, drawn at random, is determinised for every player ...
WORLD_PLIES = 16  # ... or fewer, so that about this many plies of a long game are (the Grand Melee's 750)


def worlds(game: Game, every_player: bool = True) -> Iterator[tuple[Any, Any, int, int]]:
    """``(state, world, player, seed)``: each player's world at random plies of seeded games on
    every engine that determinises, the state as it stands when its worlds are made (with
    ``every_player`` false, one player's world per ply, the players in turn)."""
    for seed, config in seeded_games(game):
        for engine in game.engines:
            state = game.new_initial_state(seed, engine=engine, config=config)
            if not hasattr(state, "determinized"):
                assert engine != "core", f"{game.name}: the core must offer determinized(player, seed)"
                continue
            length = random_game_length(game, seed, config)
            every = max(SAMPLED, -(-length // WORLD_PLIES))
            rng = Rng(seed)
            sampled = 0
            while not state.is_terminal():
                if rng.below(every) == 0:
                    sampled += 1
                    for player in range(game.players) if every_player else (sampled % game.players,):
                        yield state, state.determinized(player, seed + state.ply), player, seed + state.ply
                moves = state.legal_moves()
                state.apply_trusted(moves[rng.below(len(moves))])


def test_a_world_shows_the_player_what_the_game_shows(game: Game):
    for state, world, player, seed in worlds(game):
        where = f"{type(state).__name__} ply {state.ply}, player {player}, seed {seed}"
        face = public_face(state, game.players)
        assert world.observation(player) == state.observation(player), where
        assert (world.current_player, world.ply) == (state.current_player, state.ply), where
        if player == state.current_player:
            assert [str(m) for m in world.legal_moves()] == [str(m) for m in state.legal_moves()], where
        again = state.determinized(player, seed)
        assert public_face(again, game.players) == public_face(world, game.players), where
        assert public_face(state, game.players) == face, where


def test_a_world_plays_on_to_an_end(game: Game):
    """The player to move in a world always has a legal move, and random play reaches the end (one
    world per sampled ply, each player's in turn: playing a long game to its end on the reference
    engine for every player at every sampled ply would cost minutes)."""
    for state, world, player, seed in worlds(game, every_player=False):
        rng = Rng(seed)
        while not world.is_terminal():
            moves = world.legal_moves()
            assert moves, f"{type(state).__name__} ply {state.ply}, player {player}'s world {seed}: " \
                          f"no legal move for player {world.current_player} at ply {world.ply}"
            world.apply_trusted(moves[rng.below(len(moves))])
        assert len(world.returns()) == game.players
