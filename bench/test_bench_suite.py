"""pytest-benchmark entry for the reference suite: ``python3 -m pytest bench/test_bench_suite.py``.

The advisor at 1,000 and 10,000 iterations on a slice of every game's suite (each file of
bench/positions/, the first SLICE positions): the time of the slice, and its agreement and regret in ``extra_info``.
The whole curve is ``omen-search suite --budgets ...`` (docs/strength.md); these are
measurements, never assertions.
"""

from __future__ import annotations

import pytest

from omen_search.search import Limit
from omen_search.suite import DEFAULT_DIR, load_suite, run_suite

SLICE = 10


@pytest.mark.parametrize("iterations", [1_000, 10_000])
@pytest.mark.parametrize("game", sorted(path.stem for path in DEFAULT_DIR.glob("*.jsonl")))
def test_suite_slice(benchmark, game, iterations):
    path = DEFAULT_DIR / f"{game}.jsonl"
    benchmark.group = f"suite slice ({SLICE} positions)"
    positions = load_suite(path)[:SLICE]
    result, = benchmark.pedantic(run_suite, (positions, [Limit(iterations=iterations)]), rounds=1, iterations=1)
    benchmark.extra_info.update(result.to_dict())
