"""The combined game's cards: an Heir to the Dunes set with up to 10 Reign of War unit cards shuffled
into its deck (C-1, C-2), and each player's six Reign of War feats (C-4).

A Reign of War unit joins the Heir set as a :class:`ReignUnit`: an Heir unit design that is Neutral
with no keywords (C-5), keeps its type's rules (C-6) and brings its ability as an effect list of its
own (``("ability", index)``, in Reign of War's vocabulary). An Enraged unit is a unit design of its
own, ``"<name> (enraged)"``: a strength-4 Beast with no values or ability (R-enrage-2), which only
ever stands in a city; when it leaves one it is its card again (R-enrage-6). So every Heir rule that
counts, fights or keeps units (capacity, the war-torn check, strength, the cost tie-break, the keep
limits) applies to the Enraged form as it is.

The set a game is dealt from (:func:`combine`) is made from a :class:`Pool` (an Heir set and a Reign
of War set, built in or read from one card file) and the configuration's choice of Reign of War
cards: the Heir units first, in their order, then the chosen Reign of War designs in theirs, then
the Enraged forms of those that can be Enraged (D-pick-1 orders picks by this index).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.cardfiles import MAX_FILE_CHARS, Checker, check_unique_names, parse_toml, read_card_file
from omen_search.errors import CardDataError, UsageError
from omen_search.games.heir import cards as heir_cards
from omen_search.games.heir.cards import CardSet, Unit
from omen_search.games.reign import cards as reign_cards
from omen_search.games.reign.cards import Feat
from omen_search.games.reign.rules import ENRAGED_STRENGTH

RULESET = "heir+reign"
MAX_REIGN_CARDS = 10  # C-2: the rulebook's recommended limit, the engines' too
ENRAGED_SUFFIX = " (enraged)"

# The limits of the combined game's core (ext/combined/core_state.pxd, which asserts it agrees with
# them; docs/cards.md lists them). A set beyond one is refused when a game is dealt on the core, with
# a CoreLimitError naming it; the reference engine plays it.
CORE_UNIT_DESIGNS = 48  # Heir's designs, the chosen Reign of War ones and their Enraged forms
CORE_DECK = 50  # cards in the deck: Heir's 40 at most, and MAX_REIGN_CARDS
CORE_STACK = 128  # effect lists resolving at once: Heir's (heir.cards.MAX_STACK) and nested Soldier triggers


@dataclass(frozen=True)
class ReignUnit(Unit):
    """A Reign of War unit in an Heir game (C-5, C-6). ``kind`` is its type (``soldier``, ``beast``,
    ``oracle``) or ``enraged`` for the Enraged form of the card ``base`` (a card's own index
    otherwise); ``ability`` is in Reign of War's effect vocabulary."""

    kind: str = "soldier"
    ability: tuple[reign_cards.Effect, ...] = ()
    base: int = -1

    @property
    def size(self) -> int:
        """A Beast counts 2, an Enraged unit included (R-beast-1, C-6)."""
        return 2 if self.kind in ("beast", "enraged") else 1

    def matches(self, filter: str) -> bool:
        """Heir's filters (a Reign of War unit is Neutral, C-5) and Reign of War's types (an Enraged
        unit is a Beast and nothing else, R-enrage-2)."""
        if filter in ("any", "neutral"):
            return True
        if filter == "beast":
            return self.kind in ("beast", "enraged")
        return filter == self.kind

    def enrageable(self, filter: str) -> bool:
        """Whether the face-up unit can be Enraged by an effect with ``filter`` (R-enrage-1)."""
        return self.kind in ("soldier", "oracle") and filter in ("any", self.kind)

    def own_lists(self) -> tuple[tuple[tuple, tuple[Any, ...]], ...]:
        return ((("ability", self.index), self.ability),) if self.ability else ()


def is_reign(unit: Unit, kind: str | None = None) -> bool:
    """Whether ``unit`` is a Reign of War unit (of ``kind``, if given)."""
    return isinstance(unit, ReignUnit) and (kind is None or unit.kind == kind)


@dataclass(frozen=True)
class Pool:
    """The cards a combined game can be made of: an Heir set and the Reign of War set whose units
    and feats it may take (``path``/``sha256`` name the file both came from; for the built-in
    pool, the two built-in files)."""

    heir: CardSet
    reign: reign_cards.CardSet
    name: str
    path: str
    sha256: str


@dataclass(frozen=True)
class CombinedSet(CardSet):
    """An Heir set with Reign of War units in its deck (:func:`combine`) and the feats."""

    feats: tuple[Feat, ...] = ()
    reign_cards: tuple[str, ...] = field(default=())  # the Reign of War cards in the deck, by name

    def enraged(self, t: int) -> int:
        """The index of the Enraged form of unit ``t`` (``-1`` if it cannot be Enraged)."""
        return self._enraged.get(t, -1)  # type: ignore[attr-defined]

    def __post_init__(self) -> None:
        super().__post_init__()
        forms = {u.base: u.index for u in self.units if isinstance(u, ReignUnit) and u.kind == "enraged"}
        object.__setattr__(self, "_enraged", forms)

    def base(self, t: int) -> int:
        """The card unit ``t`` is: itself, or the card an Enraged form is (R-enrage-6)."""
        u = self.units[t]
        return u.base if is_reign(u, "enraged") else t  # type: ignore[attr-defined]


def _reign_unit(u: reign_cards.Unit, index: int, copies: int) -> ReignUnit:
    return ReignUnit(index=index, name=u.name, type=u.type, devotion="neutral", cost=u.cost, strength=u.strength,
                     offering=u.offering, keywords=frozenset(), copies=copies, source=u.source, text=u.text,
                     note=u.note, kind=u.type, ability=u.ability, base=index)


def check_reign_cards(pool: Pool, names: tuple[str, ...], where: str = "reign_units") -> None:
    """Refuse a choice of Reign of War cards the combined game cannot deal (C-2): a name that is no
    Reign of War unit of the pool, more copies of a design than the set has, more than
    :data:`MAX_REIGN_CARDS` cards."""
    if len(names) > MAX_REIGN_CARDS:
        raise UsageError(f"{where}: at most {MAX_REIGN_CARDS} Reign of War unit cards (C-2), got {len(names)}")
    designs = {u.name: u for u in pool.reign.units}
    for name in names:
        if name not in designs:
            near = [n for n in designs if n.casefold() == str(name).casefold()]
            raise UsageError(f"{where}: no Reign of War unit called {name!r} in {pool.reign.name!r}"
                             + (f"; did you mean {near[0]!r}?" if near else ""))
        if names.count(name) > designs[name].copies:
            raise UsageError(f"{where}: {names.count(name)} cards of {name!r}, the set has {designs[name].copies}")


def random_reign_cards(pool: Pool, count: int, seed: int) -> tuple[str, ...]:
    """``count`` Reign of War unit cards drawn at random from the Reign of War deck (a seeded choice,
    in card order); the same seed draws the same cards."""
    from omen_search.rng import Rng

    if not 0 <= count <= MAX_REIGN_CARDS:
        raise UsageError(f"reign_units: random:K takes K from 0 to {MAX_REIGN_CARDS} (C-2), got {count}")
    deck = [u.index for u in pool.reign.units for _ in range(u.copies)]
    Rng(seed).shuffle(deck)
    return tuple(pool.reign.units[t].name for t in sorted(deck[:count]))


@lru_cache(maxsize=64)
def combine(pool: Pool, names: tuple[str, ...], feats: bool = True) -> CombinedSet:
    """The set a combined game is dealt from: the pool's Heir set with the Reign of War cards
    ``names`` (repeats are copies) added to its deck, their Enraged forms, and the feats if
    ``feats``. Raises :class:`UsageError` for a choice :func:`check_reign_cards` refuses."""
    check_reign_cards(pool, names)
    heir = pool.heir
    units: list[Unit] = list(heir.units)
    for design in pool.reign.units:
        if design.name in names:
            units.append(_reign_unit(design, len(units), names.count(design.name)))
    for u in list(units[len(heir.units):]):
        if isinstance(u, ReignUnit) and u.kind in ("soldier", "oracle"):
            units.append(ReignUnit(index=len(units), name=u.name + ENRAGED_SUFFIX, type="enraged",
                                   devotion="neutral", cost=0, strength=ENRAGED_STRENGTH, offering=0,
                                   keywords=frozenset(), copies=0, source=u.source,
                                   text="Enraged: a face-down Beast of strength 4 with no ability (R-enrage-2).",
                                   kind="enraged", base=u.index))
    digest = hashlib.sha256("\0".join((pool.sha256, *names, str(feats))).encode()).hexdigest()
    label = f"{heir.name} + {len(names)} {pool.reign.name} units"
    return CombinedSet(name=label, ruleset=RULESET, units=tuple(units), rewards=heir.rewards,
                       structures=heir.structures, path=pool.path, sha256=digest,
                       feats=pool.reign.feats if feats else (), reign_cards=tuple(sorted(names, key=_order(pool))))


def _order(pool: Pool) -> Any:
    index = {u.name: u.index for u in pool.reign.units}
    return lambda name: index[name]


# ------------------------------------------------------------------------------------- loading


def parse_pool(text: str, path: str = "<cards>") -> Pool:
    """A combined card file (``ruleset = "heir+reign"``): an Heir set (``unit``, ``reward``,
    ``structure``, as in an Heir file) and Reign of War unit designs and feats (``reign_unit``,
    ``feat``, as ``unit`` and ``feat`` in a Reign of War file). Raises :class:`CardDataError`
    naming the file, the card and the field of the first mistake; a Reign of War unit named like an
    Heir unit cannot be combined (the notation names cards by name)."""
    raw, digest = parse_toml(text, path)
    top = Checker(path, "top level", raw)
    top.get("ruleset", str, choices=(RULESET,))
    top.only({"name", "ruleset", "unit", "reward", "structure", "reign_unit", "feat"})
    name = top.get("name", str)
    heir = heir_cards.build_cards(path, digest, {k: raw[k] for k in ("unit", "reward", "structure") if k in raw},
                                  name=name)
    reign_units = tuple(reign_cards.read_unit(path, i, u) for i, u in enumerate(top.get("reign_unit", list)))
    feats = tuple(reign_cards.read_feat(path, i, f) for i, f in enumerate(top.get("feat", list)))
    check_unique_names(path, "reign_unit", (u.name for u in reign_units))
    check_unique_names(path, "feat", (f.name for f in feats))
    if len(feats) != reign_cards.FEATS:
        raise CardDataError(f"{path}: feat: there must be {reign_cards.FEATS} feats (C-4, R-comp-3), got {len(feats)}")
    clash = sorted({u.name for u in reign_units} & {u.name for u in heir.units})
    if clash:
        raise CardDataError(f"{path}: reign_unit '{clash[0]}': an Heir unit has the same name; the sets cannot be "
                            "combined (moves name cards by name)")
    for u in reign_units:
        if u.name.endswith(ENRAGED_SUFFIX):
            raise CardDataError(f"{path}: reign_unit '{u.name}', field 'name': must not end with {ENRAGED_SUFFIX!r}, "
                                "which names an Enraged unit")
    reign = reign_cards.CardSet(name=name, ruleset=reign_cards.RULESET, units=reign_units, rewards=(), feats=feats,
                                match_cards=(), path=path, sha256=digest)
    return Pool(heir=heir, reign=reign, name=name, path=path, sha256=digest)


def load_pool(path: str | Path | None = None) -> Pool:
    """The pool in a combined card file; ``None``: the built-in one (both seed editions)."""
    if path is None:
        return default_pool()
    return parse_pool(read_card_file(path, MAX_FILE_CHARS), str(path))


@lru_cache(maxsize=1)
def default_pool() -> Pool:
    """Heir to the Dunes' and Reign of War's built-in seed editions, together."""
    heir, reign = heir_cards.default_cards(), reign_cards.default_cards()
    digest = hashlib.sha256(f"{heir.sha256}\0{reign.sha256}".encode()).hexdigest()
    return Pool(heir=heir, reign=reign, name=f"{heir.name} + {reign.name}", path=f"{heir.path} + {reign.path}",
                sha256=digest)


def pool_of(cards: Any) -> Pool:
    """The pool ``cards`` is (a :class:`Pool`, or ``None`` for the built-in one); :class:`UsageError`
    for another game's set."""
    if cards is None:
        return default_pool()
    if isinstance(cards, Pool):
        return cards
    raise UsageError(f"cards: the {RULESET} game takes a combined card file (ruleset = \"{RULESET}\"), "
                     f"not a {getattr(cards, 'ruleset', type(cards).__name__)!r} set")

