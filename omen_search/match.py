"""AI-vs-AI matches: seat-swapped pairs on the same deal, results written as they finish.

Game ``i`` of a match is fixed by the match seed and ``i`` alone: it is game ``i % 2`` of pair
``i // 2``, whose deal (the game seed and which god sits in seat 0) comes from the match seed and
the pair; bot A sits in seat 0 in the even game and in seat 1 in the odd one, so both bots play
both sides of every deal. Each bot's seed comes from the match seed, the game and its seat.

Results go to a JSON Lines file, one line per game, written and flushed the moment the game
finishes; the first line names the match. A kill loses only the games in play. ``resume=True``
reads the file back, drops a line cut short by a kill, and plays only the games that are missing,
so a killed run ends with the totals an uninterrupted run would have had. Each game is a task of
its own on a backend: this process (one worker), a local process pool (whose workers end with it,
even when it is killed), or Ray tasks (``pip install "omen-search[ray]"``). Games are handed out a
few at a time (two per local worker, ``workers`` Ray tasks), so that no worker waits and a decided
SPRT stops soon.

A solo match (``level`` set) pits bot A against the Corrupted Heir automaton (bot B is
:data:`~omen_search.bots.CORRUPTED_HEIR`): A always sits in seat 0, so there is nothing to swap and
every game has a deal of its own; the totals are A's win rate against the automaton.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.bots import make_bot, parse_spec
from omen_search.games.heir.engines import new_game
from omen_search.errors import FormatError, RecordError, UsageError
from omen_search.files import check_output
from omen_search.games.heir.cards import GODS, CardSet, load_cards
from omen_search.games.heir.rules import DEFAULT_MAX_TURNS, LEVELS, Config
from omen_search.jsonio import parse_json
from omen_search.limits import GAMES, RAY_TASKS, TURNS, WORKERS, check_int
from omen_search.records import make_record, write_record
from omen_search.rng import MASK64, splitmix64
from omen_search.stats import Sprt, elo_interval, los, pentanomial_sample, trinomial_sample, wilson

MATCH_FORMAT = "omen-match/1"
CORRUPTED_HEIR = "corrupted-heir"  # heir-solo's automaton, as BOT_B of a solo match
BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class MatchSetup:
    """Everything that decides a match's games (the same setup and index give the same game)."""

    a: str
    b: str
    seed: int = 1
    cards: str | None = None  # card file; None is the built-in set
    ablate: tuple[str, ...] = ()  # units whose copies are taken out of the deck
    emissary: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    track_cards: bool = False  # note the units each seat played and drew (for the balance report)
    records: str | None = None  # folder for one game record per game
    level: str | None = None  # the Corrupted Heir's level: a solo match (b is the automaton)

    @property
    def solo(self) -> bool:
        return self.level is not None

    def identity(self) -> dict[str, Any]:
        """What a results file must agree on to be resumed (``level`` only for a solo match, so the
        files of two-player matches keep their first line)."""
        identity = {"a": self.a, "b": self.b, "seed": self.seed, "cards": card_set(self.cards, self.ablate).sha256,
                    "ablate": list(self.ablate), "emissary": self.emissary, "max_turns": self.max_turns,
                    "track_cards": self.track_cards}
        return {**identity, "level": self.level} if self.solo else identity


@lru_cache(maxsize=16)
def card_set(path: str | None, ablate: tuple[str, ...] = ()) -> CardSet:
    """The card set of a match, loaded once per process."""
    cards = load_cards(path)
    for name in ablate:
        cards = cards.without(name)
    return cards


def deal(seed: int, pair: int) -> tuple[int, tuple[str, str]]:
    """The game seed and the gods of seats 0 and 1 for a pair of a match."""
    state, value = splitmix64((seed * 0x9E3779B97F4A7C15 + pair) & MASK64)
    _, bits = splitmix64(state)
    gods = GODS if bits & 1 == 0 else (GODS[1], GODS[0])
    return value, gods


def game_bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot in ``seat`` in game ``index`` of a match seeded ``seed``."""
    return splitmix64((seed ^ (index << 2 | seat) * 0xD1B54A32D192ED03) & MASK64)[1]


def play_game(setup: MatchSetup, index: int) -> dict[str, Any]:
    """Play game ``index`` of the match on the core; returns its result line."""
    pair, a_seat = (index, 0) if setup.solo else divmod(index, 2)
    game_seed, gods = deal(setup.seed, pair)
    specs = [setup.a, setup.b] if a_seat == 0 else [setup.b, setup.a]
    bots = [make_bot(spec, game_bot_seed(setup.seed, index, seat)) if spec != CORRUPTED_HEIR else None
            for seat, spec in enumerate(specs)]  # the automaton moves inside the rules
    cards = card_set(setup.cards, setup.ablate)
    config = Config(gods=gods, emissary=setup.emissary, max_turns=setup.max_turns, level=setup.level)
    state = new_game("core", seed=game_seed, cards=cards, config=config)
    started = time.perf_counter()
    played: list[set[str]] = [set(), set()]
    hands = [list(h) for h in state.hands] if setup.track_cards else []
    # the opening hand counts as drawn
    drawn = [{cards.units[t].name for t, n in enumerate(hand) if n} for hand in hands] or [set(), set()]
    while not state.is_terminal():
        seat = state.current_player
        bot = bots[seat]
        assert bot is not None, "the Corrupted Heir never has a decision to make"
        move = bot.choose(state)
        state.apply(move)
        if setup.track_cards:
            if move.verb == "play":
                played[seat].add(move.card)
            for p in (0, 1):
                now = list(state.hands[p])
                drawn[p].update(cards.units[t].name for t, n in enumerate(now) if n > hands[p][t])
                hands[p] = now
    winner = state.winner()
    line: dict[str, Any] = {
        "index": index, "pair": pair, "game_seed": game_seed, "gods": list(gods), "a_seat": a_seat,
        "players": specs, "winner": winner, "result": 0.5 if winner is None else float(winner == a_seat),
        "scores": list(state.scores()), "turns": state.turn, "plies": state.ply,
        "seconds": round(time.perf_counter() - started, 3),
    }
    if setup.track_cards:
        line["played"] = [sorted(s) for s in played]
        line["drawn"] = [sorted(s) for s in drawn]
    if setup.records:
        write_record(Path(setup.records) / f"game-{index:06d}.json", make_record(state, specs), "records")
    return line


# ------------------------------------------------------------------------------------- results


@dataclass
class Tally:
    """Running totals of finished games from A's side. Adding a game costs the same however many
    came before, so a long match can show its standing and check its SPRT after every game."""

    a_wins: int = 0
    b_wins: int = 0
    ties: int = 0
    seat0_wins: int = 0
    plies: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)  # finished pairs by A's points
    halves: dict[int, float] = field(default_factory=dict)  # pair -> A's result, until its other game ends

    @property
    def games(self) -> int:
        return self.a_wins + self.b_wins + self.ties

    def add(self, line: dict[str, Any]) -> None:
        """Count one result line."""
        result = line["result"]
        self.a_wins += result == 1.0
        self.b_wins += result == 0.0
        self.ties += result == 0.5
        self.seat0_wins += line["winner"] == 0
        self.plies += line["plies"]
        other = self.halves.pop(line["pair"], None)
        if other is None:
            self.halves[line["pair"]] = result
        else:
            self.pentanomial[round(2 * (other + result))] += 1


@dataclass(frozen=True)
class MatchResult:
    """Totals of a match from A's side, with the statistics a tester reads."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    ties: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    los: float
    pentanomial: list[int]
    seat0_wins: int
    seat0_win_rate: float
    seat0_low: float
    seat0_high: float
    mean_plies: float
    sprt: dict[str, Any] | None = None
    stopped_early: bool = False
    level: str | None = None  # a solo match against the Corrupted Heir at this level

    @classmethod
    def from_lines(cls, a: str, b: str, lines: Iterable[dict[str, Any]], sprt: Sprt | None = None,
                   stopped_early: bool = False, level: str | None = None) -> MatchResult:
        """Totals of finished games (result lines, in any order)."""
        tally = Tally()
        for line in lines:
            tally.add(line)
        return cls.from_tally(a, b, tally, sprt, stopped_early, level)

    @classmethod
    def from_tally(cls, a: str, b: str, tally: Tally, sprt: Sprt | None = None, stopped_early: bool = False,
                   level: str | None = None) -> MatchResult:
        """Totals and statistics of the games counted in ``tally``."""
        n, penta = tally.games, list(tally.pentanomial)
        score = (tally.a_wins + 0.5 * tally.ties) / n if n else 0.5
        sample = (pentanomial_sample(penta) if sum(penta) >= 2
                  else trinomial_sample(tally.a_wins, tally.b_wins, tally.ties))
        elo, low, high = elo_interval(score, n, sample)
        seat0_low, seat0_high = wilson(tally.seat0_wins, n)
        verdict = None
        if sprt is not None:
            llr = sprt.llr(sample)
            verdict = {**asdict(sprt), "llr": llr, "lower": sprt.lower, "upper": sprt.upper,
                       "verdict": sprt.verdict(llr)}
        return cls(a=a, b=b, games=n, a_wins=tally.a_wins, b_wins=tally.b_wins, ties=tally.ties, score=score,
                   elo=elo, elo_low=low, elo_high=high, los=los(tally.a_wins, tally.b_wins), pentanomial=penta,
                   seat0_wins=tally.seat0_wins, seat0_win_rate=tally.seat0_wins / n if n else 0.0,
                   seat0_low=seat0_low, seat0_high=seat0_high, mean_plies=tally.plies / n if n else 0.0,
                   sprt=verdict, stopped_early=stopped_early, level=level)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (every number finite)."""
        return asdict(self)

    def summary(self) -> str:
        """The result in a few lines, as the CLI prints it."""
        if self.level is not None:
            return "\n".join([
                f"{self.a} vs the Corrupted Heir ({self.level}): {self.games} games",
                f"  A wins {self.a_wins} ({100 * self.seat0_win_rate:.1f}%, 95% {100 * self.seat0_low:.1f} .. "
                f"{100 * self.seat0_high:.1f}); the Heir wins {self.b_wins}; {self.mean_plies:.0f} plies a game",
                f"  Elo against the automaton {self._elo()}",
            ] + self._sprt_lines())
        lines = [
            f"{self.a} vs {self.b}: {self.games} games",
            f"  A wins {self.a_wins}, B wins {self.b_wins}, ties {self.ties}; score {100 * self.score:.1f}%",
            f"  Elo {self._elo()}, LOS {100 * self.los:.1f}%",
            f"  pairs (A's points 0, ½, 1, 1½, 2): {' '.join(map(str, self.pentanomial))}",
            f"  seat 0 wins {100 * self.seat0_win_rate:.1f}% (95% {100 * self.seat0_low:.1f} .. "
            f"{100 * self.seat0_high:.1f}); {self.mean_plies:.0f} plies a game",
        ]
        return "\n".join(lines + self._sprt_lines())

    def _sprt_lines(self) -> list[str]:
        if not self.sprt:
            return []
        s = self.sprt
        return [f"  SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} beta={s['beta']:g}: "
                f"LLR {s['llr']:.2f} ({s['lower']:.2f}, {s['upper']:.2f}) -> {s['verdict']}"
                + (" (stopped early)" if self.stopped_early else "")]

    def _elo(self) -> str:
        """The Elo difference and its interval, in the one format of the summary, the progress bar
        and the progress lines."""
        return f"{self.elo:+.1f} (95% {self.elo_low:+.1f} .. {self.elo_high:+.1f})"

    def standing(self) -> str:
        """A's wins, losses and ties, score and Elo so far (the progress bar shows it)."""
        return (f"{self.a_wins}-{self.b_wins}-{self.ties}, score {100 * self.score:.1f}%, Elo {self._elo()}"
                + (f", LLR {self.sprt['llr']:.2f}" if self.sprt else ""))

    def line(self) -> str:
        """One progress line."""
        return f"{self.games} games: {self.standing()}"


# ------------------------------------------------------------------------------- results file


def read_results(path: str | Path, identity: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The finished games in a results file, checking its first line against ``identity``.

    A last line without its newline (the run was killed while writing it) is cut off the file.
    Raises :class:`RecordError` naming the file and line for anything else that is wrong."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the results: {exc.strerror or exc}") from None
    except ValueError as exc:  # a path with a NUL byte
        raise RecordError(f"{str(path)!r}: cannot read the results: {exc}") from None
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(complete))
    rows = complete.decode("utf-8", errors="replace").splitlines()
    if not rows:
        return []
    try:
        header = parse_json(rows[0])
    except FormatError:
        raise RecordError(f"{path}:1: not a results file (the first line is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != MATCH_FORMAT:
        raise RecordError(f"{path}:1: not a results file (expected format {MATCH_FORMAT!r})")
    if identity is not None:
        for key, value in identity.items():
            if header.get("match", {}).get(key) != value:
                raise RecordError(f"{path}:1: the file is of another match: {key} is "
                                  f"{header.get('match', {}).get(key)!r} there, {value!r} here")
    games: dict[int, dict[str, Any]] = {}
    for number, row in enumerate(rows[1:], start=2):
        try:
            game = parse_json(row)
        except FormatError as exc:
            raise RecordError(f"{path}:{number}: {exc}") from None
        if (not isinstance(game, dict) or not isinstance(game.get("index"), int)
                or game.get("result") not in (0.0, 0.5, 1.0) or not isinstance(game.get("pair"), int)
                or game.get("winner") not in (0, 1, None) or not isinstance(game.get("plies"), int)):
            raise RecordError(f"{path}:{number}: not a game result line")
        games[game["index"]] = game
    return list(games.values())


class _Writer:
    """Appends result lines and flushes each, so a kill loses at most the line being written."""

    def __init__(self, path: str | Path | None, header: dict[str, Any], new: bool):
        self.file = None
        if path is None:
            return
        try:
            self.file = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot write the results: {exc.strerror or exc}") from None
        if new:
            self.write(header)

    def write(self, line: dict[str, Any]) -> None:
        if self.file is not None:
            self.file.write(json.dumps(line) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


# ------------------------------------------------------------------------------------ backends


Lines = Generator[dict[str, Any], None, None]  # the games' result lines, as the games end
Runner = Callable[[MatchSetup, list[int]], Lines]
PR_SET_PDEATHSIG = 1  # Linux prctl(2)


def _run_here(setup: MatchSetup, todo: list[int]) -> Lines:
    for index in todo:
        yield play_game(setup, index)


def _in_flight(todo: list[int], window: int, start: Callable[[int], Any],
               wait_any: Callable[[list[Any]], tuple[list[Any], list[Any]]],
               cancel: Callable[[list[Any]], object]) -> Iterator[Any]:
    """Keep ``window`` games going: ``start(index)`` hands game ``index`` out, ``wait_any(going)``
    waits for some to end (``(ended, going)``); yields each ended one, after handing out the next.
    Closing the generator cancels those not ended."""
    queue = iter(todo)
    going = [start(i) for i in itertools.islice(queue, window)]
    try:
        while going:
            ended, going = wait_any(going)
            going += [start(i) for i in itertools.islice(queue, len(ended))]
            yield from ended
    finally:
        cancel(going)


def _die_with_parent(parent: int) -> None:
    """Process-pool initializer: the worker ends when the match process does, even by SIGKILL (left
    behind, it would wait on its pipe forever and hold the caller's stdout open). Linux kills it
    then (prctl PR_SET_PDEATHSIG); elsewhere a thread watches for the parent to go."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _run_pool(workers: int) -> Runner:
    def run(setup: MatchSetup, todo: list[int]) -> Lines:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        def wait_any(going: list[Any]) -> tuple[list[Any], list[Any]]:
            ended, rest = wait(going, return_when=FIRST_COMPLETED)
            return list(ended), list(rest)

        with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            for future in _in_flight(todo, 2 * workers, lambda i: pool.submit(play_game, setup, i), wait_any,
                                     lambda going: [f.cancel() for f in going]):
                yield future.result()
    return run


def _run_ray(address: str | None, workers: int) -> Runner:
    try:
        import ray
    except ImportError:
        raise UsageError('--backend ray: Ray is not installed (pip install "omen-search[ray]")') from None

    def failed(exc: Exception, doing: str) -> UsageError:
        reason = (str(exc).strip().splitlines() or [""])[0]
        return UsageError(f"--backend ray: {doing}: {type(exc).__name__}: {reason}")

    def run(setup: MatchSetup, todo: list[int]) -> Lines:
        if not ray.is_initialized():
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except Exception as exc:  # Ray's own errors are many; each is the user's environment
                doing = "cannot start Ray" if address is None else f"cannot join Ray at {address!r}"
                raise failed(exc, doing) from None
        task = ray.remote(play_game)

        def wait_any(going: list[Any]) -> tuple[list[Any], list[Any]]:
            return ray.wait(going, num_returns=1)

        for ref in _in_flight(todo, workers, lambda i: task.remote(setup, i), wait_any,
                              lambda going: [ray.cancel(r) for r in going]):
            try:
                yield ray.get(ref)
            except ray.exceptions.RayTaskError as exc:  # the game itself raised: as in this process
                raise exc.cause from None
            except ray.exceptions.RayError as exc:
                raise failed(exc, "a game's task failed") from None
    return run


# --------------------------------------------------------------------------------------- match


@dataclass
class MatchOptions:
    """How a match runs (none of it changes a game's result)."""

    games: int = 100
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    out: str | None = None
    resume: bool = False
    sprt: Sprt | None = None
    progress: bool = False
    report_every: int = 0
    lines: list[dict[str, Any]] = field(default_factory=list)


def _check(setup: MatchSetup, options: MatchOptions) -> None:
    if setup.solo:
        if setup.level not in LEVELS:
            raise UsageError(f"level: must be one of {', '.join(LEVELS)}, got {setup.level!r}")
        if setup.b != CORRUPTED_HEIR:
            raise UsageError(f"bot_b: a solo match is against {CORRUPTED_HEIR!r}, got {setup.b!r}")
        if setup.emissary:
            raise UsageError("emissary: the Emissary variant is for two players, not the solo game")
    for name, spec in (("bot_a", setup.a), ("bot_b", setup.b)):
        if spec == CORRUPTED_HEIR:
            if name == "bot_a" or not setup.solo:
                raise UsageError(f"{name}: {CORRUPTED_HEIR!r} plays only as BOT_B of a solo match (--game heir-solo)")
            continue
        kind, _ = parse_spec(spec)
        if kind == "human":
            raise UsageError(f"{name}: a match is between bots; 'human' cannot play one")
    check_int(options.games, "games", GAMES)
    check_int(options.workers, "workers", RAY_TASKS if options.backend == "ray" else WORKERS)
    check_int(setup.max_turns, "max_turns", TURNS)
    if options.backend not in BACKENDS:
        raise UsageError(f"backend: unknown backend {options.backend!r} (expected one of {', '.join(BACKENDS)})")
    if not isinstance(setup.seed, int) or not 0 <= setup.seed <= MASK64:
        raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {setup.seed!r}")
    if options.out is not None and check_output(options.out, "out").exists() and not options.resume:
        raise UsageError(f"out: {options.out} exists; resume it (--resume) or choose another file")
    if setup.records is not None:
        if "\x00" in setup.records:
            raise UsageError(f"records: cannot make the folder {setup.records!r}: a path cannot hold a NUL byte")
        try:
            os.makedirs(setup.records, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"records: cannot make the folder {setup.records}: {exc.strerror or exc}") from None
    card_set(setup.cards, setup.ablate)  # a bad card file or ablated name fails here, not in a worker


def run_match(setup: MatchSetup, options: MatchOptions) -> MatchResult:
    """Play (or finish) a match; every finished game goes to ``options.out`` as it ends and to
    ``options.lines``."""
    _check(setup, options)
    header = {"format": MATCH_FORMAT, "match": setup.identity()}
    done: dict[int, dict[str, Any]] = {}
    out = options.out
    exists = out is not None and Path(out).exists()
    if out is not None and exists:
        done = {g["index"]: g for g in read_results(out, setup.identity()) if g["index"] < options.games}
        if not Path(out).read_bytes():
            exists = False
    tally = Tally()
    for line in done.values():
        tally.add(line)

    def result(stopped: bool = False) -> MatchResult:
        return MatchResult.from_tally(setup.a, setup.b, tally, options.sprt, stopped, setup.level)

    def decided() -> bool:
        verdict = result().sprt if options.sprt is not None and tally.games else None
        return verdict is not None and verdict["verdict"] != "continue"

    todo = [] if decided() else [i for i in range(options.games) if i not in done]
    if options.backend == "ray":
        runner = _run_ray(options.address, options.workers)
    else:
        runner = _run_here if options.workers == 1 else _run_pool(options.workers)
    writer = _Writer(out, header, new=not exists)
    from tqdm import tqdm

    bar = tqdm(total=options.games, initial=tally.games, desc=f"{setup.a} vs {setup.b}", unit="game",
               file=sys.stderr, disable=not options.progress, smoothing=0.05)
    if tally.games:
        bar.set_postfix_str(result().standing(), refresh=False)
    results = runner(setup, todo) if todo else None
    try:
        for line in results or ():
            writer.write(line)
            tally.add(line)
            options.lines.append(line)
            bar.set_postfix_str(result().standing(), refresh=False)
            bar.update(1)
            if options.report_every and tally.games % options.report_every == 0:
                bar.write(result().line(), file=sys.stderr)
            if decided():
                break
    finally:
        if results is not None:
            results.close()  # hands out no more games, and ends the workers
        bar.close()
        writer.close()
    return result(decided() and tally.games < options.games)


def play_match(bot_a: str, bot_b: str, games: int = 100, seed: int = 1, workers: int = 1,
               backend: str = "local", address: str | None = None, out: str | None = None,
               resume: bool = False, sprt: Sprt | str | None = None, records: str | None = None,
               cards: str | None = None, emissary: bool = False, max_turns: int = DEFAULT_MAX_TURNS,
               progress: bool = False, level: str | None = None) -> MatchResult:
    """Play a seat-swapped match between two bot specs (see :mod:`omen_search.bots`) and return
    the totals from A's side; with ``level``, a solo match of ``bot_a`` against the Corrupted Heir
    (``bot_b`` must be ``"corrupted-heir"``). Raises :class:`UsageError` for a bad option."""
    setup = MatchSetup(a=bot_a, b=bot_b, seed=seed, cards=cards, emissary=emissary, max_turns=max_turns,
                       records=records, level=level)
    if isinstance(sprt, str):
        sprt = Sprt.parse(sprt)
    options = MatchOptions(games=games, workers=workers, backend=backend, address=address, out=out,
                           resume=resume, sprt=sprt, progress=progress)
    return run_match(setup, options)

