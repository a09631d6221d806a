# The moves a core state has played and its undo trail (one mark of trail records per move), owned
# by the state: a core's state class derives from UndoHistory (OMEGA's and OMNIA's through
# CoreStateBase, core_state_base.pxi; Heir's and Reign of War's keep an older copy of the class). Include it after cimporting free and realloc
# (libc.stdlib) and Trail, trail_reserve and trail_undo (omen_trail).


cdef class UndoHistory:
    """The moves played since the state was made (or cloned) and the trail that takes them back."""

    cdef Trail tr
    cdef int* marks
    cdef int hist_n, hist_cap
    cdef list _moves

    def __cinit__(self):
        self.tr.off = NULL
        self.tr.width = NULL
        self.tr.old = NULL
        self.tr.n = 0
        self.tr.cap = 0
        self.tr.enabled = 1
        self.marks = NULL
        self.hist_n = 0
        self.hist_cap = 0
        self._moves = []

    def __dealloc__(self):
        free(self.tr.off)
        free(self.tr.width)
        free(self.tr.old)
        free(self.marks)

    @property
    def moves(self) -> list:
        """The moves played since this state was made (or cloned), oldest first."""
        return list(self._moves)

    cdef int _begin_move(self, move, int margin) except -1:
        """Before a move of at most ``margin`` trail records: room for it (never inside the C
        loops), its mark, and the move in the list."""
        cdef int cap
        trail_reserve(&self.tr, margin)
        if self.hist_n >= self.hist_cap:
            cap = max(64, 2 * self.hist_cap)
            grown = <int*>realloc(self.marks, cap * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.marks = grown
            self.hist_cap = cap
        self.marks[self.hist_n] = self.tr.n
        self.hist_n += 1
        self._moves.append(move)
        return 0

    cdef object _take_back(self, void* state):
        """Undo the last move on ``state`` (the flat struct the trail was written against) and
        return it; ``IndexError`` when there is none."""
        if self.hist_n == 0:
            raise IndexError("undo: no move to take back")
        self.hist_n -= 1
        trail_undo(state, &self.tr, self.marks[self.hist_n])
        return self._moves.pop()

    cdef void _forget(self):
        """No move to take back any more (a playout has rewritten the state)."""
        self.hist_n = 0
        self.tr.n = 0
        self._moves = []
