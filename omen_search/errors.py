"""One hierarchy for everything that can go wrong at a public entry point.

Every message names the bad input and where it was, so that a user can fix it without reading
code: ``observation.hand[2]: unknown card 'Opal Statue'``. The CLI turns any :class:`OmenError`
into one line on stderr and exit status 2.
"""

from __future__ import annotations

import math
import reprlib
from typing import Any

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 40
_SHORT.maxlevel = 3


def shown(value: Any) -> str:
    """A user's value as short text for an error message (``repr``, cut at about 40 characters),
    safe for whatever a JSON document can hold: an integer of 10,000 digits (whose ``repr`` fails)
    or lists nested thousands deep."""
    try:
        return _SHORT.repr(value)
    except ValueError:  # an integer too long to convert to text, maybe inside a list
        if isinstance(value, int):
            return f"an integer of about {math.floor(value.bit_length() * math.log10(2)) + 1} digits"
        return f"a {type(value).__name__} holding an integer too long to show"


class OmenError(Exception):
    """Base class of every error this package raises on purpose."""


class CardDataError(OmenError):
    """A card file is malformed: names the file, the card and the field."""


class IllegalMoveError(OmenError):
    """A move that is not legal in the position: names the move, the player and the ply."""


class NotationError(OmenError):
    """A move's text does not parse."""


class FormatError(OmenError):
    """A position, observation or record file is malformed: names the JSON path of the field."""


class RecordError(OmenError):
    """A game record does not replay: names the ply and the reason."""


class UsageError(OmenError):
    """A command-line or API option has a bad value: names the option."""


class CoreLimitError(UsageError):
    """A card set or a choice of cards is beyond a limit of a Cython core's fixed-size tables: names
    the limit (the reference engine would play it; the core refuses it rather than play it differently)."""
