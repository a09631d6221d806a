"""Moves of Reign of War in the Omen notation (:mod:`omen_search.move_notation`).

A unit that is Enraged in a city is named by its card with the label ``enraged`` (``keep "Spartan
Warrior" enraged``): it is the same card face down (R-enrage-6)::

    >>> str(Move.parse('move "Spartan Warrior" city0>city2 enraged'))
    'move "Spartan Warrior" city0>city2 enraged'
    >>> Move.parse('beast "Satyr"').card
    'Satyr'
"""

from __future__ import annotations

from typing import ClassVar

from omen_search.move_notation import CardMove

ENRAGED = "enraged"  # the label of a move that names an Enraged unit in a city

# verb -> the fields it takes, in notation order ("label?": the optional label `enraged`).
VERBS: dict[str, tuple[str, ...]] = {
    "draft": ("card",),  # Card Drafting: take this design's stack
    "pick": ("card",),  # Simplified Drafting: keep this card of the pack in hand
    "emissary": ("card",),  # Emissary of War: the unit card you put forward
    "wealth": ("draw",),  # Wealth actions: how many draws and coins
    "play": ("card", "city"),  # play a unit card into a city (from hand; free: Call to Arms, a revealed Soldier)
    "beast": ("card",),  # discard this Beast from hand for its ability (R-surge-4)
    "use": ("card",),  # use this reward card from your hand
    "end": (),  # end the Surge
    "oracle": ("card", "city"),  # Portent: resolve this Oracle next
    "war": ("city",),  # resolve this war-torn city next
    "keep": ("card", "label?"),  # keep this unit after a war
    "discard": ("card",),  # discard this unit card (from the hand the decision is about)
    "destroy": ("card", "city", "label?"),  # discard this unit from a city (R-card-1)
    "return": ("card", "city", "label?"),  # return this unit from a city to its owner's hand
    "enrage": ("card", "city"),  # Enrage this unit
    "move": ("card", "city", "to", "label?"),  # move this unit to another city
    "take": ("card",),  # take this card into your hand (reclaim, revealed cards)
    "offer": ("card", "draw"),  # Offering: discard for cards and coins
    "pass": (),  # decline an optional choice / stop choosing
}


class Move(CardMove):
    """A decision of Reign of War (:data:`VERBS`)."""

    VERBS: ClassVar[dict[str, tuple[str, ...]]] = VERBS

    @property
    def enraged(self) -> bool:
        """Whether the move names an Enraged unit in a city."""
        return self.label == ENRAGED
