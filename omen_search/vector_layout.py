"""The segments of an observation vector, written once for every game's encoder: each segment a name
and a length, laid out in order so that they tile the vector (the adapters' ``observation_layout``)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt


class SegmentLayout:
    """Segment ``name`` at ``layout[name] = (start, length)``; :attr:`size` numbers in all.

    >>> layout = SegmentLayout([("hand", 3), ("coins", 1)])
    >>> layout.size, layout.slice("coins")
    (4, slice(3, 4, None))
    """

    def __init__(self, segments: Iterable[tuple[str, int]]):
        self.layout: dict[str, tuple[int, int]] = {}
        start = 0
        for name, length in segments:
            self.layout[name] = (start, length)
            start += length
        self.size = start

    def slice(self, name: str) -> slice:
        """The positions of segment ``name`` in the vector."""
        start, length = self.layout[name]
        return slice(start, start + length)

    def count(self, v: npt.NDArray[np.float32], segment: str, names: Iterable[str] | None,
              index: dict[str, int], offset: int = 0) -> None:
        """Add 1 in ``segment`` (from ``offset`` on) at each name's ``index``, once per copy."""
        start = self.layout[segment][0] + offset
        for name in names or ():
            v[start + index[name]] += 1
