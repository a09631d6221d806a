"""Moves: small immutable values with one text notation that a player can read and type.

Every decision of the game, whoever makes it, is a :class:`Move`. The notation is the verb, then the
quoted card (or tile, or structure) name, then the city or ``cityA>cityB``, then a quoted target,
then a bare label, then ``draw N coin M``::

    >>> m = Move.parse('play "Opal Statuary" city2')
    >>> m.verb, m.card, m.city
    ('play', 'Opal Statuary', 2)
    >>> str(Move.parse('offer "Temple Servant" draw 1 coin 1'))
    'offer "Temple Servant" draw 1 coin 1'

``Move.parse(str(m)) == m`` for every move; the full list of verbs is in ``docs/formats.md``.
"""

from __future__ import annotations

from typing import ClassVar

from omen_search.move_notation import CardMove, is_label

__all__ = ["VERBS", "Move", "is_label"]

# verb -> the fields it takes, in notation order. "card" is a quoted unit/tile/structure name,
# "city" is city0..city2, "to" the destination of a move, "target" a second quoted name,
# "label" a bare word, "draw" the pair "draw N coin M".
VERBS: dict[str, tuple[str, ...]] = {
    "emissary": ("card",),  # Emissary variant: the unit you put forward
    "reveal": ("card",),  # Wealth: discard this Neutral unit to reveal again
    "wealth": ("draw",),  # Wealth actions: how many draws and coins
    "play": ("card", "city"),  # play a unit (from hand, or from revealed cards at no cost)
    "use": ("card",),  # use an unused reward tile
    "end": (),  # end the Surge
    "reinforce": ("card", "city"),  # resolve the REINFORCE of this unit of yours
    "move": ("card", "city", "to"),  # MANEUVER / Sandstorm
    "war": ("city",),  # resolve this war-torn city next
    "keep": ("card",),  # keep this unit after a war
    "enduring": ("card",),  # return this ENDURING unit from the discard pile
    "discard": ("card",),  # discard this card (from the hand the decision is about)
    "choose": ("label",),  # pick a branch of "choose one"
    "entomb": ("card", "city"),  # ENTOMB this unit from this city
    "structure": ("card",),  # start building this structure
    "take": ("card",),  # take this card into your hand
    "offer": ("card", "draw"),  # Offering: discard for cards and coins
    "build": ("card", "target"),  # Offering: BUILD with this unit on this structure
    "pass": (),  # decline an optional choice / stop choosing
    # with Reign of War units shuffled in (the heir+reign game, C-…)
    "beast": ("card",),  # Surge: discard this Beast from hand for its ability
    "oracle": ("card", "city"),  # Portent: resolve this Oracle's ability next
    "enrage": ("card", "city"),  # Enrage this unit
    "destroy": ("card", "city"),  # discard this unit from a city
    "return": ("card", "city"),  # return this unit from a city to its owner's hand
}


class Move(CardMove):
    """A decision of Heir to the Dunes (:data:`VERBS`); the notation is :class:`CardMove`'s."""

    VERBS: ClassVar[dict[str, tuple[str, ...]]] = VERBS
