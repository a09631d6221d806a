"""Post-game analysis: every decision of one player judged from what that player could see.

For each decision of the player (a ply where they had more than one legal move: a forced move is
not a decision and does not count) the position is rebuilt from their observation at that moment,
so the judgement never uses cards they could not see. The position is searched as the advisor
searches it: :data:`~omen_search.advisor.BATCHES` independent ISMCTS searches whose root statistics
are added up, each move's 95% interval from how far they disagree
(:func:`~omen_search.stats.batch_interval`), so an interval holds the search's own error. The
best move (most visited) values the position; the mean of every legal move's value is what a
player who picks uniformly at random gets. The played move's value comes from a search of that
move alone, or, when the player decides again right after and the move revealed nothing (the same
observation follows whatever the hidden cards), from the next decision's search (the work is
reused).

A move is worse than the best only **beyond the search error**: when its interval lies wholly below
the best's. Only then does the review show the better move, count a loss and give a label. Win %
swings are small in these games and many decisions are nearly forced, so each decision is judged
against what was at stake there:

* the decision's **stake** is best − mean: the points of win % that thinking could win over a
  random choice;
* its **accuracy** is the share of the stake the move kept, ``100 * (stake − counted) / stake``
  clamped to 0..100, where ``counted`` is the loss less one standard error of the difference of
  the two values (:func:`standard_error`; 0 for the best move itself): a move that is as good as
  the best loses about nothing on average whatever the noise, a real loss counts nearly whole;
* the game's accuracy is the stake-weighted mean of its decisions' accuracies,
  ``100 * Σ kept / Σ stake`` (a decision where nothing was at stake weighs nothing);
* labels: a loss beyond the search error of at least :data:`THRESHOLDS` points of win % is an
  inaccuracy, a mistake or a blunder.

``docs/analysis.md`` gives the reasons and the calibration: measured on games of five bots, the
mean accuracy comes out in the order of the bots' Elo.
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

from omen_search.advisor import BATCHES, budget, intervals_settled, settle_search
from omen_search.errors import OmenError, UsageError
from omen_search.game import Game
from omen_search.limits import WORKERS, check_int
from omen_search.records import record_game, replay
from omen_search.rng import MASK64
from omen_search.search import DEFAULT_MAX_NODES, Limit, SearchResult, move_id, new_searches, root_result
from omen_search.stats import batch_interval
from omen_search.table import is_table_record, load_table

THRESHOLDS = (5.0, 10.0, 15.0)  # points of win % lost beyond the search error: inaccuracy, mistake, blunder
LABELS = ("inaccuracy", "mistake", "blunder")
TOP = 3  # the best moves a decision keeps, for a page that shows the alternatives
C = 0.7  # the searches' UCB exploration constant (the advisor's and the search's default)


class AnalysisStopped(OmenError):
    """An analysis ended early because its caller set the ``stop`` event (a web page cancelled it)."""


@dataclass(frozen=True)
class Estimate:
    """A win probability with its 95% interval, and the expected VP margin."""

    win_prob: float
    low: float
    high: float
    vp_margin: float


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed player (see the module docstring for the measures).

    ``best`` is the search's best move, ``before`` its value (the position's), ``after`` the
    played move's, ``mean`` the mean value of the legal moves (what a uniform random choice gets)."""

    ply: int
    played: Any
    best: Any
    before: Estimate  # the position, valued by its best move
    after: Estimate  # the move played
    label: str | None
    observation: dict[str, Any]  # what the player saw (for the report's board)
    top: tuple[tuple[Any, Estimate], ...] = ()  # the search's best moves with their values, best first
    mean: float = math.nan  # win probability of a uniform choice among the legal moves (NaN: unknown)
    score_unit: str = "VP"  # what the margin counts (the game's :attr:`~omen_search.game.Game.score_unit`)

    @property
    def loss(self) -> float:
        """Points of win % lost by the move played: 0 unless it is worse beyond the search error."""
        return points_lost(self.before, self.after) if worse(self.before, self.after) else 0.0

    @property
    def better(self) -> Any:
        """The better move the review shows: the best, when the move played is worse beyond the
        search error; None otherwise."""
        return self.best if self.loss > 0 else None

    @property
    def stake(self) -> float:
        """Points of win % between a uniform choice and the best move: what the decision was worth."""
        return 0.0 if math.isnan(self.mean) else max(0.0, round(100 * (self.before.win_prob - self.mean), 9))

    @property
    def counted_loss(self) -> float:
        """The points the accuracy counts as lost: the loss less one standard error of the two
        values' difference (:func:`standard_error`), so that a move as good as the best loses about
        nothing on average whatever the noise, while a real loss counts nearly whole."""
        lost = points_lost(self.before, self.after)
        return 0.0 if self.played == self.best else max(0.0, lost - standard_error(self.before, self.after))

    @property
    def kept(self) -> float:
        """Points of the stake the move played kept (0 .. stake)."""
        return min(self.stake, max(0.0, self.stake - self.counted_loss))

    @property
    def vp_loss(self) -> float:
        return max(0.0, self.before.vp_margin - self.after.vp_margin) if self.loss > 0 else 0.0

    @property
    def accuracy(self) -> float:
        """The share of the stake the move kept, in % (100 when nothing was at stake)."""
        return 100.0 if self.stake <= 0 else min(100.0, 100 * self.kept / self.stake)

    def explain(self) -> str:
        """One sentence on what the move cost."""
        return (f"Ply {self.ply}: {self.played} took the winning chances from {100 * self.before.win_prob:.0f}% to "
                f"{100 * self.after.win_prob:.0f}% (expected {self.score_unit} margin {self.after.vp_margin:+.1f} instead of "
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
    settle: int | None = None  # the searches went on up to this many iterations until settled
    searched: float = 0.0  # the mean iterations of a decision's search

    @property
    def budget(self) -> str:
        """The search budget in words, e.g. ``30000 iterations a decision, settling up to 120000 (52310 on average)``."""
        if not self.settle:
            return f"{self.iterations} iterations a decision"
        return f"{self.iterations} iterations a decision, settling up to {self.settle} ({self.searched:.0f} on average)"

    @property
    def stake(self) -> float:
        """Points of win % at stake over the game's decisions (the accuracy's weight)."""
        return sum(d.stake for d in self.decisions)

    @property
    def accuracy(self) -> float:
        """The stake-weighted mean of the decisions' accuracies (100 when nothing was at stake)."""
        stake = self.stake
        return 100.0 if stake <= 0 else min(100.0, 100 * sum(d.kept for d in self.decisions) / stake)

    def costliest(self, k: int = 3) -> list[Decision]:
        """The ``k`` decisions that lost the most win probability (those that lost any)."""
        return sorted((d for d in self.decisions if d.loss > 0), key=lambda d: -d.loss)[:k]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``omen-search analyze --json``)."""
        return {
            "player": self.player, "accuracy": round(self.accuracy, 2), "stake": round(self.stake, 3),
            "iterations": self.iterations, "settle": self.settle, "mean_iterations": round(self.searched),
            "elapsed": round(self.elapsed, 2),
            "decisions": [{
                "ply": d.ply, "played": str(d.played), "best": str(d.best),
                "better": None if d.better is None else str(d.better),
                "win_prob_before": round(d.before.win_prob, 4), "win_prob_after": round(d.after.win_prob, 4),
                "before_interval": [round(d.before.low, 4), round(d.before.high, 4)],
                "after_interval": [round(d.after.low, 4), round(d.after.high, 4)],
                "win_prob_mean": None if math.isnan(d.mean) else round(d.mean, 4),
                "stake": round(d.stake / 100, 4), "loss": round(d.loss / 100, 4), "accuracy": round(d.accuracy, 2),
                "vp_loss": round(d.vp_loss, 3), "label": d.label,
            } for d in self.decisions],
            "costliest": [d.explain() for d in self.costliest()],
        }


def points_lost(before: Estimate, after: Estimate) -> float:
    """Points of win % from ``before`` to ``after``, rounded off below 1e-9 so that 0.60 -> 0.55 is
    5 points exactly (and meets a threshold of 5), not 4.999…"""
    return round(100 * (before.win_prob - after.win_prob), 9)


def standard_error(before: Estimate, after: Estimate) -> float:
    """The standard error, in points of win %, of ``before`` − ``after``, from their 95% intervals
    (independent searches: each half-width is 1.96 standard errors)."""
    return 100 * math.hypot((before.high - before.low) / 2, (after.high - after.low) / 2) / 1.96


def worse(before: Estimate, after: Estimate) -> bool:
    """Whether ``after`` is worse than ``before`` beyond the search error: its 95% interval lies
    wholly below (touching intervals overlap)."""
    return after.high < before.low and points_lost(before, after) > 0


def label_of(before: Estimate, after: Estimate, thresholds: Sequence[float] = THRESHOLDS) -> str | None:
    """The label of a loss of win probability; none unless it is beyond the search error (:func:`worse`)."""
    if not worse(before, after):
        return None
    loss = points_lost(before, after)
    label = None
    for name, threshold in zip(LABELS, thresholds):
        if loss >= threshold:
            label = name
    return label


def search_values(core: Any, limit: Limit, seed: int, root_move: Any = None,
                  settle: int | None = None) -> tuple[SearchResult, dict[Any, Estimate]]:
    """Search ``core`` as the advisor does: :data:`BATCHES` independent searches (one after the
    other, each with its share of the budget), their root statistics added up; each searched
    move's value with the interval of :func:`~omen_search.stats.batch_interval`. ``root_move``
    searches that move alone. ``settle`` (with an iteration budget) searches on as the advisor
    does, the same trees doubling their iterations up to ``settle`` in all, until the best move is
    settled (:func:`~omen_search.advisor.intervals_settled`); a move searched alone does not settle."""
    only = None if root_move is None else move_id(core, root_move)
    most = limit.iterations if settle is None or root_move is not None else settle
    # a tree grows by at most a node an iteration: with an iteration budget, no bigger than its share
    nodes = DEFAULT_MAX_NODES if most is None else min(DEFAULT_MAX_NODES, -(-most // BATCHES) + 2)
    searches = new_searches(core, C, False, seed, BATCHES, nodes, only)

    def run(total: int | None) -> None:
        share = None if total is None else -(-total // BATCHES)
        for search in searches:
            if share is None or share > search.iterations:  # a count of 0 would mean no count at all
                search.run(0 if share is None else share - search.iterations, (limit.seconds or 0.0) / BATCHES)
        if not any(search.iterations for search in searches):  # a time budget too short: one iteration
            searches[0].run(1, 0.0)

    settle_search(run, lambda: _settled(*_values(core, searches)), limit.iterations, most)
    return _values(core, searches)


def _values(core: Any, searches: list[Any]) -> tuple[SearchResult, dict[Any, Estimate]]:
    """The searches' root statistics added up, and each searched move's value with its interval."""
    raws = [search.result(0) for search in searches]
    result = root_result(core, raws)
    ids = dict(zip(core.legal_moves(), core.legal_move_ids()))
    counts = [{child[0]: (child[1], child[3]) for child in raw["children"]} for raw in raws]
    values = {}
    for m in result.moves:
        if m.visits:
            per = [batch.get(ids[m.move], (0, 0.0)) for batch in counts]
            low, high = batch_interval([w for _, w in per], [n for n, _ in per])
            values[m.move] = Estimate(m.win_prob, low, high, m.vp_margin)
    return result, values


def _settled(result: SearchResult, values: dict[Any, Estimate]) -> bool:
    """Whether the two most visited moves are settled (a move not searched cannot be)."""
    top = [values.get(m.move) for m in result.moves[:2]]
    if len(top) < 2:
        return True
    first, second = top
    return first is not None and second is not None and intervals_settled((first.low, first.high),
                                                                           (second.low, second.high))


@dataclass
class _Spot:
    """A decision on the way through the game."""

    ply: int
    core: Any  # the position as the player sees it
    played: Any
    observation: dict[str, Any]
    reveals: bool  # whether the move may show the player something new
    search: SearchResult | None = None
    values: dict[Any, Estimate] | None = None  # every searched move's value
    alone: Estimate | None = None  # the played move's value from its own search


def seen_position(game: Game, observation: dict[str, Any], cards: Any = None) -> Any:
    """The core position a seat judges from: a world dealt from its ``observation`` alone."""
    return game.to_core(game.from_observation(observation, cards)[0])


def value_of_move(game: Game, observation: dict[str, Any], ply: int, move: Any, limit: Limit, cards: Any = None,
                  seed: int = 0) -> Estimate:
    """The value of playing ``move`` at the decision seen in ``observation`` (at ``ply``), from a
    search of that move alone with the seed :func:`analyze_game` gives that decision, so the move
    played there gets the value the review gave it. Raises :class:`IllegalMoveError` for a move
    not legal there."""
    _, values = search_values(seen_position(game, observation, cards), limit, (seed + ply) & MASK64, move)
    return values[move]


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


def analyze_game(record: dict[str, Any], player: int, limit: Limit | None = None,
                 cards: Any = None, workers: int = 1, seed: int = 0,
                 thresholds: Sequence[float] = THRESHOLDS, progress: bool = False,
                 game: Game | None = None, on_progress: Callable[[int, int], None] | None = None,
                 stop: threading.Event | None = None, settle: int | None = None) -> GameReview:
    """Review the decisions of seat ``player`` in a finished or unfinished game record (of
    ``game``; by default the game the record names), or in a table record (``omen-table/1``,
    :mod:`omen_search.table`: the user's seat only, each decision numbered by its event).

    ``workers`` searches run side by side in threads. ``on_progress(done, total)`` is called after
    each search (from a search thread; ``total`` grows once the moves played need searches of
    their own); setting ``stop`` ends the analysis after the searches running then, raising
    :class:`AnalysisStopped`. Raises :class:`FormatError` or :class:`RecordError` for a bad record
    (:class:`~omen_search.table.TableEventError` for a table record's impossible event) and
    :class:`UsageError` for a bad option.

    ``limit`` None is the default budget: :data:`~omen_search.advisor.DEFAULT_ITERATIONS` a
    decision, searching on until the best move is settled up to
    :data:`~omen_search.advisor.DEFAULT_SETTLE` (the advisor's default, whose
    accuracy ``docs/analysis.md`` calibrates); with a ``limit``, ``settle`` searches on so too."""
    from tqdm import tqdm

    limit, settle = budget(limit, settle)
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
        result, values = search_values(spot.core, limit, (seed + spot.ply) & MASK64, spot.played if alone else None,
                                       settle)
        if alone:
            spot.alone = values[spot.played]
        else:
            spot.search, spot.values = result, values

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
        assert spot.search is not None and spot.values is not None
        before = spot.values[spot.search.best]
        if spot.search.best == spot.played:
            after = before
        elif spot.alone is not None:
            after = spot.alone
        else:  # reused: the next decision's position is exactly what this move led to
            nxt = by_ply[spot.ply + 1]
            assert nxt.search is not None and nxt.values is not None
            after = nxt.values[nxt.search.best]
        ranked = tuple((m.move, spot.values[m.move]) for m in spot.search.moves[:TOP])
        mean = statistics.fmean(v.win_prob for v in spot.values.values())
        decisions.append(Decision(spot.ply, spot.played, spot.search.best, before, after,
                                  label_of(before, after, thresholds), spot.observation, ranked, mean,
                                  played.score_unit))
    mean_iterations = statistics.fmean(s.search.iterations for s in spots if s.search) if spots else 0.0
    return GameReview(player, tuple(decisions), limit.iterations or 0, time.perf_counter() - started, cards, played,
                      settle, mean_iterations)
