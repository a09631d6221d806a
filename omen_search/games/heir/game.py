"""Heir to the Dunes as the tools see it: two games, ``heir`` (two players) and ``heir-solo`` (one
player against the Corrupted Heir), with their set-up options, registered by name."""

from __future__ import annotations

from typing import Any

from omen_search.engines import new_game
from omen_search.errors import UsageError
from omen_search.game import Game, Option, register
from omen_search.games.heir.cards import GODS, CardSet
from omen_search.games.heir.notation import Move
from omen_search.games.heir.rules import DEFAULT_MAX_TURNS, LEVELS, Config

_COMMON = (
    Option("gods", "gods of seat 0 and seat 1", "anubis,horus", ("anubis,horus", "horus,anubis")),
    Option("max_turns", "end the game after this many turns, ruling D-end-2", DEFAULT_MAX_TURNS),
)


class HeirGame(Game):
    """``heir`` or ``heir-solo``: one rules engine, the solo game set up by a level."""

    def __init__(self, solo: bool):
        self.solo = solo
        self.name = "heir-solo" if solo else "heir"
        self.players = 2
        if solo:
            self.title = "Omen: Heir to the Dunes, against the Corrupted Heir (seat 1, an automaton)"
            self.options = (Option("level", "the Corrupted Heir's difficulty", "normal", LEVELS),) + _COMMON
        else:
            self.title = "Omen: Heir to the Dunes, two players"
            self.options = (Option("first_player", "the seat that takes the first turn", 0, (0, 1)),
                            Option("emissary", "play the Emissary of War variant", False, (False, True))) + _COMMON

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        gods = options.get("gods", "anubis,horus")
        if isinstance(gods, str):
            gods = tuple(g.strip().lower() for g in gods.split(","))
        if not isinstance(gods, tuple) or len(gods) != 2 or sorted(gods) != sorted(GODS):
            raise UsageError(f"gods: must name anubis and horus once each, got {options.get('gods')!r}")
        common = {"gods": gods, "max_turns": options.get("max_turns", DEFAULT_MAX_TURNS)}
        if self.solo:
            return Config(level=options.get("level", "normal"), **common)
        return Config(first_player=options.get("first_player", 0), emissary=options.get("emissary", False), **common)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def owns(self, config: Any) -> bool:
        return isinstance(config, Config) and config.solo == self.solo

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        if config is None:
            config = self.config()
        elif not self.owns(config):
            raise UsageError(f"config: {config!r} does not set up {self.name}")
        return new_game(engine, seed, cards, config)


HEIR = register(HeirGame(solo=False))
HEIR_SOLO = register(HeirGame(solo=True))
