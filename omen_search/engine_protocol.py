"""``omen-search engine``: the advisor as a long-running process speaking JSON Lines, after
KataGo's analysis engine.

Each line on stdin is a query or an action; each line on stdout a reply carrying the query's
``id``. A query asks about one position (an observation, or a record at a ``ply``) or about several
plies of one record (``analyzeTurns``); each position it asks about may get partial reports
(``"isDuringSearch": true``) and is always answered by exactly one final line, carrying its
``turnNumber``: a reply with ``"isDuringSearch": false``, or, for bad input, an error
``{"id", "error", "field"}``; the engine goes on serving either way. Positions are searched one at
a time, in order; a reader thread keeps reading meanwhile, so a ``terminate`` (or ``terminate_all``)
action stops a running search at once (it then answers with what it has, marked
``"terminated": true``) or answers a queued one at once in the same way, without moves. Closing
stdin finishes the queued queries, then the engine exits with status 0. The protocol, with an
example session, is ``docs/engine-protocol.md``.

>>> import io
>>> out = io.StringIO()
>>> EngineServer(io.StringIO('{"id": 1, "action": "query_version"}\\n[]\\n'), out).serve()
0
>>> print(out.getvalue(), end="")  # doctest: +ELLIPSIS
{"id": 1, "action": "query_version", "version": "...", "protocol": 3}
{"id": null, "error": "not a JSON object: []", "field": ""}
"""

from __future__ import annotations

import difflib
import json
import queue
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
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

PROTOCOL_VERSION = 3  # 2: the query's "game"; 3: analyzeTurns, turnNumber, rootInfo, separated, terminate_all
MIN_REPORT_EVERY = 0.05  # seconds: partial reports no more often than this
MAX_TOP = 10_000
MAX_TURNS = 10_000  # plies one analyzeTurns may ask for
MAX_PLY = 10_000_000
QUERY_FIELDS = {"id", "observation", "record", "ply", "analyzeTurns", "game", "maxIterations", "maxSeconds", "seed",
                "reportDuringSearchEvery", "top", "workers", "algorithm"}
ACTIONS = ("query_version", "terminate", "terminate_all")
# KataGo's query fields that this engine does not read, and the field that does the job here (None: none does)
KATAGO_FIELDS: dict[str, str | None] = {
    "maxVisits": "maxIterations", "maxPlayouts": "maxIterations", "maxTime": "maxSeconds",
    "moves": "record", "initialStones": "observation", "initialPlayer": "observation", "rules": "game",
    "komi": None, "boardXSize": None, "boardYSize": None, "whiteHandicapBonus": None, "analysisPVLen": None,
    "includeOwnership": None, "includeOwnershipStdev": None, "includeMovesOwnership": None,
    "includePolicy": None, "includePVVisits": None, "avoid": None, "allowMoves": None,
    "overrideSettings": None, "priority": None, "priorities": None,
}


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
    ply_field: str  # where the ply came from: "ply", or "analyzeTurns[i]"; its replies carry turnNumber
    game: str | None  # the game the observation or record must be of (None: any)
    limit: Limit | None  # None: the default advice (adaptive)
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


def unknown_field_warning(name: str) -> str:
    """What a query's field that this engine does not read is told: KataGo's names point at the
    field that does the job here, and a near miss of a field of ours at that field.

    >>> unknown_field_warning("maxVisits")
    "unknown field, ignored: KataGo's maxVisits; did you mean maxIterations?"
    >>> unknown_field_warning("maxIteration")
    'unknown field, ignored; did you mean maxIterations?'
    """
    if name in KATAGO_FIELDS:
        instead = KATAGO_FIELDS[name]
        return (f"unknown field, ignored: KataGo's {name}; did you mean {instead}?" if instead else
                f"unknown field, ignored: KataGo's {name}, which these games do not have")
    close = difflib.get_close_matches(name, sorted(QUERY_FIELDS), n=1, cutoff=0.75)
    return f"unknown field, ignored; did you mean {close[0]}?" if close else "unknown field, ignored"


def _turns(doc: dict[str, Any]) -> list[int] | None:
    """The plies of ``analyzeTurns`` (None: not given); raises :class:`QueryError` naming the field."""
    turns = doc.get("analyzeTurns")
    if turns is None:
        return None
    if "ply" in doc:
        raise QueryError("analyzeTurns", "analyzeTurns: give ply or analyzeTurns, not both")
    if not isinstance(turns, list) or not 1 <= len(turns) <= MAX_TURNS:
        raise QueryError("analyzeTurns", f"analyzeTurns: must be a list of 1 to {MAX_TURNS} plies, got {_show(turns)}")
    for i, ply in enumerate(turns):
        problem = int_problem(ply, (0, MAX_PLY))
        if problem:
            raise QueryError(f"analyzeTurns[{i}]", f"analyzeTurns[{i}] {problem}")
        if ply in turns[:i]:
            raise QueryError(f"analyzeTurns[{i}]", f"analyzeTurns[{i}]: ply {ply} is asked for twice")
    return turns


def parse_queries(doc: dict[str, Any]) -> list[Query]:
    """The positions a query asks about: one, or one per ply of ``analyzeTurns`` (in its order,
    each with the whole budget). Raises :class:`QueryError` naming the first bad field."""
    query = parse_query(doc)
    turns = _turns(doc)
    if turns is None:
        return [query]
    return [replace(query, ply=ply, ply_field=f"analyzeTurns[{i}]", warnings=list(query.warnings))
            for i, ply in enumerate(turns)]


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
    for name in ("ply", "analyzeTurns"):
        if name in doc and not has_record:
            raise QueryError(name, f"{name} goes with a record")
    ply = _int(doc, "ply", (0, MAX_PLY))
    game = doc.get("game")
    if game is not None:
        try:
            get_game(game)
        except UsageError as exc:
            raise QueryError("game", str(exc)) from None
    iterations = _int(doc, "maxIterations", ITERATIONS)
    seconds = _seconds(doc, "maxSeconds")
    algorithm = doc.get("algorithm", "ismcts")
    if algorithm not in ALGORITHMS:
        raise QueryError("algorithm", f"algorithm must be 'ismcts' or 'ismcts-mo', got {_show(algorithm)}")
    seed = _int(doc, "seed", (0, MASK64))
    report_every = _seconds(doc, "reportDuringSearchEvery", MIN_REPORT_EVERY)
    top = _int(doc, "top", (1, MAX_TOP))
    workers = _int(doc, "workers", WORKERS)
    warnings = [{"field": k, "warning": unknown_field_warning(k)} for k in doc if k not in QUERY_FIELDS]
    return Query(
        id=doc["id"], kind="record" if has_record else "observation",
        source=doc["record"] if has_record else doc["observation"], ply=ply, ply_field="ply", game=game,
        limit=None if iterations is None and seconds is None else Limit(iterations=iterations, seconds=seconds),
        seed=0 if seed is None else seed,
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
        return query.ply_field
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
            queries = parse_queries(doc)
        except QueryError as exc:
            self.send({"id": doc["id"], "error": str(exc), "field": exc.field})
            return
        with self.lock:
            self.pending.setdefault(_key(doc["id"]), []).extend(queries)
        for query in queries:
            self.queue.put(query)

    def _action(self, doc: dict[str, Any]) -> None:
        action = doc["action"]
        if action == "query_version":
            self.send({"id": doc["id"], "action": "query_version", "version": __version__,
                       "protocol": PROTOCOL_VERSION})
            return
        if action not in ACTIONS:
            close = difflib.get_close_matches(str(action), ACTIONS, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else ""
            self.send({"id": doc["id"], "error": f"unknown action {_show(action)} (expected query_version, "
                                                 f"terminate or terminate_all{hint})", "field": "action"})
            return
        if action == "terminate" and not _valid_id(doc.get("terminateId")):
            self.send({"id": doc["id"], "error": "terminate needs terminateId, the id of a query",
                       "field": "terminateId"})
            return
        turns = doc.get("turnNumbers")
        if turns is not None and not (isinstance(turns, list) and len(turns) <= MAX_TURNS
                                      and all(int_problem(t, (0, MAX_PLY)) is None for t in turns)):
            self.send({"id": doc["id"], "error": f"turnNumbers must be a list of at most {MAX_TURNS} plies, got "
                                                 f"{_show(turns)}", "field": "turnNumbers"})
            return
        target = _key(doc["terminateId"]) if action == "terminate" else None
        self._terminate(target, turns)
        ack = {"id": doc["id"], "action": action}
        if target is not None:
            ack["terminateId"] = doc["terminateId"]
        if turns is not None:
            ack["turnNumbers"] = turns
        self.send(ack)

    def _terminate(self, target: str | None, turns: list[int] | None) -> None:
        """Terminate the queries with the id ``target`` (None: every query), only those plies of them
        if ``turns`` is given: the running one stops and answers with what it has, the queued ones
        are answered now, without moves."""
        with self.lock:
            running = self.running
            hit = [query for key, waiting in self.pending.items() if target in (None, key) for query in waiting
                   if turns is None or _turn_number(query) in turns]
            for query in hit:
                query.terminated = True
        for query in hit:
            if running is not None and query is running[0]:
                running[1].stop()
            else:
                self._finish(query, self._reply(query, None, during=False))

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
            self._finish(query, self._error(query, str(exc), _error_field(exc, query)))
        except Exception as exc:  # a bug must not take the engine down: report it, keep serving
            self._finish(query, self._error(query, f"internal error: {type(exc).__name__}: {exc}", ""))
        else:
            self._finish(query, self._reply(query, advice, during=False))
        finally:
            with self.lock:
                self.running = None

    @staticmethod
    def _reply(query: Query, advice: Advice | None, during: bool) -> dict[str, Any]:
        reply: dict[str, Any] = {"id": query.id, "isDuringSearch": during,
                                 "turnNumber": advice.ply if advice is not None else _turn_number(query)}
        if advice is not None:
            reply.update(advice.to_dict(query.top))
            reply["rootInfo"] = root_info(advice)
        else:
            reply["moves"] = []
        if query.terminated and not during:
            reply["terminated"] = True
        if query.warnings and not during:
            reply["warnings"] = query.warnings
        return reply


    @staticmethod
    def _error(query: Query, message: str, where: str) -> dict[str, Any]:
        """An error for a query's position; one of ``analyzeTurns`` names its ply in ``turnNumber``."""
        error: dict[str, Any] = {"id": query.id, "error": message, "field": where}
        if query.ply_field != "ply":
            error["turnNumber"] = query.ply
        return error


def _turn_number(query: Query) -> int | None:
    """The ply a query is about, as far as its document says without being read (the turnNumber of a
    query terminated before it ran, and what a terminate's ``turnNumbers`` are matched with): its
    ``ply``, a record's length, an observation's ``ply`` (0 if it has none); None if that is not a
    ply."""
    doc = query.source
    if query.ply is not None:
        return query.ply
    value = (len(doc["moves"]) if isinstance(doc.get("moves"), list) else None) if query.kind == "record" \
        else doc.get("ply", 0)
    return value if int_problem(value, (0, MAX_PLY)) is None else None


def root_info(advice: Advice) -> dict[str, Any]:
    """The position's value for the player to move: its search's mean over every iteration (all
    root moves together, as KataGo's rootInfo), and how many iterations (``visits``) stand behind
    it; null values when nothing was searched (a forced move)."""
    visits = sum(m.visits for m in advice.moves)
    if not visits:
        return {"currentPlayer": advice.pov, "winProb": None, "vpMargin": None, "visits": 0}
    return {"currentPlayer": advice.pov, "visits": visits,
            "winProb": round(sum(m.win_prob * m.visits for m in advice.moves) / visits, 4),
            "vpMargin": round(sum(m.vp_margin * m.visits for m in advice.moves) / visits, 4)}


def _key(value: Any) -> str:
    """Ids compare as JSON text, so 7 and "7" are different queries."""
    return json.dumps(value)
