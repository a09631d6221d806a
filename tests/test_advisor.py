"""The move advisor (issue 5): advice from what the deciding player sees, every value from that
player's point of view, on hand-written observations, records, live states and solo games, through
the Python API and ``omen-search advise``; the worked example of ``docs/advice.md`` is re-run here
so that the page stays true.

Budgets are small (a few hundred to a few thousand iterations): the positions are chosen so that
these are enough for what is checked.
"""

from __future__ import annotations

import copy
import doctest
import io
import json
import math
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from omen_search._core import CoreState
import omen_search.advisor
from omen_search.advisor import (BATCHES, NOT_SEPARATED, Advice, Advisor, MoveAdvice, describe_advice, separated,
                                 settled)
from omen_search.cli import main
import omen_search.engine_protocol
from omen_search.games.heir.engines import new_game
from omen_search.errors import FormatError, RecordError, UsageError
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import load_observation, load_position, load_position_file
from omen_search.records import replay
from omen_search.search import Limit
from omen_search.stats import wilson

from cli_helper import assert_one_line_error, run

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
EXAMPLES = ROOT / "docs" / "examples"
WINNING = Move.parse('play "Rabid Usurper" city1')
JSON_KEYS = {"pov", "iterations", "determinizations", "separated", "moves", "war_outlook"}  # issue 5, point 3
MOVE_KEYS = {"move", "visits", "win_prob", "win_prob_low", "win_prob_high", "vp_margin", "pv"}


def deciding_observation(*, hand_known: bool = True) -> dict[str, Any]:
    """Seat 0's last turn of ``tests/data/deciding_war.json`` written by hand from what seat 0 sees
    (``docs/formats.md``, section 4: only the required fields and a few others; no pending
    decision, so the rules run on to seat 0's Surge). Only Rabid Usurper played into city1 wins the
    war there, the last tile and the game, 9 VP to 8 — unless seat 1's two hidden cards are
    TREASURED (1 VP each in hand), which ``hand_known`` rules out by naming them."""
    return {
        "format": "omen-observation/1",
        "player": 0,
        "turn": 21,
        "active": 0,
        "phase": "surge",
        "favor": "anubis",
        "flags": {"reward_used": True},
        "cities": [[[], []], [["Sunset Marauder"], ["Opal Statuary", "Temple Servant"]], [[], []]],
        "city_tiles": [0, 1, 0],
        "deck_size": 34,
        "players": [
            {"hand": ["Rabid Usurper"], "coins": 3,
             "unused_tiles": ["Great Scouring", "Condemned to Toil", "Royal Treasury"],
             "used_tiles": ["Scribes of Thoth"]},
            {"hand_size": 2, "known": ["Temple Servant", "Remembered Soul"] if hand_known else [], "coins": 4,
             "unused_count": 4},
        ],
    }


def mirrored(doc: dict[str, Any]) -> dict[str, Any]:
    """The same situation with the seats swapped (gods, sides, players, turn order)."""
    out = copy.deepcopy(doc)
    out["player"] = 1 - doc["player"]
    out["active"] = 1 - doc["active"]
    gods = doc.get("config", {}).get("gods", ["anubis", "horus"])
    out["config"] = {"gods": gods[::-1], "first_player": 1 - doc.get("config", {}).get("first_player", 0)}
    out["cities"] = [sides[::-1] for sides in doc["cities"]]
    out["players"] = doc["players"][::-1]
    return out


@pytest.fixture(scope="module")
def example_record() -> dict[str, Any]:
    return json.loads((EXAMPLES / "record.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def example_observation() -> dict[str, Any]:
    """Seat 0 must discard (``docs/formats.md``, section 4)."""
    return json.loads((EXAMPLES / "observation.json").read_text(encoding="utf-8"))


def check_advice(advice: Advice, iterations: int | None = None) -> None:
    """What holds for any finished advice."""
    assert advice.moves and advice.pov in (0, 1)
    if iterations is not None:
        assert advice.iterations == iterations
        assert sum(m.visits for m in advice.moves) == iterations
        assert not advice.tree_full  # the trees, sized to their share of the iterations, had room
    assert [m.visits for m in advice.moves] == sorted((m.visits for m in advice.moves), reverse=True)
    for m in advice.moves:
        if m.visits:
            assert 0 <= m.win_prob_low <= m.win_prob <= m.win_prob_high <= 1
            assert m.vp_stdev >= 0
        assert m.pv and m.pv[0].seat == advice.pov and m.pv[0].move == str(m.move)
        assert all(step.seat in (0, 1) for step in m.pv)
    assert advice.separated == separated(list(advice.moves), len(advice.moves))
    assert advice.determinizations == advice.iterations


# ------------------------------------------------------------------------------ observations


def test_a_hand_written_observation_is_advised_for_its_player():
    doc = deciding_observation()
    load_observation(doc)  # it is a valid observation as it stands
    advice = Advisor(Limit(iterations=400), seed=1).advise(doc)
    check_advice(advice, 400)
    assert advice.pov == 0
    assert {m.move for m in advice.moves} == {Move.parse(t) for t in (
        'play "Rabid Usurper" city0', 'play "Rabid Usurper" city1', 'play "Rabid Usurper" city2', "end")}


def test_observation_as_json_text_is_the_same_as_the_dict():
    doc = deciding_observation()
    a = Advisor(Limit(iterations=300), seed=2)
    assert a.advise(json.dumps(doc)).to_dict() == a.advise(doc).to_dict()


_DEL = object()
# (path in the example observation, bad value, the JSON path the error must name)
MALFORMED = [
    ("format", "omen-position/1", "format"),
    ("cards.sha256", "0" * 64, "cards.sha256"),
    ("config", "heir", "config"),
    ("config.first_player", 2, "config.first_player"),
    ("config.gods", ["anubis", "anubis"], "config.gods"),
    ("config.gods[1]", "ra", "config.gods[1]"),
    ("config.emissary", "yes", "config.emissary"),
    ("config.max_turns", 0, "config.max_turns"),
    ("config.level", "impossible", "config.level"),
    ("player", 2, "player"),
    ("player", _DEL, "player"),
    ("turn", 0, "turn"),
    ("active", 3, "active"),
    ("first_turn", "no", "first_turn"),
    ("phase", "lunch", "phase"),
    ("phase", _DEL, "phase"),
    ("ply", -1, "ply"),
    ("favor", "ra", "favor"),
    ("discard", "Temple Servant", "discard"),
    ("discard[0]", "Opal Statue", "discard[0]"),
    ("cities", [[[], []]], "cities"),
    ("cities[0]", [[]], "cities[0]"),
    ("cities[1][1][0]", "Nobody", "cities[1][1][0]"),
    ("cities[0][1]", ["Rabid Usurper"] * 3, "cities[0][1]"),
    ("revealed", ["Nope"], "revealed[0]"),
    ("limbo", 5, "limbo"),
    ("flags", [], "flags"),
    ("flags.reward_used", 1, "flags.reward_used"),
    ("war", {"city": 3}, "war.city"),
    ("war.victor", 2, "war.victor"),
    ("war.keep_step", 3, "war.keep_step"),
    ("stack", {}, "stack"),
    ("stack[1].ref[1]", "Nope", "stack[1].ref[1]"),
    ("stack[0].owner", 2, "stack[0].owner"),
    ("stack[0].index", 99, "stack[0].index"),
    ("stack[0].city", 5, "stack[0].city"),
    ("pending", "discard", "pending"),
    ("pending.kind", "nap", "pending.kind"),
    ("pending.player", 2, "pending.player"),
    ("pending.owner", 5, "pending.owner"),
    ("pending.n", -1, "pending.n"),
    ("pending.last", -1, "pending.last"),
    ("pending.card", "Nope", "pending.card"),
    ("pending.city", 9, "pending.city"),
    ("pending.ref", [1.5], "pending.ref"),
    ("pending.index", 99, "pending.index"),
    ("deck_size", 18, "deck_size"),
    ("deck_size", "19", "deck_size"),
    ("deck_size", _DEL, "deck_size"),
    ("city_tiles", [3, 2], "city_tiles"),
    ("city_tiles[0]", 4, "city_tiles[0]"),
    ("city_tiles", [3, 2, 3], "city_tiles"),
    ("players", [{}], "players"),
    ("players[0]", [], "players[0]"),
    ("players[1].hand_size", -1, "players[1].hand_size"),
    ("players[1].known", ["Nope"], "players[1].known[0]"),
    ("players[1].known", ["Fallen Archivist", "Temple Servant", "Sunset Marauder"] * 2, "players[1].known"),
    ("players[0].coins", 21, "players[0].coins"),
    ("players[0].coins", _DEL, "players[0].coins"),
    ("players[1].unused_count", 10, "players[1].unused_count"),
    ("players[0].used_tiles", ["Nope"], "players[0].used_tiles[0]"),
    ("players[0].building", "Tomb of Rebirth", "players[0].building"),
    ("players[0].under_count", -1, "players[0].under_count"),
    ("players[0].completed", ["Nope"], "players[0].completed[0]"),
    ("players[0].destroyed", ["Nope"], "players[0].destroyed[0]"),
    ("players[1].emissary_chosen", "yes", "players[1].emissary_chosen"),
    ("players[0].hand", _DEL, "players[0].hand"),
    ("players[0].hand[0]", "Nope", "players[0].hand[0]"),
    ("players[0].hand_size", 3, "players[0].hand_size"),
    ("players[1].coins", "2", "players[1].coins"),
    ("players[0].unused_tiles", ["Nope"], "players[0].unused_tiles[0]"),
    ("players[0].emissary", "Nope", "players[0].emissary"),
]


def _edit(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``doc`` with the field at ``path`` (``players[1].hand[0]``) set, or deleted."""
    out = copy.deepcopy(doc)
    keys: list[Any] = [name or int(index) for name, index in re.findall(r"\.?([A-Za-z_]\w*)|\[(\d+)\]", path)]
    target = out
    for key in keys[:-1]:
        target = target[key]
    if value is _DEL:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return out


@pytest.mark.parametrize("path, value, named", MALFORMED, ids=[f"{p}={v!r:.20}" for p, v, _ in MALFORMED])
def test_each_malformed_field_is_rejected_naming_its_path(example_observation, path, value, named):
    bad = _edit(example_observation, path, value)
    with pytest.raises(FormatError) as info:
        Advisor(Limit(iterations=50)).advise(bad)
    assert str(info.value).startswith(f"observation.{named}:"), str(info.value)


def test_observation_of_the_seat_that_does_not_decide_is_rejected(example_record):
    """At ply 63 seat 0 discards (for seat 1's Remembered Soul): seat 1's observation cannot ask."""
    state = replay(example_record, upto=63)
    assert state.current_player == 0
    with pytest.raises(FormatError, match=r"^observation\.player: this is seat 1's observation, but the decision "
                                          r"\(discard\) is seat 0's"):
        Advisor(Limit(iterations=50)).advise(observe(state, 1))
    assert Advisor(Limit(iterations=50)).advise(observe(state, 0)).pov == 0


def test_a_missing_pending_decision_is_run_to_only_when_nothing_hidden_is_needed():
    doc = deciding_observation()
    assert "pending" not in doc  # Surge: the rules reach seat 0's decision without hidden cards
    assert Advisor(Limit(iterations=50)).advise(doc).pov == 0
    reveal = {**doc, "phase": "wealth_reveal"}  # Wealth begins by revealing the top card of the deck
    with pytest.raises(FormatError, match=r"^observation\.pending: missing, and the game cannot go on"):
        Advisor(Limit(iterations=50)).advise(reveal)


# ------------------------------------------------------------------------------ the deciding war


def test_the_deciding_play_is_ranked_first_with_a_tight_interval():
    advice = Advisor(Limit(iterations=1500), seed=3).advise(deciding_observation())
    check_advice(advice, 1500)
    best, others = advice.best, advice.moves[1:]
    assert best.move == WINNING
    assert best.win_prob_low > 0.95 and best.win_prob_high - best.win_prob_low < 0.03
    assert all(m.win_prob_high < best.win_prob_low for m in others)
    assert best.vp_margin > 0 > max(m.vp_margin for m in others)
    assert advice.separated and NOT_SEPARATED not in describe_advice(advice)
    (city1,) = advice.outlook  # the only city with a tile left
    assert (city1.city, city1.tiles) == (1, 1) and city1.win_next > 0.95 and city1.expected_tiles > 0.95


def test_hidden_cards_the_player_cannot_see_lower_the_estimate_not_the_ranking():
    """Seat 1's hidden hand may hold TREASURED cards (1 VP each): the win is no longer certain."""
    known = Advisor(Limit(iterations=1500), seed=3).advise(deciding_observation(hand_known=True))
    hidden = Advisor(Limit(iterations=1500), seed=3).advise(deciding_observation(hand_known=False))
    assert hidden.best.move == WINNING
    assert hidden.best.win_prob < known.best.win_prob - 0.2
    assert all(m.win_prob_high < hidden.best.win_prob_low for m in hidden.moves[1:])


def test_values_are_from_the_asking_seats_point_of_view_with_the_seats_swapped():
    """The same last turn with seat 1 to move, asked by seat 1: the same advice, for seat 1."""
    seat0 = Advisor(Limit(iterations=1500), seed=4).advise(deciding_observation(hand_known=False))
    seat1 = Advisor(Limit(iterations=1500), seed=4).advise(mirrored(deciding_observation(hand_known=False)))
    assert (seat0.pov, seat1.pov) == (0, 1)
    assert seat1.best.move == WINNING and seat1.best.vp_margin > max(m.vp_margin for m in seat1.moves[1:])
    assert [m.pv[0].seat for m in seat1.moves] == [1] * len(seat1.moves)
    assert seat1.best.win_prob == pytest.approx(seat0.best.win_prob, abs=0.06)
    assert {str(m.move) for m in seat1.moves} == {str(m.move) for m in seat0.moves}
    for m0 in seat0.moves:
        m1 = next(m for m in seat1.moves if m.move == m0.move)
        assert m1.vp_margin == pytest.approx(m0.vp_margin, abs=0.6)


def test_the_advised_seat_follows_the_decision_through_a_game(example_record):
    """Seat 0 and seat 1 take turns asking; a seat's estimate is its own (seat 1 won this game
    6-5, so late in the game seat 1's best move looks better to seat 1 than seat 0's to seat 0)."""
    seen = set()
    late = {}
    for ply in range(0, 93, 9):
        state = replay(example_record, upto=ply)
        advice = Advisor(Limit(iterations=300), seed=ply).advise(example_record, ply)
        assert advice.pov == state.current_player
        seen.add(advice.pov)
        if ply >= 60 and advice.best.visits:
            late.setdefault(advice.pov, []).append(advice.best.win_prob)
    assert seen == {0, 1}
    assert min(late[1]) > max(late[0])


# ------------------------------------------------------------------------------ what the advice holds


def test_intervals_come_from_the_spread_of_the_independent_searches(example_record, monkeypatch):
    """Issue 21, point 4: the advisor runs BATCHES searches and asks batch_interval for each move's
    interval with that move's wins and visits in each of them, which add up to the move's totals."""
    seen: list[tuple[list[float], list[int]]] = []
    real = omen_search.advisor.batch_interval

    def spy(wins: list[float], visits: list[int]) -> tuple[float, float]:
        seen.append((list(wins), list(visits)))
        return real(wins, visits)

    monkeypatch.setattr(omen_search.advisor, "batch_interval", spy)
    state = replay(example_record, upto=17)  # seat 1's Offering: 36 moves
    advice = Advisor(Limit(iterations=2000), seed=5).advise(state)
    check_advice(advice, 2000)
    assert len(seen) == len(advice.moves) and all(len(v) == BATCHES for _, v in seen)
    for (wins, visits), m in zip(seen, advice.moves):
        assert sum(visits) == m.visits and sum(wins) / sum(visits) == pytest.approx(m.win_prob)
        assert (m.win_prob_low, m.win_prob_high) == real(wins, visits)
    assert sum(sum(v) for _, v in seen) == 2000


def test_more_workers_than_batches_are_more_searches(example_observation, monkeypatch):
    sizes = []
    real = omen_search.advisor.batch_interval
    monkeypatch.setattr(omen_search.advisor, "batch_interval", lambda w, v: sizes.append(len(v)) or real(w, v))
    Advisor(Limit(iterations=1000), seed=5, workers=BATCHES + 2).advise(example_observation)
    assert set(sizes) == {BATCHES + 2}


def _move(name: str, low: float, high: float, visits: int = 100) -> MoveAdvice:
    return MoveAdvice(name, visits, (low + high) / 2, low, high, 0.0, 0.0, ())


@pytest.mark.parametrize("moves, legal, expected", [
    ([_move("a", 0.60, 0.70), _move("b", 0.40, 0.55)], 2, True),  # apart
    ([_move("a", 0.40, 0.55), _move("b", 0.60, 0.70)], 2, True),  # apart, the less visited one above
    ([_move("a", 0.60, 0.70), _move("b", 0.50, 0.60)], 2, False),  # they touch
    ([_move("a", 0.60, 0.70), _move("b", 0.55, 0.65), _move("c", 0.1, 0.2)], 3, False),  # overlap
    ([_move("a", 0.60, 0.70)], 5, False),  # the only move searched of five: nothing to compare with
    ([_move("a", math.nan, math.nan, visits=0)], 1, True),  # forced
])
def test_separated_means_the_two_best_moves_intervals_are_apart(moves, legal, expected):
    assert separated(moves, legal) is expected
    advice = Advice(pov=0, iterations=100, determinizations=100, elapsed=0.0, moves=tuple(moves),
                    separated=expected)
    assert advice.to_dict()["separated"] is expected
    assert (NOT_SEPARATED in describe_advice(advice)) is not expected


@pytest.mark.parametrize("moves, expected", [
    ([_move("a", 0.60, 0.70), _move("b", 0.40, 0.55)], True),  # apart
    ([_move("a", 0.60, 0.70), _move("b", 0.55, 0.65)], False),  # overlap, and a choice could cost 15 points
    ([_move("a", 0.600, 0.608), _move("b", 0.599, 0.607)], True),  # together within 0.9 of a point
    ([_move("a", 0.600, 0.612), _move("b", 0.599, 0.607)], False),  # within 1.3 points: not yet
    ([_move("a", math.nan, math.nan, visits=0)], True),  # forced
])
def test_settled_means_apart_or_within_a_point(moves, expected):
    assert settled(moves) is expected


def test_settle_searches_on_until_the_best_move_is_settled(example_observation):
    """docs/examples/advice-observation.json's two best moves overlap at 2,000 iterations: with
    ``settle`` the same trees search on, doubling, until they are apart (or the cap), the same
    with the same seed; the deciding war of the hand-written example is settled at once."""
    observation = json.loads((EXAMPLES / "advice-observation.json").read_text(encoding="utf-8"))
    plain = Advisor(Limit(iterations=2000), seed=0).advise(observation)
    assert not plain.separated
    settling = Advisor(Limit(iterations=2000), seed=0, settle=16000)
    first, again = settling.advise(observation), settling.advise(observation)
    assert first.iterations in (4000, 8000, 16000) and (settled(first.moves) or first.iterations == 16000)
    assert first.to_dict() == again.to_dict()
    capped = Advisor(Limit(iterations=2000), seed=0, settle=4000).advise(observation)
    assert capped.iterations == 4000
    handwritten = json.loads((EXAMPLES / "advice-handwritten.json").read_text(encoding="utf-8"))
    assert Advisor(Limit(iterations=2000), seed=0, settle=16000).advise(handwritten).iterations == 2000


def test_the_command_settles_and_says_how_far_it_searched(capsys):
    path = str(EXAMPLES / "advice-observation.json")
    status, out, _ = run(capsys, "advise", "--observation", path, "--iterations", "2000", "--settle", "16000",
                         "--quiet", "--json")
    assert status == 0 and json.loads(out)["iterations"] in (4000, 8000, 16000)
    assert_one_line_error(*run(capsys, "advise", "--observation", path, "--seconds", "0.1", "--settle", "9000",
                               "--quiet"), "settle: goes with an iteration budget")


@pytest.mark.parametrize("limit, settle, words", [
    (Limit(seconds=0.1), 5000, "settle: goes with an iteration budget, not with a time budget"),
    (Limit(iterations=2000), 1000, "settle: at least the budget's 2000 iterations, got 1000"),
    (Limit(iterations=2000), 0, "settle"),
])
def test_a_bad_settle_is_refused(limit, settle, words):
    with pytest.raises(UsageError, match=words):
        Advisor(limit, settle=settle)


def test_two_seeds_give_overlapping_intervals(example_observation):
    """The point of intervals with the search's error in them: runs with other seeds land inside
    them. Here the best move's intervals of six seeds overlap pairwise, where the Wilson intervals
    of the same counts (the rollouts' noise alone) do not."""
    runs = [Advisor(Limit(iterations=3000), seed=seed).advise(example_observation) for seed in range(6)]
    best = str(runs[0].best.move)
    values = [next(m for m in a.moves if str(m.move) == best) for a in runs]
    assert all(a.win_prob_low <= b.win_prob_high for a in values for b in values)
    rollouts_only = [wilson(m.win_prob * m.visits, m.visits) for m in values]
    assert not all(a[0] <= b[1] for a in rollouts_only for b in rollouts_only)


# ------------------------------------------------------------------------------ sources and budgets


@pytest.mark.parametrize("ply", [17, 63, 88])
def test_a_record_at_a_ply_is_the_observation_of_the_seat_to_move(example_record, ply):
    state = replay(example_record, upto=ply)
    advisor = Advisor(Limit(iterations=500), seed=7)
    from_record = advisor.advise(example_record, ply).to_dict()
    assert from_record == advisor.advise(observe(state, state.current_player)).to_dict()
    assert from_record == advisor.advise(json.dumps(example_record), ply).to_dict()  # JSON text too


def test_a_live_state_on_either_engine_gives_the_advice_of_its_observation():
    reference = load_position_file(DATA / "deciding_war.json")
    advisor = Advisor(Limit(iterations=500), seed=8)
    expected = advisor.advise(observe(reference, 0)).to_dict()
    assert advisor.advise(reference).to_dict() == expected
    assert advisor.advise(CoreState.from_state(reference)).to_dict() == expected
    # a state that differs only in what seat 0 cannot see gets the same advice
    doc = json.loads((DATA / "deciding_war.json").read_text(encoding="utf-8"))
    doc["players"][1]["hand"] = ["Forgotten Pharaoh", "Fallen Archivist"]
    other = load_position(doc)
    assert observe(other, 0) == observe(reference, 0)
    assert advisor.advise(other).to_dict() == expected


def test_a_seed_reproduces_the_advice_with_one_worker_or_two(example_observation):
    for workers in (1, 2):
        a = Advisor(Limit(iterations=800), seed=9, workers=workers).advise(example_observation)
        b = Advisor(Limit(iterations=800), seed=9, workers=workers).advise(example_observation)
        assert a.to_dict() == b.to_dict()
        assert a.moves == b.moves
    other = Advisor(Limit(iterations=800), seed=10).advise(example_observation)
    assert other.to_dict() != a.to_dict()
    one = Advisor(Limit(iterations=800), seed=9, workers=1).advise(example_observation)
    assert one.moves == a.moves  # the same 8 searches, whether in one thread or two


@pytest.mark.parametrize("iterations", [1001, 2000])
def test_two_workers_share_the_iterations_exactly(example_observation, iterations):
    advice = Advisor(Limit(iterations=iterations), seed=11, workers=2).advise(example_observation)
    check_advice(advice, iterations)


def test_a_time_budget_is_kept(example_observation):
    advice = Advisor(Limit(seconds=0.4), seed=12, workers=2).advise(example_observation)
    check_advice(advice)
    assert advice.iterations > 100 and 0.25 < advice.elapsed < 3.0


def test_progress_reports_are_partial_and_can_stop_the_search(example_observation):
    reports: list[Advice] = []

    def progress(advice: Advice) -> bool:
        reports.append(advice)
        return len(reports) == 2

    advice = Advisor(Limit(iterations=100_000_000), seed=13).advise(example_observation, on_progress=progress,
                                                                     report_every=0.1)
    assert len(reports) == 2 and reports[0].iterations < reports[1].iterations <= advice.iterations
    assert all(m.pv == () and m.win_prob_low <= m.win_prob <= m.win_prob_high for r in reports for m in r.moves)
    assert all(r["pv"] == [] for r in reports[0].to_dict()["moves"])
    check_advice(advice, advice.iterations)  # the final advice is whole


def test_stop_from_another_thread_returns_the_advice_so_far(example_observation):
    advisor = Advisor(Limit(iterations=100_000_000), seed=14, workers=2)
    timer = threading.Timer(0.3, advisor.stop)
    started = time.perf_counter()
    timer.start()
    advice = advisor.advise(example_observation)
    assert time.perf_counter() - started < 3.0
    check_advice(advice, advice.iterations)
    advisor.stop()  # a stop before advise: the next advise returns at once, after one iteration
    assert advisor.advise(example_observation).iterations == 1


def test_bad_sources_and_options_are_named(example_record, example_observation):
    advisor = Advisor(Limit(iterations=50))
    with pytest.raises(UsageError, match="^advise: the game is over at ply 93"):
        advisor.advise(example_record)
    with pytest.raises(RecordError, match="^ply 94: the record has 93 plies"):
        advisor.advise(example_record, 94)
    with pytest.raises(FormatError, match="^record.format: expected 'omen-record/1', got 'omen-observation/1'"):
        advisor.advise(example_observation, 3)  # with a ply, the source is a record
    with pytest.raises(UsageError, match="^ply: only a game record takes a ply"):
        advisor.advise(new_game("core", seed=1), 3)
    with pytest.raises(FormatError, match="^observation: not valid JSON"):
        advisor.advise("{not json")
    with pytest.raises(FormatError, match="^observation: must be a JSON object"):
        advisor.advise("[1, 2]")
    with pytest.raises(UsageError, match="^advise: expected an observation"):
        advisor.advise(42)
    for kwargs, option in [({"algorithm": "alphazero"}, "algorithm"), ({"workers": 0}, "workers"),
                           ({"seed": -1}, "seed"), ({"c": -1.0}, "c"), ({"c": math.nan}, "c"),
                           ({"limit": 1000}, "limit")]:
        with pytest.raises(UsageError, match=f"^{option}: "):
            Advisor(**kwargs)


# ------------------------------------------------------------------------------ solo games


@pytest.fixture(scope="module")
def solo_record(tmp_path_factory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("solo") / "solo.json"
    assert main(["play", "--game", "heir-solo", "--level", "hard", "--players", "greedy", "--seed", "3",
                 "--record", str(path)]) == 0
    return json.loads(path.read_text(encoding="utf-8"))


def test_solo_games_are_advised_for_the_player(solo_record):
    assert solo_record["config"]["level"] == "hard"
    plies = len(solo_record["moves"])
    for ply in (0, plies // 3, 2 * plies // 3, plies - 1):
        state = replay(solo_record, upto=ply)
        advice = Advisor(Limit(iterations=400), seed=ply).advise(solo_record, ply)
        assert advice.pov == 0 == state.current_player
        obs = observe(state, 0)
        assert "heir_reserve" in obs
        assert Advisor(Limit(iterations=400), seed=ply).advise(obs).to_dict() == advice.to_dict()
        if advice.best.visits:
            check_advice(advice, 400)


def test_solo_games_through_the_command_line(solo_record, tmp_path, capsys):
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(solo_record), encoding="utf-8")
    assert main(["advise", "--record", str(path), "--ply", "20", "--iterations", "300", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pov"] == 0 and set(out) == JSON_KEYS


# ------------------------------------------------------------------------------ omen-search advise


def test_advise_refuses_a_record_given_as_an_observation(capsys):
    code, out, err = run(capsys, "advise", "--observation", str(EXAMPLES / "record.json"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "is a game record; use --record" in err


@pytest.mark.parametrize("source", [["--observation", str(EXAMPLES / "observation.json")],
                                    ["--record", str(EXAMPLES / "record.json"), "--ply", "63"]])
def test_advise_game_refuses_a_document_of_another_game(capsys, source):
    document = source[0].lstrip("-")
    assert_one_line_error(*run(capsys, "advise", *source, "--game", "heir-solo"),
                          f"--game heir-solo: the {document} is a game of heir")
    code, out, _ = run(capsys, "advise", *source, "--game", "heir", "--iterations", "50", "--json", "--quiet")
    assert code == 0 and json.loads(out)["pov"] == 0


def test_advise_game_takes_the_solo_game(solo_record, tmp_path, capsys):
    path = tmp_path / "solo.json"
    path.write_text(json.dumps(solo_record), encoding="utf-8")
    code, out, _ = run(capsys, "advise", "--record", str(path), "--ply", "20", "--game", "heir-solo",
                       "--iterations", "50", "--json", "--quiet")
    assert code == 0 and json.loads(out)["pov"] == 0
    assert_one_line_error(*run(capsys, "advise", "--record", str(path), "--game", "heir"),
                          "--game heir: the record is a game of heir-solo")


def test_engine_with_a_missing_card_file_is_one_line(capsys, tmp_path):
    code, out, err = run(capsys, "engine", "--cards", str(tmp_path / "missing.toml"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "missing.toml" in err


def test_advise_prints_a_table_of_ranked_moves(capsys):
    observation = str(EXAMPLES / "observation.json")
    code, out, err = run(capsys, "advise", "--observation", observation, "--iterations", "1000", "--seed", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert re.fullmatch(r"seat 0 to move; 1000 iterations, 1000 determinisations, \d+\.\d s", lines[0])
    assert lines[1].split() == ["#", "move", "win", "%", "95%", "interval", "VP", "margin"]
    rows = [re.fullmatch(r"\s*(\d+)  (.+?)\s+(\d+\.\d)\s+(\d+\.\d) -\s+(\d+\.\d)\s+([+-]\d+\.\d)", line)
            for line in lines[2:6]]
    assert all(rows), lines
    assert [int(r.group(1)) for r in rows] == [1, 2, 3, 4]
    for r in rows:
        Move.parse(r.group(2))
        assert float(r.group(4)) <= float(r.group(3)) <= float(r.group(5))
    assert lines[6] == NOT_SEPARATED + " (their 95% intervals overlap)"  # 58.3 - 64.0 against 56.0 - 65.9
    assert lines[7].startswith("next war won (expected tiles taken) after the best move: city0 ")
    assert lines[8].startswith("principal line: seat 0 " + rows[0].group(2) + "; ")


def test_advise_json_has_exactly_the_documented_keys(capsys, example_observation):
    record = str(EXAMPLES / "record.json")
    code, out, err = run(capsys, "advise", "--record", record, "--ply", "63", "--iterations", "600", "--seed", "2",
                         "--top", "2", "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert set(doc) == JSON_KEYS and doc["pov"] == 0 and doc["iterations"] == 600
    assert len(doc["moves"]) == 2 and all(set(m) == MOVE_KEYS for m in doc["moves"])
    assert all(set(step) == {"seat", "move"} for m in doc["moves"] for step in m["pv"])
    assert all(set(c) == {"city", "tiles", "win_next", "expected_tiles"} for c in doc["war_outlook"])
    api = Advisor(Limit(iterations=600), seed=2).advise(example_observation).to_dict(top=2)
    assert doc == api  # the record at ply 63 is that observation


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_advise_shows_progress_on_a_terminal_for_searches_over_a_second(capsys, monkeypatch):
    observation = str(EXAMPLES / "observation.json")
    for seconds, shown in (("1.6", True), ("0.3", False)):
        terminal = _Terminal()
        monkeypatch.setattr("sys.stderr", terminal)
        code, out, _ = run(capsys, "advise", "--observation", observation, "--seconds", seconds, "--json")
        assert code == 0 and json.loads(out)["iterations"] > 0
        assert ("searching:" in terminal.getvalue()) == shown, terminal.getvalue()


@pytest.mark.parametrize("argv, message", [
    (["--observation", "no/such/file.json"], "no/such/file.json: cannot read observation"),
    (["--observation", "README.md"], "README.md: observation: not valid JSON"),
    (["--observation", "{bad}"], "cannot read observation"),
    (["--record", "docs/examples/record.json"], "advise: the game is over at ply 93"),
    (["--record", "docs/examples/record.json", "--ply", "-1"], "ply -1: the record has 93 plies"),
    (["--record", "docs/examples/record.json", "--ply", "x"], "--ply: invalid int value"),
    (["--record", "docs/examples/observation.json"], "record.format: expected 'omen-record/1'"),
    (["--observation", "docs/examples/observation.json", "--ply", "3"], "--ply: goes with --record"),
    (["--observation", "docs/examples/observation.json", "--iterations", "0"], "--iterations: must be an integer from 1 to 1000000000, got 0"),
    (["--observation", "docs/examples/observation.json", "--iterations", "5", "--seconds", "1"], "not allowed"),
    (["--observation", "docs/examples/observation.json", "--seconds", "nan"], "--seconds: must be a number above 0 and at most 3600, got nan"),
    (["--observation", "docs/examples/observation.json", "--workers", "0"], "--workers: must be an integer from 1 to 64, got 0"),
    (["--observation", "docs/examples/observation.json", "--algorithm", "mcts"], "--algorithm: invalid choice"),
    (["--observation", "docs/examples/observation.json", "--observation", "x", "--record", "y"], "not allowed"),
    ([], "one of the arguments --observation --record is required"),
])
def test_advise_bad_input_is_one_line_on_stderr_and_status_2(capsys, monkeypatch, argv, message):
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "advise", *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("omen-search: error: ") and message in err, err


def test_advise_a_malformed_observation_names_the_field(capsys, tmp_path, example_observation):
    path = tmp_path / "obs.json"
    path.write_text(json.dumps(_edit(example_observation, "players[0].hand[2]", "Opal Statue")), encoding="utf-8")
    code, out, err = run(capsys, "advise", "--observation", str(path))
    assert (code, out) == (2, "")
    assert err == "omen-search: error: observation.players[0].hand[2]: unknown card 'Opal Statue'\n"


def test_demo_shows_the_top_three_moves_at_each_advised_decision(capsys):
    code, out, err = run(capsys, "demo", "--iterations", "150", "--seed", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[-1].startswith("Game over after ")
    headers = [i for i, line in enumerate(lines) if line.split()[:2] == ["#", "move"]]
    assert len(headers) > 10
    for i in headers:
        rows = []
        for line in lines[i + 1:]:
            if not re.match(r"\s+\d+  ", line):
                break
            rows.append(line)
        assert 1 <= len(rows) <= 3
        assert all(re.search(r"\d+\.\d\s+\d+\.\d -\s+\d+\.\d", row) for row in rows)
    advised = [line for line in lines if line.startswith("  seat 0 ")]
    assert len(advised) >= len(headers)


# ------------------------------------------------------------------------------ docs/advice.md


def _within(part: Any, whole: Any) -> bool:
    """``part`` is ``whole`` with some object fields (and trailing list entries) left out."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and _within(v, whole[k]) for k, v in part.items())
    if isinstance(part, list):
        return isinstance(whole, list) and len(part) <= len(whole) and all(map(_within, part, whole))
    return part == whole


def _blocks(page: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", page, flags=re.S)


def test_the_advice_page_example_is_a_real_game_and_its_output_is_what_the_advisor_says():
    """docs/advice.md walks through docs/examples/advice-observation.json: seat 0's observation at
    ply 16 of advice-record.json, advised with `omen-search advise --observation ...` (seed 0, 10000
    iterations). After a change of rules, cards or search, regenerate the example files and the
    page's output blocks together."""
    record = json.loads((EXAMPLES / "advice-record.json").read_text(encoding="utf-8"))
    observation = json.loads((EXAMPLES / "advice-observation.json").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "advice.md").read_text(encoding="utf-8")
    state = replay(record, upto=observation["ply"])
    assert observe(state, observation["player"]) == observation == load_observation(observation)
    advice = Advisor(Limit(iterations=10_000), seed=0).advise(observation)
    assert Advisor(Limit(iterations=10_000), seed=0).advise(record, observation["ply"]).moves == advice.moves
    assert describe_advice(advice) in page
    assert "principal line: " + "; ".join(f"seat {s.seat} {s.move}" for s in advice.best.pv) in page
    excerpt, output = (json.loads(block) for block in _blocks(page, "json")[:2])
    assert _within(excerpt, observation)
    documented = advice.to_dict()
    assert _within(output, documented) and output["moves"][0] == documented["moves"][0]
    assert output["war_outlook"] == documented["war_outlook"]


def test_the_advice_page_hand_written_example():
    page = (ROOT / "docs" / "advice.md").read_text(encoding="utf-8")
    handwritten = json.loads((EXAMPLES / "advice-handwritten.json").read_text(encoding="utf-8"))
    assert handwritten == deciding_observation() == json.loads(_blocks(page, "json")[2])
    advice = Advisor(Limit(iterations=3000), seed=0).advise(handwritten)
    assert describe_advice(advice) in page


def test_the_advice_page_python_example_runs(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    page = (ROOT / "docs" / "advice.md").read_text(encoding="utf-8")
    (code,) = _blocks(page, "python")
    exec(compile(code, "docs/advice.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "0 3000" and len(lines) == 1 + 3 + 1 + 3 and lines[4] in ("True", "False")


def test_doctests_of_the_advisor_modules():
    for module in (omen_search.advisor, omen_search.engine_protocol):
        failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert attempted and not failed, module.__name__
