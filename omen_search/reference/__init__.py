"""The reference engine: plain Python that implements every rule, ruling and card.

It is the executable rulebook the Cython core is checked against, move for move.
"""

from omen_search.reference.state import GameState

__all__ = ["GameState"]
