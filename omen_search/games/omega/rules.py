"""OMEGA's rules vocabulary, shared by its engines, formats and tools: the table's numbers
(``docs/rules/omega-the-ritual.md``, ids ``O-…``) and the set-up (:class:`Config`)."""

from __future__ import annotations

from dataclasses import dataclass

from omen_search.errors import UsageError

GAME = "omega"
PLAYER_COUNTS = (2, 3, 4)  # O-setup-1
START_RUNES = {2: (4, 5), 3: (4, 5, 6), 4: (4, 5, 5, 6)}  # O-setup-6, by place in the turn order
ALTAR = 6  # runes on the Altar after an Upkeep (O-setup-2, O-upkeep-1)
GALLERY = 4  # Egregors in the Gallery after an Upkeep (O-setup-3)
CARRY = 10  # runes an Egregor carries at most
COLOURS_ON_ONE = 2  # colours on one Egregor, black excluded (1 on a Primitive)
CONTROL = 4  # Egregors a player controls at the end of his Main phase (O-main-3)
BLUE_SQUARES = 2  # squares a blue rune placed moves its placer's pawn (O-rune-1)
WHITES_AGAINST_BLACK = 2  # whites that shut black runes out of an Egregor (O-rune-7)
RUNES_TABLE = (0, 0, 1, 2, 3, 4, 5, 6, 7, 9, 12)  # points of an Egregor by the runes on it (O-judge-1)
PRESTIGE_BONUS = 5  # O-judge-1
GOLD_POINTS = 2  # O-rune-8
DEFAULT_MAX_TURNS = 400  # turns of all players before the game is judged as it stands (D-omega-1)
MAX_TURNS = 2000


def arcanic_end(players: int) -> int:
    """Arcana tokens that announce the end (O-end-1): 7, or 6 with 4 players."""
    return 6 if players == 4 else 7


@dataclass(frozen=True)
class Config:
    """An OMEGA set-up: the number of players, who plays first (O-setup-1) and the turn limit."""

    players: int = 2
    first_player: int = 0
    max_turns: int = DEFAULT_MAX_TURNS

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise UsageError(f"players_count: OMEGA is played by 2, 3 or 4 players, got {self.players!r}")
        if isinstance(self.first_player, bool) or not isinstance(self.first_player, int) \
                or not 0 <= self.first_player < self.players:
            raise UsageError(f"first_player: a seat from 0 to {self.players - 1}, got {self.first_player!r}")
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int) \
                or not 1 <= self.max_turns <= MAX_TURNS:
            raise UsageError(f"max_turns: from 1 to {MAX_TURNS}, got {self.max_turns!r}")
