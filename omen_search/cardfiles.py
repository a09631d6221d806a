"""What every game's card-file loader shares: reading the file and checking its tables, so that every
mistake is refused in the same words, naming the file, the card and the field (``docs/cards.md``).

A game's loader (``games/<name>/cards.py``) says what its tables hold: its fields, its limits, and its
effect vocabulary as a table of parameter kinds (:data:`Spec`). Reading, parsing, the checks of one
value and of one effect are written once, here, and so is taking a unit design out of a loaded set
for an ablation (:class:`AblatableSet`).
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, NoReturn, TypeVar

from omen_search.errors import CardDataError, UsageError

MAX_FILE_CHARS = 16 * 1024 * 1024  # the text of a card file (the built-in ones have about 9,000 and 17,000 characters)

# The parameters of one effect op (or feat condition kind): name -> (required, kind). Kinds:
# "count" (int >= 1), "amount" (int >= 0), "bool", a key of the loader's choices (one of its
# values), or a kind the loader reads itself (Heir's nested "effects" and "options").
Spec = dict[str, tuple[bool, str]]

T = TypeVar("T")


class Checker:
    """Reads one table of the file, remembering where it is (``unit 'Satyr'``) for error messages."""

    def __init__(self, path: str, where: str, table: Any):
        self.path = path
        self.where = where
        if not isinstance(table, dict):
            self.fail("", f"must be a table, got {type(table).__name__}")
        self.table: dict[str, Any] = table

    def fail(self, field: str, message: str) -> NoReturn:
        """Raise :class:`CardDataError` naming the file, this table and ``field``."""
        at = f"{self.where}, field '{field}'" if field else self.where
        raise CardDataError(f"{self.path}: {at}: {message}")

    def only(self, allowed: set[str]) -> None:
        """Refuse any field not in ``allowed``."""
        for key in self.table:
            if key not in allowed:
                self.fail(key, f"unknown field (expected one of {', '.join(sorted(allowed))})")

    def get(self, field: str, kind: type, default: Any = ..., choices: tuple = (), most: int | None = None) -> Any:
        """The field's value, checked: of type ``kind`` (an ``int`` never negative), at most
        ``most``, one of ``choices``; ``default`` if absent, or refused as missing without one."""
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
        if most is not None and value > most:
            self.fail(field, f"must be at most {most} (a limit of the engines), got {value}")
        if choices and value not in choices:
            self.fail(field, f"unknown value {value!r} (expected one of {', '.join(map(str, choices))})")
        return value

    def count(self, field: str, most: int) -> int:
        """A required integer from 1 to ``most``."""
        value = self.get(field, int, most=most)
        if value < 1:
            self.fail(field, f"must be at least 1, got {value}")
        return value

    def name(self) -> str:
        """The card's ``name``: non-empty, without quotes or outer spaces (moves and records quote it)."""
        name = self.get("name", str)
        if not name.strip() or '"' in name or name != name.strip():
            self.fail("name", f"must be non-empty, without quotes or outer spaces, got {name!r}")
        return name


def read_card_file(path: str | Path, most: int) -> str:
    """The text of the card file at ``path``, refused beyond ``most`` characters (``/dev/zero`` is
    not a card file); raises :class:`CardDataError` if it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(most + 1)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CardDataError(f"{path}: cannot read card file: {exc}") from None
    if len(text) > most:
        raise CardDataError(f"{path}: cannot read card file: larger than {most} characters")
    return text


def builtin_card_text(filename: str) -> str:
    """The text of a card file shipped with the package (``omen_search/data/<filename>``)."""
    return resources.files("omen_search").joinpath(f"data/{filename}").read_text(encoding="utf-8")


def parse_toml(text: str, path: str) -> tuple[dict[str, Any], str]:
    """A card file's text as TOML data, with the SHA-256 of the text (what a record stores to replay
    with the same cards); raises :class:`CardDataError` naming ``path``."""
    try:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError as exc:
        raise CardDataError(f"{path}: not valid text: {exc}") from None
    try:
        return tomllib.loads(text), digest
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise CardDataError(f"{path}: not valid TOML: nested too deeply") from None


def check_unique_names(path: str, kind: str, names: Iterable[str]) -> None:
    """Refuse a second card of ``kind`` (``unit``, ``reward`` …) with a name already taken."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise CardDataError(f"{path}: {kind} '{name}', field 'name': duplicate name")
        seen.add(name)


def effect_list(path: str, where: str, field: str, raw: Any, most: int,
                read: Callable[[str, Any], T]) -> tuple[T, ...]:
    """A list of at most ``most`` effects, each read by ``read(where, item)`` with its place
    (``unit 'Satyr', field 'ability[0]'``)."""
    if not isinstance(raw, list):
        raise CardDataError(f"{path}: {where}, field '{field}': must be a list of effects")
    if len(raw) > most:
        raise CardDataError(f"{path}: {where}, field '{field}': {len(raw)} effects, the limit is {most}")
    return tuple(read(f"{where}, field '{field}[{i}]'", item) for i, item in enumerate(raw))


def tagged_args(path: str, where: str, raw: Any, *, key: str, what: str, specs: Mapping[str, Spec],
                choices: Mapping[str, tuple[str, ...]], most: int,
                other: Callable[[Checker, str, Any], Any] | None = None) -> tuple[Checker, dict[str, Any]]:
    """The checked arguments of a table whose ``key`` picks its parameters from ``specs``: an
    effect (``key="op"``, ``what="an effect"``) or a feat's condition (``key="kind"``). Counts and
    amounts are at most ``most``; a kind that is neither a number, a bool nor a key of ``choices``
    is read by ``other(checker, param, value)``. Returns the table's checker (for the loader's own
    checks) and the arguments, ``key`` included."""
    if not isinstance(raw, dict):
        raise CardDataError(f"{path}: {where}: {what} must be a table with a field '{key}'")
    tag = raw.get(key)
    if tag is None:
        raise CardDataError(f"{path}: {where}, field '{key}': missing")
    if not isinstance(tag, str) or tag not in specs:
        raise CardDataError(f"{path}: {where}: unknown {key} {tag!r} (expected one of {', '.join(sorted(specs))})")
    spec = specs[tag]
    check = Checker(path, where, raw)
    check.only({key, *spec})
    args: dict[str, Any] = {key: tag}
    for param, (required, kind) in spec.items():
        if param not in raw:
            if required:
                check.fail(param, f"missing ({key} '{tag}' needs it)")
            continue
        if kind == "count":
            args[param] = check.count(param, most)
        elif kind == "amount":
            args[param] = check.get(param, int, most=most)
        elif kind == "bool":
            args[param] = check.get(param, bool)
        elif kind in choices:
            args[param] = check.get(param, str, choices=choices[kind])
        else:
            assert other is not None, f"no reader for the parameter kind {kind!r}"
            args[param] = other(check, param, raw[param])
    return check, args


# ------------------------------------------------------------------------------------- ablation


class AblatableSet:
    """What a game's ``CardSet`` (a frozen dataclass with ``name``, ``units``, ``sha256`` and
    ``ablated``) inherits to leave unit designs out, for measuring what one design does to the game
    (``omen-search balance --ablate``).

    An ablated set keeps the design in ``units`` with no copies (its index, so its moves and card
    ids, are unchanged) and remembers its copies in ``ablated``. A deal shuffles the full set's cards
    and only then takes the ablated copies out (:meth:`shuffled_without`), so that the other cards
    lie in the same order as in the full set's game of the same seed: an ablation compares like
    deals with like.

    A game says what else its sets name (:meth:`other_cards`: reward tiles, feats…, which are not
    in a deck and cannot be left out) and the smallest deck its rules deal from (``MIN_DECK``)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]
    MIN_DECK: ClassVar[int] = 1  # unit cards a set may keep, the fewest
    MIN_DECK_RULE: ClassVar[str] = ""  # the rule that asks for them, for the message
    name: str
    units: tuple[Any, ...]
    sha256: str
    ablated: tuple[tuple[int, int], ...]  # (unit index, copies) taken out by :meth:`without`

    def other_cards(self) -> Iterable[tuple[str, str]]:
        """``(kind, name)`` of every card of the set that is not a unit design."""
        return ()

    def without(self, name: str) -> Any:
        """The same set with every copy of the unit design ``name`` taken out of the deck (a smaller
        deck), named ``"<set> without <name>"``, with a sha256 of its own. Raises
        :class:`UsageError` naming ``name`` for an unknown card, a card that is not a unit design,
        a design already left out, or a deck that would be smaller than the game deals from."""
        unit = next((u for u in self.units if u.name == name), None)
        if unit is None:
            kind = next((k for k, other in self.other_cards() if other == name), None)
            if kind is not None:
                raise UsageError(f"ablate: {name!r} is {kind} of {self.name!r}; only unit designs can be "
                                 "ablated (taken out of the deck)")
            raise UsageError(f"ablate: no unit called {name!r} in {self.name!r}")
        if not unit.copies:
            raise UsageError(f"ablate: {name!r} is already left out of {self.name!r}")
        left = sum(u.copies for u in self.units) - unit.copies
        if left < self.MIN_DECK:
            raise UsageError(f"ablate: without {name!r} the deck of {self.name!r} would have {left} unit cards, "
                             f"the game deals from {self.MIN_DECK} at least{self.MIN_DECK_RULE}")
        units = tuple(replace(u, copies=0) if u is unit else u for u in self.units)
        digest = hashlib.sha256(f"{self.sha256}\0without\0{name}".encode()).hexdigest()
        return replace(self, name=f"{self.name} without {name}", units=units, sha256=digest,
                       ablated=self.ablated + ((unit.index, unit.copies),))

    def is_ablated(self, index: int) -> bool:
        """Whether the unit design ``index`` is left out (:meth:`without`)."""
        return any(t == index for t, _ in self.ablated)

    def dealt_copies(self, index: int) -> int:
        """The copies of unit design ``index`` that the full set's deal shuffles: its copies, or for
        a design left out the copies it had."""
        return self.units[index].copies + sum(n for t, n in self.ablated if t == index)

    def shuffled_without(self, cards: list[int], shuffle: Callable[[list[int]], None]) -> list[int]:
        """``cards`` (unit indices, the full set's, ablated copies among them) shuffled in place by
        ``shuffle``, then without the ablated copies: the other cards in the full deal's order."""
        shuffle(cards)
        return [t for t in cards if not self.is_ablated(t)] if self.ablated else cards
