# The records a core built on ext/heir/*.pxi keeps in its tables and state: an effect instruction, an
# effect frame, a decision. (The layout of the tables and the state is core_structs.pxi.)

# An effect instruction (one Effect of the card data).
cdef struct Instr:
    uint8_t op          # OP_* (see _core.pyx)
    uint8_t n           # count
    uint8_t filter      # FILTER_*
    uint8_t side        # 0 own, 1 opposing
    uint8_t where       # 0 any city, 1 this city
    uint8_t up_to       # 1: "up to n" (may pass)
    uint8_t mode        # move: 0 any, 1 maneuver
    uint8_t draw_each   # destroy_all: cards drawn per unit destroyed
    uint8_t take        # unearth: cards that may be taken
    uint8_t steal_if    # opponent_discards: 0 none, 1 + god index
    int16_t then_prog   # program of "then" (steal_unit, if_favored), -1 none
    uint8_t n_options   # choose: number of branches
    uint8_t to          # where a taken card goes (the combined game's reveal_take: 0 hand, 1 this city)
    int16_t option_prog[MAX_OPTIONS]

# An effect frame: instruction `pc` of program `prog`, resolving for `owner` in `city`.
cdef struct Frame:
    int16_t prog
    int16_t pc
    int8_t owner
    int8_t city

# A decision waiting for a move (reference: state.Pending). kind 0 means none.
cdef struct Decision:
    uint8_t kind        # DK_* (1-based index into rules.DECISIONS)
    int8_t player
    int8_t owner
    uint8_t n
    uint8_t last
    int8_t card
    int8_t city
    int16_t prog        # the effect being resolved (-1: none) ...
    int8_t index        # ... and its position in the program

