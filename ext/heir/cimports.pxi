# The C names a core built on ext/heir/*.pxi uses beside its own core_state.pxd (which each core
# cimports itself, from its folder): the contract with the search, the generator and the undo trail.

cimport cython
from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from game_api cimport GAME_HANDLE_NAME, HIDDEN_MOVE, MAX_FEATURES, MAX_STATS, SEARCH_MAX_MOVES, GameApi, GameHandle
from omen_rng cimport rng_below, rng_next, rng_seed
from omen_trail cimport TRAIL_MAX_STATE, trail_log, trail_reserve, trail_undo
