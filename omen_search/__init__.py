"""omen_search: a game-playing and analysis engine for the card game Omen.

The data flows one way: card data (:mod:`omen_search.cards`) → rules
(:mod:`omen_search.reference`) → players and tools (:mod:`omen_search.bots`,
:mod:`omen_search.records`, :mod:`omen_search.cli`).
"""

from omen_search.cards import CardSet, load_cards, default_cards
from omen_search.errors import OmenError
from omen_search.moves import Move

__all__ = ["CardSet", "Move", "OmenError", "default_cards", "load_cards"]
__version__ = "0.1.0"
