"""Fuzzing the JSON Lines engine (``omen-search engine``, ``docs/engine-protocol.md``): whatever
lines come in, every query and action gets exactly one final reply, a malformed line gets an error
naming the field, every reply is strict JSON, nothing goes to stderr and the engine keeps serving
until stdin closes, then exits 0.

A case is one session: 1–8 lines fed to ``EngineServer.serve`` (in a thread, with a time limit),
as bytes through a text wrapper as stdin is. Lines are queries built from real observations and
records (``docs/examples``, read at test time, and seeded random games) with random fields
(``maxIterations``, ``maxSeconds``, ``ply``, ``top``, ``workers``, ``seed``, ``algorithm``,
``reportDuringSearchEvery``, ``analyzeTurns``, unknown ones), valid or not; actions
(``query_version``, ``terminate`` of an id of the session or of none, ``terminate_all``, with or
without ``turnNumbers``); and then mutations of any of them: the JSON edited
(``fuzzlib.mutate_json``), the text cut or spliced, bytes that are not UTF-8, blank lines, deep
nesting, long numbers. Every session ends with a ``query_version`` whose answer shows the engine
still reads. Budgets stay small: a query that asks for more than 50 iterations, 0.1 s or 2 workers
is cut down before it is sent.

The expected replies are counted from the lines themselves (read with the same JSON reader):
a line that is not a JSON object or has no valid id gets one error with id null; every other line
gets exactly one final line with its id (a reply with ``"isDuringSearch": false`` or an error), and
partial reports never follow it.

Default 25 sessions; ``OMEN_FUZZ=long`` 2500. One session also runs through a real
``python3 -m omen_search engine`` subprocess (stdin bytes, exit status, empty stderr).
"""

from __future__ import annotations

import functools
import io
import json
import random
import subprocess
import sys
import threading
from collections import Counter
from typing import Any

from omen_search.engine_protocol import QUERY_FIELDS, EngineServer, QueryError, parse_queries
from omen_search.errors import FormatError
from omen_search.games.heir.observe import observe
from omen_search.jsonio import parse_json
from omen_search.records import make_record

from fuzzlib import Case, examples_of, fuzz, mutate_json, mutate_text, random_config, random_game
from process_helper import omen_env

SESSION_TIMEOUT = 120.0
KNOWN_FIELDS = QUERY_FIELDS | {"action", "terminateId", "turnNumbers"}


@functools.cache
def sources() -> tuple[tuple[str, str], ...]:
    """Observations and records to ask about, as ``(kind, JSON text)``."""
    out = [("observation", json.dumps(d)) for d in examples_of("omen-observation/1")]
    out += [("record", json.dumps(d)) for d in examples_of("omen-record/1")]
    rng = random.Random("engine")
    for _ in range(8):
        state = random_game(rng, "core", config=random_config(rng), plies=rng.randrange(0, 200))
        if not state.is_terminal():
            out.append(("observation", json.dumps(observe(state, state.current_player))))
        out.append(("record", json.dumps(make_record(state, ["random", "random"]))))
    return tuple(out)


IDS = (1, 2, "q", "q", "x", 0, -5, "", "7", 7, 2**70, "ü")
BAD_IDS = (None, 1.5, True, [], {}, "NaN")


def query(rng: random.Random, ids: list[Any]) -> dict[str, Any]:
    kind, text = rng.choice(sources())
    doc: dict[str, Any] = {"id": rng.choice(IDS) if rng.random() < 0.95 else rng.choice(BAD_IDS)}
    doc[kind] = json.loads(text)
    if kind == "record" and rng.random() < 0.5:
        doc["ply"] = rng.choice((0, 1, 5, 48, 100, 143, 144, 145, -1, 10**7 + 1, "3", 2.0))
    if rng.random() < 0.15:
        doc["analyzeTurns"] = rng.choice(([3, 5], [0], [144, 1], [], [1, 1], "x", [2.0], [-1], None))
    def pick(good: tuple, bad: tuple) -> Any:
        return rng.choice(good) if rng.random() < 0.85 else rng.choice(bad)

    r = rng.random()
    if r < 0.7:
        doc["maxIterations"] = pick((1, 5, 20, 50), (0, -1, 1.5, "20", True, None, 10**30, float("nan")))
    elif r < 0.85:
        doc["maxSeconds"] = pick((0.01, 0.05), (0, -1, float("inf"), "0.1", 3601, None))
    else:
        doc["maxIterations"] = 20
        doc["maxSeconds"] = rng.choice((0.05, 0))
    for key, good, bad in (("top", (1, 2, 10_000), (0, 10_001, "1", None)), ("workers", (1, 2), (0, 65, 1.0)),
                           ("seed", (0, 1, 2**64 - 1), (2**64, -1, "1")), ("algorithm", ("ismcts", "ismcts-mo"), ("mcts", 1)),
                           ("reportDuringSearchEvery", (0.05, 0.06), (0, 0.01, "x", 1e400)),
                           ("comment", ("hello", None), ()), ("observation", (), ({}, [], None))):
        if rng.random() < 0.15 and not (key == "observation" and kind == "observation"):
            doc[key] = pick(good, bad) if good and bad else rng.choice(good or bad)
    ids.append(doc["id"])
    return doc


def action(rng: random.Random, ids: list[Any]) -> dict[str, Any]:
    doc: dict[str, Any] = {"id": rng.choice(IDS) if rng.random() < 0.9 else rng.choice(BAD_IDS)}
    if rng.random() < 0.4:
        doc["action"] = "query_version"
    elif rng.random() < 0.85:
        doc["action"] = rng.choice(("terminate", "terminate", "terminate_all"))
        if rng.random() < 0.9:
            doc["terminateId"] = rng.choice(ids) if ids and rng.random() < 0.8 else rng.choice(IDS + BAD_IDS)
        if rng.random() < 0.2:
            doc["turnNumbers"] = rng.choice(([3], [0, 5], [], "3", [-1], None))
    else:
        doc["action"] = rng.choice(("stop", "", None, 1, "QUERY_VERSION"))
    return doc


def cheap(doc: Any) -> bool:
    """Whether a query asks for little work (within the bounds the engine accepts)."""
    if not isinstance(doc, dict) or "action" in doc:
        return True
    it, sec, workers = doc.get("maxIterations"), doc.get("maxSeconds"), doc.get("workers")
    valid_int = lambda v: isinstance(v, int) and not isinstance(v, bool)  # noqa: E731
    if valid_int(it) and it > 50:
        return False
    if isinstance(sec, (int, float)) and not isinstance(sec, bool) and sec == sec and sec > 0.1:
        return False
    if it is None and sec is None:  # the default: 10,000 iterations
        return False
    return not (valid_int(workers) and workers > 2)


RAW = (b"", b"   ", b"hello", b"[]", b"null", b"{}", b'{"id": 1}', b'{"id": 1, "action": "query_version"',
       b"\xff\xfe{}", b'{"id": "\xc3\x28"}', b"[" * 100 + b"]" * 100, b'{"id": 1, "maxIterations": ' + b"9" * 5000 + b"}",
       b'{"id": 1, "observation": NaN}', b"\xef\xbb\xbf{\"id\": 1, \"action\": \"query_version\"}", b"\x00", b"\r",
       b'{"id": 1, "id": 2, "action": "query_version"}')


def session_lines(rng: random.Random) -> list[bytes]:
    ids: list[Any] = []
    lines: list[bytes] = []
    for _ in range(rng.randint(1, 8)):
        r = rng.random()
        if r < 0.5:
            doc: Any = query(rng, ids)
        elif r < 0.75:
            doc = action(rng, ids)
        else:
            lines.append(rng.choice(RAW))
            continue
        if rng.random() < 0.3:
            edited = mutate_json(rng, doc)
            if cheap(edited):
                doc = edited
        if not cheap(doc):
            doc["maxIterations"], doc["maxSeconds"] = 20, None
            doc.pop("workers", None)
        text = json.dumps(doc)
        if rng.random() < 0.15:
            edited_text = mutate_text(rng, text, 1)
            try:
                again = parse_json(edited_text)
            except FormatError:
                again = None
            if cheap(again):
                text = edited_text
        data = text.encode("utf-8", errors="surrogatepass")
        if rng.random() < 0.05:
            data = data[: rng.randrange(len(data) + 1)] + bytes([rng.choice((0x80, 0xFF, 0xC3))]) + data[rng.randrange(len(data) + 1):]
        lines.append(data)
    lines.append(b'{"id": "last", "action": "query_version"}')
    return lines


def expected_finals(stdin_bytes: bytes) -> tuple[Counter, int, list[str]]:
    """From the lines as the engine reads them: the final replies expected per id (as JSON text), the
    errors expected with id null, and the lines."""
    text_lines = list(io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8", errors="replace"))
    per_id: Counter = Counter()
    null = 0
    for line in text_lines:
        if not line.strip():
            continue
        try:
            doc = parse_json(line)
        except FormatError:
            null += 1
            continue
        if not isinstance(doc, dict):
            null += 1
            continue
        ident = doc.get("id")
        if not (isinstance(ident, str) or (isinstance(ident, int) and not isinstance(ident, bool))):
            null += 1
            continue
        try:  # a query with analyzeTurns is answered once per ply
            positions = 1 if "action" in doc else len(parse_queries(doc))
        except QueryError:
            positions = 1
        per_id[json.dumps(ident)] += positions
    return per_id, null, text_lines


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"not strict JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def check_replies(out_text: str, stdin_bytes: bytes) -> Counter:
    per_id, null, text_lines = expected_finals(stdin_bytes)
    finals: Counter = Counter()
    null_seen = 0
    kinds: Counter = Counter()
    assert out_text.endswith("\n") or not out_text, "the last reply is not a whole line"
    for line in out_text.splitlines():
        reply = _strict(line)
        assert isinstance(reply, dict) and "id" in reply, f"a reply without an id: {line[:300]}"
        if "error" in reply:
            assert isinstance(reply.get("field"), str), f"an error without a field: {line[:300]}"
            assert isinstance(reply["error"], str) and reply["error"], f"an empty error: {line[:300]}"
            assert "internal error" not in reply["error"], f"an internal error: {line[:500]}"
            field = reply["field"]
            assert (field == "" or field.split(".")[0].split("[")[0] in KNOWN_FIELDS), f"an unknown field: {line[:300]}"
            kinds["error"] += 1
        if reply["id"] is None:
            assert "error" in reply and reply["field"] in ("", "id"), f"a reply with id null: {line[:300]}"
            null_seen += 1
            continue
        key = json.dumps(reply["id"])
        if reply.get("isDuringSearch") is True:
            assert finals[key] < per_id[key], f"a partial report after the final reply: {line[:300]}"
            kinds["partial"] += 1
            continue
        finals[key] += 1
        kinds["advice" if "moves" in reply else "final"] += 1
    assert null_seen == null, f"{null_seen} errors with id null, expected {null}"
    assert finals == per_id, f"final replies per id {dict(finals)}, expected {dict(per_id)}"
    assert finals[json.dumps("last")] >= 1, "the engine stopped reading"
    return kinds


def serve(stdin_bytes: bytes) -> tuple[int, str, str]:
    """Run the engine on ``stdin_bytes`` in a thread; (status, stdout, stderr)."""
    import contextlib

    stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["status"] = EngineServer(stdin, out).serve()
        except BaseException as exc:  # noqa: BLE001 - reported below
            result["error"] = exc

    with contextlib.redirect_stderr(err):
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(SESSION_TIMEOUT)
    assert not thread.is_alive(), f"the engine did not finish within {SESSION_TIMEOUT:g} s after stdin closed"
    if "error" in result:
        raise result["error"]
    return result["status"], out.getvalue(), err.getvalue()


def engine_case(case: Case) -> str:
    lines = session_lines(case.rng)
    stdin_bytes = case.note("stdin.jsonl", b"\n".join(lines) + b"\n")
    status, out, err = serve(stdin_bytes)
    case.note("stdout.jsonl", out)
    assert status == 0, f"exit status {status}"
    assert err == "", f"the engine wrote on stderr: {err[:1000]}"
    kinds = check_replies(out, stdin_bytes)
    return "advice given" if kinds["advice"] else "errors and actions only"


def test_fuzz_engine_sessions(tmp_path):
    fuzz("engine", engine_case, tmp_path, default=25, long=2500)


def test_fuzz_engine_subprocess(tmp_path):
    """One fuzzed session through a real process: stdin bytes as they come, status 0 on end of input,
    nothing on stderr."""
    def run(case: Case) -> str:
        stdin_bytes = case.note("stdin.jsonl", b"\n".join(session_lines(case.rng)) + b"\n")
        env = omen_env()
        proc = subprocess.run([sys.executable, "-P", "-m", "omen_search", "engine"], input=stdin_bytes,
                              capture_output=True, env=env, timeout=SESSION_TIMEOUT)
        case.note("stdout.jsonl", proc.stdout)
        assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-1000:]!r}"
        assert proc.stderr == b"", f"the engine wrote on stderr: {proc.stderr[-1000:]!r}"
        check_replies(proc.stdout.decode("utf-8"), stdin_bytes)
        return "answered"

    fuzz("engine-subprocess", run, tmp_path, default=1, long=40)
