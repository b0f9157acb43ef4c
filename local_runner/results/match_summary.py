"""What a finished tournament match reports back: small, picklable and JSON-able.

A :class:`MatchSummary` travels from the worker that played the match (a pool process
or a Dask worker) to the tournament, which appends it to ``matches.jsonl`` as one line
and ranks from it.  Every per-player field is a tuple in match order, two long
heads-up and three long at a 3-seat table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.seating import duplicate_orders
from .rankings import MatchOutcome
from .stats import Moments

__all__ = ["MatchSummary"]


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One finished match, from each of its players' points of view.

    ``players`` are in match order (the first player is the dealer in the first hand of
    the first leg).  ``moments`` are each player's per-sample moments: one sample per
    hand, or, when ``duplicate`` is True, per deal played in every leg (a hand pair
    heads-up, a group of six hands three-handed).
    """

    match_id: str
    players: tuple[str, ...]
    seed: int
    duplicate: bool
    chips: tuple[int, ...]
    hands: int
    moments: tuple[Moments, ...]
    faults: tuple[dict[str, int], ...] = ({}, {})
    wall_seconds: float = 0.0
    interrupted: bool = False
    log_dir: str = ""
    host: str = ""
    forfeits: tuple[str | None, ...] = (None, None)
    """Per player: why it forfeited (failed to build or never connected; every decision of
    its was then played by default), or None when it played."""

    @property
    def hands_per_sample(self) -> int:
        """How many hands one sample of ``moments`` covers: 1, or the legs of a duplicate."""
        return len(duplicate_orders(len(self.players))) if self.duplicate else 1

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
        players = tuple(str(name) for name in data["players"])
        size = len(players)
        chips = tuple(int(c) for c in data["chips"])
        moments = tuple(Moments.from_list(m) for m in data["moments"])
        faults = tuple(
            {str(k): int(v) for k, v in f.items()} for f in data.get("faults", [{}] * size)
        )
        forfeits = tuple(
            None if reason is None else str(reason)
            for reason in data.get("forfeits", [None] * size)  # absent in older files
        )
        if size < 2 or any(len(field) != size for field in (chips, moments, faults, forfeits)):
            raise ValueError(f"the per-player lists do not all have {size} entries")
        return cls(
            match_id=str(data["id"]),
            players=players,
            seed=int(data["seed"]),
            duplicate=bool(data["duplicate"]),
            chips=chips,
            hands=int(data["hands"]),
            moments=moments,
            faults=faults,
            wall_seconds=float(data.get("wall_seconds", 0.0)),
            interrupted=bool(data.get("interrupted", False)),
            log_dir=str(data.get("log_dir", "")),
            host=str(data.get("host", "")),
            forfeits=forfeits,
        )

    def outcome(self) -> MatchOutcome:
        """The match as a ranking input."""
        return MatchOutcome(self.players, self.chips)
