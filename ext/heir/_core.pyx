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

cimport cython
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from core_state cimport *
from game_api cimport GAME_HANDLE_NAME, HIDDEN_MOVE, MAX_STATS, SEARCH_MAX_MOVES, GameApi, GameHandle
from omen_rng cimport rng_below, rng_next, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, trail_log, trail_reserve, trail_undo

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
include "rules.pxi"            # strength, wars, paying and playing units, picking keeps
include "legal_moves.pxi"      # every decision's legal moves, in the reference engine's order
include "effects.pxi"          # resolving effect frames
include "automaton.pxi"        # the Corrupted Heir's procedure (solo)
include "phases.pxi"           # the turn's automatic phases
include "decisions.pxi"        # playing a move
include "war_track.pxi"        # who takes each city's reward tiles, for the search
include "scoring.pxi"          # scores, winner, random playouts
include "setup.pxi"            # dealing a new game
include "determinize.pxi"      # re-dealing what a player cannot see
include "game_api.pxi"         # the game's side of the contract with the search
include "edge.pxi"             # the Python edge: CoreTables, CoreState

TABLES = CoreTables


def DEAL(cards, config):
    """The card set and configuration a new game is dealt with (``None``: the built-in ones)."""
    return cards or default_cards(), config or Config()


assert len(PHASES) == PH_GAME_OVER + 1 and len(DECISION_NAMES) == DK_OFFERING + 1
# the loader refuses card sets beyond the core's tables: both must name the same limits
assert (MAX_T, NCARDS, MAX_STACK, MAX_CODE, MAX_PROGS, MAX_OPTIONS, MAX_MOVES) == (
    _limits.MAX_UNIT_TYPES, _limits.DECK_SIZE, _limits.MAX_STACK, _limits.MAX_CODE, _limits.MAX_LISTS,
    _limits.MAX_OPTIONS, _limits.MAX_MOVES)

