"""The rules vocabulary of Reign of War: what its engines, formats and tools share.

The numbers of the table (cities, the City Limit, coins, feats), the phases of a turn and the kinds
of decision, how a game is set up (:class:`Config`, with the variants of ``docs/rules/reign-of-war.md``),
a decision waiting for a move (:class:`Pending`) and the effect lists that frames and decisions point
at (:func:`program`). It imports only the card data below it, never an engine, a format or the search.
"""

from __future__ import annotations

from dataclasses import dataclass

from omen_search.errors import UsageError, shown
from omen_search.games.reign.cards import MIN_UNIT_CARDS, CardSet, Effect, Unit
from omen_search.limits import TURNS, check_int

GAME = "reign-of-war"  # the game's registered name, which documents carry
CITIES = 3
CITY_LIMIT = 5  # R-surge-2: units on one side of a city, Beasts counting 2
COINS = 40  # R-comp-4: the box's supply, a Config's default coin_supply
COIN_SUPPLY = (0, 255)  # a Config's coin_supply: the core holds coins in 8-bit fields
START_HAND = 4  # R-setup-2
START_COINS = 4
REWARDS_PER_CITY = 4  # R-setup-1
FEATS_TO_END = 5  # R-end-1
ENRAGED_STRENGTH = 4  # R-enrage-2
WINNER_KEEPS = 1  # R-war-4
LOSER_KEEPS = 2
MAX_CHAIN = 8  # R-surge-7: Soldier triggers nested deeper than this are skipped
DEAL_ATTEMPTS = 64  # determinisation: deals tried for an opponent part-way through a discard of several cards
DEFAULT_MAX_TURNS = 200  # R-end-4 (as Heir's D-end-2)
# Card Drafting (R-draft-*): stacks each, the coins each drafter takes, the most stacks of a type.
DRAFT_STACKS = 10
DRAFT_COINS = 10
DRAFT_LIMITS = {"soldier": 6, "beast": 4, "oracle": 4}
# Simplified Drafting (R-sdraft-1): rounds, and the cards dealt to each player in a round.
SDRAFT_ROUNDS = 3
SDRAFT_PACK = 10

# The deck variants: one shared deck, or a deck per player (R-own-1) made one of five ways.
DECKS = ("shared", "skill", "draft", "build", "sdraft", "given")
DECK_HELP = {
    "shared": "one shared deck of every unit card (R-setup-2)",
    "skill": "Test of Skill: each player's deck has one card of every design (R-skill-1)",
    "draft": "Card Drafting: the players draft 10 design stacks each before setup (R-draft-*)",
    "build": "Deck Building: each player's deck is 10 designs given by name (R-build-1)",
    "sdraft": "Simplified Drafting: 3 rounds of hidden picks from packs of 10 (R-sdraft-*)",
    "given": "each player's deck given card by card, as a Grand Melee table deals them (R-own-1, D-given-1)",
}

# Phases of the turn machine (and the drafts before the first turn), in order.
PHASES = (
    "draft", "sdraft", "emissary", "wealth", "surge", "portent_start", "portent", "feat", "war", "war_keep",
    "offering", "end_check", "game_over",
)
DRAFT, SDRAFT, EMISSARY, WEALTH, SURGE, PORTENT_START, PORTENT, FEAT, WAR, WAR_KEEP, OFFERING, END_CHECK, \
    GAME_OVER = PHASES

# The kinds of decision a move answers (:attr:`Pending.kind`).
DECISIONS = (
    "draft", "sdraft", "emissary", "wealth", "surge", "portent", "war", "keep", "discard", "trash", "destroy",
    "return_unit", "enrage", "move", "reclaim", "reveal_take", "play_free", "offering",
)


@dataclass(frozen=True)
class Pending:
    """A decision waiting for a move.

    ``kind`` says what is being decided and ``player`` who decides. The rest is the decision's
    progress: ``n`` picks left (or the keep budget), ``last`` the key of the previous pick (picks of
    several cards are made in non-decreasing key order, so each set is reached by one sequence of
    moves: D-pick-1), ``city`` "this city", ``ref``/``index`` the effect being resolved and ``owner``
    the player it resolves for. Units in cities are keyed ``(city * 2 + enraged) * T + unit``.
    """

    kind: str
    player: int
    owner: int = -1
    n: int = 0
    last: int = 0
    city: int = -1
    ref: tuple = ()
    index: int = -1


@dataclass(frozen=True)
class Config:
    """How a game is set up: who is first and the variants in play.

    ``first_player`` is the oldest player (R-setup-3), who takes the first turn unless ``emissary``
    decides it; the other is the youngest, who drafts first (R-draft-2). ``deck`` is one of
    :data:`DECKS`; ``decks`` gives each player's 10 design names for ``deck = "build"``, and each
    player's whole deck, one name per card (copies repeated), for ``deck = "given"`` (a Grand Melee
    table: the cards a player drafted, R-melee-5). ``beginner`` keeps only the one-circle designs
    (R-var-1); ``catch_up`` is R-wealth-4; ``coin_supply`` the coins of the table (R-comp-4: 40, a
    Grand Melee table 20 by R-melee-3)."""

    first_player: int = 0
    emissary: bool = False
    beginner: bool = False
    deck: str = "shared"
    decks: tuple[tuple[str, ...], ...] = ()
    catch_up: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    coin_supply: int = COINS

    def __post_init__(self) -> None:
        check_int(self.first_player, "first_player", (0, 1))
        for name in ("emissary", "beginner", "catch_up"):
            if not isinstance(getattr(self, name), bool):
                raise UsageError(f"{name}: must be true or false, got {shown(getattr(self, name))}")
        if self.deck not in DECKS:
            raise UsageError(f"deck: must be one of {', '.join(DECKS)}, got {shown(self.deck)}")
        check_int(self.max_turns, "max_turns", TURNS)
        check_int(self.coin_supply, "coin_supply", COIN_SUPPLY)
        if self.deck == "draft" and self.coin_supply < 2 * DRAFT_COINS:
            raise UsageError(f"coin_supply: Card Drafting gives each player {DRAFT_COINS} coins from the supply "
                             f"(R-draft-1), so it needs {2 * DRAFT_COINS} at least, got {self.coin_supply}")
        if self.deck in ("build", "given"):
            what = "design names" if self.deck == "build" else "card names, one per card"
            if (not isinstance(self.decks, tuple) or len(self.decks) != 2
                    or not all(isinstance(d, tuple) and all(isinstance(n, str) for n in d) for d in self.decks)):
                raise UsageError(f"decks: deck = {self.deck!r} needs two lists of {what}, got {shown(self.decks)}")
        elif self.decks:
            raise UsageError(f"decks: only deck = 'build' or 'given' takes decks, not deck = {self.deck!r}")

    @property
    def own_decks(self) -> bool:
        """Whether each player has their own deck and discard pile (R-own-1)."""
        return self.deck != "shared"


def check_decks(cards: CardSet, config: Config) -> None:
    """What a card set must hold for ``config``'s variant: raises :class:`UsageError` naming the
    problem (an unknown design, a deck outside the Card Drafting limits, too few designs), or the
    ablated design (``CardSet.without``) that the variant cannot leave out or does not play (D-ablate-1)."""
    in_play = [u for u in cards.units if u.beginner or not config.beginner]
    _check_ablated(cards, config)
    designs = [u for u in in_play if u.copies]
    left_out = ", ".join(repr(cards.units[t].name) for t, _ in cards.ablated)
    without = f" without {left_out} (ablate)" if left_out else ""
    if not designs:
        raise UsageError(f"beginner: the card set {cards.name!r} has no one-circle (beginner) designs{without}")
    if config.deck == "shared" and cards.ablated:
        have = sum(u.copies for u in designs)
        if have < MIN_UNIT_CARDS:
            raise UsageError(f"ablate: the {'beginner ' if config.beginner else ''}deck{without} has {have} unit "
                             f"cards, the game deals from {MIN_UNIT_CARDS} at least (MIN_UNIT_CARDS, R-setup-2)")
    if config.deck == "draft":
        need = 2 * DRAFT_STACKS
        if len(designs) < need:
            raise UsageError(f"deck: Card Drafting needs {need} design stacks, the set has {len(designs)}{without}")
    if config.deck == "sdraft":
        need = 2 * SDRAFT_ROUNDS * SDRAFT_PACK
        have = sum(u.copies for u in designs)
        if have < need:
            raise UsageError(f"deck: Simplified Drafting deals {need} cards, the set has {have}{without}")
    if config.deck == "given":
        _check_given(cards, config, {u.name: u for u in designs})
    if config.deck == "build":
        allowed = {u.name: u for u in designs}
        for seat, deck in enumerate(config.decks):
            where = f"decks[{seat}]"
            if len(deck) != DRAFT_STACKS or len(set(deck)) != len(deck):
                raise UsageError(f"{where}: a deck is exactly {DRAFT_STACKS} different designs (R-build-1), "
                                 f"got {len(deck)} names with {len(set(deck))} different")
            for name in deck:
                if name not in allowed:
                    raise UsageError(f"{where}: no unit design {name!r} in {cards.name!r}"
                                     + (" (beginner designs only)" if config.beginner else ""))
            for kind, most in DRAFT_LIMITS.items():
                count = sum(1 for name in deck if allowed[name].type == kind)
                if count > most:
                    raise UsageError(f"{where}: {count} {kind} designs, the most is {most} (R-build-1)")


def _check_given(cards: CardSet, config: Config, allowed: dict[str, Unit]) -> None:
    """Given decks (D-given-1): known unit names of the designs in play, a starting hand each
    (R-setup-2: the only minimum, since an empty deck and pile simply draw nothing, R-deck-1), and
    no design with more copies in the two decks together than the card set has."""
    used: dict[str, int] = {}
    for seat, deck in enumerate(config.decks):
        if len(deck) < START_HAND:
            raise UsageError(f"decks[{seat}]: {len(deck)} cards, a deck deals a starting hand of {START_HAND} "
                             "(R-setup-2)")
        for i, name in enumerate(deck):
            if name not in allowed:
                raise UsageError(f"decks[{seat}][{i}]: no unit card {name!r} in {cards.name!r}"
                                 + (" (beginner designs only)" if config.beginner else ""))
            used[name] = used.get(name, 0) + 1
            if used[name] > allowed[name].copies:
                raise UsageError(f"decks[{seat}][{i}]: {name!r} is one copy too many: the card set has "
                                 f"{allowed[name].copies}, and the two decks together hold more")


def _check_ablated(cards: CardSet, config: Config) -> None:
    """D-ablate-1: a design left out must be one the variant deals, and one it can deal without."""
    for t, _ in cards.ablated:
        name = cards.units[t].name
        if config.beginner and not cards.units[t].beginner:
            raise UsageError(f"ablate: {name!r} has two circles, so a beginner game (R-var-1) has none of its "
                             "cards: the game without it is the same game (D-ablate-1)")
        if config.deck in ("build", "given"):
            kind = "Deck Building" if config.deck == "build" else "given"
            decks = [f"decks[{seat}]" for seat, deck in enumerate(config.decks) if name in deck]
            if decks:
                raise UsageError(f"ablate: {name!r} is named by the {kind} deck {' and '.join(decks)}; a deck "
                                 f"{'built' if config.deck == 'build' else 'given'} by name cannot be dealt without "
                                 "it (D-ablate-1)")
            raise UsageError(f"ablate: {name!r} is in neither {kind} deck, so the game without it is the "
                             "same game (D-ablate-1)")


def program(cards: CardSet, ref: tuple) -> tuple[Effect, ...]:
    """The effect list a frame's or a decision's ``ref`` points at: ``("unit", t)`` is unit ``t``'s
    ability, ``("reward", r)`` reward card ``r``'s effects."""
    if ref[0] == "unit":
        return cards.units[ref[1]].ability
    return cards.rewards[ref[1]].effects


def size(unit: Unit, enraged: bool = False) -> int:
    """How many units a card counts as (R-beast-1): a Beast or an Enraged unit 2, any other 1."""
    return 2 if enraged or unit.type == "beast" else 1


def draftable(units: tuple[Unit, ...], drafted: list[int], pool: list[int]) -> list[int]:
    """The stacks of ``pool`` a drafter who has taken ``drafted`` may take: those within the type
    limits (R-draft-3), or any if none is (its escape), in pool order."""
    taken = {kind: sum(1 for t in drafted if units[t].type == kind) for kind in DRAFT_LIMITS}
    legal = [t for t in pool if taken[units[t].type] < DRAFT_LIMITS[units[t].type]]
    return legal or list(pool)


def side_units(units: tuple[Unit, ...], face_up: list[int], enraged: list[int]) -> int:
    """The units on one side of a city, as the City Limit and the war-torn check count them
    (R-beast-1): a Beast or an Enraged unit 2, any other 1."""
    return sum(n * size(units[t]) for t, n in enumerate(face_up) if n) + 2 * sum(enraged)


def matches(unit: Unit, enraged: bool, filter: str) -> bool:
    """Whether a unit in a city matches an effect's filter: an Enraged unit is a Beast and nothing
    else (R-enrage-2)."""
    if filter == "any":
        return True
    kind = "beast" if enraged else unit.type
    return kind == filter


def enrageable(unit: Unit, filter: str) -> bool:
    """Whether a face-up unit can be Enraged by an effect with ``filter`` (R-enrage-1, R-card-9)."""
    return unit.type != "beast" and filter in ("any", unit.type)


def enrage_reach(counts: list[int], room: list[int], start: int, T: int) -> int:
    """How many units can be Enraged taking keys ``city * T + unit`` from ``start`` on, each city
    capped by its room."""
    return sum(max(0, min(room[c], sum(counts[max(start, c * T):(c + 1) * T]))) for c in range(CITIES))


def enrage_keys(counts: list[int], room: list[int], last: int, n: int, up_to: bool, T: int) -> list[int]:
    """The units an Enrage may pick next (keys ``city * T + unit`` from ``last`` on, D-pick-1): each
    with room in its city, and for a mandatory Enrage only one after which the rest can still be
    Enraged (R-enrage-3)."""
    keys = []
    for k in range(last, CITIES * T):
        c = k // T
        if not counts[k] or room[c] < 1:
            continue
        if not up_to:
            left, after = list(counts), list(room)
            left[k] -= 1
            after[c] -= 1
            if 1 + enrage_reach(left, after, k, T) < n:
                continue
        keys.append(k)
    return keys
