"""Fitting a learned evaluation to self-play records: the weights :mod:`omen_search.evaluation` ships.

Every position of every record (before each move) is a sample: each player's features
(``state_features``, the game's core) and the player's return at the end of that game. The model
is the search's: a conditional logit, each player's chance of winning the softmax of their weighted
features (McFadden 1974), fitted by Newton's method on the log-likelihood, which is concave, with a
small ridge penalty (features alike for every player, which cancel, then stay at zero). How well
it predicts games it has not seen is cross-validated by game: the games are dealt into ``folds``
parts, and each part is predicted by the weights fitted to the others (positions of one game are
alike, so a game is never split).

The model of play a belief weighting weighs deals by (``target="policy"``) is the same logit over
another choice: at every decision of two or more moves, the move played among the legal ones, each
move described by the mover's features after it less the mean of the other players'
(:func:`move_features`, what ``Search.believe`` computes in C).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from omen_search._search import state_features
from omen_search.errors import UsageError
from omen_search.evaluation import Evaluation
from omen_search.game import Game
from omen_search.records import load_record, record_game, replay

Array = npt.NDArray[np.float64]
# samples: groups of choices with as many alternatives each, (x of shape (choices, alternatives,
# features), y of shape (choices, alternatives), each row of y summing to 1)
Samples = list[tuple[Array, Array]]
TARGETS = ("value", "policy")  # who wins a position, or which move is played at a decision


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


class Replay(NamedTuple):
    """A finished record of a game, replayed and checked on the core."""

    seen: list[Any]  # the states before each move
    moves: list[str]
    final: Any
    players: list[str]  # the record's names of its players


def replayed(path: Path, game: Game) -> Replay:
    """The record at ``path`` replayed; :class:`UsageError` for a record of another game or unfinished."""
    record = load_record(path)
    if record_game(record).name != game.name:
        raise UsageError(f"records: {path} is a game of {record.get('game')}, not {game.name}")
    seen: list[Any] = []
    final = replay(record, game=game, engine="core", before=lambda s: seen.append(s.clone()))
    if not final.is_terminal():
        raise UsageError(f"records: {path}: the game is not finished")
    return Replay(seen, record["moves"], final, record["players"])


def replays(files: Iterable[Path], game: Game) -> Iterator[Replay]:
    """The records one after the other, replayed (one game's states in memory at a time)."""
    return (replayed(path, game) for path in files)


def players_features(state: Any, players: int) -> Array:
    """Each player's features in ``state``, shape (players, features)."""
    return np.stack([state_features(state, p) for p in range(players)])


def positions(games: Iterable[Replay], game: Game) -> Samples:
    """Every position of the games: each player's features, shape (positions, players, features),
    and each player's return in that game, (positions, players), as one group."""
    xs: list[Array] = []
    ys: list[Array] = []
    for seen, _, final, _ in games:
        xs.extend(players_features(s, game.players) for s in seen)
        ys.extend([np.asarray(final.returns(), dtype=np.float64)] * len(seen))
    return [(np.stack(xs), np.stack(ys))]


def move_features(state: Any, players: int) -> Array:
    """Each legal move of ``state`` (in ``legal_move_ids`` order) as the model of play sees it: the
    mover's features after it less the mean of the other players', shape (moves, features)."""
    mover, rows = state.current_player, []
    for move_id in state.legal_move_ids():
        after = state.clone()
        after.apply_id(move_id)
        f = players_features(after, players)
        rows.append(f[mover] - np.delete(f, mover, axis=0).mean(axis=0))
    return np.stack(rows)


def decisions(games: Iterable[Replay], game: Game) -> Samples:
    """Every decision of two or more legal moves in the games: its moves' features
    (:func:`move_features`) and the move played (one-hot), grouped by the number of moves."""
    groups: dict[int, tuple[list[Array], list[Array]]] = {}
    for seen, moves, _, _ in games:
        for state, text in zip(seen, moves):
            ids = state.legal_move_ids()
            if len(ids) < 2:
                continue
            played = np.zeros(len(ids))
            played[state.legal_moves().index(game.parse_move(text))] = 1.0
            xs, ys = groups.setdefault(len(ids), ([], []))
            xs.append(move_features(state, game.players))
            ys.append(played)
    return [(np.stack(xs), np.stack(ys)) for xs, ys in groups.values()]


def win_chances(x: Array, w: Array) -> Array:
    """Each player's chance of winning by weights ``w``: the softmax over players of ``x @ w``."""
    z = x @ w
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit(samples: Samples, ridge: float = 1e-3, steps: int = 50) -> Array:
    """The weights that maximise the log-likelihood of the outcomes ``y`` (each row sums to 1) less
    ``ridge`` times the squared weights per choice, by Newton's method."""
    n, k = sum(len(x) for x, _ in samples), samples[0][0].shape[2]
    w = np.zeros(k)
    for _ in range(steps):
        grad, hess = ridge * w, ridge * np.eye(k)
        for x, y in samples:
            p = win_chances(x, w)
            mean = np.einsum("npk,np->nk", x, p)
            grad = grad + np.einsum("npk,np->k", x, p - y) / n
            hess = hess + (np.einsum("npk,np,npj->kj", x, p, x) - mean.T @ mean) / n
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss(samples: Samples, w: Array) -> float:
    """Mean cross-entropy of the outcomes under the weights (nats a choice)."""
    total = sum(float(-(y * np.log(np.clip(win_chances(x, w), 1e-12, 1.0))).sum()) for x, y in samples)
    return total / sum(len(x) for x, _ in samples)


def accuracy(samples: Samples, w: Array) -> float:
    """The share of choices whose favourite by the weights has the best outcome (a position's
    winner, a decision's move played)."""
    hits = sum(int((win_chances(x, w).argmax(axis=1) == y.argmax(axis=1)).sum()) for x, y in samples)
    return hits / sum(len(x) for x, _ in samples)


def cross_validated(games: list[Samples], folds: int, ridge: float) -> dict[str, float]:
    """The mean log loss and accuracy on each fold's games (game ``i`` in fold ``i % folds``) of the
    weights fitted to the other folds, over all held-out choices."""
    losses, hits, total = 0.0, 0.0, 0
    for k in range(folds):
        w = fit([g for i, game in enumerate(games) if i % folds != k for g in game], ridge)
        held = [g for i, game in enumerate(games) if i % folds == k for g in game]
        n = sum(len(x) for x, _ in held)
        losses += log_loss(held, w) * n
        hits += accuracy(held, w) * n
        total += n
    return {"folds": folds, "log_loss": round(losses / total, 4), "accuracy": round(hits / total, 4)}


def train(folder: str | Path, game: Game, *, target: str = "value", cutoff: int = 0, folds: int = 5,
          ridge: float = 1e-3, command: str = "") -> Evaluation:
    """Fit ``game``'s evaluation (``target="value"``: who wins a position) or model of play
    (``"policy"``: which move is played at a decision, for a belief weighting) to all the records in
    ``folder``, and cross-validate it over ``folds`` parts of them (0: not) to say how well it
    predicts games it has not seen."""
    if target not in TARGETS:
        raise UsageError(f"target: must be one of {', '.join(TARGETS)}, got {target!r}")
    if not game.feature_names:
        raise UsageError(f"train-value: {game.name} supplies no evaluation features")
    if isinstance(folds, bool) or not isinstance(folds, int) or folds == 1 or folds < 0:
        raise UsageError(f"folds: must be 0 (none) or at least 2, got {folds!r}")
    files = record_files(folder)
    if folds > len(files):
        raise UsageError(f"folds: {folds} folds need at least {folds} games, and {folder} holds {len(files)} "
                         "(ask for fewer folds, or 0)")
    games, players = [], set()
    for one in replays(files, game):
        games.append((positions if target == "value" else decisions)([one], game))
        players.update(one.players)
    samples = [g for game_samples in games for g in game_samples]
    n = sum(len(x) for x, _ in samples)
    report: dict[str, Any] = {"command": command, "games": len(files)}
    if target == "value":
        report |= {"positions": n, "ridge": ridge, "log_loss_of_a_coin": round(float(np.log(game.players)), 4)}
    else:
        uniform = sum(len(x) * np.log(x.shape[1]) for x, _ in samples) / n
        report |= {"decisions": n, "ridge": ridge, "log_loss_of_uniform": round(float(uniform), 4)}
    report["players"] = sorted(players)
    if folds:
        report["cross_validated"] = cross_validated(games, folds, ridge)
    w = fit(samples, ridge)
    return Evaluation(game.name, game.feature_names, tuple(round(float(v), 6) for v in w), cutoff, report)
