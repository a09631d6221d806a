"""The rules vocabulary of Heir to the Dunes: what both engines, the formats and the tools share.

The numbers of the table (cities, capacity, limits, the coins), the phases of a turn and the kinds
of decision, how a game is set up (:class:`Config`), a decision waiting for a move
(:class:`Pending`) and the effect lists that frames and decisions point at (:func:`program`). The
reference engine and the Cython core implement the rules over this vocabulary; the formats write
and read it. It imports only the card data below it, never an engine, a format or the search.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from omen_search.errors import UsageError, shown
from omen_search.games.heir.cards import GODS, CardSet, Effect, Unit, effect_lists
from omen_search.limits import TURNS, check_int

CITIES = 3
CAPACITY = 5  # H-surge-2
HAND_LIMIT = 5  # H-offer-2
COIN_LIMIT = 10  # H-offer-2
COINS = 20
START_HAND = 4
START_COINS = 4
DEFAULT_MAX_TURNS = 200  # D-end-2
# The Corrupted Heir solo variant (S-… rulings): the player is seat 0, the automaton seat 1.
LEVELS = ("novice", "normal", "hard", "brutal")  # S-level-1
CH = 1  # the Corrupted Heir's seat
CH_COINS = 7  # its reserve and treasury together (S-coins-1)
CH_START_TREASURY = {"novice": 0, "normal": 0, "hard": 1, "brutal": 2}
OMEN_CITY = 0  # S-omen-1: the Omen token never moves
DEAL_ATTEMPTS = 64  # determinisation: deals tried for an opponent part-way through a discard of several cards

# Phases of the turn machine, in order.
PHASES = (
    "emissary", "wealth_reveal", "wealth_again", "wealth", "surge_start", "surge", "war", "war_keep",
    "war_enduring", "offering", "offering_limits", "end_check", "game_over",
)
EMISSARY, WEALTH_REVEAL, WEALTH_AGAIN, WEALTH, SURGE_START, SURGE, WAR, WAR_KEEP, WAR_ENDURING, \
    OFFERING, OFFERING_LIMITS, END_CHECK, GAME_OVER = PHASES

# The kinds of decision a move answers (:attr:`Pending.kind`).
DECISIONS = (
    "emissary", "reveal", "wealth", "surge", "reinforce", "war", "keep", "enduring", "discard",
    "trash", "entomb", "structure", "reclaim", "move", "steal", "play_free", "unearth", "choose",
    "offering",
)


@dataclass(frozen=True)
class Pending:
    """A decision waiting for a move.

    ``kind`` says what is being decided and ``player`` who decides. The rest is the decision's
    progress: ``n`` picks left (or the keep budget), ``last`` the key of the previous pick (picks of
    several cards are made in non-decreasing key order, so each set is reached by one sequence of
    moves), ``card`` a unit id the decision is about, ``city`` "this city", ``ref``/``index`` the
    effect being resolved and ``owner`` the player it resolves for. ``moved`` lists the units a
    MANEUVER or Sandstorm has already moved, as keys ``city * T + unit`` of where they are now
    (sorted): each unit moves at most once (H-surge-7).
    """

    kind: str
    player: int
    owner: int = -1
    n: int = 0
    last: int = 0
    card: int = -1
    city: int = -1
    ref: tuple = ()
    index: int = -1
    moved: tuple[int, ...] = ()


@dataclass(frozen=True)
class Config:
    """How a game is set up: who is first, which god each seat has, and the variants in play.

    ``level`` set plays the Corrupted Heir solo variant at that difficulty: the player is seat 0
    with god ``gods[0]``, the automaton seat 1, and the automaton takes the first turn whatever
    ``first_player`` says."""

    first_player: int = 0
    gods: tuple[str, str] = ("anubis", "horus")
    emissary: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    level: str | None = None

    def __post_init__(self) -> None:
        check_int(self.first_player, "first_player", (0, 1))
        if (not isinstance(self.gods, tuple) or len(self.gods) != 2 or not all(isinstance(g, str) for g in self.gods)
                or sorted(self.gods) != sorted(GODS)):
            raise UsageError(f"gods: must be a pair, one each of {GODS}, got {shown(self.gods)}")
        if not isinstance(self.emissary, bool):
            raise UsageError(f"emissary: must be true or false, got {shown(self.emissary)}")
        check_int(self.max_turns, "max_turns", TURNS)  # the core keeps turns in 16 bits
        if self.level is not None and self.level not in LEVELS:
            raise UsageError(f"level: must be one of {', '.join(LEVELS)}, got {self.level!r}")
        if self.level is not None and self.emissary:
            raise UsageError("emissary: the Emissary variant is for two players, not the solo game")

    @property
    def solo(self) -> bool:
        """Whether seat 1 is the Corrupted Heir."""
        return self.level is not None


@lru_cache(maxsize=64)
def programs(cards: CardSet) -> Mapping[tuple, tuple[Effect, ...]]:
    """Every effect list an effect frame or a decision can point at, by its ``ref``
    (:func:`omen_search.games.heir.cards.effect_lists`): the lists the engines run and the core compiles."""
    return effect_lists(cards.units, cards.rewards, cards.structures)


def program(cards: CardSet, ref: tuple) -> tuple[Effect, ...]:
    """The effect list a frame's or a decision's ``ref`` points at: ``("unit", 3, "reinforce")``,
    a list nested in one (``ref + (i, "then")``, ``ref + (i, k)`` for option ``k``), ….
    Raises ``KeyError`` for a ``ref`` that names no list of the set."""
    return programs(cards)[ref]


def unit_count(units: tuple[Unit, ...], counts: list[int]) -> int:
    """The unit-count of a group of units, as capacity (H-surge-2) and the war-torn check (H-war-1)
    count a side: each unit its size, a COLOSSAL one 2."""
    return sum(n * units[t].size for t, n in enumerate(counts) if n)
