"""A tournament's standings: rankings, the cross table or group table, per-bot intervals.

The scrimmage, duplicate and tournament layers all report a bot's result the
same way: total chips, the mean per hand in chips and in milli-big-blinds per
hand, each with a 95% Student t confidence interval, and a plain verdict.  A
sample is one hand, or, in a duplicate match, one deal played in every leg (a hand
*pair* heads-up, six hands three-handed), whose hands share cards and so are not
independent.

Samples are kept as exact integer moments (:class:`~local_runner.results.stats.Moments`, the
one moments engine), so memory is flat, partial results merge in any order with the
same outcome, and a tournament's table does not depend on which match finished first.

This module computes the standings; the pieces it builds on have their own modules
and are importable from here as well: :mod:`local_runner.results.stats` (``Moments``,
``ci_sentence``, ``statistics_dict``, ``summary_dict``), :mod:`local_runner.results.match_stats`
(``MatchStats``, ``slot_deltas``) and :mod:`local_runner.results.match_summary`
(``MatchSummary``).

    >>> m = Moments.of([10, -5, 20, 15, -10])
    >>> s = m.summary(big_blind=2)
    >>> s.total_chips, s.hands, s.chips_per_hand.mean
    (30, 5, 6.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.seating import duplicate_orders
from .match_stats import MatchStats, slot_deltas
from .match_summary import MatchSummary
from .rankings import RankEntry, bankroll_ranking, instant_runoff_ranking
from .stats import Moments, Summary, ci_sentence, statistics_dict, summary_dict

__all__ = [
    "BotStats",
    "GroupStats",
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
class GroupStats:
    """One group of bots that share a table (a 3-seat game): what each won there.

    ``bots`` are in the tournament's order; ``chips[i]`` and ``summaries[i]`` are those of
    ``bots[i]`` over the group's matches (a summary is None before any hand).
    """

    bots: tuple[str, ...]
    matches: int
    hands: int
    chips: tuple[int, ...]
    summaries: tuple[Summary | None, ...]


def _stats(summary: Summary | None) -> dict[str, Any] | None:
    return None if summary is None else summary_dict(summary)


@dataclass(frozen=True, slots=True)
class Standings:
    """A tournament's rankings and per-bot results (from finished matches).

    Heads-up (``table == 2``) with the cross table of every pair; at a larger table with
    ``groups``, one entry per combination of bots that share a table, and ``cross`` empty.
    """

    bankroll: list[RankEntry]
    instant_runoff: list[RankEntry]
    cross: dict[str, dict[str, PairStats]]
    bots: dict[str, BotStats]
    duplicate: bool = False
    matches: int = 0
    table: int = 2
    groups: list[GroupStats] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Rankings, cross table (or groups) and per-bot results as JSON."""

        def entries(ranking: list[RankEntry]) -> list[dict[str, Any]]:
            return [
                {"rank": e.rank, "bot": e.bot, "bankroll": e.bankroll, "matches": e.matches}
                for e in ranking
            ]

        data: dict[str, Any] = {
            "rankings": {
                "bankroll": entries(self.bankroll),
                "instant_runoff": entries(self.instant_runoff),
            },
        }
        if self.table == 2:
            data["cross_table"] = {
                row: {
                    col: {
                        "chips": pair.chips,
                        "matches": pair.matches,
                        "hands": pair.hands,
                        "statistics": _stats(pair.summary),
                        "verdict": pair.verdict,
                    }
                    for col, pair in cols.items()
                }
                for row, cols in self.cross.items()
            }
        else:
            data["table"] = self.table
            data["groups"] = [
                {
                    "bots": list(group.bots),
                    "matches": group.matches,
                    "hands": group.hands,
                    "players": [
                        {"name": name, "chips": chips, "statistics": _stats(summary)}
                        for name, chips, summary in zip(
                            group.bots, group.chips, group.summaries, strict=True
                        )
                    ],
                }
                for group in self.groups
            ]
        data["bots"] = {
            name: {
                "chips": bot.chips,
                "matches": bot.matches,
                "hands": bot.hands,
                "statistics": _stats(bot.summary),
            }
            for name, bot in self.bots.items()
        }
        return data


def compute_standings(
    bots: Sequence[str],
    matches: Sequence[MatchSummary],
    big_blind: int,
    duplicate: bool,
    table: int = 2,
) -> Standings:
    """Rank ``bots`` by total bankroll and by bankroll instant run-off over ``matches``.

    Bots without a finished match rank with bankroll 0.  Heads-up, the cross table has a
    cell for every ordered pair of different bots, filled from its matches; at a larger
    ``table``, each group of bots that played together gets a row of ``groups``.  Each
    bot's interval pools the samples of all its matches.
    """
    outcomes = [match.outcome() for match in matches]
    bankroll = bankroll_ranking(outcomes, bots)
    runoff = instant_runoff_ranking(outcomes, bots, table)
    if table == 2:
        cross, bot_stats = _pairs(bots, matches, big_blind, duplicate)
        return Standings(bankroll, runoff, cross, bot_stats, duplicate, len(matches))
    groups, bot_stats = _groups(bots, matches, big_blind, duplicate, table)
    return Standings(bankroll, runoff, {}, bot_stats, duplicate, len(matches), table, groups)


def _summary_of(moments: Moments, big_blind: int, per_sample: int) -> Summary | None:
    return moments.summary(big_blind, per_sample) if moments.n else None


def _pairs(
    bots: Sequence[str], matches: Sequence[MatchSummary], big_blind: int, duplicate: bool
) -> tuple[dict[str, dict[str, PairStats]], dict[str, BotStats]]:
    """The heads-up cross table, and each bot's result over its row."""
    per_sample = len(duplicate_orders(2)) if duplicate else 1  # a hand pair, in duplicate
    pair_moments: dict[tuple[str, str], Moments] = {}
    pair_counts: dict[tuple[str, str], tuple[int, int, int]] = {}
    for match in matches:
        for i in (0, 1):
            key = (match.players[i], match.players[1 - i])
            pair_moments[key] = pair_moments.get(key, Moments()).merged(match.moments[i])
            chips, count, hands = pair_counts.get(key, (0, 0, 0))
            pair_counts[key] = (chips + match.chips[i], count + 1, hands + match.hands)
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
            summary = _summary_of(moments, big_blind, per_sample)
            row[opponent] = PairStats(bot, opponent, chips, count, hands, summary)
            total = total.merged(moments)
            chips_sum, match_sum, hand_sum = chips_sum + chips, match_sum + count, hand_sum + hands
        cross[bot] = row
        summary = _summary_of(total, big_blind, per_sample)
        bot_stats[bot] = BotStats(bot, chips_sum, match_sum, hand_sum, summary)
    return cross, bot_stats


def _groups(
    bots: Sequence[str],
    matches: Sequence[MatchSummary],
    big_blind: int,
    duplicate: bool,
    table: int,
) -> tuple[list[GroupStats], dict[str, BotStats]]:
    """One row per group of bots that played together, and each bot over all its matches."""
    order = {bot: index for index, bot in enumerate(bots)}
    per_sample = len(duplicate_orders(table)) if duplicate else 1  # a deal's hands, in duplicate
    grouped: dict[tuple[str, ...], list[MatchSummary]] = {}
    for match in matches:
        key = tuple(sorted(match.players, key=order.__getitem__))
        grouped.setdefault(key, []).append(match)
    groups: list[GroupStats] = []
    per_bot = {bot: (Moments(), 0, 0, 0) for bot in bots}  # moments, chips, matches, hands
    for key in sorted(grouped, key=lambda members: [order[bot] for bot in members]):
        moments = {bot: Moments() for bot in key}
        chips = dict.fromkeys(key, 0)
        hands = 0
        for match in grouped[key]:
            hands += match.hands
            for player, won, sample in zip(match.players, match.chips, match.moments, strict=True):
                moments[player] = moments[player].merged(sample)
                chips[player] += won
        for bot in key:
            total, won, count, played = per_bot[bot]
            per_bot[bot] = (
                total.merged(moments[bot]),
                won + chips[bot],
                count + len(grouped[key]),
                played + hands,
            )
        summaries = tuple(_summary_of(moments[bot], big_blind, per_sample) for bot in key)
        groups.append(
            GroupStats(key, len(grouped[key]), hands, tuple(chips[b] for b in key), summaries)
        )
    bot_stats = {
        bot: BotStats(bot, won, count, played, _summary_of(total, big_blind, per_sample))
        for bot, (total, won, count, played) in sorted(per_bot.items())
    }
    return groups, bot_stats
