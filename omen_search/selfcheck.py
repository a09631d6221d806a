"""Differential checking: the Cython core against the reference engine, move for move.

For a seeded game played by a seeded random policy, at every ply both engines must list the same
legal moves (as notation, in the same order) and show both players the same observation; at the
end they must give the same scores. The first disagreement is reported with its seed and ply.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import Any

from omen_search.game import DEFAULT_GAME, Game, game_of, get_game
from omen_search.rng import Rng


@dataclass(frozen=True)
class Mismatch:
    """Where and how the engines first disagreed."""

    seed: int
    ply: int
    what: str
    reference: str
    core: str

    def __str__(self) -> str:
        return (f"seed {self.seed}, ply {self.ply}: {self.what} differ\n"
                f"  reference: {self.reference[:400]}\n  core:      {self.core[:400]}")


def compare_game(seed: int, config: Any = None, cards: Any = None, game: Game | None = None) -> tuple[Mismatch | None, int]:
    """Play one random game on both engines (deal ``seed``, policy ``Rng(seed)``) and compare. The
    game is ``game``, else the one ``config`` sets up, else :data:`~omen_search.game.DEFAULT_GAME`.

    Returns the first mismatch (or ``None``) and the number of plies compared.
    """
    game = game or (game_of(config) if config is not None else get_game(DEFAULT_GAME))
    ref = game.new_initial_state(seed, engine="reference", cards=cards, config=config)
    core = game.new_initial_state(seed, engine="core", cards=cards, config=config)
    policy = Rng(seed)
    while True:
        for p in range(game.players):
            a, b = game.observe(ref, p), game.observe(core, p)
            if a != b:
                keys = [k for k in a if a[k] != b.get(k)]
                return Mismatch(seed, ref.ply, f"observations of player {p} ({', '.join(keys)})",
                                str({k: a[k] for k in keys}), str({k: b.get(k) for k in keys})), ref.ply
        if ref.is_terminal() or core.is_terminal():
            if ref.is_terminal() != core.is_terminal() or ref.scores() != core.scores():
                return Mismatch(seed, ref.ply, "final scores", str(ref.scores()), str(core.scores())), ref.ply
            return None, ref.ply
        moves = ref.legal_moves()
        core_moves = core.legal_moves()
        if moves != core_moves:
            return Mismatch(seed, ref.ply, "legal moves", " | ".join(map(str, moves)),
                            " | ".join(map(str, core_moves))), ref.ply
        move = moves[policy.below(len(moves))]
        ref.apply_trusted(move)
        core.apply(move)
