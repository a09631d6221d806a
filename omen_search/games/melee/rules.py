"""The rules vocabulary of the Grand Melee: the numbers of the four-player match and its set-up.

The Grand Melee (R-melee-*, ``docs/rules/reign-of-war.md``) is Reign of War for four players: a
draft that all four make together, then knockout games of two players at two tables, each an
ordinary game of Reign of War with the players' drafted decks. This module names its numbers and
its set-up (:class:`MeleeConfig`); it imports only Reign of War's vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass

from omen_search.errors import UsageError, shown
from omen_search.games.reign.cards import CardSet
from omen_search.games.reign.rules import DEFAULT_MAX_TURNS, DRAFT_STACKS, SDRAFT_PACK, SDRAFT_ROUNDS, Config
from omen_search.limits import TURNS, check_int

GAME = "reign-of-war-melee"  # the registered name, which documents carry
PLAYERS = 4
MATCH_CARDS = (1, 1, 2, 2)  # R-melee-2: two cards show 1, two show 2
TABLE_COINS = 20  # R-melee-3: each table's coin supply
ROUNDS = 2  # R-melee-6: the third round, for second place, is not played (shared second place)
DRAFT_PICKS = PLAYERS * DRAFT_STACKS  # R-melee-4: 10 stacks each, 40 in all
DRAFTS = ("card", "simplified")  # R-melee-4: the Card Drafting draft, or the Simplified one (D-melee-4)
SDRAFT_PICKS_A_ROUND = PLAYERS * SDRAFT_PACK  # D-melee-4: a pack of 10 for each of the four
SDRAFT_PICKS = SDRAFT_ROUNDS * SDRAFT_PICKS_A_ROUND  # 120 cards, 30 each
# D-melee-1: seat 0 is the oldest player and seat 3 the youngest. The draft starts with the
# youngest and goes on clockwise, which is down the seats (as the two-player draft goes from the
# youngest, seat 1, to seat 0); at a table the older player (the lower seat) takes the first turn.
DRAFT_ORDER = (3, 2, 1, 0)
# D-melee-3: the return of each place. The winner has 1, the two players with one Victory card share
# second and third place (the mean of 2/3 and 1/3) and the player with none has 0.
PLACE_RETURNS = {2: 1.0, 1: 0.5, 0: 0.0}

TABLES = PLAYERS // 2 * ROUNDS  # the table games of a Grand Melee

PHASES = ("draft", "table", "game_over")
DRAFT, TABLE, GAME_OVER = PHASES


@dataclass(frozen=True)
class MeleeConfig:
    """How a Grand Melee is set up: the options of its table games. ``emissary`` decides who goes
    first at each table by R-emissary-1 (else the older player does, R-setup-3); ``catch_up`` is
    R-wealth-4; ``max_turns`` caps each table game (R-end-4); ``draft`` is ``card`` (Card Drafting,
    R-melee-4) or ``simplified`` (the Simplified draft of four, D-melee-4)."""

    emissary: bool = False
    catch_up: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    draft: str = "card"

    def __post_init__(self) -> None:
        for name in ("emissary", "catch_up"):
            if not isinstance(getattr(self, name), bool):
                raise UsageError(f"{name}: must be true or false, got {shown(getattr(self, name))}")
        check_int(self.max_turns, "max_turns", TURNS)
        if self.draft not in DRAFTS:
            raise UsageError(f"draft: must be one of {', '.join(DRAFTS)}, got {shown(self.draft)}")

    @property
    def picks(self) -> int:
        """The draft's picks: 40 stacks, or 120 cards."""
        return DRAFT_PICKS if self.draft == "card" else SDRAFT_PICKS


@dataclass(frozen=True)
class TableResult:
    """A finished table game: its players (``seats[0]`` sat at table seat 0 and is the older),
    the winner's global seat, whether the game was drawn on points (then R-melee-7 gave it to the
    player who took the second turn) and each table seat's victory points."""

    seats: tuple[int, int]
    winner: int
    drawn: bool
    scores: tuple[int, int]

    @property
    def loser(self) -> int:
        return self.seats[0] if self.winner == self.seats[1] else self.seats[1]


def check_cards(cards: CardSet, config: MeleeConfig | None = None) -> None:
    """Refuse a card set with fewer design stacks (or, for the Simplified draft, unit cards) than
    the draft takes (R-melee-4, D-melee-4): :class:`UsageError`."""
    if config is not None and config.draft == "simplified":
        units = sum(u.copies for u in cards.units)
        if units < SDRAFT_PICKS:
            raise UsageError(f"cards: the Grand Melee's Simplified draft deals {SDRAFT_PICKS} unit cards "
                             f"(D-melee-4), the set {cards.name!r} has {units}")
        return
    stacks = sum(1 for u in cards.units if u.copies)
    if stacks < DRAFT_PICKS:
        raise UsageError(f"cards: the Grand Melee drafts {DRAFT_PICKS} design stacks (R-melee-4), "
                         f"the set {cards.name!r} has {stacks}")


def round_of(index: int) -> int:
    """The round (1 or 2) of table game ``index`` (0 to 3)."""
    return index // 2 + 1


def table_pair(index: int, match: list[int], results: list[TableResult]) -> tuple[int, int]:
    """The players of table game ``index``, older first: round 1 pairs equal match cards, 1 then 2
    (R-melee-5); round 2 puts the winners together, then the losers (R-melee-6)."""
    if index < 2:
        pair = [p for p in range(PLAYERS) if match[p] == MATCH_CARDS[2 * index]]
    elif index == 2:
        pair = [r.winner for r in results[:2]]
    else:
        pair = [r.loser for r in results[:2]]
    a, b = sorted(pair)
    return (a, b)


def result_seen(results: list[TableResult], index: int, player: int) -> bool:
    """Whether ``player`` knows how table game ``index`` ended: they played it, or its round is over
    (D-melee-2)."""
    return player in results[index].seats or len(results) >= 2 * round_of(index)


def table_config(cards: CardSet, config: MeleeConfig, drafted: list[list[int]], seats: tuple[int, int]) -> Config:
    """A table game's set-up: the two players' drafted decks, all the copies of each stack
    (R-melee-5) or the 30 cards of a Simplified draft, 20 coins (R-melee-3); the older player is
    table seat 0 and goes first unless the Emissary decides (R-setup-3)."""
    units = cards.units
    copies = (lambda t: units[t].copies) if config.draft == "card" else (lambda t: 1)
    decks = tuple(tuple(units[t].name for t in sorted(drafted[p]) for _ in range(copies(t))) for p in seats)
    return Config(first_player=0, emissary=config.emissary, deck="given", decks=decks,  # type: ignore[arg-type]
                  coin_supply=TABLE_COINS, catch_up=config.catch_up, max_turns=config.max_turns)
