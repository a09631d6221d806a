"""Fitting a learned evaluation to self-play records: the weights :mod:`omen_search.evaluation` ships.

Every position of every record (before each move) is a sample: each player's features
(``state_features``, the game's core) and the player's return at the end of that game. The model
is the search's: a conditional logit, each player's chance of winning the softmax of their weighted
features (McFadden 1974), fitted by Newton's method on the log-likelihood, which is concave, with a
small ridge penalty (features alike for every player, which cancel, then stay at zero). The last
``holdout`` share of the games (in file order) is kept out of the fit to report how well it
predicts games it has not seen.
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


def train(folder: str | Path, game: Game, *, cutoff: int = 0, holdout: float = 0.2, ridge: float = 1e-3,
          command: str = "") -> Evaluation:
    """Fit ``game``'s evaluation to the records in ``folder``, keeping the last ``holdout`` share of
    its games out of the fit to measure it (and their positions in the final fit: all games)."""
    if not game.feature_names:
        raise UsageError(f"train-value: {game.name} supplies no evaluation features")
    if not 0 <= holdout < 1:
        raise UsageError(f"holdout: must be at least 0 and below 1, got {holdout}")
    files = record_files(folder)
    cut = len(files) - int(round(len(files) * holdout))
    x_fit, y_fit = positions(files[:cut], game)
    report: dict[str, Any] = {"command": command, "games": len(files), "positions": 0,
                              "ridge": ridge, "players": sorted({p for f in files for p in load_record(f)["players"]})}
    if cut < len(files):
        x_test, y_test = positions(files[cut:], game)
        w = fit(x_fit, y_fit, ridge)
        report["held_out"] = {"games": len(files) - cut, "positions": len(x_test),
                              "log_loss": round(log_loss(x_test, y_test, w), 4),
                              "accuracy": round(accuracy(x_test, y_test, w), 4),
                              "log_loss_of_a_coin": round(float(np.log(game.players)), 4)}
        x_fit, y_fit = np.concatenate([x_fit, x_test]), np.concatenate([y_fit, y_test])
    w = fit(x_fit, y_fit, ridge)
    report["positions"] = len(x_fit)
    return Evaluation(game.name, game.feature_names, tuple(round(float(v), 6) for v in w), cutoff, report)
