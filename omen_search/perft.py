"""perft: count the leaves of the move tree, on either engine, to check move generation.

Chance is fixed by the seed (the state's generator is part of the state), so the tree from a seeded
position is exact and both engines must give the same counts (``omen-search perft``).
"""

from __future__ import annotations

from omen_search.errors import UsageError
from omen_search.state import State


def perft(state: State, depth: int) -> int:
    """Leaves of the move tree ``depth`` plies below ``state`` (undone afterwards)."""
    if depth < 0:
        raise UsageError(f"depth: must be at least 0, got {depth}")
    if hasattr(state, "game_handle"):  # a core: the search module counts in C
        from omen_search._search import perft as count_leaves

        return count_leaves(state, depth)
    if depth == 0 or state.is_terminal():
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.apply_trusted(move)
        total += perft(state, depth - 1)
        state.undo()
    return total


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """perft split by first move: ``[(move notation, leaves below it), …]`` in generation order."""
    if depth < 1:
        raise UsageError(f"depth: must be at least 1 for a per-move breakdown, got {depth}")
    out = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        out.append((str(move), perft(child, depth - 1)))
    return out
