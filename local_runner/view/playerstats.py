"""Per-bot playing statistics of a match, from its replayed hands.

* VPIP: the share of hands in which the bot put chips in preflop by choice
  (a call or a raise it played itself; the big blind's free check is not one).
* PFR: the share of hands in which it raised preflop.
* Aggression: its bets and raises after the flop divided by its calls there.
* Showdowns: how many hands it took to a showdown, and how many of those it won.
* Clock per street: the reply time of its decisions on each street, where the
  record has reply times (an action's optional ``seconds``); None otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sdk.actions import CallAction, RaiseAction
from sdk.rules import Rules

from .timeline import Walk, street_name

__all__ = ["PlayerStats"]


@dataclass(slots=True)
class PlayerStats:
    """Running counts for one bot; :meth:`add` one replayed hand at a time."""

    name: str
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    aggressive: int = 0
    calls: int = 0
    showdowns: int = 0
    showdown_wins: int = 0
    won: int = 0
    clock: dict[int, float] = field(default_factory=dict)
    """Seconds of reply time per street (0, 3, 4, 5), from the actions that record it."""
    rules: Rules | None = None
    """The rules of the hands counted (for the names of their streets)."""

    def add(self, w: Walk) -> None:
        """Count the hand ``w`` if this bot played it."""
        hand = w.hand
        if self.name not in hand.players:
            return
        seat = hand.players.index(self.name)
        self.rules = w.last.rules
        self.hands += 1
        voluntary = raised = False
        for record in hand.actions:
            if record.seat != seat:
                continue
            if record.seconds is not None:
                self.clock[record.street] = self.clock.get(record.street, 0.0) + record.seconds
            if record.forced:
                continue
            action = record.action
            if record.street == 0:
                voluntary = voluntary or isinstance(action, (CallAction, RaiseAction))
                raised = raised or isinstance(action, RaiseAction)
            elif isinstance(action, RaiseAction):
                self.aggressive += 1
            elif isinstance(action, CallAction):
                self.calls += 1
        self.vpip += voluntary
        self.pfr += raised
        if hand.showdown:
            self.showdowns += 1
            self.showdown_wins += hand.deltas[seat] > 0
        self.won += hand.deltas[seat] > 0

    def to_dict(self) -> dict[str, Any]:
        """Rates as fractions (None where nothing was counted)."""

        def rate(part: int, whole: int) -> float | None:
            return None if whole == 0 else round(part / whole, 4)

        return {
            "name": self.name,
            "hands": self.hands,
            "vpip": rate(self.vpip, self.hands),
            "pfr": rate(self.pfr, self.hands),
            "aggression": None if self.calls == 0 else round(self.aggressive / self.calls, 3),
            "bets_raises_postflop": self.aggressive,
            "calls_postflop": self.calls,
            "showdowns": self.showdowns,
            "showdown_wins": self.showdown_wins,
            "hands_won": self.won,
            "clock_per_street": {
                street_name(s, self.rules): round(t, 6) for s, t in sorted(self.clock.items())
            }
            or None,
        }
