"""Post-game analysis (``omen-search analyze``, :func:`omen_search.analysis.analyze_game`) and its
HTML report: which plies are judged, that judgements only use what the seat could see, labels and
accuracy, reproducibility, reuse of searches, a known blunder, the command line and its errors, and
the report as a browser draws it.

Games are short (``max_turns=4``) and searches small (300-800 iterations), so the whole file runs
in well under a minute on a busy machine. ``data/analysis_blunder_game.json`` is a record of a
random seat 0 against a greedy seat 1 (seed 20): at ply 18, on the last turn, seat 0 plays
``play "Gifted Taskmaster" city0`` where only ``play "Rabid Usurper" city0`` keeps the game
(about 88% against 5% from seat 0's observation).
"""

from __future__ import annotations

import itertools
from collections import Counter
import json
import math
import os
import re
import signal
import statistics
import struct
import subprocess
import threading
import zlib
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from omen_search import analysis
from omen_search._core import CoreState
from omen_search.analysis import LABELS, THRESHOLDS, Decision, Estimate, GameReview, analyze_game, label_of
from omen_search.bots import GreedyBot, RandomBot
from omen_search.games.heir.engines import new_game
from omen_search.errors import RecordError, UsageError
from omen_search.games.heir.cards import load_cards
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import state_from_observation
from positions_helper import seed_card_text
from omen_search.games.heir.rules import Config
from omen_search.records import load_record, make_record, replay, write_record
from omen_search.review_html import COLORS, HEIGHT, PAD, WIDTH, evaluation_graph, render, write_html
from omen_search.rng import Rng
from omen_search.search import Limit, ismcts
from omen_search.stats import wilson

from cli_helper import assert_one_line_error, run

DATA = Path(__file__).parent / "data"
BLUNDER_GAME = DATA / "analysis_blunder_game.json"
BLUNDER_PLY = 18
BLUNDER_PLAYED = Move.parse('play "Gifted Taskmaster" city0')
BLUNDER_BEST = Move.parse('play "Rabid Usurper" city0')
CHROMIUM = Path("/usr/bin/chromium")
JSON_KEYS = {"ply", "played", "best", "better", "win_prob_before", "win_prob_after", "win_prob_mean", "stake", "loss",
             "accuracy", "vp_loss", "label"}


# ------------------------------------------------------------------------------ helpers


def play_game(seed: int, seats: list[Any], max_turns: int = 4, stop: int | None = None, cards=None,
              level: str | None = None) -> dict[str, Any]:
    """The record of a game between ``seats`` (bots with ``choose``) on the core."""
    state = new_game("core", seed=seed, cards=cards, config=Config(max_turns=max_turns, level=level))
    while not state.is_terminal() and (stop is None or state.ply < stop):
        state.apply(seats[state.current_player].choose(state))
    return make_record(state, [getattr(s, "name", "bot") for s in seats])


def choice_plies(record: dict[str, Any], player: int, cards=None) -> list[int]:
    """The plies at which ``player`` had more than one legal move, found by replaying the record."""
    state = replay(record, cards, upto=0)
    plies = []
    for ply, text in enumerate(record["moves"]):
        if state.current_player == player and len(state.legal_moves()) > 1:
            plies.append(ply)
        state.apply(Move.parse(text))
    return plies


def without_elapsed(review: GameReview) -> dict[str, Any]:
    out = review.to_dict()
    out.pop("elapsed")
    return out


def estimate(p: float, half: float = 0.01, vp: float = 0.0) -> Estimate:
    return Estimate(p, max(0.0, p - half), min(1.0, p + half), vp)


def counted(wins: float, visits: int, vp: float) -> Estimate:
    """A value from counts, with the Wilson interval."""
    low, high = wilson(wins, visits)
    return Estimate(wins / visits, low, high, vp)


def decision(before: Estimate, after: Estimate, played: str = "end", best: str = "pass",
             mean: float = math.nan) -> Decision:
    return Decision(0, Move.parse(played), Move.parse(best), before, after, label_of(before, after), {}, (), mean)


def spy_on_searches(monkeypatch) -> list[dict[str, Any]]:
    """Wrap the analyser's searches (``search_values``): every call is logged (the position, seed,
    root move, thread) and then searched for real."""
    calls: list[dict[str, Any]] = []
    real = analysis.search_values

    def spy(core, limit, seed, root_move=None, settle=None):
        calls.append({"ply": core.ply, "seed": seed, "root_move": root_move, "state": core.clone(),
                      "thread": threading.get_ident()})
        return real(core, limit, seed, root_move, settle)

    monkeypatch.setattr(analysis, "search_values", spy)
    return calls


def custom_cards(tmp_path: Path) -> Path:
    """The built-in card file with one comment added: the same cards, another card set (sha256)."""
    text = seed_card_text()
    path = tmp_path / "my-cards.toml"
    path.write_text(text + "\n# my own copy\n", encoding="utf-8")
    return path


# ------------------------------------------------------------------------------ shared games


@pytest.fixture(scope="module")
def greedy_game() -> dict[str, Any]:
    """Seat 0 greedy, seat 1 random, four turns."""
    return play_game(1, [GreedyBot(1), RandomBot(2)])


@pytest.fixture(scope="module")
def greedy_review(greedy_game) -> GameReview:
    return analyze_game(greedy_game, 0, Limit(iterations=400), seed=0)


@pytest.fixture(scope="module")
def blunder_game() -> dict[str, Any]:
    return load_record(BLUNDER_GAME)


@pytest.fixture(scope="module")
def blunder_review(blunder_game) -> GameReview:
    return analyze_game(blunder_game, 0, Limit(iterations=500), seed=0)


# ------------------------------------------------------------------------------ which decisions


@pytest.mark.parametrize("player", [0, 1])
def test_decisions_are_the_players_plies_with_a_choice_in_order(greedy_game, player):
    review = analyze_game(greedy_game, player, Limit(iterations=300), seed=3)
    plies = choice_plies(greedy_game, player)
    assert len(plies) >= 8, "the test game gives the seat several decisions"
    assert [d.ply for d in review.decisions] == plies
    assert [str(d.played) for d in review.decisions] == [greedy_game["moves"][p] for p in plies]
    state = replay(greedy_game, upto=0)
    by_ply = {d.ply: d for d in review.decisions}
    for ply, text in enumerate(greedy_game["moves"]):
        if ply in by_ply:
            d = by_ply[ply]
            assert d.best in state.legal_moves() and d.played in state.legal_moves()
            assert d.observation == observe(state, player), "the report's board is the seat's observation"
        state.apply(Move.parse(text))
    assert review.player == player and review.iterations == 300


def test_an_unfinished_record_is_reviewed_up_to_its_last_move():
    record = play_game(4, [RandomBot(4), RandomBot(5)], stop=15)
    assert "scores" not in record and len(record["moves"]) == 15
    review = analyze_game(record, 1, Limit(iterations=300))
    assert [d.ply for d in review.decisions] == choice_plies(record, 1)


# ------------------------------------------------------------------------------ hidden cards


def _twin_games(player: int = 0, want: int = 6) -> tuple[dict, dict, int]:
    """Two records whose deals differ in cards ``player`` cannot see (the other hand, the deck
    order) but that look the same to ``player`` up to ply ``divergence``: two seeds with the same
    first observation, the same moves while the observations agree, then each its own way."""
    first: dict[str, int] = {}
    for seed in range(6000):
        key = json.dumps(observe(new_game("core", seed=seed), player), sort_keys=True)
        if key not in first:
            first[key] = seed
            continue
        a = new_game("core", seed=first[key])
        b = new_game("core", seed=seed)
        hidden_differs = a.hands[1 - player] != b.hands[1 - player] or a.deck != b.deck
        rng = Rng(1)
        decisions = 0
        while not a.is_terminal() and observe(a, player) == observe(b, player):
            in_b = {str(m) for m in b.legal_moves()}
            common = [m for m in a.legal_moves() if str(m) in in_b]
            if not common:
                break
            decisions += a.current_player == player and len(a.legal_moves()) > 1
            move = common[rng.below(len(common))]
            a.apply(move)
            b.apply(move)
        if not hidden_differs or decisions < want or observe(a, player) == observe(b, player):
            continue
        divergence = a.ply
        for state, bot in ((a, RandomBot(7)), (b, RandomBot(7))):  # a few plies more, each its own way
            while not state.is_terminal() and state.ply < divergence + 8:
                state.apply(bot.choose(state))
        return make_record(a, ["x", "y"]), make_record(b, ["x", "y"]), divergence
    pytest.fail("no two seeds give seat 0 the same observations for long enough")


def test_judgements_before_the_games_diverge_do_not_depend_on_hidden_cards():
    one, two, divergence = _twin_games()
    assert one["seed"] != two["seed"] and one["moves"][:divergence] == two["moves"][:divergence]
    first = analyze_game(one, 0, Limit(iterations=300), seed=5)
    second = analyze_game(two, 0, Limit(iterations=300), seed=5)
    before = [d for d in first.decisions if d.ply < divergence]
    assert len(before) >= 6
    assert [d for d in second.decisions if d.ply < divergence] == before
    # the games did diverge for seat 0, so later judgements are free to differ
    a = replay(one, upto=divergence)
    b = replay(two, upto=divergence)
    assert observe(a, 0) != observe(b, 0)


def test_every_searched_position_looks_to_the_seat_exactly_like_the_true_one(monkeypatch, blunder_game):
    calls = spy_on_searches(monkeypatch)
    review = analyze_game(blunder_game, 0, Limit(iterations=300), seed=0)
    assert calls and {c["ply"] for c in calls} == {d.ply for d in review.decisions}
    dealt_otherwise = 0
    for call in calls:
        true = replay(blunder_game, upto=call["ply"])
        searched = call["state"]
        assert observe(searched, 0) == observe(true, 0), f"ply {call['ply']}"
        dealt_otherwise += (list(searched.hands[1]) != list(true.hands[1]) or list(searched.deck) != list(true.deck))
    assert dealt_otherwise >= len(calls) // 2, "the searched positions are not the true deal"


# ------------------------------------------------------------------------------ labels


@pytest.mark.parametrize("before, after, label", [
    (0.80, 0.78, None),  # 2 points
    (0.80, 0.74, "inaccuracy"),  # 6
    (0.80, 0.705, "inaccuracy"),  # 9.5
    (0.80, 0.69, "mistake"),  # 11
    (0.80, 0.655, "mistake"),  # 14.5
    (0.80, 0.64, "blunder"),  # 16
    (0.95, 0.05, "blunder"),  # 90
    (0.50, 0.60, None),  # a gain
])
def test_label_thresholds_5_10_15_with_disjoint_intervals(before, after, label):
    assert THRESHOLDS == (5.0, 10.0, 15.0) and LABELS == ("inaccuracy", "mistake", "blunder")
    b, a = estimate(before, 0.002), estimate(after, 0.002)
    assert label_of(b, a) == label


@pytest.mark.parametrize("loss, label", [(1.5, None), (2.5, "inaccuracy"), (6, "mistake"), (21, "blunder")])
def test_custom_thresholds(loss, label):
    b, a = estimate(0.7, 0.001), estimate(0.7 - loss / 100, 0.001)
    assert label_of(b, a, (2, 5, 20)) == label


def test_no_label_when_the_intervals_overlap_even_for_a_big_loss():
    before = counted(3, 4, 1.0)  # 75% from four visits
    after = counted(1, 5, -1.0)  # 20% from five
    assert 100 * (before.win_prob - after.win_prob) > 50
    assert after.high >= before.low
    assert label_of(before, after) is None
    touching = Estimate(0.5, 0.45, 0.55, 0.0)
    assert label_of(Estimate(0.8, 0.55, 0.9, 0.0), touching) is None, "touching intervals overlap"


def test_label_when_the_intervals_are_disjoint():
    before = counted(1500, 2000, 2.0)  # 75%
    after = counted(1100, 2000, 0.5)  # 55%
    assert after.high < before.low
    assert label_of(before, after) == "blunder"
    assert label_of(before, after, (25, 30, 35)) is None


@pytest.mark.parametrize("wins_before, wins_after, label", [
    (12000, 11000, "inaccuracy"),  # 60% -> 55%
    (15000, 13000, "mistake"),  # 75% -> 65%
    (14000, 11000, "blunder"),  # 70% -> 55%
])
def test_a_loss_of_exactly_a_threshold_gets_its_label(wins_before, wins_after, label):
    before = counted(wins_before, 20000, 0.0)
    after = counted(wins_after, 20000, 0.0)
    assert after.high < before.low
    assert label_of(before, after) == label


def test_losses_are_never_negative():
    gain = decision(estimate(0.4, vp=-1.0), estimate(0.6, vp=2.0))
    assert gain.loss == 0 and gain.vp_loss == 0 and gain.label is None
    loss = decision(estimate(0.9, 0.001, vp=3.0), estimate(0.6, 0.001, vp=-1.0))
    assert loss.loss == pytest.approx(30) and loss.vp_loss == pytest.approx(4) and loss.label == "blunder"


def test_reviewed_decisions_losses_labels_and_the_best_move(greedy_review, blunder_review):
    for review in (greedy_review, blunder_review):
        assert any(d.played == d.best for d in review.decisions)
        assert any(d.played != d.best for d in review.decisions)
        for d in review.decisions:
            assert d.loss >= 0 and d.vp_loss >= 0
            for e in (d.before, d.after):  # (Wilson's bounds may miss 0 or 1 by a rounding error)
                assert 0 <= e.low <= e.win_prob + 1e-12 and e.win_prob <= e.high + 1e-12 and e.high <= 1
            assert d.label == label_of(d.before, d.after)
            if d.played == d.best:
                assert d.after == d.before and d.loss == 0 and d.vp_loss == 0 and d.label is None
            if d.label is not None:
                assert d.loss >= THRESHOLDS[LABELS.index(d.label)]
                assert d.after.high < d.before.low
            # a better move is shown, and a loss counted, only beyond the search error
            apart = d.after.high < d.before.low and d.after.win_prob < d.before.win_prob
            assert (d.better is not None) == (d.loss > 0) == apart
            assert d.better in (None, d.best)
            assert 0 <= d.mean <= 1 and d.stake == pytest.approx(max(0.0, 100 * (d.before.win_prob - d.mean)), abs=1e-6)
            assert 0 <= d.kept <= d.stake and 0 <= d.accuracy <= 100
        assert review.accuracy == pytest.approx(100 * sum(d.kept for d in review.decisions) / review.stake)
        assert review.costliest() == sorted((d for d in review.decisions if d.loss > 0),
                                            key=lambda d: -d.loss)[:3]


def test_thresholds_reach_the_labels(blunder_game):
    strict = analyze_game(blunder_game, 0, Limit(iterations=300), seed=0)
    lax = analyze_game(blunder_game, 0, Limit(iterations=300), seed=0, thresholds=(60, 70, 95))
    assert [d.loss for d in strict.decisions] == [d.loss for d in lax.decisions]
    for d in lax.decisions:
        assert d.label == label_of(d.before, d.after, (60, 70, 95))
    assert any(d.label for d in strict.decisions)
    assert [d.label for d in lax.decisions].count("blunder") < [d.label for d in strict.decisions].count("blunder")


# ------------------------------------------------------------------------------ accuracy


@pytest.mark.parametrize("after, accuracy", [
    (0.70, 100.0),  # the best's value: all of the 10 points at stake kept
    (0.65, 50.0),  # 5 of 10 points lost
    (0.62, 20.0),  # 8 lost
    (0.60, 0.0),  # no better than a uniform choice
    (0.50, 0.0),  # worse than a uniform choice: nothing kept, never below 0
    (0.75, 100.0),  # valued above the best: nothing lost
])
def test_decision_accuracy_is_the_share_of_the_stake_kept(after, accuracy):
    d = decision(estimate(0.70, 0), estimate(after, 0), mean=0.60)  # exact values: no search error
    assert d.stake == pytest.approx(10)
    assert d.loss == pytest.approx(max(0.0, 100 * (0.70 - after)))
    assert d.kept == pytest.approx(10 * accuracy / 100)
    assert d.accuracy == pytest.approx(accuracy)


def test_a_decision_with_nothing_at_stake_is_fully_accurate_and_weighs_nothing():
    level = decision(estimate(0.5, 0), estimate(0.3, 0), mean=0.5)  # every move alike on the mean
    above = decision(estimate(0.5, 0), estimate(0.3, 0), mean=0.55)  # the search's best below the mean
    unknown = decision(estimate(0.5, 0), estimate(0.3, 0))  # no mean
    for d in (level, above, unknown):
        assert d.stake == 0 and d.kept == 0 and d.accuracy == 100
    review = GameReview(0, (level, decision(estimate(0.7, 0), estimate(0.65, 0), mean=0.6)), 100, 0.0)
    assert review.stake == pytest.approx(10) and review.accuracy == pytest.approx(50)


def test_game_accuracy_is_the_stake_weighted_mean_of_the_decisions():
    decisions = (
        decision(estimate(0.70, 0), estimate(0.65, 0), mean=0.60),  # stake 10, kept 5
        decision(estimate(0.52, 0), estimate(0.52, 0), mean=0.50),  # stake 2, kept 2
        decision(estimate(0.90, 0), estimate(0.40, 0), mean=0.50),  # stake 40, kept 0
    )
    review = GameReview(0, decisions, 100, 0.0)
    assert review.stake == pytest.approx(52)
    assert review.accuracy == pytest.approx(100 * 7 / 52)
    unweighted = statistics.fmean(d.accuracy for d in decisions)
    assert review.accuracy != pytest.approx(unweighted), "a big stake weighs more than a small one"
    assert review.to_dict()["accuracy"] == round(100 * 7 / 52, 2) and review.to_dict()["stake"] == 52
    empty = GameReview(0, (), 100, 0.0)
    assert empty.accuracy == 100 and empty.stake == 0 and empty.costliest() == []


def test_a_move_within_the_search_error_loses_nothing_and_shows_no_better_move():
    best = Estimate(0.70, 0.66, 0.74, 1.0)
    close = Estimate(0.64, 0.60, 0.67, 0.0)  # 6 points below, but the intervals overlap
    d = decision(best, close, mean=0.5)
    assert not analysis.worse(best, close)
    assert d.loss == 0 and d.better is None and d.label is None and d.vp_loss == 0
    apart = Estimate(0.64, 0.62, 0.65, 0.0)  # the same value, known more closely: beyond the error
    d = decision(best, apart, mean=0.5)
    assert analysis.worse(best, apart)
    assert d.loss == pytest.approx(6) and d.better == d.best and d.label == "inaccuracy"
    one = GameReview(0, (d,), 100, 0.0).to_dict()["decisions"][0]
    assert one["better"] == one["best"] == "pass" and one["loss"] == 0.06 and one["stake"] == 0.2


@pytest.mark.parametrize("half_before, half_after, error", [
    (0.0196, 0.0196, math.sqrt(2)),  # each value within 1.96 points: one point of standard error each
    (0.0392, 0.0, 2.0),  # two points of standard error on the best, none on the move
    (0.0, 0.0, 0.0),  # exact values
    (0.098, 0.0, 5.0),  # five points of error: the whole loss may be noise
])
def test_the_accuracy_counts_the_loss_less_one_standard_error(half_before, half_after, error):
    before, after = estimate(0.70, half_before), estimate(0.65, half_after)  # 5 points lost
    assert analysis.standard_error(before, after) == pytest.approx(error)
    d = decision(before, after, mean=0.55)  # 15 points at stake
    assert d.counted_loss == pytest.approx(max(0.0, 5 - error), abs=1e-6)
    assert d.accuracy == pytest.approx(100 * (15 - max(0.0, 5 - error)) / 15)


def test_the_best_move_played_loses_nothing_whatever_the_error():
    wide = estimate(0.70, 0.2)
    d = Decision(0, Move.parse("end"), Move.parse("end"), wide, wide, None, {}, (), 0.5)
    assert d.counted_loss == 0 and d.loss == 0 and d.accuracy == 100 and d.better is None


class EngineBot:
    """Plays, at each decision, exactly what the analyser will call best: a search of the seat's
    observation with the analyser's budget and its seed for the ply."""

    name = "engine"

    def __init__(self, limit: Limit, seed: int):
        self.limit, self.seed = limit, seed

    def choose(self, state: Any) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        seen = observe(state, state.current_player)
        core = CoreState.from_state(state_from_observation(seen, state.cards)[0])
        return analysis.search_values(core, self.limit, self.seed + state.ply)[0].best


def test_playing_the_engines_best_move_everywhere_is_accurate_and_unlabelled():
    limit = Limit(iterations=300)
    record = play_game(2, [RandomBot(3), EngineBot(limit, seed=11)])
    review = analyze_game(record, 1, limit, seed=11)
    assert len(review.decisions) >= 8
    for d in review.decisions:
        assert d.played == d.best, f"ply {d.ply}"
        assert d.loss == 0 and d.vp_loss == 0 and d.label is None and d.better is None
        assert d.accuracy == pytest.approx(100, abs=1e-3)
    assert review.accuracy == pytest.approx(100, abs=1e-3)
    assert review.costliest() == []
    assert review.to_dict()["accuracy"] == 100
    # judged with another search seed, the same moves are no longer all "best"
    other = analyze_game(record, 1, limit, seed=12)
    assert any(d.played != d.best for d in other.decisions)


# ------------------------------------------------------------------------------ reproducibility, workers


def test_same_seed_and_iterations_give_the_same_review(greedy_game, greedy_review):
    again = analyze_game(greedy_game, 0, Limit(iterations=400), seed=0)
    assert without_elapsed(again) == without_elapsed(greedy_review)
    assert again.decisions == greedy_review.decisions
    other_seed = analyze_game(greedy_game, 0, Limit(iterations=400), seed=1)
    assert without_elapsed(other_seed) != without_elapsed(greedy_review)


def test_two_workers_give_the_same_judgements_as_one(greedy_game, greedy_review):
    parallel = analyze_game(greedy_game, 0, Limit(iterations=400), seed=0, workers=2)
    assert without_elapsed(parallel) == without_elapsed(greedy_review)


def test_workers_search_side_by_side(monkeypatch, greedy_game):
    """The first two searches must be running at the same time, or the barrier breaks."""
    barrier = threading.Barrier(2, timeout=20)
    count = itertools.count()
    threads = set()
    real = analysis.search_values

    def spy(core, limit, seed, root_move=None, settle=None):
        threads.add(threading.get_ident())
        if next(count) < 2:
            barrier.wait()
        return real(core, limit, seed, root_move, settle)

    monkeypatch.setattr(analysis, "search_values", spy)
    analyze_game(greedy_game, 0, Limit(iterations=300), seed=0, workers=2)
    assert len(threads) == 2


def test_a_time_budget_too_short_for_any_iteration_still_values_every_decision(greedy_game):
    review = analyze_game(greedy_game, 0, Limit(seconds=1e-9), seed=0)
    assert [d.ply for d in review.decisions] == choice_plies(greedy_game, 0)
    for d in review.decisions:
        assert 0 <= d.before.win_prob <= 1 and 0 <= d.after.win_prob <= 1 and 0 <= d.accuracy <= 100


def test_progress_is_shown_on_stderr_only_when_asked(capsys, greedy_game):
    analyze_game(greedy_game, 0, Limit(iterations=100), progress=False)
    out, err = capsys.readouterr()
    assert out == "" and err == ""
    analyze_game(greedy_game, 0, Limit(iterations=100), progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "analysing seat 0" in err and "100%" in err


# ------------------------------------------------------------------------------ reuse


def _reveals_nothing(record: dict[str, Any], ply: int, player: int, tries: int = 24) -> bool:
    """Whether, from the seat's point of view, the move at ``ply`` shows nothing new whatever the
    hidden cards are: the same observation follows in many deals consistent with what it saw."""
    core = CoreState.from_state(replay(record, upto=ply))
    move = Move.parse(record["moves"][ply])
    seen = set()
    for seed in range(tries):
        world = core.determinized(player, 1000 + seed)
        world.apply(move)
        seen.add(json.dumps(observe(world, player), sort_keys=True))
    return len(seen) == 1


def _draws(record: dict[str, Any], ply: int, player: int) -> bool:
    state = replay(record, upto=ply)
    size = len(state.deck)
    state.apply(Move.parse(record["moves"][ply]))
    return len(state.deck) < size and state.current_player == player


@pytest.mark.parametrize("which", ["greedy", "blunder"])
def test_a_move_that_reveals_nothing_reuses_the_next_search(monkeypatch, greedy_game, blunder_game, which):
    record = greedy_game if which == "greedy" else blunder_game
    calls = spy_on_searches(monkeypatch)
    review = analyze_game(record, 0, Limit(iterations=400), seed=0)
    full = [c["ply"] for c in calls if c["root_move"] is None]
    assert sorted(full) == [d.ply for d in review.decisions], "one full search per decision"
    assert all(c["seed"] == c["ply"] for c in calls), "searches are seeded by ply (seed 0 + ply)"
    alone: dict[int, list[Move]] = {}
    for c in calls:
        if c["root_move"] is not None:
            alone.setdefault(c["ply"], []).append(c["root_move"])
    by_ply = {d.ply: d for d in review.decisions}
    reused = searched_after_a_draw = 0
    for d in review.decisions:
        if d.played == d.best:
            assert d.ply not in alone, f"ply {d.ply}: the best move's value is already known"
            continue
        if d.ply + 1 in by_ply and _reveals_nothing(record, d.ply, 0):
            assert d.ply not in alone, f"ply {d.ply}: {d.played} reveals nothing, the next search has its value"
            assert d.after == by_ply[d.ply + 1].before
            reused += 1
        else:
            assert alone.get(d.ply) == [d.played], f"ply {d.ply}: {d.played} needs a search of its own"
            searched_after_a_draw += _draws(record, d.ply, 0)
    assert reused >= 1, "the game has a non-revealing non-best move followed by another decision"
    if which == "greedy":
        assert searched_after_a_draw >= 1, "the game has a non-best move that draws cards"
    assert len(calls) == len(review.decisions) + sum(len(v) for v in alone.values())


# ------------------------------------------------------------------------------ a known blunder


def test_a_known_blunder_is_labelled_blunder_with_disjoint_intervals(blunder_game, blunder_review):
    worst = max(blunder_review.decisions, key=lambda d: d.loss)
    assert (worst.ply, worst.played, worst.best) == (BLUNDER_PLY, BLUNDER_PLAYED, BLUNDER_BEST)
    assert worst.label == "blunder"
    assert worst.after.high < worst.before.low
    assert worst.loss >= 40 and worst.vp_loss > 0
    assert worst.before.win_prob >= 0.6 and worst.after.win_prob <= 0.2
    assert blunder_review.costliest()[0] == worst
    sentence = worst.explain()
    assert sentence.startswith(f"Ply {BLUNDER_PLY}:") and str(BLUNDER_PLAYED) in sentence and str(BLUNDER_BEST) in sentence
    # confirmed by bigger searches of the two moves alone, from the seat's observation
    seen = observe(replay(blunder_game, upto=BLUNDER_PLY), 0)
    played = ismcts(seen, Limit(iterations=1500), seed=99, root_move=BLUNDER_PLAYED).moves[0]
    best = ismcts(seen, Limit(iterations=1500), seed=99, root_move=BLUNDER_BEST).moves[0]
    assert best.win_prob - played.win_prob >= 0.5


@pytest.mark.parametrize("iterations, seed", [(300, 1), (800, 7)])
def test_the_known_blunder_does_not_depend_on_the_budget_or_seed(blunder_game, iterations, seed):
    review = analyze_game(blunder_game, 0, Limit(iterations=iterations), seed=seed)
    d = next(d for d in review.decisions if d.ply == BLUNDER_PLY)
    assert d.label == "blunder" and d.loss >= 30
    assert str(d.best).startswith('play "Rabid Usurper"'), "the Usurper (in whichever city a small search prefers)"


# ------------------------------------------------------------------------------ the budget


def test_a_settling_search_goes_on_while_the_best_move_is_in_doubt_and_stops_once_it_is_not():
    core = new_game("core", seed=5)
    first, values = analysis.search_values(core, Limit(iterations=400), seed=9)
    assert not analysis._settled(first, values), "the position this test needs: 400 iterations leave it open"
    result, values = analysis.search_values(core, Limit(iterations=400), seed=9, settle=400 * 2 ** 6)
    steps = [400 * 2 ** k for k in range(7)]
    assert result.iterations in steps[1:], "on from 400 by doubling, the same trees"
    assert result.iterations == steps[-1] or analysis._settled(result, values)
    if result.iterations > 800:  # every stop before the last was unsettled
        shorter, values = analysis.search_values(core, Limit(iterations=400), seed=9, settle=result.iterations // 2)
        assert shorter.iterations == result.iterations // 2 and not analysis._settled(shorter, values)
    move = first.moves[1].move
    alone, values = analysis.search_values(core, Limit(iterations=400), seed=9, root_move=move, settle=6400)
    assert alone.iterations == 400 and list(values) == [move], "a move searched alone does not settle"


def test_a_review_reports_the_budget_it_settled_with(greedy_game):
    fixed = analyze_game(greedy_game, 0, Limit(iterations=200), seed=0)
    assert fixed.settle is None and fixed.searched == 200 and fixed.budget == "200 iterations a decision"
    review = analyze_game(greedy_game, 0, Limit(iterations=200), seed=0, settle=1600)
    assert review.settle == 1600 and 200 <= review.searched <= 1600
    assert review.budget == f"200 iterations a decision, settling up to 1600 ({review.searched:.0f} on average)"
    doc = review.to_dict()
    assert doc["settle"] == 1600 and doc["mean_iterations"] == round(review.searched)
    for bad, words in ((100, "at least the budget's 200"), (0, "settle"), (True, "settle")):
        with pytest.raises(UsageError, match=words):
            analyze_game(greedy_game, 0, Limit(iterations=200), settle=bad)
    with pytest.raises(UsageError, match="time budget"):
        analyze_game(greedy_game, 0, Limit(seconds=0.01), settle=400)


def test_the_default_review_searches_as_the_default_advice(capsys, monkeypatch, record_file):
    monkeypatch.setattr("omen_search.advisor.DEFAULT_ITERATIONS", 100)
    monkeypatch.setattr("omen_search.advisor.DEFAULT_SETTLE", 400)
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--quiet")
    assert status == 0, err
    assert re.search(r"; 100 iterations a decision, settling up to 400 \(\d+ on average\), ", out), out
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--quiet", "--iterations", "150")
    assert status == 0 and "; 150 iterations a decision, " in out, "a budget given is searched as given"
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--quiet", "--iterations", "150",
                           "--settle", "100")
    assert_one_line_error(status, out, err, "settle", "at least the budget's 150")


# ------------------------------------------------------------------------------ API errors


def test_bad_arguments_are_usage_errors(greedy_game):
    limit = Limit(iterations=10)
    for player in (2, -1, True):
        with pytest.raises(UsageError, match="player"):
            analyze_game(greedy_game, player, limit)
    for workers in (0, -1, 1.5):
        with pytest.raises(UsageError, match="workers"):
            analyze_game(greedy_game, 0, limit, workers=workers)  # type: ignore[arg-type]
    for thresholds in ((5, 10), (15, 10, 5), (0, 10, 15), (5, 10, 150), (5, 10, 15, 20)):
        with pytest.raises(UsageError, match="thresholds"):
            analyze_game(greedy_game, 0, limit, thresholds=thresholds)


def test_bad_records_are_record_errors(tmp_path, greedy_game):
    wrong_cards = dict(greedy_game, cards={"name": "other", "sha256": "0" * 64})
    with pytest.raises(RecordError, match="card set"):
        analyze_game(wrong_cards, 0, Limit(iterations=10))
    bad_move = dict(greedy_game, moves=greedy_game["moves"][:3] + ["play \"Opal Statuary\" city9"])
    bad_move.pop("scores"), bad_move.pop("winner"), bad_move.pop("plies"), bad_move.pop("turns")
    with pytest.raises(RecordError, match="ply 3"):
        analyze_game(bad_move, 0, Limit(iterations=10))
    mine = load_cards(custom_cards(tmp_path))
    record = play_game(3, [RandomBot(1)] * 2, max_turns=3, cards=mine)
    with pytest.raises(RecordError, match="--cards"):
        analyze_game(record, 0, Limit(iterations=10))
    review = analyze_game(record, 0, Limit(iterations=100), cards=mine)
    assert [d.ply for d in review.decisions] == choice_plies(record, 0, mine)


def test_the_solo_automaton_is_not_reviewed():
    record = play_game(1, [RandomBot(1)], max_turns=3, level="normal")  # the player is the only one to move
    with pytest.raises(UsageError, match="seat 1"):
        analyze_game(record, 1, Limit(iterations=10))
    review = analyze_game(record, 0, Limit(iterations=100))
    assert [d.ply for d in review.decisions] == choice_plies(record, 0)


# ------------------------------------------------------------------------------ command line


@pytest.fixture(scope="module")
def record_file(tmp_path_factory, greedy_game) -> Path:
    path = tmp_path_factory.mktemp("analyze") / "game.json"
    write_record(path, greedy_game)
    return path


@pytest.fixture(scope="module")
def blunder_file(tmp_path_factory, blunder_game) -> Path:
    path = tmp_path_factory.mktemp("analyze") / "blunder.json"
    write_record(path, blunder_game)
    return path


def test_cli_json_schema(capsys, record_file, greedy_game):
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--iterations", "400",
                           "--json", "--quiet")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    doc = json.loads(lines[0])
    assert doc["player"] == 0
    assert isinstance(doc["accuracy"], (int, float)) and 0 <= doc["accuracy"] <= 100
    decisions = doc["decisions"]
    assert [d["ply"] for d in decisions] == choice_plies(greedy_game, 0)
    for d in decisions:
        assert JSON_KEYS <= set(d)
        assert isinstance(d["ply"], int) and not isinstance(d["ply"], bool)
        assert d["played"] == greedy_game["moves"][d["ply"]]
        assert isinstance(d["best"], str) and str(Move.parse(d["best"])) == d["best"]
        for key in ("win_prob_before", "win_prob_after", "loss"):
            assert isinstance(d[key], float) and 0 <= d[key] <= 1, (key, d)
        assert isinstance(d["vp_loss"], (int, float)) and d["vp_loss"] >= 0
        assert d["label"] in (None, *LABELS)
        if d["better"] is None:  # the move played is as good as the best within the search error
            assert d["loss"] == 0 and d["label"] is None
        else:
            assert d["better"] == d["best"] != d["played"]
            assert d["loss"] == pytest.approx(d["win_prob_before"] - d["win_prob_after"], abs=2e-4) and d["loss"] > 0
        assert 0 <= d["accuracy"] <= 100 and 0 <= d["stake"] <= 1
        if d["played"] == d["best"]:
            assert d["loss"] == 0 and d["label"] is None and d["better"] is None
    # the same numbers as the Python API with the same seed and budget
    api = analyze_game(greedy_game, 0, Limit(iterations=400), seed=0).to_dict()
    api.pop("elapsed")
    doc.pop("elapsed", None)
    assert doc == api


def test_cli_text_names_accuracy_labels_and_the_three_costliest(capsys, blunder_file, blunder_game):
    status, out, err = run(capsys, "analyze", str(blunder_file), "--player", "0", "--iterations", "500")
    assert status == 0
    assert "analysing seat 0" in err, "progress is shown on stderr"
    review = analyze_game(blunder_game, 0, Limit(iterations=500), seed=0)
    assert re.search(r"accuracy (\d+\.\d)%", out).group(1) == f"{review.accuracy:.1f}"
    sentences = [line.strip()[2:] for line in out.splitlines() if line.startswith("  - ")]
    assert sentences == [d.explain() for d in review.costliest()]
    assert 1 <= len(sentences) <= 3
    for sentence in sentences:
        assert sentence.endswith(".") and sentence.count(". ") == 0 and sentence.startswith("Ply ")
    assert f"Ply {BLUNDER_PLY}: {BLUNDER_PLAYED}" in sentences[0]
    for d in review.decisions:
        if d.label:
            assert re.search(rf"^\s*{d.ply}\s+.*{re.escape(d.label)}\s*$", out, re.M), d
    counts = {label: sum(d.label == label for d in review.decisions) for label in LABELS}
    assert f"{counts['blunder']} blunder" in out


def test_cli_all_lists_every_decision(capsys, record_file, greedy_game):
    status, out, _ = run(capsys, "analyze", str(record_file), "--player", "1", "--iterations", "300", "--all",
                         "--quiet", "--workers", "2")
    assert status == 0
    listed = [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)  ", out, re.M)]
    assert listed == choice_plies(greedy_game, 1)


def test_cli_html_writes_the_report(capsys, tmp_path, blunder_file):
    report = tmp_path / "report.html"
    status, out, err = run(capsys, "analyze", str(blunder_file), "--player", "0", "--iterations", "300",
                           "--html", str(report), "--quiet")
    assert status == 0 and err == ""
    assert report.is_file() and f"report written to {report}" in out
    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and 'id="evaluation-graph"' in text and 'id="decisions"' in text
    status, out, _ = run(capsys, "analyze", str(blunder_file), "--player", "0", "--iterations", "300",
                         "--html", str(report), "--quiet", "--json")
    assert status == 0 and json.loads(out)["player"] == 0


@pytest.mark.parametrize("args, words", [
    (["--player", "2"], ["--player"]),
    (["--player", "x"], ["--player"]),
    ([], ["--player"]),
    (["--player", "0", "--thresholds", "5,10"], ["--thresholds"]),
    (["--player", "0", "--thresholds", "15,10,5"], ["--thresholds"]),
    (["--player", "0", "--thresholds", "a,b,c"], ["--thresholds"]),
    (["--player", "0", "--thresholds", "0,10,15"], ["--thresholds"]),
    (["--player", "0", "--thresholds", "5,10,150"], ["--thresholds"]),
    (["--player", "0", "--iterations", "0"], ["--iterations"]),
    (["--player", "0", "--workers", "0"], ["--workers"]),
])
def test_cli_bad_options_are_one_line_errors(capsys, record_file, args, words):
    status, out, err = run(capsys, "analyze", str(record_file), *args)
    assert_one_line_error(status, out, err, *words)
    assert out == ""


def test_cli_game_refuses_a_record_of_another_game(capsys, tmp_path, record_file):
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--game", "heir-solo")
    assert_one_line_error(status, out, err, "--game heir-solo: the record is a game of heir")
    assert out == ""
    solo = tmp_path / "solo.json"
    write_record(solo, play_game(1, [RandomBot(1)], max_turns=2, level="normal"))
    status, out, err = run(capsys, "analyze", str(solo), "--player", "0", "--game", "heir-solo", "--iterations", "20",
                           "--quiet", "--json")
    assert status == 0 and json.loads(out)["player"] == 0
    status, out, err = run(capsys, "analyze", str(solo), "--player", "0", "--game", "heir")
    assert_one_line_error(status, out, err, "--game heir: the record is a game of heir-solo")


def test_cli_errors_for_files(capsys, tmp_path, record_file):
    status, out, err = run(capsys, "analyze", str(tmp_path / "missing.json"), "--player", "0")
    assert_one_line_error(status, out, err, "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    status, out, err = run(capsys, "analyze", str(broken), "--player", "0")
    assert_one_line_error(status, out, err, "broken.json")
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--iterations", "50", "--quiet",
                           "--html", str(tmp_path / "no-such-dir" / "r.html"))
    assert_one_line_error(status, out, err, "--html", "no-such-dir")
    assert not (tmp_path / "no-such-dir").exists()


@pytest.fixture
def custom_record(capsys, tmp_path) -> tuple[Path, Path]:
    """A record played with a user's card file, and that file."""
    cards_path = custom_cards(tmp_path)
    record = tmp_path / "mine.json"
    status, _, _ = run(capsys, "play", "--players", "random,random", "--seed", "3", "--max-turns", "3",
                       "--cards", str(cards_path), "--record", str(record))
    assert status == 0
    return record, cards_path


def test_cli_record_of_another_card_set(capsys, custom_record):
    record, cards_path = custom_record
    status, out, err = run(capsys, "analyze", str(record), "--player", "0", "--iterations", "50", "--quiet")
    assert_one_line_error(status, out, err, "--cards")
    status, out, err = run(capsys, "analyze", str(record), "--player", "0", "--iterations", "50", "--quiet",
                           "--cards", str(cards_path), "--json")
    assert status == 0 and json.loads(out)["decisions"]


def test_cli_html_report_of_a_game_with_another_card_set(capsys, tmp_path, custom_record):
    record, cards_path = custom_record
    report = tmp_path / "mine.html"
    status, out, err = run(capsys, "analyze", str(record), "--player", "0", "--iterations", "50", "--quiet",
                           "--cards", str(cards_path), "--html", str(report))
    assert status == 0, err
    assert report.is_file()


def test_cli_unwritable_html_is_one_line_before_any_search(capsys, monkeypatch, tmp_path, record_file):
    calls = spy_on_searches(monkeypatch)
    status, out, err = run(capsys, "analyze", str(record_file), "--player", "0", "--iterations", "50",
                           "--html", str(tmp_path / "no-such-dir" / "r.html"))
    assert_one_line_error(status, out, err, "--html")
    assert calls == [], "the report's path is checked before the analysis"


# ------------------------------------------------------------------------------ HTML report


def _rows(html: str) -> list[tuple[str, int, str]]:
    """(class, ply, board text) of each row of the decision table."""
    body = html.split('<table id="decisions">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr class="([a-z]+)" id="ply-(\d+)">(.*?)</tr>', body, re.S)
    out = []
    for cls, ply, cells in rows:
        board = re.search(r"<pre>(.*?)</pre>", cells, re.S)
        out.append((cls, int(ply), unescape(board.group(1)) if board else ""))
    return out


def test_html_report_is_self_contained_with_graph_table_and_boards(blunder_review):
    html = render(blunder_review)
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "500 iterations a decision, judged from" in html, "the budget, as the summary line says it"
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I), "nothing loaded from elsewhere"
    assert "<script" not in html.lower() and "<link" not in html.lower() and "@import" not in html
    assert "url(" not in html
    decisions = blunder_review.decisions
    # the evaluation graph: one polyline, one circle per decision, coloured by label
    graph = re.search(r'<svg id="evaluation-graph".*?</svg>', html, re.S)
    assert graph and graph.group(0) == evaluation_graph(blunder_review)
    circles = re.findall(r'<circle class="decision ([a-z]+)" cx="([\d.]+)" cy="([\d.]+)" r="(\d+)" fill="(#[0-9a-f]+)"',
                         graph.group(0))
    assert len(circles) == len(decisions)
    last = max(d.ply for d in decisions)
    xs = []
    for (cls, cx, cy, r, fill), d in zip(circles, decisions):
        assert cls == (d.label or "ok") and fill == COLORS[d.label]
        assert float(cx) == pytest.approx(PAD + (WIDTH - 2 * PAD) * d.ply / last, abs=0.06)
        assert float(cy) == pytest.approx(HEIGHT - PAD - (HEIGHT - 2 * PAD) * d.before.win_prob, abs=0.06)
        assert int(r) > 3 if d.label else int(r) == 3
        xs.append(float(cx))
    assert xs == sorted(xs)
    assert {c[0] for c in circles} >= {"blunder", "ok"}
    assert graph.group(0).count("<polyline") == 1 and f'stroke="{COLORS[None]}"' in graph.group(0)
    # the decision table: one row per decision, in order, labelled rows classed, a board in each
    rows = _rows(html)
    assert [(cls, ply) for cls, ply, _ in rows] == [(d.label or "ok", d.ply) for d in decisions]
    for (_, _, board), d in zip(rows, decisions):
        hand = [name for name in d.observation["players"][0]["hand"]]
        assert "city0" in board and "city2" in board and "your hand:" in board
        for name in set(hand):
            assert name in board.split("your hand:", 1)[1]
    # accuracy and the costliest decisions
    assert f'<strong id="accuracy">{blunder_review.accuracy:.1f}%</strong>' in html
    costliest = re.search(r'<ol id="costliest">(.*?)</ol>', html, re.S).group(1)
    assert [unescape(s) for s in re.findall(r"<li>(.*?)</li>", costliest)] == [d.explain() for d in blunder_review.costliest()]


def test_html_of_a_review_without_decisions():
    html = render(GameReview(0, (), 10, 0.0))
    assert 'id="evaluation-graph"' in html and "<circle" not in html and "<polyline" not in html
    assert _rows(html) == []


def test_write_html_unwritable_path_is_a_usage_error(tmp_path, blunder_review):
    with pytest.raises(UsageError, match="--html"):
        write_html(blunder_review, tmp_path / "missing" / "r.html")
    write_html(blunder_review, tmp_path / "r.html")
    assert (tmp_path / "r.html").read_text(encoding="utf-8") == render(blunder_review)


def test_html_board_states_no_made_up_opponent_score():
    record = play_game(1, [RandomBot(1), RandomBot(2)], max_turns=200, stop=40)
    review = analyze_game(record, 0, Limit(iterations=100))
    made_up = []
    for d in review.decisions:
        fake = state_from_observation(d.observation)[0].scores()[1]
        true = replay(record, upto=d.ply).scores()[1]
        if fake != true:
            made_up.append((d.ply, fake))
    if not made_up:
        pytest.fail("precondition: some decision where the made-up deal changes the opponent's VP")
    boards = {ply: board for _, ply, board in _rows(render(review))}
    for ply, fake in made_up:
        line = next(line for line in boards[ply].splitlines() if line.strip().startswith("seat1"))
        assert not line.endswith(f"— {fake} VP"), f"ply {ply}: {line.strip()}"


# ------------------------------------------------------------------------------ the report in a browser


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, header
    bpp = 3 if color == 2 else 4
    stride = width * bpp
    raw = zlib.decompress(b"".join(chunks))
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        else:
            assert kind == 0, f"filter {kind}"
        rows.append(bytes(line) if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows


def _rgb(color: str) -> bytes:
    return bytes.fromhex(color.lstrip("#"))


def _where(rows: list[bytes], color: str, top: int = 0, bottom: int | None = None) -> list[tuple[int, int]]:
    rgb = _rgb(color)
    found = []
    for y in range(top, len(rows) if bottom is None else bottom):
        row = rows[y]
        start = row.find(rgb)
        while start >= 0:
            if start % 3 == 0:
                found.append((start // 3, y))
            start = row.find(rgb, start + 1)
    return found


def screenshot(html: Path, png: Path, profile: Path) -> subprocess.CompletedProcess:
    command = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", f"--screenshot={png}", "--window-size=1000,1400", html.as_uri()]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # chromium and the helpers it started
        proc.communicate()
        pytest.fail("chromium took more than 120 s to take the screenshot")
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


def test_report_in_headless_chromium_shows_the_graph_its_markers_and_the_table(tmp_path, blunder_review):
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is not installed (Debian package 'chromium')")
    html = tmp_path / "report.html"
    write_html(blunder_review, html)
    png = tmp_path / "shot.png"
    done = screenshot(html, png, tmp_path / "profile")
    assert png.is_file(), f"no screenshot; chromium exit {done.returncode}: {done.stderr[-2000:]!r}"
    assert png.stat().st_size > 10_000
    width, height, rows = read_png(png)
    assert (width, height) == (1000, 1400)
    assert len({rows[y][x * 3:x * 3 + 3] for y in range(0, height, 7) for x in range(0, width, 7)}) > 20
    # the graph's plot area (#fafafa) places the SVG on the page
    # (rows mostly of that colour; text antialiasing leaves a few such pixels elsewhere)
    by_row: dict[int, list[int]] = {}
    for x, y in _where(rows, "#fafafa", 0, 700):
        by_row.setdefault(y, []).append(x)
    plot = {y: xs for y, xs in by_row.items() if len(xs) >= 400}
    assert plot, "the graph's plot area is on the first screen"
    top, bottom = min(plot), max(plot)
    left = Counter(min(xs) for xs in plot.values()).most_common(1)[0][0]
    right = Counter(max(xs) for xs in plot.values()).most_common(1)[0][0]
    assert right - left == pytest.approx(WIDTH - 2 * PAD, abs=6) and bottom - top == pytest.approx(HEIGHT - 2 * PAD, abs=6)
    ox, oy = left - PAD, top - PAD
    line = _where(rows, COLORS[None], top - 8, bottom + 8)
    assert len(line) > 200, "the evaluation line is drawn"
    assert all(left - 8 <= x <= right + 8 for x, _ in line)
    assert not _where(rows, COLORS[None], bottom + 20), "the line colour is only in the graph"
    # every decision's marker where the graph puts it, in its label's colour
    decisions = blunder_review.decisions
    last = max(d.ply for d in decisions)
    labelled = [d for d in decisions if d.label]
    assert {d.label for d in labelled} >= {"blunder"}
    for d in decisions:
        cx = ox + PAD + (WIDTH - 2 * PAD) * d.ply / last
        cy = oy + HEIGHT - PAD - (HEIGHT - 2 * PAD) * d.before.win_prob
        near = [(x, y) for x, y in _where(rows, COLORS[d.label], int(cy) - 8, int(cy) + 9)
                if abs(x - cx) <= 8 and abs(y - cy) <= 8]
        assert len(near) >= (40 if d.label else 4), f"ply {d.ply}: marker {COLORS[d.label]} near ({cx:.0f}, {cy:.0f})"
    for label in ("blunder", "mistake", "inaccuracy"):
        pixels = _where(rows, COLORS[label])
        count = sum(d.label == label for d in decisions)
        assert bool(pixels) == bool(count), label
        assert all(top - 8 <= y <= bottom + 8 for _, y in pixels), f"{label} colour only in the graph"
    # the decision table below: one #ddd rule under each row (and the header) across the table
    rules = [y for y in range(bottom + 40, height) if len(_where([rows[y]], "#dddddd")) >= 600]
    visible = sum(1 for y, nxt in zip(rules, rules[1:] + [None]) if nxt is None or nxt > y + 1)
    assert visible >= min(len(decisions) + 1, 12), f"table rules at {rules}"
