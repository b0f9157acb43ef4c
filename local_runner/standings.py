"""Honest results for people: chips, mbb/hand with confidence intervals, and verdicts.

The scrimmage, duplicate and tournament layers all report a bot's result the
same way: total chips, the mean per hand in chips and in milli-big-blinds per
hand, each with a 95% Student t confidence interval (:mod:`local_runner.stats`),
and a plain verdict.  A sample is one hand, or one hand *pair* in a duplicate
match (the two hands of a pair share cards, so they are not independent).

Samples are kept as exact integer moments (:class:`Moments`: count, sum, sum of
squares), so memory is flat, partial results merge in any order with the same
outcome, and a tournament's table does not depend on which match finished first.

    >>> m = Moments.of([10, -5, 20, 15, -10])
    >>> s = m.summary(big_blind=2)
    >>> s.total_chips, s.hands, s.chips_per_hand.mean
    (30, 5, 6.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .rankings import MatchOutcome, RankEntry, bankroll_ranking, instant_runoff_ranking
from .records import HandRecord
from .seating import seat_of
from .stats import Interval, Summary, statistics_dict, summary_dict, t_quantile

__all__ = [
    "BotStats",
    "MatchStats",
    "MatchSummary",
    "Moments",
    "PairStats",
    "Standings",
    "ci_sentence",
    "compute_standings",
    "slot_deltas",
    "statistics_dict",
    "summary_dict",
]


def slot_deltas(record: HandRecord) -> tuple[int, ...]:
    """A hand's chip deltas in match order (the first player's first); the record itself is
    in seat order, and who sits where is :mod:`local_runner.seating`'s rule."""
    seats = len(record.deltas)
    return tuple(record.deltas[seat_of(slot, record.number, seats)] for slot in range(seats))


@dataclass(slots=True)
class Moments:
    """Exact integer moments of integer samples: count, sum and sum of squares.

    Unlike a floating-point running mean, two :class:`Moments` merge exactly, so
    the intervals of a tournament are the same whatever order its matches end in.
    """

    n: int = 0
    total: int = 0
    total_sq: int = 0

    @classmethod
    def of(cls, samples: Iterable[int]) -> Moments:
        """The moments of ``samples``."""
        moments = cls()
        for x in samples:
            moments.add(x)
        return moments

    def add(self, x: int) -> None:
        """Add one sample."""
        self.n += 1
        self.total += x
        self.total_sq += x * x

    def merged(self, other: Moments) -> Moments:
        """The moments of both sample sets together (neither operand changes)."""
        return Moments(self.n + other.n, self.total + other.total, self.total_sq + other.total_sq)

    def interval(self, confidence: float = 0.95) -> Interval:
        """The mean with its Student t confidence interval, as :meth:`RunningStats.interval`.

        Fewer than two samples give the interval ``(-inf, +inf)``; none is a ValueError.
        """
        if not 0.0 < confidence < 1.0:
            raise ValueError(
                f"A confidence level must lie strictly between 0 and 1, not {confidence}."
            )
        if self.n == 0:
            raise ValueError("The mean of no samples is undefined; add at least one sample.")
        mean = self.total / self.n
        if self.n < 2:
            return Interval(mean, -math.inf, math.inf, self.n, math.inf)
        # n * sum(x^2) - sum(x)^2 is exact in integers; only the last division rounds.
        variance = (self.n * self.total_sq - self.total * self.total) / (self.n * (self.n - 1))
        stderr = math.sqrt(max(variance, 0.0) / self.n)
        half = t_quantile(0.5 + confidence / 2.0, self.n - 1) * stderr
        return Interval(mean, mean - half, mean + half, self.n, stderr)

    def summary(
        self, big_blind: int, hands_per_sample: int = 1, confidence: float = 0.95
    ) -> Summary:
        """A :class:`~local_runner.stats.Summary`; each sample is ``hands_per_sample`` hands."""
        if big_blind <= 0:
            raise ValueError(f"The big blind must be a positive number of chips, not {big_blind}.")
        per_hand = self.interval(confidence).scaled(1.0 / hands_per_sample)
        mbb = per_hand.scaled(1000.0 / big_blind)
        return Summary(
            self.total, self.n * hands_per_sample, big_blind, confidence, per_hand, mbb
        )

    def to_list(self) -> list[int]:
        """``[n, total, total_sq]`` for JSON."""
        return [self.n, self.total, self.total_sq]

    @classmethod
    def from_list(cls, values: Sequence[int]) -> Moments:
        """The inverse of :meth:`to_list`."""
        n, total, total_sq = (int(v) for v in values)
        return cls(n, total, total_sq)


class MatchStats:
    """A hand observer (``on_hand``) keeping each player's per-hand moments, in match order.

    Memory is flat in the number of hands.
    """

    def __init__(self, players: int = 2) -> None:
        """Start with no hands, for ``players`` players."""
        self.players = tuple(Moments() for _ in range(players))

    def __call__(self, record: HandRecord) -> None:
        """Add one finished hand."""
        for moments, delta in zip(self.players, slot_deltas(record), strict=True):
            moments.add(delta)

    def summaries(self, big_blind: int) -> tuple[Summary, ...] | None:
        """Each player's summary, or None before the first hand."""
        if self.players[0].n == 0:
            return None
        return tuple(moments.summary(big_blind) for moments in self.players)


def _signed(value: float) -> str:
    return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def ci_sentence(name: str, summary: Summary, duplicate: bool = False) -> str:
    """One line for people, e.g. ``A: +120 chips, +60.0 mbb/hand (95% CI -12.3 to +132.3)``."""
    mbb = summary.mbb_per_hand
    level = f"{summary.confidence * 100:g}%"
    unit = "hand pairs" if duplicate else "hands"
    return (
        f"{name}: {summary.total_chips:+d} chips, {_signed(mbb.mean)} mbb/hand "
        f"({level} CI {_signed(mbb.low)} to {_signed(mbb.high)}, over {mbb.n} {unit})"
    )


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """What a finished tournament match reports back: small, picklable and JSON-able.

    ``players`` are in match order (the first player is the dealer in odd hands
    of the first half).  ``moments`` are each player's per-sample moments: one
    sample per hand, or per hand pair when ``duplicate`` is True.
    """

    match_id: str
    players: tuple[str, str]
    seed: int
    duplicate: bool
    chips: tuple[int, int]
    hands: int
    moments: tuple[Moments, Moments]
    faults: tuple[dict[str, int], dict[str, int]] = ({}, {})
    wall_seconds: float = 0.0
    interrupted: bool = False
    log_dir: str = ""
    host: str = ""
    forfeits: tuple[str | None, str | None] = (None, None)
    """Per player: why it forfeited (failed to build or never connected; every decision of
    its was then played by default), or None when it played."""

    def to_dict(self) -> dict[str, Any]:
        """One line of ``matches.jsonl``."""
        return {
            "id": self.match_id,
            "players": list(self.players),
            "seed": self.seed,
            "duplicate": self.duplicate,
            "chips": list(self.chips),
            "hands": self.hands,
            "moments": [m.to_list() for m in self.moments],
            "faults": [dict(f) for f in self.faults],
            "wall_seconds": round(self.wall_seconds, 3),
            "interrupted": self.interrupted,
            "log_dir": self.log_dir,
            "host": self.host,
            "forfeits": list(self.forfeits),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchSummary:
        """The inverse of :meth:`to_dict`; a KeyError, TypeError or ValueError if malformed."""
        first, second = data["players"]
        chips_a, chips_b = data["chips"]
        moments_a, moments_b = data["moments"]
        faults_a, faults_b = data.get("faults", [{}, {}])
        return cls(
            match_id=str(data["id"]),
            players=(str(first), str(second)),
            seed=int(data["seed"]),
            duplicate=bool(data["duplicate"]),
            chips=(int(chips_a), int(chips_b)),
            hands=int(data["hands"]),
            moments=(Moments.from_list(moments_a), Moments.from_list(moments_b)),
            faults=(
                {str(k): int(v) for k, v in faults_a.items()},
                {str(k): int(v) for k, v in faults_b.items()},
            ),
            wall_seconds=float(data.get("wall_seconds", 0.0)),
            interrupted=bool(data.get("interrupted", False)),
            log_dir=str(data.get("log_dir", "")),
            host=str(data.get("host", "")),
            forfeits=_forfeits(data.get("forfeits", [None, None])),
        )

    def outcome(self) -> MatchOutcome:
        """The match as a ranking input."""
        return MatchOutcome(self.players, self.chips)


def _forfeits(value: Any) -> tuple[str | None, str | None]:
    """The ``forfeits`` pair of a ``matches.jsonl`` line (absent in older files)."""
    first, second = value
    return (None if first is None else str(first), None if second is None else str(second))


@dataclass(frozen=True, slots=True)
class PairStats:
    """What ``bot`` won against ``opponent`` over their matches, with an interval."""

    bot: str
    opponent: str
    chips: int
    matches: int
    hands: int
    summary: Summary | None
    """None when no hand was played."""

    @property
    def verdict(self) -> str:
        """A plain verdict between the two bots."""
        if self.summary is None:
            return "no hands played yet"
        return self.summary.verdict(self.bot, self.opponent)


@dataclass(frozen=True, slots=True)
class BotStats:
    """A bot's result over all of its matches: chips and mbb/hand with an interval."""

    bot: str
    chips: int
    matches: int
    hands: int
    summary: Summary | None


@dataclass(frozen=True, slots=True)
class Standings:
    """A tournament's rankings, cross table and per-bot results (from finished matches)."""

    bankroll: list[RankEntry]
    instant_runoff: list[RankEntry]
    cross: dict[str, dict[str, PairStats]]
    bots: dict[str, BotStats]
    duplicate: bool = False
    matches: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Rankings, cross table and per-bot results as JSON."""

        def entries(ranking: list[RankEntry]) -> list[dict[str, Any]]:
            return [
                {"rank": e.rank, "bot": e.bot, "bankroll": e.bankroll, "matches": e.matches}
                for e in ranking
            ]

        def stats(summary: Summary | None) -> dict[str, Any] | None:
            return None if summary is None else summary_dict(summary)

        return {
            "rankings": {
                "bankroll": entries(self.bankroll),
                "instant_runoff": entries(self.instant_runoff),
            },
            "cross_table": {
                row: {
                    col: {
                        "chips": pair.chips,
                        "matches": pair.matches,
                        "hands": pair.hands,
                        "statistics": stats(pair.summary),
                        "verdict": pair.verdict,
                    }
                    for col, pair in cols.items()
                }
                for row, cols in self.cross.items()
            },
            "bots": {
                name: {
                    "chips": bot.chips,
                    "matches": bot.matches,
                    "hands": bot.hands,
                    "statistics": stats(bot.summary),
                }
                for name, bot in self.bots.items()
            },
        }


def compute_standings(
    bots: Sequence[str], matches: Sequence[MatchSummary], big_blind: int, duplicate: bool
) -> Standings:
    """Rank ``bots`` by total bankroll and by bankroll instant run-off over ``matches``.

    Bots without a finished match rank with bankroll 0.  The cross table has a
    cell for every ordered pair of different bots, filled from its matches.
    """
    per_sample = 2 if duplicate else 1
    outcomes = [match.outcome() for match in matches]
    pair_moments: dict[tuple[str, str], Moments] = {}
    pair_counts: dict[tuple[str, str], tuple[int, int, int]] = {}
    for match in matches:
        for i in (0, 1):
            key = (match.players[i], match.players[1 - i])
            pair_moments[key] = pair_moments.get(key, Moments()).merged(match.moments[i])
            chips, count, hands = pair_counts.get(key, (0, 0, 0))
            pair_counts[key] = (chips + match.chips[i], count + 1, hands + match.hands)

    def summary_of(moments: Moments) -> Summary | None:
        return moments.summary(big_blind, per_sample) if moments.n else None

    cross: dict[str, dict[str, PairStats]] = {}
    bot_stats: dict[str, BotStats] = {}
    for bot in sorted(bots):
        row: dict[str, PairStats] = {}
        total = Moments()
        chips_sum = match_sum = hand_sum = 0
        for opponent in sorted(bots):
            if opponent == bot:
                continue
            moments = pair_moments.get((bot, opponent), Moments())
            chips, count, hands = pair_counts.get((bot, opponent), (0, 0, 0))
            row[opponent] = PairStats(bot, opponent, chips, count, hands, summary_of(moments))
            total = total.merged(moments)
            chips_sum, match_sum, hand_sum = chips_sum + chips, match_sum + count, hand_sum + hands
        cross[bot] = row
        bot_stats[bot] = BotStats(bot, chips_sum, match_sum, hand_sum, summary_of(total))
    return Standings(
        bankroll_ranking(outcomes, bots),
        instant_runoff_ranking(outcomes, bots),
        cross,
        bot_stats,
        duplicate,
        len(matches),
    )
