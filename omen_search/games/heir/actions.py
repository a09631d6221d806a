"""Heir's one fixed, dense action space for the adapters (:mod:`omen_search.adapters`, through
:mod:`~omen_search.games.heir.adapter`): every move the core can generate has an index
in ``range(NUM_ACTIONS)``, the same in every state (OpenSpiel and PettingZoo need that; the core's
packed move ids are sparse 27-bit numbers).

The core packs a move into an ``int32`` (``ext/heir/_core.pyx``): verb in bits 0-4, ``a`` (card, tile,
structure or option) in 5-10, city 11-12, to 13-14, draw 15-19, coin 20-24, target 25-26. Here each
verb gets a block of indices sized by the fields it uses (``moves.VERBS``): a card or label 64
values, a city or target 3, a destination 3, a draw/coin split 11 x 11 (0-10 each), so the action
space holds every move of any card set the core accepts.
"""

from __future__ import annotations

from omen_search.action_space import ActionSpace
from omen_search.games.heir.notation import VERBS

A_VALUES, CITY_VALUES, SPLIT = 64, 3, 11  # a: 6 bits; city, to, target: 0-2; draw, coin: 0-10
_SIZES = {"card": A_VALUES, "label": A_VALUES, "city": CITY_VALUES, "to": CITY_VALUES, "draw": SPLIT * SPLIT,
          "target": CITY_VALUES}


def _values(packed: int) -> dict[str, int]:
    a = (packed >> 5) & 63
    draw, coin = (packed >> 15) & 31, (packed >> 20) & 31
    split = draw * SPLIT + coin if draw < SPLIT and coin < SPLIT else SPLIT * SPLIT  # beyond: refused
    return {"card": a, "label": a, "city": (packed >> 11) & 3, "to": (packed >> 13) & 3, "draw": split,
            "target": (packed >> 25) & 3}


def _pack(verb: int, values: dict[str, int]) -> int:
    a = values.get("card", values.get("label", 0))
    draw, coin = divmod(values.get("draw", 0), SPLIT)
    return (verb | a << 5 | values.get("city", 0) << 11 | values.get("to", 0) << 13 | draw << 15 | coin << 20
            | values.get("target", 0) << 25)


SPACE = ActionSpace(VERBS, _SIZES, _values, _pack, lambda packed: packed & 31)
NUM_ACTIONS = SPACE.size
action_of = SPACE.action_of  # the dense index of a packed core move
packed_of = SPACE.packed_of  # the packed core move of a dense index
