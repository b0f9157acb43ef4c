"""The one result of a table: its legs, each bot's samples, and what they mean.

A table is played as one or more *legs* over the same seeded deals: a single match is one
leg; a duplicate match is two legs heads-up (the halves) and six three-handed, the bots
reseated and restarted between legs.  :class:`TableResult` holds the legs (each an
engine :class:`~local_runner.engine.records.MatchResult`, players in that leg's seat
order) and, per bot, the exact moments of its samples: one sample per hand in a single
match, one per deal played in every leg in a duplicate match.  Everyone who reads a result
(the command line, the tournament, the report, validate, a notebook) reads this one shape;
only :meth:`TableResult.to_dict` knows that the two kinds write differently shaped
``summary.json`` files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sdk.rules import Rules

from ..engine.faults import FaultKind
from ..engine.records import MatchResult, PlayerResult
from .stats import Moments, Summary, statistics_dict, table_verdict

__all__ = ["BankrollCurve", "TableResult"]


class BankrollCurve:
    """Each bot's running bankroll over the hands, kept in flat memory for a chart.

    At most ``2 * points`` points are kept per bot: when the store fills, every second
    point is dropped and the spacing doubles, so a match of any length costs the same.

    >>> curve = BankrollCurve(2, points=4)
    >>> for delta in (5, -5, 10, 10, -20, 5, 5, 5, 5, 5):
    ...     curve.add((delta, -delta))
    >>> curve.hands, curve.step
    (10, 2)
    >>> curve.series()[0]
    [(0, 0), (2, 0), (4, 20), (6, 5), (8, 15), (10, 25)]
    """

    def __init__(self, bots: int, points: int = 400) -> None:
        """An empty curve for ``bots`` bots, keeping between ``points`` and twice as many."""
        self._limit = 2 * points
        self.step = 1
        self.hands = 0
        self._totals = [0] * bots
        self._kept: list[list[int]] = [[0] for _ in range(bots)]
        self._at: list[int] = [0]

    def add(self, deltas: Sequence[int]) -> None:
        """One more hand: each bot's chips won or lost in it, in bot order."""
        self.hands += 1
        totals = self._totals
        for bot, delta in enumerate(deltas):
            totals[bot] += delta
        if self.hands % self.step:
            return
        self._at.append(self.hands)
        for bot, kept in enumerate(self._kept):
            kept.append(totals[bot])
        if len(self._at) > self._limit:
            self.step *= 2
            self._at = self._at[::2]
            self._kept = [kept[::2] for kept in self._kept]

    def series(self) -> list[list[tuple[int, int]]]:
        """Per bot, the ``(hand, bankroll)`` points kept, ending at the last hand played."""
        out = []
        for bot, kept in enumerate(self._kept):
            points = list(zip(self._at, kept, strict=True))
            if points[-1][0] != self.hands:
                points.append((self.hands, self._totals[bot]))
            out.append(points)
        return out


@dataclass(frozen=True, slots=True)
class TableResult:
    """The result of one table, whatever kind: a single match is one leg.

    ``names[b]`` is the ``b``-th bot given; ``orders[leg][slot]`` is the bot sitting in
    ``slot`` in that leg (one order for a single match, every seating of
    :func:`~local_runner.engine.seating.duplicate_orders` for a duplicate); ``legs`` are the
    legs played (fewer than ``orders`` after Ctrl-C, or when a bot did not start).
    ``moments[b]`` are bot ``b``'s exact moments over its samples, and ``directories[leg]``
    the subfolder of the run holding that leg's logs (``""``: the run folder itself).
    """

    names: tuple[str, ...]
    legs: tuple[MatchResult, ...]
    orders: tuple[tuple[int, ...], ...]
    moments: tuple[Moments, ...]
    interrupted: bool
    directories: tuple[str, ...] = ("",)
    curve: BankrollCurve | None = field(default=None, compare=False, repr=False)
    """Each bot's bankroll over the hands (all legs in the order played), for charts."""
    clock: Mapping[str, Any] | None = field(default=None, compare=False)
    """The game clock and where it came from, as ``summary.json``'s ``clock`` records it
    (:meth:`~local_runner.tables.config.ScrimmageConfig.clock_dict`); None: not recorded."""

    @property
    def duplicate(self) -> bool:
        """Whether the deals were played in more than one seating."""
        return len(self.orders) > 1

    @property
    def rules(self) -> Rules:
        """The rules of the game played."""
        return self.legs[0].rules

    @property
    def seed(self) -> int:
        """The seed of the deals (the same in every leg)."""
        return self.legs[0].seed

    @property
    def hands_per_sample(self) -> int:
        """How many hands one sample covers: 1, or the number of seatings of a duplicate."""
        return len(self.orders)

    @property
    def samples(self) -> int:
        """Complete samples: hands of a single match, deals played in every leg otherwise."""
        return self.moments[0].n

    @property
    def sample_name(self) -> str:
        """What one sample is called: ``hand``, ``hand pair`` or ``deal group``."""
        if not self.duplicate:
            return "hand"
        return "hand pair" if len(self.names) == 2 else "deal group"

    @property
    def hands_played(self) -> int:
        """Hands played over every leg."""
        return sum(leg.hands_played for leg in self.legs)

    @property
    def wall_seconds(self) -> float:
        """Seconds of wall time over every leg."""
        return sum(leg.wall_seconds for leg in self.legs)

    @property
    def players(self) -> tuple[PlayerResult, ...]:
        """Each bot's result in a single match, in bot order (the leg's own order).

        A duplicate match has a result per leg: ask :meth:`player` for ``(leg, bot)``.
        """
        if self.duplicate:
            raise AttributeError(
                "A duplicate match has a result per leg and bot: use result.player(leg, bot), "
                "result.bankrolls or result.fault_counts(bot)."
            )
        return self.legs[0].players

    def player(self, leg: int, bot: int) -> PlayerResult:
        """Bot ``bot``'s result in leg ``leg`` (both from 0): the legs reseat the bots."""
        return self.legs[leg].players[self.orders[leg].index(bot)]

    def results_of(self, bot: int) -> list[PlayerResult]:
        """Bot ``bot``'s result in each leg played."""
        return [self.player(leg, bot) for leg in range(len(self.legs))]

    @property
    def bankrolls(self) -> tuple[int, ...]:
        """Each bot's chips over every leg played."""
        return tuple(
            sum(r.bankroll for r in self.results_of(bot)) for bot in range(len(self.names))
        )

    def fault_counts(self, bot: int) -> dict[FaultKind, int]:
        """Bot ``bot``'s faults of each kind over every leg (kinds with none left out)."""
        counts: dict[FaultKind, int] = {}
        for result in self.results_of(bot):
            for kind, count in result.fault_counts.items():
                if count:
                    counts[kind] = counts.get(kind, 0) + count
        return counts

    def forfeit(self, bot: int) -> str | None:
        """Why bot ``bot`` did not play (failed to build, never connected), or None."""
        reasons = (r.start_failure for r in self.results_of(bot))
        return next((reason for reason in reasons if reason is not None), None)

    @property
    def not_started(self) -> list[tuple[int, PlayerResult]]:
        """``(leg, player)`` for every player that failed to build or never connected."""
        return [
            (index, player)
            for index, leg in enumerate(self.legs)
            for player in leg.players
            if player.start_failure is not None
        ]

    def summaries(self, confidence: float = 0.95) -> tuple[Summary, ...] | None:
        """Each bot's chips and mbb/hand with a confidence interval; None without a sample."""
        if self.samples == 0:
            return None
        big_blind = self.rules.big_blind
        return tuple(
            moments.summary(big_blind, self.hands_per_sample, confidence)
            for moments in self.moments
        )

    def verdict(self, confidence: float = 0.95) -> str | None:
        """The plain verdict (``A is ahead of B: 95% CI excludes zero``); None without samples."""
        summaries = self.summaries(confidence)
        return None if summaries is None else table_verdict(self.names, summaries)

    def statistics(self) -> dict[str, Any] | None:
        """The ``statistics`` object of ``summary.json``: summaries and verdict, or None."""
        summaries = self.summaries()
        if summaries is None:
            return None
        sample = "deal group" if self.sample_name == "deal group" else None
        return statistics_dict(self.names, summaries, self.duplicate, sample)

    def to_dict(self) -> dict[str, Any]:
        """The content of the table's ``summary.json``.

        A single match writes its leg's summary with the ``statistics``; a duplicate match
        names its legs and samples (heads-up ``halves`` and ``pairs``; three-handed ``legs``
        and ``groups``) and sums each bot's results over them.
        """
        clock = {} if self.clock is None else {"clock": dict(self.clock)}
        if not self.duplicate:
            return {**self.legs[0].to_dict(), "statistics": self.statistics(), **clock}
        first = self.legs[0]
        heads_up = len(self.names) == 2
        legs_key, count_key = ("halves", "pairs") if heads_up else ("legs", "groups")
        players = []
        for bot, name in enumerate(self.names):
            results = self.results_of(bot)
            counts = self.fault_counts(bot)
            players.append(
                {
                    "name": name,
                    "bankroll": self.bankrolls[bot],
                    legs_key: [r.bankroll for r in results],
                    "time_used": round(sum(r.time_used for r in results), 6),
                    "decisions": sum(r.decisions for r in results),
                    "faults": {kind.value: counts.get(kind, 0) for kind in FaultKind},
                }
            )
        return {
            "duplicate": True,
            "variant": first.rules.variant,
            "rules": first.rules.to_dict(),
            "seed": first.seed,
            "rounds": self.hands_played,
            count_key: self.samples,
            "rounds_scheduled": len(self.orders) * first.rules.num_rounds,
            "interrupted": self.interrupted,
            "wall_seconds": round(self.wall_seconds, 3),
            legs_key: [
                {
                    "directory": directory,
                    "players": [player.name for player in leg.players],
                    "bankrolls": [player.bankroll for player in leg.players],
                    "rounds": leg.hands_played,
                }
                for directory, leg in zip(self.directories, self.legs, strict=False)
            ],
            "players": players,
            "statistics": self.statistics(),
            **clock,
        }

    def _repr_html_(self) -> str:
        """The result as a notebook shows it: the table, the intervals, the verdict, the chart."""
        from .notebook import table_html

        return table_html(self)
