# cython: language_level=3
"""The Cython core: Heir to the Dunes in one flat C struct.

A line-by-line port of the reference engine (``omen_search/games/heir/reference.py``): same phases, same
effect frames, same decisions, same generation order of legal moves, same random generator, so that
a seed and a list of moves are the same game on both engines (checked by the differential tests).
The C part (the included ``.pxi`` files, by concern) runs without the GIL and without Python
objects; this file is the Python edge. The search (``ext/search/_search.pyx``) reaches the game only
through ``game_api.pxi``, its side of the contract in ``ext/common/game_api.pxd``.

Move bit layout (a packed ``int32``; converted to :class:`~omen_search.games.heir.notation.Move` only at the edge)::

    bits  0-4   verb      index into moves.VERBS
    bits  5-10  a         unit id | reward tile id | structure slot | option index (by verb)
    bits 11-12  city      0-2
    bits 13-14  to        0-2 (move)
    bits 15-19  draw      0-31 (wealth, offer)
    bits 20-24  coin      0-31 (wealth, offer)
    bits 25-26  target    structure slot (build)
"""

from core_state cimport *  # this core's sizes and layout (its folder's core_state.pxd)
include "cimports.pxi"

import numpy as np

from omen_search.games.heir import cards as _limits
from omen_search.games.heir.cards import GODS, CardSet, default_cards
from omen_search.errors import IllegalMoveError, UsageError
from omen_search.games.heir.observe import observe
from omen_search.games.heir import rules as _rules
from omen_search.games.heir.rules import DECISIONS, LEVELS, PHASES, Config, Pending, program
from omen_search.games.heir.notation import VERBS, Move
from omen_search.rng import Rng

include "codes.pxi"
include "primitives.pxi"       # packed moves, the trail, zones and unit sets
include "hooks.pxi"            # where another core adds to Heir's rules (here: nothing)
include "core.pxi"             # the rules, the contract with the search, the Python edge

TABLES = CoreTables


def DEAL(cards, config):
    """The card set and configuration a new game is dealt with (``None``: the built-in ones)."""
    return cards or default_cards(), config or Config()


assert len(PHASES) == PH_GAME_OVER + 1 and len(DECISION_NAMES) == DK_OFFERING + 1
# the loader refuses card sets beyond the core's tables: both must name the same limits
assert (MAX_T, NCARDS, MAX_STACK, MAX_CODE, MAX_PROGS, MAX_OPTIONS, MAX_MOVES) == (
    _limits.MAX_UNIT_TYPES, _limits.DECK_SIZE, _limits.MAX_STACK, _limits.MAX_CODE, _limits.MAX_LISTS,
    _limits.MAX_OPTIONS, _limits.MAX_MOVES)

