"""The reference engine and the core play the same game: move for move, leaf for leaf, and every
finished game rewards each player with a value in [0, 1]."""

from __future__ import annotations

from omen_search.game import Game
from omen_search.perft import perft
from omen_search.rng import Rng
from conformance_helper import needs_core, positions, public_face, seeded_games

PERFT_DEPTH = 3


def test_both_engines_play_the_same_seeded_games(game: Game):
    """At every ply of seeded random games over the game's set-ups: the same legal moves (as
    notation, in the same order), the same observation for every player, scores and returns; at
    the end the same record of the moves played."""
    needs_core(game)
    for seed, config in seeded_games(game):
        reference, core = (game.new_initial_state(seed, engine=engine, config=config) for engine in ("reference", "core"))
        rng = Rng(seed)
        while True:
            face = public_face(reference, game.players)
            assert public_face(core, game.players) == face, f"seed {seed}, {config!r}, ply {reference.ply}"
            if reference.is_terminal():
                assert [str(m) for m in core.moves] == [str(m) for m in reference.moves]
                break
            pick = rng.below(len(reference.legal_moves()))
            reference.apply_trusted(reference.legal_moves()[pick])
            core.apply_trusted(core.legal_moves()[pick])


def test_perft_counts_the_same_leaves_on_both_engines(game: Game):
    """From the deal and from positions further on; counting leaves the state as it was."""
    needs_core(game)
    by_engine = {engine: list(positions(game, engine)) for engine in ("reference", "core")}
    for reference, core in zip(by_engine["reference"], by_engine["core"]):
        faces = [public_face(state, game.players) for state in (reference, core)]
        for depth in range(PERFT_DEPTH + 1):
            assert perft(reference, depth) == perft(core, depth), (reference.ply, depth)
        assert [public_face(state, game.players) for state in (reference, core)] == faces


def test_a_game_has_a_player_to_move_until_it_ends_with_a_return_in_0_1_for_each(game: Game):
    for seed, config in seeded_games(game):
        for engine in game.engines:
            state = game.new_initial_state(seed, engine=engine, config=config)
            rng = Rng(seed)
            while not state.is_terminal():
                moves = state.legal_moves()
                assert 0 <= state.current_player < game.players and moves, (engine, seed, state.ply)
                state.apply_trusted(moves[rng.below(len(moves))])
            assert state.current_player == -1 and state.legal_moves() == []
            returns = state.returns()
            assert len(returns) == len(state.scores()) == game.players
            assert all(0 <= value <= 1 for value in returns), (engine, seed, returns)
