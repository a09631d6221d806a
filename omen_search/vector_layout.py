"""The segments of an observation vector, written once for every game's encoder: each segment a name
and a length, laid out in order so that they tile the vector (the adapters' ``observation_layout``);
and a :class:`SeatWriter` that writes one seat's vector with the seats counted from it."""

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

    def writer(self, out: npt.NDArray[np.float32] | None, observer: int, players: int) -> SeatWriter:
        """A writer of a vector of this layout from ``observer``'s chair: ``out`` cleared, or a new vector."""
        v = np.zeros(self.size, np.float32) if out is None else out
        v[:] = 0
        return SeatWriter(self, v, observer, players)


class SeatWriter:
    """One vector being written (:attr:`v`), seats counted from the observer: seat ``s`` is slot
    ``(s - observer) % players``, slot 0 "mine".

    >>> w = SegmentLayout([("to_move", 4), ("life", 4)]).writer(None, observer=2, players=3)
    >>> w.one_hot("to_move", 0); w.at("life", w.slot(2), 20); w.v.tolist()
    [0.0, 1.0, 0.0, 0.0, 20.0, 0.0, 0.0, 0.0]
    """

    def __init__(self, layout: SegmentLayout, v: npt.NDArray[np.float32], observer: int, players: int):
        self.layout, self.v, self.observer, self.players = layout.layout, v, observer, players

    def at(self, segment: str, index: int, value: float = 1.0) -> None:
        """Add ``value`` at ``index`` of ``segment``."""
        self.v[self.layout[segment][0] + index] += value

    def slot(self, seat: int | None) -> int | None:
        """A seat's slot (``None`` for no seat)."""
        return None if seat is None else (seat - self.observer) % self.players

    def one_hot(self, segment: str, seat: int | None) -> None:
        """1 at a seat's slot of ``segment`` (nothing for no seat)."""
        r = self.slot(seat)
        if r is not None:
            self.at(segment, r)
