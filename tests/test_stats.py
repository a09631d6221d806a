"""Match statistics: Wilson intervals, Elo and its interval, LOS, pentanomial samples and the SPRT;
the interval of a win rate pooled from independent searches."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omen_search.errors import UsageError
from omen_search.stats import (
    Sample,
    Sprt,
    batch_interval,
    elo_interval,
    elo_of_score,
    los,
    pentanomial_sample,
    score_of_elo,
    t95,
    trinomial_sample,
    wilson,
)


@pytest.mark.parametrize("successes, n, low, high", [
    # Wilson (1927) score interval at 95%, values as tabulated by Newcombe (1998), Table I
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_published_values(successes, n, low, high):
    got_low, got_high = wilson(successes, n)
    assert got_low == pytest.approx(low, abs=1e-4)
    assert got_high == pytest.approx(high, abs=1e-4)


def test_wilson_with_no_trials_knows_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_contains_the_proportion_and_stays_in_0_1(successes, n):
    successes = min(successes, n)
    low, high = wilson(successes, n)
    assert 0.0 <= low <= successes / n <= high <= 1.0


@pytest.mark.parametrize("df, quantile", [(3, 3.182), (4, 2.776), (7, 2.365), (10, 2.228), (30, 2.042), (120, 1.980)])
def test_t95_matches_the_table_of_students_t(df, quantile):
    assert t95(df) == pytest.approx(quantile, abs=0.004)


def test_t95_refuses_too_few_degrees_of_freedom():
    with pytest.raises(UsageError, match="^df: the expansion needs at least 3 degrees of freedom, got 2"):
        t95(2)


def test_batches_that_agree_give_the_wilson_interval_of_the_pooled_counts():
    assert batch_interval([50] * 8, [100] * 8) == wilson(400, 800)


def test_batches_that_disagree_widen_the_interval_by_their_spread():
    wins = [60, 40, 55, 45, 50, 50, 62, 38]
    low, high = batch_interval(wins, [100] * 8)
    deviations = [w - 50 for w in wins]  # the pooled rate is 0.5
    half = t95(7) * math.sqrt(8 / 7 * sum(d * d for d in deviations)) / 800
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert high - low > wilson(400, 800)[1] - wilson(400, 800)[0]


def test_batch_interval_weighs_batches_by_their_visits():
    """A move one batch hardly visited: its few iterations move the interval little."""
    even = batch_interval([50, 50, 50, 50], [100, 100, 100, 100])
    assert batch_interval([50, 50, 50, 50, 0], [100, 100, 100, 100, 1]) == pytest.approx(even, abs=0.01)


def test_a_move_no_batch_visited_knows_nothing():
    assert batch_interval([0.0] * 8, [0] * 8) == (0.0, 1.0)


@pytest.mark.parametrize("wins, visits", [([1, 2, 3], [5, 5, 5]), ([1, 2, 3, 4], [5, 5, 5])])
def test_batch_interval_needs_four_batches_of_both(wins, visits):
    with pytest.raises(UsageError, match="^batch_interval: needs wins and visits of at least 4 batches each"):
        batch_interval(wins, visits)


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 300)), min_size=4, max_size=16))
def test_batch_interval_holds_the_rate_and_the_wilson_interval_within_0_1(batches):
    visits = [n for n, _ in batches]
    wins = [min(w, n) for n, w in batches]
    low, high = batch_interval(wins, visits)
    if sum(visits) == 0:
        assert (low, high) == (0.0, 1.0)
        return
    w_low, w_high = wilson(sum(wins), sum(visits))
    assert 0.0 <= low <= w_low <= sum(wins) / sum(visits) <= w_high <= high <= 1.0


def test_elo_of_score_known_points():
    assert elo_of_score(0.5, 100) == pytest.approx(0.0)
    assert elo_of_score(score_of_elo(400.0), 10**6) == pytest.approx(400.0)
    assert score_of_elo(400.0) == pytest.approx(10 / 11)  # the logistic model: 10x the odds per 400


@given(st.floats(0.01, 0.99))
def test_elo_and_score_round_trip(score):
    assert score_of_elo(elo_of_score(score, 10**6)) == pytest.approx(score, abs=1e-9)


def test_elo_of_a_perfect_score_is_finite_and_pulled_in_by_half_a_game():
    assert math.isfinite(elo_of_score(1.0, 400)) and math.isfinite(elo_of_score(0.0, 400))
    assert elo_of_score(1.0, 400) == pytest.approx(elo_of_score(1 - 0.5 / 400, 400))
    assert elo_of_score(0.0, 400) == pytest.approx(-elo_of_score(1.0, 400))


def test_los_is_a_half_when_even_and_symmetric():
    assert los(10, 10) == 0.5 and los(0, 0) == 0.5
    assert los(30, 20) + los(20, 30) == pytest.approx(1.0)
    assert los(60, 40) > 0.95 > los(52, 48) > 0.5


def test_pentanomial_sample_counts_pairs_as_two_games():
    s = pentanomial_sample([1, 0, 0, 0, 1])  # one pair lost twice, one won twice
    assert (s.mean, s.variance, s.n) == (0.5, 0.25, 2)
    s = pentanomial_sample([0, 0, 4, 0, 0])  # every pair split: no information about variance
    assert s.mean == 0.5 and s.variance > 0  # the floor keeps the interval and the SPRT finite
    assert pentanomial_sample([0, 0, 0, 0, 0]).n == 0


def test_pairs_that_split_have_less_variance_than_the_same_games_counted_alone():
    penta = pentanomial_sample([0, 5, 10, 5, 0])  # 40 games, 20 wins, 20 losses
    tri = trinomial_sample(20, 20, 0)
    assert penta.mean == tri.mean == 0.5
    assert penta.variance < tri.variance


def test_elo_interval_contains_the_estimate_and_shrinks_with_games():
    elo, low, high = elo_interval(0.6, 100, trinomial_sample(60, 40, 0))
    assert low < elo < high
    elo2, low2, high2 = elo_interval(0.6, 1000, trinomial_sample(600, 400, 0))
    assert elo2 == pytest.approx(elo) and high2 - low2 < high - low


def test_elo_interval_at_a_perfect_score_is_not_degenerate():
    """400 wins of 400 have no variance: the interval must still say how little 400 games prove."""
    elo, low, high = elo_interval(1.0, 400, pentanomial_sample([0, 0, 0, 0, 200]))
    w_low, _ = wilson(400, 400)
    assert low == pytest.approx(elo_of_score(w_low, 400))
    assert high - low > 200  # not the few Elo the normal approximation would give
    assert low <= elo <= high
    elo, low, high = elo_interval(0.0, 400, pentanomial_sample([200, 0, 0, 0, 0]))
    assert high - low > 200 and low <= elo <= high


def test_elo_interval_with_no_sample_is_unbounded():
    _, low, high = elo_interval(0.5, 0, Sample(0.5, 0.25, 0))
    assert low == -math.inf and high == math.inf


def test_sprt_accepts_h1_for_a_clearly_stronger_player():
    sprt = Sprt(elo0=0, elo1=10)
    llr = sprt.llr(Sample(score_of_elo(40), 0.1, 2000))
    assert llr > sprt.upper and sprt.verdict(llr) == "H1"


def test_sprt_accepts_h0_for_equal_players():
    sprt = Sprt(elo0=0, elo1=10)
    llr = sprt.llr(Sample(0.5, 0.1, 20000))
    assert llr < sprt.lower and sprt.verdict(llr) == "H0"


def test_sprt_continues_while_undecided():
    sprt = Sprt(elo0=0, elo1=10)
    llr = sprt.llr(Sample(score_of_elo(5), 0.1, 50))
    assert sprt.lower < llr < sprt.upper and sprt.verdict(llr) == "continue"
    assert sprt.llr(Sample(0.5, 0.25, 0)) == 0.0


def test_sprt_bounds_follow_alpha_and_beta():
    sprt = Sprt(alpha=0.05, beta=0.05)
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.lower == pytest.approx(-sprt.upper)


def test_sprt_parse_reads_any_subset():
    assert Sprt.parse("elo0=0,elo1=5") == Sprt(elo0=0, elo1=5, alpha=0.05, beta=0.05)
    assert Sprt.parse("alpha=0.01, beta=0.1") == Sprt(alpha=0.01, beta=0.1)


@pytest.mark.parametrize("text", ["elo2=3", "elo1", "alpha=x", "elo0=10,elo1=0", "alpha=1.5", "beta=0"])
def test_sprt_parse_rejects_bad_specs(text):
    with pytest.raises(UsageError, match="sprt"):
        Sprt.parse(text)
