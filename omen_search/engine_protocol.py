"""``omen-search engine``: the advisor as a long-running process speaking JSON Lines, after
KataGo's analysis engine.

Each line on stdin is a query or an action; each line on stdout a reply carrying the query's
``id``. A query may get partial reports (``"isDuringSearch": true``) and is always answered by
exactly one final line: a reply with ``"isDuringSearch": false``, or, for bad input, an error
``{"id", "error", "field"}``; the engine goes on serving either way. Queries run one at a time, in
order; a reader thread keeps reading meanwhile, so a ``terminate`` action stops a running search
at once (it then answers with what it has, marked ``"terminated": true``) or answers a queued one
at once in the same way, without moves. Closing stdin finishes the queued queries, then the engine
exits with status 0. The protocol, with an example session, is ``docs/engine-protocol.md``.

>>> import io
>>> out = io.StringIO()
>>> EngineServer(io.StringIO('{"id": 1, "action": "query_version"}\\n[]\\n'), out).serve()
0
>>> print(out.getvalue(), end="")  # doctest: +ELLIPSIS
{"id": 1, "action": "query_version", "version": "...", "protocol": 2}
{"id": null, "error": "not a JSON object: []", "field": ""}
"""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from omen_search import __version__
from omen_search.advisor import ALGORITHMS, Advice, Advisor, Algorithm
from omen_search.errors import FormatError, OmenError, RecordError, UsageError, shown
from omen_search.game import DEFAULT_GAME, Game, get_game, named_game
from omen_search.jsonio import MAX_JSON_BYTES, parse_json
from omen_search.limits import ITERATIONS, WORKERS, int_problem, seconds_problem
from omen_search.records import RECORD_FORMAT
from omen_search.rng import MASK64
from omen_search.search import Limit

PROTOCOL_VERSION = 2  # 2: the query's optional "game"
DEFAULT_ITERATIONS = 10_000
MIN_REPORT_EVERY = 0.05  # seconds: partial reports no more often than this
MAX_TOP = 10_000
QUERY_FIELDS = {"id", "observation", "record", "ply", "game", "maxIterations", "maxSeconds", "seed",
                "reportDuringSearchEvery", "top", "workers", "algorithm"}


class QueryError(OmenError):
    """A query or action that cannot be served: names the field."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(eq=False)
class Query:
    """A checked query, and how far it has been answered."""

    id: Any
    kind: str  # "observation" or "record"
    source: Any
    ply: int | None
    game: str | None  # the game the observation or record must be of (None: any)
    limit: Limit
    seed: int
    report_every: float | None
    top: int | None
    workers: int
    algorithm: Algorithm
    warnings: list[dict[str, str]] = field(default_factory=list)
    terminated: bool = False
    replied: bool = False  # its one final line is out


def _show(value: Any) -> str:
    """A value as JSON text, cut short, for an error message."""
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return shown(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(doc: dict, name: str, bounds: tuple[int, int]) -> int | None:
    value = doc.get(name)
    if value is None:
        return None
    problem = int_problem(value, bounds)
    if problem:
        raise QueryError(name, f"{name} {problem}")
    return value


def _seconds(doc: dict, name: str, low: float = 0.0) -> float | None:
    """A time in seconds: a search budget (:func:`~omen_search.limits.seconds_problem`), or at least
    ``low`` if it is given."""
    value = doc.get(name)
    if value is None:
        return None
    problem = seconds_problem(value)
    if problem is None and value < low:
        problem = f"must be at least {low:g}, got {_show(value)}"
    if problem:
        raise QueryError(name, f"{name} {problem}")
    return float(value)


def parse_query(doc: dict[str, Any]) -> Query:
    """Check a query's fields (not yet the observation or record: the advisor does that).

    Raises :class:`QueryError` naming the first bad field."""
    has_obs, has_record = "observation" in doc, "record" in doc
    if has_obs == has_record:
        raise QueryError("observation", "a query needs exactly one of observation and record")
    if has_record and not isinstance(doc["record"], dict):
        raise QueryError("record", "record must be a JSON object (a game record)")
    if has_record and doc["record"].get("format") != RECORD_FORMAT:
        raise QueryError("record.format", f"record.format: expected {RECORD_FORMAT!r}, got "
                                          f"{_show(doc['record'].get('format'))}")
    if has_obs and not isinstance(doc["observation"], dict):
        raise QueryError("observation", "observation must be a JSON object")
    if "ply" in doc and not has_record:
        raise QueryError("ply", "ply goes with a record")
    ply = _int(doc, "ply", (0, 10_000_000))
    game = doc.get("game")
    if game is not None:
        try:
            get_game(game)
        except UsageError as exc:
            raise QueryError("game", str(exc)) from None
    iterations = _int(doc, "maxIterations", ITERATIONS)
    seconds = _seconds(doc, "maxSeconds")
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    algorithm = doc.get("algorithm", "ismcts")
    if algorithm not in ALGORITHMS:
        raise QueryError("algorithm", f"algorithm must be 'ismcts' or 'ismcts-mo', got {_show(algorithm)}")
    seed = _int(doc, "seed", (0, MASK64))
    report_every = _seconds(doc, "reportDuringSearchEvery", MIN_REPORT_EVERY)
    top = _int(doc, "top", (1, MAX_TOP))
    workers = _int(doc, "workers", WORKERS)
    warnings = [{"field": k, "warning": "unknown field, ignored"} for k in doc if k not in QUERY_FIELDS]
    return Query(
        id=doc["id"], kind="record" if has_record else "observation",
        source=doc["record"] if has_record else doc["observation"], ply=ply, game=game,
        limit=Limit(iterations=iterations, seconds=seconds), seed=0 if seed is None else seed,
        report_every=report_every, top=top, workers=workers or 1, algorithm=algorithm, warnings=warnings)


def _check_game(query: Query, cards: Any) -> None:
    """Refuse the query's observation or record if it is not of the game the query names; raises
    :class:`QueryError` naming ``game``, or :class:`FormatError` naming a bad ``game`` or ``config``
    of the document."""
    if query.game is None:
        return
    game = named_game(query.source, query.kind).game_of_document(query.source, query.kind, cards).name
    if game != query.game:
        raise QueryError("game", f"game: the query asks for {query.game}, but the {query.kind} is a game of {game}")


_PLY_MOVE = re.compile(r"ply (\d+): move ")


def _error_field(exc: OmenError, query: Query) -> str:
    """The field an advisor error is about: the JSON path or query field it names
    (``observation.players[1].hand[2]: ...``, ``workers: ...``), the record's move that does not
    replay, ``ply``, or else the whole observation or record."""
    message = str(exc)
    head = message.split(":", 1)[0]
    if (head.startswith(query.kind) and " " not in head) or head in QUERY_FIELDS:  # a JSON path, or `workers`
        return head
    if isinstance(exc, RecordError) and (m := _PLY_MOVE.match(message)):
        return f"record.moves[{m.group(1)}]"
    if query.ply is not None and (isinstance(exc, RecordError) or "game is over" in message):
        return "ply"
    return query.kind


def _valid_id(value: Any) -> bool:
    """Ids are strings or integers (JSON numbers without a fraction)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


class EngineServer:
    """Serves queries from ``stdin`` on ``stdout`` until stdin closes (:meth:`serve`). ``cards``
    is the card set of the observations and records of ``game``'s family (None: the built-in
    set); the documents of another game are read with that game's own built-in set."""

    def __init__(self, stdin: IO[str], stdout: IO[str], cards: Any = None, game: Game | None = None):
        self.stdin, self.stdout, self.cards = stdin, stdout, cards
        self.family = (game or get_game(DEFAULT_GAME)).family
        self.queue: queue.Queue[Query | None] = queue.Queue()
        self.lock = threading.Lock()  # one line at a time; guards running, pending, replied
        self.running: tuple[Query, Advisor] | None = None
        self.pending: dict[str, list[Query]] = {}  # queries not answered yet, by id

    def send(self, reply: dict[str, Any]) -> None:
        """Write one reply line."""
        with self.lock:
            self._write(reply)

    def _write(self, reply: dict[str, Any]) -> None:  # with the lock held
        self.stdout.write(json.dumps(reply) + "\n")
        self.stdout.flush()

    def _finish(self, query: Query, reply: dict[str, Any]) -> None:
        """Write the query's one final line, unless it is already out."""
        with self.lock:
            if query.replied:
                return
            query.replied = True
            waiting = self.pending.get(_key(query.id), [])
            if query in waiting:
                waiting.remove(query)
            if not waiting:
                self.pending.pop(_key(query.id), None)
            self._write(reply)

    def serve(self) -> int:
        """Run until stdin closes and every queued query is answered; returns the exit status."""
        reconfigure = getattr(self.stdin, "reconfigure", None)
        if reconfigure is not None:  # bytes that are not UTF-8 make a bad line, not a dead reader
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):
                pass
        reader = threading.Thread(target=self._read, name="engine-reader", daemon=True)
        reader.start()
        while (query := self.queue.get()) is not None:
            if not query.replied:
                self._answer(query)
        return 0

    # -- the reader thread

    def _read(self) -> None:
        try:
            for line in self._lines():
                if line.strip():
                    try:
                        self._take(line)
                    except Exception as exc:  # a bug must not stop the reading: report it, read on
                        self.send({"id": None, "error": f"internal error: {type(exc).__name__}: {exc}", "field": ""})
        except (OSError, ValueError):  # stdin broken or closed under us: as if it had ended
            pass
        finally:
            self.queue.put(None)

    def _lines(self) -> Iterator[str]:
        """The lines of stdin, each read to at most one character past the JSON reader's bound: the
        rest of a longer line is skipped unread into memory (the reader then calls it too large),
        so that a line without end (``engine < /dev/zero``) cannot fill the memory."""
        limit = MAX_JSON_BYTES + 1
        while line := self.stdin.readline(limit):
            if len(line) >= limit and not line.endswith("\n"):
                while (rest := self.stdin.readline(limit)) and not rest.endswith("\n"):
                    pass
            yield line

    def _take(self, line: str) -> None:
        try:
            doc = parse_json(line)
        except FormatError as exc:  # bad JSON, too large, too deep, or a number too long to convert
            self.send({"id": None, "error": str(exc)[:160], "field": ""})
            return
        if not isinstance(doc, dict):
            self.send({"id": None, "error": f"not a JSON object: {_show(doc)}", "field": ""})
            return
        if not _valid_id(doc.get("id")):
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
            if not _valid_id(doc.get("terminateId")):
                self.send({"id": doc["id"], "error": "terminate needs terminateId, the id of a query",
                           "field": "terminateId"})
                return
            target = _key(doc["terminateId"])
            with self.lock:
                running = self.running
                queued = []
                for query in self.pending.get(target, []):
                    query.terminated = True
                    if running is None or query is not running[0]:
                        queued.append(query)
            if running is not None and _key(running[0].id) == target:
                running[1].stop()
            for query in queued:  # not started: answered now, without moves
                self._finish(query, self._reply(query, None, during=False))
            self.send({"id": doc["id"], "action": "terminate", "terminateId": doc["terminateId"]})
        else:
            self.send({"id": doc["id"], "error": f"unknown action {_show(action)} (expected query_version or "
                                                 "terminate)", "field": "action"})

    # -- the main thread

    @staticmethod
    def _family_of(query: Query, game: Game | None) -> str | None:
        """The family of the game a query's document is of (None: not known here; reading the
        document will say what is wrong with it)."""
        if game is not None:
            return game.family
        try:
            return named_game(query.source, query.kind).family
        except FormatError:
            return None

    def _answer(self, query: Query) -> None:
        game = get_game(query.game) if query.game is not None else None  # checked when the query was read
        cards = self.cards if self._family_of(query, game) in (None, self.family) else None
        advisor = Advisor(query.limit, query.algorithm, query.seed, query.workers, cards=cards, game=game)
        with self.lock:
            if query.replied:  # terminated while it waited
                return
            self.running = (query, advisor)
            if query.terminated:
                advisor.stop()

        def report(advice: Advice) -> bool:
            if not query.terminated:
                with self.lock:
                    if not query.replied:
                        self._write(self._reply(query, advice, during=True))
            return query.terminated

        try:
            _check_game(query, cards)
            advice = advisor.advise(query.source, query.ply, on_progress=report if query.report_every else None,
                                    report_every=query.report_every)
        except OmenError as exc:
            self._finish(query, {"id": query.id, "error": str(exc), "field": _error_field(exc, query)})
        except Exception as exc:  # a bug must not take the engine down: report it, keep serving
            self._finish(query, {"id": query.id, "error": f"internal error: {type(exc).__name__}: {exc}",
                                 "field": ""})
        else:
            self._finish(query, self._reply(query, advice, during=False))
        finally:
            with self.lock:
                self.running = None

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
