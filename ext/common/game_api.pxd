# cython: language_level=3
# The C contract between a game's core and the search (ext/search/_search.pyx).
#
# A game's core fills one constant GameApi table with its sizes and functions; each of its state
# objects lends the search a GameHandle (the table, the compiled tables of its card set, its
# configuration and its flat state) through a capsule named GAME_HANDLE_NAME ("omen_search.GameHandle"). The search copies
# states with memcpy(state_size) and calls only these functions, all without the GIL and without
# Python objects, so it knows no game's struct. The calls are coarse where it matters for speed:
# a whole random rollout is one call into the game, so the per-ply loop stays inside the game's
# module with direct (inlinable) calls.
#
# Moves are a game's packed int32 ids (>= 0). Players are 0..num_players-1. The search checks a
# table's sizes against its own arrays (MAX_PLAYERS, MAX_STATS, MAX_FEATURES, SEARCH_MAX_MOVES, TRAIL_MAX_STATE)
# when a handle comes in, and refuses a game that does not fit.

from libc.stdint cimport int32_t, uint64_t

from omen_trail cimport Trail

cdef extern from *:
    """
    #define OMEN_GAME_HANDLE_NAME "omen_search.GameHandle"
    """
    const char* GAME_HANDLE_NAME "OMEN_GAME_HANDLE_NAME"  # the capsule name a core's game_handle() uses

cdef enum:
    MAX_PLAYERS = 4       # the most players any game may have (the search keeps a tree per player)
    MAX_STATS = 16        # the most per-iteration statistics a game may report (n_stats)
    SEARCH_MAX_MOVES = 1024  # the most legal moves of one decision (a game's max_moves must fit)
    HIDDEN_MOVE = -2      # seen_move's answer for a move the viewer cannot tell apart from others
    MAX_FEATURES = 64     # the most evaluation features a game may supply (n_features)

ctypedef struct GameApi:
    const char* name
    int num_players       # a constant of the table: a game with a player-count option has a table per count
    int max_moves         # the longest legal-move list the game can produce
    size_t state_size     # bytes of the flat state (what a clone copies)
    size_t track_size     # bytes of the game's per-iteration tracker (0: none)
    int trail_per_move    # the most trail records one apply can write
    int n_stats           # doubles track_stats writes
    # deal a new game from a seed with the configuration of the handle
    void (*new_game)(const void* tables, const void* config, uint64_t seed, void* s) noexcept nogil
    # the player to move, or -1 when the game is over
    int (*to_move)(const void* tables, const void* s) noexcept nogil
    # the legal moves of the player to move, in the game's order; returns their number (>= 1)
    int (*legal_moves)(const void* tables, void* s, int32_t* out) noexcept nogil
    # play a legal move and run to the next decision, logging writes in trail (NULL: no undo)
    void (*apply)(const void* tables, void* s, int32_t move, Trail* trail) noexcept nogil
    # a finished game's reward of each player, from 0 (loss) to 1 (win)
    void (*returns)(const void* tables, const void* s, double* out) noexcept nogil
    # each player's score (victory points, say) in a finished game, for reports and margins
    void (*scores)(const void* tables, const void* s, int32_t* out) noexcept nogil
    # re-deal, from rng, everything `player` cannot see, consistently with what they see
    void (*determinize)(const void* tables, void* s, int player, uint64_t* rng) noexcept nogil
    # the move as `viewer` observes it when `mover` plays it: the move, or HIDDEN_MOVE
    int32_t (*seen_move)(const void* tables, int32_t move, int mover, int viewer) noexcept nogil
    # play uniformly random moves (drawn from rng) to the end, updating track unless it is NULL;
    # returns the plies played
    int (*rollout)(const void* tables, void* s, uint64_t* rng, void* track) noexcept nogil
    # the tracker: started after a determinisation, stepped after each move of the tree descent,
    # read at the end of the iteration into n_stats doubles from `player`'s point of view
    void (*track_begin)(const void* tables, const void* s, void* track) noexcept nogil
    void (*track_step)(const void* tables, const void* s, void* track) noexcept nogil
    void (*track_stats)(const void* tables, const void* s, const void* track, int player,
                        double* out) noexcept nogil
    # optional (0 and NULL: none; the search then has no learned evaluation for the game): the
    # n_features numbers of `player`'s side of a position that a learned evaluation weighs
    int n_features
    void (*features)(const void* tables, const void* s, int player, double* out) noexcept nogil
    # optional (NULL: none; the search then weighs no deals by belief): determinize for `player`,
    # but every other player holds the hidden hand they hold in `source` (the same game at the same
    # point in another world: a deal of an earlier state played forward); returns 0, leaving s as
    # it was, when those hands cannot be theirs as `player` sees s
    int (*deal_like)(const void* tables, void* s, int player, const void* source, uint64_t* rng) noexcept nogil

ctypedef struct GameHandle:
    const GameApi* api
    const void* tables
    const void* config
    void* state
