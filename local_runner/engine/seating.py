"""Who sits where in each hand: the one rule that turns a player's slot into a seat.

A *slot* is a player's place in the match's order (0 = the first bot named); a *seat* is
a place relative to the button in one hand (seat 0 = the button).  The button moves one
seat to the left every hand, so in hand ``n`` (from 1) seat ``s`` is held by slot
``(s + n - 1) % seats``.  Heads-up that is the MIT engines' alternation: the first player
is the dealer in odd hands.
"""

from __future__ import annotations

__all__ = ["duplicate_orders", "seat_of", "slots_in_seats"]

#: For each table size, the slots in seat order for each position of the button.
_ROTATIONS = {
    size: tuple(tuple((seat + shift) % size for seat in range(size)) for shift in range(size))
    for size in range(2, 11)
}


def slots_in_seats(hand: int, seats: int) -> tuple[int, ...]:
    """The slot holding each seat in hand ``hand`` (from 1).

    >>> slots_in_seats(1, 2), slots_in_seats(2, 2)
    ((0, 1), (1, 0))
    >>> slots_in_seats(2, 3)
    (1, 2, 0)
    """
    shift = (hand - 1) % seats
    return _ROTATIONS[seats][shift]


def seat_of(slot: int, hand: int, seats: int) -> int:
    """The seat that slot ``slot`` holds in hand ``hand`` (the inverse of :func:`slots_in_seats`).

    >>> seat_of(0, 2, 2), seat_of(0, 2, 3)
    (1, 2)
    """
    return (slot - (hand - 1)) % seats


def duplicate_orders(seats: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of a duplicate match: for each leg, the bot in each slot.

    Heads-up, two legs with the seats swapped.  Three-handed, the six of the ACPC 2009
    rules: the players rotate one seat to the left between legs, three times, then sit in
    the other relative order and rotate three times again.  Every leg deals the same
    cards to the same seats, so over the legs every bot holds every seat of every deal
    once in each relative order of the others.

    >>> duplicate_orders(2)
    ((0, 1), (1, 0))
    >>> duplicate_orders(3)
    ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2))
    """
    if seats not in (2, 3):
        raise ValueError(f"Duplicate seatings exist for 2 or 3 seats, not {seats}.")
    orders = []
    for first in ((0, 1, 2), (0, 2, 1))[: seats - 1]:
        base = first[:seats]
        orders += [base[shift:] + base[:shift] for shift in range(seats)]
    return tuple(orders)
