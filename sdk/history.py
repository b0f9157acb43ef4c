"""The actions of a hand so far, read back from the chain of round states.

Every :class:`~sdk.states.RoundState` keeps the state before it in
``previous_state``, so the whole betting history of a hand is there; this module
turns it into a list of actions, oldest first::

    from sdk.history import actions_of

    for past in actions_of(round_state):
        if past.seat != active and isinstance(past.action, RaiseAction):
            ...  # the opponent raised on street past.street

A fold ends the hand, so it only appears in the history of a
:class:`~sdk.states.TerminalState` (in ``handle_round_over``).  An opponent's
auction bid is the amount the state knew then (``HIDDEN_BID`` before the engine
revealed it).  Standard library only.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action, BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from .states import RoundState, TerminalState

__all__ = ["PastAction", "actions_of"]


class PastAction(NamedTuple):
    """One action of the hand."""

    seat: int
    """Who acted (0 = dealer, 1 = big blind)."""
    action: Action
    """What it did (a raise carries its raise-to amount)."""
    before: RoundState
    """The state it acted in: its ``street``, ``pips``, ``continue_cost``, ``pot``."""

    @property
    def street(self) -> int:
        """The street of the action (0, 3, 4 or 5)."""
        return self.before.street


def _chain(state: RoundState) -> list[RoundState]:
    states = [state]
    while states[-1].previous_state is not None:
        previous = states[-1].previous_state
        assert previous is not None
        states.append(previous)
    states.reverse()
    return states


def actions_of(state: RoundState | TerminalState) -> list[PastAction]:
    """Every action taken in the hand that led to ``state``, oldest first."""
    last = state.previous_state if isinstance(state, TerminalState) else state
    states = _chain(last)
    found: list[PastAction] = []
    i = 0
    while i < len(states) - 1:
        before, after = states[i], states[i + 1]
        seat = before.button % 2
        step = 1
        if before.auction:
            bid = after.bids[seat]
            action: Action = BidAction(bid if bid is not None else 0)
        elif after.street == before.street and after.pips[seat] > before.pips[1 - seat]:
            action = RaiseAction(after.pips[seat])
        elif before.pips[1 - seat] > before.pips[seat]:
            action = CallAction()
            # A call that closes the street leaves an intermediate state (the pips
            # matched) before the next street's first state: step over it.  Only the
            # dealer's preflop completion of the small blind does not close the street.
            if before.button != 0:
                step = 2
        else:
            action = CheckAction()
        found.append(PastAction(seat, action, before))
        i += step
    if isinstance(state, TerminalState):
        if state.folder is not None:
            found.append(PastAction(state.folder, FoldAction(), last))
        elif last.pips == (0, 0):
            # A showdown after a river check: the check is the state's last action and
            # left no link (a river call did: its matched-pips state ends the chain).
            found.append(PastAction(last.button % 2, CheckAction(), last))
    return found
