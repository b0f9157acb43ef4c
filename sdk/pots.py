"""Main and side pots for any number of seats: who takes what at the end of a hand.

The inputs are what every seat put in over the whole hand (its *contribution*), which
seats folded, and at a showdown a rank per seat still in the hand (higher is better, as
:func:`sdk.evaluator.evaluate` gives).  Seats are numbered as everywhere in the SDK:
seat 0 is the button, seat 1 the first seat to its left.

The pots are built in layers: every distinct contribution level cuts the chips into a
layer that the seats who reached that level put in, and the seats still in the hand
among them may win it.  Consecutive layers that the same seats may win make one pot
(so a folded seat's extra chips join the pot they were bet into, not a pot of their
own).  A pot only one seat may win is that seat's chips coming back: an uncalled bet,
or the part of an all-in that nobody matched.

Each pot goes to the best rank among the seats that may win it, split evenly on a tie.

* :func:`pot_shares` gives the exact shares, as fractions.  This is what the ACPC dealer
  computes (it reports values as floating point, so a pot of 100 split three ways gives
  each winner 33.33...), and what an ACPC log should print.
* :func:`chip_shares` gives whole chips.  **Odd-chip rule:** each pot is split on its
  own; every winner gets the whole-chip quotient, and the ``remainder`` odd chips go one
  each to the first ``remainder`` winners in seat order from the button's left (seat 1,
  seat 2, ..., the button last).  Heads-up that is the big blind first, the same
  direction as :func:`sdk.payoffs.round_winnings`.  PokerKit gives a pot's whole
  remainder to its first winner in the same order; the two differ only when one pot has
  two or more odd chips, which needs a three-way tie.

:func:`pot_deltas` and :func:`exact_pot_deltas` subtract the contributions: the chips
each seat won or lost, zero-sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported for exact shares only: a bot's start need not load decimal
    from fractions import Fraction

__all__ = [
    "Pot",
    "chip_shares",
    "exact_pot_deltas",
    "pot_deltas",
    "pot_shares",
    "side_pots",
]


@dataclass(frozen=True, slots=True)
class Pot:
    """One main or side pot: its chips and the seats that may win it, in seat order."""

    amount: int
    eligible: tuple[int, ...]


def side_pots(contributions: Sequence[int], folded: Sequence[bool]) -> tuple[Pot, ...]:
    """The main pot first, then each side pot, from every seat's contribution to the hand.

    Raises :class:`ValueError` for inconsistent input (lengths, negative chips, every seat
    folded, or chips that no seat still in the hand could win).
    """
    _check(contributions, folded)
    pots: list[Pot] = []
    below = 0
    for level in sorted({c for c in contributions if c > 0}):
        reached = [seat for seat, c in enumerate(contributions) if c >= level]
        amount = (level - below) * len(reached)
        eligible = tuple(seat for seat in reached if not folded[seat])
        if pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        pots.append(Pot(amount, eligible))
        below = level
    return tuple(pots)


def pot_shares(
    contributions: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None] = (),
) -> tuple[Fraction, ...]:
    """The exact chips each seat takes from the pots; ties split evenly, as fractions.

    ``ranks`` has one entry per seat (higher wins; folded seats' entries are ignored and
    may be ``None``); it may be empty when only one seat is left in the hand.
    """
    from fractions import Fraction

    shares = [Fraction(0)] * len(contributions)
    for pot, winners in _winners(contributions, folded, ranks):
        for seat in winners:
            shares[seat] += Fraction(pot.amount, len(winners))
    return tuple(shares)


def chip_shares(
    contributions: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None] = (),
) -> tuple[int, ...]:
    """The whole chips each seat takes from the pots, odd chips by the module's rule.

    Same arguments as :func:`pot_shares`; the total equals the total contribution.
    """
    shares = [0] * len(contributions)
    for pot, winners in _winners(contributions, folded, ranks):
        quotient, remainder = divmod(pot.amount, len(winners))
        for place, seat in enumerate(_from_the_buttons_left(winners, len(contributions))):
            shares[seat] += quotient + (1 if place < remainder else 0)
    return tuple(shares)


def pot_deltas(
    contributions: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None] = (),
) -> tuple[int, ...]:
    """Each seat's whole-chip gain or loss: :func:`chip_shares` minus what it put in."""
    shares = chip_shares(contributions, folded, ranks)
    return tuple(share - paid for share, paid in zip(shares, contributions, strict=True))


def exact_pot_deltas(
    contributions: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None] = (),
) -> tuple[Fraction, ...]:
    """Each seat's exact gain or loss as ACPC reports it: :func:`pot_shares` minus its chips in."""
    shares = pot_shares(contributions, folded, ranks)
    return tuple(share - paid for share, paid in zip(shares, contributions, strict=True))


def _winners(
    contributions: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None],
) -> list[tuple[Pot, tuple[int, ...]]]:
    """Each pot with the seats that win it (more than one on a tie), in seat order."""
    pots = side_pots(contributions, folded)
    in_hand = [seat for seat in range(len(folded)) if not folded[seat]]
    if len(in_hand) == 1:
        return [(pot, (in_hand[0],)) for pot in pots]
    if len(ranks) != len(contributions):
        raise ValueError(
            f"{len(in_hand)} seats are still in the hand, so a showdown needs one rank per "
            f"seat ({len(contributions)}), not {len(ranks)}."
        )
    known: dict[int, int] = {}
    for seat in in_hand:
        rank = ranks[seat]
        if rank is None:
            raise ValueError(f"seat {seat} is still in the hand but has no rank for the showdown.")
        known[seat] = rank
    result = []
    for pot in pots:
        best = max(known[seat] for seat in pot.eligible)
        result.append((pot, tuple(seat for seat in pot.eligible if known[seat] == best)))
    return result


def _from_the_buttons_left(seats: Sequence[int], count: int) -> list[int]:
    """``seats`` in the order the odd chips go: seat 1, seat 2, ..., the button (seat 0) last."""
    return sorted(seats, key=lambda seat: (seat - 1) % count)


def _check(contributions: Sequence[int], folded: Sequence[bool]) -> None:
    """Refuse input that no hand can produce, with a sentence saying what is wrong."""
    if len(contributions) != len(folded):
        raise ValueError(
            f"{len(contributions)} contributions but {len(folded)} folded flags: "
            "give one of each per seat."
        )
    if len(contributions) < 2:
        raise ValueError(f"a hand needs at least 2 seats, not {len(contributions)}.")
    for seat, chips in enumerate(contributions):
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise ValueError(
                f"seat {seat}'s contribution is {chips!r}; it must be a whole number of "
                "chips, 0 or more."
            )
    in_hand = [seat for seat in range(len(folded)) if not folded[seat]]
    if not in_hand:
        raise ValueError("every seat folded; at least one seat must still be in the hand.")
    if max(contributions) > max(contributions[seat] for seat in in_hand):
        raise ValueError(
            "a folded seat put in more chips than any seat still in the hand, so nobody "
            "could win them; the highest contribution always belongs to a seat in the hand."
        )
