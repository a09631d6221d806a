"""Reign of War's one fixed, dense action space for the adapters (:mod:`omen_search.adapters`, through
:mod:`~omen_search.games.reign.adapter`), over the core's packed move ids
(:mod:`~omen_search.games.reign.encoding`): each verb gets a block of indices sized by its fields, a
card 64 values, a city or destination 3, the ``enraged`` label 2, a draw/coin split 11 x 11 (0-10
each: a Wealth step has at most 5 actions and a seed-edition offering 3)."""

from __future__ import annotations

from omen_search.action_space import ActionSpace
from omen_search.games.reign.encoding import pack
from omen_search.games.reign.notation import VERBS

SPLIT = 11
_SIZES = {"card": 64, "city": 3, "to": 3, "label": 2, "draw": SPLIT * SPLIT}


def _values(packed: int) -> dict[str, int]:
    draw, coin = (packed >> 16) & 63, (packed >> 22) & 63
    return {"card": (packed >> 5) & 63, "city": (packed >> 11) & 3, "to": (packed >> 13) & 3,
            "label": (packed >> 15) & 1,
            "draw": draw * SPLIT + coin if draw < SPLIT and coin < SPLIT else SPLIT * SPLIT}  # beyond: refused


def _pack(verb: int, values: dict[str, int]) -> int:
    draw, coin = divmod(values.get("draw", 0), SPLIT)
    return pack(verb, values.get("card", 0), values.get("city", 0), values.get("to", 0), values.get("label", 0),
                draw, coin)


SPACE = ActionSpace(VERBS, _SIZES, _values, _pack, lambda packed: packed & 31)
