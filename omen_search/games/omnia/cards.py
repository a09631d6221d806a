"""OMNIA card sets as data: the flavors, each player's basic cards, the source stacks and the flavor
decks, every card with its cost, stats, prestige and what it does as a list of effect operations.

:func:`load_cards` validates a ``ruleset = "omnia"`` file and raises
:class:`~omen_search.errors.CardDataError` naming the file, the card and the field of any mistake, in
the same words as the other loaders (:mod:`omen_search.cardfiles`). The format is in
``docs/cards.md`` ("OMNIA's card file"); the seed edition in ``docs/rules/omnia-cards.md``. Every
card keeps its ``source`` (``printed`` or ``designed``), which the tools show.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.cardfiles import (
    MAX_FILE_CHARS,
    Checker,
    builtin_card_text,
    check_unique_names,
    effect_list,
    parse_toml,
    read_card_file,
    tagged_args,
)
from omen_search.errors import CardDataError, UsageError

RULESET = "omnia"
SOURCES = ("printed", "designed")
SETS = ("basic", "stack", "deck")  # a player's starting cards, a flavor's source stack, a flavor deck
TYPES = ("hero", "item", "equipment", "spell", "source")
SUBTYPES = ("prime", "enchantment")
# What a card or an ability aims at, chosen when it goes on the Prime Flow (N-play-3).
TARGETS = ("combatant", "hero", "player", "own_hero", "self", "flow")
# The effect operations (docs/rules/omnia-cards.md, "Effect operations"): op -> its parameters.
OPS: dict[str, dict[str, tuple[bool, str]]] = {
    "gain_source": {"n": (True, "count"), "flavor": (True, "flavor")},  # flavor: a letter, or "owner"
    "draw": {"n": (True, "count")},
    "discard": {"n": (True, "count")},  # its controller discards, of his choice
    "opponents_discard": {"n": (True, "count")},  # N-card-3
    "damage": {"n": (True, "count")},  # to the target
    "damage_each": {"n": (True, "count")},  # to each hero and each opponent
    "damage_opponents": {"n": (True, "count")},
    "lose_life": {"n": (True, "count")},  # each opponent; not damage
    "gain_life": {"n": (True, "count")},  # its controller
    "destroy": {},  # the target hero (its Def at most the card's target_def)
    "destroy_all": {},
    "pump": {"n": (True, "count")},  # the target hero gets +n Atk until end of turn
    "weaken": {"n": (True, "count")},  # -n Atk until end of turn, not below 0
    "unblockable": {},  # the target hero cannot be defended against this turn
    "cancel": {},  # the target Play or Activate on the Flow (N-card-2)
    "remove": {"n": (True, "count")},  # up to n from its controller's hand and discard stack (N-card-5)
}
TARGETED_OPS = ("damage", "destroy", "pump", "weaken", "unblockable", "cancel")
OPERATION_LISTS = ("text", "ability", "trigger")  # a card's lists of operations (Card.operations)

# Limits of the engines: a file beyond them is refused.
MAX_FLAVORS = 8
MIN_FLAVORS = 2  # the game has 2 to 4 players, one flavor each
MAX_CARDS = 200  # card designs in a file
MAX_COPIES = 40  # copies of one card in its set
MAX_STAT = 20  # Atk, Def, an effect's amount
MAX_COST = 20
MAX_PRESTIGE = 20
MAX_EFFECTS = 4
MIN_STARTING = 5  # a starting deck must fill the first hand
SHOP_ROW = 5  # a flavor deck's cards fill the Shop Row (N-setup-5)

_COST = re.compile(r"^([0-9]+)?(?:\+?([A-Z]+))?$")


@dataclass(frozen=True)
class Cost:
    """``n+F…`` (N-cost-1): ``generic`` source of any flavor plus one of each letter in ``flavored``."""

    generic: int
    flavored: str = ""

    @property
    def total(self) -> int:
        return self.generic + len(self.flavored)

    def __str__(self) -> str:
        if not self.flavored:
            return str(self.generic)
        return f"{self.generic}+{self.flavored}" if self.generic else self.flavored


@dataclass(frozen=True)
class Ability:
    """An activated ability: its cost, "once per turn", what it aims at and does."""

    cost: Cost
    effects: tuple[dict[str, Any], ...]
    once: bool = False
    target: str | None = None


@dataclass(frozen=True)
class Card:
    """One card design (``copies`` of it in its set)."""

    name: str
    set: str
    type: str
    copies: int
    flavor: str | None = None  # the flavor whose deck or stack holds it (None for a basic card)
    subtype: str | None = None
    cost: Cost | None = None  # None for a basic card: not purchasable
    atk: int = 0
    defense: int = 0
    prestige: int = 0
    text: str = ""
    effects: tuple[dict[str, Any], ...] = ()  # a spell's or a source card's text
    target: str | None = None
    target_def: int | None = None  # a destroy's limit: a hero with Def at most this
    ability: Ability | None = None
    equip: dict[str, Any] = field(default_factory=dict)  # atk, def, unblockable
    trigger: tuple[dict[str, Any], ...] = ()  # "at the start of your Action phase"
    source: str = "designed"
    copies_source: str = "designed"
    note: str = ""

    @property
    def prime(self) -> bool:
        return self.subtype == "prime"

    @property
    def stays(self) -> bool:
        """Whether playing it puts it into play (N-play-1), rather than applying its text once."""
        return self.type in ("hero", "item", "equipment") or self.subtype == "enchantment"

    def operations(self) -> tuple[tuple[dict[str, Any], ...], ...]:
        """Its operations by :data:`OPERATION_LISTS`: its text's, its ability's and its trigger's."""
        return (self.effects, self.ability.effects if self.ability else (), self.trigger)

    def operation_place(self, effect: dict[str, Any]) -> tuple[int, int]:
        """Where one of its own operations is (found by identity, as a step holds it): the list, by
        :data:`OPERATION_LISTS`, and the index in it."""
        return next((k, i) for k, ops in enumerate(self.operations()) for i, e in enumerate(ops) if e is effect)

    def kind_text(self) -> str:
        return self.type.capitalize() + (f" — {self.subtype.capitalize()}" if self.subtype else "")


@dataclass(frozen=True)
class Flavor:
    name: str
    letter: str
    theme: str = ""


@dataclass(frozen=True)
class CardSet:
    """A whole OMNIA set: the flavors and the cards (by index: card designs)."""

    name: str
    flavors: tuple[Flavor, ...]
    cards: tuple[Card, ...]
    sha256: str = ""

    def index(self, name: str) -> int | None:
        return next((i for i, c in enumerate(self.cards) if c.name == name), None)

    def flavor_index(self, name: str) -> int | None:
        return next((i for i, f in enumerate(self.flavors) if f.name == name), None)

    def basics(self) -> tuple[int, ...]:
        """Each player's starting deck, as card indices."""
        return tuple(i for i, c in enumerate(self.cards) if c.set == "basic" for _ in range(c.copies))

    def deck_of(self, flavor: str) -> tuple[int, ...]:
        """A flavor deck (every copy), as card indices."""
        return tuple(i for i, c in enumerate(self.cards) if c.set == "deck" and c.flavor == flavor
                     for _ in range(c.copies))

    def stack_of(self, flavor: str) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cards) if c.set == "stack" and c.flavor == flavor
                     for _ in range(c.copies))

    def without(self, name: str) -> CardSet:
        """The same set without the flavor-deck card ``name`` (every copy: its flavor deck, so the
        Shop deck, is that much smaller; ruling D-omnia-11), named ``"<set> without <name>"`` with
        a sha256 of its own, for an ablation (``omen-search balance --ablate``). The card designs
        after it move down one, so a game of the smaller set is dealt afresh from the same seed.
        Raises :class:`UsageError` for an unknown name, a basic card or a source stack's card (not
        in a flavor deck), or a flavor deck left with fewer than the Shop Row's 5 cards."""
        card = next((c for c in self.cards if c.name == name), None)
        if card is None:
            raise UsageError(f"ablate: no card called {name!r} in {self.name!r}")
        if card.set != "deck":
            where = "a basic card (the starting deck, N-setup-3)" if card.set == "basic" else \
                f"in {card.flavor}'s source stack"
            raise UsageError(f"ablate: {name!r} is {where}; only a flavor deck's card can be left out (D-omnia-11)")
        left = len(self.deck_of(card.flavor or "")) - card.copies
        if left < SHOP_ROW:
            raise UsageError(f"ablate: without {name!r} the {card.flavor} flavor deck of {self.name!r} would have "
                             f"{left} cards, at least {SHOP_ROW} are needed (D-omnia-11)")
        digest = hashlib.sha256(f"{self.sha256}\0without\0{name}".encode()).hexdigest()
        return replace(self, name=f"{self.name} without {name}", cards=tuple(c for c in self.cards if c is not card),
                       sha256=digest)

    def sources(self) -> dict[str, int]:
        """How many card designs are printed and designed."""
        out = {s: 0 for s in SOURCES}
        for c in self.cards:
            out[c.source] += 1
        return out


def parse_cost(check: Checker, field_: str, letters: str) -> Cost:
    """A cost field, ``n+F…`` with flavor letters of the set."""
    text = check.get(field_, str)
    m = _COST.match(text.replace(" ", ""))
    if not text or m is None or (m.group(1) is None and m.group(2) is None):
        check.fail(field_, f"a cost reads like 2+E (N-cost-1), got {text!r}")
    generic = int(m.group(1) or 0)
    flavored = m.group(2) or ""
    bad = [c for c in flavored if c not in letters]
    if bad:
        check.fail(field_, f"unknown flavor letter {bad[0]!r} (the set's letters: {', '.join(letters)})")
    if generic + len(flavored) > MAX_COST:
        check.fail(field_, f"must be at most {MAX_COST} (a limit of the engines), got {text!r}")
    return Cost(generic, "".join(sorted(flavored, key=letters.index)))


def _effects(path: str, where: str, field_: str, raw: Any, letters: str) -> tuple[dict[str, Any], ...]:
    def read(at: str, item: Any) -> dict[str, Any]:
        _, args = tagged_args(path, at, item, key="op", what="an effect", specs=OPS,
                              choices={"flavor": (*letters, "owner")}, most=MAX_STAT)
        return args
    return effect_list(path, where, field_, raw, MAX_EFFECTS, read)


def _check_target(check: Checker, target: str | None, effects: tuple[dict[str, Any], ...]) -> None:
    aimed = [e["op"] for e in effects if e["op"] in TARGETED_OPS]
    if aimed and target is None:
        check.fail("target", f"missing: op {aimed[0]!r} acts on the target")
    if target is not None and not aimed:
        check.fail("target", "no effect acts on the target")


def _card(path: str, i: int, raw: Any, flavors: tuple[str, ...], letters: str) -> Card:
    check = Checker(path, f"card {i}", raw)
    name = check.name()
    check = Checker(path, f"card '{name}'", raw)
    check.only({"name", "set", "flavor", "type", "subtype", "cost", "atk", "def", "prestige", "copies", "text",
                "effects", "target", "target_def", "ability", "equip", "trigger", "source", "copies_source", "note"})
    set_ = check.get("set", str, choices=SETS)
    type_ = check.get("type", str, choices=TYPES)
    subtype = check.get("subtype", str, None, SUBTYPES)
    if subtype is not None and type_ != "spell":
        check.fail("subtype", "only a spell has a sub-type")
    flavor = check.get("flavor", str, None, flavors)
    if (flavor is None) != (set_ == "basic"):
        check.fail("flavor", "a flavor deck's or a source stack's card names its flavor; a basic card has none")
    if set_ == "stack" and type_ != "source":
        check.fail("type", "a source stack holds source cards")
    cost = parse_cost(check, "cost", letters) if set_ != "basic" else None
    if set_ == "basic" and "cost" in raw:
        check.fail("cost", "a basic card is not purchasable")
    hero = type_ == "hero"
    atk = check.get("atk", int, 0 if not hero else ..., most=MAX_STAT)
    defense = check.get("def", int, 0 if not hero else ..., most=MAX_STAT)
    if not hero and ("atk" in raw or "def" in raw):
        check.fail("atk", "only a hero has Atk and Def")
    if hero and defense < 1:
        check.fail("def", "a hero's Def must be at least 1")
    effects = _effects(path, f"card '{name}'", "effects", raw.get("effects", []), letters)
    if effects and (type_ not in ("spell", "source") or subtype == "enchantment"):
        check.fail("effects", "only a spell or a source card has effects when played (an Enchantment has a trigger)")
    if type_ == "source" and not any(e["op"] == "gain_source" for e in effects):
        check.fail("effects", "a source card gains source")
    target = check.get("target", str, None, TARGETS)
    _check_target(check, target, effects)
    target_def = check.get("target_def", int, None, most=MAX_STAT)
    ability = None
    if "ability" in raw:
        if type_ not in ("hero", "item", "equipment"):
            check.fail("ability", "only a hero, an Item or an Equipment has an activated ability")
        a = Checker(path, f"card '{name}', ability", raw["ability"])
        a.only({"cost", "once", "target", "effects"})
        a_effects = _effects(path, f"card '{name}', ability", "effects", raw["ability"].get("effects", []), letters)
        a_target = a.get("target", str, None, TARGETS)
        if a_target == "flow":
            a.fail("target", "an ability does not aim at the Prime Flow")
        _check_target(a, a_target, a_effects)
        ability = Ability(cost=parse_cost(a, "cost", letters), effects=a_effects, once=a.get("once", bool, False),
                          target=a_target)
    equip: dict[str, Any] = {}
    if "equip" in raw:
        if type_ != "equipment":
            check.fail("equip", "only an Equipment gives its hero bonuses")
        e = Checker(path, f"card '{name}', equip", raw["equip"])
        e.only({"atk", "def", "unblockable"})
        equip = {"atk": e.get("atk", int, 0, most=MAX_STAT), "def": e.get("def", int, 0, most=MAX_STAT),
                 "unblockable": e.get("unblockable", bool, False)}
    trigger = _effects(path, f"card '{name}'", "trigger", raw.get("trigger", []), letters)
    if trigger and subtype != "enchantment":
        check.fail("trigger", "only an Enchantment has a start-of-Action-phase trigger")
    if any(e["op"] in TARGETED_OPS for e in trigger):
        check.fail("trigger", "a trigger acts on no target")
    return Card(name=name, set=set_, type=type_, copies=check.count("copies", MAX_COPIES), flavor=flavor,
                subtype=subtype, cost=cost, atk=atk, defense=defense,
                prestige=check.get("prestige", int, 0, most=MAX_PRESTIGE), text=check.get("text", str, ""),
                effects=effects, target=target, target_def=target_def, ability=ability, equip=equip,
                trigger=trigger, source=check.get("source", str, choices=SOURCES),
                copies_source=check.get("copies_source", str, "designed", SOURCES), note=check.get("note", str, ""))


def _flavor(path: str, i: int, raw: Any) -> Flavor:
    check = Checker(path, f"flavor {i}", raw)
    check.only({"name", "letter", "theme"})
    name = check.name()
    letter = check.get("letter", str)
    if len(letter) != 1 or not letter.isupper():
        check.fail("letter", f"one capital letter, got {letter!r}")
    return Flavor(name=name, letter=letter, theme=check.get("theme", str, ""))


def parse_cards(text: str, path: str = "<cards>") -> CardSet:
    """A card set from the text of a card file; raises :class:`CardDataError`."""
    data, digest = parse_toml(text, path)
    top = Checker(path, "the file", data)
    top.only({"name", "ruleset", "flavor", "card"})
    if data.get("ruleset") != RULESET:
        top.fail("ruleset", f"must be {RULESET!r} for OMNIA, got {data.get('ruleset')!r}")
    raw_flavors = data.get("flavor", [])
    if not isinstance(raw_flavors, list) or not MIN_FLAVORS <= len(raw_flavors) <= MAX_FLAVORS:
        top.fail("flavor", f"must list {MIN_FLAVORS} to {MAX_FLAVORS} flavors (a limit of the engines)")
    flavors = tuple(_flavor(path, i, f) for i, f in enumerate(raw_flavors))
    check_unique_names(path, "flavor", (f.name for f in flavors))
    letters = "".join(f.letter for f in flavors)
    if len(set(letters)) != len(letters):
        top.fail("flavor", "two flavors share a letter")
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list) or not 1 <= len(raw_cards) <= MAX_CARDS:
        top.fail("card", f"must list 1 to {MAX_CARDS} cards (a limit of the engines)")
    names = tuple(f.name for f in flavors)
    cards = tuple(_card(path, i, c, names, letters) for i, c in enumerate(raw_cards))
    check_unique_names(path, "card", (c.name for c in cards))
    card_set = CardSet(name=top.get("name", str), flavors=flavors, cards=cards, sha256=digest)
    if len(card_set.basics()) < MIN_STARTING:
        top.fail("card", f"the basic cards make a starting deck of {len(card_set.basics())}, "
                         f"at least {MIN_STARTING} are needed for the first hand")
    for f in flavors:
        if len(card_set.deck_of(f.name)) < SHOP_ROW:
            top.fail("card", f"flavor {f.name!r} has {len(card_set.deck_of(f.name))} flavor-deck cards, "
                             f"at least {SHOP_ROW} are needed")
    return card_set


def load_cards(path: str | Path) -> CardSet:
    """The card set in the file at ``path``; raises :class:`CardDataError`."""
    return parse_cards(read_card_file(path, MAX_FILE_CHARS), str(path))


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    """The built-in "OMNIA — seed edition" (``omen_search/data/omnia-seed.toml``)."""
    return parse_cards(builtin_card_text("omnia-seed.toml"), "omnia-seed.toml")


__all__ = ["CardSet", "Card", "Cost", "Ability", "Flavor", "CardDataError", "load_cards", "default_cards",
           "parse_cards"]
