"""Information-Set Monte Carlo Tree Search on the Cython core, with root parallelism.

SO-ISMCTS and MO-ISMCTS after Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012: a fresh determinisation every iteration, UCB1 with availability
counts, random rollouts, each player's reward (0 loss .. 1 win) from the game's returns, the root
player's score margin tracked per node. The loop runs in C (``ext/search/_search.pyx``, written
once over the game contract of ``ext/common/game_api.pxd``); this module sets budgets, merges
workers and turns move ids into the game's moves.

>>> from omen_search.game import get_game
>>> state = get_game("heir").new_initial_state(seed=3)
>>> result = ismcts(state, Limit(iterations=200), seed=1)
>>> result.iterations, result.best in state.legal_moves()
(200, True)
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np

from omen_search.errors import IllegalMoveError, UsageError
from omen_search.evaluation import Evaluation
from omen_search.game import DEFAULT_GAME, Game, game_of, get_game
from omen_search.limits import ITERATIONS, WORKERS, check_int, check_seconds

DEFAULT_MAX_NODES = 1_000_000  # per tree: about 56 MB
DEFAULT_WORLDS = 512  # deals a belief weighting weighs at a decision (Belief.worlds)
Rollout = Literal["random", "mast"]
ROLLOUTS: tuple[Rollout, ...] = get_args(Rollout)  # the game's uniform rollout, or MAST (ext/search/_search.pyx)


@dataclass(frozen=True)
class Limit:
    """A search budget: iterations, seconds, or both (whichever ends first)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise UsageError("limit: give iterations or seconds")
        if self.iterations is not None:
            check_int(self.iterations, "limit.iterations", ITERATIONS)
        if self.seconds is not None:
            check_seconds(self.seconds, "limit.seconds")


@dataclass(frozen=True)
class Belief:
    """Belief weighting of a search's determinisations
    (:meth:`Search.believe <omen_search._search.Search.believe>`): ``worlds`` deals of the state
    where the other players' latest moves began, each weighed by how likely those moves were in
    it if they play a softmax over their moves of the features after each weighed by ``weights``
    (a model of play, :mod:`omen_search.value_training`; None: uniformly random)."""

    weights: tuple[float, ...] | None
    worlds: int = DEFAULT_WORLDS


@dataclass(frozen=True)
class MoveStats:
    """What the search found about one root move, from the searching player's point of view."""

    move: Any
    visits: int
    availability: int
    win_prob: float
    vp_margin: float
    vp_stdev: float
    wins: float = 0.0  # iterations through this move won by the searching player
    stats: tuple[float, ...] = ()  # the game's statistics of the move's iterations, summed (Game.outlook reads them)
    pv: tuple[tuple[int, int, int], ...] = ()  # (move id, player, visits) of the most visited line after it


@dataclass(frozen=True)
class SearchResult:
    """The root of a search: moves best first, and how much work was done."""

    player: int
    best: Any
    moves: tuple[MoveStats, ...]
    iterations: int
    seconds: float
    nodes: int
    tree_full: bool


def as_core(state: Any, game: Game | None = None) -> Any:
    """The core state to search from: a game's core state itself (it lends the search its C
    contract, ``game_handle()``), a reference state copied to its game's core, or (for an
    observation dict) a state consistent with what its player sees. ``game`` is the state's game
    (by default the one its ``config`` sets up, or the one an observation names)."""
    if hasattr(state, "game_handle"):
        return state
    if isinstance(state, dict):
        game = game or get_game(state.get("game", DEFAULT_GAME), field="observation.game")
        state, _ = game.from_observation(state)
    return (game or game_of(state.config)).to_core(state)


def move_id(core: Any, move: Any) -> int:
    """The id of a legal move of ``core``; raises :class:`IllegalMoveError` for one that is not."""
    moves = core.legal_moves()
    if move not in moves:
        raise IllegalMoveError(f"ply {core.ply}: player {core.current_player} cannot play {str(move)!r} here")
    return int(core.legal_move_ids()[moves.index(move)])


def worker_seeds(seed: int, workers: int) -> list[int]:
    """The seed itself for one search; independent child seeds for several (numpy's
    SeedSequence.spawn)."""
    if workers == 1:
        return [seed]
    children = np.random.SeedSequence(seed).spawn(workers)
    return [int(child.generate_state(1, dtype=np.uint64)[0]) for child in children]


def ismcts(
    state: Any,
    limit: Limit,
    *,
    c: float = 0.7,
    mo: bool = False,
    seed: int = 0,
    workers: int = 1,
    max_nodes: int = DEFAULT_MAX_NODES,
    final: Literal["visits", "value"] = "visits",
    pv_depth: int = 0,
    root_move: Any = None,
    rollout: Rollout = "random",
    evaluation: Evaluation | None = None,
) -> SearchResult:
    """Search ``state`` (either engine) for its current player and rank the root moves.

    ``workers > 1`` runs that many independent searches in threads with seeds spawned from
    ``seed`` and adds up their root statistics (root parallelism). ``final`` picks the best move
    by most visits (default) or by highest win rate; ``pv_depth`` > 0 keeps each move's most
    visited line (from the worker that visited the move most); ``root_move`` searches that legal
    move alone (its value when it is not the best); ``rollout`` is the playout policy
    (:data:`ROLLOUTS`: ``"mast"`` rates moves by their mean reward, needing no game knowledge);
    ``evaluation`` (:mod:`omen_search.evaluation`) ends each playout at its cutoff. Returns at once when only one move is legal. Raises :class:`UsageError` for a finished game or
    a bad option.
    """
    if final not in ("visits", "value"):
        raise UsageError(f"final: must be 'visits' or 'value', got {final!r}")
    check_options(c, workers, rollout)
    core = as_core(state)
    if core.is_terminal():
        raise UsageError("search: the game is over")
    if len(core.legal_move_ids()) == 1:
        return root_result(core, [], final)
    only = None if root_move is None else move_id(core, root_move)
    searches = new_searches(core, c, mo, seed, workers, max_nodes, only, rollout, evaluation)
    run_searches(searches, limit.iterations or 0, limit.seconds or 0.0)
    return root_result(core, [s.result(pv_depth) for s in searches], final)


def check_options(c: float, workers: int, rollout: str) -> None:
    """Raise :class:`UsageError` naming a bad exploration constant, worker count or rollout."""
    check_int(workers, "workers", WORKERS)
    if isinstance(c, bool) or not (isinstance(c, (int, float)) and c >= 0 and math.isfinite(c)):
        raise UsageError(f"c: must be a non-negative number, got {c!r}")
    if rollout not in ROLLOUTS:
        raise UsageError(f"rollout: must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")


class TreeKeeper:
    """Tree reuse, and belief weighting: one player's searches kept from one decision to the next of
    the same game.

    At a decision it names the moves played since its last search (the state's ``moves``, read as
    move ids on a copy of that search's root) and keeps the subtree they lead to
    (:meth:`Search.reroot <omen_search._search.Search.reroot>`, which checks that they lead from
    the old root to this state byte for byte and refuses a path through a move the player could
    not see). Otherwise (another game, a state without its move list, an observation) it starts
    afresh. ``reused`` and ``fresh`` count the decisions of each kind; ``reuse=False`` starts
    afresh every time. With ``ratings`` (and MAST rollouts) a search started afresh in the same
    game takes over the last one's MAST ratings (:meth:`Search.take_mast
    <omen_search._search.Search.take_mast>`), so that they are learnt over the player's whole game
    even where its tree is not kept.

    With ``belief``, the searches of a decision weigh their determinisations by the moves the other
    players made since the player's last decision (:meth:`believe`), in a game whose core can
    (:func:`~omen_search._search.can_believe`); the time that takes comes out of a ``seconds``
    budget. ``weighed``, ``kept``, ``ess`` and ``believing`` sum the decisions weighed, their worlds
    of positive weight, their effective numbers and the seconds it took."""

    def __init__(self, *, c: float = 0.7, mo: bool = False, workers: int = 1, max_nodes: int = DEFAULT_MAX_NODES,
                 rollout: Rollout = "random", evaluation: Evaluation | None = None, reuse: bool = True,
                 ratings: bool = False, belief: Belief | None = None):
        check_options(c, workers, rollout)
        if ratings and rollout != "mast":
            raise UsageError(f"ratings: MAST's ratings are kept with rollout='mast', not {rollout!r}")
        self.c, self.mo, self.workers, self.max_nodes, self.rollout = c, mo, workers, max_nodes, rollout
        self.evaluation, self.reuse, self.ratings, self.belief = evaluation, reuse, ratings, belief
        self.belief_seconds = 0.0  # the time the last decision's belief weighting took
        self.anchor: tuple[Any, list[tuple[int, int]]] | None = None  # where the others' latest moves began
        self.weighed = self.kept = 0
        self.ess = self.believing = 0.0
        self.searches: list[Any] = []
        self.root: Any = None  # a copy of the state of the last search
        self.played = 0  # len(moves) of the state the last search was given
        self.reused = 0
        self.fresh = 0

    def search(self, state: Any, limit: Limit, seed: int = 0) -> SearchResult:
        """Search ``state`` for its current player as :func:`ismcts` does, on the kept tree when it
        can. A decision with one legal move is answered without searching (the tree stays)."""
        core = as_core(state)
        if core.is_terminal():
            raise UsageError("search: the game is over")
        if len(core.legal_move_ids()) == 1:
            return root_result(core, [])
        searches = self.searches_for(core, seed)
        run_searches(searches, limit.iterations or 0, self.seconds_left(limit) or 0.0)
        return root_result(core, [s.result() for s in searches])

    def seconds_left(self, limit: Limit) -> float | None:
        """The seconds of ``limit`` left to search once this decision's belief weighting has taken
        its time (a millisecond at least; None: the limit has no seconds)."""
        return max(limit.seconds - self.belief_seconds, 1e-3) if limit.seconds else None

    def searches_for(self, core: Any, seed: int) -> list[Any]:
        """The searches of a decision in ``core`` (a core state with two or more legal moves), one
        per worker, seeded as :func:`new_searches` seeds them: the kept ones moved on to ``core``,
        or new ones; the caller runs them."""
        path = self.path_to(core)
        seeds = worker_seeds(seed, self.workers)
        if self.reuse and path is not None and all(s.reroot(core, path, k) for s, k in zip(self.searches, seeds)):
            self.reused += 1
        else:
            old, self.searches = self.searches, new_searches(core, self.c, self.mo, seed, self.workers,
                                                             self.max_nodes, rollout=self.rollout,
                                                             evaluation=self.evaluation)
            if self.ratings and path is not None:
                for new, kept in zip(self.searches, old):
                    new.take_mast(kept)
            self.fresh += 1
        self.belief_seconds = 0.0
        if path is None:  # another game, or its moves cannot be read: nothing to weigh by yet
            self.anchor = None
        elif self.belief is not None:
            self.believe(core, path)
        self.root, self.played = core.clone(), len(getattr(core, "moves", ()))
        return self.searches

    def believe(self, core: Any, path: list[tuple[int, int]]) -> None:
        """Weigh the determinisations of this decision's searches by the other players' latest
        moves: those in ``path`` (the moves since the last search's root, which it leads from), or,
        when it has none (the player's next decision in a turn), those the last decision was
        weighed by. The state where they began, as the player saw it, is dealt again and played
        forward."""
        from omen_search._search import can_believe

        assert self.belief is not None
        player = core.current_player
        start = next((i for i, (_, mover) in enumerate(path) if mover != player), None)
        if not can_believe(core):
            return
        began = time.perf_counter()
        if start is not None:
            past = self.root.clone()
            for move, _ in path[:start]:
                past.apply_id(move)
            self.anchor = (past, path[start:])
        elif self.anchor is not None:
            self.anchor = (self.anchor[0], self.anchor[1] + path)
        else:
            return
        past, moves = self.anchor
        for search in self.searches:
            try:
                report = search.believe(past, moves, self.belief.weights, self.belief.worlds)
            except UsageError:  # the moves no longer lead here (a game taken back): nothing to weigh by
                self.anchor = None
                break
            self.weighed += 1
            self.kept += report["kept"]
            self.ess += report["ess"]
        self.belief_seconds = time.perf_counter() - began
        self.believing += self.belief_seconds

    def path_to(self, core: Any) -> list[tuple[int, int]] | None:
        """The ``(move id, mover)`` pairs of the moves ``core`` played since the last search's root
        (:meth:`Search.reroot <omen_search._search.Search.reroot>` checks that they lead there), or
        None when they cannot be read so."""
        moves = getattr(core, "moves", None)
        if self.root is None or moves is None or len(moves) < self.played:
            return None
        replay, path = self.root.clone(), []
        for move in moves[self.played:]:
            if replay.is_terminal():
                return None
            try:
                played = move_id(replay, move)
            except IllegalMoveError:
                return None
            path.append((played, replay.current_player))
            replay.apply_id(played)
        return path


def new_searches(core: Any, c: float, mo: bool, seed: int, workers: int, max_nodes: int = DEFAULT_MAX_NODES,
                 root_move: int | None = None, rollout: Rollout = "random",
                 evaluation: Evaluation | None = None) -> list[Any]:
    """One search of ``core`` per worker, each with its own seed (:func:`worker_seeds`). Each
    allocates its trees now: raises :class:`UsageError` naming ``workers`` when memory runs out."""
    from omen_search._search import Search

    value, cutoff = (evaluation.weights, evaluation.cutoff) if evaluation is not None else (None, 0)
    try:
        return [Search(core, c, mo, s, max_nodes, root_move, rollout, value, cutoff) for s in worker_seeds(seed, workers)]
    except MemoryError:
        raise UsageError(f"workers: not enough memory for {workers} searches of {max_nodes} nodes each; "
                         "use fewer workers") from None


def run_searches(searches: list[Any], iterations: int, seconds: float) -> None:
    """Run searches side by side in threads (the search loop releases the GIL); an iteration
    budget is split between them."""
    per = -(-iterations // len(searches)) if iterations else 0
    if len(searches) == 1:
        searches[0].run(per, seconds)
        return
    with ThreadPoolExecutor(max_workers=len(searches)) as pool:
        list(pool.map(lambda s: s.run(per, seconds), searches))


def root_result(core: Any, raws: list[dict], final: str = "visits") -> SearchResult:
    """Merge the root statistics of searches of ``core`` (root parallelism) into one result."""
    ids = core.legal_move_ids()
    moves = core.legal_moves()
    player = core.current_player
    if len(ids) == 1:
        only = MoveStats(moves[0], 0, 0, float("nan"), float("nan"), float("nan"))
        return SearchResult(player, moves[0], (only,), 0, 0.0, 0, False)
    merged: dict[int, list[float]] = {}
    sums: dict[int, list[float]] = {}
    lines: dict[int, tuple[int, list]] = {}
    for raw in raws:
        for move_id, visits, avail, reward, margin, margin_sq in raw["children"]:
            acc = merged.setdefault(move_id, [0, 0, 0.0, 0.0, 0.0])
            for i, v in enumerate((visits, avail, reward, margin, margin_sq)):
                acc[i] += v
            if visits > lines.get(move_id, (-1, []))[0] and "pv" in raw:
                lines[move_id] = (visits, raw["pv"][move_id])
        for move_id, values in raw["stats"].items():
            acc_s = sums.setdefault(move_id, [0.0] * len(values))
            sums[move_id] = [a + b for a, b in zip(acc_s, values)]
    stats = []
    for move_id, (visits, avail, reward, margin, margin_sq) in merged.items():
        move = moves[ids.index(move_id)] if move_id in ids else None
        if move is None or not visits:
            continue
        mean = margin / visits
        stats.append(MoveStats(move, int(visits), int(avail), reward / visits, mean,
                               math.sqrt(max(margin_sq / visits - mean * mean, 0.0)), reward,
                               tuple(sums.get(move_id, ())), tuple(lines.get(move_id, (0, []))[1])))
    key = (lambda m: (m.visits, m.win_prob)) if final == "visits" else (lambda m: (m.win_prob, m.visits))
    stats.sort(key=key, reverse=True)
    if not stats:  # no iteration finished (a tiny time budget): fall back to the first legal move
        stats = [MoveStats(moves[0], 0, 0, float("nan"), float("nan"), float("nan"))]
    return SearchResult(
        player=player,
        best=stats[0].move,
        moves=tuple(stats),
        iterations=sum(r["iterations"] for r in raws),
        seconds=max((r["seconds"] for r in raws), default=0.0),
        nodes=sum(r["nodes"] for r in raws),
        tree_full=any(r["full"] for r in raws),
    )
