"""What every game's card-file loader shares: reading the file and checking its tables, so that every
mistake is refused in the same words, naming the file, the card and the field (``docs/cards.md``).

A game's loader (``games/<name>/cards.py``) says what its tables hold: its fields, its limits, and its
effect vocabulary as a table of parameter kinds (:data:`Spec`). Reading, parsing, the checks of one
value and of one effect are written once, here.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from omen_search.errors import CardDataError

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
