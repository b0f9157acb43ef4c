"""Bet sizes and pot odds: the arithmetic every reference bot shares.

No-limit sizes are fractions of the pot, clamped to the legal bounds.  (A
fixed-limit game would add its own sizing function here; the strategies ask
only for "a raise of about this much".)
"""

from __future__ import annotations

from sdk.actions import RaiseAction
from sdk.states import RoundState

__all__ = ["pot_odds", "pot_raise"]


def pot_odds(state: RoundState) -> float:
    """The share of the final pot a call costs: the equity a call needs to break even."""
    cost = state.continue_cost
    return cost / (state.pot + cost) if cost > 0 else 0.0


def pot_raise(state: RoundState, fraction: float) -> RaiseAction:
    """A raise that adds ``fraction`` of the pot (after calling) on top of a call, kept legal."""
    low, high = state.raise_bounds()
    cost = state.continue_cost
    mine = state.pips[state.button % 2]
    target = mine + cost + int(fraction * (state.pot + cost))
    return RaiseAction(max(low, min(high, target)))
