"""The web app's routes: the page, its static files and a JSON API over the game sessions.

    GET    /                          the page (omen_search/web/static/index.html)
    GET    /api/games                 the games, their options and the opponents on offer
    POST   /api/play                  new game {game, seat, opponent, options, seed?}
    POST   /api/play/load             a game from a record {record, seat?, opponent?}
    GET    /api/play/{id}?after=V&wait=S   the game as the person sees it, once past version V
    POST   /api/play/{id}/move        {move}: the person's move, in the game's notation
    POST   /api/play/{id}/undo        back to the person's previous decision
    POST   /api/play/{id}/resign
    POST   /api/play/{id}/hint        {iterations? | seconds?}: the advisor's best three moves
    POST   /api/play/{id}/hint/stop   end a running hint with the advice so far
    GET    /api/play/{id}/record      the game as a record file (omen-record/1)
    DELETE /api/play/{id}
    GET    /api/play                  the games the server holds (to review one)
    POST   /api/review                a review {record | play: id, iterations?}: analysed in search threads
    GET    /api/review/{id}?after=V&wait=S   its progress, then every seat's decisions
    GET    /api/review/{id}/decision?seat=S&ply=P   a decision as the seat saw it, with its legal moves
    POST   /api/review/{id}/practice  {seat, ply, move}: a move tried there, judged against the best
    POST   /api/review/{id}/stop      end the analysis early
    DELETE /api/review/{id}
    GET    /api/table/setup?game=G    the set-up form's choices: the cards a starting hand can hold
    POST   /api/table                 a game at the table {game, options, seat, hand, seen}: 201, or 200
                                      with {question} when the set-up must name a card first
    POST   /api/table/load            a game at the table from a table record {record}
    GET    /api/table/{id}            the game as the user sees it, and what comes next
    POST   /api/table/{id}/event      {seat, move, seen}: the next event; 200 with {question} when it
                                      must name a card first (nothing changed), 422 for an impossible one
    POST   /api/table/{id}/undo       take the last event back
    POST   /api/table/{id}/advice     {iterations? | seconds?}: the advisor's best three at your decision
    POST   /api/table/{id}/advice/stop   end a running advice with the advice so far
    GET    /api/table/{id}/record     the game as a table record (omen-table/1)
    DELETE /api/table/{id}

Every error a request can cause is an :class:`~omen_search.errors.OmenError`, answered as
``{"error": <class name>, "message": <what was wrong, naming the field>}`` with a 4xx status
(:data:`STATUS`). Requests with a body must be ``application/json`` (so another site's page
cannot post to the server without the browser asking first), and the server answers only to the
host names it serves on (a DNS-rebinding page gets 400).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from omen_search.errors import (CardDataError, FormatError, IllegalMoveError, NotationError, OmenError,
                                RecordError, UsageError, shown)
from omen_search.jsonio import parse_json
from omen_search.limits import check_int, check_seconds
from omen_search.search import Limit
from omen_search.table import TableEventError
from omen_search.web.jobs import Searches
from omen_search.web.reviews import Reviews
from omen_search.web.sessions import (DEFAULT_HINT, DEFAULT_OPPONENT, Sessions, TurnError, UnknownSessionError,
                                      Versioned)
from omen_search.web.tables import Tables
from omen_search.web.views import catalogue

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4 * 1024 * 1024  # bytes of a request: a record of some 100,000 moves
MAX_WAIT = 30.0  # seconds a page may wait for the next change of a game
LOCAL_HOSTS = ("127.0.0.1", "localhost")


class RequestError(OmenError):
    """A request the API cannot read: not JSON, not an object, too large or of another type."""


class TooLargeError(RequestError):
    """A request body over :data:`MAX_BODY` bytes."""


STATUS: dict[type[OmenError], int] = {  # the most specific class listed decides
    UnknownSessionError: 404,
    TurnError: 409,
    TooLargeError: 413,
    IllegalMoveError: 422,
    TableEventError: 422,
    RequestError: 400,
    NotationError: 400,
    FormatError: 400,
    RecordError: 400,
    UsageError: 400,
    CardDataError: 400,
    OmenError: 400,
}


def status_of(exc: OmenError) -> int:
    return next(code for cls, code in STATUS.items() if isinstance(exc, cls))


async def _error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, OmenError)
    return JSONResponse({"error": type(exc).__name__, "message": str(exc)}, status_code=status_of(exc))


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object ({} for no body)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLargeError(f"request: {declared} bytes, at most {MAX_BODY}")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise TooLargeError(f"request: more than {MAX_BODY} bytes")
    if not data:
        return {}
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError(f"request: must be application/json, got {shown(kind or 'no content type')}")
    value = parse_json(bytes(data), "request")
    if not isinstance(value, dict):
        raise RequestError(f"request: must be a JSON object, got {type(value).__name__}")
    return value


def _sessions(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


def _tables(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _session_id(request: Request) -> str:
    return str(request.path_params["id"])


def _record_of(body: dict[str, Any]) -> dict[str, Any]:
    """The body's ``record``: a record object or its file's text, as the page read it; raises
    :class:`FormatError` for anything else."""
    record = body.get("record")
    if isinstance(record, str):
        record = parse_json(record, "record")
    if not isinstance(record, dict):
        raise FormatError(f"record: must be a game record (a JSON object), got {shown(record)}")
    return record


def _query_int(request: Request, name: str) -> int:
    value = request.query_params.get(name, "")
    try:
        return int(value)
    except ValueError:
        raise RequestError(f"{name}: must be a whole number, got {shown(value)}") from None


async def _followed(request: Request, followed: Versioned) -> None:
    """Wait, as ``?after=V&wait=S`` asks, until ``followed`` is past version V (at most
    :data:`MAX_WAIT` seconds): how a page follows a bot's moves or an analysis."""
    after, wait = request.query_params.get("after"), request.query_params.get("wait", "0")
    if after is None:
        return
    try:
        seconds = min(float(wait), MAX_WAIT)
        version = int(after)
    except ValueError:
        raise RequestError(f"after, wait: must be numbers, got {shown(after)} and {shown(wait)}") from None
    await followed.wait(version, 0.0 if math.isnan(seconds) else max(seconds, 0.0))


def _limit(body: dict[str, Any]) -> Limit:
    """A hint's budget from ``iterations`` or ``seconds`` (default :data:`DEFAULT_HINT`)."""
    iterations, seconds = body.get("iterations"), body.get("seconds")
    if iterations is None and seconds is None:
        return DEFAULT_HINT
    return Limit(iterations=None if iterations is None else check_int(iterations, "iterations", (1, 10**9)),
                 seconds=None if seconds is None else check_seconds(seconds, "seconds"))


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


async def games(request: Request) -> Response:
    return JSONResponse(catalogue())


async def new_game(request: Request) -> Response:
    body = await _body(request)
    session = await _sessions(request).new(body.get("game", "heir"), seat=body.get("seat", 0),
                                           opponent=body.get("opponent", DEFAULT_OPPONENT),
                                           options=body.get("options"), seed=body.get("seed"))
    return JSONResponse(session.snapshot(), status_code=201)


async def load_game(request: Request) -> Response:
    body = await _body(request)
    session = await _sessions(request).load(_record_of(body), seat=body.get("seat"), opponent=body.get("opponent"))
    return JSONResponse(session.snapshot(), status_code=201)


async def held_games(request: Request) -> Response:
    return JSONResponse({"games": [s.brief() for s in _sessions(request).all()]})


async def show(request: Request) -> Response:
    session = _sessions(request).get(_session_id(request))
    await _followed(request, session)
    return JSONResponse(session.snapshot())


async def move(request: Request) -> Response:
    body = await _body(request)
    session = _sessions(request).get(_session_id(request))
    session.play(body.get("move"))
    return JSONResponse(session.snapshot())


async def undo(request: Request) -> Response:
    session = _sessions(request).get(_session_id(request))
    await session.undo()
    return JSONResponse(session.snapshot())


async def resign(request: Request) -> Response:
    session = _sessions(request).get(_session_id(request))
    await session.resign()
    return JSONResponse(session.snapshot())


async def hint(request: Request) -> Response:
    body = await _body(request)
    session = _sessions(request).get(_session_id(request))
    return JSONResponse(await session.advise(_limit(body)))


async def stop_hint(request: Request) -> Response:
    session = _sessions(request).get(_session_id(request))
    session.stop_hint()
    return JSONResponse({"stopping": session.hinting})


def _download(document: dict[str, Any], name: str) -> Response:
    """A JSON document as a file the browser saves as ``name``."""
    return Response(json.dumps(document, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def record(request: Request) -> Response:
    session = _sessions(request).get(_session_id(request))
    return _download(session.record(), f"omen-{session.game.name}-{session.id[:6]}.json")


async def close(request: Request) -> Response:
    await _sessions(request).close(_session_id(request))
    return Response(status_code=204)


async def new_review(request: Request) -> Response:
    body = await _body(request)
    if "play" in body:  # a game of this server, as it stands
        session = _sessions(request).get(str(body["play"]))
        record, title = session.record(), f"your game of {session.game.title}"
    elif "table" in body:  # a game followed at the table here
        table = _tables(request).get(str(body["table"]))
        record, title = table.record(), f"your game at the table, {len(table.table.events)} events"
    else:
        record, title = _record_of(body), None
    review = await _reviews(request).open(record, iterations=body.get("iterations"), title=title)
    return JSONResponse(review.snapshot(), status_code=201)


async def show_review(request: Request) -> Response:
    review = _reviews(request).get(_session_id(request))
    await _followed(request, review)
    return JSONResponse(review.snapshot())


async def review_decision(request: Request) -> Response:
    review = _reviews(request).get(_session_id(request))
    return JSONResponse(review.board(_query_int(request, "seat"), _query_int(request, "ply")))


async def practise(request: Request) -> Response:
    body = await _body(request)
    review = _reviews(request).get(_session_id(request))
    return JSONResponse(await review.practise(body.get("seat"), body.get("ply"), body.get("move")))


async def stop_review(request: Request) -> Response:
    _reviews(request).get(_session_id(request)).stop()
    return JSONResponse({"stopping": True})


async def close_review(request: Request) -> Response:
    await _reviews(request).close(_session_id(request))
    return Response(status_code=204)


async def table_setup(request: Request) -> Response:
    return JSONResponse(_tables(request).setup(request.query_params.get("game", "heir")))


async def new_table(request: Request) -> Response:
    body = await _body(request)
    made = await _tables(request).new(body.get("game", "heir"), options=body.get("options"), seat=body.get("seat", 0),
                                      hand=body.get("hand", []), seen=body.get("seen", []))
    if isinstance(made, dict):
        return JSONResponse({"question": made})
    return JSONResponse(made.snapshot(), status_code=201)


async def load_table(request: Request) -> Response:
    body = await _body(request)
    return JSONResponse((await _tables(request).load(_record_of(body))).snapshot(), status_code=201)


async def show_table(request: Request) -> Response:
    return JSONResponse(_tables(request).get(_session_id(request)).snapshot())


async def table_event(request: Request) -> Response:
    body = await _body(request)
    table = _tables(request).get(_session_id(request))
    question = table.add(body.get("seat"), body.get("move"), body.get("seen", []))
    return JSONResponse({"question": question} if question is not None else table.snapshot())


async def table_undo(request: Request) -> Response:
    table = _tables(request).get(_session_id(request))
    table.undo()
    return JSONResponse(table.snapshot())


async def table_advice(request: Request) -> Response:
    body = await _body(request)
    return JSONResponse(await _tables(request).get(_session_id(request)).advise(_limit(body)))


async def table_advice_stop(request: Request) -> Response:
    return JSONResponse({"stopping": _tables(request).get(_session_id(request)).stop_advice()})


async def table_record(request: Request) -> Response:
    table = _tables(request).get(_session_id(request))
    return _download(table.record(), f"omen-table-{table.table.game.name}-{table.id[:6]}.json")


async def close_table(request: Request) -> Response:
    await _tables(request).close(_session_id(request))
    return Response(status_code=204)


def create_app(*, allowed_hosts: tuple[str, ...] | None = LOCAL_HOSTS, threads: int | None = None) -> Starlette:
    """The web app. ``allowed_hosts``: the host names it answers to (None: any, for a server
    opened to the network with ``--host``); ``threads``: search threads (default: the cores)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        searches = Searches(threads)
        app.state.sessions = Sessions(searches)
        app.state.reviews = Reviews(searches)
        app.state.tables = Tables(searches)
        try:
            yield
        finally:
            await app.state.sessions.close()
            await app.state.reviews.close()
            await app.state.tables.close()
            searches.close()

    routes = [
        Route("/", index),
        Route("/api/games", games),
        Route("/api/play", new_game, methods=["POST"]),
        Route("/api/play", held_games),
        Route("/api/play/load", load_game, methods=["POST"]),
        Route("/api/play/{id}", show),
        Route("/api/play/{id}", close, methods=["DELETE"]),
        Route("/api/play/{id}/move", move, methods=["POST"]),
        Route("/api/play/{id}/undo", undo, methods=["POST"]),
        Route("/api/play/{id}/resign", resign, methods=["POST"]),
        Route("/api/play/{id}/hint", hint, methods=["POST"]),
        Route("/api/play/{id}/hint/stop", stop_hint, methods=["POST"]),
        Route("/api/play/{id}/record", record),
        Route("/api/review", new_review, methods=["POST"]),
        Route("/api/review/{id}", show_review),
        Route("/api/review/{id}", close_review, methods=["DELETE"]),
        Route("/api/review/{id}/decision", review_decision),
        Route("/api/review/{id}/practice", practise, methods=["POST"]),
        Route("/api/review/{id}/stop", stop_review, methods=["POST"]),
        Route("/api/table/setup", table_setup),
        Route("/api/table", new_table, methods=["POST"]),
        Route("/api/table/load", load_table, methods=["POST"]),
        Route("/api/table/{id}", show_table),
        Route("/api/table/{id}", close_table, methods=["DELETE"]),
        Route("/api/table/{id}/event", table_event, methods=["POST"]),
        Route("/api/table/{id}/undo", table_undo, methods=["POST"]),
        Route("/api/table/{id}/advice", table_advice, methods=["POST"]),
        Route("/api/table/{id}/advice/stop", table_advice_stop, methods=["POST"]),
        Route("/api/table/{id}/record", table_record),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))] if allowed_hosts else []
    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                     exception_handlers={OmenError: _error})
