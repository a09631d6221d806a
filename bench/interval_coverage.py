"""Measure what the advisor's 95% intervals are worth across seeds (the table in docs/advice.md).

Usage: python3 bench/interval_coverage.py [--seeds 20] [--iterations 10000 ...]

For each position and budget the advisor runs once per seed. For each of the three moves ranked
first most often, and for each run, the table counts whether the run's interval holds the mean
``win_prob`` of the other runs (*covers*), and for every two runs whether their intervals overlap
(*overlap*); *separated* is the share of runs whose two best moves' intervals were apart; *top-1*
the share of runs that ranked the most common first move first. *Wilson covers* is the same
coverage for the Wilson interval of the move's pooled iterations alone (the rollouts' noise, not
the search's), computed from the same runs. Run on an older checkout (``PYTHONPATH=OLD python3
bench/interval_coverage.py``), it measures that advisor: docs/advice.md's "old" columns are commit
97095c7's, whose one search gave the Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from itertools import combinations
from pathlib import Path

from omen_search.advisor import Advisor
from omen_search.records import replay
from omen_search.search import Limit
from omen_search.stats import wilson

EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def positions() -> dict[str, object]:
    """Named sources: the advice page's two observations, and three plies of the example record."""
    record = json.loads((EXAMPLES / "record.json").read_text(encoding="utf-8"))
    named: dict[str, object] = {
        "advice-observation": json.loads((EXAMPLES / "advice-observation.json").read_text(encoding="utf-8")),
        "advice-handwritten": json.loads((EXAMPLES / "advice-handwritten.json").read_text(encoding="utf-8")),
    }
    for ply in (20, 40, 63):
        named[f"record.json ply {ply}"] = replay(record, upto=ply)
    return named


def measure(source: object, iterations: int, seeds: int) -> dict[str, float]:
    runs = [Advisor(Limit(iterations=iterations), seed=seed).advise(source) for seed in range(seeds)]
    firsts = Counter(str(a.best.move) for a in runs)
    moves = [m for m, _ in Counter(str(m.move) for a in runs for m in a.moves[:3]).most_common(3)]
    covers = wilson_covers = overlaps = pairs = cases = 0
    for name in moves:
        seen = [m for run in runs for m in run.moves if str(m.move) == name and m.visits]
        for i, m in enumerate(seen):
            others = statistics.fmean(o.win_prob for j, o in enumerate(seen) if j != i)
            low, high = wilson(m.win_prob * m.visits, m.visits)
            covers += m.win_prob_low <= others <= m.win_prob_high
            wilson_covers += low <= others <= high
            cases += 1
        for a, b in combinations(seen, 2):
            overlaps += a.win_prob_low <= b.win_prob_high and b.win_prob_low <= a.win_prob_high
            pairs += 1
    return {"covers": covers / cases, "wilson": wilson_covers / cases, "overlap": overlaps / pairs,
            "separated": sum(getattr(run, "separated", False) for run in runs) / seeds,  # older advisors: none
            "top1": firsts.most_common(1)[0][1] / seeds,
            "width": statistics.fmean(100 * (run.best.win_prob_high - run.best.win_prob_low) for run in runs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--iterations", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--positions", nargs="+", help="only the positions whose names contain one of these")
    args = parser.parse_args()
    print("| position | iterations | covers | Wilson covers | overlap | separated | top-1 | width of the best's |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, source in positions().items():
        if args.positions and not any(p in name for p in args.positions):
            continue
        for iterations in args.iterations:
            r = measure(source, iterations, args.seeds)
            print(f"| {name} | {iterations:,} | {r['covers']:.0%} | {r['wilson']:.0%} | {r['overlap']:.0%} | "
                  f"{r['separated']:.0%} | {r['top1']:.0%} | {r['width']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
