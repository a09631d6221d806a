"""A learned evaluation: weights over a game's position features that end a search's playouts early.

A game's core may supply features of a position (the C contract's optional ``features`` entry,
named by :attr:`Game.feature_names <omen_search.game.Game.feature_names>`). A search given an
:class:`Evaluation` plays ``cutoff`` plies after its tree, then values the position in C: each
player's weighted sum of their features, the rewards their softmax (a conditional logit of who
wins). The weights are fitted to self-play records (:mod:`omen_search.value_training`) and shipped
as ``omen_search/data/value-<game>.json``; a game without such a file, or whose core has no
features, has no evaluation, and its searches play out to the end as before. The model of play a
belief weighting weighs deals by (``Search.believe``) is weights over the same features, fitted to
the moves played and shipped in the same format as ``policy-<game>.json``.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from omen_search._search import MAX_CUTOFF  # playout plies before the evaluation, at most
from omen_search.errors import FormatError, UsageError
from omen_search.files import write_atomic
from omen_search.game import Game
from omen_search.jsonio import read_json_file

EVALUATION_FORMAT = "omen-evaluation/1"
EVALS = ("none", "learned")  # what a search's playouts end with: the game's end, or its learned evaluation


@dataclass(frozen=True)
class Evaluation:
    """Feature weights of one game and the playout plies before they value a position."""

    game: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    cutoff: int = 0
    trained: dict[str, Any] = field(default_factory=dict)  # how the weights were made (command, data, fit)

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.features) or not self.features:
            raise UsageError(f"evaluation: {len(self.weights)} weights for {len(self.features)} features")
        if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in self.weights):
            raise UsageError("evaluation: the weights must be finite numbers")
        if isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int) or not 0 <= self.cutoff <= MAX_CUTOFF:
            raise UsageError(f"cutoff: must be a whole number from 0 to {MAX_CUTOFF}, got {self.cutoff!r}")

    def with_cutoff(self, cutoff: int) -> Evaluation:
        """The same weights with another cutoff."""
        return Evaluation(self.game, self.features, self.weights, cutoff, self.trained)

    def to_dict(self) -> dict[str, Any]:
        return {"format": EVALUATION_FORMAT, "game": self.game, "cutoff": self.cutoff,
                "features": dict(zip(self.features, self.weights)), "trained": self.trained}


def shipped_path(game: Game, target: str = "value") -> Path:
    """Where the package keeps ``game``'s evaluation (``target`` ``"policy"``: its model of play;
    the file may not exist)."""
    return Path(str(resources.files("omen_search") / "data" / f"{target}-{game.name}.json"))


@functools.cache
def shipped_evaluation(game: Game, target: str = "value") -> Evaluation | None:
    """The evaluation (or model of play) shipped for ``game``, or None when it has none (read once
    a process: the package's files do not change under it)."""
    path = shipped_path(game, target)
    return read_evaluation(path, game) if path.is_file() else None


def evaluation_for(kind: str, game: Game, cutoff: int | None = None) -> Evaluation | None:
    """The evaluation a search of ``game`` asked for ``kind`` (:data:`EVALS`) uses: None for
    ``none``, and for ``learned`` the shipped one (with ``cutoff`` if given), or None where the
    game has none (its playouts then run to the end, as without one)."""
    if kind not in EVALS:
        raise UsageError(f"eval: must be one of {', '.join(EVALS)}, got {kind!r}")
    found = shipped_evaluation(game) if kind == "learned" else None
    return found.with_cutoff(cutoff) if found is not None and cutoff is not None else found


def read_evaluation(path: str | Path, game: Game) -> Evaluation:
    """An evaluation file of ``game``; raises :class:`FormatError` naming the file and the field
    that is wrong (another game's file, features the game does not have, a bad number)."""
    data = read_json_file(path, "evaluation")

    def fail(where: str, what: str) -> FormatError:
        return FormatError(f"{path}: {where}: {what}")

    if not isinstance(data, dict) or data.get("format") != EVALUATION_FORMAT:
        raise fail("format", f"expected {EVALUATION_FORMAT!r}")
    if data.get("game") != game.name:
        raise fail("game", f"the file is for {data.get('game')!r}, not {game.name!r}")
    weights = data.get("features")
    if not isinstance(weights, dict) or tuple(weights) != game.feature_names:
        raise fail("features", f"expected the weights of {', '.join(game.feature_names) or 'no features'}, in order")
    values = tuple(weights.values())
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in values):
        raise fail("features", "every weight must be a finite number")
    cutoff = data.get("cutoff", 0)
    if isinstance(cutoff, bool) or not isinstance(cutoff, int) or not 0 <= cutoff <= MAX_CUTOFF:
        raise fail("cutoff", f"must be a whole number from 0 to {MAX_CUTOFF}")
    trained = data.get("trained", {})
    if not isinstance(trained, dict):
        raise fail("trained", "must be an object")
    return Evaluation(game.name, game.feature_names, tuple(float(w) for w in values), cutoff, trained)


def write_evaluation(path: str | Path, evaluation: Evaluation) -> None:
    """Write an evaluation file whole or not at all."""
    write_atomic(path, "out", lambda f: f.write(json.dumps(evaluation.to_dict(), indent=1) + "\n"))
