"""The reference suite of positions: how good the advisor's chosen move is, measured against a deep
search, as top-1 agreement and regret over budgets.

A suite file (``bench/positions/GAME.jsonl``, format ``omen-suite/1``, ``docs/formats.md``) holds
one decision a line: the observation of the player to move (what ``advise`` reads) and the
reference value of every legal move, from several independent runs of the advisor's own search at
a larger budget (their mean and spread). :func:`run_suite` asks the :class:`~omen_search.advisor.Advisor` for its best move at each
budget and scores it: **regret** is the win-% points the chosen move loses against the reference
best, so a choice between near-equal moves costs nothing, and agreement is also counted among the
positions whose best move is known to be ahead of the second by more than :data:`SEPARATION`
points, where a different choice is a real mistake: its lead less the reference runs' spread of the
two moves (:attr:`SuitePosition.known_gap`), since deep runs sometimes settle on different moves.

>>> summarize("demo", [0.0, 0.2, 3.0], [True, True, False], [True, False, True], [0.1, 0.1, 0.1]).agreement
0.6666666666666666
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from omen_search.errors import FormatError, UsageError
from omen_search.game import get_game, named_game
from omen_search.jsonio import parse_json
from omen_search.search import Limit, Rollout, worker_seeds

SUITE_FORMAT = "omen-suite/1"
SEPARATION = 1.0  # win-% points: a best move further ahead than this is "clearly" best
DEFAULT_DIR = Path(__file__).resolve().parents[1] / "bench" / "positions"  # in a source checkout


@dataclass(frozen=True)
class ReferenceMove:
    """One legal move's reference value: ``win_prob`` (0-1) over all the reference searches'
    iterations through it, ``spread`` the standard deviation of the searches' own values of it, and
    ``visits`` its iterations in all of them."""

    move: str
    win_prob: float
    spread: float
    visits: int


@dataclass(frozen=True)
class SuitePosition:
    """A decision of the suite: the deciding player's observation and every legal move's reference
    value (best first); ``reference`` says how they were searched (``searches`` × ``iterations``,
    ``c``, ``seed``), ``source`` where the position came from."""

    id: str
    game: str
    observation: dict[str, Any]
    moves: tuple[ReferenceMove, ...]
    reference: dict[str, Any]
    source: str = ""

    @property
    def best(self) -> ReferenceMove:
        return self.moves[0]

    @property
    def gap(self) -> float:
        """Win-% points between the best move and the second."""
        return 100 * (self.moves[0].win_prob - self.moves[1].win_prob)

    @property
    def known_gap(self) -> float:
        """The gap less the spread of the reference runs' values of the two moves: how far ahead the
        best move is whatever run is believed (NaN when a spread is unknown: one reference run)."""
        return self.gap - 100 * (self.moves[0].spread + self.moves[1].spread)

    @property
    def separated(self) -> bool:
        """Whether the best move is known to lead by more than :data:`SEPARATION` points."""
        return self.known_gap > SEPARATION

    def regret(self, move: str) -> float:
        """Win-% points ``move`` loses against the reference best (0 for the best itself)."""
        for m in self.moves:
            if m.move == move:
                return 100 * (self.best.win_prob - m.win_prob)
        raise UsageError(f"suite position {self.id}: {move!r} is not one of its legal moves")


# ---------------------------------------------------------------------------------- the reference


def reference_moves(observation: dict[str, Any], iterations: int, searches: int, seed: int,
                    c: float = 0.7) -> tuple[ReferenceMove, ...]:
    """Every legal move's reference value in ``observation``'s decision, best first: ``searches``
    independent runs of the advisor's own search (each :data:`~omen_search.advisor.BATCHES` trees,
    root-parallel) of ``iterations`` each, from seeds spawned from ``seed``. A move no run visited
    (none is, at these budgets) has 0 visits and the value 0.

    The advisor's search and not one deep tree: single SO-ISMCTS trees of 25,000 iterations
    disagreed with one another by up to 40 points on a move (a deep tree follows its own lines
    through the hidden cards), so the suite measures how close each budget comes to what the
    advisor itself converges to (docs/strength.md)."""
    from omen_search.advisor import Advisor

    game = named_game(observation, "observation")
    seen, _ = game.from_observation(observation)
    legal = [str(m) for m in game.to_core(seen).legal_moves()]
    if len(legal) < 2:
        raise UsageError("suite: a forced decision (one legal move) has nothing to measure")
    runs: dict[str, list[tuple[float, int]]] = {m: [] for m in legal}  # per run: (wins, visits)
    for s in worker_seeds(seed, searches):
        advice = Advisor(Limit(iterations=iterations), seed=s, c=c).advise(observation)
        seen_moves = {str(m.move): m for m in advice.moves}
        for move in legal:
            stats = seen_moves.get(move)
            runs[move].append((stats.win_prob * stats.visits, stats.visits) if stats and stats.visits else (0.0, 0))
    moves = []
    for move, per in runs.items():
        visits = sum(n for _, n in per)
        values = [w / n for w, n in per if n]
        spread = statistics.stdev(values) if len(values) > 1 else math.nan
        moves.append(ReferenceMove(move, sum(w for w, _ in per) / visits if visits else 0.0, spread, visits))
    return tuple(sorted(moves, key=lambda m: (m.win_prob, m.visits), reverse=True))


def position_line(position: SuitePosition) -> str:
    """The position as one line of a suite file (the one writer of the format)."""
    return json.dumps({
        "format": SUITE_FORMAT, "id": position.id, "game": position.game, "source": position.source,
        "reference": position.reference,
        "moves": [{"move": m.move, "win_prob": round(m.win_prob, 5),
                   "spread": None if math.isnan(m.spread) else round(m.spread, 5), "visits": m.visits}
                  for m in position.moves],
        "observation": position.observation,
    }, separators=(",", ":"))


# ---------------------------------------------------------------------------------- reading


def suite_files(directory: str | Path, game: str | None = None) -> list[Path]:
    """The suite files of ``directory`` (``GAME.jsonl``), of one game if given. Raises
    :class:`UsageError` when there is none."""
    folder = Path(directory)
    if not folder.is_dir():
        raise UsageError(f"--positions: no suite folder at {folder} (bench/positions in a source checkout)")
    files = sorted(folder.glob("*.jsonl")) if game is None else [folder / f"{game}.jsonl"]
    files = [f for f in files if f.is_file()]
    if not files:
        raise UsageError(f"--positions: {folder} has no suite file{f' for {game}' if game else ''} "
                         f"({game or 'GAME'}.jsonl)")
    return files


def load_suite(path: str | Path, check_moves: bool = True) -> list[SuitePosition]:
    """The positions of a suite file. With ``check_moves`` each observation is loaded and its legal
    moves must be exactly the moves valued. Raises :class:`FormatError` naming the file, the line
    and what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"{path}: cannot read: {exc}") from None
    positions: list[SuitePosition] = []
    ids: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        position = _position(parse_json(line, where), where)
        if position.id in ids:
            raise FormatError(f"{where}: id: {position.id!r} is already used on an earlier line")
        ids.add(position.id)
        if check_moves:
            _check_moves(position, where)
        positions.append(position)
    if not positions:
        raise FormatError(f"{path}: no positions")
    return positions


def _position(doc: Any, where: str) -> SuitePosition:
    """One suite line, checked field by field."""
    if not isinstance(doc, dict):
        raise FormatError(f"{where}: must be a JSON object, got {type(doc).__name__}")
    if doc.get("format") != SUITE_FORMAT:
        raise FormatError(f"{where}: format: must be {SUITE_FORMAT!r}, got {doc.get('format')!r}")
    for key, kind in (("id", str), ("game", str), ("reference", dict), ("moves", list), ("observation", dict)):
        if not isinstance(doc.get(key), kind):
            raise FormatError(f"{where}: {key}: missing or not a {'JSON object' if kind is dict else kind.__name__}")
    get_game(doc["game"], field=f"{where}: game")
    moves = []
    for i, m in enumerate(doc["moves"]):
        field = f"{where}: moves[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("move"), str):
            raise FormatError(f"{field}.move: missing or not text")
        value = m.get("win_prob")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise FormatError(f"{field}.win_prob: must be a number from 0 to 1, got {value!r}")
        spread = m.get("spread")
        if spread is not None and (isinstance(spread, bool) or not isinstance(spread, (int, float)) or spread < 0):
            raise FormatError(f"{field}.spread: must be a non-negative number or null, got {spread!r}")
        visits = m.get("visits")
        if isinstance(visits, bool) or not isinstance(visits, int) or visits < 0:
            raise FormatError(f"{field}.visits: must be a non-negative integer, got {visits!r}")
        moves.append(ReferenceMove(m["move"], float(value), math.nan if spread is None else float(spread), visits))
    if len(moves) < 2:
        raise FormatError(f"{where}: moves: a decision of the suite has at least two legal moves, got {len(moves)}")
    if len({m.move for m in moves}) != len(moves):
        raise FormatError(f"{where}: moves: a move is listed twice")
    moves.sort(key=lambda m: (m.win_prob, m.visits), reverse=True)
    return SuitePosition(doc["id"], doc["game"], doc["observation"], tuple(moves), doc["reference"],
                         str(doc.get("source", "")))


def _check_moves(position: SuitePosition, where: str) -> None:
    """The observation loads, is of the line's game, and its legal moves are the moves valued."""
    family = named_game(position.observation, "observation")
    try:
        game = family.game_of_document(position.observation, "observation")
        seen, _ = family.from_observation(position.observation)
    except FormatError as exc:
        raise FormatError(f"{where}: {exc}") from None
    if game.name != position.game:
        raise FormatError(f"{where}: observation.game: the observation is of {game.name}, but the line of "
                          f"{position.game}")
    legal = {str(m) for m in game.to_core(seen).legal_moves()}
    valued = {m.move for m in position.moves}
    if legal != valued:
        missing, extra = sorted(legal - valued), sorted(valued - legal)
        raise FormatError(f"{where}: moves: do not match the observation's legal moves"
                          + (f"; not valued: {', '.join(missing)}" if missing else "")
                          + (f"; not legal: {', '.join(extra)}" if extra else ""))


# ---------------------------------------------------------------------------------- measuring


@dataclass(frozen=True)
class BudgetResult:
    """The advisor at one budget over the suite: ``agreement`` (share of positions where it chose
    the reference best, or a move of the same value), ``mean_regret`` and ``p95_regret`` (win-%
    points), ``separated_agreement`` over the ``separated`` positions whose best move is known to be
    more than :data:`SEPARATION` points ahead (:attr:`SuitePosition.separated`; NaN if none),
    ``seconds`` per position, and the mean ``iterations`` searched (more than the budget's when
    the advice settles: :class:`~omen_search.advisor.Advisor`'s ``settle``)."""

    budget: str
    positions: int
    agreement: float
    mean_regret: float
    p95_regret: float
    separated: int
    separated_agreement: float
    seconds: float
    iterations: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        return {k: (None if isinstance(v, float) and math.isnan(v) else round(v, 4) if isinstance(v, float) else v)
                for k, v in self.__dict__.items()}


def summarize(budget: str, regrets: list[float], agrees: list[bool], separated: list[bool],
              seconds: list[float], iterations: list[int] | None = None) -> BudgetResult:
    """The figures of one budget from each position's regret, agreement, whether it is separated,
    the seconds it took and the iterations searched (if known). The 95th percentile interpolates
    linearly (numpy's default)."""
    if not regrets or not len(regrets) == len(agrees) == len(separated) == len(seconds):
        raise UsageError("summarize: one regret, agreement, separation and time per position, at least one")
    kept = [a for a, s in zip(agrees, separated) if s]
    return BudgetResult(budget, len(regrets), sum(agrees) / len(agrees), float(np.mean(regrets)),
                        float(np.percentile(regrets, 95)), len(kept),
                        sum(kept) / len(kept) if kept else math.nan, float(np.mean(seconds)),
                        float(np.mean(iterations)) if iterations else math.nan)


def budget_name(limit: Limit) -> str:
    """``10000 it`` or ``0.5 s``."""
    return f"{limit.iterations} it" if limit.iterations is not None else f"{limit.seconds:g} s"


def run_suite(positions: Iterable[SuitePosition], limits: list[Limit | None], seed: int = 0, workers: int = 1,
              on_position: Callable[[], None] | None = None, rollout: Rollout = "random",
              settle: int | None = None, evaluation: str = "none") -> list[BudgetResult]:
    """The advisor (with ``rollout`` playouts ended by ``evaluation``, searching on up to ``settle``
    iterations until its best move is settled) at each budget of ``limits`` on every position, None being the default advice;
    ``on_position`` is called after each (position, budget) for progress."""
    from omen_search.advisor import Advisor, budget

    positions = list(positions)
    results = []
    for limit in limits:
        regrets, agrees, separated, seconds, iterations = [], [], [], [], []
        searched, most = budget(limit, settle)  # the budget as the advisor reads it: None is the default
        name = budget_name(searched) + (f" to {most}" if most else "")
        for position in positions:
            advice = Advisor(searched, seed=seed, workers=workers, game=get_game(position.game), rollout=rollout,
                             settle=most, evaluation=evaluation).advise(position.observation)
            regrets.append(position.regret(str(advice.best.move)))
            agrees.append(regrets[-1] == 0)  # a move tied with the best (the same value) is a best move too
            separated.append(position.separated)
            seconds.append(advice.elapsed)
            iterations.append(advice.iterations)
            if on_position is not None:
                on_position()
        results.append(summarize(name, regrets, agrees, separated, seconds, iterations))
    return results


def references(positions: list[SuitePosition]) -> list[dict[str, Any]]:
    """The reference budgets of a suite, deepest first, each with how many positions it values
    (a suite deepened where it matters mixes them: bench/suite_positions.py ``--deepen``)."""
    counts = Counter((p.reference.get("searches"), p.reference.get("iterations")) for p in positions)
    return [{"searches": searches, "iterations": iterations, "positions": n}
            for (searches, iterations), n in sorted(counts.items(), key=lambda kv: -((kv[0][0] or 0) * (kv[0][1] or 0)))]


def describe_references(positions: list[SuitePosition]) -> str:
    """``4 runs of 25000 iterations`` for each reference budget of the suite, with its count if several."""
    refs = references(positions)
    counts = [f" for {r['positions']} position{'s' if r['positions'] != 1 else ''}" if len(refs) > 1 else ""
              for r in refs]
    return "; ".join(f"{r['searches']} runs of {r['iterations']} iterations{n}" for r, n in zip(refs, counts))


def describe_results(results: list[BudgetResult]) -> str:
    """The curve as a table: one row per budget."""
    lines = [f"{'budget':>18}  {'positions':>9}  {'top-1':>6}  {'mean regret':>11}  {'p95 regret':>10}  "
             f"{'top-1, known gap > 1':>20}  {'s/position':>10}  {'mean it':>8}"]
    for r in results:
        sep = "-" if math.isnan(r.separated_agreement) else f"{100 * r.separated_agreement:.1f}%"
        lines.append(f"{r.budget:>18}  {r.positions:>9}  {100 * r.agreement:5.1f}%  {r.mean_regret:11.2f}  "
                     f"{r.p95_regret:10.2f}  {sep + f' of {r.separated}':>20}  {r.seconds:10.3f}  {r.iterations:8.0f}")
    return "\n".join(lines)


def parse_budgets(text: str) -> list[Limit]:
    """``"1000,3000,0.5s"``: iteration counts, or seconds with an ``s``. Raises :class:`UsageError`
    naming ``--budgets`` and the bad item."""
    limits = []
    for item in (part.strip() for part in text.split(",")):
        try:
            limits.append(Limit(seconds=float(item[:-1])) if item.endswith("s") else Limit(iterations=int(item)))
        except ValueError:
            raise UsageError(f"--budgets: {item[:40]!r} is neither iterations (1000) nor seconds (0.5s)") from None
        except UsageError as exc:
            raise UsageError(f"--budgets: {item[:40]!r}: {str(exc).split(': ', 1)[-1]}") from None
    return limits
