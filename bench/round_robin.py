"""One Elo scale for the five bots of the review's calibration, fit from every pair's matches.

Usage: python3 bench/round_robin.py   (prints the table of docs/analysis.md's round robin)

The matches are results files of bench/strength/ (bench/strength.sh runs them): every pair of
random, first, greedy, ismcts:iterations=300 and ismcts:iterations=2000, seat-swapped. The Elo
of each bot is the maximum a posteriori fit of the Bradley-Terry (logistic Elo) model to every
game, with one virtual draw per pair as the prior (as BayesElo does: it keeps a bot that lost
every game at a finite rating), random at 0. Each bot's 95% interval is where the profile of the
log posterior has dropped by 1.92 (chi-squared, one degree of freedom); games are taken as
independent (the seat-swapped pairs of a deal are not used).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from scipy.optimize import brentq, minimize

from omen_search.match import read_results
from omen_search.stats import wilson

BOTS = ("first", "random", "greedy", "ismcts:iterations=300", "ismcts:iterations=2000")
ANCHOR = "random"
MATCHES = ("first-random", "greedy-random", "greedy-first", "ismcts300-random", "ismcts300-first",
           "ismcts300-greedy", "ismcts2000-random", "ismcts2000-first", "ismcts2000-greedy", "ismcts2000-ismcts300")
FOLDER = Path(__file__).resolve().parent / "strength"
SCALE = math.log(10) / 400  # Elo points to the logistic's units
DROP = 1.92  # half the chi-squared 95% point of one degree of freedom


def scores() -> dict[tuple[str, str], tuple[float, int]]:
    """(A, B) -> A's points and the games, for every match of the round robin."""
    out = {}
    for name in MATCHES:
        path = FOLDER / f"{name}.jsonl"
        with open(path, encoding="utf-8") as f:
            match = json.loads(f.readline())["match"]
        games = read_results(path)
        out[match["a"], match["b"]] = (sum(g["result"] for g in games), len(games))
    return out


def log_posterior(elo: dict[str, float], data: dict[tuple[str, str], tuple[float, int]]) -> float:
    total = 0.0
    for (a, b), (points, games) in data.items():
        d = SCALE * (elo[a] - elo[b])
        win, loss = -math.log1p(math.exp(-d)), -math.log1p(math.exp(d))
        total += (points + 0.5) * win + (games - points + 0.5) * loss  # one virtual draw per pair
    return total


def fit(data: dict[tuple[str, str], tuple[float, int]], fixed: dict[str, float]) -> tuple[dict[str, float], float]:
    """The ratings that maximise the posterior with the bots of ``fixed`` held; and its maximum."""
    free = [b for b in BOTS if b not in fixed]

    def negative(x: list[float]) -> float:
        return -log_posterior({**fixed, **dict(zip(free, x))}, data)

    best = minimize(negative, [0.0] * len(free), method="BFGS")
    return {**fixed, **dict(zip(free, best.x))}, -best.fun


def fit_elo() -> dict[str, tuple[float, float, float]]:
    """Bot -> (Elo, low, high) with random at 0."""
    data = scores()
    elo, top = fit(data, {ANCHOR: 0.0})
    out = {ANCHOR: (0.0, 0.0, 0.0)}
    for bot in BOTS:
        if bot == ANCHOR:
            continue

        def gap(r: float, bot: str = bot) -> float:
            return fit(data, {ANCHOR: 0.0, bot: r})[1] - (top - DROP)

        step = 50.0
        low = elo[bot] - step
        while gap(low) > 0:
            low -= step
        high = elo[bot] + step
        while gap(high) > 0:
            high += step
        out[bot] = (elo[bot], brentq(gap, low, elo[bot], xtol=0.5), brentq(gap, elo[bot], high, xtol=0.5))
    return out


def main() -> None:
    data = scores()
    print("| A | B | games | A's score % (95%) |")
    print("| --- | --- | ---: | --- |")
    for (a, b), (points, games) in data.items():
        low, high = wilson(points, games)
        print(f"| `{a}` | `{b}` | {games} | {100 * points / games:.1f} ({100 * low:.1f}-{100 * high:.1f}) |")
    print()
    print("| bot | Elo (95%) |")
    print("| --- | --- |")
    elo = fit_elo()
    for bot in BOTS:
        e, low, high = elo[bot]
        print(f"| `{bot}` | " + ("0 (the anchor)" if bot == ANCHOR else f"{e:+.0f} ({low:+.0f} .. {high:+.0f})") + " |")


if __name__ == "__main__":
    main()
