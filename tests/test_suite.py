"""The reference suite of positions (issue 21): its figures on hand-made values, its file format
refused with the file, the line and the fault named, and ``omen-search suite`` on a tiny suite
written in a temporary folder (the deciding war of docs/advice.md, section 6, where one move wins)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from omen_search.errors import FormatError, UsageError
from omen_search.search import Limit
from omen_search.suite import (
    DEFAULT_DIR,
    SUITE_FORMAT,
    ReferenceMove,
    SuitePosition,
    load_suite,
    parse_budgets,
    position_line,
    reference_moves,
    run_suite,
    summarize,
    suite_files,
)

from cli_helper import assert_one_line_error, run

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "advice-handwritten.json"
WAR = {'play "Rabid Usurper" city1': 0.98, "end": 0.09, 'play "Rabid Usurper" city0': 0.0,
       'play "Rabid Usurper" city2': 0.0}  # hand-made reference values of the deciding war's moves


def war_line(ident: str = "war", values: dict[str, float] = WAR) -> dict:
    """A suite line of the deciding war, with hand-made reference values."""
    return {"format": SUITE_FORMAT, "id": ident, "game": "heir", "source": "test",
            "reference": {"algorithm": "ismcts", "searches": 2, "iterations": 100},
            "moves": [{"move": m, "win_prob": v, "spread": 0.01, "visits": 50} for m, v in values.items()],
            "observation": json.loads(EXAMPLE.read_text())}


def write_suite(folder: Path, *lines: dict | str, name: str = "heir.jsonl") -> Path:
    path = folder / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def position(*values: float) -> SuitePosition:
    moves = tuple(ReferenceMove(f"m{i}", v, 0.0, 10) for i, v in enumerate(values))
    return SuitePosition("p", "heir", {}, moves, {})


# ---------------------------------------------------------------------------------- the figures


def test_regret_is_the_win_points_lost_against_the_best():
    p = position(0.60, 0.595, 0.40)
    assert p.regret("m0") == 0
    assert p.regret("m1") == pytest.approx(0.5)
    assert p.regret("m2") == pytest.approx(20)
    assert p.gap == pytest.approx(0.5)
    with pytest.raises(UsageError, match="'m9' is not one of its legal moves"):
        p.regret("m9")


def test_a_lead_is_known_only_beyond_the_reference_runs_spread():
    moves = (ReferenceMove("a", 0.60, 0.010, 10), ReferenceMove("b", 0.57, 0.005, 10), ReferenceMove("c", 0.1, 0.0, 1))
    p = SuitePosition("p", "heir", {}, moves, {})
    assert p.gap == pytest.approx(3) and p.known_gap == pytest.approx(1.5) and p.separated
    wide = SuitePosition("p", "heir", {}, (ReferenceMove("a", 0.60, 0.020, 10), *moves[1:]), {})
    assert wide.known_gap == pytest.approx(0.5) and not wide.separated  # the runs disagree by more than the lead
    one_run = SuitePosition("p", "heir", {}, (ReferenceMove("a", 0.6, math.nan, 10), *moves[1:]), {})
    assert not one_run.separated


def test_summary_of_hand_made_values():
    regrets = [0.0, 0.0, 0.5, 2.0, 10.0]
    agrees = [True, True, False, False, False]
    separated = [True, False, False, True, True]
    r = summarize("1000 it", regrets, agrees, separated, [0.1, 0.2, 0.3, 0.4, 0.5])
    assert r.positions == 5 and r.agreement == pytest.approx(0.4)
    assert r.mean_regret == pytest.approx(2.5)
    assert r.p95_regret == pytest.approx(2.0 + 0.8 * 8.0)  # between the 4th and 5th of 5, linearly
    assert r.separated == 3 and r.separated_agreement == pytest.approx(1 / 3)
    assert r.seconds == pytest.approx(0.3)
    none = summarize("x", [1.0], [False], [False], [0.1])
    assert none.separated == 0 and math.isnan(none.separated_agreement)
    assert none.to_dict()["separated_agreement"] is None
    with pytest.raises(UsageError):
        summarize("x", [1.0, 2.0], [True], [True], [0.1])


def test_budgets_are_read_as_iterations_or_seconds():
    assert parse_budgets("1000, 3000,0.5s") == [Limit(iterations=1000), Limit(iterations=3000), Limit(seconds=0.5)]
    for bad, words in (("1k", "'1k' is neither"), ("0", "'0'"), ("-1s", "'-1s'")):
        with pytest.raises(UsageError, match=words):
            parse_budgets(bad)


# ---------------------------------------------------------------------------------- the file


def test_a_written_position_reads_back(tmp_path):
    p = load_suite(write_suite(tmp_path, war_line()))[0]
    assert [m.move for m in p.moves] == list(WAR)  # best first
    assert p.best.move == 'play "Rabid Usurper" city1' and p.gap == pytest.approx(89)
    again = load_suite(write_suite(tmp_path, position_line(p), name="again.jsonl"))[0]
    assert again == p


def test_the_reference_values_every_legal_move_best_first():
    moves = reference_moves(json.loads(EXAMPLE.read_text()), iterations=400, searches=2, seed=1)
    assert {m.move for m in moves} == set(WAR)
    assert moves[0].move == 'play "Rabid Usurper" city1' and moves[0].win_prob > 0.8 > moves[1].win_prob
    assert sum(m.visits for m in moves) == 800 and all(m.spread >= 0 for m in moves)


@pytest.mark.parametrize("change, words", [
    (lambda d: "{not json", ["line 2", "not valid JSON"]),
    (lambda d: {**d, "format": "omen-suite/9"}, ["line 2", "format: must be 'omen-suite/1'"]),
    (lambda d: {**d, "moves": d["moves"][:1]}, ["line 2", "at least two legal moves"]),
    (lambda d: {**d, "moves": [{**d["moves"][0], "win_prob": 1.5}] + d["moves"][1:]},
     ["line 2", "moves[0].win_prob: must be a number from 0 to 1, got 1.5"]),
    (lambda d: {**d, "moves": [{**d["moves"][0], "visits": -1}] + d["moves"][1:]}, ["moves[0].visits"]),
    (lambda d: {**d, "moves": d["moves"][:3]}, ["line 2", "do not match the observation's legal moves",
                                                 'not valued: play "Rabid Usurper" city2']),
    (lambda d: {**d, "moves": d["moves"][:3] + [{**d["moves"][0], "move": "end turn"}]}, ["not legal: end turn"]),
    (lambda d: {**d, "id": "war"}, ["line 2", "'war' is already used"]),
    (lambda d: {**d, "game": "heir-solo"}, ["line 2", "observation.game"]),
    (lambda d: {**d, "observation": {**d["observation"], "favor": "ra"}}, ["line 2", "observation.favor"]),
])
def test_a_bad_suite_file_is_refused_naming_the_file_and_the_fault(tmp_path, change, words):
    path = write_suite(tmp_path, war_line(), change(war_line("second")))
    with pytest.raises(FormatError) as caught:
        load_suite(path)
    for word in [str(path)] + words:
        assert word in str(caught.value)


def test_an_empty_or_missing_suite_is_refused(tmp_path):
    with pytest.raises(FormatError, match="no positions"):
        load_suite(write_suite(tmp_path))
    with pytest.raises(UsageError, match="no suite folder"):
        suite_files(tmp_path / "nowhere")
    with pytest.raises(UsageError, match="no suite file for heir-solo"):
        suite_files(tmp_path, "heir-solo")


# ---------------------------------------------------------------------------------- measuring


def test_the_advisor_finds_the_move_that_wins_the_war(tmp_path):
    near = {**WAR, "end": 0.975}  # end is within a point: choosing it would cost 0.5, but it is not separated
    positions = load_suite(write_suite(tmp_path, war_line(), war_line("near", near)))
    result, = run_suite(positions, [Limit(iterations=800)], seed=1)
    assert result.agreement == 1 and result.mean_regret == 0
    assert result.separated == 1 and result.separated_agreement == 1


def test_the_advisor_with_mast_playouts_is_measured_alike(tmp_path):
    positions = load_suite(write_suite(tmp_path, war_line()))
    result, = run_suite(positions, [Limit(iterations=800)], seed=1, rollout="mast")
    assert result.agreement == 1 and result.mean_regret == 0
    with pytest.raises(UsageError, match="rollout: must be one of random, mast, got 'greedy'"):
        run_suite(positions, [Limit(iterations=800)], rollout="greedy")  # type: ignore[arg-type]


def test_a_suite_deepened_in_part_names_each_reference_budget(tmp_path, capsys):
    deep = {**war_line("deep"), "reference": {"algorithm": "advisor", "searches": 2, "iterations": 400000}}
    write_suite(tmp_path, war_line(), deep)
    status, out, _ = run(capsys, "suite", "--positions", str(tmp_path), "--iterations", "300", "--quiet")
    assert status == 0
    assert ("(reference: 2 runs of 400000 iterations for 1 position; 2 runs of 100 iterations for 1 position)"
            in out.splitlines()[0])
    status, out, _ = run(capsys, "suite", "--positions", str(tmp_path), "--iterations", "300", "--quiet", "--json")
    assert json.loads(out)["games"][0]["references"] == [
        {"searches": 2, "iterations": 400000, "positions": 1}, {"searches": 2, "iterations": 100, "positions": 1}]


def test_the_command_prints_the_curve(tmp_path, capsys):
    write_suite(tmp_path, war_line())
    status, out, _ = run(capsys, "suite", "--positions", str(tmp_path), "--budgets", "300,600", "--quiet", "--json")
    assert status == 0
    game, = json.loads(out)["games"]
    assert game["game"] == "heir" and game["positions"] == 1
    assert [b["budget"] for b in game["budgets"]] == ["300 it", "600 it"]
    assert all(b["mean_regret"] == 0 and b["agreement"] == 1 for b in game["budgets"])
    status, out, _ = run(capsys, "suite", "--positions", str(tmp_path), "--iterations", "300", "--quiet")
    assert status == 0 and "300 it" in out and "mean regret" in out


@pytest.mark.parametrize("argv, words", [
    (["--budgets", "300,lots"], ["--budgets", "'lots'"]),
    (["--budgets", "300", "--iterations", "300"], ["not allowed with argument"]),
    (["--game", "heir-solo"], ["no suite file for heir-solo"]),
])
def test_command_errors_are_one_line(tmp_path, capsys, argv, words):
    write_suite(tmp_path, war_line())
    assert_one_line_error(*run(capsys, "suite", "--positions", str(tmp_path), "--quiet", *argv), *words)


def test_a_bad_suite_file_is_one_line_naming_it(tmp_path, capsys):
    path = write_suite(tmp_path, war_line(), {**war_line("b"), "moves": []})
    assert_one_line_error(*run(capsys, "suite", "--positions", str(tmp_path), "--quiet"), str(path), "line 2")


def test_p95_matches_numpy():
    values = list(np.linspace(0, 9, 10))
    assert summarize("x", values, [False] * 10, [False] * 10, [0.0] * 10).p95_regret == pytest.approx(8.55)


def test_doctests_of_the_suite_module():
    import doctest

    import omen_search.suite

    failed, attempted = doctest.testmod(omen_search.suite)
    assert attempted and not failed


def test_the_formats_page_shows_a_real_suite_line(tmp_path):
    """docs/formats.md, section 11, shows the hand-made deciding war as its line in the suite."""
    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "formats.md").read_text(encoding="utf-8")
    section = page[page.index("## 11. The reference suite"):]
    shown = json.loads(re.search(r"```text\n(\{.*?\})\n```", section, re.S).group(1))
    assert load_suite(write_suite(tmp_path, shown))[0].best.move == 'play "Rabid Usurper" city1'
    suite = root / "bench" / "positions" / "heir.jsonl"
    if suite.exists():
        assert shown in [json.loads(line) for line in suite.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("path", sorted(DEFAULT_DIR.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_shipped_suite_is_of_its_game_with_exactly_the_legal_moves_valued(path):
    positions = load_suite(path)  # each observation read back, its legal moves exactly the moves valued
    assert {p.game for p in positions} == {path.stem}
    assert all(p.id.startswith(f"{path.stem}-") for p in positions)
    assert all(p.best.win_prob == max(m.win_prob for m in p.moves) for p in positions), "best first"
