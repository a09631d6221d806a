"""The fuzzing harness: case budgets, seeds, time limits and findings, plus what the fuzzers share:
the mutation engine (JSON documents, text, bytes), real inputs to mutate, the differential check of
the two engines, and running the command line in this process.

A fuzzer is a function ``case(c: Case)`` that builds one input from ``c.rng`` (mutating real inputs:
the built-in card file, ``docs/examples/*.json``, records of seeded games, …), feeds it to one entry
point and fails (any exception) when the contract is broken. :func:`fuzz` runs it for a budget of
cases, each from its own seed, so every case can be replayed alone.

How many cases (see ``docs/reliability.md``):

* default (CI): each fuzzer's small default count, a few seconds each;
* ``OMEN_FUZZ=long``: each fuzzer's long count;
* ``OMEN_FUZZ_EXAMPLES=N``: N cases for every fuzzer;
* ``OMEN_FUZZ_SECONDS=S``: as many cases as fit in S seconds, for every fuzzer (with the above: both
  bounds apply, whichever comes first);
* ``OMEN_FUZZ_SEED=K``: another base seed (default 0), so a long run tries new cases;
* ``OMEN_FUZZ_CASE=I``: only case I (to replay a failure: the message gives the seed and the case);
* ``OMEN_FUZZ_STATS=FILE``: append one JSON line per fuzzer run (name, cases, seconds, failures);
* ``OMEN_FUZZ_FINDINGS=DIR``: write each failing input there (default: the test's tmp_path);
* ``OMEN_FUZZ_CASE_TIMEOUT=S``: a case that runs longer is a hang (default 120).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import signal
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from omen_search.games.heir.cards import CardSet, default_cards
from omen_search.games.heir.observe import observe
from positions_helper import json_paths

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
TEST_DATA = ROOT / "tests" / "data"

LONG = os.environ.get("OMEN_FUZZ", "").lower() == "long"
SEED = int(os.environ.get("OMEN_FUZZ_SEED", "0"))
ONLY_CASE = os.environ.get("OMEN_FUZZ_CASE")
CASE_TIMEOUT = float(os.environ.get("OMEN_FUZZ_CASE_TIMEOUT", "120"))  # seconds: longer is a hang
MAX_FAILURES = 5  # stop a fuzzer after this many failing cases


def budget(default: int, long: int) -> tuple[int | None, float | None]:
    """The number of cases and the seconds a fuzzer gets (None: no bound of that kind)."""
    examples = os.environ.get("OMEN_FUZZ_EXAMPLES")
    seconds = os.environ.get("OMEN_FUZZ_SECONDS")
    if seconds:
        return (int(examples) if examples else None), float(seconds)
    if examples:
        return int(examples), None
    return (long if LONG else default), None


class CaseTimeout(BaseException):
    """A case ran past ``OMEN_FUZZ_CASE_TIMEOUT``: a hang (BaseException, so that no ``except
    Exception`` in the code under test swallows it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`CaseTimeout` in the main thread after ``seconds`` (no-op off the main thread)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"no answer after {seconds:g} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Case:
    """One fuzz case: its random source, and the inputs it built (kept for the report)."""

    name: str
    index: int
    seed: str
    rng: random.Random
    tmp: Path
    inputs: dict[str, Any] = field(default_factory=dict)

    def note(self, label: str, value: Any) -> Any:
        """Keep ``value`` as this case's input ``label`` (written out if the case fails); returns it."""
        self.inputs[label] = value
        return value

    def path(self, name: str) -> Path:
        """A fresh path in this case's own folder."""
        folder = self.tmp / f"case-{self.index}"
        folder.mkdir(parents=True, exist_ok=True)
        return folder / name


def _dump(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="backslashreplace")
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, indent=1, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def _save(case: Case, folder: Path) -> Path:
    out = folder / f"{case.name}-seed{SEED}-case{case.index}"
    out.mkdir(parents=True, exist_ok=True)
    for label, value in case.inputs.items():
        target = out / label
        if isinstance(value, bytes):
            target.write_bytes(value)
        else:
            target.write_text(_dump(value), encoding="utf-8", errors="backslashreplace")
    return out


def fuzz(name: str, run_case: Callable[[Case], str | dict[str, int] | None], tmp_path: Path, default: int,
         long: int) -> Counter:
    """Run ``run_case`` over the budget of cases; fail the test with every failing case's seed, input
    and error. ``run_case`` may return what became of the input (``"refused"``, ``"loaded"``, …, or
    a dict of counts); returns how many cases had each outcome."""
    cases, seconds = budget(default, long)
    findings = Path(os.environ.get("OMEN_FUZZ_FINDINGS") or tmp_path / "findings")
    started = time.monotonic()
    failures: list[str] = []
    indexes: Iterator[int] = iter([int(ONLY_CASE)]) if ONLY_CASE is not None else _counter()
    ran = 0
    outcomes: Counter = Counter()
    for i in indexes:
        if ONLY_CASE is None:
            if cases is not None and i >= cases:
                break
            if seconds is not None and time.monotonic() - started >= seconds:
                break
        seed = f"{name}:{SEED}:{i}"
        case = Case(name, i, seed, random.Random(seed), tmp_path / name)
        ran += 1
        try:
            with time_limit(CASE_TIMEOUT):
                outcome = run_case(case)
            if isinstance(outcome, dict):  # several counts from one case
                outcomes.update(outcome)
            else:
                outcomes[outcome or "ok"] += 1
        except (Exception, CaseTimeout) as exc:
            where = _save(case, findings)
            detail = "".join(traceback.format_exception(exc)[-12:])
            shown_inputs = "\n".join(f"  {k}: {_dump(v)[:600]}" for k, v in case.inputs.items())
            failures.append(f"case {i} (OMEN_FUZZ_SEED={SEED} OMEN_FUZZ_CASE={i}), inputs in {where}:\n"
                            f"{shown_inputs}\n{detail}")
            if len(failures) >= MAX_FAILURES:
                break
    elapsed = time.monotonic() - started
    stats = os.environ.get("OMEN_FUZZ_STATS")
    if stats:
        with open(stats, "a", encoding="utf-8") as f:
            f.write(json.dumps({"fuzzer": name, "seed": SEED, "cases": ran, "seconds": round(elapsed, 1),
                                "failures": len(failures), "outcomes": dict(outcomes)}) + "\n")
    if failures:
        pytest.fail(f"{name}: {len(failures)} failing case(s) of {ran}:\n\n" + "\n\n".join(failures), pytrace=False)
    return outcomes


def _counter() -> Iterator[int]:
    i = 0
    while True:
        yield i
        i += 1


# ------------------------------------------------------------------------------ real inputs


def example_docs() -> dict[str, Any]:
    """The JSON files of ``docs/examples`` as they are now (they are regenerated by hand, so they are
    read at test time; one that does not parse is skipped)."""
    out = {}
    for path in sorted(EXAMPLES.glob("*.json")):
        try:
            out[path.name] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return out


def examples_of(fmt: str) -> list[Any]:
    """The example documents (and test data) of one format (``omen-record/1``, …)."""
    docs = list(example_docs().values())
    for path in sorted(TEST_DATA.glob("*.json")):
        try:
            docs.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return [d for d in docs if isinstance(d, dict) and d.get("format") == fmt]


# ------------------------------------------------------------------------------ values


UNIT_NAMES = tuple(u.name for u in default_cards().units)
TILE_NAMES = tuple(r.name for r in default_cards().rewards)
STRUCTURE_NAMES = tuple(s.name for s in default_cards().structures)
NAMES = UNIT_NAMES + TILE_NAMES + STRUCTURE_NAMES
WORDS = ("anubis", "horus", "both", "neutral", "any", "unit", "reward", "structure", "maneuver", "built",
         "reinforce", "labor", "invocation", "then", "surge", "war", "keep", "offering", "discard", "move",
         "entomb", "choose", "unearth", "wealth", "reveal", "emissary", "game_over", "end_check", "novice",
         "normal", "hard", "brutal", "random", "greedy", "omen-position/1", "omen-observation/1",
         "omen-record/1", "heir", "")
INTERESTING_INTS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 19, 20, 31, 32, 39, 40, 41, 44, 45, 47, 48, 63, 64,
                    99, 100, 199, 200, 201, 255, 256, 1023, 1024, 1025, 32767, 32768, 65535, 65536,
                    2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1, -2, -2**31,
                    -2**63, 10**30)
FLOATS = (0.0, 0.5, 1.0, -0.0, 1.5, 1e-9, 1e300, float("nan"), float("inf"), float("-inf"))
STRINGS = ("", " ", "x", "0", "1", "true", "null", "NaN", "\u0000", "\ud800", "é", "名", " Temple Servant",
           "temple servant", "Temple  Servant", "Temple Servant\n", "a" * 300, "\"", "\\", "city0", "-1")


def scalar(rng: random.Random, near: Any = None) -> Any:
    """A JSON scalar: often a neighbour of ``near`` (an integer ± a little, another name of the
    same kind), else anything."""
    r = rng.random()
    if isinstance(near, bool):
        if r < 0.5:
            return not near
    elif isinstance(near, int) and r < 0.6:
        return near + rng.choice((-2, -1, 1, 2, 10, -10, near, -near - 1))
    elif isinstance(near, str) and r < 0.6:
        pool = (UNIT_NAMES if near in UNIT_NAMES else TILE_NAMES if near in TILE_NAMES
                else STRUCTURE_NAMES if near in STRUCTURE_NAMES else WORDS)
        return rng.choice(pool)
    kind = rng.randrange(8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind in (2, 3):
        return rng.choice(INTERESTING_INTS)
    if kind == 4:
        return rng.choice(FLOATS)
    if kind == 5:
        return rng.choice(STRINGS)
    if kind == 6:
        return rng.choice(NAMES)
    return rng.choice(WORDS)


def any_value(rng: random.Random, near: Any = None) -> Any:
    """A scalar or, now and then, a small list or object."""
    r = rng.random()
    if r < 0.8:
        return scalar(rng, near)
    if r < 0.9:
        return [scalar(rng) for _ in range(rng.randrange(4))]
    return {rng.choice(("a", "n", "kind", "ref", "", "hand")): scalar(rng) for _ in range(rng.randrange(3))}


# ------------------------------------------------------------------------------ JSON mutation


Path_ = tuple  # a path into a JSON document: keys and indexes


def _parent(doc: Any, path: Path_) -> tuple[Any, Any]:
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    return parent, path[-1]


def _name_lists(doc: Any) -> list[list]:
    """The lists of unit names in ``doc`` (hands, sides of cities, the deck, the discard pile, …),
    empty ones included where their key says they hold units."""
    found: list[list] = []

    def walk(x: Any, key: Any = None) -> None:
        if isinstance(x, list):
            if (x and all(isinstance(v, str) and v in UNIT_NAMES for v in x)) or (
                    not x and key in ("hand", "known", "discard", "deck", "under", "destroyed", "revealed", "limbo")):
                found.append(x)
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v, k)

    walk(doc)
    return found


def mutate_json(rng: random.Random, doc: Any, edits: int | None = None, donors: list[Any] = ()) -> Any:
    """A copy of ``doc`` with 1–4 random edits: set a value (a neighbour or anything), delete an
    entry, duplicate or swap list entries, move a card from one list of cards to another (which
    keeps the count of every card, so the result often loads) or copy it there (lists that are not
    places, like ``known`` and ``destroyed``), add an unknown key, or graft the value at the same
    path in a donor document."""
    doc = copy.deepcopy(doc)
    for _ in range(edits or rng.randint(1, 4)):
        op = rng.choice(("set", "set", "set", "delete", "duplicate", "swap", "move_card", "move_card", "move_card",
                         "copy_card", "add_key", "graft", "clear"))
        if op in ("move_card", "copy_card"):
            lists = _name_lists(doc)
            sources = [x for x in lists if x]
            if sources and len(lists) > 1:
                src = rng.choice(sources)
                dst = rng.choice([x for x in lists if x is not src])
                i = rng.randrange(len(src))
                card = src.pop(i) if op == "move_card" else src[i]
                dst.insert(rng.randrange(len(dst) + 1), card)
            continue
        all_paths = json_paths(doc)
        if not all_paths:
            return any_value(rng)
        path = rng.choice(all_paths)
        try:
            parent, key = _parent(doc, path)
            if op == "set":
                parent[key] = any_value(rng, parent[key])
            elif op == "delete":
                del parent[key]
            elif op == "duplicate" and isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
            elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
                j = rng.randrange(len(parent))
                parent[key], parent[j] = parent[j], parent[key]
            elif op == "add_key" and isinstance(parent, dict):
                parent[rng.choice(("extra", "hand_size", "pending", "n", "deck", "seed", "rng", "", "moves"))] = \
                    any_value(rng)
            elif op == "graft" and donors:
                donor = rng.choice(donors)
                d_parent, d_key = _parent(donor, path)
                parent[key] = copy.deepcopy(d_parent[d_key])
            elif op == "clear" and isinstance(parent[key], (list, dict)):
                parent[key].clear()
        except (KeyError, IndexError, TypeError):
            pass  # an earlier edit removed or replaced this path, or the donor lacks it
    return doc


JUNK = ('{', '}', '[', ']', '"', ',', ':', '\\', '\\u', '\\ud800', 'null', 'NaN', 'Infinity', '-', '1e999', '0',
        '9' * 30, '\n', '\t', ' ', '\ufeff', '\u2028', '"\u0000"', '[' * 70, '{"a":' * 70)


def mutate_text(rng: random.Random, text: str, edits: int | None = None) -> str:
    """``text`` with 1–3 character-level edits: cut, insert junk, repeat or swap a piece."""
    for _ in range(edits or rng.randint(1, 3)):
        n = len(text)
        i = rng.randrange(n + 1)
        op = rng.randrange(4)
        if op == 0:
            text = text[:i] + text[i + rng.randint(1, 40):]
        elif op == 1:
            text = text[:i] + rng.choice(JUNK) + text[i:]
        elif op == 2 and n:
            j = min(n, i + rng.randint(1, 30))
            text = text[:i] + text[i:j] * 2 + text[j:]
        elif n > 2:
            j = rng.randrange(n)
            a, b = sorted((i, j))
            if a < b < n:
                text = text[:a] + text[b] + text[a + 1:b] + text[a] + text[b + 1:]
    return text


def mutate_bytes(rng: random.Random, data: bytes, edits: int | None = None) -> bytes:
    """``data`` with 1–4 bytes replaced (a way to reach text that is not UTF-8)."""
    raw = bytearray(data)
    for _ in range(edits or rng.randint(1, 4)):
        if raw:
            raw[rng.randrange(len(raw))] = rng.choice((0, 0x80, 0xC3, 0xED, 0xFF, rng.randrange(256)))
    return bytes(raw)


# ------------------------------------------------------------------------------ both engines


def same(ref: Any, core: Any) -> list:
    """Check that the reference state and the core state show both players the same observation, list
    the same legal moves and, at the end, give the same scores; returns the legal moves."""
    for p in (0, 1):
        a, b = observe(ref, p), observe(core, p)
        if a != b:
            keys = [k for k in a if a[k] != b.get(k)]
            raise AssertionError(f"ply {ref.ply}: observations of seat {p} differ in {keys}: "
                                 f"reference {[a[k] for k in keys]!r:.600} core {[b.get(k) for k in keys]!r:.600}")
    if ref.is_terminal() or core.is_terminal():
        assert ref.is_terminal() and core.is_terminal(), f"ply {ref.ply}: only one engine ended the game"
        assert ref.scores() == core.scores(), f"scores differ: {ref.scores()} {core.scores()}"
        assert ref.winner() == core.winner(), f"winners differ: {ref.winner()} {core.winner()}"
        return []
    moves, core_moves = ref.legal_moves(), core.legal_moves()
    assert moves == core_moves, (f"ply {ref.ply}: legal moves differ:\n  reference {[str(m) for m in moves]}\n"
                                 f"  core      {[str(m) for m in core_moves]}")
    assert moves, f"ply {ref.ply}: a decision ({ref.pending}) with no legal move"
    return moves


def lockstep(ref: Any, rng: random.Random, plies: int) -> int:
    """From a reference state as loaded (perhaps in an automatic phase, ``settle=False``), each engine
    runs its own rules to the next decision; then play up to ``plies`` random moves (or to the end) on
    both side by side, checking :func:`same` before each and at the end. Raises AssertionError at the
    first difference; returns the ply reached."""
    from omen_search._core import CoreState

    core = CoreState.from_state(ref)
    ref.run_to_decision()
    for _ in range(plies):
        moves = same(ref, core)
        if not moves:
            return ref.ply
        move = rng.choice(moves)
        ref.apply(move)
        core.apply(move)
    same(ref, core)
    return ref.ply


def random_game(rng: random.Random, engine: str = "core", cards: CardSet | None = None, config: Any = None,
                plies: int | None = None) -> Any:
    """A game on ``engine`` from a random deal, played by random moves for ``plies`` plies (or to the end)."""
    from omen_search.games.heir.engines import new_game

    state = new_game(engine, seed=rng.randrange(2**64), cards=cards, config=config)
    while not state.is_terminal() and (plies is None or state.ply < plies):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def random_config(rng: random.Random, solo: bool | None = None) -> Any:
    """A random game setup: either seat first, either god order, the Emissary variant or the solo game."""
    from omen_search.games.heir.rules import LEVELS, Config

    gods = ("anubis", "horus") if rng.random() < 0.5 else ("horus", "anubis")
    solo = rng.random() < 0.25 if solo is None else solo
    if solo:
        return Config(gods=gods, level=rng.choice(LEVELS), max_turns=rng.choice((200, 30, 12, 3, 1)))
    return Config(first_player=rng.randrange(2), gods=gods, emissary=rng.random() < 0.3,
                  max_turns=rng.choice((200, 200, 30, 12, 3, 1)))


# ------------------------------------------------------------------------------ the command line


@dataclass
class CliResult:
    status: int
    out: str
    err: str


def run_cli(argv: list[str], stdin: str = "", cwd: Path | None = None) -> CliResult:
    """``omen-search ARGV`` in this process, with ``stdin`` as its input and ``cwd`` as the working
    directory (so that a relative path never lands in the repository); stdout and stderr captured."""
    from omen_search.cli import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin, old_cwd = sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    if cwd is not None:
        os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:  # argparse's --help and --version
                status = exc.code if isinstance(exc.code, int) else 1
                if status != 0 or not {"-h", "--help", "--version"} & set(argv):
                    raise
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    return CliResult(status, out.getvalue(), err.getvalue())


def check_cli_contract(result: CliResult, argv: list[str]) -> None:
    """Exit 0, or exit 2 with exactly one ``omen-search: error: …`` line on stderr; never a traceback."""
    assert "Traceback" not in result.err, f"a traceback on stderr: {result.err[-2000:]}"
    if result.status == 0:
        return
    assert result.status == 2, f"exit status {result.status}, stderr {result.err[-1000:]!r}"
    lines = result.err.splitlines()
    assert len(lines) == 1 and result.err.endswith("\n"), f"expected one line on stderr, got {result.err[-2000:]!r}"
    assert lines[0].startswith("omen-search: error: "), lines[0]
    assert len(lines[0]) > len("omen-search: error: "), "an empty error message"
    assert "internal error" not in lines[0], lines[0]
