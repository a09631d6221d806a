# Heir's rules, its side of the contract with the search and its Python edge: what every core built on
# these files includes after its codes, primitives.pxi and its own hooks.pxi.

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
include "features.pxi"         # a position as numbers, for a learned evaluation
include "game_api.pxi"         # the game's side of the contract with the search
include "edge.pxi"             # the Python edge: CoreTables, CoreState
