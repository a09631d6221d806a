"""Players that choose moves: one interface, made from spec strings.

Every bot answers ``choose(state) -> move`` for the state's current player; the state may be either
engine's, or an observation (a dict, as the game's ``observe`` writes it), since the searching
bots only use what the player can see. A bot is made for a game (``make_bot(spec, seed, game)``);
without one it plays the game a state's ``config`` sets up. Bots that use chance take a seed, so a game
between seeded bots on a seeded deal replays exactly. Specs::

    random | first | human | greedy | pimc:iterations=N | ismcts:iterations=N,c=0.7 | ismcts-mo:...
    | omen:seconds=S
    (any of the searching bots takes seconds=S instead of, or with, iterations=N; ismcts takes
    workers=W for root parallelism, rollout=random|mast for its playout policy, reuse=0|1 for
    keeping its tree from one decision to the next (reuse=mast: only MAST's ratings, with
    rollout=mast), eval=none|learned (with cutoff=K plies)
    for ending playouts with the game's shipped learned evaluation (a game without one plays them
    out), and belief=B (with worlds=N) for weighing its deals by the other players' moves since its
    last decision, by the game's shipped model of play with its weights times B (0: off; a game
    without one, or whose core cannot deal_like, deals as before); omen is ismcts with the techniques that beat it at equal time (OMEN_DEFAULTS), each of
    which it takes as an option too; any bot but human takes table=random|first|greedy: it
    drafts, and that bot plays every other decision, e.g. ismcts:iterations=500,table=greedy)
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import IO, Any, Protocol

from omen_search.errors import NotationError, UsageError, shown
from omen_search.evaluation import EVALS, Evaluation, evaluation_for, shipped_evaluation
from omen_search.game import Game, all_games, game_of
from omen_search.limits import ITERATIONS, WORKERS, int_problem, seconds_problem
from omen_search.rng import MASK64, Rng, splitmix64
from omen_search._search import MAX_CUTOFF, MAX_WORLDS, playout_returns
from omen_search.search import DEFAULT_WORLDS, ROLLOUTS, Belief, Limit, Rollout, TreeKeeper, as_core, ismcts
from omen_search.state import State

SEARCHING_KINDS = ("pimc", "ismcts", "ismcts-mo", "omen")  # the kinds that search, on a game's core
BOT_KINDS = ("random", "first", "human", "greedy", *SEARCHING_KINDS)
SEARCH_DEFAULTS: dict[str, Any] = {"rollout": "random", "reuse": 0, "eval": "none", "belief": 0.0}  # ismcts's techniques
# omen: ismcts with what measured stronger at equal time (docs/strength.md, "At equal time")
OMEN_DEFAULTS: dict[str, Any] = {"rollout": "mast", "reuse": 1}
MAX_SHARPNESS = 100.0  # belief=B: the most the model of play's weights are multiplied by
TABLE_KINDS = ("random", "first", "greedy")  # the bots a drafter leaves the table games to (table=KIND)
DRAFT_DECISIONS = ("draft", "sdraft")  # the decisions (Game.decision_name) a bot with table=KIND makes itself


def _reuse(value: str) -> int | str:
    """reuse=0|1|mast: a number, or the word."""
    return int(value) if value.lstrip("+-").isdigit() else value


_SEARCH_OPTIONS: dict[str, Callable[[str], Any]] = {
    "iterations": int, "seconds": float, "c": float, "workers": int, "table": str, "rollout": str, "reuse": _reuse,
    "eval": str, "cutoff": int, "belief": float, "worlds": int}
_OPTIONS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {"table": str},
    "first": {"table": str},
    "human": {},
    "greedy": {"table": str},
    "pimc": {"iterations": int, "seconds": float, "table": str},
    "ismcts": _SEARCH_OPTIONS,
    "ismcts-mo": _SEARCH_OPTIONS,
    "omen": _SEARCH_OPTIONS,
}
_PROBLEMS: dict[str, Callable[[Any], str | None]] = {  # why an option's value is refused (None: it is not)
    "iterations": lambda v: int_problem(v, ITERATIONS),
    "seconds": seconds_problem,
    "workers": lambda v: int_problem(v, WORKERS),
    "c": lambda v: None if math.isfinite(v) and v >= 0 else f"must be a non-negative number, got {v}",
    "table": lambda v: None if v in TABLE_KINDS else f"must be one of {', '.join(TABLE_KINDS)}, got {shown(v)}",
    "rollout": lambda v: None if v in ROLLOUTS else f"must be one of {', '.join(ROLLOUTS)}, got {shown(v)}",
    "reuse": lambda v: None if v in (0, 1, "mast") else f"must be 0, 1 or mast, got {shown(v)}",
    "eval": lambda v: None if v in EVALS else f"must be one of {', '.join(EVALS)}, got {shown(v)}",
    "cutoff": lambda v: int_problem(v, (0, MAX_CUTOFF)),
    "belief": lambda v: None if 0 <= v <= MAX_SHARPNESS else f"must be a number from 0 to {MAX_SHARPNESS:g}, got {v}",
    "worlds": lambda v: int_problem(v, (1, MAX_WORLDS)),
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


class FirstBot:
    """Always the first legal move, in the engine's fixed generation order: the player who never
    thinks, a fixed floor for calibrating the review's accuracy against random play (issue 21)."""

    name = "first"

    def choose(self, state: State) -> Any:
        return state.legal_moves()[0]


class TakeBack(Exception):
    """A human asked to take back their last decision (``undo``). The player cannot change the game
    it is shown, so it raises this and whoever runs the game undoes the moves (:mod:`omen_search.terminal`)."""


class Quit(Exception):
    """A human asked to stop (``quit``); whoever runs the game saves it and stops."""


class InputEnded(UsageError):
    """The human's input ended (end of file, Ctrl-D) while a decision was waiting."""


Hint = Callable[[dict[str, Any]], tuple[str, list[str]]]
"""Advice for a human: given the deciding seat's *observation* (never the state, so it cannot use
what the seat does not see), the text to show and the moves it ranks, best first, in notation."""

COMMANDS = {
    "board": "show the board again, as you see it",
    "moves": "show your moves again",
    "hint": "the engine's three best moves for you, with win % and 95% interval (searched from what you see)",
    "undo": "take back your last decision, and the moves made since",
    "quit": "stop the game (it is saved)",
    "help": "this help",
}
WIDTH = 100  # a move list's lines are wrapped at this many characters


def group_moves(game: Game, moves: list[Any]) -> list[tuple[str, list[tuple[str, Any]]]]:
    """The legal moves in groups a person can scan: moves that share every step but the last
    (:meth:`Game.move_steps`: ``play Satyr`` then ``city0``, ``city1``) make one group, labelled by
    those steps, each move by its last step; a one-step move (``end``) is a group alone. Groups of a
    kind (the first step) come together, kinds in the order the game lists them, so an Offering's
    forty moves are a few lines."""
    groups: dict[tuple[str, ...], list[tuple[str, Any]]] = {}
    for move in moves:
        steps = tuple(game.move_steps(move)) or (str(move),)
        key, leaf = (steps[:-1], steps[-1]) if len(steps) > 1 else (steps, "")
        groups.setdefault(key, []).append((leaf, move))
    kinds = list(dict.fromkeys(key[0] for key in groups))
    ordered = sorted(groups.items(), key=lambda item: kinds.index(item[0][0]))  # stable: game order within a kind
    return [(" ".join(key), items) for key, items in ordered]


def numbered(groups: list[tuple[str, list[tuple[str, Any]]]]) -> list[Any]:
    """The moves in the order :func:`format_moves` numbers them (number ``i`` is item ``i - 1``)."""
    return [move for _, items in groups for _, move in items]


def format_moves(groups: list[tuple[str, list[tuple[str, Any]]]], indent: str = "    ") -> str:
    """The grouped moves as lines: ``play Satyr   [1] city0  [2] city1``, numbered from 1 down the list,
    wrapped at :data:`WIDTH` characters."""
    width = min(max(len(label) for label, _ in groups), 40)
    lines, n = [], 0
    for label, items in groups:
        line = f"{indent}{label:{width}}"
        for leaf, _ in items:
            n += 1
            entry = f"  [{n}]" + (f" {leaf}" if leaf else "")
            if len(line) + len(entry) > WIDTH and line.strip() != label:
                lines.append(line)
                line = indent + " " * width
            line += entry
        lines.append(line)
    return "\n".join(lines)


class HumanPlayer:
    """A person at a terminal. Before each decision it shows the board as the seat sees it (from its
    observation alone: :meth:`Game.describe_observation`) and the legal moves grouped and numbered
    (:func:`group_moves`), then reads a number, a move in notation or its steps in words
    (``play satyr city0``), or a command (:data:`COMMANDS`). ``hint`` gives advice from the
    observation (none: the command says it is not offered); ``undo`` and ``quit`` raise
    :class:`TakeBack` and :class:`Quit` for whoever runs the game; ``saves_to`` says where quitting
    saves, for the help. A decision with one legal move is made without asking."""

    name = "human"

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None, game: Game | None = None,
                 hint: Hint | None = None, saves_to: str | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.game = game
        self.hint = hint
        self.saves_to = saves_to

    def say(self, text: str) -> None:
        print(text, file=self.stdout)

    def choose(self, state: Any) -> Any:
        game = game_for(self.game, state)
        moves = state.legal_moves()
        assert moves, "choose: the game is over"
        seat = state.current_player
        if len(moves) == 1:  # nothing to decide: the log shows the move
            return moves[0]
        cards = getattr(state, "cards", None)
        observation = game.observe(state, seat)
        groups = group_moves(game, moves)
        listed = numbered(groups)
        by_words = {_words(" ".join(game.move_steps(m))): m for m in moves} | {_words(str(m)): m for m in moves}
        board = game.describe_observation(observation, cards)
        menu = f"  seat {seat}, your moves ({game.decision_name(state)}):\n{format_moves(groups)}"
        self.say(f"{board}\n{menu}")
        while True:
            print(f"  seat {seat}> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise InputEnded("human player: input ended before the game did")
            text = line.strip()
            command = text.casefold()
            if not text:
                continue
            if command in ("help", "?", "h"):
                self.say(self._help(game, listed))
            elif command in ("board", "b"):
                self.say(board)
            elif command in ("moves", "m"):
                self.say(menu)
            elif command == "hint":
                self._hint(observation, listed)
            elif command == "undo":
                raise TakeBack()
            elif command in ("quit", "exit", "q"):
                raise Quit()
            elif text.isdigit():
                if 1 <= int(text) <= len(listed):
                    return listed[int(text) - 1]
                self.say(f"  no move number {text}: the moves are numbered 1 to {len(listed)} (help: the commands)")
            elif _words(text) in by_words:
                return by_words[_words(text)]
            else:
                move = self._parsed(game, text, moves)
                if move is not None:
                    return move
                self.say(f"  {self._why_not(game, state, text)}")

    def _help(self, game: Game, listed: list[Any]) -> str:
        commands = "\n".join(f"    {name:6} {what}" for name, what in COMMANDS.items())
        saved = f" to {self.saves_to}" if self.saves_to else ""
        example = listed[-1]
        return (f"  Type a move's number (1 to {len(listed)}), the move as written ({example}), or its words "
                f"({' '.join(game.move_steps(example)).casefold()}); or a command:\n{commands}\n"
                f"  quit and Ctrl-C save the game{saved}; `omen-search replay FILE` checks a saved game.")

    def _hint(self, observation: dict[str, Any], listed: list[Any]) -> None:
        if self.hint is None:
            self.say("  hint: not offered here")
            return
        self.say("  thinking (from what you see only)...")
        text, ranked = self.hint(observation)
        number = {str(m): i for i, m in enumerate(listed, 1)}
        picks = ", ".join(f"[{number[m]}] {m}" for m in ranked[:3] if m in number)
        self.say(text + (f"\n  best first: {picks}" if picks else ""))

    @staticmethod
    def _parsed(game: Game, text: str, moves: list[Any]) -> Any:
        """The legal move ``text`` names in notation, or None."""
        try:
            move = game.parse_move(text)
        except NotationError:
            return None
        return move if move in moves else None

    @staticmethod
    def _why_not(game: Game, state: Any, text: str) -> str:
        """Why ``text`` is no move now: an unknown card (``play opal city0`` is read as
        ``play "opal" city0`` too), bad notation, or a move that is not one of the seat's now."""
        words = text.split()
        quoted = [f'{words[0]} "{" ".join(words[1:k])}" {" ".join(words[k:])}'.strip()
                  for k in range(len(words), 1, -1)] if '"' not in text and len(words) > 1 else []
        for candidate in (text, *quoted):
            unknown = game.unknown_name(state, candidate)
            if unknown:
                return unknown
        try:
            game.parse_move(text)
        except NotationError as exc:
            return f"{exc} (type a number, or help)"
        return f"{text!r} is not one of your moves now (type a number, or help)"


def _words(text: str) -> str:
    """Text compared the way a person means it: case, quotes and spacing aside."""
    return " ".join(text.replace('"', " ").casefold().split())


class GreedyBot:
    """Plays the move whose result looks best by the game's one-ply ``evaluate`` (ties broken at random)."""

    name = "greedy"

    def __init__(self, seed: int = 0, game: Game | None = None):
        self.rng = Rng(seed)
        self.game = game

    def choose(self, state: Any) -> Any:
        game = self.game if isinstance(state, dict) else game_for(self.game, state)
        if game is not None and "core" not in game.engines:  # a game only its reference engine plays
            player, moves = state.current_player, state.legal_moves()

            def child(i: int) -> Any:
                after = state.clone()
                after.apply_trusted(moves[i])
                return after
        else:
            core = as_core(state, self.game)
            game = game_for(self.game, core)
            player, moves, ids = core.current_player, core.legal_moves(), core.legal_move_ids()

            def child(i: int) -> Any:
                after = core.clone()
                after.apply_id(ids[i])
                return after
        best: list[int] = []
        best_value = -math.inf
        for i in range(len(moves)):
            value = game.evaluate(child(i), player)
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
    """SO-ISMCTS (or MO-ISMCTS with ``mo``) on the core; see :mod:`omen_search.search`. ``rollout``
    picks the playout policy; ``reuse`` keeps the tree from one of its decisions to its next in the
    same game (:class:`~omen_search.search.TreeKeeper`; ``"mast"``: only the MAST ratings, with
    ``rollout="mast"``); ``eval="learned"`` ends the playouts with
    the game's shipped evaluation (:mod:`omen_search.evaluation`) after ``cutoff`` plies (None: the
    file's), or plays them out in a game that has none; ``belief`` > 0 weighs its determinisations
    by the other players' moves since its last decision over ``worlds`` deals
    (:class:`~omen_search.search.Belief`, with the game's shipped model of play, its weights times
    ``belief``; none in a game without one)."""

    def __init__(self, seed: int = 0, iterations: int | None = 1000, seconds: float | None = None,
                 c: float = 0.7, mo: bool = False, workers: int = 1, game: Game | None = None,
                 rollout: Rollout = "random", reuse: int | str = 0, eval: str = "none", cutoff: int | None = None,
                 belief: float = 0.0, worlds: int = DEFAULT_WORLDS, kind: str | None = None):
        if reuse == "mast" and rollout != "mast":
            raise UsageError(f"reuse: mast keeps MAST's ratings, so it needs rollout=mast, not {rollout}")
        self.game = game
        self.limit = Limit(iterations=iterations, seconds=seconds)
        self.c, self.mo, self.workers, self.rollout, self.reuse = c, mo, workers, rollout, reuse
        self.eval, self.cutoff, self.belief, self.worlds = eval, cutoff, belief, worlds
        # with reuse or belief: the searches kept (kept_for), from the start for a bot of one game
        self.keeper = self.new_keeper(game) if game is not None and (reuse or belief) else None
        self.keeper_game = game  # the game they are of
        self.rng = Rng(seed)
        budget = f"iterations={iterations}" if seconds is None else f"seconds={seconds}"
        usual = {**SEARCH_DEFAULTS, **(OMEN_DEFAULTS if kind == "omen" else {})}
        extras = "".join(f",{k}={v}" for k, v in (("rollout", rollout), ("reuse", reuse), ("eval", eval),
                                                  ("belief", belief)) if v != usual[k])
        extras += "".join(f",{k}={v}" for k, v in (("cutoff", cutoff), ("worlds", worlds if belief else None))
                          if v is not None)
        self.name = f"{kind or ('ismcts-mo' if mo else 'ismcts')}:{budget},c={c}{extras}"

    def kept_for(self, core: Any) -> TreeKeeper:
        """The keeper of the bot's searches (with reuse or belief) for the game of ``core``: a new
        one for a game other than the last one's."""
        game = game_for(self.game, core)
        if self.keeper is None or self.keeper_game is not game:
            self.keeper, self.keeper_game = self.new_keeper(game), game
        return self.keeper

    def new_keeper(self, game: Game) -> TreeKeeper:
        """The bot's searches for a game of ``game``, kept from decision to decision."""
        model = shipped_evaluation(game, "policy") if self.belief else None
        belief = None if model is None else Belief(tuple(self.belief * w for w in model.weights), self.worlds)
        return TreeKeeper(c=self.c, mo=self.mo, workers=self.workers, rollout=self.rollout,
                          evaluation=self.evaluation_of(game), reuse=self.reuse == 1, ratings=self.reuse == "mast",
                          belief=belief)

    def evaluation(self, core: Any) -> Evaluation | None:
        """The learned evaluation the bot searches ``core`` with (None: playouts to the end)."""
        return self.evaluation_of(game_for(self.game, core))

    def evaluation_of(self, game: Game) -> Evaluation | None:
        """The learned evaluation the bot searches ``game`` with (None: playouts to the end)."""
        return evaluation_for(self.eval, game, self.cutoff)

    def choose(self, state: Any) -> Any:
        core, seed = as_core(state, self.game), self.rng.next64()
        if self.reuse or self.belief:
            return self.kept_for(core).search(core, self.limit, seed).best
        return ismcts(core, self.limit, c=self.c, mo=self.mo, seed=seed, workers=self.workers,
                      rollout=self.rollout, evaluation=self.evaluation(core)).best


class Drafter:
    """A bot for the draft and another for the rest (``table=KIND``): the draft's decisions
    (:data:`DRAFT_DECISIONS`) are the drafter's, every other the table bot's. It measures a draft
    alone: ISMCTS drafting against random drafting with the same table play (docs/strength.md)."""

    def __init__(self, drafter: Bot, table: Bot, table_kind: str, game: Game | None = None):
        self.drafter, self.table, self.game = drafter, table, game
        self.name = f"{drafter.name},table={table_kind}"

    def choose(self, state: Any) -> Any:
        seen = as_core(state, self.game) if isinstance(state, dict) else state
        drafting = game_for(self.game, seen).decision_name(seen) in DRAFT_DECISIONS
        return (self.drafter if drafting else self.table).choose(state)


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
    if "table" in options:
        table_kind = options.pop("table")
        drafter = _made(kind, options, seed, game)
        return Drafter(drafter, _made(table_kind, {}, splitmix64(seed ^ 0x7AB1E)[1], game), table_kind, game)
    return _made(kind, options, seed, game)


def _made(kind: str, options: dict[str, Any], seed: int, game: Game | None) -> Bot:
    """The bot of a parsed spec."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "first":
        return FirstBot()
    if kind == "human":
        return HumanPlayer(game=game)
    if kind == "greedy":
        return GreedyBot(seed, game)
    if "seconds" in options and "iterations" not in options:
        options["iterations"] = None
    if kind == "pimc":
        return PIMCBot(seed, game=game, **options)
    if kind == "omen":
        return ISMCTSBot(seed, game=game, kind=kind, **{**OMEN_DEFAULTS, **options})
    return ISMCTSBot(seed, mo=kind == "ismcts-mo", game=game, **options)
