"""ACPC-style winner determination: total bankroll, and bankroll instant run-off.

Each match result is a :class:`MatchOutcome` of two players (heads-up) or more (a
3-player table); bots may meet several times and the chips of all their matches add
up.  Ties share a rank and the next rank skips ("standard competition ranking": 1, 1,
3); within a rank, entries are ordered by bot name so that the output is deterministic.

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


_COUNTS = {2: "two", 3: "three"}


@dataclass(frozen=True)
class MatchOutcome:
    """One match: ``chips[i]`` is what ``players[i]`` won (negative for a loss).

    Two players heads-up, more at a larger table.  The chips are usually zero-sum, but
    nothing here relies on it.
    """

    players: tuple[str, ...]
    chips: tuple[int, ...]

    def __post_init__(self) -> None:
        """Reject a bot playing itself, which no ranking can attribute, and a chip count
        per player that is missing or extra."""
        size = len(self.players)
        if size < 2:
            raise ValueError(f"A match outcome needs at least two bots, not {size}.")
        if len(self.chips) != size:
            raise ValueError(
                f"A match outcome needs one chip count per player: {size} players, "
                f"{len(self.chips)} chip counts."
            )
        if len(set(self.players)) < size:
            if size == 2:
                raise ValueError(
                    f"A match outcome needs two different bots, but both players are "
                    f"{self.players[0]!r}."
                )
            twice = next(p for p in self.players if self.players.count(p) > 1)
            raise ValueError(
                f"A match outcome needs {_COUNTS.get(size, str(size))} different bots, but "
                f"{twice!r} is named more than once."
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
    """Each bot's (bankroll, matches), counting only matches whose players are all in
    ``among``."""
    totals = dict.fromkeys(sorted(among), (0, 0))
    for outcome in outcomes:
        if among.issuperset(outcome.players):
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
    return _ranked(totals, totals)


def _ranked(
    totals: dict[str, tuple[int, int]], shown: dict[str, tuple[int, int]], first: int = 1
) -> list[RankEntry]:
    """Bots ranked by their ``totals`` bankroll (highest first, ties share a rank, ranks
    from ``first``), each entry showing its ``shown`` bankroll and matches."""
    order = sorted(totals, key=lambda bot: (-totals[bot][0], bot))
    entries: list[RankEntry] = []
    for position, bot in enumerate(order, start=first):
        tied = bool(entries) and totals[order[position - first - 1]][0] == totals[bot][0]
        rank = entries[-1].rank if tied else position
        entries.append(RankEntry(rank, bot, *shown[bot]))
    return entries


def instant_runoff_ranking(
    outcomes: Sequence[MatchOutcome], bots: Sequence[str] | None = None, table: int = 2
) -> list[RankEntry]:
    """The ACPC "bankroll instant run-off" ranking (best first) for matches of ``table`` players.

    Starting with every bot in play, and while more than ``table`` bots are in play: total
    each bot's bankroll over the matches whose players are all still in play; the bots
    with the lowest total (all of those tied at it) take the worst ranks still free, tied
    with each other, and leave play.  The last ``table`` bots (or fewer) are ranked by
    their totals in that last round.  If a tie at the lowest total would leave fewer than
    ``table`` bots (so that no match among them would be left to count), the bots in play
    are instead ranked by the totals of that round.  Heads-up (``table == 2``) this is the
    2009 two-player rule, played until one bot is left; with 3 it is the 3-player rule.

    Each entry's ``bankroll`` and ``matches`` are those of the last round in which the
    bot still had matches against bots in play: for an eliminated bot, the round that
    eliminated it; for the last survivors, the final round (or, for a bot left without a
    match, the last round in which it had one).

    >>> outcomes = [
    ...     MatchOutcome(("a", "b", "c"), (30, -10, -20)),
    ...     MatchOutcome(("a", "b", "d"), (-60, 30, 30)),
    ...     MatchOutcome(("a", "c", "d"), (5, 5, -10)),
    ...     MatchOutcome(("b", "c", "d"), (-40, 30, 10)),
    ... ]
    >>> [(e.rank, e.bot, e.bankroll) for e in bankroll_ranking(outcomes)]
    [(1, 'd', 30), (2, 'c', 15), (3, 'b', -20), (4, 'a', -25)]
    >>> [(e.rank, e.bot, e.bankroll) for e in instant_runoff_ranking(outcomes, table=3)]
    [(1, 'c', 30), (2, 'd', 10), (3, 'b', -40), (4, 'a', -25)]
    """
    if table < 2:
        raise ValueError(f"A table seats at least two bots, not {table}.")
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
        if len(in_play) <= table or len(in_play) - len(losers) < table:
            shown = {bot: last_contested.get(bot, (0, 0)) for bot in totals}
            return _ranked(totals, shown) + eliminated[::-1]
        rank = len(in_play) - len(losers) + 1
        eliminated += [
            RankEntry(rank, bot, *last_contested.get(bot, (0, 0))) for bot in reversed(losers)
        ]
        in_play.difference_update(losers)
    return eliminated[::-1]


def cross_table(outcomes: Sequence[MatchOutcome]) -> dict[str, dict[str, PairResult]]:
    """Each pair's results: ``table[row][col]`` is what ``row`` won against ``col``, summed.

    Heads-up outcomes only (a ValueError for a larger table).  Only pairs that played
    appear; both directions are filled in, and bots are sorted by name at both levels.

    >>> table = cross_table([MatchOutcome(("a", "b"), (7, -7)), MatchOutcome(("b", "a"), (2, -2))])
    >>> table["a"]["b"], table["b"]["a"]
    (PairResult(chips=5, matches=2), PairResult(chips=-5, matches=2))
    """
    sums: dict[tuple[str, str], PairResult] = {}
    for outcome in outcomes:
        if len(outcome.players) != 2:
            raise ValueError(
                f"A cross table pairs heads-up results; a match of {len(outcome.players)} "
                "players has none."
            )
        for i in (0, 1):
            key = (outcome.players[i], outcome.players[1 - i])
            old = sums.get(key, PairResult(0, 0))
            sums[key] = PairResult(old.chips + outcome.chips[i], old.matches + 1)
    table: dict[str, dict[str, PairResult]] = {}
    for (row, col), result in sorted(sums.items()):
        table.setdefault(row, {})[col] = result
    return table
