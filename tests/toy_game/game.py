""""tricks" as the tools see a game: one :class:`ToyGame` per player count (``tricks-2``,
``tricks-3``, ``tricks-4``), since a core's C table fixes its player count.

They are not registered on import: the conformance suite takes them as they are, and the registry
test registers one in a registry of its own, so the package's registry never holds a test game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from omen_search.errors import FormatError, UsageError
from omen_search.game import Game
from omen_search.rng import Rng
from toy_game.build import load_core
from toy_game.observation import HIDDEN_DISCARD
from toy_game.reference import GameState
from toy_game.vocabulary import DECK_SIZE, HAND_SIZES, Move, hand_size, parse_card, suit_of


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

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: Any = None,
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


    def adapter(self, cards: Any = None) -> Any:
        from toy_game.adapter import TricksAdapter

        return TricksAdapter(self)

    def to_core(self, state: Any) -> Any:
        """The core state of a reference state: the same deal, the same moves."""
        if hasattr(state, "game_handle"):
            return state
        core_class = load_core().CoreState
        if state.seed is not None:
            core = core_class.new(state.seed, self.players)
        else:
            leader = state.history[0][0] if state.history else state.leader
            core = core_class.from_deal(_dealt_hands(state), leader)
        for move in state.moves:
            core.apply_id(move.id)
        return core

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        """A reference state that the observing seat sees exactly as ``observation``: the cards it
        cannot see dealt lowest first into the places it cannot see, then shuffled with ``Rng(0)``
        until every seat holds no suit it failed to follow."""
        if not isinstance(observation, dict) or observation.get("players") != self.players:
            raise FormatError(f"{root}.players: must be {self.players} for {self.name}")
        seat = observation["seat"]
        history = [(who, None if text == HIDDEN_DISCARD else Move.parse(text)) for who, text in observation["history"]]
        hands: list[list[int]] = [[] for _ in range(self.players)]
        hands[seat] = [parse_card(c) for c in observation["hand"]]
        discards: list[int | None] = [None] * self.players
        if observation["discard"] is not None:
            discards[seat] = parse_card(observation["discard"])
        known = set(hands[seat]) | {c for c in discards if c is not None}
        known |= {move.card for _, move in history if move is not None and not move.discard}
        slots = [("hand", s) for s in range(self.players) if s != seat for _ in range(observation["hand_sizes"][s])]
        slots += [("discard", who) for who, move in history if move is None]
        pool = [c for c in range(DECK_SIZE) if c not in known]
        slots += [("undealt", 0)] * (len(pool) - len(slots))
        voids = _voids(self.players, history)
        rng = Rng(0)
        while any(kind == "hand" and voids[s] >> suit_of(c) & 1 for c, (kind, s) in zip(pool, slots)):
            rng.shuffle(pool)
        for card, (kind, s) in zip(pool, slots):
            if kind == "hand":
                hands[s].append(card)
            elif kind == "discard":
                discards[s] = card
        dealt = [sorted(hands[s] + ([discards[s]] if discards[s] is not None else [])  # type: ignore[list-item]
                        + [m.card for who, m in history if who == s and m is not None and not m.discard])
                 for s in range(self.players)]
        state = GameState.from_deal(dealt, history[0][0] if history else observation["to_move"])
        for who, move in history:
            state.apply(Move(discards[who], True) if move is None else move)  # type: ignore[arg-type]
        if state.observation(seat) != observation:
            raise FormatError(f"{root}: no deal of {self.name} is seen this way by seat {seat}")
        return state, seat


def _dealt_hands(state: GameState) -> list[list[int]]:
    """The hands a reference state was dealt: what each seat holds, discarded and played."""
    return [sorted(state.hands[s] + ([state.discards[s]] if state.discards[s] is not None else [])  # type: ignore[list-item]
                   + [m.card for who, m in state.history if who == s and not m.discard])
            for s in range(state.players)]


def _voids(players: int, history: list[tuple[int, Move | None]]) -> list[int]:
    """Per seat, bit s set when it failed to follow suit s (so holds none of it)."""
    voids = [0] * players
    plays = [(who, move) for who, move in history if move is not None and not move.discard]
    for start in range(0, len(plays), players):
        trick = plays[start:start + players]
        led = suit_of(trick[0][1].card)  # type: ignore[union-attr]
        for who, move in trick[1:]:
            if suit_of(move.card) != led:  # type: ignore[union-attr]
                voids[who] |= 1 << led
    return voids


TOY_GAMES: tuple[ToyGame, ...] = tuple(ToyGame(players) for players in sorted(HAND_SIZES))
