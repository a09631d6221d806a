# cython: language_level=3
# The undo trail every core keeps: each record is (byte offset in the state, width, old bytes).
# A core logs a region before writing it (trail_log); undoing to a mark copies the old bytes back
# in reverse order, so any flat state struct of at most 65,535 bytes can be undone byte for byte.

from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.stdlib cimport realloc
from libc.string cimport memcpy

cdef enum:
    TRAIL_MAX_STATE = 65535  # offsets are 16-bit: the largest state a trail can undo

ctypedef struct Trail:
    uint16_t* off
    uint8_t* width
    uint64_t* old
    int n
    int cap
    int enabled         # 0 off, 1 on, 2 overflowed (reported by the caller)


cdef inline void trail_log(Trail* tr, void* base, void* p, int nbytes) noexcept nogil:
    """Remember the ``nbytes`` at ``p`` (inside the state at ``base``) before they are written."""
    cdef int off, w
    if tr == NULL or not tr.enabled:
        return
    off = <int>(<char*>p - <char*>base)
    while nbytes > 0:
        w = 8 if nbytes > 8 else nbytes
        if tr.n >= tr.cap:
            tr.enabled = 2
            return
        tr.off[tr.n] = <uint16_t>off
        tr.width[tr.n] = <uint8_t>w
        tr.old[tr.n] = 0
        memcpy(&tr.old[tr.n], <char*>base + off, w)
        tr.n += 1
        off += w
        nbytes -= w

cdef inline void trail_undo(void* base, Trail* tr, int mark) noexcept nogil:
    """Restore the state at ``base`` to what it was when the trail held ``mark`` records."""
    cdef int i = tr.n - 1
    while i >= mark:
        memcpy(<char*>base + tr.off[i], &tr.old[i], tr.width[i])
        i -= 1
    tr.n = mark


cdef inline int trail_reserve(Trail* tr, int margin) except -1:
    """Room for ``margin`` more records (one apply's worst case), doubling the buffers; never called
    inside the C loops. Raises MemoryError."""
    cdef int cap
    if tr.cap - tr.n >= margin:
        return 0
    cap = max(2 * tr.cap, tr.n + 2 * margin)
    off = <uint16_t*>realloc(tr.off, cap * sizeof(uint16_t))
    if off == NULL:
        raise MemoryError()
    tr.off = off
    width = <uint8_t*>realloc(tr.width, cap * sizeof(uint8_t))
    if width == NULL:
        raise MemoryError()
    tr.width = width
    old = <uint64_t*>realloc(tr.old, cap * sizeof(uint64_t))
    if old == NULL:
        raise MemoryError()
    tr.old = old
    tr.cap = cap
    return 0
