"""Post-game analysis: every decision of one player judged from what that player could see.

For each decision of the player (a ply where they had more than one legal move) the position is
rebuilt from their observation at that moment, so the judgement never uses cards they could not
see. One ISMCTS search gives the best move and the win probability before the move (the best
move's value); the played move's value comes from a search of that move alone, or, when the
player decides again right after and the move revealed nothing (the same observation follows
whatever the hidden cards), from the next decision's search (the work is reused). Losses of
win probability are labelled as lichess does: inaccuracy, mistake and blunder from 5, 10 and 15
points, but never when the two estimates' 95% intervals overlap (the loss may be noise).

Accuracy follows lichess (https://lichess.org/page/accuracy; ``AccuracyPercent.scala`` in lila):
per move 100 when the win % did not drop, else ``103.1668 * exp(-0.04354 * loss) - 3.1669`` plus
lila's one-point "uncertainty bonus", with the loss in points of win %, clamped to 0..100; for the game, the mean of the arithmetic and the harmonic mean of the moves' values
(lichess weights the arithmetic mean by volatility; we do not).
"""

from __future__ import annotations

import math
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from omen_search.errors import OmenError, UsageError
from omen_search.game import Game
from omen_search.limits import WORKERS, check_int
from omen_search.records import record_game, replay
from omen_search.rng import MASK64
from omen_search.search import Limit, SearchResult, ismcts
from omen_search.stats import wilson
from omen_search.table import is_table_record, load_table

THRESHOLDS = (5.0, 10.0, 15.0)  # points of win % lost: inaccuracy, mistake, blunder (lichess)
LABELS = ("inaccuracy", "mistake", "blunder")
DEFAULT_ITERATIONS = 4000
TOP = 3  # the best moves a decision keeps, for a page that shows the alternatives


class AnalysisStopped(OmenError):
    """An analysis ended early because its caller set the ``stop`` event (a web page cancelled it)."""


@dataclass(frozen=True)
class Estimate:
    """A win probability with its 95% interval, and the expected VP margin."""

    win_prob: float
    low: float
    high: float
    vp_margin: float

    @classmethod
    def of(cls, wins: float, visits: int, vp_margin: float) -> Estimate:
        low, high = wilson(wins, visits)
        return cls(wins / visits if visits else math.nan, low, high, vp_margin)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player."""

    ply: int
    played: Any
    best: Any
    before: Estimate  # the position, valued by its best move
    after: Estimate  # the move played
    label: str | None
    observation: dict[str, Any]  # what the player saw (for the report's board)
    top: tuple[tuple[Any, Estimate], ...] = ()  # the search's best moves with their values, best first

    @property
    def loss(self) -> float:
        """Points of win % lost by the move played (0 when it was the best)."""
        return max(0.0, points_lost(self.before, self.after))

    @property
    def vp_loss(self) -> float:
        return max(0.0, self.before.vp_margin - self.after.vp_margin)

    @property
    def accuracy(self) -> float:
        """lila's ``AccuracyPercent.fromWinPercents`` for this move (see the module docstring)."""
        if self.loss <= 0:
            return 100.0
        raw = 103.1668100711649 * math.exp(-0.04354415386753951 * self.loss) - 3.166924740191411
        return min(100.0, max(0.0, raw + 1.0))

    def explain(self) -> str:
        """One sentence on what the move cost."""
        return (f"Ply {self.ply}: {self.played} took the winning chances from {100 * self.before.win_prob:.0f}% to "
                f"{100 * self.after.win_prob:.0f}% (expected VP margin {self.after.vp_margin:+.1f} instead of "
                f"{self.before.vp_margin:+.1f}); {self.best} was better.")


@dataclass(frozen=True)
class GameReview:
    """The review of one player's game."""

    player: int
    decisions: tuple[Decision, ...]
    iterations: int  # per search
    elapsed: float
    cards: Any = None  # the card set of the game (None: the built-in set)
    game: Game | None = None  # the game reviewed (None: the record's)

    @property
    def accuracy(self) -> float:
        values = [d.accuracy for d in self.decisions]
        if not values:
            return 100.0
        return (statistics.fmean(values) + statistics.harmonic_mean(values)) / 2

    def costliest(self, k: int = 3) -> list[Decision]:
        """The ``k`` decisions that lost the most win probability (those that lost any)."""
        return sorted((d for d in self.decisions if d.loss > 0), key=lambda d: -d.loss)[:k]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``omen-search analyze --json``)."""
        return {
            "player": self.player, "accuracy": round(self.accuracy, 2), "iterations": self.iterations,
            "elapsed": round(self.elapsed, 2),
            "decisions": [{
                "ply": d.ply, "played": str(d.played), "best": str(d.best),
                "win_prob_before": round(d.before.win_prob, 4), "win_prob_after": round(d.after.win_prob, 4),
                "before_interval": [round(d.before.low, 4), round(d.before.high, 4)],
                "after_interval": [round(d.after.low, 4), round(d.after.high, 4)],
                "loss": round(d.loss / 100, 4), "vp_loss": round(d.vp_loss, 3), "label": d.label,
            } for d in self.decisions],
            "costliest": [d.explain() for d in self.costliest()],
        }


def points_lost(before: Estimate, after: Estimate) -> float:
    """Points of win % from ``before`` to ``after``, rounded off below 1e-9 so that 0.60 -> 0.55 is
    5 points exactly (and meets a threshold of 5), not 4.999…"""
    return round(100 * (before.win_prob - after.win_prob), 9)


def label_of(before: Estimate, after: Estimate, thresholds: Sequence[float] = THRESHOLDS) -> str | None:
    """The label of a loss of win probability; none when the intervals overlap (maybe noise)."""
    if after.high >= before.low:
        return None
    loss = points_lost(before, after)
    label = None
    for name, threshold in zip(LABELS, thresholds):
        if loss >= threshold:
            label = name
    return label


@dataclass
class _Spot:
    """A decision on the way through the game."""

    ply: int
    core: Any  # the position as the player sees it
    played: Any
    observation: dict[str, Any]
    reveals: bool  # whether the move may show the player something new
    search: SearchResult | None = None
    alone: SearchResult | None = None


def seen_position(game: Game, observation: dict[str, Any], cards: Any = None) -> Any:
    """The core position a seat judges from: a world dealt from its ``observation`` alone."""
    return game.to_core(game.from_observation(observation, cards)[0])


def value_of_move(game: Game, observation: dict[str, Any], ply: int, move: Any, limit: Limit, cards: Any = None,
                  seed: int = 0) -> Estimate:
    """The value of playing ``move`` at the decision seen in ``observation`` (at ``ply``), from a
    search of that move alone with the seed :func:`analyze_game` gives that decision, so the move
    played there gets the value the review gave it. Raises :class:`IllegalMoveError` for a move
    not legal there."""
    result = ismcts(seen_position(game, observation, cards), limit, seed=(seed + ply) & MASK64, root_move=move)
    mine = next(m for m in result.moves if m.move == move)
    return Estimate.of(mine.wins, mine.visits, mine.vp_margin)


def _reveals(game: Game, core: Any, move: Any, player: int, tries: int = 4) -> bool:
    """Whether what the player sees after ``move`` depends on the hidden cards or the dice."""
    seen = None
    for seed in range(tries):
        world = core.determinized(player, seed)
        world.apply(move)
        now = game.observe(world, player)
        if seen is not None and now != seen:
            return True
        seen = now
    return False


def _plies(state: Any, moves: Sequence[Any]) -> Iterator[tuple[int, Any, Any]]:
    """Each move of a game as ``(ply, the state before it, move)``, played on ``state``."""
    for ply, move in enumerate(moves):
        yield ply, state, move
        state.apply(move)


def analyze_game(record: dict[str, Any], player: int, limit: Limit = Limit(iterations=DEFAULT_ITERATIONS),
                 cards: Any = None, workers: int = 1, seed: int = 0,
                 thresholds: Sequence[float] = THRESHOLDS, progress: bool = False,
                 game: Game | None = None, on_progress: Callable[[int, int], None] | None = None,
                 stop: threading.Event | None = None) -> GameReview:
    """Review the decisions of seat ``player`` in a finished or unfinished game record (of
    ``game``; by default the game the record names), or in a table record (``omen-table/1``,
    :mod:`omen_search.table`: the user's seat only, each decision numbered by its event).

    ``workers`` searches run side by side in threads. ``on_progress(done, total)`` is called after
    each search (from a search thread; ``total`` grows once the moves played need searches of
    their own); setting ``stop`` ends the analysis after the searches running then, raising
    :class:`AnalysisStopped`. Raises :class:`FormatError` or :class:`RecordError` for a bad record
    (:class:`~omen_search.table.TableEventError` for a table record's impossible event) and
    :class:`UsageError` for a bad option."""
    from tqdm import tqdm

    table = load_table(record, cards) if is_table_record(record) else None  # checks every event first
    family = table.game if table is not None else game or record_game(record)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < family.players:
        raise UsageError(f"player: must be a seat from 0 to {family.players - 1}, got {player!r}")
    if table is not None and player != table.seat:
        raise UsageError(f"player: a table record is reviewed from its user's seat ({table.seat}) only, not seat {player}")
    check_int(workers, "workers", WORKERS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {seed!r}")
    if len(thresholds) != 3 or not all(0 < a <= b for a, b in zip(thresholds, list(thresholds[1:]) + [100])):
        raise UsageError(f"thresholds: three increasing points of win % above 0, got {list(thresholds)!r}")
    started = time.perf_counter()
    steps: Iterable[tuple[int, Any, Any]]
    if table is not None:
        played, steps = family, list(table.decisions())
    else:
        final = replay(record, cards, game=game)  # checks the whole record first
        played = game or family.game_of_document(record, "record", cards)
        steps = _plies(replay(record, cards, upto=0, game=game), final.moves)
    if player not in played.deciding_seats:
        raise UsageError(f"player: seat {player} is {played.automaton}, which makes no decisions; review seat "
                         f"{' or '.join(map(str, played.deciding_seats))}")
    spots: list[_Spot] = []
    for ply, state, move in steps:
        if state.current_player == player and len(state.legal_moves()) > 1:
            seen = played.observe(state, player)
            core = seen_position(played, seen, getattr(state, "cards", None))
            spots.append(_Spot(ply, core, move, seen, _reveals(played, core, move, player)))

    def run(job: tuple[_Spot, bool]) -> None:
        spot, alone = job
        if stop is not None and stop.is_set():
            return
        result = ismcts(spot.core, limit, seed=(seed + spot.ply) & MASK64, root_move=spot.played if alone else None)
        if alone:
            spot.alone = result
        else:
            spot.search = result

    bar = tqdm(total=len(spots), desc=f"analysing seat {player}", unit="decision", file=sys.stderr,
               disable=not progress)

    searched = [0, len(spots)]  # searches done and to do (a disabled bar counts nothing)

    def advance() -> None:
        bar.update(1)
        searched[0] += 1
        if on_progress is not None:
            on_progress(*searched)

    if on_progress is not None:
        on_progress(*searched)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(run, [(s, False) for s in spots]):
            advance()
        # the played move's own value, unless the next decision already gives it
        by_ply = {s.ply: s for s in spots}
        needed = [s for s in spots if s.search and s.search.best != s.played
                  and (s.reveals or s.ply + 1 not in by_ply)]
        bar.total += len(needed)
        searched[1] += len(needed)
        bar.refresh()
        for _ in pool.map(run, [(s, True) for s in needed]):
            advance()
    bar.close()
    if stop is not None and stop.is_set():
        raise AnalysisStopped(f"analysis of seat {player}: stopped")
    decisions = []
    for spot in spots:
        assert spot.search is not None
        best = spot.search.moves[0]
        before = Estimate.of(best.wins, best.visits, best.vp_margin)
        if spot.search.best == spot.played:
            after = before
        elif spot.alone is not None:
            mine = spot.alone.moves[0]
            after = Estimate.of(mine.wins, mine.visits, mine.vp_margin)
        else:  # reused: the next decision's position is exactly what this move led to
            nxt = by_ply[spot.ply + 1].search
            assert nxt is not None
            top = nxt.moves[0]
            after = Estimate.of(top.wins, top.visits, top.vp_margin)
        ranked = tuple((m.move, Estimate.of(m.wins, m.visits, m.vp_margin)) for m in spot.search.moves[:TOP])
        decisions.append(Decision(spot.ply, spot.played, spot.search.best, before, after,
                                  label_of(before, after, thresholds), spot.observation, ranked))
    return GameReview(player, tuple(decisions), limit.iterations or 0, time.perf_counter() - started, cards, played)
