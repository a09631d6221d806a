""""tricks" as the tools see a game: one :class:`ToyGame` per player count (``tricks-2``,
``tricks-3``, ``tricks-4``), since a core's C table fixes its player count.

They are not registered on import: the conformance suite takes them as they are, and the registry
test registers one in a registry of its own, so the package's registry never holds a test game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from omen_search.errors import UsageError
from omen_search.game import Game
from omen_search.games.heir.cards import CardSet
from toy_game.build import load_core
from toy_game.reference import GameState
from toy_game.vocabulary import Move
from toy_game.vocabulary import HAND_SIZES, hand_size


@dataclass(frozen=True)
class TricksConfig:
    """The set-up of a "tricks" game: its player count is all there is to choose."""

    players: int


class ToyGame(Game):
    """``tricks-<players>``: the toy game for one player count, on either engine."""

    def __init__(self, players: int):
        hand_size(players)  # refuses a count the game lacks
        self.players = players
        self.name = f"tricks-{players}"
        self.title = f"tricks, a {players}-player test game (tests/toy_game)"
        self.options = ()

    def config(self, **options: Any) -> TricksConfig:
        self.check_options(options)
        return TricksConfig(self.players)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def owns(self, config: Any) -> bool:
        return config == TricksConfig(self.players)

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        """Raises :class:`~toy_game.build.NoCompilerError` for the core when it cannot be built."""
        if cards is not None:
            raise UsageError(f"cards: {self.name} has no card sets")
        if config is not None and not self.owns(config):
            raise UsageError(f"config: {config!r} does not set up {self.name}")
        if engine == "reference":
            return GameState.new(seed, self.players)
        if engine == "core":
            return load_core().CoreState.new(seed, self.players)
        raise UsageError(f"engine: unknown engine {engine!r} (expected core or reference)")


TOY_GAMES: tuple[ToyGame, ...] = tuple(ToyGame(players) for players in sorted(HAND_SIZES))
