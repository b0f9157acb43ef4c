"""Tests for local_runner.results.stats: t quantiles, confidence intervals, match summaries."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_runner.results.stats import (
    Interval,
    RunningStats,
    Summary,
    duplicate_pairs,
    mbb_per_hand,
    mean_ci,
    summarize,
    summarize_duplicate,
    t_quantile,
    table_verdict,
)

# Printed-table values (7 decimals), independent of scipy.
TEXTBOOK = [
    (0.975, 1, 12.7062047),
    (0.975, 2, 4.3026527),
    (0.975, 4, 2.7764451),
    (0.975, 10, 2.2281389),
    (0.975, 30, 2.0422725),
    (0.975, 120, 1.9799304),
    (0.975, math.inf, 1.9599640),
    (0.995, 1, 63.6567412),
    (0.995, 2, 9.9248432),
    (0.995, 4, 4.6040949),
    (0.995, 10, 3.1692727),
    (0.995, 30, 2.7499957),
    (0.995, 120, 2.6174211),
    (0.995, math.inf, 2.5758293),
]


@pytest.mark.parametrize(("p", "df", "expected"), TEXTBOOK)
def test_t_quantile_textbook_values(p: float, df: float, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, abs=6e-8)
    assert t_quantile(1.0 - p, df) == pytest.approx(-expected, abs=6e-8)


# df from 1 to 10^6, with both sides of the switch to the large-df series (1000).
CROSS_CHECK_DFS = [
    *range(1, 101),
    *(150, 200, 300, 500, 999, 1000, 1001, 2000, 5000),
    *(10**4, 3 * 10**4, 10**5, 3 * 10**5, 10**6),
    0.5,
    1.5,
    2.5,
    7.25,
]


def test_t_quantile_matches_scipy() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in CROSS_CHECK_DFS:
        for p in (0.975, 0.995):
            expected = float(scipy_stats.t.ppf(p, df))
            assert t_quantile(p, df) == pytest.approx(expected, rel=1e-6), (p, df)


def test_t_quantile_large_df_tends_to_normal() -> None:
    assert t_quantile(0.975, 1e12) == pytest.approx(1.959963984540054, rel=1e-11)
    assert t_quantile(0.975, 10**6) > t_quantile(0.975, math.inf)


def test_t_quantile_is_monotone_and_symmetric() -> None:
    assert t_quantile(0.5, 3) == 0.0
    values = [t_quantile(p, 5) for p in (0.6, 0.75, 0.9, 0.975, 0.999, 0.999999)]
    assert values == sorted(values)
    for p in (0.6, 0.999999):
        assert t_quantile(1 - p, 5) == pytest.approx(-t_quantile(p, 5), rel=1e-9)


@pytest.mark.parametrize(("p", "df"), [(0.0, 5), (1.0, 5), (-0.1, 5), (0.975, 0), (0.975, -2)])
def test_t_quantile_rejects_bad_arguments(p: float, df: float) -> None:
    with pytest.raises(ValueError, match="must be"):
        t_quantile(p, df)


def test_mean_ci_hand_computed_example() -> None:
    ci = mean_ci([1, 2, 3, 4, 5])
    stderr = math.sqrt(2.5 / 5)
    assert ci.mean == 3.0
    assert ci.n == 5
    assert ci.stderr == pytest.approx(stderr, rel=1e-12)
    assert stderr == pytest.approx(0.7071068, abs=1e-7)
    assert ci.low == pytest.approx(3 - 2.7764451 * 0.7071068, abs=1e-6)
    assert ci.high == pytest.approx(3 + 2.7764451 * 0.7071068, abs=1e-6)


def test_mean_ci_wider_at_higher_confidence() -> None:
    narrow, wide = mean_ci([1, 2, 3, 4, 5], 0.9), mean_ci([1, 2, 3, 4, 5], 0.99)
    assert wide.low < narrow.low < narrow.high < wide.high


def test_mean_ci_single_sample_is_unbounded() -> None:
    ci = mean_ci([7])
    assert ci == Interval(7.0, -math.inf, math.inf, 1, math.inf)
    assert not ci.excludes_zero()


def test_mean_ci_constant_samples_have_zero_width() -> None:
    ci = mean_ci([4, 4, 4])
    assert (ci.low, ci.mean, ci.high, ci.stderr) == (4.0, 4.0, 4.0, 0.0)


def test_mean_ci_errors() -> None:
    with pytest.raises(ValueError, match="at least one sample"):
        mean_ci([])
    for confidence in (0.0, 1.0, 95.0):
        with pytest.raises(ValueError, match="confidence level"):
            mean_ci([1, 2], confidence)


def test_interval_scaled() -> None:
    ci = Interval(1.0, -2.0, 4.0, 3, 1.5).scaled(2.0)
    assert ci == Interval(2.0, -4.0, 8.0, 3, 3.0)
    with pytest.raises(ValueError, match="positive factor"):
        ci.scaled(-1.0)


def test_mbb_per_hand() -> None:
    assert mbb_per_hand(300, 1000, 2) == 150.0
    assert mbb_per_hand(-50, 100, 100) == -5.0
    with pytest.raises(ValueError, match="number of hands"):
        mbb_per_hand(1, 0, 2)
    with pytest.raises(ValueError, match="big blind"):
        mbb_per_hand(1, 10, 0)


def _exact_mean_variance(xs: list[float]) -> tuple[Fraction, Fraction]:
    """Two-pass mean and sample variance in exact rational arithmetic."""
    exact = [Fraction(x) for x in xs]
    mean = sum(exact, Fraction(0)) / len(exact)
    return mean, sum(((x - mean) ** 2 for x in exact), Fraction(0)) / (len(exact) - 1)


@given(st.lists(st.integers(-20_000, 20_000), min_size=2, max_size=300))
def test_running_stats_matches_two_pass_on_integers(xs: list[int]) -> None:
    stats = RunningStats(xs)
    mean, variance = _exact_mean_variance([float(x) for x in xs])
    assert stats.n == len(xs)
    # Welford's relative error grows like n * eps * |mean| / stddev; integer deltas have a
    # standard deviation of at least ~1/n unless they are all equal (then variance is 0).
    assert stats.mean == pytest.approx(float(mean), rel=1e-12, abs=1e-9)
    assert stats.variance == pytest.approx(float(variance), rel=1e-7)


@given(st.lists(st.floats(-1e6, 1e6, allow_subnormal=False), min_size=2, max_size=200))
def test_running_stats_matches_two_pass_on_floats(xs: list[float]) -> None:
    stats = RunningStats()
    for x in xs:
        stats.add(x)
    mean, variance = _exact_mean_variance(xs)
    scale = max(abs(x) for x in xs)  # tolerances relative to the data's magnitude
    assert stats.mean == pytest.approx(float(mean), rel=1e-12, abs=1e-12 * scale)
    assert stats.variance == pytest.approx(float(variance), rel=1e-9, abs=1e-9 * scale**2)
    assert stats.interval(0.9) == mean_ci(xs, 0.9)


def test_running_stats_edge_cases() -> None:
    stats = RunningStats()
    assert stats.n == 0
    with pytest.raises(ValueError, match="no samples"):
        _ = stats.mean
    with pytest.raises(ValueError, match="no samples"):
        stats.interval()
    stats.add(3)
    assert stats.mean == 3.0
    assert math.isnan(stats.variance)
    assert stats.interval().high == math.inf


def test_summarize_totals_and_scaling() -> None:
    deltas = [10, -5, 20, 15, -10, 30]
    s = summarize(deltas, big_blind=2)
    ci = mean_ci(deltas)
    assert (s.total_chips, s.hands, s.big_blind, s.confidence) == (60, 6, 2, 0.95)
    assert s.chips_per_hand == ci
    assert s.mbb_per_hand.mean == pytest.approx(mbb_per_hand(60, 6, 2))
    assert s.mbb_per_hand.low == pytest.approx(ci.low * 500)
    assert s.mbb_per_hand.high == pytest.approx(ci.high * 500)
    assert s.mbb_per_hand.stderr == pytest.approx(ci.stderr * 500)
    assert s.mbb_per_hand.n == 6


def test_summarize_errors() -> None:
    with pytest.raises(ValueError, match="at least one hand"):
        summarize([], big_blind=2)
    with pytest.raises(ValueError, match="big blind"):
        summarize([1, 2], big_blind=0)


def test_verdicts() -> None:
    assert summarize([5, 6, 7, 5, 6], 2).verdict("A", "B") == (
        "A is ahead of B: 95% CI excludes zero"
    )
    assert summarize([-5, -6, -7, -5, -6], 2).verdict("A", "B") == (
        "B is ahead of A: 95% CI excludes zero"
    )
    assert summarize([5, -6, 7, -5, 6], 2).verdict("A", "B") == (
        "not yet distinguishable: the 95% CI includes zero"
    )
    assert summarize([1], 2).verdict("A", "B") == (
        "not yet distinguishable: the 95% CI includes zero"
    )
    assert summarize([5, 6, 7, 5, 6], 2, confidence=0.99).verdict("x", "y") == (
        "x is ahead of y: 99% CI excludes zero"
    )


def test_table_verdicts_at_three_seats_read_right_for_any_mix() -> None:
    up, down, even = (
        summarize(xs, 2) for xs in ([5, 6, 7, 5, 6], [-5, -6, -7, -5, -6], [5, -6, 7, -5, 6])
    )
    names = ["A", "B", "C"]
    assert table_verdict(names, [even, even, down]) == (
        "C behind the table: its 95% CI excludes zero"
    )
    assert (
        table_verdict(names, [up, even, even]) == "A ahead of the table: its 95% CI excludes zero"
    )
    assert table_verdict(names, [up, even, down]) == (
        "A ahead of the table and C behind it: their 95% CIs exclude zero"
    )
    assert table_verdict(names, [even, down, down]) == (
        "B, C behind the table: their 95% CIs exclude zero"
    )
    assert table_verdict(names, [even, even, even]) == (
        "not yet distinguishable: every player's 95% CI includes zero"
    )


def test_duplicate_pairs_of_mirrored_halves_are_zero() -> None:
    first = [50, -20, 0, 400, -400, 7, -3]
    pairs = duplicate_pairs(first, [-x for x in first])
    assert pairs == [0] * len(first)
    s = summarize_duplicate(first, [-x for x in first], big_blind=2)
    assert (s.total_chips, s.chips_per_hand.low, s.chips_per_hand.high) == (0, 0.0, 0.0)


def test_duplicate_pairs_sums_and_length_check() -> None:
    assert duplicate_pairs([5, -3, 2], [-5, 4, 2]) == [0, 1, 4]
    with pytest.raises(ValueError, match="same number of hands"):
        duplicate_pairs([1, 2], [1])


def test_summarize_duplicate_uses_pairs_as_samples() -> None:
    first, second = [10, -4, 6, 0], [-6, 8, -1, 2]
    pairs = duplicate_pairs(first, second)
    assert pairs == [4, 4, 5, 2]
    s = summarize_duplicate(first, second, big_blind=4)
    pair_ci = mean_ci(pairs)
    assert s.hands == 8
    assert s.total_chips == sum(first) + sum(second)
    assert s.chips_per_hand.n == len(pairs)
    assert s.chips_per_hand.mean == pytest.approx(pair_ci.mean / 2)
    assert s.chips_per_hand.low == pytest.approx(pair_ci.low / 2)
    assert s.chips_per_hand.high == pytest.approx(pair_ci.high / 2)
    assert s.chips_per_hand.stderr == pytest.approx(pair_ci.stderr / 2)
    assert s.mbb_per_hand.mean == pytest.approx(mbb_per_hand(s.total_chips, 8, 4))


def test_summary_from_streamed_stats() -> None:
    stats = RunningStats()
    total = 0
    for delta in [3, -1, 4, -1, 5]:
        stats.add(delta)
        total += delta
    assert Summary.from_stats(stats, total, big_blind=2) == summarize([3, -1, 4, -1, 5], 2)


# -- one moments engine --------------------------------------------------------------


def test_every_interval_comes_from_the_one_moments_engine() -> None:
    from local_runner.results.stats import Moments

    deltas = [12, -40, 7, 7, 0, 33, -5]
    assert RunningStats(deltas).interval() == Moments.of(deltas).interval() == mean_ci(deltas)
    assert summarize(deltas, 2) == Moments.of(deltas).summary(2)
    first, second = deltas, [-x + 1 for x in deltas]
    assert summarize_duplicate(first, second, 2) == Moments.of(
        duplicate_pairs(first, second)
    ).summary(2, 2)
    # Floats are held exactly, so the order of the samples does not change anything.
    floats = [0.1, 0.2, 0.3, 1e8, -1e8, 1 / 3]
    assert Moments.of(floats).interval() == Moments.of(reversed(floats)).interval()
    assert Moments.of(floats).mean == float(sum(Fraction(x) for x in floats) / 6)
    with pytest.raises(ValueError, match="integer samples"):
        Moments.of([0.5]).to_list()


def test_the_documented_names_still_import_from_standings() -> None:
    from local_runner.results import match_stats, match_summary, standings, stats

    assert standings.Moments is stats.Moments
    assert standings.ci_sentence is stats.ci_sentence
    assert standings.statistics_dict is stats.statistics_dict
    assert standings.summary_dict is stats.summary_dict
    assert standings.MatchStats is match_stats.MatchStats
    assert standings.slot_deltas is match_stats.slot_deltas
    assert standings.MatchSummary is match_summary.MatchSummary
    assert stats.t_quantile(0.975, 10) == pytest.approx(2.2281389, abs=1e-7)
