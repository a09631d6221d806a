"""The move advisor: ranked moves with win probability, an interval and the VP margin, from what
the asking player sees.

The advisor searches from the *observation* of the player who decides (a record or a live state is
first turned into it), so advice never depends on cards the player could not see. The search is
ISMCTS (:mod:`omen_search.search`); on top of its root statistics the advisor adds

* a 95% interval on each move's win probability that holds the search's own error: the search is
  run as :data:`BATCHES` independent searches (their root statistics added up, as in root
  parallelism), and the interval comes from how far they disagree (:func:`~omen_search.stats.batch_interval`);
* ``separated``: whether the two most visited moves' intervals are apart, i.e. whether the budget
  was enough to tell the best move from the next;
* ``pv``: the most visited line after the move, every seat's moves shown as the table sees them;
* the game's outlook after the best move (Heir: for each city with reward tiles, the probability
  that the player wins the next war there and the reward tiles they can expect to take from it).

>>> from omen_search.game import get_game
>>> advice = Advisor(Limit(iterations=300), seed=1).advise(get_game("heir").new_initial_state(seed=3))
>>> advice.moves[0].visits >= advice.moves[-1].visits
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

from omen_search.errors import FormatError, UsageError
from omen_search.evaluation import EVALS, evaluation_for
from omen_search.game import Game, game_of, named_game
from omen_search.jsonio import parse_json
from omen_search.limits import ITERATIONS, check_int
from omen_search.records import RECORD_FORMAT, record_game, replay
from omen_search.rng import MASK64, Rng
from omen_search.search import DEFAULT_MAX_NODES, Limit, MoveStats, Rollout, check_options, new_searches, root_result
from omen_search.stats import batch_interval

Algorithm = Literal["ismcts", "ismcts-mo"]
ALGORITHMS: tuple[Algorithm, ...] = ("ismcts", "ismcts-mo")
PV_DEPTH = 8
DEFAULT_ITERATIONS = 30_000  # the default advice: this many iterations, then on while the best move is unsettled,
DEFAULT_SETTLE = 120_000  # up to this many: chosen from the reference suite's curve (docs/strength.md)
BATCHES = 8  # independent searches behind every advice (more if more workers): their spread is the interval
SLICE = 0.25  # seconds: the search runs in slices this long at most, so a stop is never lost for long


@dataclass(frozen=True)
class PvStep:
    """One move of a principal line: who makes it and what the table sees."""

    seat: int
    move: str


@dataclass(frozen=True)
class MoveAdvice:
    """One candidate move, every value from the asking player's point of view.

    ``win_prob`` is the share of the move's search iterations that the player won, over all the
    independent searches, with its 95% interval ``win_prob_low`` … ``win_prob_high`` (from the
    searches' spread: :func:`~omen_search.stats.batch_interval`); ``vp_margin`` the mean of (the
    player's points − the best other seat's) at the end of those games and ``vp_stdev`` its standard
    deviation; ``pv`` the move and the most visited line after it. A forced move is not searched:
    its values are NaN."""

    move: Any
    visits: int
    win_prob: float
    win_prob_low: float
    win_prob_high: float
    vp_margin: float
    vp_stdev: float
    pv: tuple[PvStep, ...]


@dataclass(frozen=True)
class Advice:
    """The advisor's answer for the player ``pov`` at ``ply``: moves ranked best first (most
    visited), ``separated`` when the two most visited moves' intervals do not overlap (or the move
    is forced), and how much work stands behind it: search ``iterations`` and ``determinizations``
    (one per iteration), ``elapsed`` seconds, and ``tree_full`` when a search tree reached its node
    cap. ``outlook`` is what the game's statistics say of the game ahead after the best move (the game's
    :meth:`~omen_search.game.Game.outlook`), written under ``outlook_key`` (Heir: ``war_outlook``)."""

    pov: int
    iterations: int
    determinizations: int
    elapsed: float
    moves: tuple[MoveAdvice, ...]
    separated: bool = True
    ply: int = 0
    outlook: tuple[Any, ...] = ()
    tree_full: bool = False
    outlook_key: str | None = None
    outlook_text: str = ""
    score_unit: str = "VP"  # what the margin counts (the game's :attr:`~omen_search.game.Game.score_unit`)

    @property
    def best(self) -> MoveAdvice:
        return self.moves[0]

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        """The JSON form (``omen-search advise --json``, the engine's replies), the ``top`` best moves
        only if given. NaN (not measured) is written as null."""
        moves = self.moves[:top] if top else self.moves
        out: dict[str, Any] = {
            "pov": self.pov, "iterations": self.iterations, "determinizations": self.determinizations,
            "separated": self.separated,
            "moves": [{"move": str(m.move), "visits": m.visits, "win_prob": _num(m.win_prob),
                       "win_prob_low": _num(m.win_prob_low), "win_prob_high": _num(m.win_prob_high),
                       "vp_margin": _num(m.vp_margin),
                       "pv": [{"seat": step.seat, "move": step.move} for step in m.pv]} for m in moves],
        }
        if self.outlook_key:
            out[self.outlook_key] = [{k: _num(v) if isinstance(v, float) else v for k, v in item.to_dict().items()}
                                     for item in self.outlook]
        return out


def _num(x: float) -> float | None:
    """JSON has no NaN: an unmeasured value (a forced move is not searched) is null."""
    return None if math.isnan(x) else round(x, 4)


NOT_SEPARATED = "the top two moves cannot be told apart at this budget"


def describe_advice(advice: Advice, top: int | None = None, indent: str = "") -> str:
    """The advisor's ranking as a table: rank, move, win %, its 95% interval and score margin; then
    :data:`NOT_SEPARATED` when the two best moves' intervals overlap, and the game's outlook.

    A forced move is not searched, so it has no numbers."""
    moves = advice.moves[:top] if top else advice.moves
    width = max([len(str(m.move)) for m in moves] + [4])
    margin = f"{advice.score_unit} margin"
    mw = max(9, len(margin))
    lines = [f"{indent}{'#':>2}  {'move':{width}}  {'win %':>6}  {'95% interval':>13}  {margin:>{mw}}"]
    for rank, m in enumerate(moves, 1):
        if m.visits == 0:
            lines.append(f"{indent}{rank:>2}  {str(m.move):{width}}  (the only legal move: nothing to search)")
            continue
        lines.append(f"{indent}{rank:>2}  {str(m.move):{width}}  {100 * m.win_prob:6.1f}  "
                     f"{100 * m.win_prob_low:5.1f} - {100 * m.win_prob_high:5.1f}  {m.vp_margin:+{mw}.1f}")
    if not advice.separated:
        lines.append(f"{indent}{NOT_SEPARATED} (their 95% intervals overlap)")
    if advice.outlook_text:
        lines.append(f"{indent}{advice.outlook_text}")
    return "\n".join(lines)


def budget(limit: Limit | None, settle: int | None) -> tuple[Limit, int | None]:
    """A search budget checked: ``limit`` None is the default advice, :data:`DEFAULT_ITERATIONS`
    settling up to :data:`DEFAULT_SETTLE` (or ``settle``); ``settle`` goes with an iteration budget
    and is at least it. Raises :class:`UsageError` for a bad one."""
    if limit is None:  # the default advice: adaptive
        limit, settle = Limit(iterations=DEFAULT_ITERATIONS), DEFAULT_SETTLE if settle is None else settle
    if not isinstance(limit, Limit):
        raise UsageError(f"limit: must be a Limit, got {limit!r}")
    if settle is not None:
        check_int(settle, "settle", ITERATIONS)
        if limit.iterations is None or limit.seconds is not None:
            raise UsageError("settle: goes with an iteration budget, not with a time budget")
        if settle < limit.iterations:
            raise UsageError(f"settle: at least the budget's {limit.iterations} iterations, got {settle}")
    return limit, settle


class Advisor:
    """Ranks the moves of the player to move, from that player's observation.

    ``algorithm`` is ``ismcts`` (SO-ISMCTS) or ``ismcts-mo`` (MO-ISMCTS; Cowling, Powley &
    Whitehouse 2012). The budget is shared by ``max(BATCHES, workers)`` independent searches, each
    from its own seed, whose root statistics are added up (root parallelism) and whose spread gives
    the intervals; ``workers`` is how many of them run at a time, in threads. ``c`` is the UCB
    exploration constant. With an iteration budget a seed makes the advice reproducible, with any
    number of workers up to :data:`BATCHES` (each search runs its own share of the iterations);
    a time budget is not.
    ``rollout`` is the searches' playout policy (``mast``: docs/strength.md, "At equal time");
    ``evaluation`` (:data:`~omen_search.evaluation.EVALS`) ends the playouts with the game's learned
    evaluation (``learned``, where the game ships one).
    ``settle`` (with an iteration budget) searches on, the same trees doubling their iterations, up
    to ``settle`` iterations in all, until the best move is :func:`settled`. Without a ``limit`` the
    advice is the default: :data:`DEFAULT_ITERATIONS`, settling up to :data:`DEFAULT_SETTLE`.
    ``cards`` is the card set of observations and records (None: the built-in set). ``game`` is
    the game of the sources given (None: the game each names, or a state's configuration sets up).

    Raises :class:`UsageError` for a bad option.
    """

    def __init__(self, limit: Limit | None = None, algorithm: Algorithm = "ismcts",
                 seed: int = 0, workers: int = 1, c: float = 0.7, cards: Any = None, game: Game | None = None,
                 rollout: Rollout = "random", settle: int | None = None, evaluation: str = "none"):
        limit, settle = budget(limit, settle)
        self.settle = settle
        if algorithm not in ALGORITHMS:
            raise UsageError(f"algorithm: unknown algorithm {algorithm!r} (expected one of {', '.join(ALGORITHMS)})")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {seed!r}")
        check_options(c, workers, rollout)
        if evaluation not in EVALS:
            raise UsageError(f"evaluation: must be one of {', '.join(EVALS)}, got {evaluation!r}")
        self.rollout, self.evaluation = rollout, evaluation
        self.limit, self.algorithm, self.seed, self.workers, self.c = limit, algorithm, seed, workers, float(c)
        self.cards, self.game = cards, game
        self._searches: list[Any] = []
        self._stopped = False

    def advise(self, source: Any, ply: int | None = None,
               on_progress: Callable[[Advice], bool | None] | None = None,
               report_every: float | None = None) -> Advice:
        """Advice for the player to move in ``source``: an observation (a dict or JSON text) of the
        seat that decides, a game record (a dict or JSON text, told apart by its ``format``; with
        ``ply``, the position after that many moves, else after all of them) or a live state
        (either engine). A source with a ``ply`` is read as a record.

        With ``on_progress`` and ``report_every`` (seconds), ``on_progress`` receives the advice
        so far about every ``report_every`` seconds (without ``pv``, which is found at the end:
        empty); returning True stops the search.

        Raises :class:`FormatError` naming the JSON path of a bad field (an observation of the seat
        that does not decide is ``observation.player``), :class:`RecordError` for a record that
        does not replay to ``ply``, :class:`UsageError` for a finished game.
        """
        game, core, pov = self._position(source, ply)
        rng = Rng(self.seed ^ 0xAD0)  # the naming of principal lines
        started = time.perf_counter()
        searches = []
        if len(core.legal_move_ids()) > 1:
            batches = max(BATCHES, self.workers)
            # a tree grows by at most a node an iteration: with an iteration budget, no bigger than its share
            most = self.settle or self.limit.iterations
            nodes = DEFAULT_MAX_NODES if most is None else min(DEFAULT_MAX_NODES, -(-most // batches) + 2)
            searches = new_searches(core, self.c, self.algorithm == "ismcts-mo", self.seed, batches, nodes,
                                    rollout=self.rollout, evaluation=evaluation_for(self.evaluation, game))
        self._searches = searches
        try:
            if searches:
                settle_search(
                    lambda total: self._search(searches, total, started, game, core, pov, rng,
                                               on_progress if report_every else None, report_every or 0.0),
                    lambda: self._stopped or settled(self._advice(game, core, pov, searches, started, rng,
                                                                  final=False).moves),
                    self.limit.iterations, self.settle)
            return self._advice(game, core, pov, searches, started, rng, final=True)
        finally:
            self._searches = []
            self._stopped = False

    def stop(self) -> None:
        """Stop a running :meth:`advise` (from another thread): it returns the advice so far within
        about :data:`SLICE` seconds. A stop that comes before :meth:`advise` starts makes it return
        at once (after one iteration)."""
        self._stopped = True
        for search in list(self._searches):
            search.stop()

    # -- inside

    def _search(self, searches: list[Any], total: int | None, started: float, game: Game, core: Any, pov: int,
                rng: Rng, on_progress: Callable[[Advice], bool | None] | None, report_every: float) -> None:
        """Run the searches to ``total`` iterations in all (None: to the time budget) in slices of at
        most SLICE seconds (so that a stop is never lost for long, and progress can be reported), ``workers`` at a time, each search getting an
        equal share of a slice. Each search has its own share of an iteration budget, so the result
        does not depend on how the time was sliced."""
        targets = ([total // len(searches) + (i < total % len(searches)) for i in range(len(searches))]
                   if total is not None else None)
        deadline = None if self.limit.seconds is None else started + self.limit.seconds
        next_report = started + report_every
        threads = min(self.workers, len(searches))
        pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
        try:
            while not self._stopped:
                now = time.perf_counter()
                budget = SLICE if deadline is None else min(SLICE, deadline - now)
                if on_progress is not None:
                    budget = min(budget, max(next_report - now, 0.001))
                if budget <= 0:
                    break
                jobs = [(s, 0 if targets is None else targets[i] - s.iterations) for i, s in enumerate(searches)]
                jobs = [(s, n) for s, n in jobs if targets is None or n > 0]
                if not jobs:
                    break
                share = budget / math.ceil(len(jobs) / threads)
                if pool is None or len(jobs) == 1:
                    for s, n in jobs:
                        s.run(n, share)
                else:
                    list(pool.map(lambda job: job[0].run(job[1], share), jobs))
                if on_progress is not None and time.perf_counter() >= next_report:
                    next_report += report_every * max(1, math.ceil((time.perf_counter() - next_report) / report_every))
                    if on_progress(self._advice(game, core, pov, searches, started, rng, final=False)):
                        break
        finally:
            if pool is not None:
                pool.shutdown()
        if not any(s.iterations for s in searches):  # stopped at once: one iteration, so every value is defined
            searches[0].run(1, 0.0)

    def _position(self, source: Any, ply: int | None) -> tuple[Game, Any, int]:
        """The game, the core state to search (consistent with the player's observation) and the player."""
        if isinstance(source, (str, bytes)):
            source = parse_json(source, "observation")
            if not isinstance(source, dict):
                raise FormatError(f"observation: must be a JSON object, got {type(source).__name__}")
        if isinstance(source, dict) and source.get("format") != RECORD_FORMAT and ply is None:
            family = self.game or named_game(source, "observation")
            observed, pov = family.from_observation(source, self.cards)
            if observed.is_terminal():
                raise UsageError("advise: the game in the observation is over")
            game = self.game or family.game_of_document(source, "observation", self.cards)
            mover = observed.current_player
            if mover != pov:
                raise FormatError(
                    f"observation.player: this is seat {pov}'s observation, but the decision "
                    f"({game.decision_name(observed)}) is seat {mover}'s; advice is for the seat that decides: "
                    f"give seat {mover}'s observation")
            return game, game.to_core(observed), pov  # the core keeps the observation's ply
        if isinstance(source, dict):
            state = replay(source, self.cards, upto=ply, game=self.game)
            game = self.game or record_game(source).game_of_document(source, "record", self.cards)
        elif ply is not None:
            raise UsageError("ply: only a game record takes a ply")
        elif not hasattr(source, "legal_move_ids") and not hasattr(source, "legal_moves"):
            raise UsageError(f"advise: expected an observation, a game record or a game state, got "
                             f"{type(source).__name__}")
        else:
            state = source
            game = self.game or game_of(state.config)
        if state.is_terminal():
            raise UsageError(f"advise: the game is over at ply {state.ply}")
        pov = state.current_player
        # only what the player to move sees goes into the search
        seen, _ = game.from_observation(game.observe(state, pov), getattr(state, "cards", None))
        return game, game.to_core(seen), pov

    def _advice(self, game: Game, core: Any, pov: int, searches: list[Any], started: float, rng: Rng,
                final: bool) -> Advice:
        """The advice from the searches' statistics; ``final`` adds the lines."""
        raws = [s.result(PV_DEPTH if final else 0) for s in searches]
        result = root_result(core, raws)
        stats = list(result.moves)
        ids = dict(zip(core.legal_moves(), core.legal_move_ids()))
        per_batch = [{child[0]: (child[1], child[3]) for child in raw["children"]} for raw in raws]
        moves = []
        for s in stats:
            low, high = math.nan, math.nan
            if s.visits:
                counts = [batch.get(ids[s.move], (0, 0.0)) for batch in per_batch]
                low, high = batch_interval([w for _, w in counts], [n for n, _ in counts])
            moves.append(MoveAdvice(s.move, s.visits, s.win_prob, low, high, s.vp_margin, s.vp_stdev,
                                    _line(game, core, pov, s, rng) if final else ()))
        outlook = game.outlook(core, stats[0].stats, stats[0].visits)
        return Advice(pov=pov, iterations=result.iterations, determinizations=result.iterations,
                      elapsed=time.perf_counter() - started, moves=tuple(moves),
                      separated=separated(moves, len(ids)), ply=core.ply, outlook=outlook,
                      tree_full=result.tree_full, outlook_key=game.outlook_key,
                      outlook_text=game.describe_outlook(outlook), score_unit=game.score_unit)


def separated(moves: list[MoveAdvice], legal: int) -> bool:
    """Whether the best move can be told from the next at this budget: it is the only legal move,
    or the 95% intervals of the two most visited moves do not overlap (a move not searched at all
    has no interval, so it cannot be told from anything)."""
    if legal == 1:
        return True
    if len(moves) < 2 or not (moves[0].visits and moves[1].visits):
        return False
    return _apart(_interval(moves[0]), _interval(moves[1]))


def _interval(move: MoveAdvice) -> tuple[float, float]:
    return move.win_prob_low, move.win_prob_high


def _apart(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """Whether two 95% intervals ``(low, high)`` do not overlap."""
    return first[0] > second[1] or second[0] > first[1]


def settled(moves: tuple[MoveAdvice, ...] | list[MoveAdvice]) -> bool:
    """Whether more search would hardly change the advice: the best move is told apart from the
    next (their 95% intervals do not overlap), or the two are so close, each known to within less
    than a point, that choosing either loses under a point of win %."""
    if len(moves) < 2 or not (moves[0].visits and moves[1].visits):
        return len(moves) == 1
    return intervals_settled(_interval(moves[0]), _interval(moves[1]))


def settle_search(run: Callable[[int | None], None], done: Callable[[], bool], total: int | None,
                  most: int | None) -> None:
    """Runs a search to ``total`` iterations (None: to its time budget), then, until ``done()``,
    doubles the total up to ``most`` (None: no settling): the one schedule of a settling search."""
    while True:
        run(total)
        if total is None or most is None or total >= most or done():
            return
        total = min(most, 2 * total)


def intervals_settled(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """:func:`settled` for the 95% intervals ``(low, high)`` of the two most visited moves."""
    worst = max(first[1], second[1]) - min(first[0], second[0])
    return _apart(first, second) or worst < 0.01


def _line(game: Game, core: Any, pov: int, stats: MoveStats, rng: Rng, tries: int = 16) -> tuple[PvStep, ...]:
    """The move and its principal line as the table sees it. The line is replayed on a
    determinisation to name its moves; of a few, the one in which most of the line is legal is used."""
    best: tuple[PvStep, ...] = (PvStep(pov, str(stats.move)),)
    for _ in range(tries if stats.pv else 0):
        world = core.determinized(pov, rng.next64())
        world.apply(stats.move)
        steps = [PvStep(pov, str(stats.move))]
        for move_id, seat, _visits in stats.pv:
            if move_id < 0:  # a move the player's MO tree cannot see
                steps.append(PvStep(seat, game.hidden_move))
                break
            ids = world.legal_move_ids()
            if world.is_terminal() or move_id not in ids:
                break
            move = world.legal_moves()[ids.index(move_id)]
            steps.append(PvStep(seat, game.public_move(world, move, pov)))
            world.apply_id(move_id)
        if len(steps) > len(best):
            best = tuple(steps)
        if len(steps) == len(stats.pv) + 1:
            break
    return best
