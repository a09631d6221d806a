"""The search written once (omen_search._search) plays every game's core through the C contract
alone: ISMCTS (SO and MO, in one run or in slices), random playouts and best-move shares.

Positions run from the deal to near the end of seeded random games; move ids are the core's
(``legal_move_ids()``, in the order of ``legal_moves()``).
"""

from __future__ import annotations

import pytest

from omen_search import _search
from omen_search.game import Game
from omen_search.rng import Rng
from conformance_helper import needs_core, positions, public_face, seeded_games, set_ups
from play_helper import random_walk

ITERATIONS = 300
PLAYOUTS = 8  # random games per set-up compared with the reference engine


@pytest.fixture(autouse=True)
def the_core(game: Game) -> None:
    """Every test here searches a game's core."""
    needs_core(game)


def test_core_move_ids_name_the_legal_moves_in_order(game: Game):
    """Playing id ``k`` of ``legal_move_ids()`` plays move ``k`` of ``legal_moves()``."""
    for seed, config in seeded_games(game):
        state = game.new_initial_state(seed, config=config)
        rng = Rng(seed)
        while not state.is_terminal():
            ids, moves = state.legal_move_ids(), state.legal_moves()
            assert len(ids) == len(set(ids)) == len(moves) and all(move_id >= 0 for move_id in ids)
            pick = rng.below(len(ids))
            by_id = state.clone()
            by_id.apply_id(ids[pick])
            state.apply_trusted(moves[pick])
            assert public_face(by_id, game.players) == public_face(state, game.players), (seed, state.ply)


@pytest.mark.parametrize("mo", [False, True], ids=["SO", "MO"])
def test_ismcts_runs_the_iterations_asked_over_the_legal_moves(game: Game, mo: bool):
    """Every iteration passes through one root child; the children are the legal move ids, each
    tried (there are more iterations than moves) and counted available at each later visit (not at
    the one that creates it), with rewards within [0, visits]; the game's statistics are for root
    moves; the searched state is left as it was."""
    for state in positions(game, "core"):
        face = public_face(state, game.players)
        legal = state.legal_move_ids()
        iterations = ITERATIONS + len(legal)
        result = _search.search(state, iterations=iterations, mo=mo, seed=state.ply)
        assert result["iterations"] == iterations
        children = {move: (visits, avail, reward) for move, visits, avail, reward, *_ in result["children"]}
        assert sorted(children) == sorted(legal) and len(children) == len(result["children"])
        assert sum(visits for visits, _, _ in children.values()) == iterations
        assert all(1 <= visits <= avail + 1 <= iterations and 0 <= reward <= visits
                   for visits, avail, reward in children.values())
        assert set(result["stats"]) <= set(children)
        assert public_face(state, game.players) == face


@pytest.mark.parametrize("mo", [False, True], ids=["SO", "MO"])
def test_a_search_in_slices_is_the_search_in_one_run(game: Game, mo: bool):
    for state in positions(game, "core"):
        search = _search.Search(state, mo=mo, seed=state.ply)
        assert search.player == state.current_player
        assert search.run(ITERATIONS // 3) + search.run(ITERATIONS - ITERATIONS // 3) == ITERATIONS
        whole = _search.search(state, iterations=ITERATIONS, mo=mo, seed=state.ply)
        sliced = search.result()
        assert (sliced["children"], sliced["stats"], sliced["nodes"]) == (whole["children"], whole["stats"],
                                                                         whole["nodes"])


def test_run_playouts_plays_the_random_games_of_the_reference_engine(game: Game):
    """One score column per player; game ``i`` is the deal ``seed + i`` played by random moves
    drawn from ``Rng(seed + i)``, as the reference engine plays it."""
    for config in set_ups(game):
        scores, plies = _search.run_playouts(game.new_initial_state(config=config), PLAYOUTS, seed=100)
        assert scores.shape == (PLAYOUTS, game.players) and plies.shape == (PLAYOUTS,)
        for i in range(PLAYOUTS):
            reference = random_walk(game.new_initial_state(100 + i, engine="reference", config=config), 100 + i)
            assert (list(scores[i]), plies[i]) == (list(reference.scores()), reference.ply), (config, i)


def test_best_shares_of_the_legal_moves_sum_to_one(game: Game):
    for state in positions(game, "core"):
        legal = state.legal_move_ids()
        shares = _search.best_shares(state, legal, worlds=20, rollouts=4, seed=state.ply)
        assert len(shares) == len(legal) and all(0 <= share <= 1 for share in shares)
        assert sum(shares) == pytest.approx(1)


def test_the_python_search_ranks_the_moves_of_any_core(game: Game):
    """``omen_search.ismcts`` (budgets, workers, ranking) takes any game's core state as it is."""
    from omen_search.search import Limit, ismcts

    state = game.new_initial_state(3, engine="core")
    while len(state.legal_moves()) < 2:
        state.apply(state.legal_moves()[0])
    result = ismcts(state, Limit(iterations=200), seed=1, workers=2)
    assert result.player == state.current_player and result.iterations == 200
    assert sorted(map(str, (m.move for m in result.moves))) == sorted(map(str, state.legal_moves()))


def test_mast_rollouts_search_any_core_legally_and_reproducibly(game: Game):
    """MAST drives its rollouts ply by ply through the contract's legal_moves and apply."""
    for state in positions(game, "core"):
        result = _search.search(state, iterations=ITERATIONS, seed=state.ply, rollout="mast")
        again = _search.search(state, iterations=ITERATIONS, seed=state.ply, rollout="mast")
        assert (result["children"], result["stats"]) == (again["children"], again["stats"])
        children = {move: visits for move, visits, *_ in result["children"]}
        assert set(children) <= set(state.legal_move_ids()) and sum(children.values()) == ITERATIONS


@pytest.mark.parametrize("kind", ["ismcts", "ismcts-mo"])
def test_tree_reuse_plays_any_core_to_the_end(game: Game, kind: str):
    """Bots that keep their trees (reuse=1) finish the last stretch of a game of any core with
    legal moves (``apply`` checks them), each decision searched on a kept tree or a new one."""
    from omen_search.bots import make_bot

    *_, state = positions(game, "core")
    bots = [make_bot(f"{kind}:iterations=40,reuse=1", seat, game) for seat in range(game.players)]
    searched = 0
    while not state.is_terminal():
        searched += len(state.legal_move_ids()) > 1
        state.apply(bots[state.current_player].choose(state))
    assert sum(bot.keeper.reused + bot.keeper.fresh for bot in bots) == searched
