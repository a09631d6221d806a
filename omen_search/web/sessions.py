"""Games played in the browser, kept on the server by id: a person in one seat, bots in the others.

A :class:`PlaySession` owns one game's state and changes it only on the event loop; the bots think
in search threads on clones (:mod:`omen_search.web.jobs`), so a page can ask for the board, a hint
or an undo while a bot thinks. Every change bumps :attr:`PlaySession.version`, and a page that
waits for the next version (:meth:`PlaySession.wait`) sees each bot move as it is made. Several
games (tabs) run at once in a :class:`Sessions` store.

What leaves a session for the page is made from the person's observation only
(:meth:`PlaySession.snapshot`); the seed, the deck order and the other seats' hidden cards stay
here. A saved record holds the seed, as every record does (``docs/formats.md``).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from omen_search.advisor import Advice, Advisor
from omen_search.bots import SEARCHING_KINDS, Bot, bot_seed, make_bot, parse_spec
from omen_search.errors import IllegalMoveError, NotationError, OmenError, UsageError, shown
from omen_search.game import Game, get_game
from omen_search.records import make_record, record_game, replay, winner_of
from omen_search.rng import MASK64
from omen_search.search import Limit
from omen_search.web.jobs import BotMove, Searches
from omen_search.web.views import advice_json, board_changes, move_choices

MAX_SESSIONS = 32  # games kept at once; starting one more drops the one left alone longest
DEFAULT_OPPONENT = "ismcts:iterations=2000"
HINT_TOP = 3
DEFAULT_HINT = Limit(iterations=10_000)
HUMAN = "human"  # how a record names the person's seat
Status = Literal["your-move", "thinking", "over"]


class UnknownSessionError(OmenError):
    """A request names a game (or a review) this server does not hold (never started, or dropped:
    the server keeps :data:`MAX_SESSIONS` and forgets them all when it stops)."""


class TurnError(OmenError):
    """A request that the game's moment does not allow: a move while a bot is to move or after the
    end, an undo with nothing to undo."""


@dataclass(frozen=True)
class LogEntry:
    """A move as the person saw it made: ``turn`` is the game's turn line (None for a game without
    turns), ``text`` the move as ``seat``'s move shows to the person (a hidden choice hides); or,
    of kind ``automaton``, what the rules did for a seat nobody decides for after that move."""

    ply: int
    seat: int
    who: str
    turn: str | None
    text: str
    kind: str = "move"  # or "automaton": what changed for a seat the rules play, after the move at ply

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "who": self.who, "turn": self.turn, "text": self.text,
                "kind": self.kind}


class Versioned:
    """Something a page follows: every change bumps :attr:`version`, and :meth:`wait` returns at
    the next one, so a page sees each bot move or step of an analysis as it happens."""

    def __init__(self) -> None:
        self.version = 0
        self._changed = asyncio.Event()
        self.touched = time.monotonic()

    def _changed_now(self) -> None:
        self.version += 1
        self.touched = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait(self, after: int, timeout: float) -> None:
        """Return once :attr:`version` is past ``after``, or after ``timeout`` seconds."""
        if self.version > after:
            return
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except asyncio.TimeoutError:
            pass


class PlaySession(Versioned):
    """One game against the engine: the person in ``seat``, a bot of ``opponent`` (a spec, as
    :func:`~omen_search.bots.make_bot` reads it) in each other deciding seat.

    Raises :class:`UsageError` for a seat the game has no player in, or a bad spec."""

    def __init__(self, session_id: str, game: Game, searches: Searches, *, seat: int = 0,
                 opponent: str = DEFAULT_OPPONENT, seed: int | None = None, config: Any = None,
                 cards: Any = None, moves: tuple[Any, ...] = ()):
        if isinstance(seat, bool) or seat not in game.deciding_seats:
            raise UsageError(f"seat: {game.name}'s players sit in seat "
                             f"{' or '.join(map(str, game.deciding_seats))}, not {shown(seat)}")
        kind = parse_spec(opponent)[0] if isinstance(opponent, str) else None
        if kind is None or kind == HUMAN:
            raise UsageError(f"opponent: must be a bot spec (random, greedy, pimc:…, ismcts:…), got {shown(opponent)}")
        if "core" not in game.engines and kind in SEARCHING_KINDS:
            raise UsageError(f"opponent: {game.name} is played on its reference engine only so far, and "
                             f"{kind} searches on a core: choose random, first or greedy")
        super().__init__()
        self.id, self.game, self.searches, self.seat = session_id, game, searches, seat
        self.cards = cards if cards is not None else game.default_cards()
        self.seed = secrets.randbits(64) if seed is None else seed
        self.opponent = opponent
        self.bots: dict[int, Bot] = {s: make_bot(opponent, bot_seed(self.seed, s), game)
                                     for s in game.deciding_seats if s != seat}
        self.state = game.new_initial_state(self.seed, engine=game.engines[0], cards=self.cards, config=config)
        self.log: list[LogEntry] = []
        self._decisions: list[int] = []  # the plies at which the person decided, for undo
        for move in moves:
            self._apply(move)
        self.resigned = False
        self.error: str | None = None
        self.hint: dict[str, Any] | None = None
        self.hinting = False
        self._hint_stopped = False
        self._advisor: Advisor | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_move: BotMove | None = None

    # -- who is who

    def player_name(self, seat: int) -> str:
        """``you``, the bot spec, or the game's automaton (the solo Heir's Corrupted Heir)."""
        if seat == self.seat:
            return "you"
        return self.opponent if seat in self.bots else str(self.game.automaton or f"seat {seat}")

    def record_players(self) -> list[str]:
        return [HUMAN if s == self.seat else self.player_name(s) for s in range(self.game.players)]

    @property
    def over(self) -> bool:
        return self.resigned or self.state.is_terminal()

    @property
    def status(self) -> Status:
        """``your-move``, ``thinking`` (a bot is to move) or ``over``."""
        if self.over:
            return "over"
        return "your-move" if self.state.current_player == self.seat else "thinking"

    # -- changes, all on the event loop

    def _apply(self, move: Any) -> None:
        state, seat, game = self.state, self.state.current_player, self.game
        entry = LogEntry(state.ply, seat, self.player_name(seat), game.turn_header(state),
                         game.public_move(state, move, self.seat))
        automata = [s for s in range(game.players) if s not in game.deciding_seats]
        before = game.view(game.observe(state, self.seat), self.cards) if automata else None
        state.apply(move)
        self.log.append(entry)
        if seat == self.seat:
            self._decisions.append(entry.ply)
        if before is not None:  # what the rules played for a seat nobody decides for
            after = game.view(game.observe(state, self.seat), self.cards)
            for other in automata:
                changes = board_changes(before, after, (other,))
                if changes:
                    self.log.append(LogEntry(entry.ply, other, self.player_name(other), entry.turn,
                                             "; ".join(changes), "automaton"))

    def start(self) -> None:
        """Let the bots play until the person's turn (call once the session is on the loop)."""
        if self.status == "thinking" and (self._bot_task is None or self._bot_task.done()):
            self._bot_task = asyncio.get_running_loop().create_task(self._play_bots())

    async def _play_bots(self) -> None:
        try:
            while self.status == "thinking":
                mover = self.state.current_player
                if mover not in self.bots:  # a seat nobody plays (cannot happen with deciding_seats)
                    raise UsageError(f"seat {mover} has no player")
                job = self._bot_move = BotMove(self.bots[mover], self.game)
                move = await self.searches.run(job.choose, self.state.clone())
                if job.stopped:
                    return
                self._apply(move)
                self._changed_now()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug: shown on the page rather than lost in a task
            self.error = f"the bot in seat {self.state.current_player} failed: {exc!r}"
            self._changed_now()
        finally:
            self._bot_move = None

    async def _stop_bots(self) -> None:
        job, task = self._bot_move, self._bot_task
        if job is not None:
            job.stop()
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._bot_task = None

    def play(self, text: Any) -> None:
        """The person's move, in the game's notation. Raises :class:`TurnError` when it is not the
        person's turn, :class:`NotationError` for text that names no move and
        :class:`IllegalMoveError` for a move that is not legal now (an unknown card says so)."""
        if not isinstance(text, str):
            raise NotationError(f"move: must be text in the game's notation, got {shown(text)}")
        if self.status != "your-move":
            raise TurnError("move: the game is over" if self.over else
                            f"move: it is not your turn (seat {self.state.current_player} is to move)")
        move = self.game.parse_move(text)
        if move not in self.state.legal_moves():
            why = self.game.unknown_name(self.state, text) or "not legal here"
            raise IllegalMoveError(f"move {text!r}: {why} (ply {self.state.ply}, {self.game.decision_name(self.state)};"
                                   f" {len(self.state.legal_moves())} legal moves)")
        self._stop_hint()
        self._apply(move)
        self._changed_now()
        self.start()

    async def undo(self) -> None:
        """Take back moves to the person's previous decision (the bots' replies with it); raises
        :class:`TurnError` when the person has made none."""
        if not self._decisions:
            raise TurnError("undo: you have made no move to take back")
        await self._stop_bots()
        self._stop_hint()
        target = self._decisions.pop()
        while self.state.ply > target:
            self.state.undo()
        self.log = [e for e in self.log if e.ply < target]
        self.resigned = False
        self.error = None
        self._changed_now()

    async def resign(self) -> None:
        if self.over:
            raise TurnError("resign: the game is over")
        await self._stop_bots()
        self._stop_hint()
        self.resigned = True
        self._changed_now()

    # -- hints

    async def advise(self, limit: Limit = DEFAULT_HINT) -> dict[str, Any]:
        """The advisor's best moves for the person's decision (from what the person sees), run in a
        search thread; :meth:`stop_hint` ends it early with the advice so far."""
        if self.status != "your-move":
            raise TurnError("hint: the game is over" if self.over else "hint: it is not your turn")
        if self.hinting:
            raise TurnError("hint: a hint is being searched already")
        if "core" not in self.game.engines:
            raise UsageError(f"hint: {self.game.name} is played on its reference engine only so far; hints search on a core")
        advisor = self._advisor = Advisor(limit, seed=secrets.randbits(63), game=self.game)
        self._hint_stopped = False
        ply = self.state.ply
        self.hinting = True
        self._changed_now()
        version = self.version
        try:
            advice: Advice = await self.searches.run(advisor.advise, self.state.clone())
        finally:
            self.hinting = False
            self._advisor = None
        if self.version != version:  # a move or an undo came first: the hint is of another decision
            self._changed_now()
            raise TurnError("hint: the position changed while it was searched")
        self.hint = {**advice_json(self.game, advice, HINT_TOP), "stopped": self._hint_stopped, "ply": ply}
        self._changed_now()
        return self.hint

    def _stop_hint(self) -> None:
        if self._advisor is not None:
            self._advisor.stop()
        self.hint = None

    def stop_hint(self) -> None:
        """End a running hint early: it answers with the advice so far."""
        if self._advisor is not None:
            self._hint_stopped = True
            self._advisor.stop()

    # -- what the page sees

    def snapshot(self) -> dict[str, Any]:
        """The game as the person sees it: the board (:meth:`Game.view` of their observation), their
        legal moves when it is their turn, the moves made so far as they saw them, the result."""
        state, game = self.state, self.game
        yours = self.status == "your-move"
        result = None
        if state.is_terminal():
            result = {"winner": winner_of(state), "resigned": False, "text": game.describe_result(state),
                      "scores": list(state.scores())}
        elif self.resigned:
            result = {"winner": 1 - self.seat if game.players == 2 else None, "resigned": True,
                      "text": f"You resigned at ply {state.ply}."}
        return {
            "id": self.id,
            "version": self.version,
            "game": {"name": game.name, "title": game.title},
            "seat": self.seat,
            "players": [self.player_name(s) for s in range(game.players)],
            "status": self.status,
            "to_move": state.current_player,
            "ply": state.ply,
            "turn": game.turn_header(state) if not state.is_terminal() else None,
            "decision": game.decision_name(state) if yours else None,
            "view": game.view(game.observe(state, self.seat), self.cards),
            "moves": move_choices(game, state.legal_moves()) if yours else [],
            "log": [e.to_dict() for e in self.log],
            "can_undo": bool(self._decisions),
            "hint": self.hint if self.hint is not None and self.hint.get("ply") == state.ply else None,
            "hinting": self.hinting,
            "thinking": {"iterations": self._bot_move.iterations} if self._bot_move is not None else None,
            "result": result,
            "error": self.error,
        }

    def brief(self) -> dict[str, Any]:
        """The game in a line of a list (the games a review can be opened on)."""
        return {"id": self.id, "game": {"name": self.game.name, "title": self.game.title}, "seat": self.seat,
                "players": [self.player_name(s) for s in range(self.game.players)], "ply": self.state.ply,
                "status": self.status}

    def record(self) -> dict[str, Any]:
        """The game so far as a record (``omen-record/1``): the seed, the players (the person as
        ``human``) and every move; it replays with ``omen-search replay`` and loads back here."""
        return make_record(self.state, self.record_players(), self.game)

    async def close(self) -> None:
        await self._stop_bots()
        self._stop_hint()


class Held(Protocol):
    """What a :class:`Store` holds: something with an id that starts work and can be stopped."""

    id: str

    def start(self) -> None: ...

    async def close(self) -> None: ...


H = TypeVar("H", bound=Held)


class Store(Generic[H]):
    """Things this server holds by id (games, reviews): at most ``limit``, the one left alone
    longest dropped (and closed) for a new one. ``kind`` names them in errors."""

    def __init__(self, searches: Searches, kind: str, limit: int = MAX_SESSIONS):
        self.searches, self.kind, self.limit = searches, kind, limit
        self._held: OrderedDict[str, H] = OrderedDict()

    def get(self, held_id: str) -> H:
        """The one with this id; raises :class:`UnknownSessionError` naming it."""
        found = self._held.get(held_id)
        if found is None:
            raise UnknownSessionError(f"{self.kind} {shown(held_id)}: no such {self.kind} on this server (it was "
                                      "never started here, was closed, or the server restarted); start a new one")
        self._held.move_to_end(held_id)
        return found

    def all(self) -> list[H]:
        """Everything held, the most recently used first."""
        return list(reversed(self._held.values()))

    async def _add(self, held: H) -> H:
        while len(self._held) >= self.limit:
            _, oldest = self._held.popitem(last=False)
            await oldest.close()
        self._held[held.id] = held
        held.start()
        return held

    async def close(self, held_id: str | None = None) -> None:
        """Drop one (stopping its searches), or all."""
        ids = [held_id] if held_id is not None else list(self._held)
        for i in ids:
            await self.get(i).close()
            del self._held[i]


class Sessions(Store[PlaySession]):
    """The games this server holds, by id: at most :data:`MAX_SESSIONS`, the one left alone
    longest dropped for a new one."""

    def __init__(self, searches: Searches, limit: int = MAX_SESSIONS):
        super().__init__(searches, "game", limit)

    async def new(self, game: str, *, seat: int = 0, opponent: str = DEFAULT_OPPONENT, options: Any = None,
                  seed: int | None = None) -> PlaySession:
        """A new game of the registered game named ``game`` with its ``options`` (a dict of option
        values, as ``omen-search games`` lists them); raises :class:`UsageError` naming a bad one."""
        if not isinstance(game, str):
            raise UsageError(f"game: must be a game's name, got {shown(game)}")
        found = get_game(game)
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise UsageError(f"options: must be an object of option values, got {shown(options)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64):
            raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {shown(seed)}")
        config = found.config(**options)
        session = PlaySession(secrets.token_urlsafe(9), found, self.searches, seat=seat, opponent=opponent,
                              seed=seed, config=config)
        return await self._add(session)

    async def load(self, record: Any, *, seat: int | None = None, opponent: str | None = None) -> PlaySession:
        """A game from a record (``omen-record/1``), checked move by move and ready to play on from
        its last move: the person in ``seat`` (default: the seat the record calls ``human``, else
        the first deciding seat) against ``opponent`` (default: the record's player of another seat,
        if it names a bot). Raises :class:`~omen_search.errors.RecordError` or ``FormatError``."""
        family = record_game(record)
        cards = family.default_cards()
        game = family.game_of_document(record, "record", cards)
        state = await self.searches.run(replay, record, cards, None, game)
        players = record.get("players") if isinstance(record.get("players"), list) else []
        if seat is None:
            seat = next((s for s, p in enumerate(players) if p == HUMAN and s in game.deciding_seats),
                        game.deciding_seats[0])
        if opponent is None:
            opponent = next((p for s, p in enumerate(players) if s != seat and s in game.deciding_seats
                             and isinstance(p, str) and _is_bot(p)), DEFAULT_OPPONENT)
        session = PlaySession(secrets.token_urlsafe(9), game, self.searches, seat=seat, opponent=opponent,
                              seed=state.seed, config=state.config, cards=cards, moves=tuple(state.moves))
        return await self._add(session)


def _is_bot(spec: str) -> bool:
    try:
        return parse_spec(spec)[0] != HUMAN
    except UsageError:
        return False
