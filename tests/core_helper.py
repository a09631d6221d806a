"""The checks every game's Cython core passes on the C contract in the same words: the search's
random playouts replay the reference engine's random games, ISMCTS runs on the core, the doors
refuse what is not legal, and undo and clone are exact (test_omega_core.py, test_omnia_core.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from omen_search._search import run_playouts, search
from omen_search.errors import IllegalMoveError
from omen_search.rng import Rng


def check_run_playouts_replay(core: Any, reference: Callable[[int], Any]) -> None:
    """``run_playouts`` from ``core`` (dealt with seed 11) plays the games ``RandomBot`` plays on
    ``reference(seed)``, the reference engine's deal of a seed."""
    scores, plies = run_playouts(core, 3, seed=11)
    for i in range(3):
        ref = reference(11 + i)
        rng = Rng(11 + i)
        while not ref.is_terminal():
            legal = ref.legal_moves()
            ref.apply_trusted(legal[rng.below(len(legal))])
        assert tuple(int(x) for x in scores[i]) == ref.scores() and plies[i] == ref.ply


def check_ismcts_runs(core: Any, mo: bool) -> None:
    """200 iterations of ISMCTS (SO or MO) from ``core``, shared among its legal moves."""
    result = search(core, iterations=200, seed=1, mo=mo)
    assert result["iterations"] == 200
    assert sorted(child[0] for child in result["children"]) == sorted(core.legal_move_ids())
    assert sum(child[1] for child in result["children"]) == 200


def check_doors_refuse(core: Any, illegal: str) -> None:
    """At ply 0 of ``core``, the notation ``illegal`` (a move not legal there), a text that is no
    move and ids that are not legal are refused without changing the state; a finished game refuses
    every move."""
    before = core.state_bytes()
    with pytest.raises(IllegalMoveError, match="ply 0"):
        core.apply(illegal)
    with pytest.raises(IllegalMoveError):
        core.apply("not a move")
    for bad in (-1, 0, 2**31 - 1, 12345):
        if bad not in core.legal_move_ids():
            with pytest.raises(IllegalMoveError):
                core.apply_id(bad)
    assert core.state_bytes() == before
    core.playout(0)
    with pytest.raises(IllegalMoveError, match="game is over"):
        core.apply(illegal)
    with pytest.raises(IllegalMoveError, match="game is over"):
        core.apply_id(0)


def check_undo_and_clone(core: Any, seed: int) -> None:
    """Playing ``core`` to the end with ``Rng(seed)``'s ids, every undo restores the struct byte for
    byte (then ``IndexError``), and a clone taken every 37 plies plays on exactly as another does."""
    policy = Rng(seed)
    before = []
    while not core.is_terminal():
        before.append(core.state_bytes())
        ids = core.legal_move_ids()
        core.apply_id(ids[policy.below(len(ids))])
        if len(before) % 37 == 0:  # a clone plays on exactly as the game does
            clone, check = core.clone(), core.clone()
            clone.playout(seed)
            check.playout(seed)
            assert clone.state_bytes() == check.state_bytes()
            assert core.state_bytes() != clone.state_bytes() or core.is_terminal()
    while before:
        core.undo()
        assert core.state_bytes() == before.pop()
    with pytest.raises(IndexError):
        core.undo()
