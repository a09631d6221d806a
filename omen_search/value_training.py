"""Fitting a learned evaluation to self-play records: the weights :mod:`omen_search.evaluation` ships.

Every position of every record (before each move) is a sample: each player's features
(``state_features``, the game's core) and the player's return at the end of that game. The model
is the search's: a conditional logit, each player's chance of winning the softmax of their weighted
features (McFadden 1974), fitted by Newton's method on the log-likelihood, which is concave, with a
small ridge penalty (features alike for every player, which cancel, then stay at zero). How well
it predicts games it has not seen is cross-validated by game: the games are dealt into ``folds``
parts, and each part is predicted by the weights fitted to the others (positions of one game are
alike, so a game is never split).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search._search import state_features
from omen_search.errors import UsageError
from omen_search.evaluation import Evaluation
from omen_search.game import Game
from omen_search.records import load_record, record_game, replay

Array = npt.NDArray[np.float64]


def record_files(folder: str | Path) -> list[Path]:
    """The game records in ``folder`` (``*.json``), in name order; raises :class:`UsageError` for a
    folder that holds none."""
    path = Path(folder)
    if not path.is_dir():
        raise UsageError(f"records: {folder} is not a folder")
    files = sorted(path.glob("*.json"))
    if not files:
        raise UsageError(f"records: {folder} holds no game records (*.json)")
    return files


def positions(files: Iterable[Path], game: Game) -> tuple[Array, Array]:
    """Every position of the records (replayed and checked on the core): each player's features,
    shape (positions, players, features), and each player's return in that game, (positions,
    players). A record of another game is refused with :class:`UsageError`."""
    xs: list[Array] = []
    ys: list[Array] = []
    for path in files:
        record = load_record(path)
        if record_game(record).name != game.name:
            raise UsageError(f"records: {path} is a game of {record.get('game')}, not {game.name}")
        seen: list[Array] = []
        final = replay(record, game=game, engine="core",
                       before=lambda s: seen.append(np.stack([state_features(s, p) for p in range(game.players)])))
        if not final.is_terminal():
            raise UsageError(f"records: {path}: the game is not finished")
        xs.extend(seen)
        ys.extend([np.asarray(final.returns(), dtype=np.float64)] * len(seen))
    return np.stack(xs), np.stack(ys)


def win_chances(x: Array, w: Array) -> Array:
    """Each player's chance of winning by weights ``w``: the softmax over players of ``x @ w``."""
    z = x @ w
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit(x: Array, y: Array, ridge: float = 1e-3, steps: int = 50) -> Array:
    """The weights that maximise the log-likelihood of the returns ``y`` (each row sums to 1) less
    ``ridge`` times the squared weights per position, by Newton's method."""
    n, _, k = x.shape
    w = np.zeros(k)
    for _ in range(steps):
        p = win_chances(x, w)
        grad = np.einsum("npk,np->k", x, p - y) / n + ridge * w
        mean = np.einsum("npk,np->nk", x, p)
        hess = (np.einsum("npk,np,npj->kj", x, p, x) - mean.T @ mean) / n + ridge * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss(x: Array, y: Array, w: Array) -> float:
    """Mean cross-entropy of the returns under the weights (nats a position)."""
    return float(-(y * np.log(np.clip(win_chances(x, w), 1e-12, 1.0))).sum(axis=1).mean())


def accuracy(x: Array, y: Array, w: Array) -> float:
    """The share of positions whose favourite by the weights is the player with the best return."""
    return float((win_chances(x, w).argmax(axis=1) == y.argmax(axis=1)).mean())


def cross_validated(games: list[tuple[Array, Array]], folds: int, ridge: float) -> dict[str, float]:
    """The mean log loss and accuracy on each fold's games (game ``i`` in fold ``i % folds``) of the
    weights fitted to the other folds, over all held-out positions."""
    losses, hits, total = 0.0, 0.0, 0
    for k in range(folds):
        fitted = [g for i, g in enumerate(games) if i % folds != k]
        held = [g for i, g in enumerate(games) if i % folds == k]
        w = fit(np.concatenate([x for x, _ in fitted]), np.concatenate([y for _, y in fitted]), ridge)
        x, y = np.concatenate([x for x, _ in held]), np.concatenate([y for _, y in held])
        losses += log_loss(x, y, w) * len(x)
        hits += accuracy(x, y, w) * len(x)
        total += len(x)
    return {"folds": folds, "log_loss": round(losses / total, 4), "accuracy": round(hits / total, 4)}


def train(folder: str | Path, game: Game, *, cutoff: int = 0, folds: int = 5, ridge: float = 1e-3,
          command: str = "") -> Evaluation:
    """Fit ``game``'s evaluation to all the records in ``folder``, and cross-validate it over
    ``folds`` parts of them (0: not) to say how well it predicts games it has not seen."""
    if not game.feature_names:
        raise UsageError(f"train-value: {game.name} supplies no evaluation features")
    if isinstance(folds, bool) or not isinstance(folds, int) or folds == 1 or folds < 0:
        raise UsageError(f"folds: must be 0 (none) or at least 2, got {folds!r}")
    files = record_files(folder)
    if folds > len(files):
        raise UsageError(f"folds: {folds} folds need at least {folds} games, and {folder} holds {len(files)} "
                         "(ask for fewer folds, or 0)")
    games = [positions([f], game) for f in files]
    x, y = np.concatenate([g[0] for g in games]), np.concatenate([g[1] for g in games])
    report: dict[str, Any] = {"command": command, "games": len(files), "positions": len(x), "ridge": ridge,
                              "players": sorted({p for f in files for p in load_record(f)["players"]}),
                              "log_loss_of_a_coin": round(float(np.log(game.players)), 4)}
    if folds:
        report["cross_validated"] = cross_validated(games, folds, ridge)
    w = fit(x, y, ridge)
    return Evaluation(game.name, game.feature_names, tuple(round(float(v), 6) for v in w), cutoff, report)
