"""Statistics of two-player matches: Wilson intervals, Elo with an interval, LOS, and the SPRT;
and the interval of an estimate pooled from independent searches (:func:`batch_interval`).

Games are played in pairs on the same deal with the seats swapped, so results within a pair are
correlated; as in Fishtest, the Elo interval and the SPRT use the *pentanomial* model: each pair
is one sample worth 0, ½, 1, 1½ or 2 points, which gives a smaller and honest variance. The
normal quantile comes from :class:`statistics.NormalDist`.

Elo is the logistic model, ``score = 1 / (1 + 10 ** (-elo / 400))``. A score of exactly 0 or 1
has no finite Elo; it is pulled in by half a game (``0.5 / games``), so every value is a number
that JSON can carry.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from omen_search.errors import UsageError

Z95 = NormalDist().inv_cdf(0.975)
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)  # A's points over a pair, the five pentanomial outcomes
_MIN_VARIANCE = 1e-4  # per-sample variance floor: a run of identical pairs is not proof of anything
MAX_SPRT_ELO = 2000.0  # an SPRT's elo0 and elo1 lie within ± this (a score of 1 in 100,000 games)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``(0, 1)`` with no trials)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # at p = 0 (p = 1) the bound is exactly 0 (1); rounding must not move it past the proportion
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def t95(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (a two-sided 95% interval):
    the Cornish-Fisher expansion about the normal quantile (Abramowitz & Stegun 26.7.5), within
    0.004 of the exact value for ``df`` >= 3 and within 0.0005 from 4 on. Raises :class:`UsageError`
    for ``df`` < 3."""
    if df < 3:
        raise UsageError(f"df: the expansion needs at least 3 degrees of freedom, got {df}")
    z = Z95
    terms = ((z ** 3 + z) / 4, (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
             (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
             (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(g / df ** (k + 1) for k, g in enumerate(terms))


def batch_interval(wins: Sequence[float], visits: Sequence[int]) -> tuple[float, float]:
    """A 95% interval on a win rate pooled from independent searches (batches): ``wins[k]`` of
    ``visits[k]`` iterations in batch ``k``.

    The pooled rate is ``sum(wins) / sum(visits)``; its standard error is the cluster-robust one,
    each batch a cluster, so it holds both the rollouts' noise and how far independent searches
    disagree (their trees spend their iterations differently), with Student's t on ``batches - 1``
    degrees of freedom. The interval is never narrower than the Wilson interval of the pooled
    counts, so a move whose few iterations happen to agree (all lost, say) is not called certain.
    ``(0, 1)`` without iterations; raises :class:`UsageError` for fewer than 4 batches or lists of
    different lengths.

    >>> [round(x, 3) for x in batch_interval([50] * 8, [100] * 8)]  # batches agree: the Wilson interval
    [0.465, 0.535]
    >>> [round(x, 3) for x in batch_interval([60, 40] + [50] * 6, [100] * 8)]  # they do not: wider
    [0.455, 0.545]
    """
    k = len(visits)
    if k < 4 or len(wins) != k:
        raise UsageError(f"batch_interval: needs wins and visits of at least 4 batches each, got {len(wins)} "
                         f"and {k}")
    n = sum(visits)
    if n <= 0:
        return 0.0, 1.0
    total = sum(wins)
    p = total / n
    se = math.sqrt(k / (k - 1) * sum((w - p * v) ** 2 for w, v in zip(wins, visits))) / n
    half = t95(k - 1) * se
    low, high = wilson(total, n)
    return min(low, max(0.0, p - half)), max(high, min(1.0, p + half))


def score_of_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float, games: int) -> float:
    """Elo difference for an expected score, pulled in by half a game from 0 and 1."""
    eps = 0.5 / max(games, 1)
    score = min(max(score, eps), 1.0 - eps)
    return -400.0 * math.log10(1.0 / score - 1.0)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the probability that A is the stronger, from wins and losses
    (ties carry no information); ½ with no decisive game."""
    if wins + losses == 0:
        return 0.5
    return NormalDist().cdf((wins - losses) / math.sqrt(wins + losses))


@dataclass(frozen=True)
class Sample:
    """Mean and variance of one sample of A's score, and how many samples."""

    mean: float
    variance: float
    n: int


def pentanomial_sample(pairs: Sequence[int]) -> Sample:
    """Per-game score statistics from pentanomial counts (pairs scoring 0, ½, 1, 1½, 2 points)."""
    n = sum(pairs)
    if n == 0:
        return Sample(0.5, 0.25, 0)
    xs = [p / 2 for p in PAIR_POINTS]
    mean = sum(c * x for c, x in zip(pairs, xs)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(pairs, xs)) / n
    return Sample(mean, max(var, _MIN_VARIANCE), n)


def trinomial_sample(wins: int, losses: int, ties: int) -> Sample:
    """Per-game score statistics from single games."""
    n = wins + losses + ties
    if n == 0:
        return Sample(0.5, 0.25, 0)
    mean = (wins + 0.5 * ties) / n
    var = (wins * (1 - mean) ** 2 + losses * mean**2 + ties * (0.5 - mean) ** 2) / n
    return Sample(mean, max(var, _MIN_VARIANCE), n)


def elo_interval(score: float, games: int, sample: Sample, z: float = Z95) -> tuple[float, float, float]:
    """(elo, low, high): the point estimate from the overall score, the interval from the sample's
    standard error.

    At the edges the normal approximation collapses (400 wins in 400 games have no variance, so
    the interval would be a few Elo wide); there the bounds widen to the Wilson interval of the
    score over the games, which stays honest at 0% and 100%."""
    if sample.n == 0:
        return elo_of_score(score, games), -math.inf, math.inf
    half = z * math.sqrt(sample.variance / sample.n)
    low, high = score - half, score + half
    if sample.variance <= _MIN_VARIANCE or low <= 0.0 or high >= 1.0:
        w_low, w_high = wilson(score * games, games, z)
        low, high = min(low, w_low), max(high, w_high)
    return elo_of_score(score, games), elo_of_score(low, games), elo_of_score(high, games)


@dataclass(frozen=True)
class Sprt:
    """Sequential probability ratio test of H0 ``elo = elo0`` against H1 ``elo = elo1``, with
    error rates ``alpha`` and ``beta``. Raises :class:`UsageError` unless elo0 < elo1 within
    ±:data:`MAX_SPRT_ELO` and alpha, beta lie strictly between 0 and 0.5."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        values = (self.elo0, self.elo1, self.alpha, self.beta)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values):
            raise UsageError(f"sprt: elo0, elo1, alpha and beta must be numbers, got {values}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise UsageError(f"sprt: alpha and beta must lie strictly between 0 and 0.5, got {self.alpha:g} and "
                             f"{self.beta:g}")
        if not -MAX_SPRT_ELO <= self.elo0 < self.elo1 <= MAX_SPRT_ELO:
            raise UsageError(f"sprt: elo0 must be less than elo1, both from {-MAX_SPRT_ELO:g} to {MAX_SPRT_ELO:g}, "
                             f"got {self.elo0:g} and {self.elo1:g}")

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, sample: Sample) -> float:
        """Generalised SPRT log-likelihood ratio under the normal approximation (Van den Bergh):
        ``n (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²)`` with the logistic scores of elo0 and elo1."""
        if sample.n == 0:
            return 0.0
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return sample.n * (s1 - s0) * (2 * sample.mean - s0 - s1) / (2 * sample.variance)

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``"elo0=0,elo1=10,alpha=0.05,beta=0.05"`` (any subset; the rest default)."""
        values: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, eq, value = part.partition("=")
            if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
                raise UsageError(f"sprt: unknown part {part!r} in {text!r} (expected elo0=, elo1=, alpha=, beta=)")
            try:
                values[key] = float(value)
            except ValueError:
                raise UsageError(f"sprt: {key} must be a number, got {value!r}") from None
        return cls(**values)

    def verdict(self, llr: float) -> str:
        """``"H1"`` (A is elo1 stronger), ``"H0"`` (not elo1 stronger) or ``"continue"``."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return "continue"
