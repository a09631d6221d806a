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

import functools

from omen_search.errors import UsageError
from omen_search.games.heir.notation import VERBS

A_VALUES, CITY_VALUES, SPLIT = 64, 3, 11  # a: 6 bits; city, to, target: 0-2; draw, coin: 0-10
_SIZES = {"card": A_VALUES, "label": A_VALUES, "city": CITY_VALUES, "to": CITY_VALUES, "draw": SPLIT * SPLIT,
          "target": CITY_VALUES}


def _layout() -> tuple[list[int], int]:
    offsets, total = [], 0
    for fields in VERBS.values():
        offsets.append(total)
        size = 1
        for f in fields:
            size *= _SIZES[f]
        total += size
    return offsets, total


OFFSETS, NUM_ACTIONS = _layout()
_FIELDS = list(VERBS.values())


def _values(packed: int) -> dict[str, int]:
    a = (packed >> 5) & 63
    return {"card": a, "label": a, "city": (packed >> 11) & 3, "to": (packed >> 13) & 3,
            "draw": ((packed >> 15) & 31) * SPLIT + ((packed >> 20) & 31), "target": (packed >> 25) & 3}


@functools.cache  # the adapters' hot path: each state converts all its legal moves
def action_of(packed: int) -> int:
    """The dense index of a packed core move."""
    verb = packed & 31
    values = _values(packed)
    if (packed >> 15) & 31 >= SPLIT or (packed >> 20) & 31 >= SPLIT:
        raise UsageError(f"action: move {packed:#x} draws or takes more than {SPLIT - 1}, outside the action space")
    index = 0
    for f in _FIELDS[verb]:
        index = index * _SIZES[f] + values[f]
    return OFFSETS[verb] + index


@functools.cache
def packed_of(action: int) -> int:
    """The packed core move of a dense index (the inverse of :func:`action_of`)."""
    if not 0 <= action < NUM_ACTIONS:
        raise UsageError(f"action: {action} is outside 0..{NUM_ACTIONS - 1}")
    verb = max(v for v, start in enumerate(OFFSETS) if start <= action)
    index = action - OFFSETS[verb]
    values: dict[str, int] = {}
    for f in reversed(_FIELDS[verb]):
        index, values[f] = divmod(index, _SIZES[f])
    a = values.get("card", values.get("label", 0))
    draw, coin = divmod(values.get("draw", 0), SPLIT)
    return (verb | a << 5 | values.get("city", 0) << 11 | values.get("to", 0) << 13 | draw << 15 | coin << 20
            | values.get("target", 0) << 25)
