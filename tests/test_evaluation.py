"""The learned evaluation (issue 22): a game's position features, the search that ends its playouts
with weights over them, the fit of those weights to self-play records, and the files and bot
options that carry them. A game without features keeps today's search."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from cli_helper import assert_one_line_error, run
from omen_search._search import Search, state_features
from omen_search.bots import make_bot
from omen_search.errors import FormatError, UsageError
from omen_search.evaluation import Evaluation, read_evaluation, shipped_evaluation, write_evaluation
from omen_search.game import all_games, get_game
from omen_search.match import MatchOptions, MatchSetup, run_match
from omen_search.search import Limit, ismcts
from omen_search.value_training import fit, positions, record_files, replays, train, win_chances

HEIR = get_game("heir")


def played(game, seed: int, plies: int):
    """``game``'s deal ``seed`` after ``plies`` uniformly random moves (or at its end)."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        ids = state.legal_move_ids()
        state.apply_id(int(ids[rng.integers(len(ids))]))
    return state


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_names_exactly_the_features_its_core_supplies(game):
    state = game.new_initial_state(1)
    for player in range(game.players):
        assert len(state_features(state, player)) == len(game.feature_names)
    with pytest.raises(UsageError, match="player"):
        state_features(state, game.players)


def test_heir_features_read_the_position_of_each_side():
    names = HEIR.feature_names
    for seed in range(6):
        state = played(HEIR, seed, 40 + 10 * seed)
        for p in range(2):
            f = dict(zip(names, state_features(state, p)))
            assert f["points"] == state.scores()[p]
            assert f["coins"] == state.coins[p]
            assert 0 <= f["cities led"] <= 3 and f["tiles in cities led"] <= 9
            clock = f["points x clock"] / f["points"] if f["points"] else None
            assert clock is None or 0 <= clock <= 1
        assert {dict(zip(names, state_features(state, p)))["favored"] for p in range(2)} <= {0.0, 1.0}


@pytest.mark.parametrize("bad, match", [([0.1] * 15, "16 features"), ([math.nan] * 16, "finite"), ("abc", "numbers")])
def test_the_search_refuses_weights_that_do_not_fit(bad, match):
    with pytest.raises(UsageError, match=match):
        Search(HEIR.new_initial_state(1), value=bad)
    with pytest.raises(UsageError, match="cutoff"):
        Search(HEIR.new_initial_state(1), value=[0.0] * 16, cutoff=-1)


def test_a_game_without_features_has_no_evaluation():
    with pytest.raises(UsageError, match="supplies no evaluation features"):
        Search(get_game("omega").new_initial_state(1), value=[0.0])


def test_with_cutoff_zero_the_evaluation_alone_values_the_leaves():
    state = played(HEIR, 3, 10)
    flat = Evaluation("heir", HEIR.feature_names, (0.0,) * 16)  # every player's chance one half
    result = ismcts(state, Limit(iterations=300), seed=2, evaluation=flat)
    assert all(m.win_prob == pytest.approx(0.5) for m in result.moves)
    plain = ismcts(state, Limit(iterations=300), seed=2)
    assert any(m.win_prob != pytest.approx(0.5) for m in plain.moves)  # playouts to the end: wins and losses


def test_the_evaluation_is_the_logistic_of_the_weighted_difference():
    coins = HEIR.feature_names.index("coins")  # public: every determinisation has the same coins
    weights = tuple(0.8 if k == coins else 0.0 for k in range(16))
    checked = agreed = 0
    for seed in range(8):
        state = played(HEIR, seed, 25 + seed)
        me, moves = state.current_player, state.legal_moves()
        if len(moves) < 2:
            continue
        # one iteration a move: each root child is valued once, at the position it leads to
        result = ismcts(state, Limit(iterations=len(moves)), seed=1,
                        evaluation=Evaluation("heir", HEIR.feature_names, weights))
        for m in result.moves:
            child = state.clone()
            child.apply(m.move)
            if child.is_terminal():
                continue
            lead = state_features(child, me)[coins] - state_features(child, 1 - me)[coins]
            checked += 1
            agreed += m.visits == 1 and m.win_prob == pytest.approx(1 / (1 + math.exp(-0.8 * lead)))
    assert checked >= 20 and agreed >= 0.8 * checked  # the rest drew hidden cards on the way


def test_fit_recovers_the_weights_that_made_the_data():
    rng = np.random.default_rng(4)
    for players, truth in ((2, np.array([1.0, -2.0, 0.5])), (3, np.array([0.7, 0.0, -1.2]))):
        x = rng.normal(size=(30_000, players, 3))
        chances = win_chances(x, truth)
        winners = (chances.cumsum(axis=1) > rng.random((len(x), 1))).argmax(axis=1)
        y = np.eye(players)[winners]
        assert fit([(x, y)], ridge=1e-6) == pytest.approx(truth, abs=0.08)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("selfplay")
    run_match(MatchSetup("greedy", "random", seed=3, records=str(folder)), MatchOptions(games=6))
    return folder


def test_training_reads_every_position_of_every_record(records):
    files = record_files(records)
    [(x, y)] = positions(replays(files, HEIR), HEIR)
    plies = sum(json.loads(f.read_text())["plies"] for f in files)
    assert x.shape == (plies, 2, 16) and y.shape == (plies, 2)
    assert set(y.sum(axis=1)) == {1.0}
    evaluation = train(records, HEIR, cutoff=4, folds=3, command="test")
    assert evaluation.trained["positions"] == plies and evaluation.trained["cross_validated"]["folds"] == 3
    assert 0 < evaluation.trained["cross_validated"]["log_loss"] and evaluation.cutoff == 4
    assert evaluation.weights == train(records, HEIR, folds=0).weights  # the weights are fitted to every game


def test_training_refuses_what_it_cannot_use(records, tmp_path):
    with pytest.raises(UsageError, match="no game records"):
        train(tmp_path, HEIR)
    with pytest.raises(UsageError, match="folds"):
        train(records, HEIR, folds=7)  # more folds than games
    with pytest.raises(UsageError, match="not heir-solo"):
        train(records, get_game("heir-solo"))
    with pytest.raises(UsageError, match="no evaluation features"):
        train(records, get_game("omega"))


def test_the_cli_trains_and_says_how_well(records, tmp_path, capsys):
    out = tmp_path / "value.json"
    status, text, _ = run(capsys, "train-value", str(records), "--out", str(out), "--cutoff", "2")
    assert status == 0 and "positions of 6 games" in text and "cross-validated over 5 folds" in text
    evaluation = read_evaluation(out, HEIR)
    assert evaluation.cutoff == 2 and evaluation.trained["games"] == 6
    assert_one_line_error(*run(capsys, "train-value", str(tmp_path / "none"), "--out", str(out)), "records")


def test_an_evaluation_file_reads_back_and_refuses_another_games(tmp_path):
    made = Evaluation("heir", HEIR.feature_names, tuple(float(i) / 10 for i in range(16)), 3, {"games": 1})
    path = tmp_path / "v.json"
    write_evaluation(path, made)
    assert read_evaluation(path, HEIR) == made
    with pytest.raises(FormatError, match="game"):
        read_evaluation(path, get_game("heir-solo"))
    data = json.loads(path.read_text())
    data["features"] = dict(list(data["features"].items())[:-1])
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match="features"):
        read_evaluation(path, HEIR)


def test_the_shipped_heir_evaluation_loads():
    shipped = shipped_evaluation(HEIR)
    assert shipped is not None and shipped.features == HEIR.feature_names
    assert shipped.trained["positions"] > 10_000


def test_eval_learned_falls_back_where_a_game_has_none():
    omega = get_game("omega")
    bot = make_bot("ismcts:iterations=40,eval=learned", 1, omega)
    state = omega.new_initial_state(2)
    assert bot.evaluation(state) is None and bot.choose(state) in state.legal_moves()
    heir_bot = make_bot("ismcts:iterations=40,eval=learned,cutoff=7", 1, HEIR)
    evaluation = heir_bot.evaluation(HEIR.new_initial_state(1))
    assert evaluation is not None and evaluation.cutoff == 7


@pytest.mark.parametrize("spec, word", [("ismcts:eval=deep", "eval"), ("omen:cutoff=-1", "cutoff"),
                                        ("omen:cutoff=x", "cutoff")])
def test_bad_evaluation_options_are_refused(spec, word):
    with pytest.raises(UsageError, match=word):
        make_bot(spec)


def test_omen_is_ismcts_with_the_techniques_that_won():
    assert make_bot("omen:seconds=1").name == "omen:seconds=1.0,c=0.7"
    bot = make_bot("omen:iterations=30", 2, HEIR)
    assert (bot.rollout, bot.reuse) == ("mast", 1)
    assert make_bot("omen:iterations=30,reuse=0").name == "omen:iterations=30,c=0.7,reuse=0"


def test_the_advisor_and_the_suite_search_with_the_learned_evaluation_when_asked(capsys):
    from omen_search.advisor import Advisor

    state = played(HEIR, 2, 20)
    plain = Advisor(Limit(iterations=400), seed=1).advise(state)
    learned = Advisor(Limit(iterations=400), seed=1, evaluation="learned").advise(state)
    assert {m.move for m in learned.moves} == {m.move for m in plain.moves}
    assert [m.win_prob for m in learned.moves] != [m.win_prob for m in plain.moves]
    with pytest.raises(UsageError, match="evaluation"):
        Advisor(Limit(iterations=10), evaluation="deep")
    # a game without an evaluation advises as without one
    omega = played(get_game("omega"), 1, 3)
    assert (Advisor(Limit(iterations=200), seed=3, evaluation="learned").advise(omega).moves
            == Advisor(Limit(iterations=200), seed=3).advise(omega).moves)
    positions = Path(__file__).resolve().parents[1] / "bench" / "positions"  # the source tree's suite
    status, out, _ = run(capsys, "suite", "--positions", str(positions), "--game", "heir", "--first", "2",
                         "--budgets", "200", "--eval", "learned", "--quiet")
    assert status == 0 and "200 it" in out


def test_omen_plays_exactly_as_ismcts_with_its_techniques_spelled_out():
    def game(spec: str) -> list:
        bots = [make_bot(spec, 11, HEIR), make_bot("greedy", 12, HEIR)]
        state = HEIR.new_initial_state(6)
        while not state.is_terminal():
            state.apply(bots[state.current_player].choose(state))
        return state.moves

    assert game("omen:iterations=40") == game("ismcts:iterations=40,rollout=mast,reuse=1")


@pytest.mark.parametrize("name", ["reign-of-war", "heir+reign", "omega", "omnia"])
def test_omen_plays_every_game_legally(name):
    game = get_game(name)
    bots = [make_bot("omen:iterations=20,eval=learned", 1, game), make_bot("random", 2, game)]
    state = game.new_initial_state(3)
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))  # apply checks that the move is legal
    assert bots[0].evaluation(state) is None  # none of them ships an evaluation: playouts to the end


def test_a_bot_with_reuse_searches_each_game_with_its_own_evaluation():
    bot = make_bot("omen:iterations=30,eval=learned", 4)  # no game: the game of each state
    heir, omega = HEIR.new_initial_state(2), get_game("omega").new_initial_state(2)
    assert bot.choose(heir) in heir.legal_moves() and bot.keeper.evaluation is not None
    assert bot.choose(omega) in omega.legal_moves() and bot.keeper.evaluation is None


def test_train_value_refuses_bad_input_in_one_line(records, tmp_path, capsys):
    out = str(tmp_path / "v.json")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "game-000000.json").write_text("{not json")
    assert_one_line_error(*run(capsys, "train-value", str(bad), "--out", out, "--folds", "0"), "game-000000.json")
    assert_one_line_error(*run(capsys, "train-value", str(bad), "--out", out), "5 folds need at least 5 games")
    assert_one_line_error(*run(capsys, "train-value", str(records), "--out", out, "--cutoff", "-1"), "--cutoff")
    assert_one_line_error(*run(capsys, "train-value", str(records), "--out", out, "--game", "omega"),
                          "no evaluation features")
    assert_one_line_error(*run(capsys, "train-value", str(records), "--out", out, "--folds", "1"), "folds")
    assert not (tmp_path / "v.json").exists()  # nothing written
