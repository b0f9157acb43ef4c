"""The actions a bot can take.

Each action is an immutable, hashable value.  The classes themselves are what
``RoundState.legal_actions()`` returns, so the familiar idiom works::

    if RaiseAction in round_state.legal_actions():
        low, high = round_state.raise_bounds()
        return RaiseAction(low)

Actions are frozen dataclasses, so an action only ever equals an action of its
own kind (``FoldAction() != CheckAction()``), unlike the named tuples of the
MIT skeleton.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Action",
    "ActionType",
    "BidAction",
    "CallAction",
    "CheckAction",
    "DiscardAction",
    "FoldAction",
    "HIDDEN_BID",
    "HIDDEN_RANK",
    "RaiseAction",
]

#: The amount a bid carries when the engine hides it from the opponent
#: (a sealed bid that has not been revealed yet).
HIDDEN_BID = -1

#: The opponent's bounty rank as a bot sees it: never sent, so unknown.  A string, as the
#: MIT 2025 skeleton fills it (``'-1'``), so code written for that skeleton that joins it
#: into a message keeps working; compare with this constant rather than with None.
HIDDEN_RANK = "-1"


@dataclass(frozen=True, slots=True)
class FoldAction:
    """Give up the hand; the opponent wins what you have put in."""


@dataclass(frozen=True, slots=True)
class CallAction:
    """Match the opponent's pip."""


@dataclass(frozen=True, slots=True)
class CheckAction:
    """Pass without putting in chips (only when nothing is owed)."""


@dataclass(frozen=True, slots=True)
class RaiseAction:
    """Bet or raise *to* ``amount`` chips in total on this street (your pip after it)."""

    amount: int


@dataclass(frozen=True, slots=True)
class BidAction:
    """Bid ``amount`` chips in the auction for a third hole card (Auction Hold'em).

    ``HIDDEN_BID`` (-1) stands for an opponent's sealed bid whose amount is not
    known yet.
    """

    amount: int


@dataclass(frozen=True, slots=True)
class DiscardAction:
    """Discard the hole card at position ``index`` (0, 1 or 2) of your current hand face up
    onto the board (Toss Hold'em).  ``round_state.discard_indices()`` lists the legal ones."""

    index: int

    @property
    def card(self) -> int:
        """The MIT 2026 skeleton's name for ``index`` (its field is called ``card``)."""
        return self.index


#: Any action a bot can send.
Action = FoldAction | CallAction | CheckAction | RaiseAction | BidAction | DiscardAction

#: The class of an action, as found in ``legal_actions()``.
ActionType = (
    type[FoldAction]
    | type[CallAction]
    | type[CheckAction]
    | type[RaiseAction]
    | type[BidAction]
    | type[DiscardAction]
)
