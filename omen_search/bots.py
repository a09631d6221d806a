"""Players that choose moves: one interface, made from spec strings (``random``, ``human``).

Every bot answers ``choose(state) -> Move`` for the state's current player. Bots that use chance
take a seed, so a game between seeded bots on a seeded deal replays exactly.
"""

from __future__ import annotations

import sys
from typing import IO, Protocol

from omen_search.errors import NotationError, UsageError
from omen_search.moves import Move
from omen_search.rng import MASK64, Rng, splitmix64
from omen_search.state import State

BOT_KINDS = ("random", "human")


class Bot(Protocol):
    """Anything that picks a legal move for the player to move."""

    name: str

    def choose(self, state: State) -> Move: ...


class RandomBot:
    """Uniform over the legal moves, with the game's generator (so the core can replay it)."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        return moves[self.rng.below(len(moves))]


class HumanPlayer:
    """A person at a terminal: shows the legal moves and reads one, by number or in notation."""

    name = "human"

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        out = self.stdout
        assert state.pending is not None, "choose: the game is over"
        print(f"  seat {state.current_player} to decide ({state.pending.kind}):", file=out)
        for i, m in enumerate(moves):
            print(f"    {i:3d}  {m}", file=out)
        while True:
            print("  your move> ", end="", file=out, flush=True)
            line = self.stdin.readline()
            if not line:
                raise UsageError("human player: input ended before the game did")
            line = line.strip()
            if line.isdigit() and int(line) < len(moves):
                return moves[int(line)]
            try:
                move = Move.parse(line)
            except NotationError as exc:
                print(f"  {exc}", file=out)
                continue
            if move in moves:
                return move
            print(f"  {line!r} is not legal here", file=out)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded ``game_seed`` (independent streams)."""
    return splitmix64((game_seed ^ (0x5EED0000 + seat)) & MASK64)[1]


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build a bot from its spec string; raises :class:`UsageError` for an unknown one."""
    kind = spec.strip().split(":", 1)[0]
    if kind == "random":
        return RandomBot(seed)
    if kind == "human":
        return HumanPlayer()
    raise UsageError(f"players: unknown player {spec!r} (expected one of {', '.join(BOT_KINDS)})")
