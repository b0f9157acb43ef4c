"""Honest match statistics: means with Student t confidence intervals, in mbb/hand.

A poker match is noisy, so a bare chip total says little.  These functions report
the mean result per hand with a confidence interval (CI) and say whether that CI
excludes zero.  Everything is standard library only.

Every interval the kit reports comes from one engine, :class:`Moments`: exact sums
(count, sum, sum of squares) of the samples, in integers for chip deltas, so partial
results merge in any order with the same outcome and only the last division rounds.
The Student t quantile is :func:`local_runner.results.tdist.t_quantile`.

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
from fractions import Fraction
from typing import Any

from .tdist import t_quantile

__all__ = [
    "Interval",
    "Moments",
    "RunningStats",
    "Summary",
    "ci_sentence",
    "duplicate_pairs",
    "mbb_per_hand",
    "mean_ci",
    "statistics_dict",
    "summarize",
    "summarize_duplicate",
    "summary_dict",
    "t_quantile",
    "table_verdict",
]


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"A confidence level must lie strictly between 0 and 1, not {confidence}.")


def _check_big_blind(big_blind: int) -> None:
    if big_blind <= 0:
        raise ValueError(f"The big blind must be a positive number of chips, not {big_blind}.")


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


#: An exact sample: chips are integers; a float sample is held as the Fraction it equals.
Exact = int | Fraction


@dataclass(slots=True)
class Moments:
    """Exact moments of samples: count, sum and sum of squares.

    The one moments engine behind every interval.  Integer samples (chip deltas) keep
    integer sums; a float sample is added as the exact :class:`~fractions.Fraction` it
    equals.  Unlike a floating-point running mean, two :class:`Moments` merge exactly,
    so a tournament's intervals are the same whatever order its matches end in.

    >>> m = Moments.of([10, -5, 20, 15, -10])
    >>> s = m.summary(big_blind=2)
    >>> s.total_chips, s.hands, s.chips_per_hand.mean
    (30, 5, 6.0)
    """

    n: int = 0
    total: Exact = 0
    total_sq: Exact = 0

    @classmethod
    def of(cls, samples: Iterable[float]) -> Moments:
        """The moments of ``samples``."""
        moments = cls()
        for x in samples:
            moments.add(x)
        return moments

    def add(self, x: float) -> None:
        """Add one sample (a float exactly, as the fraction it equals)."""
        exact: Exact = x if isinstance(x, int) else Fraction(x)
        self.n += 1
        self.total += exact
        self.total_sq += exact * exact

    def merged(self, other: Moments) -> Moments:
        """The moments of both sample sets together (neither operand changes)."""
        return Moments(self.n + other.n, self.total + other.total, self.total_sq + other.total_sq)

    @property
    def mean(self) -> float:
        """The sample mean, rounded once; a ValueError without samples."""
        if self.n == 0:
            raise ValueError("The mean of no samples is undefined; add at least one sample.")
        return _ratio(self.total, self.n)

    @property
    def variance(self) -> float:
        """The sample variance (denominator ``n - 1``), rounded once; ``nan`` below two samples."""
        if self.n < 2:
            return math.nan
        # n * sum(x^2) - sum(x)^2 is exact; only the last division rounds.
        return _ratio(self.n * self.total_sq - self.total * self.total, self.n * (self.n - 1))

    def interval(self, confidence: float = 0.95) -> Interval:
        """The mean with its two-sided Student t confidence interval.

        Fewer than two samples give the interval ``(-inf, +inf)``; none is a ValueError.
        """
        _check_confidence(confidence)
        mean = self.mean
        if self.n < 2:
            return Interval(mean, -math.inf, math.inf, self.n, math.inf)
        stderr = math.sqrt(max(self.variance, 0.0) / self.n)
        half = t_quantile(0.5 + confidence / 2.0, self.n - 1) * stderr
        return Interval(mean, mean - half, mean + half, self.n, stderr)

    def summary(
        self, big_blind: int, hands_per_sample: int = 1, confidence: float = 0.95
    ) -> Summary:
        """A :class:`Summary` of integer samples; each sample is ``hands_per_sample`` hands."""
        return Summary.from_stats(self, int(self.total), big_blind, confidence, hands_per_sample)

    def to_list(self) -> list[int]:
        """``[n, total, total_sq]`` for JSON (integer samples only)."""
        if not isinstance(self.total, int) or not isinstance(self.total_sq, int):
            raise ValueError("Only the moments of integer samples are written as JSON.")
        return [self.n, self.total, self.total_sq]

    @classmethod
    def from_list(cls, values: Sequence[int]) -> Moments:
        """The inverse of :meth:`to_list`."""
        n, total, total_sq = (int(v) for v in values)
        return cls(n, total, total_sq)


def _ratio(numerator: Exact, denominator: int) -> float:
    """``numerator / denominator`` rounded once (int / int is correctly rounded, as is a
    Fraction's conversion)."""
    if isinstance(numerator, int):
        return numerator / denominator
    return float(numerator / denominator)


class RunningStats:
    """Streaming mean and variance over any numbers: a thin view of :class:`Moments`.

    Memory is flat in the sample count; the results are exact up to one final rounding.

    >>> rs = RunningStats()
    >>> for x in [1, 2, 3, 4, 5]:
    ...     rs.add(x)
    >>> rs.n, rs.mean, rs.variance
    (5, 3.0, 2.5)
    """

    def __init__(self, samples: Iterable[float] = ()) -> None:
        """Start with ``samples`` (by default none)."""
        self.moments = Moments.of(samples)

    def add(self, x: float) -> None:
        """Add one sample."""
        self.moments.add(x)

    @property
    def n(self) -> int:
        """The number of samples added so far."""
        return self.moments.n

    @property
    def mean(self) -> float:
        """The sample mean; a ValueError if no sample has been added."""
        return self.moments.mean

    @property
    def variance(self) -> float:
        """The sample variance (denominator ``n - 1``); ``nan`` with fewer than two samples."""
        return self.moments.variance

    def interval(self, confidence: float = 0.95) -> Interval:
        """The Student t confidence interval for the mean (see :meth:`Moments.interval`)."""
        return self.moments.interval(confidence)


def mean_ci(samples: Sequence[float], confidence: float = 0.95) -> Interval:
    """The mean of ``samples`` with a two-sided Student t confidence interval.

    One sample gives the interval ``(-inf, +inf)``; no samples is a ValueError.

    >>> ci = mean_ci([1, 2, 3, 4, 5])
    >>> ci.mean, round(ci.low, 6), round(ci.high, 6)
    (3.0, 1.036757, 4.963243)
    """
    if len(samples) == 0:
        raise ValueError("A confidence interval needs at least one sample; none were given.")
    return Moments.of(samples).interval(confidence)


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
        stats: Moments | RunningStats,
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
    return Moments.of(deltas).summary(big_blind, 1, confidence)


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
    return Moments.of(duplicate_pairs(first_half, second_half)).summary(big_blind, 2, confidence)


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
    names: Sequence[str],
    summaries: Sequence[Summary],
    duplicate: bool = False,
    sample: str | None = None,
) -> dict[str, Any]:
    """The ``statistics`` object of a match: each player's summary and the verdict.

    ``sample`` names one sample (default: ``hand pair`` if ``duplicate``, else ``hand``).
    """
    return {
        "confidence": summaries[0].confidence,
        "sample": sample or ("hand pair" if duplicate else "hand"),
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
        parts.append(f"{', '.join(behind)} behind {'it' if ahead else 'the table'}")
    whose = (
        f"its {level} CI excludes"
        if len(ahead) + len(behind) == 1
        else f"their {level} CIs exclude"
    )
    return f"{' and '.join(parts)}: {whose} zero"


def _signed(value: float) -> str:
    return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def ci_sentence(
    name: str, summary: Summary, duplicate: bool = False, samples: str | None = None
) -> str:
    """One line for people, e.g. ``A: +120 chips, +60.0 mbb/hand (95% CI -12.3 to +132.3)``.

    ``samples`` names the samples in the plural (default: ``hand pairs`` if ``duplicate``,
    else ``hands``).
    """
    mbb = summary.mbb_per_hand
    level = f"{summary.confidence * 100:g}%"
    unit = samples or ("hand pairs" if duplicate else "hands")
    return (
        f"{name}: {summary.total_chips:+d} chips, {_signed(mbb.mean)} mbb/hand "
        f"({level} CI {_signed(mbb.low)} to {_signed(mbb.high)}, over {mbb.n} {unit})"
    )
