"""Players that choose moves: one interface, made from spec strings.

Every bot answers ``choose(state) -> move`` for the state's current player; the state may be either
engine's, or an observation (a dict, as the game's ``observe`` writes it), since the searching
bots only use what the player can see. A bot is made for a game (``make_bot(spec, seed, game)``);
without one it plays the game a state's ``config`` sets up. Bots that use chance take a seed, so a game
between seeded bots on a seeded deal replays exactly. Specs::

    random | human | greedy | pimc:iterations=N | ismcts:iterations=N,c=0.7 | ismcts-mo:...
    (any of the searching bots takes seconds=S instead of, or with, iterations=N; ismcts takes
    workers=W for root parallelism)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import IO, Any, Protocol

from omen_search.errors import NotationError, UsageError, shown
from omen_search.game import Game, all_games, game_of
from omen_search.limits import ITERATIONS, WORKERS, int_problem, seconds_problem
from omen_search.rng import MASK64, Rng, splitmix64
from omen_search._search import playout_returns
from omen_search.search import Limit, as_core, ismcts
from omen_search.state import State

BOT_KINDS = ("random", "human", "greedy", "pimc", "ismcts", "ismcts-mo")
_OPTIONS = {
    "random": {},
    "human": {},
    "greedy": {},
    "pimc": {"iterations": int, "seconds": float},
    "ismcts": {"iterations": int, "seconds": float, "c": float, "workers": int},
    "ismcts-mo": {"iterations": int, "seconds": float, "c": float, "workers": int},
}
_PROBLEMS: dict[str, Callable[[Any], str | None]] = {  # why an option's value is refused (None: it is not)
    "iterations": lambda v: int_problem(v, ITERATIONS),
    "seconds": seconds_problem,
    "workers": lambda v: int_problem(v, WORKERS),
    "c": lambda v: None if math.isfinite(v) and v >= 0 else f"must be a non-negative number, got {v}",
}


class Bot(Protocol):
    """Anything that picks a legal move for the player to move."""

    name: str

    def choose(self, state: Any) -> Any: ...


def game_for(game: Game | None, state: Any) -> Game:
    """``game`` if given, else the registered game that ``state``'s configuration sets up."""
    return game if game is not None else game_of(state.config)


class RandomBot:
    """Uniform over the legal moves, with the game's generator (so the core can replay it)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state: State) -> Any:
        moves = state.legal_moves()
        return moves[self.rng.below(len(moves))]


class HumanPlayer:
    """A person at a terminal: shows the legal moves and reads one, by number or in notation."""

    name = "human"

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None, game: Game | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.game = game

    def choose(self, state: Any) -> Any:
        game = game_for(self.game, state)
        moves = state.legal_moves()
        out = self.stdout
        assert moves, "choose: the game is over"
        print(f"  seat {state.current_player} to decide ({game.decision_name(state)}):", file=out)
        for i, m in enumerate(moves):
            print(f"    {i:3d}  {m}", file=out)
        while True:
            print("  your move> ", end="", file=out, flush=True)
            line = self.stdin.readline()
            if not line:
                raise UsageError("human player: input ended before the game did")
            line = line.strip()
            if line.isdigit() and int(line) < len(moves):
                return moves[int(line)]
            try:
                move = game.parse_move(line)
            except NotationError as exc:
                print(f"  {exc}", file=out)
                continue
            if move in moves:
                return move
            print(f"  {game.unknown_name(state, line) or f'{line!r} is not legal here'}", file=out)


class GreedyBot:
    """Plays the move whose result looks best by the game's one-ply ``evaluate`` (ties broken at random)."""

    name = "greedy"

    def __init__(self, seed: int = 0, game: Game | None = None):
        self.rng = Rng(seed)
        self.game = game

    def choose(self, state: Any) -> Any:
        core = as_core(state, self.game)
        game = game_for(self.game, core)
        player = core.current_player
        moves = core.legal_moves()
        ids = core.legal_move_ids()
        best: list[int] = []
        best_value = -math.inf
        for i, move_id in enumerate(ids):
            child = core.clone()
            child.apply_id(move_id)
            value = game.evaluate(child, player)
            if value > best_value + 1e-9:
                best, best_value = [i], value
            elif abs(value - best_value) <= 1e-9:
                best.append(i)
        return moves[best[self.rng.below(len(best))]]


class PIMCBot:
    """Flat Monte Carlo over determinisations (perfect-information Monte Carlo): each iteration
    deals the hidden cards again, tries the next root move in turn and plays randomly to the end;
    the move with the best mean return is played."""

    def __init__(self, seed: int = 0, iterations: int | None = 1000, seconds: float | None = None,
                 game: Game | None = None):
        self.limit = Limit(iterations=iterations, seconds=seconds)
        self.rng = Rng(seed)
        self.game = game
        self.name = f"pimc:iterations={iterations}" if seconds is None else f"pimc:seconds={seconds}"

    def choose(self, state: Any) -> Any:
        core = as_core(state, self.game)
        player = core.current_player
        moves = core.legal_moves()
        ids = core.legal_move_ids()
        if len(ids) == 1:
            return moves[0]
        wins = [0.0] * len(ids)
        tries = [0] * len(ids)
        deadline = time.perf_counter() + self.limit.seconds if self.limit.seconds else math.inf
        i = 0
        while (self.limit.iterations is None or i < self.limit.iterations) and time.perf_counter() < deadline:
            k = i % len(ids)
            world = core.determinized(player, self.rng.next64())
            world.apply_id(ids[k])
            wins[k] += playout_returns(world, self.rng.next64())[player]
            tries[k] += 1
            i += 1
        rates = [w / t if t else -1.0 for w, t in zip(wins, tries)]
        return moves[max(range(len(ids)), key=lambda j: (rates[j], -j))]


class ISMCTSBot:
    """SO-ISMCTS (or MO-ISMCTS with ``mo``) on the core; see :mod:`omen_search.search`."""

    def __init__(self, seed: int = 0, iterations: int | None = 1000, seconds: float | None = None,
                 c: float = 0.7, mo: bool = False, workers: int = 1, game: Game | None = None):
        self.game = game
        self.limit = Limit(iterations=iterations, seconds=seconds)
        self.c, self.mo, self.workers = c, mo, workers
        self.rng = Rng(seed)
        budget = f"iterations={iterations}" if seconds is None else f"seconds={seconds}"
        self.name = f"{'ismcts-mo' if mo else 'ismcts'}:{budget},c={c}"

    def choose(self, state: Any) -> Any:
        result = ismcts(as_core(state, self.game), self.limit, c=self.c, mo=self.mo, seed=self.rng.next64(),
                        workers=self.workers)
        return result.best


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded ``game_seed`` (independent streams)."""
    return splitmix64((game_seed ^ (0x5EED0000 + seat)) & MASK64)[1]


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=500,c=0.7"`` -> ``("ismcts", {"iterations": 500, "c": 0.7})``.

    Raises :class:`UsageError` naming the spec and the bad part."""
    if not isinstance(spec, str):
        raise UsageError(f"players: a player spec must be text, got {spec!r}")
    kind, _, rest = spec.strip().partition(":")
    automata = {g.automaton: g for g in all_games() if g.automaton}
    if kind in automata:
        game = automata[kind]
        own = [seat for seat in range(game.players) if seat not in game.deciding_seats]
        raise UsageError(f"players: {kind!r} is an automaton: it plays seat {', '.join(map(str, own))} of --game "
                         f"{game.name} by itself (give only the players of seat "
                         f"{', '.join(map(str, game.deciding_seats))} there)")
    if kind not in _OPTIONS:
        raise UsageError(f"players: unknown player {shown(spec)} (expected one of {', '.join(BOT_KINDS)})")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or key not in _OPTIONS[kind]:
            allowed = ", ".join(_OPTIONS[kind]) or "no options"
            raise UsageError(f"players: {shown(spec)}: unknown option {shown(part)} ({kind} takes {allowed})")
        try:
            options[key] = _OPTIONS[kind][key](value)
        except ValueError:
            raise UsageError(f"players: {shown(spec)}: {key} must be a number, got {shown(value)}") from None
        problem = _PROBLEMS[key](options[key])
        if problem:
            raise UsageError(f"players: {shown(spec)}: {key} {problem}")
    return kind, options


def split_players(text: str) -> list[str]:
    """Split ``--players`` at commas, keeping ``key=value`` parts with the spec before them:
    ``"ismcts:iterations=500,c=0.7,greedy"`` -> ``["ismcts:iterations=500,c=0.7", "greedy"]``."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if "=" in part and ":" not in part and specs:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def make_bot(spec: str, seed: int = 0, game: Game | None = None) -> Bot:
    """Build a bot from its spec string for ``game`` (None: the game of each state it is given);
    raises :class:`UsageError` for a bad spec."""
    kind, options = parse_spec(spec)
    if kind == "random":
        return RandomBot(seed)
    if kind == "human":
        return HumanPlayer(game=game)
    if kind == "greedy":
        return GreedyBot(seed, game)
    if "seconds" in options and "iterations" not in options:
        options["iterations"] = None
    if kind == "pimc":
        return PIMCBot(seed, game=game, **options)
    return ISMCTSBot(seed, mo=kind == "ismcts-mo", game=game, **options)
