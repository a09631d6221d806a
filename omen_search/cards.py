"""Card sets as data: units, reward tiles and structures, with abilities in a small effect vocabulary.

A card's behaviour is a list of :class:`Effect` steps (``draw``, ``entomb``, ``choose`` …) read from a
TOML file, so a new card is data, not code. :func:`load_cards` validates a file and raises
:class:`~omen_search.errors.CardDataError` naming the file, the card and the field of any mistake.
The vocabulary is documented in ``docs/cards.md``.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from collections.abc import Callable
from typing import Any, Literal

from omen_search.errors import CardDataError, UsageError
from omen_search.moves import is_label

GODS: tuple[str, str] = ("anubis", "horus")
UNIT_TYPES = ("embalmed", "follower", "initiate", "vizier")
DEVOTIONS = ("anubis", "horus", "both", "neutral")
KEYWORDS = ("TREASURED", "ENDURING", "COLOSSAL")
FILTERS = ("any", "neutral", "anubis", "horus", "treasured")
SOURCES = ("printed", "designed")
DECK_SIZE = 40
REWARD_COUNT = 9
STRUCTURES_PER_GOD = 3
MAX_UNIT_TYPES = 48  # the core's fixed arrays are sized for this many distinct unit designs

Filter = Literal["any", "neutral", "anubis", "horus", "treasured"]

# For each op: its parameters, whether each is required, and its kind.
# kinds: "count" (int >= 1), "amount" (int >= 0), "bool", "god", "filter", "side", "where", "mode",
# "effects" (a nested list of effects), "options" (a list of {label, effects}).
OPS: dict[str, dict[str, tuple[bool, str]]] = {
    "draw": {"n": (True, "count")},
    "gain": {"n": (True, "count")},
    "discard": {"n": (True, "count")},
    "opponent_discards": {"n": (True, "count"), "steal_if": (False, "god")},
    "reveal_hand_discard": {"n": (True, "count"), "filter": (False, "filter")},
    "entomb": {
        "n": (True, "count"),
        "side": (True, "side"),
        "where": (False, "where"),
        "filter": (False, "filter"),
        "up_to": (False, "bool"),
    },
    "reclaim": {"n": (True, "count")},
    "move": {"n": (True, "count"), "mode": (True, "mode")},
    "destroy_all": {"filter": (True, "filter"), "draw_each": (False, "amount")},
    "steal_unit": {"filter": (False, "filter"), "then": (False, "effects")},
    "play_free": {},
    "favor": {},
    "unearth": {"take": (True, "count")},
    "choose": {"options": (True, "options")},
    "if_favored": {"then": (True, "effects")},
}
_CHOICES = {
    "god": GODS,
    "filter": FILTERS,
    "side": ("own", "opposing"),
    "where": ("any", "this_city"),
    "mode": ("maneuver", "any"),
}


@dataclass(frozen=True)
class Option:
    """One branch of a ``choose`` effect; ``label`` is what the player types (``choose draw``)."""

    label: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Effect:
    """One step of an ability. Which fields matter depends on ``op`` (see ``OPS``)."""

    op: str
    n: int = 0
    steal_if: str | None = None
    filter: str = "any"
    side: str = "own"
    where: str = "any"
    up_to: bool = False
    mode: str = "any"
    draw_each: int = 0
    take: int = 0
    then: tuple[Effect, ...] = ()
    options: tuple[Option, ...] = ()


@dataclass(frozen=True)
class Unit:
    """A unit design; ``copies`` physical cards of it are in the deck. ``index`` is its card id."""

    index: int
    name: str
    type: str
    devotion: str
    cost: int
    strength: int
    offering: int
    keywords: frozenset[str]
    copies: int
    source: str
    text: str
    labor: tuple[Effect, ...] = ()
    reinforce: tuple[Effect, ...] = ()
    invocation: tuple[Effect, ...] = ()
    maneuver: int = 0
    note: str = ""

    @property
    def colossal(self) -> bool:
        return "COLOSSAL" in self.keywords

    @property
    def treasured(self) -> bool:
        return "TREASURED" in self.keywords

    @property
    def enduring(self) -> bool:
        return "ENDURING" in self.keywords

    @property
    def size(self) -> int:
        """Unit-count for capacity, war-torn checks and keep limits (COLOSSAL counts 2)."""
        return 2 if self.colossal else 1

    @property
    def neutral(self) -> bool:
        return self.devotion == "neutral"

    def devoted_to(self, god: str) -> bool:
        """True if devoted to ``god`` (a unit devoted to both gods is devoted to each)."""
        return self.devotion == god or self.devotion == "both"

    def matches(self, filter: str) -> bool:
        """Whether the unit passes an effect's ``filter`` (``anubis`` includes units devoted to both)."""
        if filter == "any":
            return True
        if filter == "neutral":
            return self.neutral
        if filter == "treasured":
            return self.treasured
        return self.devoted_to(filter)


@dataclass(frozen=True)
class RewardTile:
    """A reward tile; its effects resolve when its owner uses it in their Surge."""

    index: int
    name: str
    source: str
    text: str
    effects: tuple[Effect, ...]
    note: str = ""


@dataclass(frozen=True)
class Structure:
    """A structure; ``slot`` is its position (0, 1, 2) among its god's three, by BUILD number."""

    index: int
    slot: int
    name: str
    god: str
    build: int
    vp: int
    source: str
    text: str
    completed: tuple[Effect, ...]
    note: str = ""


@dataclass(frozen=True)
class CardSet:
    """A validated card set. Cards are referred to by ``index`` everywhere inside the engines."""

    name: str
    ruleset: str
    units: tuple[Unit, ...]
    rewards: tuple[RewardTile, ...]
    structures: tuple[Structure, ...]
    path: str
    sha256: str
    ablated: tuple[tuple[int, int], ...] = ()  # (unit index, copies) taken out by :meth:`without`

    def __post_init__(self) -> None:
        index: dict[tuple[str, str], Unit | RewardTile | Structure] = {("unit", u.name): u for u in self.units}
        index.update({("reward", t.name): t for t in self.rewards})
        index.update({("structure", s.name): s for s in self.structures})
        object.__setattr__(self, "_by_name", index)

    def unit(self, name: str) -> Unit:
        """The unit design called ``name``; raises ``KeyError`` if there is none."""
        return self._by_name[("unit", name)]  # type: ignore[attr-defined]

    def reward(self, name: str) -> RewardTile:
        """The reward tile called ``name``; raises ``KeyError`` if there is none."""
        return self._by_name[("reward", name)]  # type: ignore[attr-defined]

    def structure(self, name: str) -> Structure:
        """The structure called ``name``; raises ``KeyError`` if there is none."""
        return self._by_name[("structure", name)]  # type: ignore[attr-defined]

    def structures_of(self, god: str) -> tuple[Structure, ...]:
        """The god's three structures, smallest BUILD first."""
        return tuple(s for s in self.structures if s.god == god)

    def without(self, name: str) -> CardSet:
        """The same set with every copy of the unit ``name`` taken out of the deck (a smaller deck),
        for measuring what one card does to the game; raises :class:`UsageError` for an unknown unit."""
        try:
            unit = self.unit(name)
        except KeyError:
            raise UsageError(f"ablate: no unit called {name!r} in {self.name!r}") from None
        units = tuple(replace(u, copies=0) if u is unit else u for u in self.units)
        digest = hashlib.sha256(f"{self.sha256}\0without\0{name}".encode()).hexdigest()
        return replace(self, name=f"{self.name} without {name}", units=units, sha256=digest,
                       ablated=self.ablated + ((unit.index, unit.copies),))

    def deck_list(self) -> list[int]:
        """The deck before shuffling: each unit's index repeated ``copies`` times, in file order."""
        return [u.index for u in self.units for _ in range(u.copies)]

    def shuffled_deck(self, shuffle: Callable[[list[int]], None]) -> list[int]:
        """The deck a game starts with. A set with cards taken out (:meth:`without`) shuffles the
        whole deck and then takes their copies out, so that the other cards lie in the same order
        as in the full set's game of the same seed: an ablation compares like deals with like."""
        removed = dict(self.ablated)
        deck = [u.index for u in self.units for _ in range(u.copies + removed.get(u.index, 0))]
        shuffle(deck)
        return [t for t in deck if t not in removed]


# ------------------------------------------------------------------------------------- loading


class _Checker:
    """Reads one table of the file, remembering where it is for error messages."""

    def __init__(self, path: str, where: str, table: Any):
        self.path = path
        self.where = where
        if not isinstance(table, dict):
            self.fail("", f"must be a table, got {type(table).__name__}")
        self.table: dict[str, Any] = table

    def fail(self, field: str, message: str):
        at = f"{self.where}, field '{field}'" if field else self.where
        raise CardDataError(f"{self.path}: {at}: {message}")

    def only(self, allowed: set[str]) -> None:
        for key in self.table:
            if key not in allowed:
                self.fail(key, f"unknown field (expected one of {', '.join(sorted(allowed))})")

    def get(self, field: str, kind: type, default: Any = ..., choices: tuple = ()) -> Any:
        if field not in self.table:
            if default is ...:
                self.fail(field, "missing")
            return default
        value = self.table[field]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(field, f"must be an integer, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            self.fail(field, f"must be a {kind.__name__}, got {value!r}")
        if kind is int and value < 0:
            self.fail(field, f"must not be negative, got {value}")
        if choices and value not in choices:
            self.fail(field, f"unknown value {value!r} (expected one of {', '.join(choices)})")
        return value

    def name(self) -> str:
        name = self.get("name", str)
        if not name.strip() or '"' in name or name != name.strip():
            self.fail("name", f"must be non-empty, without quotes or outer spaces, got {name!r}")
        return name


def _effects(path: str, where: str, field: str, raw: Any, city: bool) -> tuple[Effect, ...]:
    """A list of effects; ``city`` says whether they resolve in a city ("this city" exists only in
    REINFORCE, INVOCATION and MANEUVER, not in LABOR, reward tiles or structures)."""
    if not isinstance(raw, list):
        raise CardDataError(f"{path}: {where}, field '{field}': must be a list of effects")
    return tuple(_effect(path, f"{where}, field '{field}[{i}]'", e, city) for i, e in enumerate(raw))


def _effect(path: str, where: str, raw: Any, city: bool) -> Effect:
    if not isinstance(raw, dict):
        raise CardDataError(f"{path}: {where}: an effect must be a table with an 'op'")
    op = raw.get("op")
    if op is None:
        raise CardDataError(f"{path}: {where}, field 'op': missing")
    if not isinstance(op, str) or op not in OPS:
        raise CardDataError(
            f"{path}: {where}: unknown op {op!r} (expected one of {', '.join(sorted(OPS))})"
        )
    spec = OPS[op]
    check = _Checker(path, where, raw)
    check.only({"op", *spec})
    args: dict[str, Any] = {"op": op}
    for param, (required, kind) in spec.items():
        if param not in raw:
            if required:
                check.fail(param, f"missing (op '{op}' needs it)")
            continue
        value = raw[param]
        if kind in ("count", "amount"):
            value = check.get(param, int)
            if kind == "count" and value < 1:
                check.fail(param, f"must be at least 1, got {value}")
        elif kind == "bool":
            value = check.get(param, bool)
        elif kind in _CHOICES:
            value = check.get(param, str, choices=_CHOICES[kind])
        elif kind == "effects":
            value = _effects(path, where, param, value, city)
        elif kind == "options":
            if not isinstance(value, list) or len(value) < 2:
                check.fail(param, "must list at least two options")
            options = []
            for i, opt in enumerate(value):
                oc = _Checker(path, f"{where}, option {i}", opt)
                oc.only({"label", "effects"})
                label = oc.get("label", str)
                if not is_label(label):
                    oc.fail("label", f"must be one ASCII word that is not a city, got {label!r}")
                options.append(Option(label, _effects(path, f"{where}, option {i}", "effects",
                                                      oc.get("effects", list), city)))
            if len({o.label for o in options}) != len(options):
                check.fail(param, "option labels must differ")
            value = tuple(options)
        args[param] = value
    needs_city = op == "steal_unit" or (op == "entomb" and args.get("where") == "this_city") or (
        op == "move" and args.get("mode") == "maneuver"
    )
    if needs_city and not city:
        check.fail("op", f"'{op}' here needs \"this city\", which only REINFORCE and INVOCATION abilities have")
    return Effect(**args)


_UNIT_FIELDS = {
    "name", "type", "devotion", "cost", "strength", "offering", "keywords", "copies", "source",
    "text", "note", "labor", "reinforce", "invocation", "maneuver",
}


def _unit(path: str, index: int, raw: Any) -> Unit:
    check = _Checker(path, f"unit #{index + 1}", raw)
    name = check.name()
    check.where = f"unit '{name}'"
    check.only(_UNIT_FIELDS)
    keywords = check.get("keywords", list, [])
    for kw in keywords:
        if kw not in KEYWORDS:
            check.fail("keywords", f"unknown keyword {kw!r} (expected one of {', '.join(KEYWORDS)})")
    copies = check.get("copies", int)
    if copies < 1:
        check.fail("copies", "must be at least 1")
    effects = {
        f: _effects(path, check.where, f, raw[f], f != "labor") for f in ("labor", "reinforce", "invocation") if f in raw
    }
    return Unit(
        index=index,
        name=name,
        type=check.get("type", str, choices=UNIT_TYPES),
        devotion=check.get("devotion", str, choices=DEVOTIONS),
        cost=check.get("cost", int),
        strength=check.get("strength", int),
        offering=check.get("offering", int),
        keywords=frozenset(keywords),
        copies=copies,
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        maneuver=check.get("maneuver", int, 0),
        note=check.get("note", str, ""),
        **effects,
    )


def _reward(path: str, index: int, raw: Any) -> RewardTile:
    check = _Checker(path, f"reward #{index + 1}", raw)
    name = check.name()
    check.where = f"reward '{name}'"
    check.only({"name", "source", "text", "effects", "note"})
    return RewardTile(
        index=index,
        name=name,
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        effects=_effects(path, check.where, "effects", check.get("effects", list), False),
        note=check.get("note", str, ""),
    )


def _structure(path: str, index: int, raw: Any) -> dict[str, Any]:
    check = _Checker(path, f"structure #{index + 1}", raw)
    name = check.name()
    check.where = f"structure '{name}'"
    check.only({"name", "god", "build", "vp", "source", "text", "completed", "note"})
    build = check.get("build", int)
    if build < 1:
        check.fail("build", "must be at least 1")
    return dict(
        name=name,
        god=check.get("god", str, choices=GODS),
        build=build,
        vp=check.get("vp", int),
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        completed=_effects(path, check.where, "completed", check.get("completed", list), False),
        note=check.get("note", str, ""),
    )


def parse_cards(text: str, path: str = "<cards>") -> CardSet:
    """Validate a card file's text and build the :class:`CardSet` it describes.

    Raises :class:`CardDataError` naming ``path``, the card and the field of the first mistake.
    """
    try:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError as exc:
        raise CardDataError(f"{path}: not valid text: {exc}") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise CardDataError(f"{path}: not valid TOML: nested too deeply") from None
    top = _Checker(path, "top level", raw)
    top.only({"name", "ruleset", "unit", "reward", "structure"})
    set_name = top.get("name", str)
    ruleset = top.get("ruleset", str, choices=("heir",))
    units = tuple(_unit(path, i, u) for i, u in enumerate(top.get("unit", list)))
    rewards = tuple(_reward(path, i, r) for i, r in enumerate(top.get("reward", list)))
    raw_structures = [_structure(path, i, s) for i, s in enumerate(top.get("structure", list))]

    for kind, items in (("unit", units), ("reward", rewards), ("structure", raw_structures)):
        seen: set[str] = set()
        for item in items:
            name = item.name if not isinstance(item, dict) else item["name"]
            if name in seen:
                raise CardDataError(f"{path}: {kind} '{name}', field 'name': duplicate name")
            seen.add(name)
    if len(units) > MAX_UNIT_TYPES:
        raise CardDataError(f"{path}: unit: at most {MAX_UNIT_TYPES} unit designs, got {len(units)}")
    deck = sum(u.copies for u in units)
    if deck != DECK_SIZE:
        raise CardDataError(f"{path}: unit, field 'copies': the deck must be {DECK_SIZE} cards, got {deck}")
    if len(rewards) != REWARD_COUNT:
        raise CardDataError(f"{path}: reward: there must be {REWARD_COUNT} reward tiles, got {len(rewards)}")
    structures: list[Structure] = []
    for god in GODS:
        mine = sorted((s for s in raw_structures if s["god"] == god), key=lambda s: s["build"])
        if len(mine) != STRUCTURES_PER_GOD:
            raise CardDataError(
                f"{path}: structure, field 'god': {god} must have {STRUCTURES_PER_GOD} structures, got {len(mine)}"
            )
        for slot, s in enumerate(mine):
            structures.append(Structure(index=len(structures), slot=slot, **s))
    return CardSet(
        name=set_name,
        ruleset=ruleset,
        units=units,
        rewards=rewards,
        structures=tuple(structures),
        path=path,
        sha256=digest,
    )


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file; ``None`` loads the built-in seed edition.

    Raises :class:`CardDataError` if the file cannot be read or is malformed.
    """
    if path is None:
        return default_cards()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CardDataError(f"{path}: cannot read card file: {exc}") from None
    return parse_cards(text, str(path))


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    """The built-in "Heir to the Dunes — seed edition" set shipped inside the package."""
    text = resources.files("omen_search").joinpath("data/heir-seed.toml").read_text(encoding="utf-8")
    return parse_cards(text, "heir-seed.toml")
