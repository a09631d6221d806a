"""The greedy bot's one-ply judgement of an OMNIA position: the basics of deck building.

A card's worth is its price: the designers priced each card by what it does, so a deck is worth the
cost of the cards its owner bought (plus their prestige, which is score). Source in the pool is
worth less than what it buys, so the bot plays its source cards, then spends the pool on the
dearest cards it can pay for, and never ends its turn with something left to buy; a hero in play is
worth a part of its Atk and Def, so it plays its heroes and attacks when the damage dealt is worth
more than the hero that cycles away (N-attack-5).
"""

from __future__ import annotations

from typing import Any

DECK = 0.5  # a point of cost of a card owned (bought, not removed)
POOL = 0.25  # a point of source in the pool (lost at Clean-Up)
HERO = 0.3  # a point of Atk or Def of a hero in play, or on the Flow on its way there
IN_PLAY = 0.5  # an Item, Equipment or Enchantment in play, or on the Flow on its way there
PRIMED = 0.5  # a spell primed face down (it can be cast at any priority)
# Cards in hand count for nothing: every turn ends with a fresh hand of five (N-draw-1), so a value
# for them would make ending the turn look like a gain.


def worth(state: Any, player: int) -> float:
    """What ``player`` has on the table, in points of score (prestige plus life, N-score-2)."""
    removed = set(state.removed)
    value = state.score(player)
    for c, owner in enumerate(state.owner):
        cost = state.card(c).cost
        if owner == player and cost is not None and c not in removed:
            value += DECK * cost.total
    value += POOL * sum(state.pool[player])
    coming = [it.card for it in state.flow if it.kind == "play" and it.player == player and not it.cancelled]
    for c in state.field[player] + [c for c in coming if state.card(c).stays]:
        card = state.card(c)
        value += HERO * (state.atk(c) + state.defense(c)) if card.type == "hero" else IN_PLAY
    return value + PRIMED * len(state.primed[player])


def evaluate(state: Any, player: int) -> float:
    """From ``player``'s side: his worth less the best other seat's; a finished game is decisive.
    ``state`` is a reference state or a core state (read through its reference ``view()``)."""
    if state.is_terminal():
        return 1000.0 * (2 * state.returns()[player] - 1)
    table = state.view() if hasattr(state, "view") else state
    others = max(worth(table, q) for q in range(table.n) if q != player)
    return worth(table, player) - others
