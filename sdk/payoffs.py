"""What a finished hand pays: the one implementation of payoffs.

Both the engine (with full information) and a bot's client (which learns its
delta from the engine) use these functions, so the written rules are coded once:

* The winner of a hand wins what the loser put in (its *contribution*).
* A tie at showdown leaves both bankrolls unchanged (``rules/*.txt``: "In the
  case of a tie, players' bankrolls do not change").
* Bounty Hold'em: a winner who hits its bounty wins ``ratio * normal + constant``.
  In a tie where exactly one player hits, that player wins
  ``(ratio - 1) / 2 * opponent's contribution + constant`` (a quarter plus 10
  with the defaults).  Fractional winnings are rounded up when the winner is
  out of position (the big blind, seat 1) and down when it is the dealer (seat 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .rules import Rules

if TYPE_CHECKING:  # imported where a bounty is paid: a bot's start need not load decimal
    from fractions import Fraction

__all__ = ["bounty_hit", "hand_deltas", "round_winnings"]


def bounty_hit(rank: str | None, hand: Sequence[str], board: Sequence[str]) -> bool:
    """Whether ``rank`` (for example ``"K"``) is among the hole cards or the board dealt so far."""
    if rank is None:
        return False
    for card in hand:
        if card[0] == rank:
            return True
    return any(card[0] == rank for card in board)


def round_winnings(amount: Fraction, winner: int) -> int:
    """Round fractional winnings: up for a winner out of position (seat 1), down for the dealer."""
    return math.ceil(amount) if winner == 1 else math.floor(amount)


def hand_deltas(
    rules: Rules,
    stacks: Sequence[int],
    winner: int | None,
    hits: Sequence[bool | None] = (False, False),
) -> tuple[int, int]:
    """Each seat's chip change for a hand that ended with ``stacks`` behind.

    ``winner`` is the seat that won (by fold or showdown) or ``None`` for a tie;
    ``hits`` says which seats hit their bounty (None counts as no hit; ignored without
    bounty rules).
    The result is zero-sum.
    """
    start = rules.starting_stack
    contributions = (start - stacks[0], start - stacks[1])
    bounty = rules.bounty
    if winner is None:
        if bounty is None or bool(hits[0]) == bool(hits[1]):
            return (0, 0)
        from fractions import Fraction

        hitter = 0 if hits[0] else 1
        share = (Fraction(repr(bounty.ratio)) - 1) / 2 * contributions[1 - hitter]
        won = round_winnings(share + bounty.constant, hitter)
        return (won, -won) if hitter == 0 else (-won, won)
    won = contributions[1 - winner]
    if bounty is not None and hits[winner]:
        from fractions import Fraction

        won = round_winnings(Fraction(repr(bounty.ratio)) * won + bounty.constant, winner)
    return (won, -won) if winner == 0 else (-won, won)
