"""One hierarchy for everything that can go wrong at a public entry point.

Every message names the bad input and where it was, so that a user can fix it without reading
code: ``observation.hand[2]: unknown card 'Opal Statue'``. The CLI turns any :class:`OmenError`
into one line on stderr and exit status 2.
"""

from __future__ import annotations


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
