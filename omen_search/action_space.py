"""A fixed, dense action space over an Omen game's packed move ids, for the adapters
(:mod:`omen_search.adapters`): OpenSpiel and PettingZoo need every move to have one index in
``range(size)``, the same in every state, while a core's packed ids are sparse bit fields.

Each verb of the game's notation gets a block of indices sized by the fields it takes (a card 64
values, a city 3, …); a game says how big each field is, how to read the fields of a packed id and
how to pack them again. Written once here; each game's folder gives its own bit layout.

>>> space = ActionSpace({"play": ("card", "city"), "end": ()}, {"card": 4, "city": 3},
...                     lambda p: {"card": p >> 4, "city": (p >> 2) & 3}, lambda verb, v: verb | v.get("card", 0) << 4
...                     | v.get("city", 0) << 2, lambda p: p & 3)
>>> space.size, space.action_of(0 | 3 << 4 | 2 << 2), space.action_of(1)
(13, 11, 12)
>>> space.packed_of(11) == 0 | 3 << 4 | 2 << 2
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from omen_search.errors import UsageError


class ActionSpace:
    """Dense indices for the packed moves of one game.

    ``verbs`` are the notation's verbs in id order with their fields (a trailing ``?`` marks an
    optional one, which counts like any other); ``sizes`` the values of each field; ``values(packed)``
    reads the fields of a packed id, ``pack(verb_id, values)`` packs them again and ``verb(packed)``
    reads the verb id."""

    def __init__(self, verbs: dict[str, tuple[str, ...]], sizes: dict[str, int],
                 values: Callable[[int], dict[str, int]], pack: Callable[[int, dict[str, int]], int],
                 verb: Callable[[int], int]):
        self._fields = [tuple(f.rstrip("?") for f in fields) for fields in verbs.values()]
        self._sizes, self._values, self._pack, self._verb = sizes, values, pack, verb
        self.offsets: list[int] = []
        total = 0
        for fields in self._fields:
            self.offsets.append(total)
            block = 1
            for f in fields:
                block *= sizes[f]
            total += block
        self.size = total
        self.action_of = functools.cache(self._action_of)  # the adapters' hot path: every legal move, every state
        self.packed_of = functools.cache(self._packed_of)

    def _action_of(self, packed: int) -> int:
        """The dense index of a packed move; raises :class:`UsageError` for a field too large."""
        verb = self._verb(packed)
        values = self._values(packed)
        index = 0
        for f in self._fields[verb]:
            if values[f] >= self._sizes[f]:
                raise UsageError(f"action: move {packed:#x} has {f} {values[f]}, outside the action space "
                                 f"(at most {self._sizes[f] - 1})")
            index = index * self._sizes[f] + values[f]
        return self.offsets[verb] + index

    def _packed_of(self, action: int) -> int:
        """The packed move of a dense index (the inverse of :meth:`action_of`)."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.size:
            raise UsageError(f"action: {action!r} is outside 0..{self.size - 1}")
        verb = max(v for v, start in enumerate(self.offsets) if start <= action)
        index = action - self.offsets[verb]
        values: dict[str, int] = {}
        for f in reversed(self._fields[verb]):
            index, values[f] = divmod(index, self._sizes[f])
        return self._pack(verb, values)


class DenseActions:
    """The action methods of a game's adapter (``omen_search.adapters.spec.GameAdapter``) whose
    actions are one :class:`ActionSpace`, its class attribute ``space``."""

    space: ActionSpace

    @property
    def num_actions(self) -> int:
        return self.space.size

    def action_of(self, move_id: int) -> int:
        return self.space.action_of(move_id)

    def move_id_of(self, action: int) -> int:
        return self.space.packed_of(action)
