"""The one random generator of a game: xoshiro256** seeded by splitmix64, with unbiased bounded draws.

The Cython core reproduces this algorithm bit for bit, so a seed is the same game on both engines:

* seeding: four successive outputs of splitmix64 started at ``seed`` (an integer 0 … 2**64-1)
  become the state words ``s[0..3]``;
* ``next64``: xoshiro256** (Blackman & Vigna 2018): ``rotl(s1 * 5, 7) * 9``;
* ``below(n)``: let ``b`` be the bit length of ``n - 1``; take the top ``b`` bits of ``next64`` and
  reject values ``>= n`` (no modulo bias); ``below(1)`` is 0 and draws nothing;
* ``shuffle(xs)``: Fisher–Yates from the end: for ``i = len-1 … 1``, swap ``xs[i]`` with
  ``xs[below(i + 1)]``.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from omen_search.errors import UsageError

MASK64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


def splitmix64(x: int) -> tuple[int, int]:
    """One splitmix64 step: returns (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


class Rng:
    """xoshiro256** with the draws the game needs. ``Rng(seed)`` is reproducible everywhere."""

    __slots__ = ("s",)

    def __init__(self, seed: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {seed!r}")
        words = []
        x = seed
        for _ in range(4):
            x, out = splitmix64(x)
            words.append(out)
        self.s = words

    @classmethod
    def from_state(cls, words: list[int]) -> Rng:
        """A generator continuing from saved state words (as written in positions)."""
        rng = cls.__new__(cls)
        rng.s = list(words)
        return rng

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.s == other.s

    __hash__ = None  # type: ignore[assignment]

    def next64(self) -> int:
        s = self.s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection on the top bits (no modulo bias)."""
        if n <= 1:
            return 0
        shift = 64 - (n - 1).bit_length()
        while True:
            x = self.next64() >> shift
            if x < n:
                return x

    def shuffle(self, xs: MutableSequence) -> None:
        """Shuffle in place (Fisher–Yates from the end, as documented above)."""
        for i in range(len(xs) - 1, 0, -1):
            j = self.below(i + 1)
            xs[i], xs[j] = xs[j], xs[i]
