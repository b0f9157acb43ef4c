"""Payoffs (sdk.payoffs) and the worked examples of rules/bounty-holdem.txt.

Every example bullet of the written Bounty Hold'em rules is played here as a
real hand: RoundState.new_hand with cards and bounties, the actions through
proceed, and settle(winner) for a showdown.  Rounding follows the written
rules: a fractional win rounds down for the dealer (seat 0) and up for the big
blind (seat 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import pytest

from sdk.actions import Action, BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.payoffs import bounty_hit, hand_deltas, round_winnings
from sdk.rules import BountyRules, Rules
from sdk.states import RoundState, State, TerminalState

NLHE = Rules.for_variant("nlhe")
BOUNTY = Rules.for_variant("bounty")
AUCTION = Rules.for_variant("auction")

F, C, K = FoldAction(), CallAction(), CheckAction()

# Hole cards and a five-card board with no card of rank A, K, Q, J or 2..4 on the board,
# so bounties can be chosen to hit or miss at will.
HANDS = (("Ah", "Kd"), ("Qc", "Js"))
BOARD = ("5h", "6d", "8s", "9c", "Tc")
MISS = "3"  # a rank in nobody's hand and not on the board


def R(amount: int) -> RaiseAction:
    return RaiseAction(amount)


def bounties_for(hits: tuple[bool, bool]) -> tuple[str, str]:
    """Bounty ranks that make each seat hit (with its own hole cards) or miss."""
    return (
        HANDS[0][1][0] if hits[0] else MISS,
        HANDS[1][0][0] if hits[1] else MISS,
    )


def play_hand(
    rules: Rules,
    actions: Iterable[Action],
    bounties: tuple[str | None, str | None] = (None, None),
    hands: tuple[tuple[str, ...], tuple[str, ...]] = HANDS,
    board: tuple[str, ...] = BOARD,
) -> TerminalState:
    """Play ``actions`` from a new hand, dealing ``board`` street by street as the dealer does."""
    state: State = RoundState.new_hand(rules, hands, bounties)
    for action in actions:
        assert isinstance(state, RoundState), f"the hand ended before {action!r}"
        assert state.is_legal(action), f"{action!r} is not legal at {state!r}"
        before = state.street
        state = state.proceed(action)
        if isinstance(state, RoundState) and state.street != before:
            state = state.with_board(board[: state.street])
    assert isinstance(state, TerminalState), "the actions did not end the hand"
    return state


def showdown(
    rules: Rules,
    actions: Iterable[Action],
    winner: int | None,
    bounties: tuple[str | None, str | None] = (None, None),
) -> TerminalState:
    """Play to showdown and settle it with ``winner`` (None for a tie)."""
    end = play_hand(rules, actions, bounties)
    assert end.folder is None, "the hand ended with a fold, not a showdown"
    return end.previous_state.settle(winner)


def seat_delta(deltas: tuple[int, int], seat: int) -> int:
    assert deltas[0] + deltas[1] == 0
    return deltas[seat]


CHECK_DOWN_FROM_FLOP: tuple[Action, ...] = (K, K, K, K, K, K)


# -- the five worked examples of rules/bounty-holdem.txt --------------------


@pytest.mark.parametrize("a", [0, 1])
def test_example_1_both_bet_50_winner_hits_wins_85(a: int) -> None:
    hits = (a == 0, a == 1)
    end = showdown(BOUNTY, [R(50), C, *CHECK_DOWN_FROM_FLOP], a, bounties_for(hits))
    assert end.previous_state.contributions == (50, 50)
    assert seat_delta(end.deltas, a) == 85
    assert seat_delta(end.deltas, 1 - a) == -85
    assert end.bounty_hits == hits


def _example_2_actions(a: int) -> list[Action]:
    # Preflop limp/check and a flop bet of 28 called: 60 chips in the pot after the flop.
    flop: list[Action] = [C, K, R(28), C]
    # On the turn the big blind (seat 1) acts first; if A is the dealer, B checks first.
    turn: list[Action] = [R(10), R(30), F] if a == 1 else [K, R(10), R(30), F]
    return flop + turn


@pytest.mark.parametrize("a", [0, 1])
def test_example_2_turn_bet_raise_fold_b_wins_70(a: int) -> None:
    b = 1 - a
    # B's bounty is the rank of the turn card: it hits only once the turn is dealt.
    bounties: list[str | None] = [MISS, MISS]
    bounties[b] = BOARD[3][0]
    end = play_hand(BOUNTY, _example_2_actions(a), (bounties[0], bounties[1]))
    assert end.folder == a
    assert end.previous_state.board == BOARD[:4]
    assert end.previous_state.pot - sum(end.previous_state.pips) == 60
    assert end.previous_state.contributions[a] == 40
    assert seat_delta(end.deltas, b) == 70
    assert end.bounty_hits[b] is True


@pytest.mark.parametrize("a", [0, 1])
def test_example_2_without_a_hit_pays_the_normal_40(a: int) -> None:
    end = play_hand(BOUNTY, _example_2_actions(a), (MISS, MISS))
    assert seat_delta(end.deltas, 1 - a) == 40


def test_example_3_small_blind_folds_big_blind_hits_wins_12() -> None:
    end = play_hand(BOUNTY, [F], bounties_for((False, True)))
    assert end.folder == 0
    assert end.bounty_hits == (False, True)
    assert end.deltas == (-12, 12)


def test_example_3_without_the_hit_the_big_blind_wins_1() -> None:
    assert play_hand(BOUNTY, [F], bounties_for((False, False))).deltas == (-1, 1)


def test_example_3_preflop_fold_checks_hole_cards_only() -> None:
    # The big blind's bounty is on the board that was never dealt: no hit.
    end = play_hand(BOUNTY, [F], (MISS, BOARD[0][0]))
    assert end.bounty_hits == (False, False)
    assert end.deltas == (-1, 1)


@pytest.mark.parametrize("a", [0, 1])
def test_example_4_chop_40_each_a_hits_wins_20(a: int) -> None:
    hits = (a == 0, a == 1)
    end = showdown(BOUNTY, [R(40), C, *CHECK_DOWN_FROM_FLOP], None, bounties_for(hits))
    assert end.previous_state.contributions == (40, 40)
    assert seat_delta(end.deltas, a) == 20


@pytest.mark.parametrize("hits", [(True, True), (False, False)])
def test_chop_with_both_or_neither_hitting_changes_nothing(hits: tuple[bool, bool]) -> None:
    end = showdown(BOUNTY, [R(40), C, *CHECK_DOWN_FROM_FLOP], None, bounties_for(hits))
    assert end.deltas == (0, 0)


@pytest.mark.parametrize("a", [0, 1])
def test_example_5_all_in_winner_profits_400_or_610(a: int) -> None:
    actions = [R(400), C, *CHECK_DOWN_FROM_FLOP]
    plain = showdown(BOUNTY, actions, a, bounties_for((False, False)))
    assert plain.previous_state.stacks == (0, 0)
    assert seat_delta(plain.deltas, a) == 400
    hit = showdown(BOUNTY, actions, a, bounties_for((a == 0, a == 1)))
    assert seat_delta(hit.deltas, a) == 610
    assert seat_delta(hit.deltas, 1 - a) == -610


# -- rounding -------------------------------------------------------------


def test_fractional_showdown_win_by_the_dealer_rounds_down() -> None:
    end = showdown(BOUNTY, [R(5), C, *CHECK_DOWN_FROM_FLOP], 0, bounties_for((True, False)))
    assert end.deltas == (17, -17)  # 1.5 * 5 + 10 = 17.5


def test_fractional_showdown_win_by_the_big_blind_rounds_up() -> None:
    end = showdown(BOUNTY, [R(5), C, *CHECK_DOWN_FROM_FLOP], 1, bounties_for((False, True)))
    assert end.deltas == (-18, 18)


def test_fractional_fold_win_by_the_dealer_rounds_down() -> None:
    # The hand of mit-engines.md §2.5 (the MIT engine rounds this one up, to 18).
    end = play_hand(BOUNTY, [R(5), C, K, R(10), F], bounties_for((True, False)))
    assert end.folder == 1
    assert end.deltas == (17, -17)


def test_fractional_fold_win_by_the_big_blind_rounds_up() -> None:
    end = play_hand(BOUNTY, [R(5), C, R(10), F], bounties_for((False, True)))
    assert end.folder == 0
    assert end.deltas == (-18, 18)


@pytest.mark.parametrize(("each", "seat0_wins", "seat1_wins"), [(41, 20, 21), (42, 20, 21)])
def test_fractional_chop_bonus_rounds_by_the_hitters_seat(
    each: int, seat0_wins: int, seat1_wins: int
) -> None:
    actions = [R(each), C, *CHECK_DOWN_FROM_FLOP]
    assert showdown(BOUNTY, actions, None, bounties_for((True, False))).deltas == (
        seat0_wins,
        -seat0_wins,
    )
    assert showdown(BOUNTY, actions, None, bounties_for((False, True))).deltas == (
        -seat1_wins,
        seat1_wins,
    )


def test_round_winnings_directions() -> None:
    assert round_winnings(Fraction(35, 2), 0) == 17
    assert round_winnings(Fraction(35, 2), 1) == 18
    assert round_winnings(Fraction(17), 0) == 17
    assert round_winnings(Fraction(17), 1) == 17


# -- other payoff rules ---------------------------------------------------


def test_loser_hitting_its_bounty_changes_nothing() -> None:
    end = showdown(BOUNTY, [R(50), C, *CHECK_DOWN_FROM_FLOP], 0, bounties_for((False, True)))
    assert end.deltas == (50, -50)
    assert end.bounty_hits == (False, True)


def test_a_folder_hitting_its_bounty_changes_nothing() -> None:
    end = play_hand(BOUNTY, [F], bounties_for((True, False)))
    assert end.bounty_hits == (True, False)
    assert end.deltas == (-1, 1)
    end = play_hand(BOUNTY, [R(5), C, R(10), F], bounties_for((True, True)))
    assert end.folder == 0
    assert end.deltas == (-18, 18)


def test_a_bounty_on_the_board_counts_for_the_winner() -> None:
    end = showdown(BOUNTY, [R(50), C, *CHECK_DOWN_FROM_FLOP], 1, (MISS, BOARD[4][0]))
    assert end.bounty_hits == (False, True)
    assert end.deltas == (-85, 85)


def test_bounties_are_ignored_without_bounty_rules() -> None:
    end = showdown(NLHE, [R(50), C, *CHECK_DOWN_FROM_FLOP], 0, bounties_for((True, True)))
    assert end.deltas == (50, -50)
    assert end.bounty_hits == (None, None)


def test_other_bounty_parameters() -> None:
    rules = BOUNTY.replace(bounty=BountyRules(ratio=2.0, constant=0))
    end = showdown(rules, [R(50), C, *CHECK_DOWN_FROM_FLOP], 1, bounties_for((False, True)))
    assert end.deltas == (-100, 100)


@pytest.mark.parametrize("each", [2, 6, 51, 400])
def test_non_bounty_ties_leave_bankrolls_unchanged(each: int) -> None:
    preflop: list[Action] = [R(each), C] if each > 2 else [C, K]
    end = showdown(NLHE, [*preflop, *CHECK_DOWN_FROM_FLOP], None)
    assert end.previous_state.contributions == (each, each)
    assert end.deltas == (0, 0)


def test_auction_tie_with_unequal_contributions_is_zero() -> None:
    auction: list[Action] = [R(6), C, BidAction(12), BidAction(21)]
    end = showdown(AUCTION, [*auction, *CHECK_DOWN_FROM_FLOP], None)
    # The dealer paid the big blind's bid of 12 for the third card.
    assert end.previous_state.contributions == (18, 6)
    assert end.deltas == (0, 0)
    odd: list[Action] = [R(6), C, BidAction(7), BidAction(30)]
    end = showdown(AUCTION, [*odd, *CHECK_DOWN_FROM_FLOP], None)
    assert end.previous_state.contributions == (13, 6)
    assert end.deltas == (0, 0)


def test_hand_deltas_directly() -> None:
    assert hand_deltas(NLHE, (390, 394), 0) == (6, -6)
    assert hand_deltas(NLHE, (390, 394), 1) == (-10, 10)
    assert hand_deltas(NLHE, (390, 394), None) == (0, 0)
    assert hand_deltas(BOUNTY, (0, 0), 0, (True, False)) == (610, -610)
    assert hand_deltas(BOUNTY, (0, 0), 1, (False, True)) == (-610, 610)
    assert hand_deltas(BOUNTY, (360, 360), None, (True, False)) == (20, -20)
    assert hand_deltas(BOUNTY, (360, 360), None, (False, True)) == (-20, 20)


def test_bounty_hit() -> None:
    assert bounty_hit("K", ("Ah", "Kd"), ())
    assert bounty_hit("2", ("7c", "7s"), ("2h", "9d", "Qs"))
    assert not bounty_hit("2", ("7c", "7s"), ("3h", "9d", "Qs"))
    assert not bounty_hit(None, ("Ah", "Kd"), ("Ac",))
