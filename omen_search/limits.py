"""The bounds on what a caller may ask for, checked the same way at every entry point.

The core keeps the turn and the turn limit in 16-bit fields, and every search worker allocates a
tree of a million nodes up front, so a number past these bounds would fail deep inside
(``OverflowError``, ``MemoryError``) instead of as a :class:`UsageError` naming the option. The
command line, bot specs, the Python API (:class:`~omen_search.search.Limit`, the advisor, analysis,
matches) and the engine protocol all check against the ranges here.
"""

from __future__ import annotations

import math
from typing import Any

from omen_search.errors import UsageError, shown

MAX_TURNS = 0xFFFF  # the core's 16-bit turn and max_turns
MAX_ITERATIONS = 1_000_000_000
MAX_SECONDS = 3600.0
MAX_WORKERS = 64  # search threads or match processes on this machine (a search thread holds a ~56 MB tree)
MAX_RAY_TASKS = 10_000  # games in flight at once on a Ray cluster (they cost the driver next to nothing)
MAX_GAMES = 1_000_000

ITERATIONS = (1, MAX_ITERATIONS)
WORKERS = (1, MAX_WORKERS)
RAY_TASKS = (1, MAX_RAY_TASKS)
GAMES = (1, MAX_GAMES)
TURNS = (1, MAX_TURNS)


def int_problem(value: Any, bounds: tuple[int, int]) -> str | None:
    """Why ``value`` is not an integer within ``bounds`` (both included), or None if it is."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return f"must be an integer from {low} to {high}, got {shown(value)}"
    return None


def seconds_problem(value: Any) -> str | None:
    """Why ``value`` is not a time budget: a number above 0 and at most :data:`MAX_SECONDS`."""
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not 0 < value <= MAX_SECONDS):
        return f"must be a number above 0 and at most {MAX_SECONDS:g}, got {shown(value)}"
    return None


def check_int(value: Any, name: str, bounds: tuple[int, int]) -> int:
    """``value`` if it is an integer within ``bounds``; else :class:`UsageError` naming ``name``."""
    problem = int_problem(value, bounds)
    if problem:
        raise UsageError(f"{name}: {problem}")
    return value


def check_seconds(value: Any, name: str) -> float:
    """``value`` as a float if it is a time budget; else :class:`UsageError` naming ``name``."""
    problem = seconds_problem(value)
    if problem:
        raise UsageError(f"{name}: {problem}")
    return float(value)
