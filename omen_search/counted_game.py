"""What the games counted by their players share (OMEGA's and OMNIA's): a family with one member per
player count (``omega``, ``omega-3``, ``omega-4``; a count is a constant of a game, as its core has
one C table per count), a reference engine and a Cython core, a card module and a render module.
Each game names them as class attributes and writes only what is its own: its options, its
configuration, its record header's own fields, its statistics."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, ClassVar

from omen_search.documents import JsonReader
from omen_search.errors import RecordError, UsageError, shown
from omen_search.game import Game, get_game


class CountedGame(Game):
    """A member of a family of games told apart by the number of players (``players``)."""

    engines = ("core", "reference")
    GAME: ClassVar[str]  # the family, and its two-player member's name
    PLAYER_COUNTS: ClassVar[tuple[int, ...]]
    MOVE: ClassVar[Any]  # the move class (``parse``)
    CONFIG: ClassVar[Any]  # the configuration class (``players``)
    REFERENCE: ClassVar[Any]  # the reference engine's state class (``new``)
    CORE: ClassVar[str]  # the core's module (its ``CoreState``)
    RENDER: ClassVar[Any]  # the text for people: describe_observation, turn_header, describe_result, cards
    DEFAULT_CARDS: ClassVar[Any]  # the built-in card set's loader
    LOAD_CARDS: ClassVar[Any]  # a card file's loader
    READ_OBSERVATION: ClassVar[Any]  # (observation, cards, root) -> (state, seat)
    players: int

    def __init__(self, players: int):
        self.players = players
        self.name = self.member(players)

    @classmethod
    def member(cls, players: int) -> str:
        return cls.GAME if players == 2 else f"{cls.GAME}-{players}"

    @property
    def family(self) -> str:
        return self.GAME

    def parse_move(self, text: str) -> Any:
        return self.MOVE.parse(text)

    def owns(self, config: Any) -> bool:
        return isinstance(config, self.CONFIG) and config.players == self.players

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: Any = None, config: Any = None) -> Any:
        if engine not in self.engines:
            raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(self.engines)})")
        kind = importlib.import_module(self.CORE).CoreState if engine == "core" else self.REFERENCE
        return kind.new(seed, cards, self.checked_config(config))

    def to_core(self, state: Any) -> Any:
        """The core state of a reference state: every zone, the step queue and the generator copied,
        so it has the same future (a position arranged by hand included)."""
        if hasattr(state, "game_handle"):
            return state
        if not isinstance(state, self.REFERENCE):
            raise UsageError(f"search: {self.name} has no core copy of a {type(state).__name__}")
        return importlib.import_module(self.CORE).CoreState.from_state(state)

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        return self.READ_OBSERVATION(observation, cards or self.DEFAULT_CARDS(), root)

    # -- cards

    def default_cards(self) -> Any:
        return self.DEFAULT_CARDS()

    def load_cards(self, path: str | Path | None = None) -> Any:
        return self.DEFAULT_CARDS() if path is None else self.LOAD_CARDS(path)

    def describe_cards(self, cards: Any) -> str:
        return str(self.RENDER.describe_cards(cards or self.DEFAULT_CARDS()))

    def cards_json(self, cards: Any) -> dict[str, Any]:
        return dict(self.RENDER.cards_json(cards or self.DEFAULT_CARDS()))

    def cards_table(self, cards: Any) -> str:
        return str(self.RENDER.cards_table(cards or self.DEFAULT_CARDS()))

    # -- records

    def game_of_document(self, data: Any, root: str, cards: Any = None) -> Game:
        """The member of the family a document's ``config.players`` names."""
        r = JsonReader(root)
        config = r.obj(r.get(r.obj(data, root), "config", root, {}), f"{root}.config")
        players = r.choice(r.get(config, "players", f"{root}.config", self.players), f"{root}.config.players",
                           self.PLAYER_COUNTS)
        return get_game(self.member(players))

    def record_config(self, record: dict[str, Any], cards: Any) -> tuple[JsonReader, dict[str, Any]]:
        """A record's ``config``, once its card set and its number of players are this game's (the
        part of :meth:`read_record_header` every member shares), with the reader that reads on."""
        r = JsonReader("record")
        meta = r.obj(r.get(record, "cards", "record"), "record.cards")
        if meta.get("sha256") != cards.sha256:
            raise RecordError(f"record.cards: played with card set {shown(meta.get('name'))}, not {cards.name!r}; "
                              "pass its --cards file")
        config = r.obj(r.get(record, "config", "record"), "record.config")
        players = r.choice(r.get(config, "players", "record.config"), "record.config.players", self.PLAYER_COUNTS)
        if players != self.players:
            raise RecordError(f"record.config.players: a game of {players} players, not {self.players}")
        return r, config

    def record_totals(self, state: Any) -> dict[str, Any]:
        return {"turns": state.turns}

    # -- for people

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        return str(self.RENDER.describe_observation(observation))

    def turn_header(self, state: Any) -> str | None:
        header = self.RENDER.turn_header(state)
        return None if header is None else str(header)

    def describe_result(self, state: Any) -> str:
        return str(self.RENDER.describe_result(state))

    def decision_name(self, state: Any) -> str:
        return str(state.todo[0][0] if state.todo else state.phase)
