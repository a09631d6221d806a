"""AI-vs-AI matches: seat-swapped pairs, reproducible games, results that survive a kill, backends."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from omen_search.cli import main
from omen_search.games.heir.engines import new_game
from omen_search.errors import RecordError, UsageError
from omen_search.game import get_game
from omen_search.games.heir.cards import default_cards
from omen_search.games.heir.rules import Config
from omen_search.match import (
    MatchOptions,
    MatchResult,
    MatchSetup,
    deal,
    play_game,
    play_match,
    read_results,
    run_match,
)
from process_helper import children, gone, omen_env



def without_time(line: dict) -> dict:
    return {k: v for k, v in line.items() if k != "seconds"}


def totals(result: MatchResult) -> dict:
    return result.to_dict()


# ------------------------------------------------------------------------------------ games


def test_a_pair_is_one_deal_with_the_seats_swapped():
    setup = MatchSetup(a="greedy", b="random", seed=5)
    even, odd = play_game(setup, 6), play_game(setup, 7)
    assert even["pair"] == odd["pair"] == 3
    assert even["game_seed"] == odd["game_seed"] and even["gods"] == odd["gods"]
    assert (even["a_seat"], odd["a_seat"]) == (0, 1)
    assert even["players"] == ["greedy", "random"] and odd["players"] == ["random", "greedy"]
    assert even["result"] == float(even["winner"] == 0) and odd["result"] == float(odd["winner"] == 1)


def test_every_game_is_fixed_by_the_match_seed_and_its_index():
    setup = MatchSetup(a="ismcts:iterations=30", b="random", seed=9)
    assert without_time(play_game(setup, 3)) == without_time(play_game(setup, 3))
    other = MatchSetup(a="ismcts:iterations=30", b="random", seed=10)
    assert play_game(setup, 3)["game_seed"] != play_game(other, 3)["game_seed"]


def test_deals_vary_the_gods_between_pairs():
    heir = get_game("heir")
    gods = {heir.seat_labels(heir.match_config(heir.config(), deal(1, pair)[1])) for pair in range(40)}
    assert gods == {("anubis", "horus"), ("horus", "anubis")}


def test_drawn_cards_include_the_opening_hand():
    setup = MatchSetup(a="random", b="random", seed=2, track_cards=True)
    line = play_game(setup, 0)
    cards = default_cards()
    opening = new_game("core", seed=line["game_seed"], cards=cards, config=Config(gods=tuple(line["gods"])))
    for seat in (0, 1):
        names = {cards.units[t].name for t, n in enumerate(opening.hands[seat]) if n}
        assert names and names <= set(line["drawn"][seat])
        assert set(line["played"][seat]) <= set(line["drawn"][seat])


# ---------------------------------------------------------------------------------- totals


def test_totals_count_wins_pairs_and_seats():
    result = play_match("greedy", "random", games=20, seed=3)
    assert result.games == 20 and result.a_wins + result.b_wins + result.ties == 20
    assert result.score == pytest.approx((result.a_wins + 0.5 * result.ties) / 20)
    assert sum(result.pentanomial) == 10
    assert sum(k * c for k, c in enumerate(result.pentanomial)) == 2 * result.a_wins + result.ties
    assert result.elo_low <= result.elo <= result.elo_high
    assert result.seat0_low <= result.seat0_win_rate <= result.seat0_high
    assert result.a_wins > result.b_wins  # greedy beats random


def test_two_workers_play_the_same_games_as_one():
    one, two = [], []
    run_match(MatchSetup(a="greedy", b="random", seed=4), MatchOptions(games=12, workers=1, lines=one))
    run_match(MatchSetup(a="greedy", b="random", seed=4), MatchOptions(games=12, workers=2, lines=two))
    key = lambda g: g["index"]  # noqa: E731
    assert [without_time(g) for g in sorted(one, key=key)] == [without_time(g) for g in sorted(two, key=key)]


def test_sprt_stops_a_clear_match_early():
    result = play_match("greedy", "random", games=400, seed=1, sprt="elo0=0,elo1=50,alpha=0.05,beta=0.05")
    assert result.sprt is not None and result.sprt["verdict"] == "H1"
    assert result.stopped_early and result.games < 400
    assert result.sprt["llr"] >= result.sprt["upper"]


# ------------------------------------------------------------------------------- the file


def test_results_file_has_a_header_and_a_line_per_game(tmp_path):
    out = tmp_path / "m.jsonl"
    play_match("random", "random", games=6, seed=2, out=str(out))
    rows = [json.loads(r) for r in out.read_text().splitlines()]
    assert rows[0]["format"] == "omen-match/1" and rows[0]["match"]["a"] == "random"
    assert sorted(r["index"] for r in rows[1:]) == list(range(6))


def test_a_line_cut_by_a_kill_is_dropped_and_replayed(tmp_path):
    out = tmp_path / "m.jsonl"
    full = play_match("random", "greedy", games=8, seed=6, out=str(out))
    text = out.read_text()
    out.write_text(text[: len(text) - 25])  # the last line loses its end
    assert len(read_results(out)) == 7
    resumed = play_match("random", "greedy", games=8, seed=6, out=str(out), resume=True)
    assert totals(resumed) == totals(full)


def test_resume_refuses_the_file_of_another_match(tmp_path):
    out = tmp_path / "m.jsonl"
    play_match("random", "random", games=4, seed=1, out=str(out))
    with pytest.raises(RecordError, match=r"m\.jsonl:1: .*seed"):
        play_match("random", "random", games=4, seed=2, out=str(out), resume=True)
    with pytest.raises(UsageError, match="exists"):
        play_match("random", "random", games=4, seed=1, out=str(out))


def test_a_corrupt_line_is_named_by_file_and_line(tmp_path):
    out = tmp_path / "m.jsonl"
    play_match("random", "random", games=4, seed=1, out=str(out))
    rows = out.read_text().splitlines()
    rows[2] = '{"index": "x"}'
    out.write_text("\n".join(rows) + "\n")
    with pytest.raises(RecordError, match=r"m\.jsonl:3: not a game result line"):
        read_results(out)


def test_a_killed_match_resumes_to_the_totals_of_an_uninterrupted_one(tmp_path):
    """SIGKILL mid-run, then --resume: nothing replayed, nothing lost, the same totals."""
    args = ["match", "ismcts:iterations=40", "greedy", "--games", "40", "--seed", "7", "--quiet", "--json"]
    command = [sys.executable, "-P", "-m", "omen_search", *args]  # -P: the package under test, not the cwd
    env = omen_env()
    killed = tmp_path / "killed.jsonl"
    proc = subprocess.Popen([*command, "--out", str(killed)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not killed.exists() or killed.read_text().count("\n") < 8):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = read_results(killed)
    assert 7 <= len(before) < 40, "the kill should land mid-run"
    resumed = subprocess.run([*command, "--out", str(killed), "--resume"], env=env, capture_output=True,
                             text=True, timeout=300, check=True)
    whole = subprocess.run([*command, "--out", str(tmp_path / "whole.jsonl")], env=env, capture_output=True,
                           text=True, timeout=300, check=True)
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)
    after = read_results(killed)
    assert sorted(g["index"] for g in after) == list(range(40))
    kept = {g["index"]: without_time(g) for g in after}
    assert all(kept[g["index"]] == without_time(g) for g in before), "finished games are never replayed"
    assert killed.read_text().count("\n") == 41, "a header and one line per game"


def _match(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, Path]:
    """A 200-game match in a subprocess writing to ``tmp_path/m.jsonl``, stdout and stderr piped."""
    out = tmp_path / "m.jsonl"
    command = [sys.executable, "-P", "-m", "omen_search", "match", "ismcts:iterations=30", "random", "--games",
               "200", "--seed", "3", "--quiet", "--out", str(out), *args]
    proc = subprocess.Popen(command, env=omen_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    return proc, out


def _games_in(out: Path) -> int:
    return max(0, out.read_text().count("\n") - 1) if out.exists() else 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_killing_a_match_ends_its_workers_and_closes_its_pipes(tmp_path):
    """SIGKILL of the match process alone: its pool workers die with it, so nothing holds the
    caller's pipes open (communicate() returns) and no worker is left running."""
    proc, out = _match(tmp_path, "--workers", "2")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and _games_in(out) < 1:
        time.sleep(0.01)
    workers = children(proc.pid)
    assert len(workers) >= 2 and _games_in(out) >= 1
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=10)  # hangs if a worker still holds stdout or stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(gone(w) for w in workers):
        time.sleep(0.05)
    assert all(gone(w) for w in workers), "a worker outlived the match"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_each_game_is_written_the_moment_it_ends(tmp_path, workers):
    """Game lines arrive one at a time (not a batch at once), and a kill keeps every finished one."""
    proc, out = _match(tmp_path, "--workers", workers)
    seen: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not seen or seen[-1] < 4):
        n = _games_in(out)
        if n and (not seen or n != seen[-1]):
            seen.append(n)
        time.sleep(0.002)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=10)
    assert seen[0] <= 2, f"the first games came {seen[0]} at once"
    rows = out.read_text().splitlines()
    assert out.read_text().endswith("\n") and all(json.loads(row) for row in rows), "every line is whole"
    assert len(read_results(out)) >= seen[-1] >= 4, "every game seen finished is kept"


def test_progress_shows_the_standing_game_by_game_in_the_summarys_elo_format(capsys):
    result = run_match(MatchSetup(a="greedy", b="random", seed=3), MatchOptions(games=6, progress=True, report_every=2))
    err = capsys.readouterr().err
    elo = r"Elo [+-]\d+\.\d \(95% [+-]\d+\.\d \.\. [+-]\d+\.\d\)"
    reports = [line for line in err.splitlines() if " games: " in line and "|" not in line]
    assert [line.split(" games")[0] for line in reports] == ["2", "4", "6"]
    assert all(re.search(elo, line) for line in reports), reports
    assert re.search(elo, result.summary()) and re.search(r"6/6 \[.*, " + elo, err), err
    assert result.line() in err


# ------------------------------------------------------------------------------ unchanged output

TWO_BOTS_SUMMARY = """greedy vs random: 6 games
  A wins 5, B wins 1, ties 0; score 83.3%
  Elo +279.6 (95% -44.4 .. +416.6), LOS 94.9%
  pairs (A's points 0, ½, 1, 1½, 2): 0 0 1 0 2
  seat 0 wins 66.7% (95% 30.0 .. 90.3); 131 plies a game"""
TWO_BOTS_TOTALS = {"a": "greedy", "b": "random", "games": 6, "a_wins": 5, "b_wins": 1, "ties": 0,
                   "score": 0.8333333333333334, "elo": 279.5880017344076, "elo_low": -44.365862142078306,
                   "elo_high": 416.5570740632898, "los": 0.9487647825701253, "pentanomial": [0, 0, 1, 0, 2],
                   "seat0_wins": 4, "seat0_win_rate": 0.6666666666666666, "seat0_low": 0.2999933151383921,
                   "seat0_high": 0.9032285888942196, "mean_plies": 130.66666666666666, "sprt": None,
                   "stopped_early": False, "level": None}
SOLO_SUMMARY = """greedy vs the Corrupted Heir (novice): 4 games
  A wins 2 (50.0%, 95% 15.0 .. 85.0); the Heir wins 2; 55 plies a game
  Elo against the automaton -0.0 (95% -338.0 .. +338.0)"""


def test_two_bot_totals_and_summary_are_those_of_the_heir_only_match_runner(capsys):
    """Written by the match runner before it took any game: the same games, totals and text."""
    result = play_match("greedy", "random", games=6, seed=3)
    assert isinstance(result, MatchResult) and result.summary() == TWO_BOTS_SUMMARY
    assert list(result.to_dict()) == list(TWO_BOTS_TOTALS) and result.to_dict() == pytest.approx(TWO_BOTS_TOTALS)
    assert result.line() == "6 games: 5-1-0, score 83.3%, Elo +279.6 (95% -44.4 .. +416.6)"
    solo = play_match("greedy", "corrupted-heir", games=4, seed=2, level="novice")
    assert solo.summary() == SOLO_SUMMARY and solo.level == "novice"
    assert main(["match", "greedy", "random", "--games", "6", "--seed", "3", "--quiet"]) == 0
    assert capsys.readouterr().out == TWO_BOTS_SUMMARY + "\n"


STRENGTH = Path(__file__).resolve().parents[1] / "bench" / "strength"


@pytest.mark.skipif(not STRENGTH.is_dir(), reason="no source tree with bench/strength")
@pytest.mark.parametrize("name", ["ismcts100-greedy", "solo-greedy-hard"])
def test_a_checked_in_strength_file_resumes_at_once_and_its_games_reproduce(tmp_path, monkeypatch, name):
    """docs/strength.md's rows: the file's first line is the match's identity, key for key and in
    order (Heir's files name no game), --resume plays nothing, and games replay to the same lines."""
    path = STRENGTH / f"{name}.jsonl"
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])["match"]
    setup = MatchSetup(header["a"], header["b"], seed=header["seed"], level=header.get("level"))
    assert setup.game == ("heir-solo" if "level" in header else "heir")
    assert list(setup.identity().items()) == list(header.items())
    lines = {g["index"]: g for g in read_results(path, setup.identity())}
    for index in (0, 1, 7):
        assert without_time(play_game(setup, index)) == without_time(lines[index])
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())

    def no_games(*args, **kwargs):
        raise AssertionError("a finished match played a game")

    monkeypatch.setattr("omen_search.match.play_game", no_games)
    result = run_match(setup, MatchOptions(games=len(lines), out=str(copy), resume=True))
    assert result == MatchResult.from_lines(setup.a, setup.b, lines.values(), level=header.get("level"))
    assert copy.read_bytes() == path.read_bytes()


def test_heir_options_stay_where_they_were_in_the_first_line(tmp_path):
    out = tmp_path / "m.jsonl"
    play_match("random", "random", games=2, out=str(out), max_turns=150)
    match = json.loads(out.read_text().splitlines()[0])["match"]
    assert "game" not in match and match["max_turns"] == 150 and match["emissary"] is False
    with pytest.raises(RecordError, match="max_turns"):
        play_match("random", "random", games=2, out=str(out), resume=True)


def test_options_of_the_game_are_checked():
    assert MatchSetup("greedy", "corrupted-heir", level="hard").game == "heir-solo"
    assert MatchSetup("greedy", "random", emissary=True, level=None).game == "heir"
    with pytest.raises(UsageError, match=r"^gods: not an option of a match of heir \(the options it takes: "
                                         r"emissary, max_turns\)"):
        play_match("random", "random", games=2, gods="horus,anubis")
    with pytest.raises(UsageError, match="^emissary: must be true or false"):
        play_match("random", "random", games=2, emissary="yes")
    with pytest.raises(UsageError, match="bots: a match of heir is between two bots"):
        play_match(bots=["random", "random", "greedy"], games=2)


# ------------------------------------------------------------------------------------ solo


def test_a_solo_match_keeps_the_bot_in_seat_0_with_a_deal_per_game(tmp_path):
    out = tmp_path / "solo.jsonl"
    result = play_match("greedy", "corrupted-heir", games=6, seed=1, level="hard", out=str(out))
    lines = read_results(out)
    assert [g["a_seat"] for g in lines] == [0] * 6
    assert len({g["game_seed"] for g in lines}) == 6
    assert all(g["players"] == ["greedy", "corrupted-heir"] for g in lines)
    assert result.level == "hard" and result.a_wins == result.seat0_wins
    assert json.loads(out.read_text().splitlines()[0])["match"]["level"] == "hard"
    with pytest.raises(RecordError, match="level"):
        play_match("greedy", "corrupted-heir", games=6, seed=1, level="brutal", out=str(out), resume=True)


def test_solo_levels_change_the_games():
    easy = play_game(MatchSetup(a="greedy", b="corrupted-heir", seed=1, level="novice"), 0)
    hard = play_game(MatchSetup(a="greedy", b="corrupted-heir", seed=1, level="brutal"), 0)
    assert easy["game_seed"] == hard["game_seed"]
    assert without_time(easy) != without_time(hard)


@pytest.mark.parametrize("a, b, level, words", [
    ("greedy", "random", "hard", "corrupted-heir"),
    ("corrupted-heir", "greedy", None, "corrupted-heir"),
    ("greedy", "corrupted-heir", None, "solo"),
    ("greedy", "corrupted-heir", "impossible", "level"),
])
def test_solo_match_misuse_is_a_usage_error(a, b, level, words):
    with pytest.raises(UsageError, match=words):
        play_match(a, b, games=2, level=level)


# ------------------------------------------------------------------------------------- CLI


def test_cli_json_has_the_documented_keys(capsys):
    status = main(["match", "greedy", "random", "--games", "4", "--seed", "2", "--quiet", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert {"games", "a_wins", "b_wins", "ties", "score", "elo", "elo_low", "elo_high", "seat0_win_rate"} <= set(out)
    assert out["games"] == 4


def test_cli_match_of_the_first_bot_plays_one_game_per_deal(capsys, tmp_path):
    """The first bot takes no chances: both games of a pair (one deal, the seats swapped) are the
    same game when it plays both seats."""
    out = tmp_path / "first.jsonl"
    assert main(["match", "first", "first", "--games", "2", "--seed", "5", "--quiet", "--out", str(out)]) == 0
    _, one, two = (json.loads(line) for line in out.read_text().splitlines())
    assert one["players"] == two["players"] == ["first", "first"] and one["a_seat"] != two["a_seat"]
    assert (one["scores"], one["plies"]) == (two["scores"], two["plies"])


def test_cli_summary_names_elo_los_pairs_and_seat0(capsys):
    assert main(["match", "greedy", "random", "--games", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    for word in ("Elo", "LOS", "pairs", "seat 0"):
        assert word in out


def test_cli_solo_match(capsys):
    assert main(["match", "random", "corrupted-heir", "--game", "heir-solo", "--level", "novice", "--games", "3",
                 "--quiet"]) == 0
    assert "the Corrupted Heir (novice)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["match", "human", "random"], ["human"]),
    (["match", "random", "random", "--games", "0"], ["--games"]),
    (["match", "random", "random", "--backend", "slurm"], ["--backend"]),
    (["match", "random", "random", "--sprt", "elo1=-3"], ["sprt"]),
    (["match", "random", "random", "--level", "hard"], ["--level"]),
    (["match", "nonsense", "random"], ["nonsense"]),
])
def test_cli_bad_input_is_one_line_and_status_2(capsys, argv, words):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    for word in words:
        assert word in err


def test_cli_resume_of_a_foreign_file_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("hello\n")
    status = main(["match", "random", "random", "--out", str(bad), "--resume"])
    err = capsys.readouterr().err
    assert status == 2 and "bad.jsonl:1" in err and len(err.splitlines()) == 1


# ------------------------------------------------------------------------------------- Ray


def test_ray_backend_plays_the_same_games_as_the_process_pool(monkeypatch, tmp_path):
    ray = pytest.importorskip("ray")
    monkeypatch.chdir(tmp_path)  # Ray's workers import from the driver's working directory first
    pool_lines, ray_lines = [], []
    setup = MatchSetup(a="greedy", b="random", seed=11)
    run_match(setup, MatchOptions(games=6, workers=2, lines=pool_lines))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = run_match(setup, MatchOptions(games=6, workers=2, backend="ray", lines=ray_lines))
    finally:
        ray.shutdown()
    key = lambda g: g["index"]  # noqa: E731
    assert [without_time(g) for g in sorted(ray_lines, key=key)] == \
        [without_time(g) for g in sorted(pool_lines, key=key)]
    assert result.games == 6
