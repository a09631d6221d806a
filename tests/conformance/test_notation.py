"""Every move has one text notation that parses back to it, and the checked door (``apply``) takes
that text and refuses a move that is not legal where it is played.

A move parses with its game's ``parse_move``.
"""

from __future__ import annotations

import pytest

from omen_search.errors import IllegalMoveError, OmenError
from omen_search.game import Game
from omen_search.rng import Rng
from conformance_helper import public_face, seeded_games


def test_every_legal_move_parses_back_from_its_notation(game: Game):
    """At every ply the legal moves have distinct notations, each parses back to its move, and the
    game played by text is the game played by move values."""
    for seed, config in seeded_games(game):
        for engine in game.engines:
            by_text, by_value = (game.new_initial_state(seed, engine=engine, config=config) for _ in range(2))
            rng = Rng(seed)
            while not by_value.is_terminal():
                moves = by_value.legal_moves()
                texts = [str(move) for move in moves]
                assert len(set(texts)) == len(texts), (engine, seed, by_value.ply, texts)
                assert [game.parse_move(text) for text in texts] == moves
                pick = rng.below(len(moves))
                by_text.apply(texts[pick])
                by_value.apply_trusted(moves[pick])
            assert public_face(by_text, game.players) == public_face(by_value, game.players)


def test_apply_refuses_a_move_that_is_not_legal_here(game: Game):
    """A move legal earlier in the game but not now raises ``IllegalMoveError`` and changes
    nothing; so does every move once the game is over; text that is no move raises an
    ``OmenError``."""
    for seed, config in seeded_games(game):
        for engine in game.engines:
            state = game.new_initial_state(seed, engine=engine, config=config)
            rng = Rng(seed)
            seen: list[str] = []
            while not state.is_terminal():
                legal = [str(move) for move in state.legal_moves()]
                elsewhere = [text for text in seen if text not in legal]
                if elsewhere:
                    face = public_face(state, game.players)
                    with pytest.raises(IllegalMoveError):
                        state.apply(elsewhere[rng.below(len(elsewhere))])
                    assert public_face(state, game.players) == face
                seen.extend(text for text in legal if text not in seen)
                state.apply(legal[rng.below(len(legal))])
            for text in seen[:3]:
                with pytest.raises(IllegalMoveError):
                    state.apply(text)
            with pytest.raises(OmenError):
                state.apply("\N{NO ENTRY} not a move")
