"""ACPC-style winner determination: total bankroll, and bankroll instant run-off.

Each match result is a :class:`MatchOutcome`; bots may meet several times and the
chips of all their matches add up.  Ties share a rank and the next rank skips
("standard competition ranking": 1, 1, 3); within a rank, entries are ordered by
bot name so that the output is deterministic.

    >>> results = [
    ...     MatchOutcome(("alice", "bob"), (120, -120)),
    ...     MatchOutcome(("bob", "carol"), (50, -50)),
    ...     MatchOutcome(("alice", "carol"), (-30, 30)),
    ... ]
    >>> [(e.rank, e.bot, e.bankroll) for e in bankroll_ranking(results)]
    [(1, 'alice', 90), (2, 'carol', -20), (3, 'bob', -70)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "MatchOutcome",
    "PairResult",
    "RankEntry",
    "bankroll_ranking",
    "cross_table",
    "instant_runoff_ranking",
]


@dataclass(frozen=True)
class MatchOutcome:
    """One match: ``chips[i]`` is what ``players[i]`` won (negative for a loss).

    The chips are usually zero-sum, but nothing here relies on it.
    """

    players: tuple[str, str]
    chips: tuple[int, int]

    def __post_init__(self) -> None:
        """Reject a match of a bot against itself, which no ranking can attribute."""
        if self.players[0] == self.players[1]:
            raise ValueError(
                f"A match outcome needs two different bots, but both players are "
                f"{self.players[0]!r}."
            )


@dataclass(frozen=True)
class RankEntry:
    """A bot's place in a ranking: its rank (1 is best), bankroll and number of matches."""

    rank: int
    bot: str
    bankroll: int
    matches: int


@dataclass(frozen=True)
class PairResult:
    """The row bot's total chips won against the column bot, over ``matches`` matches."""

    chips: int
    matches: int


def _participants(outcomes: Sequence[MatchOutcome], bots: Sequence[str] | None) -> list[str]:
    """All bots to rank: ``bots`` if given (checked to cover every outcome), else those seen."""
    seen = {player for outcome in outcomes for player in outcome.players}
    if bots is None:
        return sorted(seen)
    missing = sorted(seen - set(bots))
    if missing:
        raise ValueError(
            f"The outcomes include bots missing from the given list of bots: {', '.join(missing)}."
        )
    if len(set(bots)) != len(bots):
        raise ValueError("The given list of bots names some bot more than once.")
    return sorted(bots)


def _totals(outcomes: Iterable[MatchOutcome], among: set[str]) -> dict[str, tuple[int, int]]:
    """Each bot's (bankroll, matches), counting only matches between two bots of ``among``."""
    totals = dict.fromkeys(sorted(among), (0, 0))
    for outcome in outcomes:
        if outcome.players[0] in among and outcome.players[1] in among:
            for player, chips in zip(outcome.players, outcome.chips, strict=True):
                bankroll, matches = totals[player]
                totals[player] = (bankroll + chips, matches + 1)
    return totals


def bankroll_ranking(
    outcomes: Sequence[MatchOutcome], bots: Sequence[str] | None = None
) -> list[RankEntry]:
    """Rank bots by the total chips they won against all opponents (highest first).

    ``bots`` adds bots with no matches (bankroll 0); it must include every bot
    in ``outcomes``.  Equal bankrolls share a rank (1, 1, 3).
    """
    totals = _totals(outcomes, set(_participants(outcomes, bots)))
    order = sorted(totals, key=lambda bot: (-totals[bot][0], bot))
    entries: list[RankEntry] = []
    for position, bot in enumerate(order, start=1):
        bankroll, matches = totals[bot]
        tied = bool(entries) and entries[-1].bankroll == bankroll
        rank = entries[-1].rank if tied else position
        entries.append(RankEntry(rank, bot, bankroll, matches))
    return entries


def instant_runoff_ranking(
    outcomes: Sequence[MatchOutcome], bots: Sequence[str] | None = None
) -> list[RankEntry]:
    """The ACPC "bankroll instant run-off" ranking (best first).

    Starting with every bot in play, repeat until none is left: total each bot's
    bankroll over the matches between bots still in play only; the bots with the
    lowest total (all of those tied at it) take the worst ranks still free, tied
    with each other, and leave play.  The last survivors rank 1.

    Each entry's ``bankroll`` and ``matches`` are those of the last round in which
    the bot still had matches against bots in play: for an eliminated bot, the
    round that eliminated it; for a lone last survivor (who has nobody left to
    play), the round in which it outlasted the others.
    """
    in_play = set(_participants(outcomes, bots))
    eliminated: list[RankEntry] = []
    last_contested: dict[str, tuple[int, int]] = {}
    while in_play:
        totals = _totals(outcomes, in_play)
        for bot, (bankroll, matches) in totals.items():
            if matches:
                last_contested[bot] = (bankroll, matches)
        lowest = min(bankroll for bankroll, _ in totals.values())
        losers = [bot for bot in sorted(totals) if totals[bot][0] == lowest]
        rank = len(in_play) - len(losers) + 1
        eliminated += [
            RankEntry(rank, bot, *last_contested.get(bot, (0, 0))) for bot in reversed(losers)
        ]
        in_play.difference_update(losers)
    return eliminated[::-1]


def cross_table(outcomes: Sequence[MatchOutcome]) -> dict[str, dict[str, PairResult]]:
    """Each pair's results: ``table[row][col]`` is what ``row`` won against ``col``, summed.

    Only pairs that played appear; both directions are filled in, and bots are
    sorted by name at both levels.

    >>> table = cross_table([MatchOutcome(("a", "b"), (7, -7)), MatchOutcome(("b", "a"), (2, -2))])
    >>> table["a"]["b"], table["b"]["a"]
    (PairResult(chips=5, matches=2), PairResult(chips=-5, matches=2))
    """
    sums: dict[tuple[str, str], PairResult] = {}
    for outcome in outcomes:
        for i in (0, 1):
            key = (outcome.players[i], outcome.players[1 - i])
            old = sums.get(key, PairResult(0, 0))
            sums[key] = PairResult(old.chips + outcome.chips[i], old.matches + 1)
    table: dict[str, dict[str, PairResult]] = {}
    for (row, col), result in sorted(sums.items()):
        table.setdefault(row, {})[col] = result
    return table
