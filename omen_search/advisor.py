"""The move advisor: ranked moves with win probability, an interval and the VP margin, from what
the asking player sees.

The advisor searches from the player's *observation* (a record or a live state is first turned into
the observation of the player to move), so advice never depends on cards the player could not see.
The search is ISMCTS (:mod:`omen_search.search`); on top of its root statistics the advisor adds

* a 95% Wilson interval on each move's win probability (over the move's iterations);
* ``best_share``: in how many of a fresh set of determinisations the move was the best one, by
  random games played after each candidate in each of them — robustness to the hidden cards;
* ``pv``: the most visited line after the move, both players' moves shown as public actions;
* the war outlook after the best move: for each city with reward tiles, the probability that the
  player wins the next war there and the reward tiles they can expect to take from it.

>>> from omen_search.engines import new_game
>>> advice = Advisor(Limit(iterations=300), seed=1).advise(new_game("core", seed=3))
>>> advice.moves[0].visits >= advice.moves[-1].visits
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from omen_search.cards import CardSet
from omen_search.errors import UsageError
from omen_search.moves import Move
from omen_search.positions import observe, state_from_observation
from omen_search.records import RECORD_FORMAT, replay
from omen_search.rng import MASK64, Rng
from omen_search.search import Limit, MoveStats, root_result, run_searches, worker_seeds
from omen_search.stats import wilson

ALGORITHMS = ("ismcts", "ismcts-mo")
HIDDEN_EMISSARY = "emissary (face down)"
PV_DEPTH = 8
ROBUSTNESS_WORLDS = 24  # determinisations behind best_share
ROBUSTNESS_MOVES = 6  # the most visited moves that best_share is measured for (the rest get 0)
ROBUSTNESS_BUDGET = 0.2  # its random games, as a share of the search's iterations ...
SEARCH_SHARE = 1 / (1 + ROBUSTNESS_BUDGET)  # ... so the search gets this share of a time budget


@dataclass(frozen=True)
class PvStep:
    """One move of a principal line: who makes it and what the table sees."""

    seat: int
    move: str


@dataclass(frozen=True)
class MoveAdvice:
    """One candidate move, every value from the asking player's point of view."""

    move: Move
    visits: int
    win_prob: float
    win_prob_low: float
    win_prob_high: float
    vp_margin: float
    vp_stdev: float
    best_share: float
    pv: tuple[PvStep, ...]


@dataclass(frozen=True)
class CityOutlook:
    """The wars ahead in one city, if the best move is played."""

    city: int
    tiles: int  # reward tiles still in the city
    win_next: float  # probability that the player takes the city's next reward tile
    expected_tiles: float  # reward tiles the player can expect to take from the city by the end


@dataclass(frozen=True)
class Advice:
    """The advisor's answer: moves ranked best first, and how much work stands behind it."""

    pov: int
    iterations: int
    determinizations: int
    elapsed: float
    moves: tuple[MoveAdvice, ...]
    war_outlook: tuple[CityOutlook, ...]
    tree_full: bool = False

    @property
    def best(self) -> MoveAdvice:
        return self.moves[0]

    def to_dict(self, top: int | None = None) -> dict[str, Any]:
        """The JSON form (``omen-search advise --json``), the ``top`` best moves only if given."""
        moves = self.moves[:top] if top else self.moves
        return {
            "pov": self.pov, "iterations": self.iterations, "determinizations": self.determinizations,
            "elapsed": round(self.elapsed, 4), "tree_full": self.tree_full,
            "moves": [{"move": str(m.move), "visits": m.visits, "win_prob": _num(m.win_prob),
                       "win_prob_low": _num(m.win_prob_low), "win_prob_high": _num(m.win_prob_high),
                       "vp_margin": _num(m.vp_margin), "vp_stdev": _num(m.vp_stdev), "best_share": m.best_share,
                       "pv": [asdict(step) for step in m.pv]} for m in moves],
            "war_outlook": [asdict(c) for c in self.war_outlook],
        }


def _num(x: float) -> float | None:
    """JSON has no NaN: an unmeasured value (a forced move is not searched) is null."""
    return None if math.isnan(x) else round(x, 4)


class Advisor:
    """Ranks the moves of the player to move. ``algorithm`` is ``ismcts`` (SO) or ``ismcts-mo``;
    ``workers`` > 1 searches in that many processes (root parallelism); a seed makes advice
    reproducible (with one worker and an iteration budget)."""

    def __init__(self, limit: Limit = Limit(iterations=10_000), algorithm: str = "ismcts", seed: int = 0,
                 workers: int = 1, c: float = 0.7, cards: CardSet | None = None):
        if not isinstance(limit, Limit):
            raise UsageError(f"limit: must be a Limit, got {limit!r}")
        if algorithm not in ALGORITHMS:
            raise UsageError(f"algorithm: unknown algorithm {algorithm!r} (expected one of {', '.join(ALGORITHMS)})")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {seed!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise UsageError(f"workers: must be a positive integer, got {workers!r}")
        self.limit, self.algorithm, self.seed, self.workers, self.c = limit, algorithm, seed, workers, c
        self.cards = cards  # the card set of observations and records (None: the built-in set)
        self._searches: list[Any] = []
        self._stopped = False

    def advise(self, source: Any, ply: int | None = None,
               on_progress: Callable[[Advice], bool | None] | None = None,
               report_every: float | None = None) -> Advice:
        """Advice for the player to move in ``source``: an observation (a dict or JSON text), a game
        record (a dict, with ``ply``: the position after that many moves) or a live state.

        With ``on_progress`` and ``report_every`` (seconds), the search runs in slices and
        ``on_progress`` receives the advice so far after each; returning True stops the search.
        Raises :class:`FormatError`/:class:`RecordError` for bad input, :class:`UsageError` for a
        finished game."""
        from omen_search._core import Search

        core, pov = self._position(source, ply)
        rng = Rng(self.seed ^ 0xAD0)  # best_share's worlds and the naming of principal lines
        started = time.perf_counter()
        searches = []
        if len(core.legal_move_ids()) > 1:
            searches = [Search(core, self.c, self.algorithm == "ismcts-mo", s)
                        for s in worker_seeds(self.seed, self.workers)]
        self._searches = searches
        while searches and not self._stopped:
            done = sum(s.iterations for s in searches)
            iterations = 0 if self.limit.iterations is None else self.limit.iterations - done
            seconds = 0.0 if self.limit.seconds is None else (
                SEARCH_SHARE * self.limit.seconds - (time.perf_counter() - started))
            if on_progress and report_every:
                seconds = report_every if not seconds else min(seconds, report_every)
            if iterations < 0 or (self.limit.seconds is not None and seconds <= 0):
                break
            run_searches(searches, iterations, max(seconds, 0.0))
            done_now = sum(s.iterations for s in searches)
            if done_now == done or (self.limit.iterations is not None and done_now >= self.limit.iterations):
                break
            if on_progress and on_progress(self._advice(core, pov, searches, started, rng, robust=False)):
                break
        self._searches = []
        self._stopped = False
        return self._advice(core, pov, searches, started, rng, robust=True)

    def stop(self) -> None:
        """Stop a running :meth:`advise` (from another thread): it returns the advice so far."""
        self._stopped = True
        for search in list(self._searches):
            search.stop()

    # -- inside

    def _position(self, source: Any, ply: int | None) -> tuple[Any, int]:
        """The core state to search (consistent with the player's observation) and the player."""
        from omen_search._core import CoreState

        if isinstance(source, str) or (isinstance(source, dict) and source.get("format") != RECORD_FORMAT):
            if ply is not None:
                raise UsageError("ply: only a game record takes a ply")
            observed, pov = state_from_observation(source, self.cards)
            if observed.is_terminal():
                raise UsageError("advise: the game in the observation is over")
            return CoreState.from_state(observed), pov
        if isinstance(source, dict):
            state = replay(source, self.cards, upto=ply)
        elif ply is not None:
            raise UsageError("ply: only a game record takes a ply")
        else:
            state = source
        if state.is_terminal():
            raise UsageError(f"advise: the game is over at ply {state.ply}")
        pov = state.current_player
        # only what the player to move sees goes into the search
        seen, _ = state_from_observation(observe(state, pov), state.cards)
        return CoreState.from_state(seen), pov

    def _advice(self, core: Any, pov: int, searches: list[Any], started: float, rng: Rng,
                robust: bool) -> Advice:
        from omen_search._core import best_shares

        result = root_result(core, [s.result(PV_DEPTH) for s in searches])
        stats = list(result.moves)
        ids = {m: i for m, i in zip(core.legal_moves(), core.legal_move_ids())}
        shares: dict[Move, float] = {}
        worlds = 0
        searched = [s for s in stats if s.visits > 0][:ROBUSTNESS_MOVES]
        if robust and len(searched) > 1:
            worlds = ROBUSTNESS_WORLDS
            iterations = result.iterations
            rollouts = max(4, min(256, int(ROBUSTNESS_BUDGET * iterations) // (worlds * len(searched))))
            values = best_shares(core, [ids[s.move] for s in searched], worlds, rollouts, rng.next64())
            shares = {s.move: v for s, v in zip(searched, values)}
        elif len(stats) == 1:
            shares = {stats[0].move: 1.0}
        moves = []
        for s in stats:
            low, high = wilson(s.wins, s.visits) if s.visits else (math.nan, math.nan)
            moves.append(MoveAdvice(s.move, s.visits, s.win_prob, low, high, s.vp_margin, s.vp_stdev,
                                    shares.get(s.move, 0.0), _line(core, pov, s, rng) if robust else ()))
        return Advice(pov=pov, iterations=result.iterations, determinizations=result.iterations + worlds,
                      elapsed=time.perf_counter() - started, moves=tuple(moves),
                      war_outlook=_outlook(core, stats[0]), tree_full=result.tree_full)


def _line(core: Any, pov: int, stats: MoveStats, rng: Rng, tries: int = 16) -> tuple[PvStep, ...]:
    """The move and its principal line as public actions. The line is replayed on a determinisation
    to name its moves; of a few, the one in which most of the line is legal is used."""
    best: tuple[PvStep, ...] = (PvStep(pov, str(stats.move)),)
    for _ in range(tries if stats.pv else 0):
        world = core.determinized(pov, rng.next64())
        world.apply(stats.move)
        steps = [PvStep(pov, str(stats.move))]
        for move_id, seat, _visits in stats.pv:
            if move_id < 0:  # a move the player's MO tree cannot see
                steps.append(PvStep(seat, HIDDEN_EMISSARY))
                break
            ids = world.legal_move_ids()
            if world.is_terminal() or move_id not in ids:
                break
            move = world.legal_moves()[ids.index(move_id)]
            steps.append(PvStep(seat, HIDDEN_EMISSARY if seat != pov and move.verb == "emissary" else str(move)))
            world.apply_id(move_id)
        if len(steps) > len(best):
            best = tuple(steps)
        if len(steps) == len(stats.pv) + 1:
            break
    return best


def _outlook(core: Any, best: MoveStats) -> tuple[CityOutlook, ...]:
    """Per city with reward tiles: the next war and the tiles taken, over the best move's iterations."""
    if not best.visits or not best.next_wars:
        return ()
    return tuple(CityOutlook(city, len(tiles), best.next_wars[city] / best.visits, best.tiles_taken[city] / best.visits)
                 for city, tiles in enumerate(core.city_tiles) if tiles)
