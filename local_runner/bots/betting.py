"""Bet sizes and pot odds: the arithmetic every reference bot shares.

No-limit sizes are fractions of the pot, clamped to the legal bounds.  In a fixed-limit
game (``rules.limit``) there is one legal size, the state machine's
:meth:`~sdk.states.RoundState.raise_bounds` (the bet of the round over the current bet),
and the cap on raises shows as :class:`~sdk.actions.RaiseAction` missing from
:meth:`~sdk.states.RoundState.legal_actions`; the bots ask the state for both rather than
knowing the limit rules themselves (:func:`fixed_raise`, :func:`raise_options`).
"""

from __future__ import annotations

from sdk.actions import RaiseAction
from sdk.states import RoundState

__all__ = ["bet_share", "fixed_raise", "is_limit", "pot_odds", "pot_raise", "raise_options"]

#: No-limit bet sizes the range bot considers, as fractions of the pot after calling.
NO_LIMIT_SIZES = (0.5, 1.0)


def pot_odds(state: RoundState) -> float:
    """The share of the final pot a call costs: the equity a call needs to break even."""
    cost = state.continue_cost
    return cost / (state.pot + cost) if cost > 0 else 0.0


def pot_raise(state: RoundState, fraction: float) -> RaiseAction:
    """A raise that adds ``fraction`` of the pot (after calling) on top of a call, kept legal."""
    low, high = state.raise_bounds()
    cost = state.continue_cost
    mine = state.pips[state.actor]
    target = mine + cost + int(fraction * (state.pot + cost))
    return RaiseAction(max(low, min(high, target)))


def is_limit(state: RoundState) -> bool:
    """Whether bets come in fixed sizes (the ACPC limit games)."""
    return state.rules.limit is not None


def fixed_raise(state: RoundState) -> RaiseAction:
    """The one legal bet or raise of a limit game: to the state's raise bound.

    Only ask while ``RaiseAction`` is legal: once the round's cap is reached it is not,
    and this size would not be either.
    """
    return RaiseAction(state.raise_bounds()[0])


def raise_options(state: RoundState) -> list[tuple[RaiseAction, float]]:
    """The bets or raises worth comparing, each with its size as a share of the pot: the
    fixed one in limit (its real share), else half and a whole pot (those fractions, which
    the bounds may clamp).

    Empty when no raise is legal (the cap in limit, or nobody left to answer).
    """
    if RaiseAction not in state.legal_actions():
        return []
    if is_limit(state):
        action = fixed_raise(state)
        return [(action, bet_share(state, action))]
    return [(pot_raise(state, size), size) for size in NO_LIMIT_SIZES]


def bet_share(state: RoundState, action: RaiseAction) -> float:
    """What ``action`` adds beyond a call, as a share of the pot after calling."""
    cost = state.continue_cost
    added = action.amount - state.pips[state.actor] - cost
    return added / max(1, state.pot + cost)
