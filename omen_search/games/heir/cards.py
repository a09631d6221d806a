"""Card sets as data: units, reward tiles and structures, with abilities in a small effect vocabulary.

A card's behaviour is a list of :class:`Effect` steps (``draw``, ``entomb``, ``choose`` …) read from a
TOML file, so a new card is data, not code. :func:`load_cards` validates a file and raises
:class:`~omen_search.errors.CardDataError` naming the file, the card and the field of any mistake.
The vocabulary is documented in ``docs/cards.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import Any, Literal

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
from omen_search.games.heir.notation import is_label

GODS: tuple[str, str] = ("anubis", "horus")
UNIT_TYPES = ("embalmed", "follower", "initiate", "vizier")
DEVOTIONS = ("anubis", "horus", "both", "neutral")
KEYWORDS = ("TREASURED", "ENDURING", "COLOSSAL")
FILTERS = ("any", "neutral", "anubis", "horus", "treasured")
SOURCES = ("printed", "designed")
DECK_SIZE = 40
REWARD_COUNT = 9
STRUCTURES_PER_GOD = 3

# Limits of the engines' fixed-size tables (the Cython core's, ``ext/heir/core_state.pxd``, which checks
# that it agrees). A card file beyond them is refused when it is loaded, so that every set the loader
# accepts plays the same on both engines; ``docs/cards.md`` lists them.
MAX_UNIT_TYPES = 48  # distinct unit designs
MAX_STAT = 31  # a unit's cost, strength and offering (5-bit fields of a packed move)
MAX_COUNT = 63  # an effect's n, draw_each and take; a unit's maneuver
MAX_BUILD_VP = 255  # a structure's build and vp
MAX_OPTIONS = 4  # branches of one choose
MAX_EFFECTS = 64  # effects in one list (an ability, a branch, a "then")
MAX_LISTS = 512  # effect lists in the whole set, as the engines compile it
MAX_CODE = 1024  # effects in the whole set, as the engines compile it
MAX_STACK = 32  # effect lists resolving at once (each nested list, and each unit a play puts in, adds one)
MAX_MOVES = 1024  # legal moves of one decision (the longest is an Offering)

Filter = Literal["any", "neutral", "anubis", "horus", "treasured"]

# For each op: its parameters, whether each is required, and its kind.
# kinds: "count" (int >= 1), "amount" (int >= 0), "bool", "god", "filter", "side", "where", "mode",
# "effects" (a nested list of effects), "options" (a list of {label, effects}).
OPS: dict[str, Spec] = {
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

    def resolves_for(self, god: str) -> bool:
        """H-dev-1: whether the unit's abilities resolve for the seat of ``god`` (never when the
        unit is devoted only to the other god)."""
        return self.devotion in ("neutral", "both", god)

    def own_lists(self) -> tuple[tuple[tuple, tuple[Any, ...]], ...]:
        """Effect lists the unit brings beyond Heir's abilities, by ``ref`` (none: a unit of another
        game shuffled into Heir's deck has its own, :mod:`omen_search.games.combined.cards`)."""
        return ()

    def matches(self, filter: str) -> bool:
        """Whether the unit passes an effect's ``filter`` (``anubis`` includes units devoted to both)."""
        if filter == "any":
            return True
        if filter == "neutral":
            return self.neutral
        if filter == "treasured":
            return self.treasured
        return filter in GODS and self.devoted_to(filter)  # no Reign of War type (D-combined-3)


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
class CardSet(AblatableSet):
    """A validated card set. Cards are referred to by ``index`` everywhere inside the engines; a
    unit design can be left out for an ablation (:meth:`~omen_search.cardfiles.AblatableSet.without`)."""

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

    def other_cards(self) -> Iterable[tuple[str, str]]:
        """The reward tiles and structures (which :meth:`without` cannot leave out)."""
        return [("a reward tile", t.name) for t in self.rewards] + [("a structure", s.name) for s in self.structures]

    def deck_list(self) -> list[int]:
        """The deck before shuffling: each unit's index repeated ``copies`` times, in file order."""
        return [u.index for u in self.units for _ in range(u.copies)]

    def shuffled_deck(self, shuffle: Callable[[list[int]], None]) -> list[int]:
        """The deck a game starts with: the full set's deck shuffled, then without the copies of a
        design left out (:meth:`~omen_search.cardfiles.AblatableSet.shuffled_without`)."""
        return self.shuffled_without([u.index for u in self.units for _ in range(self.dealt_copies(u.index))],
                                     shuffle)


# ------------------------------------------------------------------------------------- loading


def _effects(path: str, where: str, field: str, raw: Any, city: bool) -> tuple[Effect, ...]:
    """A list of effects; ``city`` says whether they resolve in a city ("this city" exists only in
    REINFORCE, INVOCATION and MANEUVER, not in LABOR, reward tiles or structures)."""
    return effect_list(path, where, field, raw, MAX_EFFECTS, lambda at, e: _effect(path, at, e, city))


def _effect(path: str, where: str, raw: Any, city: bool) -> Effect:
    def nested(check: Checker, param: str, value: Any) -> Any:
        """A ``then`` (a list of effects) or a ``choose``'s ``options``."""
        if param == "then":
            return _effects(path, where, param, value, city)
        if not isinstance(value, list) or not 2 <= len(value) <= MAX_OPTIONS:
            check.fail(param, f"must list from 2 to {MAX_OPTIONS} options")
        options = []
        for i, opt in enumerate(value):
            oc = Checker(path, f"{where}, option {i}", opt)
            oc.only({"label", "effects"})
            label = oc.get("label", str)
            if not is_label(label):
                oc.fail("label", f"must be one ASCII word that is not a city, got {label!r}")
            options.append(Option(label, _effects(path, f"{where}, option {i}", "effects",
                                                  oc.get("effects", list), city)))
        if len({o.label for o in options}) != len(options):
            check.fail(param, "option labels must differ")
        return tuple(options)

    check, args = tagged_args(path, where, raw, key="op", what="an effect", specs=OPS, choices=_CHOICES,
                              most=MAX_COUNT, other=nested)
    op = args["op"]
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
    check = Checker(path, f"unit #{index + 1}", raw)
    name = check.name()
    check.where = f"unit '{name}'"
    check.only(_UNIT_FIELDS)
    keywords = check.get("keywords", list, [])
    for kw in keywords:
        if kw not in KEYWORDS:
            check.fail("keywords", f"unknown keyword {kw!r} (expected one of {', '.join(KEYWORDS)})")
    copies = check.get("copies", int, most=DECK_SIZE)
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
        cost=check.get("cost", int, most=MAX_STAT),
        strength=check.get("strength", int, most=MAX_STAT),
        offering=check.get("offering", int, most=MAX_STAT),
        keywords=frozenset(keywords),
        copies=copies,
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        maneuver=check.get("maneuver", int, 0, most=MAX_COUNT),
        note=check.get("note", str, ""),
        **effects,
    )


def _reward(path: str, index: int, raw: Any) -> RewardTile:
    check = Checker(path, f"reward #{index + 1}", raw)
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
    check = Checker(path, f"structure #{index + 1}", raw)
    name = check.name()
    check.where = f"structure '{name}'"
    check.only({"name", "god", "build", "vp", "source", "text", "completed", "note"})
    build = check.get("build", int, most=MAX_BUILD_VP)
    if build < 1:
        check.fail("build", "must be at least 1")
    return dict(
        name=name,
        god=check.get("god", str, choices=GODS),
        build=build,
        vp=check.get("vp", int, most=MAX_BUILD_VP),
        source=check.get("source", str, choices=SOURCES),
        text=check.get("text", str),
        completed=_effects(path, check.where, "completed", check.get("completed", list), False),
        note=check.get("note", str, ""),
    )


def nested_lists(effect: Effect) -> list[tuple[str | int, tuple[Effect, ...]]]:
    """The effect lists nested in one effect, each with the key that names it in a ``ref``:
    ``"then"`` for a ``steal_unit``'s or an ``if_favored``'s (an empty one too), ``k`` for option
    ``k`` of a ``choose``."""
    then: list[tuple[str | int, tuple[Effect, ...]]] = (
        [("then", effect.then)] if effect.op in ("steal_unit", "if_favored") else [])
    return then + [(k, option.effects) for k, option in enumerate(effect.options)]


def effect_lists(units: tuple[Unit, ...], rewards: tuple[RewardTile, ...],
                 structures: tuple[Structure, ...] | list[Structure]) -> dict[tuple, tuple[Effect, ...]]:
    """Every effect list the engines run for a set, by the ``ref`` an effect frame or a decision
    names it with: each unit's abilities (``("unit", 3, "reinforce")``), its MANEUVER
    (``("maneuver", 3)``) and the discard that follows its BUILD (``("built", 3)``), each reward
    tile's and structure's effects, the choice of which REINFORCE to resolve (``("reinforce",)``),
    and every list nested in these (``ref + (i, key)`` for :func:`nested_lists` of effect ``i``)."""
    lists: dict[tuple, tuple[Effect, ...]] = {}

    def add(ref: tuple, effects: tuple[Effect, ...]) -> None:
        lists[ref] = effects
        for i, e in enumerate(effects):
            for key, nested in nested_lists(e):
                add(ref + (i, key), nested)

    for u in units:
        for ability in ("labor", "reinforce", "invocation"):
            if getattr(u, ability):
                add(("unit", u.index, ability), getattr(u, ability))
        if u.maneuver:  # H-surge-7
            add(("maneuver", u.index), (Effect("move", n=u.maneuver, mode="maneuver"),))
        add(("built", u.index), (Effect("discard_built", n=u.index),))  # H-offer-1 (c): after its LABOR
        lists.update(u.own_lists())
    for tile in rewards:
        add(("reward", tile.index), tile.effects)
    for structure in structures:
        add(("structure", structure.index), structure.completed)
    add(("reinforce",), (Effect("reinforce_choice"),))  # H-surge-5
    return lists


def compiled_size(units: tuple[Unit, ...], rewards: tuple[RewardTile, ...],
                  structures: tuple[Structure, ...] | list[Structure]) -> tuple[int, int]:
    """The effect lists and effects the engines compile for a set (:func:`effect_lists`)."""
    lists = effect_lists(units, rewards, structures)
    return len(lists), sum(map(len, lists.values()))


class _StackDepth:
    """How many effect lists can be resolving at once, the most: the engines keep one frame per list
    on a stack of ``MAX_STACK``. A nested list (``then``, an option) resolves on top of its parent;
    a play (``play_free``, or a completed structure's card: ``unearth``) puts frames for the played
    unit's MANEUVER, INVOCATION and REINFORCE choice on top, and the chosen REINFORCE above those."""

    def __init__(self, path: str, units: tuple[Unit, ...]):
        self.path, self.units = path, units
        self.playing: tuple[str, str] | None = None  # the ability being measured inside a play
        self.play_depth: int | None = None

    def of(self, effects: tuple[Effect, ...]) -> int:
        """Frames while ``effects`` resolve, its own included."""
        extra = 0
        for e in effects:
            extra = max([extra] + [self.of(nested) for _, nested in nested_lists(e)])
            if e.op in ("play_free", "unearth"):
                extra = max(extra, self.play())
        return 1 + extra

    def play(self) -> int:
        """Frames a play of any unit can put on the stack (with what its abilities do)."""
        if self.play_depth is not None:
            return self.play_depth
        if self.playing is not None:
            name, field = self.playing
            raise CardDataError(
                f"{self.path}: unit '{name}', field '{field}': a unit it plays can resolve it again, so plays can "
                f"nest without end; the engines resolve at most {MAX_STACK} effect lists at once")
        reinforce = 0
        for u in self.units:
            if u.reinforce:
                self.playing = (u.name, "reinforce")
                reinforce = max(reinforce, self.of(u.reinforce))
        depth = 0
        for u in self.units:
            maneuver, invocation, choice = int(u.maneuver > 0), int(bool(u.invocation)), int(u.devotion != "neutral")
            self.playing = (u.name, "invocation")
            after = maneuver + (self.of(u.invocation) if u.invocation else 0)
            depth = max(depth, maneuver + invocation + choice + (reinforce if choice else 0), after)
        self.playing, self.play_depth = None, depth
        return depth


def play_depth(units: tuple[Unit, ...]) -> int:
    """The most effect lists a play of one of ``units`` can put on the stack, with what its abilities
    do (a set the loader accepted: its plays nest no deeper than :data:`MAX_STACK`)."""
    return _StackDepth("<cards>", units).play()


def _check_set_limits(path: str, units: tuple[Unit, ...], rewards: tuple[RewardTile, ...],
                      structures: list[Structure]) -> None:
    """The whole set against the engines' limits: compiled lists and effects, the effect stack, and
    the longest list of legal moves (an Offering: pass, then per unit in hand its offers and up to 3
    builds, written with up to the largest offering of spare entries)."""
    abilities: list[tuple[str, str, tuple[Effect, ...]]] = []
    for u in units:
        abilities += [(f"unit '{u.name}'", f, getattr(u, f)) for f in ("reinforce", "invocation", "labor") if getattr(u, f)]
    abilities += [(f"reward '{r.name}'", "effects", r.effects) for r in rewards]
    abilities += [(f"structure '{s.name}'", "completed", s.completed) for s in structures]
    lists, code = compiled_size(units, rewards, structures)
    if lists > MAX_LISTS or code > MAX_CODE:
        raise CardDataError(f"{path}: the abilities compile to {lists} effect lists and {code} effects; the engines "
                            f"hold at most {MAX_LISTS} lists and {MAX_CODE} effects")
    depth = _StackDepth(path, units)
    plays = depth.play()  # a unit played from hand in the Surge
    for where, field, effects in abilities:
        need = depth.of(effects) + (1 if field == "labor" else 0)  # BUILD's discard waits beneath LABOR
        if max(need, plays) > MAX_STACK:
            raise CardDataError(f"{path}: {where}, field '{field}': needs {max(need, plays)} effect lists resolving "
                                f"at once, the limit is {MAX_STACK}")
    if plays > MAX_STACK:
        raise CardDataError(f"{path}: unit: a play can need {plays} effect lists resolving at once, the limit is {MAX_STACK}")
    moves = 1 + sum(u.offering + 4 for u in units) + max((u.offering for u in units), default=0)
    if moves > MAX_MOVES:
        raise CardDataError(f"{path}: unit, field 'offering': an Offering could list {moves} moves, the limit is {MAX_MOVES}")


def parse_cards(text: str, path: str = "<cards>") -> CardSet:
    """Validate a card file's text and build the :class:`CardSet` it describes.

    Raises :class:`CardDataError` naming ``path``, the card and the field of the first mistake.
    """
    raw, digest = parse_toml(text, path)
    top = Checker(path, "top level", raw)
    top.only({"name", "ruleset", "unit", "reward", "structure"})
    return build_cards(path, digest, raw, name=top.get("name", str), ruleset=top.get("ruleset", str, choices=("heir",)))


def build_cards(path: str, digest: str, raw: dict[str, Any], *, name: str, ruleset: str = "heir") -> CardSet:
    """The :class:`CardSet` of a card file's ``unit``, ``reward`` and ``structure`` sections (``raw``,
    parsed TOML): what an Heir file holds, and the Heir part of a combined one. Raises
    :class:`CardDataError` as :func:`parse_cards` does."""
    top = Checker(path, "top level", raw)
    set_name = name
    units = tuple(_unit(path, i, u) for i, u in enumerate(top.get("unit", list)))
    rewards = tuple(_reward(path, i, r) for i, r in enumerate(top.get("reward", list)))
    raw_structures = [_structure(path, i, s) for i, s in enumerate(top.get("structure", list))]

    check_unique_names(path, "unit", (u.name for u in units))
    check_unique_names(path, "reward", (r.name for r in rewards))
    check_unique_names(path, "structure", (s["name"] for s in raw_structures))
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
    _check_set_limits(path, units, rewards, structures)
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
    return parse_cards(read_card_file(path, MAX_FILE_CHARS), str(path))


@lru_cache(maxsize=1)
def default_cards() -> CardSet:
    """The built-in "Heir to the Dunes — seed edition" set shipped inside the package."""
    return parse_cards(builtin_card_text("heir-seed.toml"), "heir-seed.toml")
