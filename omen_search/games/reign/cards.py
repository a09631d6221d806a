"""Reign of War card sets as data: Soldiers, Beasts and Oracles, reward cards, feats and the Grand
Melee's Match/Victory cards, with abilities in this game's effect vocabulary (:data:`OPS`).

:func:`load_cards` validates a ``ruleset = "reign"`` file and raises
:class:`~omen_search.errors.CardDataError` naming the file, the card and the field of any mistake,
in the same words as Heir's loader (:mod:`omen_search.cardfiles`). The format is in
``docs/cards.md`` ("Reign of War's card file"); the seed edition's cards and the rulings on their
texts (``R-card-…``) are in ``docs/rules/reign-of-war-cards.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.cardfiles import (
    MAX_FILE_CHARS,
    AblatableSet,
    Checker,
    Spec,
    builtin_card_text,
    check_unique_names,
    effect_list,
    parse_toml,
    read_card_file,
    tagged_args,
)
from omen_search.errors import CardDataError

RULESET = "reign"
UNIT_TYPES = ("soldier", "beast", "oracle")
CIRCLES = (1, 2)  # printed in a unit's corner: 1 circle is the beginner set (R-comp-1, R-var-1)
SOURCES = ("printed", "designed")
FILTERS = ("any", "soldier", "beast", "oracle")  # an Enraged unit matches "beast" only (R-enrage-2)
ENRAGEABLE = ("any", "soldier", "oracle")  # "any" = a Soldier or an Oracle: nothing else can be Enraged (R-enrage-1)

# The box (R-comp-1 to R-comp-5). The engines' tables are made for a set of this size at most, so
# these are the limits a core will assert against; a file beyond them is refused when it is loaded.
MAX_UNIT_DESIGNS = 50
MAX_UNIT_CARDS = 174
MIN_UNIT_CARDS = 40  # a deck to deal from: 4 cards each and 3 or 4 a turn (R-setup-2, R-wealth-1)
REWARD_CARDS = 12  # 4 in each city's stack (R-setup-1); the Grand Melee's second set is 12 more or none
FEATS = 6  # each player has all of them (R-comp-3)
MELEE_TABLES = 2  # the Grand Melee's two tables: a Match card shows 1 or 2 (R-melee-1, R-melee-2)
MATCH_CARDS = 4  # one per Grand Melee player; the two with the same number play each other
# Limits of the engines' fields, as Heir's: a unit's cost, strength and offering in 5 bits; an
# effect's or a condition's n and take in 6; at most 16 effects in one ability, so that a whole set
# compiles to at most (50 units + 12 rewards) x 16 = 992 effects.
MAX_STAT = 31
MAX_COUNT = 63
MAX_EFFECTS = 16

# For each op: its parameters, whether each is required, and its kind (omen_search.cardfiles.Spec).
# The ops Heir has too mean what they mean there (docs/cards.md), on unit cards only (R-hand-1).
OPS: dict[str, Spec] = {
    "draw": {"n": (True, "count")},
    "gain": {"n": (True, "count")},
    "discard": {"n": (True, "count")},
    "opponent_discards": {"n": (True, "count")},
    "reveal_hand_discard": {"n": (True, "count"), "filter": (False, "filter")},
    "reclaim": {"n": (True, "count"), "filter": (False, "filter")},
    "move": {"n": (True, "count"), "mode": (True, "mode"), "side": (False, "side"), "filter": (False, "filter")},
    "play_free": {},
    "enrage": {
        "n": (True, "count"),
        "side": (False, "side"),
        "where": (False, "where"),
        "filter": (False, "enrageable"),
        "up_to": (False, "bool"),
    },
    "destroy": {
        "n": (True, "count"),
        "side": (True, "side"),
        "where": (False, "where"),
        "filter": (False, "filter"),
        "up_to": (False, "bool"),
    },
    "return_unit": {
        "n": (True, "count"),
        "side": (True, "side"),
        "where": (False, "where"),
        "filter": (False, "filter"),
        "up_to": (False, "bool"),
    },
    "take_coins": {"n": (True, "count")},
    "reveal_take": {
        "n": (True, "count"),
        "take": (True, "count"),
        "filter": (False, "filter"),
        "to": (False, "to"),
        "up_to": (False, "bool"),
    },
}
# A feat's condition, checked in its owner's Feat step (R-feat-1, R-feat-3, R-card-12).
CONDITIONS: dict[str, Spec] = {
    "in_every_city": {"filter": (True, "filter")},
    "units_in_one_city": {"n": (True, "count")},
    "opponent_hand_discards": {"n": (True, "count")},
    "beast_abilities": {"n": (True, "count")},
}
# The values of each kind of parameter that is a word.
CHOICES: dict[str, tuple[str, ...]] = {
    "filter": FILTERS,
    "enrageable": ENRAGEABLE,
    "side": ("own", "opposing"),
    "where": ("any", "this_city"),
    "mode": ("any", "out_of_this_city"),
    "to": ("hand", "this_city"),
}
# Parameter values that name "this City": the city of the unit whose ability resolves.
_THIS_CITY = {"where": "this_city", "mode": "out_of_this_city", "to": "this_city"}


@dataclass(frozen=True)
class Effect:
    """One step of an ability. Which fields matter depends on ``op`` (see :data:`OPS`)."""

    op: str
    n: int = 0
    take: int = 0
    side: str = "own"
    where: str = "any"
    filter: str = "any"
    mode: str = "any"
    to: str = "hand"
    up_to: bool = False


@dataclass(frozen=True)
class Unit:
    """A unit design; ``copies`` cards of it are in the full deck. ``index`` is its card id (file
    order, D-pick-1). Its ``ability`` resolves when its type says: a Soldier's on entering a city, a
    Beast's when discarded for it, an Oracle's in each Portent step (R-unit-3 to R-unit-5)."""

    index: int
    name: str
    type: str
    circles: int
    cost: int
    strength: int
    offering: int
    copies: int
    source: str
    text: str
    ability: tuple[Effect, ...] = ()
    note: str = ""

    @property
    def beginner(self) -> bool:
        """Whether the unit is in the beginner set (one circle, R-var-1)."""
        return self.circles == 1


@dataclass(frozen=True)
class RewardCard:
    """A reward card design: ``copies`` in the game, ``melee_copies`` more in the Grand Melee's set
    marked with two circles (R-comp-2, R-melee-3). Its effects resolve when used in the Surge."""

    index: int
    name: str
    copies: int
    melee_copies: int
    source: str
    text: str
    effects: tuple[Effect, ...]
    note: str = ""


@dataclass(frozen=True)
class Condition:
    """What a feat asks (:data:`CONDITIONS`): ``filter`` for ``in_every_city``, else ``n``."""

    kind: str
    filter: str = "any"
    n: int = 0


@dataclass(frozen=True)
class Feat:
    """A feat: each player has all of them, each worth 2 VP once done (R-feat-1, R-feat-2)."""

    index: int
    name: str
    source: str
    text: str
    condition: Condition
    note: str = ""


@dataclass(frozen=True)
class MatchCard:
    """A Grand Melee Match/Victory card design: ``copies`` cards showing match ``number``."""

    index: int
    name: str
    number: int
    copies: int
    source: str
    text: str
    note: str = ""


@dataclass(frozen=True)
class CardSet(AblatableSet):
    """A validated Reign of War set. Cards are referred to by ``index`` inside the engines.

    A unit design can be left out for an ablation (:meth:`~omen_search.cardfiles.AblatableSet.without`,
    ruling D-ablate-1 in ``docs/rulings.md``): it stays in ``units`` with no copies, and its copies are
    in ``ablated``. The deck keeps :data:`MIN_UNIT_CARDS` cards at least; reward cards, feats and
    Match/Victory cards cannot be left out (the cities and the end of the game count them)."""

    MIN_DECK = MIN_UNIT_CARDS
    MIN_DECK_RULE = " (MIN_UNIT_CARDS, R-setup-2)"

    name: str
    ruleset: str
    units: tuple[Unit, ...]
    rewards: tuple[RewardCard, ...]
    feats: tuple[Feat, ...]
    match_cards: tuple[MatchCard, ...]
    path: str
    sha256: str
    ablated: tuple[tuple[int, int], ...] = ()  # (unit index, copies) taken out by ``without``

    def unit(self, name: str) -> Unit:
        """The unit design called ``name``; raises ``KeyError`` if there is none."""
        return {u.name: u for u in self.units}[name]

    def reward(self, name: str) -> RewardCard:
        """The reward card called ``name``; raises ``KeyError`` if there is none."""
        return {r.name: r for r in self.rewards}[name]

    def feat(self, name: str) -> Feat:
        """The feat called ``name``; raises ``KeyError`` if there is none."""
        return {f.name: f for f in self.feats}[name]

    def other_cards(self) -> Iterable[tuple[str, str]]:
        """The reward cards, feats and Match/Victory cards (which ``without`` cannot leave out)."""
        return ([("a reward card", r.name) for r in self.rewards] + [("a feat", f.name) for f in self.feats]
                + [("a Grand Melee Match/Victory card", m.name) for m in self.match_cards])


# ------------------------------------------------------------------------------------- loading


def _effects(path: str, where: str, field: str, raw: Any, city: bool) -> tuple[Effect, ...]:
    """A list of effects; ``city`` says whether they have a city: a Soldier's and an Oracle's do, a
    Beast discarded for its ability and a reward card do not."""
    return effect_list(path, where, field, raw, MAX_EFFECTS, lambda at, e: _effect(path, at, e, city))


def _effect(path: str, where: str, raw: Any, city: bool) -> Effect:
    check, args = tagged_args(path, where, raw, key="op", what="an effect", specs=OPS, choices=CHOICES,
                              most=MAX_COUNT)
    for param, value in _THIS_CITY.items():
        if args.get(param) == value and not city:
            check.fail(param, f"{value!r} needs a city, and only Soldier and Oracle abilities have one "
                              "(a Beast discarded for its ability and a reward card have none)")
    if args.get("take", 0) > args.get("n", 0):
        check.fail("take", f"must be at most n ({args['n']}, the cards revealed), got {args['take']}")
    if args.get("to") == "this_city" and args.get("take", 0) > 1:
        check.fail("take", f"a free play into this City takes 1 card at most, got {args['take']}")
    return Effect(**args)


def read_unit(path: str, index: int, raw: Any) -> Unit:
    """Unit design ``index`` of a card file (a Reign of War file's ``unit``, a combined file's
    ``reign_unit``); raises :class:`CardDataError` naming the card and the field."""
    check = Checker(path, f"unit #{index + 1}", raw)
    name = check.name()
    check.where = f"unit '{name}'"
    check.only({"name", "type", "circles", "cost", "strength", "offering", "copies", "source", "text", "note",
                "ability"})
    kind = check.get("type", str, choices=UNIT_TYPES)
    return Unit(
        index=index,
        name=name,
        type=kind,
        circles=check.get("circles", int, choices=CIRCLES),
        cost=check.get("cost", int, most=MAX_STAT),
        strength=check.get("strength", int, most=MAX_STAT),
        offering=check.get("offering", int, most=MAX_STAT),
        copies=check.count("copies", MAX_UNIT_CARDS),
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        ability=_effects(path, check.where, "ability", check.get("ability", list, []), kind != "beast"),
        note=check.get("note", str, ""),
    )


def _reward(path: str, index: int, raw: Any) -> RewardCard:
    check = Checker(path, f"reward #{index + 1}", raw)
    name = check.name()
    check.where = f"reward '{name}'"
    check.only({"name", "copies", "melee_copies", "source", "text", "effects", "note"})
    return RewardCard(
        index=index,
        name=name,
        copies=check.count("copies", REWARD_CARDS),
        melee_copies=check.get("melee_copies", int, 0, most=REWARD_CARDS),
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        effects=_effects(path, check.where, "effects", check.get("effects", list), False),
        note=check.get("note", str, ""),
    )


def read_feat(path: str, index: int, raw: Any) -> Feat:
    """Feat ``index`` of a card file; raises :class:`CardDataError` naming the feat and the field."""
    check = Checker(path, f"feat #{index + 1}", raw)
    name = check.name()
    check.where = f"feat '{name}'"
    check.only({"name", "source", "text", "condition", "note"})
    if "condition" not in check.table:
        check.fail("condition", "missing")
    _, args = tagged_args(path, f"{check.where}, field 'condition'", check.table["condition"], key="kind",
                          what="a condition", specs=CONDITIONS, choices=CHOICES, most=MAX_COUNT)
    return Feat(
        index=index,
        name=name,
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        condition=Condition(**args),
        note=check.get("note", str, ""),
    )


def _match_card(path: str, index: int, raw: Any) -> MatchCard:
    check = Checker(path, f"match #{index + 1}", raw)
    name = check.name()
    check.where = f"match '{name}'"
    check.only({"name", "number", "copies", "source", "text", "note"})
    return MatchCard(
        index=index,
        name=name,
        number=check.count("number", MELEE_TABLES),
        copies=check.count("copies", MATCH_CARDS),
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        note=check.get("note", str, ""),
    )


def _check_set(path: str, units: tuple[Unit, ...], rewards: tuple[RewardCard, ...], feats: tuple[Feat, ...],
               match_cards: tuple[MatchCard, ...]) -> None:
    """The whole set against the box's sizes: the first card past a limit is named."""
    cards = 0
    for unit in units:
        if unit.index >= MAX_UNIT_DESIGNS:
            raise CardDataError(f"{path}: unit '{unit.name}': one unit design too many, the limit is "
                                f"{MAX_UNIT_DESIGNS} (a limit of the engines)")
        cards += unit.copies
        if cards > MAX_UNIT_CARDS:
            raise CardDataError(f"{path}: unit '{unit.name}', field 'copies': brings the deck to {cards} unit "
                                f"cards, the limit is {MAX_UNIT_CARDS} (a limit of the engines)")
    if cards < MIN_UNIT_CARDS:
        raise CardDataError(f"{path}: unit, field 'copies': the deck must have at least {MIN_UNIT_CARDS} unit "
                            f"cards, got {cards}")
    copies = sum(r.copies for r in rewards)
    if copies != REWARD_CARDS:
        raise CardDataError(f"{path}: reward, field 'copies': there must be {REWARD_CARDS} reward cards, got {copies}")
    melee = sum(r.melee_copies for r in rewards)
    if melee not in (0, REWARD_CARDS):
        raise CardDataError(f"{path}: reward, field 'melee_copies': the Grand Melee's set must be 0 or "
                            f"{REWARD_CARDS} reward cards, got {melee}")
    if len(feats) != FEATS:
        raise CardDataError(f"{path}: feat: there must be {FEATS} feats, got {len(feats)}")
    per_number = MATCH_CARDS // MELEE_TABLES  # the two players who play each other (R-melee-5)
    for number in range(1, MELEE_TABLES + 1) if match_cards else ():
        total = sum(m.copies for m in match_cards if m.number == number)
        if total != per_number:
            raise CardDataError(f"{path}: match, field 'copies': match number {number} must be on {per_number} "
                                f"cards, one for each of the two players who play each other, got {total}")


def parse_cards(text: str, path: str = "<cards>") -> CardSet:
    """Validate a Reign of War card file's text and build the :class:`CardSet` it describes.

    Raises :class:`CardDataError` naming ``path``, the card and the field of the first mistake.
    """
    raw, digest = parse_toml(text, path)
    top = Checker(path, "top level", raw)
    ruleset = top.get("ruleset", str, choices=(RULESET,))  # first: another game's file says so
    top.only({"name", "ruleset", "unit", "reward", "feat", "match"})
    set_name = top.get("name", str)
    units = tuple(read_unit(path, i, u) for i, u in enumerate(top.get("unit", list)))
    rewards = tuple(_reward(path, i, r) for i, r in enumerate(top.get("reward", list)))
    feats = tuple(read_feat(path, i, f) for i, f in enumerate(top.get("feat", list)))
    match_cards = tuple(_match_card(path, i, m) for i, m in enumerate(top.get("match", list, [])))
    check_unique_names(path, "unit", (u.name for u in units))
    check_unique_names(path, "reward", (r.name for r in rewards))
    check_unique_names(path, "feat", (f.name for f in feats))
    check_unique_names(path, "match", (m.name for m in match_cards))
    _check_set(path, units, rewards, feats, match_cards)
    return CardSet(name=set_name, ruleset=ruleset, units=units, rewards=rewards, feats=feats,
                   match_cards=match_cards, path=path, sha256=digest)


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a Reign of War card file; ``None`` loads the built-in seed edition.

    Raises :class:`CardDataError` if the file cannot be read or is malformed.
    """
    if path is None:
        return default_cards()
    return parse_cards(read_card_file(path, MAX_FILE_CHARS), str(path))


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    """The built-in "Reign of War — seed edition" shipped inside the package."""
    return parse_cards(builtin_card_text("reign-seed.toml"), "reign-seed.toml")
