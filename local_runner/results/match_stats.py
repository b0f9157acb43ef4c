"""A match's per-player statistics as its hands finish: deltas in match order, moments.

The engine records each hand in seat order (seat 0 = the button); people and tables
think in match order (the first bot named first).  :func:`slot_deltas` turns one into
the other by :mod:`local_runner.engine.seating`'s rule, and :class:`MatchStats` keeps each
player's exact moments (:class:`~local_runner.results.stats.Moments`) over the hands, in flat
memory.
"""

from __future__ import annotations

from ..engine.records import HandRecord
from ..engine.seating import seat_of
from .stats import Moments, Summary

__all__ = ["MatchStats", "slot_deltas"]


def slot_deltas(record: HandRecord) -> tuple[int, ...]:
    """A hand's chip deltas in match order (the first player's first); the record itself is
    in seat order, and who sits where is :mod:`local_runner.engine.seating`'s rule."""
    seats = len(record.deltas)
    return tuple(record.deltas[seat_of(slot, record.number, seats)] for slot in range(seats))


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
