"""Unit tests of the betting state machine (sdk.states): the rules of mit-engines.md §1.6.

The one deliberate difference from the MIT engines: folding when a check is
free is not legal.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from sdk.actions import (
    HIDDEN_BID,
    Action,
    BidAction,
    CallAction,
    CheckAction,
    FoldAction,
    RaiseAction,
)
from sdk.rules import Rules
from sdk.states import RoundState, State, TerminalState

NLHE = Rules.for_variant("nlhe")
AUCTION = Rules.for_variant("auction")
SWAP = Rules.for_variant("swap")

F, C, K = FoldAction(), CallAction(), CheckAction()
ALL_ACTIONS: tuple[Action, ...] = (F, C, K, RaiseAction(4), BidAction(0))


def R(amount: int) -> RaiseAction:
    return RaiseAction(amount)


def A(amount: int) -> BidAction:
    return BidAction(amount)


def play(state: State, actions: Iterable[Action]) -> State:
    """Apply ``actions`` in order, checking that each one is legal when taken."""
    for action in actions:
        assert isinstance(state, RoundState), f"the hand ended before {action!r}"
        assert state.is_legal(action), (
            f"{action!r} is not legal: legal={state.legal_actions()}, "
            f"raise_bounds={state.raise_bounds()}, street={state.street}, pips={state.pips}"
        )
        state = state.proceed(action)
    return state


def round_state(state: State) -> RoundState:
    assert isinstance(state, RoundState), f"expected a hand in progress, got {state!r}"
    return state


def terminal(state: State) -> TerminalState:
    assert isinstance(state, TerminalState), f"expected a finished hand, got {state!r}"
    return state


def start(rules: Rules = NLHE, actions: Iterable[Action] = ()) -> RoundState:
    return round_state(play(RoundState.new_hand(rules), actions))


# Preflop limp and check: the flop with 2 chips each in the pot.
LIMPED_FLOP = (C, K)


# -- the start of a hand ---------------------------------------------------


def test_initial_state_posts_blinds_and_dealer_acts_first() -> None:
    state = RoundState.new_hand(NLHE)
    assert state.button == 0
    assert state.street == 0
    assert state.active == 0
    assert state.pips == (1, 2)
    assert state.stacks == (399, 398)
    assert state.contributions == (1, 2)
    assert state.pot == 3
    assert state.continue_cost == 1
    assert state.board == ()
    assert state.previous_state is None
    assert state.auction is False
    assert state.bids == (None, None)
    assert state.legal_actions() == {FoldAction, CallAction, RaiseAction}
    assert state.raise_bounds() == (4, 400)


def test_initial_state_follows_the_rules_parameters() -> None:
    rules = NLHE.replace(starting_stack=1000, small_blind=5, big_blind=10)
    state = RoundState.new_hand(rules)
    assert state.pips == (5, 10)
    assert state.stacks == (995, 990)
    assert state.raise_bounds() == (20, 1000)


def test_new_hand_keeps_the_cards_and_bounties_it_is_given() -> None:
    hands = (("Ah", "Kd"), ("7c", "7s"))
    state = RoundState.new_hand(Rules.for_variant("bounty"), hands, ("K", "2"))
    assert state.hands == hands
    assert state.bounties == ("K", "2")


# -- preflop ---------------------------------------------------------------


def test_small_blind_limp_gives_big_blind_the_option() -> None:
    state = start(actions=[C])
    assert state.street == 0
    assert state.active == 1
    assert state.pips == (2, 2)
    assert state.stacks == (398, 398)
    assert state.legal_actions() == {CheckAction, RaiseAction}
    assert state.raise_bounds() == (4, 400)


def test_big_blind_check_after_limp_deals_the_flop() -> None:
    state = start(actions=LIMPED_FLOP)
    assert state.street == 3
    assert state.button == 1
    assert state.active == 1
    assert state.pips == (0, 0)
    assert state.stacks == (398, 398)
    assert state.legal_actions() == {CheckAction, RaiseAction}
    assert state.raise_bounds() == (2, 398)


def test_big_blind_raise_after_limp_reopens_preflop() -> None:
    state = start(actions=[C, R(4)])
    assert state.street == 0
    assert state.active == 0
    assert state.pips == (2, 4)
    assert state.legal_actions() == {FoldAction, CallAction, RaiseAction}
    assert state.raise_bounds() == (6, 400)
    called = start(actions=[C, R(4), C])
    assert called.street == 3
    assert called.stacks == (396, 396)


def test_preflop_call_of_a_raise_ends_the_street() -> None:
    state = start(actions=[R(6), C])
    assert state.street == 3
    assert state.active == 1
    assert state.stacks == (394, 394)
    assert state.pips == (0, 0)


def test_preflop_raise_and_reraise_bounds() -> None:
    state = start(actions=[R(6)])
    assert state.active == 1
    assert state.continue_cost == 4
    assert state.raise_bounds() == (10, 400)
    state = start(actions=[R(6), R(10)])
    assert state.raise_bounds() == (14, 400)


# -- postflop streets ------------------------------------------------------


def test_check_check_ends_a_postflop_street() -> None:
    flop = start(actions=LIMPED_FLOP)
    one_check = round_state(flop.proceed(K))
    assert one_check.street == 3
    assert one_check.active == 0
    assert one_check.legal_actions() == {CheckAction, RaiseAction}
    turn = round_state(one_check.proceed(K))
    assert turn.street == 4
    assert turn.button == 1
    assert turn.active == 1
    river = start(actions=[*LIMPED_FLOP, K, K, K, K])
    assert river.street == 5


def test_check_check_on_the_river_ends_the_hand_at_showdown() -> None:
    end = terminal(play(RoundState.new_hand(NLHE), [*LIMPED_FLOP, K, K, K, K, K, K]))
    assert end.folder is None
    assert end.deltas == (0, 0)
    assert end.previous_state.street == 5
    assert end.previous_state.stacks == (398, 398)


def test_bet_then_min_raise_arithmetic() -> None:
    bet = start(actions=[*LIMPED_FLOP, R(10)])
    assert bet.active == 0
    assert bet.continue_cost == 10
    assert bet.raise_bounds() == (20, 398)
    assert not bet.is_legal(R(19))
    assert bet.is_legal(R(20))
    raised = start(actions=[*LIMPED_FLOP, R(10), R(30)])
    assert raised.active == 1
    assert raised.continue_cost == 20
    assert raised.raise_bounds() == (50, 398)
    assert not raised.is_legal(R(49))
    assert raised.is_legal(R(50))


def test_min_bet_is_one_big_blind() -> None:
    flop = start(actions=LIMPED_FLOP)
    assert flop.raise_bounds()[0] == 2
    assert not flop.is_legal(R(1))
    big = start(NLHE.replace(small_blind=5, big_blind=10), LIMPED_FLOP)
    assert big.raise_bounds() == (10, 390)


def test_call_of_a_postflop_bet_ends_the_street() -> None:
    state = start(actions=[*LIMPED_FLOP, R(10), C])
    assert state.street == 4
    assert state.pips == (0, 0)
    assert state.stacks == (388, 388)
    assert state.active == 1


def test_check_then_bet_then_call_ends_the_street() -> None:
    state = start(actions=[*LIMPED_FLOP, K, R(8), C])
    assert state.street == 4
    assert state.stacks == (390, 390)


# -- all-in ----------------------------------------------------------------


def test_max_raise_is_what_the_opponent_can_call() -> None:
    state = start(actions=[R(100)])
    assert state.raise_bounds() == (198, 400)
    state = start(actions=[R(100), C, R(50)])
    assert state.stacks == (300, 250)
    high = state.raise_bounds()[1]
    assert high == 300
    assert high - state.pips[state.active] <= state.stacks[1 - state.active] + state.continue_cost


def test_all_in_preflop_leaves_only_checks_on_later_streets() -> None:
    shove = start(actions=[R(400)])
    assert shove.legal_actions() == {FoldAction, CallAction}
    state: State = shove.proceed(C)
    streets = []
    while isinstance(state, RoundState):
        assert state.stacks == (0, 0)
        assert state.legal_actions() == {CheckAction}
        assert not state.is_legal(F)
        assert not state.is_legal(R(1))
        assert state.default_action() == K
        streets.append(state.street)
        state = state.proceed(K)
    assert streets == [3, 3, 4, 4, 5, 5]
    assert terminal(state).folder is None


def test_short_all_in_is_the_only_legal_raise() -> None:
    state = start(NLHE.replace(starting_stack=5), [R(4)])
    assert state.stacks == (1, 3)
    assert state.legal_actions() == {FoldAction, CallAction, RaiseAction}
    assert state.raise_bounds() == (5, 5)
    all_in = round_state(state.proceed(R(5)))
    assert all_in.legal_actions() == {FoldAction, CallAction}


def test_facing_a_bet_of_the_whole_stack_cannot_raise() -> None:
    state = start(NLHE.replace(starting_stack=10), [R(10)])
    assert state.continue_cost == 8
    assert state.stacks == (0, 8)
    assert state.legal_actions() == {FoldAction, CallAction}


def test_big_blind_all_in_by_posting() -> None:
    state = start(NLHE.replace(starting_stack=2))
    assert state.stacks == (1, 0)
    assert state.legal_actions() == {FoldAction, CallAction}
    option = round_state(state.proceed(C))
    assert option.street == 0
    assert option.legal_actions() == {CheckAction}


# -- folds -----------------------------------------------------------------


def test_small_blind_fold_preflop_pays_the_big_blind_one() -> None:
    end = terminal(start().proceed(F))
    assert end.deltas == (-1, 1)
    assert end.folder == 0
    assert end.bounty_hits == (None, None)


def test_big_blind_fold_to_a_raise_loses_the_big_blind() -> None:
    end = terminal(start(actions=[R(6)]).proceed(F))
    assert end.deltas == (2, -2)
    assert end.folder == 1


def test_fold_on_the_turn_loses_the_folders_contribution() -> None:
    end = terminal(play(start(), [R(6), C, R(10), C, R(20), F]))
    assert end.folder == 0
    assert end.deltas == (-16, 16)
    end = terminal(play(start(), [R(6), C, R(10), C, R(20), R(60), F]))
    assert end.folder == 1
    assert end.deltas == (36, -36)


# -- is_legal --------------------------------------------------------------


def test_fold_is_illegal_when_checking_is_free() -> None:
    assert not start(actions=[C]).is_legal(F)
    assert not start(actions=LIMPED_FLOP).is_legal(F)
    assert not start(actions=[*LIMPED_FLOP, K]).is_legal(F)
    assert FoldAction not in start(actions=LIMPED_FLOP).legal_actions()


def test_is_legal_rejects_raises_out_of_bounds() -> None:
    state = start()
    assert not state.is_legal(R(3))
    assert state.is_legal(R(4))
    assert state.is_legal(R(400))
    assert not state.is_legal(R(401))
    assert not state.is_legal(R(0))
    assert not state.is_legal(R(-4))


@pytest.mark.parametrize(
    ("actions", "legal"),
    [
        ((), (F, C, R(4))),
        ((C,), (K, R(4))),
        ((*LIMPED_FLOP,), (K, R(2), R(4))),
        ((*LIMPED_FLOP, R(10)), (F, C, R(20))),
    ],
)
def test_is_legal_rejects_wrong_action_types(
    actions: tuple[Action, ...], legal: tuple[Action, ...]
) -> None:
    state = start(actions=actions)
    for action in ALL_ACTIONS + legal:
        assert state.is_legal(action) == (action in legal), action


def test_is_legal_rejects_actions_in_the_auction_other_than_bids() -> None:
    state = start(AUCTION, [C, K])
    assert state.auction
    for action in (F, C, K, R(2), R(4)):
        assert not state.is_legal(action)
    assert state.is_legal(A(0))
    assert state.is_legal(A(398))
    assert not state.is_legal(A(399))
    assert not state.is_legal(A(HIDDEN_BID))


@pytest.mark.parametrize("amount", [4.5, "10"])
def test_is_legal_rejects_amounts_that_are_not_whole_chips(amount: object) -> None:
    """In-process bots hand their action objects straight to the engine's is_legal check
    (no codec in between), so is_legal itself must refuse fractional or non-numeric amounts."""
    state = start(AUCTION, [R(6), C])
    assert state.is_legal(A(amount)) is False  # type: ignore[arg-type]
    betting = start(actions=[R(6), C])
    assert betting.is_legal(R(amount)) is False  # type: ignore[arg-type]


def test_proceed_rejects_things_that_are_not_actions() -> None:
    with pytest.raises(TypeError):
        start().proceed("C")  # type: ignore[arg-type]


# -- default_action --------------------------------------------------------


def test_default_action_checks_when_free_else_folds() -> None:
    assert start().default_action() == F
    assert start(actions=[C]).default_action() == K
    assert start(actions=LIMPED_FLOP).default_action() == K
    assert start(actions=[*LIMPED_FLOP, R(10)]).default_action() == F


def test_default_action_bids_zero_in_the_auction() -> None:
    state = start(AUCTION, [C, K])
    assert state.default_action() == A(0)
    second = round_state(state.proceed(A(7)))
    assert second.default_action() == A(0)


@pytest.mark.parametrize(
    "actions", [(), (C,), LIMPED_FLOP, (*LIMPED_FLOP, R(10)), (R(400),), (R(400), C)]
)
def test_default_action_is_always_legal(actions: tuple[Action, ...]) -> None:
    state = start(actions=actions)
    assert state.is_legal(state.default_action())


# -- the auction (Auction Hold'em) -----------------------------------------


def test_auction_opens_after_preflop_with_big_blind_bidding_first() -> None:
    state = start(AUCTION, [R(6), C])
    assert state.street == 3
    assert state.auction is True
    assert state.legal_actions() == {BidAction}
    assert state.active == 1
    assert state.bid_bounds() == (0, 394)
    second = round_state(state.proceed(A(12)))
    assert second.auction is True
    assert second.active == 0
    assert second.bids == (None, 12)
    assert second.stacks == (394, 394)
    assert second.legal_actions() == {BidAction}
    assert second.bid_bounds() == (0, 394)


def test_no_auction_without_auction_rules() -> None:
    state = start(NLHE, [R(6), C])
    assert state.auction is False
    assert BidAction not in state.legal_actions()
    assert not state.is_legal(A(0))


def test_higher_bid_pays_the_lower_bid_then_big_blind_bets_first() -> None:
    state = start(AUCTION, [R(6), C, A(12), A(20)])
    assert state.auction is False
    assert state.bids == (20, 12)
    assert state.stacks == (382, 394)
    assert state.contributions == (18, 6)
    assert state.pips == (0, 0)
    assert state.street == 3
    assert state.button == 1
    assert state.active == 1
    assert state.legal_actions() == {CheckAction, RaiseAction}
    assert state.raise_bounds() == (2, 382)


def test_big_blind_winning_the_auction_pays_the_dealers_bid() -> None:
    state = start(AUCTION, [R(6), C, A(30), A(7)])
    assert state.bids == (7, 30)
    assert state.stacks == (394, 387)


def test_tied_bids_both_pay_their_own_bid() -> None:
    state = start(AUCTION, [R(6), C, A(10), A(10)])
    assert state.bids == (10, 10)
    assert state.stacks == (384, 384)


def test_zero_zero_tie_costs_nothing() -> None:
    state = start(AUCTION, [C, K, A(0), A(0)])
    assert state.bids == (0, 0)
    assert state.stacks == (398, 398)
    assert state.auction is False
    assert state.active == 1


def test_all_in_players_can_only_bid_zero() -> None:
    state = start(AUCTION, [R(400), C])
    assert state.auction is True
    assert state.bid_bounds() == (0, 0)
    assert state.is_legal(A(0))
    assert not state.is_legal(A(1))
    after = start(AUCTION, [R(400), C, A(0), A(0)])
    assert after.stacks == (0, 0)
    assert after.legal_actions() == {CheckAction}


def test_a_bidder_may_bid_its_whole_stack() -> None:
    state = start(AUCTION, [R(6), C, A(394)])
    assert state.bid_bounds() == (0, 394)
    won = start(AUCTION, [R(6), C, A(394), A(0)])
    assert won.stacks == (394, 394)
    tie = start(AUCTION, [R(6), C, A(394), A(394)])
    assert tie.stacks == (0, 0)
    assert tie.legal_actions() == {CheckAction}


def test_after_an_unequal_auction_bets_are_capped_by_the_shorter_stack() -> None:
    state = start(AUCTION, [R(6), C, A(12), A(20)])
    assert state.raise_bounds() == (2, 382)
    shove = round_state(state.proceed(R(382)))
    assert shove.legal_actions() == {FoldAction, CallAction}
    called = round_state(shove.proceed(C))
    assert called.stacks == (0, 12)
    assert called.legal_actions() == {CheckAction}


def test_auction_fold_payoff_counts_the_auction_payment() -> None:
    end = terminal(play(start(AUCTION), [R(6), C, A(12), A(20), K, R(20), F]))
    assert end.deltas == (6, -6)
    end = terminal(play(start(AUCTION), [R(6), C, A(12), A(20), R(10), F]))
    assert end.deltas == (-18, 18)


# -- hand_changed (Swap Hold'em) -------------------------------------------


def test_hand_changed_after_a_swap() -> None:
    dealt = RoundState.new_hand(SWAP, (("Ah", "Kd"), ("7c", "7s")))
    flop = round_state(play(dealt, LIMPED_FLOP))
    assert not flop.hand_changed(0)
    assert not flop.hand_changed(1)
    swapped = flop.with_hand(1, ("7c", "Jd"))
    assert swapped.hand_changed(1)
    assert not swapped.hand_changed(0)
    later = round_state(swapped.proceed(K))
    assert later.hand_changed(1)
    assert not later.with_hand(0, ("Kd", "Ah")).hand_changed(0)


def test_hand_changed_is_false_for_unknown_cards() -> None:
    dealt = RoundState.new_hand(SWAP, (("Ah", "Kd"), ()))
    flop = round_state(play(dealt, LIMPED_FLOP))
    assert not flop.hand_changed(1)


# -- MIT-compatible names --------------------------------------------------


def test_deck_is_the_board() -> None:
    flop = start(actions=LIMPED_FLOP).with_board(("2h", "9d", "Qs"))
    assert flop.deck == ("2h", "9d", "Qs")
    assert flop.deck == flop.board


def test_terminal_state_bids_are_the_hands_bids() -> None:
    end = terminal(play(start(AUCTION), [R(6), C, A(12), A(20), K, R(20), F]))
    assert end.bids == (20, 12)
    assert terminal(start(NLHE).proceed(F)).bids == (None, None)


def test_with_auction_result_sets_stacks_and_bids() -> None:
    # A client that cannot see the opponent's sealed bid steps it as HIDDEN_BID.
    sealed = round_state(start(AUCTION, [R(6), C]).proceed(A(HIDDEN_BID)))
    state = round_state(sealed.proceed(A(20)))
    assert state.bids == (20, HIDDEN_BID)
    assert state.stacks == (394, 394)
    updated = state.with_auction_result((382, 394), (20, 12))
    assert updated.stacks == (382, 394)
    assert updated.bids == (20, 12)


def test_terminal_with_hand_reveals_the_opponents_cards() -> None:
    end = terminal(start(NLHE).proceed(F)).with_hand(1, ("7c", "7s"))
    assert end.previous_state.hands[1] == ("7c", "7s")


# -- settle ----------------------------------------------------------------


def _river(rules: Rules, actions: Iterable[Action]) -> RoundState:
    """The river state before its last action (the state a showdown is settled from)."""
    end = terminal(play(RoundState.new_hand(rules), actions))
    assert end.folder is None
    return end.previous_state


def test_settle_showdown_winner_wins_the_losers_contribution() -> None:
    river = _river(NLHE, [R(6), C, R(10), C, K, K, K, K])
    assert river.contributions == (16, 16)
    assert river.settle(0).deltas == (16, -16)
    assert river.settle(1).deltas == (-16, 16)
    assert river.settle(0).folder is None
    assert river.settle(0).previous_state == river


def test_settle_tie_leaves_bankrolls_unchanged() -> None:
    river = _river(NLHE, [R(6), C, R(10), C, K, K, K, K])
    assert river.settle(None).deltas == (0, 0)
    assert river.settle(None).bounty_hits == (None, None)


def test_settle_after_a_final_call_uses_the_called_stacks() -> None:
    river = _river(NLHE, [C, K, K, K, K, K, R(50), C])
    assert river.contributions == (52, 52)
    assert river.settle(1).deltas == (-52, 52)


def test_settle_auction_tie_with_unequal_contributions_is_zero() -> None:
    river = _river(AUCTION, [R(6), C, A(12), A(20), K, K, K, K, K, K])
    assert river.contributions == (18, 6)
    assert river.settle(None).deltas == (0, 0)
    assert river.settle(0).deltas == (6, -6)
    assert river.settle(1).deltas == (-18, 18)
