# ---------------------------------------------------------------------------------------- hooks
# Where another core built on these .pxi files adds its rules (the combined game's, in
# ext/combined/hooks.pxi, adds the Reign of War units). Heir adds nothing: each hook is a C macro
# that does nothing or gives back its neutral value, so Heir's functions compile as if the hooks
# were not there and its core runs exactly as before.

cdef const char* API_NAME = "heir"  # the GameApi table's name

cdef enum:
    AFTER_SURGE = PH_WAR  # the phase ending the Surge leads to
    EXTRA_TIEBREAKS = 0   # tie-breaks between Heir's third (TREASURED units in hand) and favor

cdef extern from *:
    """
    #define omen_card_of(tb, t) (t)
    #define omen_hook_void(...) ((void)0)
    #define omen_hook_zero(...) (0)
    #define omen_hook_one(...) (1)
    #define omen_hook_surge_moves(c, p, out, n) (n)
    """
    # The card a unit in a city is when it leaves it.
    int card_of "omen_card_of"(const Tables* tb, int t) noexcept nogil
    # A unit of ``p`` has been played into ``city`` (after its Heir abilities are on the stack).
    void hook_entered "omen_hook_void"(Ctx* c, int p, int t, int city) noexcept nogil
    # More Surge moves after the plays; returns the new length (``n``: none).
    int hook_surge_moves "omen_hook_surge_moves"(Ctx* c, int p, int32_t* out, int n) noexcept nogil
    # Whether a reclaim can take unit ``t`` of the discard pile.
    int hook_reclaimable "omen_hook_one"(Ctx* c, const Decision* d, int t) noexcept nogil
    # The legal moves of a decision kind Heir does not have.
    int hook_moves "omen_hook_zero"(Ctx* c, const Decision* d, int32_t* out) noexcept nogil
    # Resolve the top frame if it is not an effect list's (1), else leave it to Heir (0).
    int hook_frame "omen_hook_zero"(Ctx* c, Frame* f) noexcept nogil
    # Resolve an effect op Heir does not have.
    void hook_op "omen_hook_void"(Ctx* c, const Instr* e, int prog, int index, int owner, int city) noexcept nogil
    # The Wealth step begins a turn.
    void hook_turn_start "omen_hook_void"(Ctx* c) noexcept nogil
    # The turn's end check begins.
    void hook_end_check "omen_hook_void"(Ctx* c) noexcept nogil
    # Another way for the game to end at the end check.
    int hook_game_ends "omen_hook_zero"(const Tables* tb, const State* s) noexcept nogil
    # A phase Heir does not have.
    void hook_phase "omen_hook_void"(Ctx* c, int ph) noexcept nogil
    # Before Heir plays move ``m`` of decision ``d``: play it instead (1) or let Heir play it (0).
    int hook_decide "omen_hook_zero"(Ctx* c, Decision* d, int32_t m) noexcept nogil
    # After Heir has played move ``m`` of decision ``d``, before the rules run on.
    void hook_decided "omen_hook_void"(Ctx* c, const Decision* d, int32_t m) noexcept nogil
    # Victory points beyond Heir's.
    int hook_score "omen_hook_zero"(const Tables* tb, const State* s, int p) noexcept nogil
    # The tie-breaks after Heir's third (EXTRA_TIEBREAKS of them).
    int hook_tiebreak "omen_hook_zero"(const Tables* tb, const State* s, int p) noexcept nogil
