# ---------------------------------------------------------------------------------------- hooks
# Where another core built on these .pxi files adds its rules (the combined game's, in
# ext/combined/hooks.pxi, adds the Reign of War units). Heir adds nothing: each hook is inline and
# does nothing, so the C compiler removes it and Heir's core runs exactly as before.

cdef const char* API_NAME = "heir"  # the GameApi table's name

cdef enum:
    AFTER_SURGE = PH_WAR  # the phase ending the Surge leads to

cdef inline int card_of(const Tables* tb, int t) noexcept nogil:
    """The card a unit in a city is when it leaves it."""
    return t

cdef inline void hook_entered(Ctx* c, int p, int t, int city) noexcept nogil:
    """A unit of ``p`` has been played into ``city`` (after its Heir abilities are on the stack)."""
    pass

cdef inline int hook_surge_moves(Ctx* c, int p, int32_t* out, int n) noexcept nogil:
    """More Surge moves after the plays; returns the new length."""
    return n

cdef inline int hook_reclaimable(Ctx* c, const Decision* d, int t) noexcept nogil:
    """Whether a reclaim can take unit ``t`` of the discard pile."""
    return 1

cdef inline int hook_moves(Ctx* c, const Decision* d, int32_t* out) noexcept nogil:
    """The legal moves of a decision kind Heir does not have."""
    return 0

cdef inline int hook_frame(Ctx* c, Frame* f) noexcept nogil:
    """Resolve the top frame if it is not an effect list's (1), else leave it to Heir (0)."""
    return 0

cdef inline void hook_op(Ctx* c, const Instr* e, int prog, int index, int owner, int city) noexcept nogil:
    """Resolve an effect op Heir does not have."""
    pass

cdef inline void hook_turn_start(Ctx* c) noexcept nogil:
    """The Wealth step begins a turn."""
    pass

cdef inline void hook_end_check(Ctx* c) noexcept nogil:
    """The turn's end check begins."""
    pass

cdef inline int hook_game_ends(const Tables* tb, const State* s) noexcept nogil:
    """Another way for the game to end at the end check."""
    return 0

cdef inline void hook_phase(Ctx* c, int ph) noexcept nogil:
    """A phase Heir does not have."""
    pass

cdef inline int hook_decide(Ctx* c, Decision* d, int32_t m) noexcept nogil:
    """Before Heir plays move ``m`` of decision ``d``: play it instead (1) or let Heir play it (0)."""
    return 0

cdef inline void hook_decided(Ctx* c, const Decision* d, int32_t m) noexcept nogil:
    """After Heir has played move ``m`` of decision ``d``, before the rules run on."""
    pass

cdef inline int hook_score(const Tables* tb, const State* s, int p) noexcept nogil:
    """Victory points beyond Heir's."""
    return 0

cdef inline int hook_tiebreak(const Tables* tb, const State* s, int p) noexcept nogil:
    """A tie-break between Heir's third (TREASURED units in hand) and favor."""
    return 0
