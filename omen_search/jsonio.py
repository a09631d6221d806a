"""Reading JSON from outside: one reader for every file, engine line and text a caller passes in.

Python's JSON reader recurses once per nesting level and turns integer literals into ``int``
without a length limit of its own, so a document nested a few thousand levels deep or holding a
10,000-digit number fails inside it (``RecursionError``, ``ValueError``). This reader bounds the
size and the nesting first and reports every failure as a :class:`FormatError` naming where the
text came from ("not valid JSON: nested more than 64 levels deep"). No document of ours is
nested more than a dozen levels.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from omen_search.errors import FormatError

MAX_JSON_BYTES = 16 * 1024 * 1024
MAX_JSON_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')  # a string literal, brackets inside it included
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """How deeply the arrays and objects of ``text`` nest (for valid JSON; a guess otherwise)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii")
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    steps = np.where((codes == ord("[")) | (codes == ord("{")), 1, -1)
    return int(np.cumsum(steps).max())


def parse_json(text: str | bytes, where: str = "") -> Any:
    """The value of a JSON text; raises :class:`FormatError` ``"<where>: <problem>"`` (just the
    problem without ``where``) for text that is not JSON, too large or nested too deeply."""
    prefix = f"{where}: " if where else ""
    if len(text) > MAX_JSON_BYTES:
        raise FormatError(f"{prefix}too large: {len(text)} bytes, at most {MAX_JSON_BYTES}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError(f"{prefix}not valid JSON: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if _depth(text) > MAX_JSON_DEPTH:
        raise FormatError(f"{prefix}not valid JSON: nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{prefix}not valid JSON: {exc}") from None
    except ValueError:  # an integer literal past Python's limit on digits
        raise FormatError(f"{prefix}not valid JSON: a number has more than 4300 digits") from None
    except RecursionError:  # invalid text whose nesting the count above could not see
        raise FormatError(f"{prefix}not valid JSON: nested too deeply") from None


def read_json_file(path: str | Path, what: str) -> Any:
    """The JSON value in a file; raises :class:`FormatError` naming the file (and saying it held
    ``what``) if it cannot be read or is not acceptable JSON."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_JSON_BYTES + 1)
    except OSError as exc:
        raise FormatError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a path with a NUL byte, which no file has
        raise FormatError(f"{path!r}: cannot read {what}: {exc}") from None
    return parse_json(data, f"{path}: {what}")
