"""Undo takes a game back exactly and a clone is a separate game, on both engines.

The State interface shows a game only through its public face (observations, moves, scores), so
"exactly" is checked twice: the face is the same, and so is the game played on from there with the
same random moves, which would differ if a hidden card or the generator's state had not come back.
"""

from __future__ import annotations

import pytest

from omen_search.game import Game
from omen_search.rng import Rng
from conformance_helper import positions, public_face, seeded_games
from play_helper import random_walk

REPLAYS = 3  # plies per game from which the future of the undone game is checked


def test_apply_then_undo_restores_the_state(game: Game):
    """Along random games, undo back to the deal: at each ply the same face and the move returned
    is the one played; at a few plies the game played on is that of a fresh replay to that ply."""
    for seed, config in seeded_games(game):
        for engine in game.engines:
            state = game.new_initial_state(seed, engine=engine, config=config)
            rng = Rng(seed)
            faces, played = [], []
            while not state.is_terminal():
                faces.append(public_face(state, game.players))
                moves = state.legal_moves()
                played.append(moves[rng.below(len(moves))])
                state.apply_trusted(played[-1])
            checked = {len(played) * k // REPLAYS for k in range(REPLAYS)}
            for ply in reversed(range(len(played))):
                assert str(state.undo()) == str(played[ply])
                assert public_face(state, game.players) == faces[ply], (engine, seed, ply)
                if ply in checked:
                    replay = game.new_initial_state(seed, engine=engine, config=config)
                    for move in played[:ply]:
                        replay.apply_trusted(move)
                    future = public_face(random_walk(replay, seed + ply), game.players)
                    assert public_face(random_walk(state.clone(), seed + ply), game.players) == future
            with pytest.raises(IndexError):
                state.undo()


def test_a_clone_is_an_independent_copy_with_the_same_future(game: Game):
    """Playing a clone to the end leaves the original as it was; the original played on with the
    same random moves ends as the clone did (the clone holds the hidden cards and the chance)."""
    for engine in game.engines:
        for state in positions(game, engine):
            face = public_face(state, game.players)
            copy = state.clone()
            assert type(copy) is type(state) and public_face(copy, game.players) == face
            random_walk(copy, state.ply)
            assert copy.is_terminal() and public_face(state, game.players) == face
            assert public_face(random_walk(state, state.ply), game.players) == public_face(copy, game.players)
