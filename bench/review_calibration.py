"""The review's calibration (docs/analysis.md): the mean game accuracy of five bots beside their Elo.

Usage: python3 bench/review_calibration.py [--games K] [--more BOT=K,...] [--iterations N] [--settle M]
                                          [--workers W] [--seed S] [--table | --compare]

Each bot's games are records in ``bench/review/BOT/`` written by
``omen-search match BOT greedy --games 40 --seed 21 --records BOT --out BOT.jsonl`` (run in
``bench/review/``; the ``.jsonl`` says which seat the bot had in each game). Every game's review of
the bot's seat (``analyze_game`` with N iterations per decision, settling up to M, seed S; by
default the review's default budget) is one JSON line of ``bench/review/accuracy-N-to-M.jsonl``
(``accuracy-N.jsonl`` without settling, ``-seedS`` added for a seed S other than 0); a re-run
analyses only the games missing. ``--table`` prints the
table from that file without analysing anything: each bot's mean game accuracy with a Student-t 95%
interval, beside its Elo from the round robin (bench/round_robin.py); ``--compare`` the same means
under the measures the chosen one was weighed against (docs/analysis.md).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Callable
from dataclasses import astuple
import sys
from pathlib import Path

from omen_search.advisor import DEFAULT_ITERATIONS, DEFAULT_SETTLE
from omen_search.analysis import LABELS, Decision, Estimate, GameReview, analyze_game, label_of, points_lost
from omen_search.records import load_record
from omen_search.search import Limit
from omen_search.stats import t95
from round_robin import ANCHOR, BOTS, fit_elo

HERE = Path(__file__).resolve().parent / "review"
FOLDERS = {"random": "random", "first": "first", "greedy": "greedy", "ismcts:iterations=300": "ismcts300",
           "ismcts:iterations=2000": "ismcts2000"}
FOLDER_BOTS = {folder: bot for bot, folder in FOLDERS.items()}


def seats(folder: str) -> dict[int, int]:
    """Game index -> the seat the reviewed bot (A) played, from the match's results file."""
    with open(HERE / f"{folder}.jsonl", encoding="utf-8") as f:
        lines = [json.loads(line) for line in f][1:]
    return {line["index"]: line["a_seat"] for line in lines}


def results(iterations: int, settle: int | None, seed: int) -> Path:
    """The file of the reviews at ``iterations`` (settling up to ``settle``) with the search ``seed``."""
    return HERE / (f"accuracy-{iterations}" + (f"-to-{settle}" if settle else "")
                   + (f"-seed{seed}" if seed else "") + ".jsonl")


def analyse(games: int, iterations: int, settle: int | None, workers: int, seed: int = 0,
            more: dict[str, int] | None = None) -> None:
    """Review every bot's first ``games`` games (``more[bot]`` games for the bots named there)."""
    out = results(iterations, settle, seed)
    done = set()
    if out.exists():
        done = {(d["bot"], d["game"]) for d in map(json.loads, out.read_text().splitlines())}
    seat_of = {bot: seats(folder) for bot, folder in FOLDERS.items()}
    wanted = {bot: (more or {}).get(bot, games) for bot in FOLDERS}
    for index in range(max(wanted.values())):  # game by game, every bot's: a run cut short leaves the bots even
        for bot, folder in FOLDERS.items():
            if (bot, index) in done or index >= wanted[bot]:
                continue
            record = load_record(str(HERE / folder / f"game-{index:06d}.json"))
            seat = seat_of[bot][index]
            review = analyze_game(record, seat, Limit(iterations=iterations), workers=workers, seed=seed,
                                  settle=settle)
            line = {"bot": bot, "game": index, "seat": seat, "seconds": round(review.elapsed, 1),
                    "decisions": [[d.ply, str(d.played), str(d.best), [round(x, 6) for x in astuple(d.before)],
                                   [round(x, 6) for x in astuple(d.after)], round(d.mean, 6)]
                                  for d in review.decisions]}
            with open(out, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
            print(bot, index, f"{review.accuracy:.1f}", file=sys.stderr)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean with a Student-t 95% interval."""
    mean = statistics.fmean(values)
    half = t95(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def reviews(iterations: int, settle: int | None, seed: int) -> dict[str, list[GameReview]]:
    """Bot -> its games' reviews, rebuilt from the results file (so the measures are the library's)."""
    out: dict[str, list[GameReview]] = {bot: [] for bot in FOLDERS}
    for text in results(iterations, settle, seed).read_text().splitlines():
        line = json.loads(text)
        decisions = []
        for ply, played, best, before, after, mean in line["decisions"]:
            b, a = Estimate(*before), Estimate(*after)
            decisions.append(Decision(ply, played, best, b, a, label_of(b, a), {}, (), mean))
        out[line["bot"]].append(GameReview(line["seat"], tuple(decisions), iterations, line["seconds"]))
    return out


def table(iterations: int, settle: int | None, seed: int) -> None:
    elo = fit_elo()
    print("| bot | games | accuracy % (95%) | labels per game (inaccuracies/mistakes/blunders) | Elo (95%) |")
    print("| --- | ---: | --- | --- | --- |")
    by_bot = reviews(iterations, settle, seed)
    for bot in BOTS:
        games = by_bot[bot]
        mean, low, high = mean_interval([g.accuracy for g in games])
        labels = "/".join(f"{statistics.fmean(sum(d.label == label for d in g.decisions) for g in games):.1f}"
                          for label in LABELS)
        e, e_low, e_high = elo[bot]
        rating = "0 (the anchor)" if bot == ANCHOR else f"{e:+.0f} ({e_low:+.0f} .. {e_high:+.0f})"
        print(f"| `{bot}` | {len(games)} | {mean:.1f} ({low:.1f}-{high:.1f}) | {labels} | {rating} |")


def lichess(d: Decision) -> float:
    """The accuracy this review used before: lichess's curve of the loss in win % (AccuracyPercent.scala)."""
    lost = max(0.0, points_lost(d.before, d.after))
    return 100.0 if lost <= 0 else min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * lost) - 3.1669 + 1))


def share(g: GameReview, loss: Callable[[Decision], float]) -> float:
    """The stake-weighted share kept with another loss in place of the counted loss."""
    kept = sum(min(d.stake, max(0.0, d.stake - loss(d))) for d in g.decisions)
    return 100.0 if g.stake <= 0 else 100 * kept / g.stake


def compare(iterations: int, settle: int | None, seed: int) -> None:
    """The mean game accuracy of each bot under the measures weighed against the one chosen."""
    measures: dict[str, Callable[[GameReview], float]] = {
        "lichess (before)": lambda g: (statistics.fmean(v := [lichess(d) for d in g.decisions])
                                       + statistics.harmonic_mean(v)) / 2,
        "share, loss only beyond the error": lambda g: share(g, lambda d: d.loss),
        "share, whole loss": lambda g: share(g, lambda d: max(0.0, points_lost(d.before, d.after))),
        "the same, a plain mean of the decisions (no weights)": lambda g: statistics.fmean(
            [d.accuracy for d in g.decisions] or [100.0]),
        "share, loss less one standard error (chosen)": lambda g: g.accuracy,
    }
    by_bot = reviews(iterations, settle, seed)
    print("| measure | " + " | ".join(f"`{bot}`" for bot in BOTS) + " |")
    print("| --- | " + " | ".join("---" for _ in BOTS) + " |")
    for name, measure in measures.items():
        cells = [mean_interval([measure(g) for g in by_bot[bot]]) for bot in BOTS]
        print(f"| {name} | " + " | ".join(f"{m:.1f} ({lo:.1f}-{hi:.1f})" for m, lo, hi in cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--more", default="", metavar="BOT=K,...",
                        help="K games for the bots named (their records in bench/review/BOT/), --games for the others")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--settle", type=int, default=DEFAULT_SETTLE, help="0: a fixed budget")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0, help="the review's search seed (another: another file)")
    parser.add_argument("--table", action="store_true", help="print the table only")
    parser.add_argument("--compare", action="store_true", help="print the measures weighed against the chosen one")
    args = parser.parse_args()
    if not (args.table or args.compare):
        more = {FOLDER_BOTS[name]: int(k) for name, k in (item.split("=") for item in args.more.split(",") if item)}
        analyse(args.games, args.iterations, args.settle or None, args.workers, args.seed, more)
    if args.compare:
        compare(args.iterations, args.settle or None, args.seed)
    else:
        table(args.iterations, args.settle or None, args.seed)


if __name__ == "__main__":
    main()
