"""The table companion: a game played on a real table, followed from one seat, event by event.

The user sets up the game (its options, their seat, their starting hand) and enters each event
as it happens: a decision of either seat, in the game's notation, with the hidden cards it showed
the user (``seen``: a card drawn, a card revealed, a reward tile won). :class:`TableGame` replays
the events onto a world built from what the user knows (the game's
:class:`~omen_search.table_rules.TableRules`) and refuses an impossible one with
:class:`TableEventError`, naming the event and the reason, changing nothing. Counts such as the
deck's size follow from the events; nothing is asked that the rules can work out.

A **table record** (``omen-table/1``, ``docs/formats.md``) holds the set-up and the events as the
user's seat saw them, and no seed: ``omen-search replay`` checks one and ``omen-search analyze``
reviews the user's decisions in it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from omen_search.documents import JsonReader
from omen_search.errors import FormatError, UsageError, shown
from omen_search.game import Game, get_game
from omen_search.table_rules import MissingSeenError, TableEventError, TableQuestion, TableRules

TABLE_FORMAT = "omen-table/1"
MAX_EVENTS = 100_000  # events a table record may hold
MAX_SEEN = 64  # names one event may show (a whole hand, a structure's cards)

__all__ = ["TABLE_FORMAT", "MissingSeenError", "TableEvent", "TableEventError", "TableGame", "TableQuestion",
           "is_table_record", "load_table"]


@dataclass(frozen=True)
class TableEvent:
    """A decision made at the table: ``seat`` made ``move`` (the game's notation), which showed the
    user the hidden cards ``seen``, in the order they came."""

    seat: int
    move: str
    seen: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.move, **({"seen": list(self.seen)} if self.seen else {})}


class TableGame:
    """A game followed at the table (see the module). Build one with :meth:`start` or
    :func:`load_table`; :meth:`add` enters an event, :meth:`undo` takes the last one back."""

    def __init__(self, game: Game, rules: TableRules, options: dict[str, Any], seat: int, hand: Sequence[str],
                 seen: Sequence[str], world: Any, cards: Any):
        self.game, self.rules, self.options, self.seat, self.cards = game, rules, dict(options), seat, cards
        self.hand, self.seen = tuple(hand), tuple(seen)
        self.events: list[TableEvent] = []
        self.worlds = [world]  # the world before each event, and after the last

    @classmethod
    def start(cls, game: Game | str, options: dict[str, Any] | None = None, seat: int = 0,
              hand: Sequence[str] = (), seen: Sequence[str] = (), cards: Any = None) -> TableGame:
        """A new game at the table. Raises :class:`UsageError` for a game without a table companion or
        a bad option, :class:`TableEventError` for an impossible set-up (``set-up: …``) and
        :class:`MissingSeenError` when the set-up showed the user a card not yet named (Heir: the
        first card revealed)."""
        game = get_game(game) if isinstance(game, str) else game
        rules = game.table_rules()
        if options is not None and not isinstance(options, dict):
            raise UsageError(f"options: must be an object of option values, got {shown(options)}")
        options = dict(options or {})
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in game.deciding_seats:
            raise TableEventError(f"set-up: seat must be {' or '.join(map(str, game.deciding_seats))}, got {shown(seat)}")
        for field, names in (("hand", hand), ("seen", seen)):
            _check_names(names, f"set-up: {field}")
        config = game.config(**options)
        try:
            world = rules.start(config, cards, seat, tuple(hand), tuple(seen))
        except TableEventError as exc:
            raise TableEventError(f"set-up: {exc}") from None
        except MissingSeenError as exc:
            raise MissingSeenError(f"set-up: {exc}", exc.question) from None
        return cls(game, rules, options, seat, hand, seen, world, cards)

    @staticmethod
    def hand_choices(game: Game | str, options: dict[str, Any] | None = None, cards: Any = None
                     ) -> tuple[int, tuple[str, ...]]:
        """How many cards the user's starting hand holds, and the names it can hold (a set-up form's
        choices); raises :class:`UsageError` as :meth:`start` does."""
        game = get_game(game) if isinstance(game, str) else game
        return game.table_rules().hand_choices(game.config(**dict(options or {})), cards)

    @property
    def world(self) -> Any:
        """The world now: a game state the user sees exactly as the real game."""
        return self.worlds[-1]

    def add(self, seat: int, move: str, seen: Sequence[str] = ()) -> None:
        """Enter the next event. Raises :class:`TableEventError` (``event N: why``) for an impossible
        one and :class:`MissingSeenError` for one that showed the user a card ``seen`` does not name;
        either way nothing changes."""
        index = len(self.events)
        if isinstance(seat, bool) or seat not in range(self.game.players):
            raise TableEventError(f"event {index}: seat must be a seat from 0 to {self.game.players - 1}, got {shown(seat)}")
        if not isinstance(move, str):
            raise TableEventError(f"event {index}: the move must be text in the game's notation, got {shown(move)}")
        _check_names(seen, f"event {index}: seen")
        try:
            after = self.rules.apply(self.world, seat, move, tuple(seen))
        except TableEventError as exc:
            raise TableEventError(f"event {index}: {exc}") from None
        except MissingSeenError as exc:
            raise MissingSeenError(f"event {index}: {exc}", exc.question) from None
        self.events.append(TableEvent(seat, move, tuple(seen)))
        self.worlds.append(after)

    def undo(self) -> TableEvent:
        """Take the last event back; raises :class:`TableEventError` when there is none."""
        if not self.events:
            raise TableEventError("undo: no event to take back")
        self.worlds.pop()
        return self.events.pop()

    def ask(self) -> TableQuestion:
        """What happens next: whose decision, and what can be entered for it."""
        return self.rules.ask(self.world)

    def observation(self) -> dict[str, Any]:
        """What the user knows now (the advisor's input)."""
        return self.rules.observation(self.world)

    def decisions(self) -> Iterator[tuple[int, Any, Any]]:
        """Each event as ``(index, world before it, move)``: what a review goes through."""
        for index, event in enumerate(self.events):
            yield index, self.worlds[index], self.game.parse_move(event.move)

    def to_record(self) -> dict[str, Any]:
        """The table record (``omen-table/1``): set-up and events, no seed."""
        return {"format": TABLE_FORMAT, "game": self.game.name, **self.card_set(), "options": dict(self.options),
                "seat": self.seat, "hand": list(self.hand), "seen": list(self.seen),
                "events": [e.to_dict() for e in self.events]}

    def card_set(self) -> dict[str, Any]:
        """The card set the game is followed with, as a record names it (``{"cards": {name, sha256}}``;
        empty for a game whose records name none)."""
        header = self.game.record_header(self.world)
        return {"cards": header["cards"]} if "cards" in header else {}


def is_table_record(document: Any) -> bool:
    """Whether a document (a dict) says it is a table record."""
    return isinstance(document, dict) and document.get("format") == TABLE_FORMAT


def load_table(record: Any, cards: Any = None) -> TableGame:
    """The game a table record holds, every event checked. Raises :class:`FormatError` naming the
    JSON path of a malformed field, :class:`TableEventError` for an impossible event and
    :class:`MissingSeenError` for an event whose ``seen`` leaves a card unnamed."""
    r = JsonReader("table")
    if not isinstance(record, dict):
        raise FormatError(f"table: must be a JSON object, got {type(record).__name__}")
    if record.get("format") != TABLE_FORMAT:
        r.fail("table.format", f"expected {TABLE_FORMAT!r}, got {shown(record.get('format'))}")
    name = r.get(record, "game", "table")
    if not isinstance(name, str):
        r.fail("table.game", f"must be a game's name, got {shown(name)}")
    game = get_game(name, field="table.game")
    options = r.get(record, "options", "table")
    if not isinstance(options, dict):
        r.fail("table.options", f"must be an object of option values, got {shown(options)}")
    seat = r.integer(r.get(record, "seat", "table"), "table.seat", 0, game.players - 1)
    hand = _names(r, r.get(record, "hand", "table"), "table.hand")
    seen = _names(r, record.get("seen", []), "table.seen")
    table = TableGame.start(game, options, seat, hand, seen, cards)
    if "cards" in record and {"cards": record["cards"]} != table.card_set():
        r.fail("table.cards", f"played with card set {shown(record['cards'])}, not {table.card_set().get('cards')}; "
                              "pass its --cards file")
    for i, event in enumerate(r.items(r.get(record, "events", "table"), "table.events", most=MAX_EVENTS)):
        where = f"table.events[{i}]"
        if not isinstance(event, dict):
            r.fail(where, f"must be an object with seat, move and seen, got {shown(event)}")
        event_seat = r.integer(r.get(event, "seat", where), f"{where}.seat", 0, game.players - 1)
        move = r.get(event, "move", where)
        if not isinstance(move, str):
            r.fail(f"{where}.move", f"must be a move in the game's notation, got {shown(move)}")
        table.add(event_seat, move, _names(r, event.get("seen", []), f"{where}.seen"))
    return table


def _check_names(names: Any, where: str) -> None:
    """Refuse anything but a list (or tuple) of names, naming ``where``."""
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise TableEventError(f"{where}: must be a list of card names, got {shown(names)}")


def _names(r: JsonReader, value: Any, where: str) -> list[str]:
    items = r.items(value, where, most=MAX_SEEN)
    for i, name in enumerate(items):
        if not isinstance(name, str):
            r.fail(f"{where}[{i}]", f"must be a card's name, got {shown(name)}")
    return list(items)
