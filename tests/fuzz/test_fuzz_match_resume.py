"""Fuzzing kills of a match: a match killed with SIGKILL at random moments and resumed with
``--resume`` each time ends with the totals of an uninterrupted run, one whole line per game (none
lost, none twice, none cut), and no worker process outlives a kill.

A case is one match (``python3 -m omen_search match A B --games G --seed S --out F --workers W``,
cheap bots, G from 6 to 16, W 1 or 2, sometimes the solo game or ``--records DIR``) run in a
subprocess and killed up to 2–5 times: each run is started with ``--resume`` (the first one too, on
a file that does not exist yet) and SIGKILLed either after a random delay from its start (during
start-up, often before the file exists) or a random 0–30 ms after the file holds a random number of
game lines short of G (mid-run, games in flight); once the file holds every game there is nothing
left to interrupt. One last ``--resume`` then runs to the end.
Then:

* its ``--json`` totals equal those of the same match played uninterrupted in this process;
* the file has the header and exactly G game lines, each valid JSON, each index once, each equal
  (but for ``seconds``) to the uninterrupted run's line of that index;
* after each kill, the worker processes the match had started are gone (they die with it).

Default 1 case; ``OMEN_FUZZ=long`` 60.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from omen_search.match import MatchOptions, MatchSetup, run_match

from fuzzlib import Case, fuzz
from process_helper import PROC, children, gone, omen_env

BOTS = (("greedy", "random"), ("ismcts:iterations=30", "greedy"), ("ismcts:iterations=100", "random"))


def _games_in(out: Path) -> int:
    """Whole lines in the results file after the header."""
    try:
        return max(0, out.read_bytes().count(b"\n") - 1)
    except OSError:
        return 0


def without_time(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "seconds"}


def match_case(case: Case) -> dict[str, int]:
    rng = case.rng
    a, b = rng.choice(BOTS)
    games = rng.randint(6, 16)
    seed = rng.randrange(2**32)
    workers = rng.choice((1, 2, 2))
    extra: list[str] = []
    level = None
    if rng.random() < 0.2:
        level = rng.choice(("novice", "normal", "hard", "brutal"))
        b = "corrupted-heir"
        extra += ["--game", "heir-solo", "--level", level]
    if rng.random() < 0.2:
        extra += ["--records", str(case.path("games"))]
    out = case.path("m.jsonl")
    argv = ["match", a, b, "--games", str(games), "--seed", str(seed), "--workers", str(workers), "--out", str(out),
            "--quiet", "--json", "--resume", *extra]
    case.note("argv", argv)
    command = [sys.executable, "-P", "-m", "omen_search", *argv]
    env = omen_env()

    whole_lines: list[dict[str, Any]] = []
    whole = run_match(MatchSetup(a=a, b=b, seed=seed, level=level), MatchOptions(games=games, lines=whole_lines))

    kills = rng.randint(2, 5)
    log = []
    for k in range(kills):
        if _games_in(out) >= games:
            break  # nothing left to interrupt
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # kill during start-up (a random delay), or once the file holds a random number of game lines
        done = _games_in(out)
        target = None if rng.random() < 0.25 else rng.randint(done, games - 1)
        delay = rng.uniform(0, 0.8) if target is None else rng.uniform(0, 0.03)
        deadline = time.monotonic() + (delay if target is None else 120)
        workers_seen: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            workers_seen.update(children(proc.pid))
            if target is not None and _games_in(out) >= target:
                time.sleep(delay)
                break
            time.sleep(0.002)
        workers_seen.update(children(proc.pid))
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=60)  # a worker holding the pipes open would hang here
        log.append({"target": target, "delay": round(delay, 3), "lines": _games_in(out), "status": proc.returncode})
        assert proc.returncode in (0, -signal.SIGKILL), f"run {k} exited {proc.returncode}: {err[-2000:]!r}"
        until = time.monotonic() + 10
        while time.monotonic() < until and not all(gone(w) for w in workers_seen):
            time.sleep(0.05)
        left = [w for w in workers_seen if not gone(w)]
        assert not left, f"worker processes {left} outlived the kill of run {k}"
    case.note("kills", log)
    final = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert final.returncode == 0, f"the last --resume exited {final.returncode}: {final.stderr[-2000:]}"
    totals = json.loads(final.stdout)
    expected = json.loads(json.dumps(whole.to_dict()))
    assert totals == expected, f"totals after {len(log)} kills differ from an uninterrupted run:\n{totals}\n{expected}"

    text = out.read_text(encoding="utf-8")
    case.note("m.jsonl", text)
    assert text.endswith("\n"), "the results file ends in a cut line"
    rows = text.splitlines()
    header, lines = json.loads(rows[0]), [json.loads(r) for r in rows[1:]]
    assert header.get("format") == "omen-match/1", rows[0]
    indexes = [g["index"] for g in lines]
    assert sorted(indexes) == list(range(games)), f"game lines by index: {sorted(indexes)}"
    by_index = {g["index"]: without_time(g) for g in whole_lines}
    assert all(without_time(g) == by_index[g["index"]] for g in lines), "a game line differs from the uninterrupted run"
    if "--records" in extra:
        records = sorted(p.name for p in case.path("games").iterdir() if not p.name.startswith("."))
        assert records == [f"game-{i:06d}.json" for i in range(games)], records
    return dict(Counter(f"runs killed {_kind(run, games)}" for run in log), **{"matches": 1})


def _kind(run: dict[str, Any], games: int) -> str:
    """What a killed run shows: finished first, killed before a game line, or mid-run."""
    if run["status"] == 0:
        return "never (it finished first)"
    return "before a game line" if run["lines"] == 0 else "mid-run" if run["lines"] < games else "after the last game line"


@pytest.mark.skipif(not PROC.joinpath("self", "stat").exists(), reason="reads /proc")
def test_fuzz_killed_matches_resume_to_the_uninterrupted_totals(tmp_path):
    fuzz("match-resume", match_case, tmp_path, default=1, long=60)
