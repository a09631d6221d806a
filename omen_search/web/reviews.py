"""Reviews of game records in the browser: every deciding seat's decisions analysed
(:func:`omen_search.analysis.analyze_game`) in search threads, followed by the page step by step,
then looked at decision by decision and practised.

A :class:`ReviewSession` checks its record when it is opened (a bad record is refused at once,
naming the ply or field), then analyses each deciding seat in a search thread of its own
(:class:`~omen_search.web.jobs.Searches`), bumping its version after every search so a page
shows a progress bar; :meth:`ReviewSession.stop` ends the analysis within one search. The board
of a decision is the seat's own view then (its observation, kept by the analysis), never the
whole deal the record's seed gives.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from typing import Any, Literal

from omen_search.analysis import (AnalysisStopped, Decision, Estimate, GameReview, analyze_game,
                                  label_of, points_lost, seen_position, value_of_move)
from omen_search.advisor import budget
from omen_search.errors import IllegalMoveError, NotationError, UsageError, shown
from omen_search.game import Game
from omen_search.limits import check_int
from omen_search.records import record_game, replay
from omen_search.search import Limit
from omen_search.table import is_table_record, load_table
from omen_search.web.jobs import Searches
from omen_search.web.sessions import HUMAN, Store, TurnError, Versioned
from omen_search.web.views import move_choices

MAX_REVIEW_ITERATIONS = 100_000
ReviewStatus = Literal["analysing", "done", "stopped", "failed"]


def _estimate(e: Estimate) -> dict[str, Any]:
    return {"win_prob": round(e.win_prob, 4), "low": round(e.low, 4), "high": round(e.high, 4),
            "vp_margin": round(e.vp_margin, 3)}


def decision_json(seat: int, d: Decision) -> dict[str, Any]:
    """One decision for the page: what was played, the best move (``better``: the best when the move
    played is worse beyond the search error, else null), the values before and after, what was at
    stake, the decision's accuracy, the label the analysis gave, and the search's best few moves
    with their values."""
    return {"seat": seat, "ply": d.ply, "played": str(d.played), "best": str(d.best),
            "better": None if d.better is None else str(d.better),
            "before": _estimate(d.before), "after": _estimate(d.after), "loss": round(d.loss, 2),
            "stake": round(d.stake, 2), "accuracy": round(d.accuracy, 1),
            "label": d.label, "explain": d.explain() if d.loss > 0 else None,
            "top": [{"move": str(m), **_estimate(e)} for m, e in d.top]}


def verdict(move: Any, estimate: Estimate, best: Decision) -> dict[str, Any]:
    """How a move tried in practice compares with the best the analysis found: ``best`` (the same
    move), ``as-good`` (the two values' 95% intervals overlap, or it is valued higher: the search
    cannot tell them apart), ``close`` (worse, but by less than an inaccuracy), or the label the
    loss earns (``inaccuracy``, ``mistake``, ``blunder``)."""
    before = best.before
    lost = points_lost(before, estimate)
    if move == best.best:
        kind = "best"
        text = f"{move} is the best move the search found ({100 * before.win_prob:.0f}%)."
    elif lost <= 0 or estimate.high >= before.low:
        kind = "as-good"
        text = (f"{move} is as good as the best within the search's error: {100 * estimate.win_prob:.0f}% "
                f"({100 * estimate.low:.0f}–{100 * estimate.high:.0f}%) against {100 * before.win_prob:.0f}% "
                f"({100 * before.low:.0f}–{100 * before.high:.0f}%) for {best.best}.")
    else:
        kind = label_of(before, estimate) or "close"
        text = (f"{move}: {100 * estimate.win_prob:.0f}% against {100 * before.win_prob:.0f}% for {best.best}, "
                f"{lost:.0f} points worse" + (f": {'an' if kind == 'inaccuracy' else 'a'} {kind}." if kind != "close"
                                              else ", under the 5 points of an inaccuracy."))
    if move == best.played:
        text += " It is the move played in the game."
    return {"move": str(move), **_estimate(estimate), "verdict": kind, "loss": round(max(0.0, lost), 2), "text": text,
            "good": kind in ("best", "as-good")}


class ReviewSession(Versioned):
    """The review of one record: each deciding seat analysed with ``limit`` per search (settling up
    to ``settle``), from what that seat saw. ``you`` is the seat the record calls ``human`` (the one
    practice starts with)."""

    def __init__(self, review_id: str, record: dict[str, Any], game: Game, cards: Any, searches: Searches,
                 limit: Limit, plies: int, title: str, settle: int | None = None):
        super().__init__()
        self.id, self.record, self.game, self.cards, self.searches = review_id, record, game, cards, searches
        self.limit, self.plies, self.title, self.settle = limit, plies, title, settle
        players = record.get("players")
        self.players = [str(p) for p in players] if isinstance(players, list) and len(players) == game.players \
            else [f"seat {s}" for s in range(game.players)]
        self.you = next((s for s, p in enumerate(self.players) if p == HUMAN and s in game.deciding_seats), None)
        self.seed = 0  # the analysis's seed: a review of the same record with the same budget gives the same values
        self.status: ReviewStatus = "analysing"
        self.error: str | None = None
        self.seats: tuple[int, ...] = game.deciding_seats  # the seats analysed (a table record: its user's)
        self.progress = {s: (0, 0) for s in self.seats}
        self.reviews: dict[int, GameReview] = {}
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._analyse())

    async def _analyse(self) -> None:
        loop = asyncio.get_running_loop()

        def progress(seat: int) -> Any:
            def report(done: int, total: int) -> None:
                loop.call_soon_threadsafe(self._progressed, seat, done, total)
            return report

        try:
            found = await asyncio.gather(*(self.searches.run(
                lambda seat=seat: analyze_game(self.record, seat, self.limit, cards=self.cards, seed=self.seed,
                                               game=self.game, on_progress=progress(seat), stop=self._stop,
                                               settle=self.settle))
                for seat in self.seats))
            self.reviews = {r.player: r for r in found}
            self.status = "done"
        except AnalysisStopped:
            self.status = "stopped"
        except asyncio.CancelledError:
            self._stop.set()
            raise
        except Exception as exc:  # a bug: shown on the page rather than lost in a task
            self.status, self.error = "failed", f"the analysis failed: {exc!r}"
        self._changed_now()

    def _progressed(self, seat: int, done: int, total: int) -> None:
        if self.status == "analysing":
            self.progress[seat] = (done, total)
            self._changed_now()

    def stop(self) -> None:
        """End the analysis within one search; raises :class:`TurnError` once it is over."""
        if self.status != "analysing":
            raise TurnError(f"stop: the analysis is {self.status} already")
        self._stop.set()

    async def close(self) -> None:
        self._stop.set()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    # -- what the page sees

    def snapshot(self) -> dict[str, Any]:
        """The review so far: the progress while it runs, then every seat's decisions and accuracy."""
        done = sum(d for d, _ in self.progress.values())
        total = sum(t for _, t in self.progress.values())
        return {
            "id": self.id, "version": self.version, "title": self.title,
            "game": {"name": self.game.name, "title": self.game.title},
            "players": self.players, "you": self.you, "plies": self.plies,
            "iterations": self.limit.iterations, "settle": self.settle, "status": self.status, "error": self.error,
            "progress": {"done": done, "total": total},
            "seats": [{"seat": seat, "player": self.players[seat], "accuracy": round(review.accuracy, 1),
                       "decisions": [decision_json(seat, d) for d in review.decisions]}
                      for seat, review in sorted(self.reviews.items())],
        }

    def decision(self, seat: Any, ply: Any) -> Decision:
        """The analysed decision of ``seat`` at ``ply``; raises :class:`UsageError` naming the one
        that is not (and :class:`TurnError` before the analysis is done)."""
        if self.status != "done":
            raise TurnError(f"decision: the analysis is {self.status}, not done")
        check_int(seat, "seat", (0, self.game.players - 1))
        check_int(ply, "ply", (0, self.plies))
        review = self.reviews.get(seat)
        found = next((d for d in review.decisions if d.ply == ply), None) if review else None
        if found is None:
            raise UsageError(f"ply {ply}: seat {seat} made no decision there that was reviewed "
                             "(a forced move, another seat's turn, or a seat the rules play)")
        return found

    def board(self, seat: Any, ply: Any) -> dict[str, Any]:
        """The decision of ``seat`` at ``ply`` as that seat saw it: the board (:meth:`Game.view` of
        its observation then), the turn, and its legal moves then as steps (for practice)."""
        d = self.decision(seat, ply)
        position = seen_position(self.game, d.observation, self.cards)
        return {**decision_json(seat, d), "view": self.game.view(d.observation, self.cards),
                "turn": self.game.turn_header(position), "decision": self.game.decision_name(position),
                "moves": move_choices(self.game, position.legal_moves())}

    async def practise(self, seat: Any, ply: Any, text: Any) -> dict[str, Any]:
        """Judge ``text``, a move tried at the decision of ``seat`` at ``ply``: its value from a search
        of that move alone (in a search thread; the best move keeps the analysis's value) against the
        best's (:func:`verdict`). Raises :class:`NotationError` or :class:`IllegalMoveError`."""
        d = self.decision(seat, ply)
        if not isinstance(text, str):
            raise NotationError(f"move: must be text in the game's notation, got {shown(text)}")
        move = self.game.parse_move(text)
        legal = seen_position(self.game, d.observation, self.cards).legal_moves()
        if move not in legal:
            raise IllegalMoveError(f"move {text!r}: not legal at ply {ply} ({len(legal)} legal moves)")
        if move == d.best:
            estimate = d.before
        else:
            estimate = await self.searches.run(value_of_move, self.game, d.observation, d.ply, move, self.limit,
                                               self.cards, self.seed)
        return verdict(move, estimate, d)


class Reviews(Store[ReviewSession]):
    """The reviews this server holds, by id (as many as games, the oldest dropped first)."""

    def __init__(self, searches: Searches):
        super().__init__(searches, "review")

    async def open(self, record: Any, *, iterations: Any = None, title: str | None = None) -> ReviewSession:
        """A review of ``record`` (``omen-record/1``, checked move by move first), each search of
        ``iterations`` (default: the review's default budget, settling as ``omen-search analyze``). Raises
        :class:`~omen_search.errors.FormatError` for a malformed record or one of an unknown game,
        :class:`~omen_search.errors.RecordError` for one that does not replay."""
        limit, settle = budget(None if iterations is None else Limit(
            iterations=check_int(iterations, "iterations", (1, MAX_REVIEW_ITERATIONS))), None)
        if is_table_record(record):
            return await self._open_table(record, limit, settle, title)
        family = record_game(record)
        cards = family.default_cards()
        game = family.game_of_document(record, "record", cards)
        state = await self.searches.run(replay, record, cards, None, game)
        review = ReviewSession(secrets.token_urlsafe(9), record, game, cards, self.searches, limit, state.ply,
                               title or f"{game.title}, {state.ply} plies", settle)
        return await self._add(review)

    async def _open_table(self, record: dict[str, Any], limit: Limit, settle: int | None,
                          title: str | None) -> ReviewSession:
        """A table record's review: its user's seat only (the other seat's cards were never seen)."""
        table = await self.searches.run(load_table, record)
        game, events = table.game, len(table.events)
        review = ReviewSession(secrets.token_urlsafe(9), record, game, table.cards, self.searches, limit, events,
                               title or f"{game.title}, at the table, {events} events", settle)
        review.players = [HUMAN if s == table.seat else "opponent" for s in range(game.players)]
        review.you, review.seats, review.progress = table.seat, (table.seat,), {table.seat: (0, 0)}
        return await self._add(review)
