"""``omen-search engine``: the advisor as a long-running process speaking JSON Lines, after
KataGo's analysis engine.

Each line on stdin is a query or an action; each line on stdout a reply carrying the query's
``id``. A query may get partial reports (``"isDuringSearch": true``) and always ends with exactly
one reply with ``"isDuringSearch": false``; bad input gets ``{"id", "error", "field"}`` and the
engine goes on serving. Queries run one at a time, in order; a reader thread keeps reading, so a
``terminate`` action stops a running search at once (it then answers with what it has, marked
``"terminated": true``) or drops a queued query (answered the same way, without moves). Closing
stdin finishes the queued queries, then the engine exits. The protocol is in
``docs/engine-protocol.md``.
"""

from __future__ import annotations

import json
import math
import queue
import threading
from dataclasses import dataclass, field
from typing import IO, Any

from omen_search import __version__
from omen_search.advisor import Advice, Advisor
from omen_search.errors import OmenError
from omen_search.rng import MASK64
from omen_search.search import Limit

PROTOCOL_VERSION = 1
DEFAULT_ITERATIONS = 10_000
MAX_ITERATIONS = 1_000_000_000
MAX_SECONDS = 3600.0
MAX_WORKERS = 256
QUERY_FIELDS = {"id", "observation", "record", "ply", "maxIterations", "maxSeconds", "seed",
                "reportDuringSearchEvery", "top", "workers", "algorithm"}


class QueryError(OmenError):
    """A query or action that cannot be served: names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(eq=False)
class Query:
    """A checked query."""

    id: Any
    source: Any
    ply: int | None
    limit: Limit
    seed: int
    report_every: float | None
    top: int | None
    workers: int
    algorithm: str
    warnings: list[dict[str, str]] = field(default_factory=list)
    terminated: bool = False


def _int(doc: dict, name: str, low: int, high: int) -> int | None:
    value = doc.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise QueryError(name, f"{name} must be an integer from {low} to {high}, got {json.dumps(value)[:40]}")
    return value


def _number(doc: dict, name: str, low: float, high: float) -> float | None:
    value = doc.get(name)
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not low < value <= high):
        raise QueryError(name, f"{name} must be a number above {low:g} and at most {high:g}, got "
                               f"{json.dumps(value)[:40]}")
    return float(value)


def parse_query(doc: dict[str, Any]) -> Query:
    """Check a query's fields (not yet the observation or record: the advisor does that)."""
    has_obs, has_record = "observation" in doc, "record" in doc
    if has_obs == has_record:
        raise QueryError("observation", "a query needs exactly one of observation and record")
    if has_record and not isinstance(doc["record"], dict):
        raise QueryError("record", "record must be a JSON object (a game record)")
    if has_obs and not isinstance(doc["observation"], dict):
        raise QueryError("observation", "observation must be a JSON object")
    if "ply" in doc and not has_record:
        raise QueryError("ply", "ply goes with a record")
    ply = _int(doc, "ply", 0, 1_000_000)
    iterations = _int(doc, "maxIterations", 1, MAX_ITERATIONS)
    seconds = _number(doc, "maxSeconds", 0.0, MAX_SECONDS)
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    algorithm = doc.get("algorithm", "ismcts")
    if algorithm not in ("ismcts", "ismcts-mo"):
        raise QueryError("algorithm", f"algorithm must be 'ismcts' or 'ismcts-mo', got {json.dumps(algorithm)[:40]}")
    warnings = [{"field": k, "warning": "unknown field, ignored"} for k in doc if k not in QUERY_FIELDS]
    return Query(
        id=doc["id"], source=doc["record"] if has_record else doc["observation"], ply=ply,
        limit=Limit(iterations=iterations, seconds=seconds), seed=_int(doc, "seed", 0, MASK64) or 0,
        report_every=_number(doc, "reportDuringSearchEvery", 0.0, MAX_SECONDS), top=_int(doc, "top", 1, 10_000),
        workers=_int(doc, "workers", 1, MAX_WORKERS) or 1, algorithm=algorithm, warnings=warnings)


def _error_field(exc: OmenError, query: Query) -> str:
    """The JSON path an advisor error names (``observation.players[1].hand[2]: ...``)."""
    head = str(exc).split(":", 1)[0]
    if head.startswith(("observation", "record")) and " " not in head:
        return head
    return "record" if isinstance(query.source, dict) and query.ply is not None else "observation"


class EngineServer:
    """Serves queries from ``stdin`` on ``stdout`` until stdin closes."""

    def __init__(self, stdin: IO[str], stdout: IO[str]):
        self.stdin, self.stdout = stdin, stdout
        self.queue: queue.Queue[Query | None] = queue.Queue()
        self.lock = threading.Lock()  # one reply line at a time, and the running query
        self.running: tuple[Query, Advisor] | None = None
        self.pending: dict[Any, list[Query]] = {}

    def send(self, reply: dict[str, Any]) -> None:
        line = json.dumps(reply)
        with self.lock:
            self.stdout.write(line + "\n")
            self.stdout.flush()

    def serve(self) -> int:
        """Run until stdin closes and every queued query is answered; returns the exit status."""
        reader = threading.Thread(target=self._read, daemon=True)
        reader.start()
        while (query := self.queue.get()) is not None:
            self._answer(query)
        return 0

    # -- the reader thread

    def _read(self) -> None:
        try:
            for line in self.stdin:
                if line.strip():
                    self._take(line)
        finally:
            self.queue.put(None)

    def _take(self, line: str) -> None:
        try:
            doc = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            self.send({"id": None, "error": "not a JSON object", "field": ""})
            return
        if not isinstance(doc, dict):
            self.send({"id": None, "error": "not a JSON object", "field": ""})
            return
        if "id" not in doc or isinstance(doc["id"], (dict, list, float)) or doc["id"] is None:
            self.send({"id": None, "error": "every query and action needs an id (a string or an integer)",
                       "field": "id"})
            return
        if "action" in doc:
            self._action(doc)
            return
        try:
            query = parse_query(doc)
        except QueryError as exc:
            self.send({"id": doc["id"], "error": str(exc), "field": exc.field})
            return
        with self.lock:
            self.pending.setdefault(_key(query.id), []).append(query)
        self.queue.put(query)

    def _action(self, doc: dict[str, Any]) -> None:
        action = doc["action"]
        if action == "query_version":
            self.send({"id": doc["id"], "action": "query_version", "version": __version__,
                       "protocol": PROTOCOL_VERSION})
        elif action == "terminate":
            if "terminateId" not in doc:
                self.send({"id": doc["id"], "error": "terminate needs terminateId", "field": "terminateId"})
                return
            target = _key(doc["terminateId"])
            with self.lock:
                for query in self.pending.get(target, []):
                    query.terminated = True
                running = self.running
            if running is not None and _key(running[0].id) == target:
                running[1].stop()
            self.send({"id": doc["id"], "action": "terminate", "terminateId": doc["terminateId"]})
        else:
            self.send({"id": doc["id"], "error": f"unknown action {json.dumps(action)[:40]} "
                                                 "(expected query_version or terminate)", "field": "action"})

    # -- the main thread

    def _answer(self, query: Query) -> None:
        advisor = Advisor(query.limit, query.algorithm, query.seed, query.workers)
        with self.lock:
            self.running = (query, advisor)
            terminated = query.terminated
        try:
            if terminated:
                self.send(self._reply(query, None, during=False))
                return

            def report(advice: Advice) -> bool:
                if not query.terminated:
                    self.send(self._reply(query, advice, during=True))
                return query.terminated

            try:
                advice = advisor.advise(query.source, query.ply, on_progress=report if query.report_every else None,
                                        report_every=query.report_every)
            except OmenError as exc:
                self.send({"id": query.id, "error": str(exc), "field": _error_field(exc, query)})
                return
            except Exception as exc:  # a bug must not take the engine down: report it, keep serving
                self.send({"id": query.id, "error": f"internal error: {type(exc).__name__}: {exc}", "field": ""})
                return
            self.send(self._reply(query, advice, during=False))
        finally:
            with self.lock:
                self.running = None
                waiting = self.pending.get(_key(query.id), [])
                if query in waiting:
                    waiting.remove(query)
                if not waiting:
                    self.pending.pop(_key(query.id), None)

    @staticmethod
    def _reply(query: Query, advice: Advice | None, during: bool) -> dict[str, Any]:
        reply: dict[str, Any] = {"id": query.id, "isDuringSearch": during}
        if advice is not None:
            reply.update(advice.to_dict(query.top))
        else:
            reply["moves"] = []
        if query.terminated and not during:
            reply["terminated"] = True
        if query.warnings and not during:
            reply["warnings"] = query.warnings
        return reply


def _key(value: Any) -> str:
    """Ids compare as JSON text, so 7 and "7" are different queries."""
    return json.dumps(value)
