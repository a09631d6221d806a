# cython: language_level=3
# The sizes of Heir's core (ext/heir/_core.pyx); its layout, field by field, is core_structs.pxi.
#
# The Cython core's data layout. Everything a game is lives in one flat `State` (fixed-size
# arrays only, no pointers), so `clone()` is one memcpy. The card set is compiled once into
# `Tables` (constant while a game runs) and shared by pointer. Undo is a trail of small records
# (`Trail`): every write to a State goes through a logging setter that remembers the old value.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from omen_trail cimport Trail  # the undo trail (ext/common/omen_trail.pxd); the core's marks[k] is its length before ply k's move

cdef enum:
    MAX_T = 48          # distinct unit designs (cards.MAX_UNIT_TYPES: the loader refuses more)
    NCARDS = 40         # cards in the deck (cards.DECK_SIZE)
    NTILES = 9          # reward tiles
    NCITIES = 3
    MAX_STACK = 32      # effect frames (cards.MAX_STACK: the loader refuses sets that could need more)
    MAX_CODE = 1024     # compiled effect instructions
    MAX_PROGS = 512     # compiled effect lists
    MAX_OPTIONS = 4     # branches of one "choose"
    MAX_MOVES = 1024    # legal moves of one decision
    NFILTERS = 5        # effect filters (_FILTERS in codes.pxi)

include "core_records.pxi"

# What a core built on these .pxi files adds to the tables and the state (the combined game,
# ext/combined/core_state.pxd, adds its Reign of War units here); Heir needs nothing more.
cdef struct TablesMore:
    uint8_t nothing[0]
cdef struct StateMore:
    uint8_t nothing[0]

include "core_structs.pxi"

