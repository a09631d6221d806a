"""pytest-benchmark suite for the rules engines: ``python3 -m pytest bench/``.

Each operation is measured on the core and on the reference engine from the same mid-game
position, so the two groups in the report compare like with like. Goals (core playouts at least
300x the reference, clone within 3x of a bare memcpy) are reported by ``omen-search bench`` and in
docs/performance.md; they are measurements, never assertions.
"""

from __future__ import annotations

import pytest

from omen_search._core import CoreState
from omen_search._search import bench_clone, run_playouts
from omen_search.bench import _midgame
from omen_search.bots import RandomBot
from omen_search.game import get_game
from omen_search.games.heir.reference import GameState

ENGINES = ("core", "reference")


@pytest.mark.parametrize("engine", ENGINES)
def test_clone(benchmark, engine):
    benchmark.group = "clone"
    state = _midgame(get_game("heir"), engine)
    benchmark(state.clone)


@pytest.mark.parametrize("engine", ENGINES)
def test_apply_undo(benchmark, engine):
    benchmark.group = "apply+undo"
    state = _midgame(get_game("heir"), engine)
    move = state.legal_moves()[0]

    def step():
        state.apply(move)
        state.undo()

    benchmark(step)


@pytest.mark.parametrize("engine", ENGINES)
def test_legal_moves(benchmark, engine):
    benchmark.group = "legal moves"
    state = _midgame(get_game("heir"), engine)
    benchmark(state.legal_move_ids if engine == "core" else state.legal_moves)


def test_playout_core(benchmark):
    benchmark.group = "random playout"
    benchmark(run_playouts, CoreState.new(), 1, 7)


def test_playout_reference(benchmark):
    benchmark.group = "random playout"

    def playout():
        state = GameState.new(seed=7)
        bot = RandomBot(7)
        while not state.is_terminal():
            state.apply_trusted(bot.choose(state))

    benchmark.pedantic(playout, rounds=20, iterations=1)


def test_clone_c_loop_vs_memcpy(benchmark):
    """Clone and bare memcpy of the same bytes, both in C loops; extra_info holds the ratio."""
    benchmark.group = "clone in C"
    core = CoreState.new(seed=11)
    result = benchmark(bench_clone, core, 100_000)
    clone_s, memcpy_s, _ = result
    benchmark.extra_info["clone_vs_memcpy"] = clone_s / memcpy_s
