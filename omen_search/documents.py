"""Reading JSON documents (records, positions, observations) with the path of every bad field.

Every check raises :class:`~omen_search.errors.FormatError` as ``record.config.gods[1]: must be
...``, so a person can find the field at once. A game's formats extend :class:`JsonReader` with the
names of its cards.
"""

from __future__ import annotations

from typing import Any, NoReturn

from omen_search.errors import FormatError, shown
from omen_search.jsonio import parse_json


def document(data: Any, root: str) -> dict:
    """A document given as a dict or as JSON text, as a dict."""
    if isinstance(data, (str, bytes)):
        data = parse_json(data, root)
    if not isinstance(data, dict):
        raise FormatError(f"{root}: must be a JSON object, got {type(data).__name__}")
    return data


class JsonReader:
    """Typed access to a JSON document that reports the path of every bad field."""

    def __init__(self, root: str):
        self.root = root

    def fail(self, path: str, message: str) -> NoReturn:
        raise FormatError(f"{path}: {message}")

    def obj(self, data: Any, path: str) -> dict:
        if not isinstance(data, dict):
            self.fail(path, f"must be an object, got {type(data).__name__}")
        return data

    def get(self, obj: dict, key: str, path: str, default: Any = ...) -> Any:
        if key not in obj:
            if default is ...:
                self.fail(f"{path}.{key}", "missing")
            return default
        return obj[key]

    def integer(self, value: Any, path: str, lo: int = 0, hi: int = 10**9) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"must be an integer, got {shown(value)}")
        if not lo <= value <= hi:
            self.fail(path, f"must be from {lo} to {hi}, got {shown(value)}")
        return value

    def boolean(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"must be true or false, got {shown(value)}")
        return value

    def choice(self, value: Any, path: str, choices: tuple) -> Any:
        if value not in choices:
            self.fail(path, f"unknown value {shown(value)} (expected one of {', '.join(map(str, choices))})")
        return value

    def items(self, value: Any, path: str, most: int = 200) -> list:
        if not isinstance(value, list):
            self.fail(path, f"must be a list, got {type(value).__name__}")
        if len(value) > most:
            self.fail(path, f"at most {most} entries, got {len(value)}")
        return value
