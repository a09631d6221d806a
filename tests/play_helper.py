"""Random play on any engine of any game, through the State interface alone, for the tests that
need a game in progress (the toy game's tests and the conformance suite)."""

from __future__ import annotations

from typing import Any

from omen_search.rng import Rng


def random_walk(state: Any, seed: int, plies: int | None = None) -> Any:
    """Play uniformly random moves (drawn from ``Rng(seed)``) on ``state`` to the end, or until it
    reaches ply ``plies``; returns it."""
    rng = Rng(seed)
    while not state.is_terminal() and (plies is None or state.ply < plies):
        moves = state.legal_moves()
        state.apply_trusted(moves[rng.below(len(moves))])
    return state
