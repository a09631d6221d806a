"""ISMCTS and the bots: known best moves on tiny positions, budgets, reproducibility, limits."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from omen_search._core import CoreState
from omen_search.bots import FirstBot, ISMCTSBot, PIMCBot, RandomBot, make_bot, parse_spec, split_players
from omen_search.games.heir.engines import new_game
from omen_search.errors import UsageError
from omen_search.game import all_games, get_game
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import load_position_file
from omen_search.search import Limit, ismcts

DATA = Path(__file__).parent / "data"
WINNING = Move.parse('play "Rabid Usurper" city1')


def deciding_war():
    """Seat 0's last turn: only Rabid Usurper played into city1 makes it war-torn and wins the war
    (6 strength to 4), which takes the last tile and the game (9 VP to 8)."""
    return load_position_file(DATA / "deciding_war.json")


@pytest.mark.parametrize("spec", ["greedy", "pimc:iterations=400", "ismcts:iterations=400",
                                  "ismcts-mo:iterations=400"])
def test_every_bot_above_random_finds_the_deciding_play(spec):
    assert make_bot(spec, seed=1).choose(deciding_war()) == WINNING


@pytest.mark.parametrize("engine", ["core", "reference"])
def test_the_first_bot_plays_the_first_legal_move_whatever_its_seed(engine):
    state = new_game(engine, seed=4)
    first, other, mover = make_bot("first", seed=1), make_bot("first", seed=2), RandomBot(seed=3)
    assert isinstance(first, FirstBot) and first.name == "first"
    while not state.is_terminal():
        assert first.choose(state) == other.choose(state) == state.legal_moves()[0]
        state.apply(mover.choose(state))


@pytest.mark.parametrize("name", [g.name for g in all_games()])
def test_the_first_bot_plays_every_game(name):
    game = get_game(name)
    state = game.new_initial_state(seed=3, engine=game.engines[0])
    first, mover = make_bot("first", seed=1), RandomBot(seed=2)
    for _ in range(150):  # a long stretch of each game, to its end if it comes
        if state.is_terminal():
            break
        if state.current_player in game.deciding_seats:
            move = first.choose(state)
            assert move == state.legal_moves()[0]
            state.apply(move)
        else:
            state.apply(mover.choose(state))


def test_bots_choose_from_an_observation_alone():
    state = deciding_war()
    observation = observe(state, 0)
    for spec in ("greedy", "pimc:iterations=200", "ismcts:iterations=300"):
        assert make_bot(spec, seed=2).choose(observation) == WINNING


def test_ismcts_ranks_the_deciding_play_first_with_its_statistics():
    result = ismcts(deciding_war(), Limit(iterations=3000), seed=4)
    assert result.best == WINNING
    assert result.moves[0].move == WINNING
    assert result.moves[0].visits > sum(m.visits for m in result.moves[1:])
    assert result.moves[0].win_prob > max(m.win_prob for m in result.moves[1:])
    assert result.iterations == 3000 and not result.tree_full
    assert sum(m.visits for m in result.moves) == 3000


def test_search_is_reproducible_with_a_seed():
    state = new_game("core", seed=9)
    a = ismcts(state, Limit(iterations=500), seed=5)
    b = ismcts(state, Limit(iterations=500), seed=5)
    assert a.moves == b.moves


def test_search_returns_at_once_with_one_legal_move():
    state = new_game("core", seed=1)
    while len(state.legal_moves()) != 1:
        state.apply(state.legal_moves()[0])
    result = ismcts(state, Limit(iterations=10_000), seed=1)
    assert result.iterations == 0 and result.best == state.legal_moves()[0]


def test_seconds_budget_stops_the_search():
    result = ismcts(new_game("core", seed=2), Limit(seconds=0.2), seed=1)
    assert 0.15 < result.seconds < 1.0 and result.iterations > 100


def test_node_cap_stops_the_tree_growing_and_says_so():
    result = ismcts(new_game("core", seed=2), Limit(iterations=2000), seed=1, max_nodes=50)
    assert result.tree_full and result.nodes == 50 and result.iterations == 2000


def test_root_parallel_workers_merge_statistics():
    result = ismcts(deciding_war(), Limit(iterations=1200), seed=3, workers=2)
    assert result.iterations == 1200
    assert result.best == WINNING
    assert sum(m.visits for m in result.moves) == 1200


def test_search_from_the_reference_engine_is_the_same_as_from_the_core():
    ref = new_game("reference", seed=6)
    core = CoreState.from_state(ref)
    assert ismcts(ref, Limit(iterations=300), seed=1).moves == ismcts(core, Limit(iterations=300), seed=1).moves


def test_vp_margin_of_the_deciding_play():
    result = ismcts(deciding_war(), Limit(iterations=2000), seed=8)
    best = result.moves[0]
    assert best.move == WINNING and best.vp_margin > 0 and best.vp_stdev >= 0
    assert not math.isnan(best.vp_margin)


@pytest.mark.parametrize("spec, message", [
    ("ismcts:iterations=0", "iterations"),
    ("ismcts:iterations=x", "must be a number"),
    ("pimc:c=1", "unknown option"),
    ("alphazero", "unknown player"),
    ("ismcts:seconds=-1", "seconds"),
    ("ismcts:rollout=greedy", "rollout must be one of random, mast"),
    ("ismcts-mo:reuse=2", "reuse must be 0, 1 or mast, got 2"),
    ("ismcts:reuse=yes", "reuse must be 0, 1 or mast, got .yes."),
    ("pimc:rollout=mast", "unknown option"),
])
def test_bad_bot_specs_are_usage_errors(spec, message):
    with pytest.raises(UsageError, match=message):
        make_bot(spec)


def test_bad_search_options_are_usage_errors():
    state = new_game("core", seed=1)
    with pytest.raises(UsageError):
        Limit()
    with pytest.raises(UsageError):
        ismcts(state, Limit(iterations=10), workers=0)
    with pytest.raises(UsageError):
        ismcts(state, Limit(iterations=10), c=-1)
    with pytest.raises(UsageError):
        ismcts(state, Limit(iterations=10), final="best")


def test_spec_parsing():
    assert parse_spec("ismcts:iterations=500,c=0.5") == ("ismcts", {"iterations": 500, "c": 0.5})
    assert split_players("ismcts:iterations=500,c=0.5,greedy") == ["ismcts:iterations=500,c=0.5", "greedy"]
    assert ISMCTSBot(iterations=5).name == "ismcts:iterations=5,c=0.7"
    assert PIMCBot(seconds=0.5, iterations=None).name == "pimc:seconds=0.5"
