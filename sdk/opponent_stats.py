"""Counting an opponent's habits: VPIP, PFR, aggression, fold to a bet, showdowns.

Feed :class:`OpponentStats` each finished hand from ``handle_round_over``::

    self.stats.observe_hand(terminal_state, opponent=1 - active)
    if self.stats.fold_to_bet.estimate(prior=0.4) > 0.6:
        ...  # this opponent gives up too often: bet more

Each statistic is a :class:`Rate` (times seen out of chances), and
:meth:`Rate.estimate` blends it with a prior, so a few hands do not swing it to
0 or 1.  Standard library only; the ``range`` reference bot uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import CallAction, CheckAction, FoldAction, RaiseAction
from .history import actions_of
from .states import TerminalState

__all__ = ["OpponentStats", "Rate"]


@dataclass(slots=True)
class Rate:
    """How often something happened when it could: ``hits`` out of ``chances``."""

    hits: int = 0
    chances: int = 0

    def add(self, hit: bool) -> None:
        """Count one chance, and a hit if ``hit``."""
        self.chances += 1
        self.hits += int(hit)

    @property
    def value(self) -> float | None:
        """The observed rate, or None before any chance."""
        return self.hits / self.chances if self.chances else None

    def estimate(self, prior: float, strength: float = 10.0) -> float:
        """The rate with ``strength`` imaginary chances at rate ``prior`` added (shrinkage)."""
        return (self.hits + prior * strength) / (self.chances + strength)


@dataclass(slots=True)
class OpponentStats:
    """The standard statistics of one opponent, over the hands observed so far.

    * ``vpip``: put chips in voluntarily before the flop (a call or a raise; the big
      blind's free check does not count), per hand;
    * ``pfr``: raised before the flop, per hand;
    * ``aggression``: bets and raises out of all its checks, calls, bets and raises;
    * ``fold_to_bet``: folded when facing a bet or raise (the dealer's first decision,
      facing only the big blind, is not counted), per such spot;
    * ``showdown``: hands that reached a showdown, per hand.
    """

    hands: int = 0
    vpip: Rate = field(default_factory=Rate)
    pfr: Rate = field(default_factory=Rate)
    aggression: Rate = field(default_factory=Rate)
    fold_to_bet: Rate = field(default_factory=Rate)
    showdown: Rate = field(default_factory=Rate)

    def observe_hand(self, terminal_state: TerminalState, opponent: int) -> None:
        """Count one finished hand; ``opponent`` is the opponent's seat in it."""
        self.hands += 1
        voluntary = raised = False
        for past in actions_of(terminal_state):
            if past.seat != opponent:
                continue
            action, before = past.action, past.before
            aggressive = isinstance(action, RaiseAction)
            if before.street == 0:
                voluntary |= aggressive or isinstance(action, CallAction)
                raised |= aggressive
            if isinstance(action, (CheckAction, CallAction, RaiseAction)):
                self.aggression.add(aggressive)
            first_blind = before.street == 0 and before.button == 0
            facing_bet = before.continue_cost > 0 and not first_blind
            if facing_bet:
                self.fold_to_bet.add(isinstance(action, FoldAction))
        self.vpip.add(voluntary)
        self.pfr.add(raised)
        self.showdown.add(terminal_state.folder is None)
