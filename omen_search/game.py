"""Games by name: what the search and the tools need to know of a game, and the registry.

A game is a folder (``omen_search/games/<name>/``) and a registration: its folder makes one or more
:class:`Game` objects, and :data:`omen_search.games.BUILTIN` names the modules that hold them.
The tools take a game by name (``--game heir-solo``) and never name a game's cards, gods or phases.

>>> [g.name for g in all_games()][:2]  # the package's own games come first
['heir', 'heir-solo']
>>> get_game("heir").players
2
"""

from __future__ import annotations

import difflib
import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from omen_search.errors import UsageError, shown
from omen_search.games.heir.cards import CardSet

ENGINES: tuple[str, ...] = ("core", "reference")  # the rules engines every game is dealt on


@dataclass(frozen=True)
class Option:
    """One way a game can be set up (``--emissary``, ``--level hard``): its name as the command line
    and a record spell it, what it means, its default and, for a choice, the values allowed."""

    name: str
    help: str
    default: Any = None
    choices: tuple[Any, ...] | None = None


class Game(ABC):
    """A game the engine plays: its identity, its set-up options and how to start one.

    ``config(**options)`` checks options and returns the game's own configuration value (what its
    engines, records and positions carry); ``new_initial_state`` deals a game on either engine."""

    name: str
    title: str
    players: int
    options: tuple[Option, ...]
    engines: tuple[str, ...] = ENGINES

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """The move a text names in the game's notation (``str(move)`` parses back to ``move``);
        raises :class:`~omen_search.errors.NotationError` for text that names no move."""

    @abstractmethod
    def config(self, **options: Any) -> Any:
        """The game's configuration from option values (missing ones take their defaults);
        raises :class:`UsageError` naming an unknown or bad option."""

    @abstractmethod
    def owns(self, config: Any) -> bool:
        """Whether ``config`` (a configuration of this game's family) sets up this game."""

    @abstractmethod
    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        """A new game dealt from ``seed`` on the named engine (the same seed deals the same game on
        both); ``config`` defaults to ``config()``."""

    def describe(self) -> dict[str, Any]:
        """The game as ``omen-search games --json`` lists it."""
        return {"name": self.name, "title": self.title, "players": self.players,
                "options": [{"name": o.name, "help": o.help, "default": o.default,
                             **({"choices": list(o.choices)} if o.choices else {})} for o in self.options]}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse an option this game does not have, naming the ones it has."""
        known = {o.name for o in self.options}
        for name in options:
            if name not in known:
                raise UsageError(f"{self.name}: no option {name!r} (options: {', '.join(sorted(known)) or 'none'})")


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry under its name (a name is taken once)."""
    if game.name in _REGISTRY and _REGISTRY[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _REGISTRY[game.name] = game
    return game


def _load_builtin() -> None:
    from omen_search.games import BUILTIN  # the package's own games, registered on first use

    for module in BUILTIN:
        importlib.import_module(module)


def all_games() -> tuple[Game, ...]:
    """Every registered game, in registration order."""
    _load_builtin()
    return tuple(_REGISTRY.values())


def get_game(name: str, *, field: str = "game") -> Game:
    """The game registered as ``name``; raises :class:`UsageError` naming ``field`` (and the nearest
    name) if none is: ``record.game: unknown game 'chess' (games: heir, heir-solo)``."""
    _load_builtin()
    if isinstance(name, str) and name in _REGISTRY:
        return _REGISTRY[name]
    names = list(_REGISTRY)
    near = difflib.get_close_matches(name, names, 1) if isinstance(name, str) else []
    hint = f"; did you mean {near[0]!r}?" if near else f" (games: {', '.join(names)})"
    raise UsageError(f"{field}: unknown game {shown(name)}{hint}")


def game_of(config: Any) -> Game:
    """The registered game a configuration sets up."""
    for game in all_games():
        if game.owns(config):
            return game
    raise UsageError(f"game: no registered game is set up by {config!r}")
