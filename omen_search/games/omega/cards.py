"""OMEGA card sets as data: the runes in the bag, the Egregor cards, the Arcana tokens and the
Ritual Disc.

:func:`load_cards` validates a ``ruleset = "omega"`` file and raises
:class:`~omen_search.errors.CardDataError` naming the file, the item and the field of any mistake,
in the same words as the Omen loaders (:mod:`omen_search.cardfiles`). The format is in
``docs/cards.md`` ("OMEGA's card file"); the seed edition and what of it is printed are in
``docs/rules/omega-the-ritual-cards.md``. Every item keeps its ``source`` (``printed``, ``partly
printed`` or ``designed``), which the tools show.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.cardfiles import (
    MAX_FILE_CHARS,
    Checker,
    builtin_card_text,
    check_unique_names,
    parse_toml,
    read_card_file,
)
from omen_search.errors import CardDataError, UsageError

RULESET = "omega"
KINDS = ("blue", "gold", "red", "green", "white", "black")  # the rune kinds, in the engines' order
COLOURS = KINDS[:5]  # black "doesn't count as a color"
BLUE, GOLD, RED, GREEN, WHITE, BLACK = range(6)
SOURCES = ("printed", "partly printed", "designed")
TRIGGERS = ("book", "lightning")  # O-power-1, O-power-2
POWERS = ("cycle", "thrust", "fate", "key")  # O-power-3 to O-power-7
TAGS = ("renegade", "primitive")  # O-power-8, O-power-9
# What a variable Arcanum counts at Judgment (O-card-3), and how it reads.
FORMULAS = {
    "white": "1 per white rune on your Egregors",
    "prestige": "2 per Prestige token you hold",
    "blue": "1 per blue rune on your Egregors",
    "arcana": "1 per 2 Arcana tokens you hold (this one included), rounded down",
    "pyramid_black": "1 per black rune in your Pyramid",
    "green": "1 per green rune on your Egregors",
    "full_egregors": "3 per Egregor you control carrying 10 runes",
    "gold": "1 per gold rune on your Egregors (on top of the gold bonus)",
    "kinds": "1 per kind of rune present on your Egregors",
}

# The box (O-comp): the engines are made for sets of this size at most; a file beyond is refused.
MAX_EGREGORS = 64  # Egregor cards (the box has 42)
MIN_EGREGORS = 8  # enough for a Gallery of 4 and four players' first gains
MAX_ARCANA = 64  # Arcana tokens (the box has 42, in 6 stacks of 7)
ARCANA_STACKS = 6  # O-setup-4
MAX_RUNES_OF_A_KIND = 64  # the box's largest is 37 red
MIN_RUNES = 26  # the set-up takes 6 for the Altar and up to 20 for four starting Pyramids (O-setup-2, O-setup-6)
MAX_POWER = 10  # a power's number (CYCLE, THRUST, FATE, KEY): an Egregor carries 10 runes at most
MAX_SNAKE = 10
MAX_THRUST = 12
MIN_SQUARES, MAX_SQUARES = 2, 60  # the Ritual Disc's squares (O-disc-1: designed 12)
MAX_POINTS = 99  # a fixed Arcanum's points


@dataclass(frozen=True)
class Egregor:
    """One Egregor card (one copy each): its Snake Number, Time Thrust, power and tag."""

    name: str
    snake: int
    thrust: int
    trigger: str | None = None  # "book", "lightning" or None (no power)
    power: str | None = None  # "cycle", "thrust", "fate", "key"
    n: int = 0
    colour: int | None = None  # a rune kind the power is limited to
    tag: str | None = None  # "renegade", "primitive" or None
    source: str = "designed"
    note: str = ""

    @property
    def renegade(self) -> bool:
        return self.tag == "renegade"

    @property
    def primitive(self) -> bool:
        return self.tag == "primitive"

    def power_text(self) -> str:
        """The power as the card's pictograms say it: ``Book: FATE 2 (blue)``."""
        if self.trigger is None:
            return "no power"
        colour = f" ({KINDS[self.colour]})" if self.colour is not None else ""
        return f"{self.trigger.capitalize()}: {self.power.upper() if self.power else ''} {self.n}{colour}"


@dataclass(frozen=True)
class Arcanum:
    """One kind of Arcana token: fixed points, or a formula read at Judgment (O-card-3)."""

    name: str
    numeral: str
    points: int | None  # fixed points, or None for a variable token
    counts: str | None  # the formula of a variable token (a key of FORMULAS)
    copies: int
    source: str = "designed"

    def text(self) -> str:
        return f"{self.points} points" if self.points is not None else FORMULAS[self.counts or ""]


@dataclass(frozen=True)
class CardSet:
    """A whole OMEGA set: runes per kind, the Egregors (by index: card ids), the Arcana kinds (each
    token is its kind's index, ``copies`` times), the disc's squares, and where each came from."""

    name: str
    runes: tuple[int, ...]
    egregors: tuple[Egregor, ...]
    arcana: tuple[Arcanum, ...]
    squares: int
    runes_source: str = "printed"
    disc_source: str = "designed"
    sha256: str = ""

    @property
    def tokens(self) -> tuple[int, ...]:
        """Every Arcana token, as its kind's index, in the file's order."""
        return tuple(i for i, a in enumerate(self.arcana) for _ in range(a.copies))

    def egregor_index(self, name: str) -> int | None:
        return next((i for i, e in enumerate(self.egregors) if e.name == name), None)

    def arcanum_index(self, name: str) -> int | None:
        return next((i for i, a in enumerate(self.arcana) if a.name == name), None)

    def without(self, name: str) -> CardSet:
        """The same set without the Egregor or the Arcanum kind (every token of it) ``name``,
        named ``"<set> without <name>"`` with a sha256 of its own, for an ablation
        (``omen-search balance --ablate``). The card ids after it move down one, so a game of
        the smaller set is dealt afresh from the same seed. Raises :class:`UsageError` for an
        unknown name or an Egregor the set-up cannot spare (at least ``MIN_EGREGORS``)."""
        egregors = tuple(e for e in self.egregors if e.name != name)
        arcana = tuple(a for a in self.arcana if a.name != name)
        if len(egregors) == len(self.egregors) and len(arcana) == len(self.arcana):
            raise UsageError(f"ablate: no Egregor or Arcanum called {name!r} in {self.name!r}")
        if len(egregors) < MIN_EGREGORS:
            raise UsageError(f"ablate: without {name!r} the set {self.name!r} would have {len(egregors)} Egregors, "
                             f"the game deals from {MIN_EGREGORS} at least")
        if not arcana:
            raise UsageError(f"ablate: without {name!r} the set {self.name!r} would have no Arcanum")
        digest = hashlib.sha256(f"{self.sha256}\0without\0{name}".encode()).hexdigest()
        return replace(self, name=f"{self.name} without {name}", egregors=egregors, arcana=arcana, sha256=digest)

    def sources(self) -> dict[str, int]:
        """How many Egregors and Arcana kinds are printed, partly printed and designed."""
        out = {s: 0 for s in SOURCES}
        for source in [e.source for e in self.egregors] + [a.source for a in self.arcana]:
            out[source] += 1
        return out


def _egregor(path: str, i: int, raw: Any) -> Egregor:
    check = Checker(path, f"egregor {i}", raw)
    name = check.name()
    check = Checker(path, f"egregor '{name}'", raw)
    check.only({"name", "snake", "thrust", "trigger", "power", "n", "colour", "tag", "source", "note"})
    trigger = check.get("trigger", str, None, TRIGGERS)
    power = check.get("power", str, None, POWERS)
    if (trigger is None) != (power is None):
        check.fail("power" if trigger else "trigger", "a power needs both a trigger and a power")
    n = check.count("n", MAX_POWER) if power is not None else check.get("n", int, 0, most=0)
    colour = check.get("colour", str, None, KINDS)
    if colour is not None and power not in ("cycle", "fate"):
        check.fail("colour", "only a CYCLE or a FATE power names a colour")
    return Egregor(
        name=name, snake=check.get("snake", int, most=MAX_SNAKE), thrust=check.get("thrust", int, most=MAX_THRUST),
        trigger=trigger, power=power, n=n, colour=KINDS.index(colour) if colour is not None else None,
        tag=check.get("tag", str, None, TAGS), source=check.get("source", str, choices=SOURCES),
        note=check.get("note", str, ""))


def _arcanum(path: str, i: int, raw: Any) -> Arcanum:
    check = Checker(path, f"arcana {i}", raw)
    name = check.name()
    check = Checker(path, f"arcana '{name}'", raw)
    check.only({"name", "numeral", "points", "counts", "copies", "source"})
    points = check.get("points", int, None, most=MAX_POINTS)
    counts = check.get("counts", str, None, tuple(FORMULAS))
    if (points is None) == (counts is None):
        check.fail("points", "an Arcanum has either fixed points or a formula ('counts'), not both or neither")
    return Arcanum(name=name, numeral=check.get("numeral", str, ""), points=points, counts=counts,
                   copies=check.count("copies", MAX_ARCANA), source=check.get("source", str, choices=SOURCES))


def parse_cards(text: str, path: str = "<cards>") -> CardSet:
    """A card set from the text of a card file; raises :class:`CardDataError`."""
    data, digest = parse_toml(text, path)
    top = Checker(path, "the file", data)
    top.only({"name", "ruleset", "runes", "disc", "egregor", "arcana"})
    if data.get("ruleset") != RULESET:
        top.fail("ruleset", f"must be {RULESET!r} for OMEGA, got {data.get('ruleset')!r}")
    runes = Checker(path, "runes", data.get("runes", {}))
    runes.only({*KINDS, "source"})
    counts = tuple(runes.get(k, int, most=MAX_RUNES_OF_A_KIND) for k in KINDS)
    disc = Checker(path, "disc", data.get("disc", {}))
    disc.only({"squares", "source"})
    squares = disc.get("squares", int, most=MAX_SQUARES)
    if squares < MIN_SQUARES:
        disc.fail("squares", f"must be at least {MIN_SQUARES}, got {squares}")
    raw_egregors = data.get("egregor", [])
    if not isinstance(raw_egregors, list) or not MIN_EGREGORS <= len(raw_egregors) <= MAX_EGREGORS:
        top.fail("egregor", f"must list {MIN_EGREGORS} to {MAX_EGREGORS} Egregors "
                            f"(a limit of the engines), got {len(raw_egregors) if isinstance(raw_egregors, list) else raw_egregors!r}")
    egregors = tuple(_egregor(path, i, e) for i, e in enumerate(raw_egregors))
    check_unique_names(path, "egregor", (e.name for e in egregors))
    raw_arcana = data.get("arcana", [])
    if not isinstance(raw_arcana, list) or not raw_arcana:
        top.fail("arcana", "must list at least one Arcanum")
    arcana = tuple(_arcanum(path, i, a) for i, a in enumerate(raw_arcana))
    check_unique_names(path, "arcana", (a.name for a in arcana))
    tokens = sum(a.copies for a in arcana)
    if tokens > MAX_ARCANA:
        top.fail("arcana", f"{tokens} tokens, the limit of the engines is {MAX_ARCANA}")
    if sum(counts[:5]) < 1:
        runes.fail("", "the bag needs runes of at least one colour")
    if sum(counts) < MIN_RUNES:
        runes.fail("", f"the bag needs at least {MIN_RUNES} runes (the Altar's 6 and four starting Pyramids), "
                       f"got {sum(counts)}")
    return CardSet(name=top.get("name", str), runes=counts, egregors=egregors, arcana=arcana, squares=squares,
                   runes_source=runes.get("source", str, "designed", SOURCES),
                   disc_source=disc.get("source", str, "designed", SOURCES), sha256=digest)


def load_cards(path: str | Path) -> CardSet:
    """The card set in the file at ``path``; raises :class:`CardDataError`."""
    return parse_cards(read_card_file(path, MAX_FILE_CHARS), str(path))


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    """The built-in "OMEGA — seed edition" (``omen_search/data/omega-seed.toml``)."""
    return parse_cards(builtin_card_text("omega-seed.toml"), "omega-seed.toml")


__all__ = ["CardSet", "Egregor", "Arcanum", "CardDataError", "load_cards", "default_cards", "parse_cards"]
