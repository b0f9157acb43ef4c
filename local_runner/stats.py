"""Honest match statistics: means with Student t confidence intervals, in mbb/hand.

A poker match is noisy, so a bare chip total says little.  These functions report
the mean result per hand with a confidence interval (CI) and say whether that CI
excludes zero.  Everything is standard library only; the Student t quantile is
computed here (Newton's method on the exact CDF, via the regularized incomplete
beta function; a Cornish-Fisher series above 1000 degrees of freedom) and agrees
with ``scipy.stats.t.ppf`` to about 1e-11 relative.

    >>> s = summarize([10, -5, 20, 15, -10], big_blind=2)
    >>> s.total_chips, s.hands, s.chips_per_hand.mean
    (30, 5, 6.0)
    >>> s.verdict("A", "B")
    'not yet distinguishable: the 95% CI includes zero'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

__all__ = [
    "Interval",
    "RunningStats",
    "Summary",
    "duplicate_pairs",
    "mbb_per_hand",
    "mean_ci",
    "statistics_dict",
    "summarize",
    "summarize_duplicate",
    "summary_dict",
    "t_quantile",
]

_LARGE_DF = 1000.0  # above this, the Cornish-Fisher series is accurate to ~1e-13


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"A confidence level must lie strictly between 0 and 1, not {confidence}.")


def _check_big_blind(big_blind: int) -> None:
    if big_blind <= 0:
        raise ValueError(f"The big blind must be a positive number of chips, not {big_blind}.")


def _beta_cf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (modified Lentz method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            return h
    raise ArithmeticError(f"The incomplete beta continued fraction did not converge ({a}, {b}).")


def _t_upper_tail(t: float, df: float) -> float:
    """P(T > t) for t >= 0: half the regularized incomplete beta I_x(df/2, 1/2), x = df/(df+t²)."""
    a, b = df / 2.0, 0.5
    x, y = df / (df + t * t), t * t / (df + t * t)  # y = 1 - x without cancellation
    if y == 0.0:
        return 0.5
    log_x = math.log1p(-y) if y < 0.5 else math.log(df) - math.log(df + t * t)
    log_y = 2.0 * math.log(t) - math.log(df + t * t)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * log_x + b * log_y)
    if x < (a + 1.0) / (a + b + 2.0):
        return 0.5 * front * _beta_cf(a, b, x) / a
    return 0.5 * (1.0 - front * _beta_cf(b, a, y) / b)


def _t_density(t: float, df: float) -> float:
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(t * t / df))


def _t_upper_quantile(q: float, df: float) -> float:
    """The t with P(T > t) = q, for 0 < q <= 1/2."""
    z = -NormalDist().inv_cdf(q)
    if math.isinf(df):
        return z
    if df == 1.0:
        return 1.0 / math.tan(math.pi * q)
    if df > _LARGE_DF:  # Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5)
        z2 = z * z
        g = (
            (z2 + 1) * z / 4,
            ((5 * z2 + 16) * z2 + 3) * z / 96,
            (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384,
            ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160,
        )
        return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))
    # The t tail is heavier than the normal one, so z lies below the root; the tail is convex
    # for t > 0, so Newton's method from z rises monotonically to the root without overshooting
    # (a negative step can only be rounding noise at the root).
    t = z
    for _ in range(200):
        density = _t_density(t, df)
        if density == 0.0:  # only for tiny fractional df, whose quantiles exceed ~1e150
            raise ArithmeticError(f"The t quantile for q={q}, df={df} is out of float range.")
        step = (_t_upper_tail(t, df) - q) / density
        if step <= 1e-11 * t:  # quadratic convergence: the remaining error is far below this
            return t + max(step, 0.0)
        t += step
    raise ArithmeticError(f"The t quantile did not converge for q={q}, df={df}.")


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    ``df`` may be any positive number, or ``math.inf`` for the normal limit.

    >>> round(t_quantile(0.975, 10), 7)
    2.2281389
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"The probability p must be strictly between 0 and 1, not {p}.")
    if not df > 0:
        raise ValueError(f"The degrees of freedom must be positive, not {df}.")
    if p == 0.5:
        return 0.0
    return _t_upper_quantile(1.0 - p, df) if p > 0.5 else -_t_upper_quantile(p, df)


@dataclass(frozen=True)
class Interval:
    """A mean with its two-sided confidence interval ``[low, high]``.

    ``n`` is the number of samples and ``stderr`` the standard error of the mean.
    With fewer than two samples nothing is known about the spread, so ``low`` is
    ``-inf``, ``high`` is ``+inf`` and ``stderr`` is ``+inf``.
    """

    mean: float
    low: float
    high: float
    n: int
    stderr: float

    def excludes_zero(self) -> bool:
        """Whether zero lies strictly outside the interval."""
        return self.low > 0.0 or self.high < 0.0

    def scaled(self, factor: float) -> Interval:
        """The same interval for the quantity ``factor * x`` (``factor`` must be positive)."""
        if not factor > 0:
            raise ValueError(f"An interval can only be scaled by a positive factor, not {factor}.")
        return Interval(
            self.mean * factor, self.low * factor, self.high * factor, self.n, self.stderr * factor
        )


class RunningStats:
    """Streaming mean and variance (Welford's algorithm): memory is flat in the sample count.

    >>> rs = RunningStats()
    >>> for x in [1, 2, 3, 4, 5]:
    ...     rs.add(x)
    >>> rs.n, rs.mean, rs.variance
    (5, 3.0, 2.5)
    """

    def __init__(self, samples: Iterable[float] = ()) -> None:
        """Start with ``samples`` (by default none)."""
        self._n = 0
        self._mean = 0.0
        self._m2 = 0.0  # sum of squared deviations from the running mean
        for x in samples:
            self.add(x)

    def add(self, x: float) -> None:
        """Add one sample."""
        self._n += 1
        delta = x - self._mean
        self._mean += delta / self._n
        self._m2 += delta * (x - self._mean)

    @property
    def n(self) -> int:
        """The number of samples added so far."""
        return self._n

    @property
    def mean(self) -> float:
        """The sample mean; a ValueError if no sample has been added."""
        if self._n == 0:
            raise ValueError("The mean of no samples is undefined; add at least one sample.")
        return self._mean

    @property
    def variance(self) -> float:
        """The sample variance (denominator ``n - 1``); ``nan`` with fewer than two samples."""
        return self._m2 / (self._n - 1) if self._n >= 2 else math.nan

    def interval(self, confidence: float = 0.95) -> Interval:
        """The Student t confidence interval for the mean (see :func:`mean_ci`)."""
        _check_confidence(confidence)
        mean = self.mean
        if self._n < 2:
            return Interval(mean, -math.inf, math.inf, self._n, math.inf)
        stderr = math.sqrt(self.variance / self._n)
        half = t_quantile(0.5 + confidence / 2.0, self._n - 1) * stderr
        return Interval(mean, mean - half, mean + half, self._n, stderr)


def mean_ci(samples: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``samples`` with a two-sided Student t confidence interval.

    One sample gives the interval ``(-inf, +inf)``; no samples is a ValueError.

    >>> ci = mean_ci([1, 2, 3, 4, 5])
    >>> ci.mean, round(ci.low, 6), round(ci.high, 6)
    (3.0, 1.036757, 4.963243)
    """
    if len(samples) == 0:
        raise ValueError("A confidence interval needs at least one sample; none were given.")
    return RunningStats(samples).interval(confidence)


def mbb_per_hand(chips: float, hands: int, big_blind: int) -> float:
    """Milli-big-blinds per hand: ``1000 * chips / (big_blind * hands)``.

    >>> mbb_per_hand(300, 1000, 2)
    150.0
    """
    _check_big_blind(big_blind)
    if hands <= 0:
        raise ValueError(f"The number of hands must be positive, not {hands}.")
    return 1000.0 * chips / (big_blind * hands)


@dataclass(frozen=True)
class Summary:
    """A match from one bot's perspective: totals, and chips/hand and mbb/hand with CIs.

    For a duplicate match the intervals' ``n`` counts hand pairs, not hands.
    """

    total_chips: int
    hands: int
    big_blind: int
    confidence: float
    chips_per_hand: Interval
    mbb_per_hand: Interval

    @classmethod
    def from_stats(
        cls,
        stats: RunningStats,
        total_chips: int,
        big_blind: int,
        confidence: float = 0.95,
        hands_per_sample: int = 1,
    ) -> Summary:
        """Summarize streamed samples, each worth ``hands_per_sample`` hands (2 for a pair).

        The per-hand interval is the per-sample one divided by ``hands_per_sample``.
        """
        _check_big_blind(big_blind)
        if stats.n == 0:
            raise ValueError("A match summary needs at least one hand; none were recorded.")
        per_hand = stats.interval(confidence).scaled(1.0 / hands_per_sample)
        mbb = per_hand.scaled(1000.0 / big_blind)
        hands = stats.n * hands_per_sample
        return cls(total_chips, hands, big_blind, confidence, per_hand, mbb)

    def verdict(self, name_a: str, name_b: str) -> str:
        """Who is ahead, for the bot these deltas belong to (``name_a``) against ``name_b``."""
        level = f"{self.confidence * 100:g}%"
        if self.chips_per_hand.low > 0:
            return f"{name_a} is ahead of {name_b}: {level} CI excludes zero"
        if self.chips_per_hand.high < 0:
            return f"{name_b} is ahead of {name_a}: {level} CI excludes zero"
        return f"not yet distinguishable: the {level} CI includes zero"


def summarize(deltas: Sequence[int], big_blind: int, confidence: float = 0.95) -> Summary:
    """Summarize per-hand chip deltas (one bot's perspective); each hand is one sample."""
    return Summary.from_stats(RunningStats(deltas), sum(deltas), big_blind, confidence)


def duplicate_pairs(first_half: Sequence[int], second_half: Sequence[int]) -> list[int]:
    """Per-hand pair sums of a duplicate match: ``first_half[i] + second_half[i]``.

    Both halves are from the same bot's perspective; hand ``i`` of the second half
    replays the cards of hand ``i`` of the first with the seats swapped.

    >>> duplicate_pairs([5, -3], [-5, 4])
    [0, 1]
    """
    if len(first_half) != len(second_half):
        raise ValueError(
            f"The halves of a duplicate match must have the same number of hands, "
            f"not {len(first_half)} and {len(second_half)}."
        )
    return [a + b for a, b in zip(first_half, second_half, strict=True)]


def summarize_duplicate(
    first_half: Sequence[int], second_half: Sequence[int], big_blind: int, confidence: float = 0.95
) -> Summary:
    """Summarize a duplicate match, treating each hand PAIR as one sample.

    The two hands of a pair share cards, so they are not independent: the CI is
    computed over the pair sums, and the per-hand mean and CI are the pair ones
    divided by 2.  ``hands`` counts both halves; the intervals' ``n`` counts pairs.
    """
    pairs = duplicate_pairs(first_half, second_half)
    return Summary.from_stats(RunningStats(pairs), sum(pairs), big_blind, confidence, 2)


# -- JSON forms (summary.json, tournament results) ---------------------------------


def _finite(value: float) -> float | None:
    """``value`` rounded for JSON, or None when it is infinite (JSON has no infinity)."""
    return round(value, 6) if math.isfinite(value) else None


def _interval_dict(interval: Interval) -> dict[str, float | None]:
    return {
        "mean": _finite(interval.mean),
        "low": _finite(interval.low),
        "high": _finite(interval.high),
    }


def summary_dict(summary: Summary) -> dict[str, Any]:
    """A summary as JSON: chips, hands, samples, and both intervals (None for infinite ends)."""
    return {
        "chips": summary.total_chips,
        "hands": summary.hands,
        "samples": summary.chips_per_hand.n,
        "chips_per_hand": _interval_dict(summary.chips_per_hand),
        "mbb_per_hand": _interval_dict(summary.mbb_per_hand),
    }


def statistics_dict(
    names: Sequence[str], summaries: Sequence[Summary], duplicate: bool = False
) -> dict[str, Any]:
    """The ``statistics`` object of a match: each player's summary and the verdict."""
    return {
        "confidence": summaries[0].confidence,
        "sample": "hand pair" if duplicate else "hand",
        "players": [
            {"name": name, **summary_dict(summary)}
            for name, summary in zip(names, summaries, strict=True)
        ],
        "verdict": table_verdict(names, summaries),
    }


def table_verdict(names: Sequence[str], summaries: Sequence[Summary]) -> str:
    """Heads-up, who is ahead of whom; at a larger table, who is ahead of or behind the
    table (each player's interval against zero)."""
    if len(names) == 2:
        return summaries[0].verdict(names[0], names[1])
    level = f"{summaries[0].confidence * 100:g}%"
    ahead = [n for n, s in zip(names, summaries, strict=True) if s.chips_per_hand.low > 0]
    behind = [n for n, s in zip(names, summaries, strict=True) if s.chips_per_hand.high < 0]
    if not ahead and not behind:
        return f"not yet distinguishable: every player's {level} CI includes zero"
    parts = []
    if ahead:
        parts.append(f"{', '.join(ahead)} ahead of the table")
    if behind:
        parts.append(f"{', '.join(behind)} behind it")
    return f"{' and '.join(parts)}: {level} CI excludes zero"
