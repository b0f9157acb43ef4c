"""sdk.pots: main and side pots, ties, odd chips, for 2 to 6 seats.

A table of hands worked by hand, properties over random contributions, folds and ties
(chips conserved, zero-sum, the exact and whole-chip shares within a chip per pot of
each other, a sole best hand takes what it can cover), and agreement with the heads-up
payoffs of sdk.payoffs.  The differential test against PokerKit is test_pots_pokerkit.py.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.payoffs import hand_deltas
from sdk.pots import Pot, chip_shares, exact_pot_deltas, pot_deltas, pot_shares, side_pots
from sdk.rules import Rules

T, F = True, False
# (contributions, folded, ranks, whole-chip deltas, exact deltas); seat 0 is the button.
WORKED = [
    # Heads-up, the button folds its small blind.
    ((1, 2), (T, F), (), (-1, 1), (-1, 1)),
    # Heads-up showdown, the button wins; then a tie.
    ((50, 50), (F, F), (2, 1), (50, -50), (50, -50)),
    ((50, 50), (F, F), (7, 7), (0, 0), (0, 0)),
    # Heads-up, the big blind's unmatched 40 chips come back to it; the button wins 10.
    ((10, 50), (F, F), (9, 3), (10, -10), (10, -10)),
    # Seat 1 all in for 40 wins the main pot of 120; seat 0 wins the side pot of 120.
    ((100, 40, 100), (F, F, F), (5, 9, 1), (20, 80, -100), (20, 80, -100)),
    # A tie in the main pot (seats 0 and 2), seat 0 alone wins the side pot of 40.
    ((30, 30, 10), (F, F, F), (8, 2, 8), (25, -30, 5), (25, -30, 5)),
    # Seat 2 folded 5 chips; seats 0 and 1 tie the pot of 55: the odd chip to seat 1.
    ((25, 25, 5), (F, F, T), (4, 4, None), (2, 3, -5), (Fraction(5, 2), Fraction(5, 2), -5)),
    # Seat 1 folded 1 chip; seats 0 and 2 tie the pot of 9: seat 2 is before the button.
    ((4, 1, 4), (F, T, F), (6, None, 6), (0, -1, 1), (Fraction(1, 2), -1, Fraction(1, 2))),
    # A three-way tie of 32 chips: two odd chips, one each to seats 1 and 2.
    (
        (10, 10, 10, 2),
        (F, F, F, T),
        (3, 3, 3, None),
        (0, 1, 1, -2),
        (Fraction(2, 3), Fraction(2, 3), Fraction(2, 3), -2),
    ),
    # Three all-ins of different sizes, the shortest has the best hand, the longest the worst.
    (
        (300, 100, 200, 300),
        (F, F, F, T),
        (2, 9, 5, None),
        # main 400 -> seat 1; side 300 (100 x 3) -> seat 2; side 200 (100 x 2) -> seat 0
        (-100, 300, 100, -300),
        (-100, 300, 100, -300),
    ),
]


@pytest.mark.parametrize(("contributions", "folded", "ranks", "whole", "exact"), WORKED)
def test_worked_examples(
    contributions: tuple[int, ...],
    folded: tuple[bool, ...],
    ranks: tuple[int | None, ...],
    whole: tuple[int, ...],
    exact: tuple[Fraction | int, ...],
) -> None:
    assert pot_deltas(contributions, folded, ranks) == whole
    assert exact_pot_deltas(contributions, folded, ranks) == tuple(Fraction(x) for x in exact)


def test_side_pots_merge_layers_won_by_the_same_seats() -> None:
    # Seat 2 folded after 5: its chips join the pot seats 0 and 1 contest, one pot of 55.
    assert side_pots((25, 25, 5), (F, F, T)) == (Pot(55, (0, 1)),)
    # Three all-ins: a main pot and two side pots; the folded seat's chips are in all three.
    assert side_pots((300, 100, 200, 300), (F, F, F, T)) == (
        Pot(400, (0, 1, 2)),
        Pot(300, (0, 2)),
        Pot(200, (0,)),
    )
    assert side_pots((0, 0), (F, F)) == ()


@pytest.mark.parametrize(
    ("contributions", "folded", "ranks", "message"),
    [
        ((1, 2), (T,), (), "2 contributions but 1 folded flags"),
        ((5,), (F,), (), "at least 2 seats"),
        ((1, -2), (T, F), (), "seat 1's contribution is -2"),
        ((1, 2.5), (T, F), (), "seat 1's contribution is 2.5"),
        ((1, 2), (T, T), (), "every seat folded"),
        ((9, 2, 2), (T, F, F), (1, 1, 1), "a folded seat put in more chips"),
        ((2, 2), (F, F), (), "one rank per seat"),
        ((2, 2, 1), (F, F, T), (3, None, None), "seat 1 is still in the hand but has no rank"),
    ],
)
def test_bad_input_is_refused_with_a_sentence(
    contributions: tuple[int, ...],
    folded: tuple[bool, ...],
    ranks: tuple[int | None, ...],
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        pot_deltas(contributions, folded, ranks)


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], list[bool], list[int | None]]:
    """Random contributions, folds and ranks for 2-6 seats, as a real hand can end.

    Ranks come from a small range so ties are common; a seat with the highest
    contribution is kept in the hand (only such a seat can make the last bet).
    """
    seats = draw(st.integers(2, 6))
    contributions = draw(st.lists(st.integers(0, 60), min_size=seats, max_size=seats))
    folded = draw(st.lists(st.booleans(), min_size=seats, max_size=seats))
    folded[contributions.index(max(contributions))] = False
    ranks: list[int | None] = [None if out else draw(st.integers(0, 3)) for out in folded]
    return contributions, folded, ranks


@settings(max_examples=3_000, deadline=None)
@given(hands())
def test_chips_are_conserved(hand: tuple[list[int], list[bool], list[int | None]]) -> None:
    contributions, folded, ranks = hand
    whole = chip_shares(contributions, folded, ranks)
    exact = pot_shares(contributions, folded, ranks)
    pots = side_pots(contributions, folded)
    assert sum(whole) == sum(contributions) == sum(exact) == sum(pot.amount for pot in pots)
    assert sum(pot_deltas(contributions, folded, ranks)) == 0
    assert sum(exact_pot_deltas(contributions, folded, ranks)) == 0
    for seat, out in enumerate(folded):
        if out:
            assert whole[seat] == exact[seat] == 0
        # Odd chips move less than one chip per pot away from the exact share.
        assert abs(whole[seat] - exact[seat]) < max(1, len(pots))
    assert all(pot.eligible for pot in pots)


@settings(max_examples=2_000, deadline=None)
@given(hands())
def test_a_sole_best_hand_takes_what_it_covers(
    hand: tuple[list[int], list[bool], list[int | None]],
) -> None:
    contributions, folded, ranks = hand
    in_hand = [seat for seat, out in enumerate(folded) if not out]
    ranks = [None if out else 0 for out in folded]
    best = in_hand[-1]
    ranks[best] = 1
    covered = sum(min(c, contributions[best]) for c in contributions)
    assert chip_shares(contributions, folded, ranks)[best] == covered
    assert pot_shares(contributions, folded, ranks)[best] == covered


@settings(max_examples=1_000, deadline=None)
@given(hands())
def test_a_tie_of_every_seat_in_the_hand_splits_each_pot_evenly(
    hand: tuple[list[int], list[bool], list[int | None]],
) -> None:
    contributions, folded, _ = hand
    ranks: list[int | None] = [None if out else 5 for out in folded]
    exact = pot_shares(contributions, folded, ranks)
    expected = [Fraction(0)] * len(contributions)
    for pot in side_pots(contributions, folded):
        for seat in pot.eligible:
            expected[seat] += Fraction(pot.amount, len(pot.eligible))
    assert list(exact) == expected


@settings(max_examples=1_000, deadline=None)
@given(
    st.integers(1, 400),
    st.integers(0, 400),
    st.sampled_from(["fold 0", "fold 1", "win 0", "win 1", "tie"]),
)
def test_heads_up_equals_sdk_payoffs(chips: int, extra: int, outcome: str) -> None:
    """Heads-up without bounty, pots give exactly what hand_deltas gives today."""
    rules = Rules.for_variant("nlhe")
    kind, _, seat_text = outcome.partition(" ")
    if kind == "fold":
        folder = int(seat_text)
        # The folder faced a bet: it put in no more than the other seat.
        contributions = [chips, chips + extra] if folder == 0 else [chips + extra, chips]
        contributions = [min(c, rules.starting_stack) for c in contributions]
        folded = [seat == folder for seat in (0, 1)]
        ranks: list[int | None] = []
        winner: int | None = 1 - folder
    else:
        contributions = [min(chips, rules.starting_stack)] * 2  # called: equal at showdown
        folded = [False, False]
        winner = None if kind == "tie" else int(seat_text)
        ranks = [1, 1] if winner is None else [2 if seat == winner else 1 for seat in (0, 1)]
    stacks = [rules.starting_stack - c for c in contributions]
    assert pot_deltas(contributions, folded, ranks) == hand_deltas(rules, stacks, winner)
