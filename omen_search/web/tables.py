"""Games followed at a real table in the browser (:mod:`omen_search.table`), kept on the server by id.

A :class:`TableSession` holds one :class:`~omen_search.table.TableGame`: the page enters each event
(a seat's move, with the hidden cards it showed the user); an event that needs a card named first
is answered with the question and changes nothing, so the page keeps the event being entered and
posts it again with the card. Advice runs in a search thread from the user's observation only.
"""

from __future__ import annotations

import secrets
from typing import Any

from omen_search.advisor import Advisor
from omen_search.errors import UsageError, shown
from omen_search.game import get_game
from omen_search.search import Limit
from omen_search.table import MissingSeenError, TableGame, TableQuestion, load_table
from omen_search.web.jobs import Searches
from omen_search.web.sessions import DEFAULT_HINT, HINT_TOP, Store, TurnError, Versioned
from omen_search.web.views import advice_json, move_choices

WHO = ("you", "opponent")  # how the page names the user's seat and the other one


def question_json(game: Any, question: TableQuestion) -> dict[str, Any]:
    """A question for the page: a decision's moves as steps (:func:`move_choices`), a seen card's choices."""
    return {**question.to_dict(), "moves": move_choices(game, question.moves)}


class TableSession(Versioned):
    """One game followed at the table (see the module)."""

    def __init__(self, session_id: str, table: TableGame, searches: Searches):
        super().__init__()
        self.id, self.table, self.searches = session_id, table, searches
        self.hint: dict[str, Any] | None = None
        self.hinting = False
        self._advisor: Advisor | None = None

    def start(self) -> None:
        """Nothing runs by itself at a table."""

    def who(self, seat: int) -> str:
        return WHO[0] if seat == self.table.seat else WHO[1]

    def add(self, seat: Any, move: Any, seen: Any) -> dict[str, Any] | None:
        """Enter an event; the question to answer first (nothing changed) if it showed the user a
        card ``seen`` does not name. Raises :class:`~omen_search.table.TableEventError` for an
        impossible event."""
        try:
            self.table.add(seat, move, seen)
        except MissingSeenError as exc:
            return question_json(self.table.game, exc.question)
        self.hint = None
        self._changed_now()
        return None

    def undo(self) -> None:
        self.table.undo()
        self.hint = None
        self._changed_now()

    async def advise(self, limit: Limit = DEFAULT_HINT) -> dict[str, Any]:
        """The advisor's best moves at the user's decision, from the user's observation alone."""
        now = self.table.ask()
        if now.kind != "decision" or now.seat != self.table.seat:
            raise TurnError("advice: it is not your decision")
        if self.hinting:
            raise TurnError("advice: advice is being searched already")
        game, events = self.table.game, len(self.table.events)
        advisor = self._advisor = Advisor(limit, seed=secrets.randbits(63), game=game, cards=self.table.cards)
        self.hinting = True
        try:
            advice = await self.searches.run(advisor.advise, self.table.observation())
        finally:
            self.hinting = False
            self._advisor = None
        if len(self.table.events) != events:
            raise TurnError("advice: an event was entered while it was searched")
        self.hint = {**advice_json(game, advice, HINT_TOP), "event": events}
        self._changed_now()
        return self.hint

    def stop_advice(self) -> bool:
        """End a running advice early (it answers with the advice so far); whether one was running."""
        if self._advisor is None:
            return False
        self._advisor.stop()
        return True

    async def close(self) -> None:
        """A running advice is stopped."""
        self.stop_advice()

    def snapshot(self) -> dict[str, Any]:
        """The game as the user sees it: the board, the events so far, what comes next."""
        table, game = self.table, self.table.game
        return {
            "id": self.id, "version": self.version, "game": {"name": game.name, "title": game.title},
            "seat": table.seat, "players": [self.who(s) for s in range(game.players)],
            "view": game.view(table.observation(), table.cards),
            "next": question_json(game, table.ask()),
            "events": [{"index": i, "seat": e.seat, "who": self.who(e.seat), "move": e.move, "seen": list(e.seen),
                        "turn": game.turn_header(table.worlds[i])} for i, e in enumerate(table.events)],
            "can_undo": bool(table.events), "hint": self.hint, "hinting": self.hinting,
        }

    def record(self) -> dict[str, Any]:
        return self.table.to_record()


class Tables(Store[TableSession]):
    """The games followed at a table that this server holds, by id."""

    def __init__(self, searches: Searches):
        super().__init__(searches, "table")

    @staticmethod
    def setup(game: Any) -> dict[str, Any]:
        """The set-up form's choices: the cards a starting hand can hold and how many."""
        if not isinstance(game, str):
            raise UsageError(f"game: must be a game's name, got {shown(game)}")
        found = get_game(game)
        size, names = TableGame.hand_choices(found)
        return {"game": found.name, "hand_size": size, "cards": list(names),
                "options": found.describe()["options"], "seats": list(found.deciding_seats)}

    async def new(self, game: Any, *, options: Any = None, seat: Any = 0, hand: Any = (), seen: Any = ()
                  ) -> TableSession | dict[str, Any]:
        """A new game at the table, or the question its set-up must answer first."""
        if not isinstance(game, str):
            raise UsageError(f"game: must be a game's name, got {shown(game)}")
        try:
            table = TableGame.start(game, options, seat, hand, seen)
        except MissingSeenError as exc:
            return question_json(get_game(game), exc.question)
        return await self._add(TableSession(secrets.token_urlsafe(9), table, self.searches))

    async def load(self, record: Any) -> TableSession:
        """A game from a table record (``omen-table/1``), every event checked."""
        table = await self.searches.run(load_table, record)
        return await self._add(TableSession(secrets.token_urlsafe(9), table, self.searches))

