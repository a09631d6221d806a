"""AI-vs-AI matches: seat-swapped pairs on the same deal, results written as they finish.

Game ``i`` of a match is fixed by the match seed and ``i`` alone: it is game ``i % 2`` of pair
``i // 2``, whose deal (the game seed and which god sits in seat 0) comes from the match seed and
the pair; bot A sits in seat 0 in the even game and in seat 1 in the odd one, so both bots play
both sides of every deal. Each bot's seed comes from the match seed, the game and its seat.

Results go to a JSON Lines file, one line per finished game, flushed as it finishes; the first
line names the match. ``resume=True`` reads the file back, drops a line cut short by a kill, and
plays only the games that are missing, so a killed run ends with the totals an uninterrupted run
would have had. Games run in batches (whole pairs) on a backend: in this process (one worker), a
local process pool, or Ray tasks (``pip install "omen-search[ray]"``).

A solo match (``level`` set) pits bot A against the Corrupted Heir automaton (bot B is
:data:`~omen_search.bots.CORRUPTED_HEIR`): A always sits in seat 0, so there is nothing to swap and
every game has a deal of its own; the totals are A's win rate against the automaton.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.bots import CORRUPTED_HEIR, make_bot, parse_spec
from omen_search.cards import GODS, CardSet, load_cards
from omen_search.engines import new_game
from omen_search.errors import RecordError, UsageError
from omen_search.records import make_record, write_record
from omen_search.reference.state import DEFAULT_MAX_TURNS, LEVELS, Config
from omen_search.rng import MASK64, splitmix64
from omen_search.stats import Sprt, elo_interval, los, pentanomial_sample, trinomial_sample, wilson

MATCH_FORMAT = "omen-match/1"
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
        write_record(Path(setup.records) / f"game-{index:06d}.json", make_record(state, specs))
    return line


def play_batch(setup: MatchSetup, indices: list[int]) -> list[dict[str, Any]]:
    """The unit of work of every backend: some games of the match, in order."""
    return [play_game(setup, i) for i in indices]


# ------------------------------------------------------------------------------------- results


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
        lines = sorted(lines, key=lambda g: g["index"])
        n = len(lines)
        a_wins = sum(1 for g in lines if g["result"] == 1.0)
        b_wins = sum(1 for g in lines if g["result"] == 0.0)
        ties = n - a_wins - b_wins
        score = (a_wins + 0.5 * ties) / n if n else 0.5
        by_pair: dict[int, list[float]] = {}
        for g in lines:
            by_pair.setdefault(g["pair"], []).append(g["result"])
        penta = [0] * 5
        for results in by_pair.values():
            if len(results) == 2:
                penta[round(2 * sum(results))] += 1
        sample = pentanomial_sample(penta) if sum(penta) >= 2 else trinomial_sample(a_wins, b_wins, ties)
        elo, low, high = elo_interval(score, n, sample)
        seat0 = sum(1 for g in lines if g["winner"] == 0)
        seat0_low, seat0_high = wilson(seat0, n)
        verdict = None
        if sprt is not None:
            llr = sprt.llr(sample)
            verdict = {**asdict(sprt), "llr": llr, "lower": sprt.lower, "upper": sprt.upper,
                       "verdict": sprt.verdict(llr)}
        return cls(a=a, b=b, games=n, a_wins=a_wins, b_wins=b_wins, ties=ties, score=score, elo=elo,
                   elo_low=low, elo_high=high, los=los(a_wins, b_wins), pentanomial=penta, seat0_wins=seat0,
                   seat0_win_rate=seat0 / n if n else 0.0, seat0_low=seat0_low, seat0_high=seat0_high,
                   mean_plies=sum(g["plies"] for g in lines) / n if n else 0.0, sprt=verdict,
                   stopped_early=stopped_early, level=level)

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
                f"  Elo against the automaton {self.elo:+.1f} (95% {self.elo_low:+.1f} .. {self.elo_high:+.1f})",
            ] + self._sprt_lines())
        lines = [
            f"{self.a} vs {self.b}: {self.games} games",
            f"  A wins {self.a_wins}, B wins {self.b_wins}, ties {self.ties}; score {100 * self.score:.1f}%",
            f"  Elo {self.elo:+.1f} (95% {self.elo_low:+.1f} .. {self.elo_high:+.1f}), LOS {100 * self.los:.1f}%",
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

    def line(self) -> str:
        """One progress line."""
        return (f"{self.games} games: {self.a_wins}-{self.b_wins}-{self.ties}, score {100 * self.score:.1f}%, "
                f"Elo {self.elo:+.0f} [{self.elo_low:+.0f}, {self.elo_high:+.0f}]"
                + (f", LLR {self.sprt['llr']:.2f}" if self.sprt else ""))


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
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(complete))
    rows = complete.decode("utf-8", errors="replace").splitlines()
    if not rows:
        return []
    try:
        header = json.loads(rows[0])
    except json.JSONDecodeError:
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
            game = json.loads(row)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{number}: not JSON ({exc.msg})") from None
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


Batch = list[int]
Runner = Callable[[MatchSetup, list[Batch]], Iterator[list[dict[str, Any]]]]


def _run_here(setup: MatchSetup, batches: list[Batch]) -> Iterator[list[dict[str, Any]]]:
    for batch in batches:
        yield play_batch(setup, batch)


def _run_pool(workers: int) -> Runner:
    def run(setup: MatchSetup, batches: list[Batch]) -> Iterator[list[dict[str, Any]]]:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending = {pool.submit(play_batch, setup, b) for b in batches}
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield future.result()
            finally:
                for future in pending:
                    future.cancel()
    return run


def _run_ray(address: str | None) -> Runner:
    try:
        import ray
    except ImportError:
        raise UsageError('backend ray: Ray is not installed (pip install "omen-search[ray]")') from None

    def run(setup: MatchSetup, batches: list[Batch]) -> Iterator[list[dict[str, Any]]]:
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        task = ray.remote(play_batch)
        pending = [task.remote(setup, b) for b in batches]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref)
    return run


def _batches(todo: list[int], workers: int) -> list[Batch]:
    """Whole pairs together; a few batches per worker so they all stay busy to the end (a solo
    match's odd-indexed games go with the even ones too, harmlessly)."""
    pairs: dict[int, list[int]] = {}
    for i in todo:
        pairs.setdefault(i // 2, []).append(i)
    groups = list(pairs.values())
    per = max(1, min(32, len(groups) // (8 * workers)))
    return [sum(groups[k:k + per], []) for k in range(0, len(groups), per)]


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
    if not isinstance(options.games, int) or options.games < 1:
        raise UsageError(f"games: must be a positive integer, got {options.games!r}")
    if not isinstance(options.workers, int) or options.workers < 1:
        raise UsageError(f"workers: must be a positive integer, got {options.workers!r}")
    if options.backend not in BACKENDS:
        raise UsageError(f"backend: unknown backend {options.backend!r} (expected one of {', '.join(BACKENDS)})")
    if not isinstance(setup.seed, int) or not 0 <= setup.seed <= MASK64:
        raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {setup.seed!r}")
    if options.out is not None and Path(options.out).exists() and not options.resume:
        raise UsageError(f"out: {options.out} exists; resume it (--resume) or choose another file")
    if setup.records is not None:
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
    finished = list(done.values())

    def result(stopped: bool = False) -> MatchResult:
        return MatchResult.from_lines(setup.a, setup.b, finished, options.sprt, stopped, setup.level)

    todo = [i for i in range(options.games) if i not in done]
    stopped = options.sprt is not None and finished and result().sprt["verdict"] != "continue"  # type: ignore[index]
    if stopped:
        todo = []
    if options.backend == "ray":
        runner = _run_ray(options.address)
    else:
        runner = _run_here if options.workers == 1 else _run_pool(options.workers)
    writer = _Writer(out, header, new=not exists)
    from tqdm import tqdm

    bar = tqdm(total=options.games, initial=len(finished), desc=f"{setup.a} vs {setup.b}", unit="game",
               file=sys.stderr, disable=not options.progress, smoothing=0.05)
    try:
        results = runner(setup, _batches(todo, options.workers)) if todo else iter(())
        for lines in results:
            for line in lines:
                writer.write(line)
                finished.append(line)
                options.lines.append(line)
                bar.update(1)
                if options.report_every and len(finished) % options.report_every == 0:
                    bar.write(result().line(), file=sys.stderr)
            if options.sprt is not None and result().sprt["verdict"] != "continue":  # type: ignore[index]
                stopped = True
                if hasattr(results, "close"):
                    results.close()
                break
    finally:
        bar.close()
        writer.close()
    return result(bool(stopped) and len(finished) < options.games)


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

