"""Invariants of the N-seat state machine, for 2 to 6 seats, limit and no-limit (hypothesis).

At every decision the chips are conserved (stacks plus pot equal what the seats started
with), the seat to act is in the hand and has a legal action, and the bounds are sane; at
the end the payoffs are zero-sum, a folded seat loses exactly what it put in, and with one
seat left it wins everything the others put in.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.actions import BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import LimitRules, Rules
from sdk.states import RoundState, TerminalState

RANKS = st.lists(st.integers(0, 7462), min_size=6, max_size=6)


@st.composite
def tables(draw: st.DrawFn) -> Rules:
    seats = draw(st.integers(2, 6))
    big = draw(st.sampled_from([2, 10]))
    stack = draw(st.one_of(st.integers(big, 8 * big), st.integers(big, 300 * big)))
    limit = draw(st.booleans())
    return Rules(
        variant="custom",
        seats=seats,
        small_blind=big // 2,
        big_blind=big,
        starting_stack=stack,
        limit=LimitRules() if limit else None,
        all_in_checks=draw(st.booleans()),
        fold_always_legal=draw(st.booleans()),
    )


@settings(max_examples=400, deadline=None)
@given(rules=tables(), data=st.data(), ranks=RANKS)
def test_chips_are_conserved_and_payoffs_zero_sum(
    rules: Rules, data: st.DataObject, ranks: list[int]
) -> None:
    n = rules.seats
    total = n * rules.starting_stack
    state: RoundState | TerminalState = RoundState.new_hand(rules)
    steps = 0
    while isinstance(state, RoundState):
        steps += 1
        assert steps < 200, "the hand does not end"
        assert sum(state.stacks) + state.pot == total and min(state.stacks) >= 0
        assert not state.folded[state.actor]
        legal = state.legal_actions()
        assert legal and BidAction not in legal
        assert (CheckAction in legal) == (state.continue_cost == 0)
        assert (CallAction in legal) == (state.continue_cost > 0)
        if RaiseAction in legal:
            low, high = state.raise_bounds()
            all_in = state.pips[state.actor] + state.stacks[state.actor]
            assert max(state.pips) < low <= high <= all_in
            if rules.limit is not None:
                assert low == high
        kind = data.draw(st.sampled_from(sorted(legal, key=lambda k: k.__name__)))
        if kind is RaiseAction:
            low, high = state.raise_bounds()
            state = state.proceed(RaiseAction(data.draw(st.integers(low, high))))
        else:
            state = state.proceed(kind())
        if isinstance(state, RoundState) and len(state.board) < state.street:
            state = state.with_board(("2c", "3c", "4c", "5c", "6c")[: state.street])
    last = state.previous_state
    if state.folder is None:
        ranked = [None if out else rank for out, rank in zip(last.folded, ranks, strict=False)]
        state = last.settle_ranks(ranked)
    deltas = state.deltas
    assert sum(deltas) == 0
    for seat, out in enumerate(last.folded):
        if out:
            assert deltas[seat] == -last.contributions[seat]
    if last.folded.count(False) == 1:
        winner = last.folded.index(False)
        assert deltas[winner] == sum(last.contributions) - last.contributions[winner]


def test_three_seats_blinds_and_order_of_play() -> None:
    rules = Rules.for_variant("acpc-3pl")
    state = RoundState.new_hand(rules)
    # Seats from the button: the button (seat 0) acts first preflop; 1 and 2 post the blinds.
    assert state.pips == (0, 5, 10) and state.actor == 0
    assert state.legal_actions() == {FoldAction, CallAction, RaiseAction}
    assert state.raise_bounds() == (20, 20)
    state = state.proceed(CallAction())
    assert isinstance(state, RoundState) and state.actor == 1
    state = state.proceed(CallAction())
    assert isinstance(state, RoundState) and state.actor == 2 and state.continue_cost == 0
    state = state.proceed(CheckAction())  # the big blind's option closes preflop
    assert isinstance(state, RoundState) and state.street == 3 and state.actor == 1
    assert state.raise_bounds() == (10, 10)


def test_limit_caps_raises_per_round() -> None:
    state: RoundState | TerminalState = RoundState.new_hand(Rules.for_variant("acpc-2pl"))
    raises = 0
    while isinstance(state, RoundState) and RaiseAction in state.legal_actions():
        state = state.proceed(RaiseAction(state.raise_bounds()[0]))
        raises += 1
    assert raises == 3  # ACPC: 3 raises preflop, the big blind not counted
    assert isinstance(state, RoundState) and state.pips == (40, 30)


def test_acpc_repairs_an_illegal_action_to_the_closest_legal_one() -> None:
    state = RoundState.new_hand(Rules.for_variant("acpc-2pn"))
    assert state.repair(RaiseAction(10_000)) == RaiseAction(400)
    assert state.repair(RaiseAction(3)) == RaiseAction(4)
    assert state.repair(CheckAction()) == CallAction()
    checked = state.proceed(CallAction())
    assert isinstance(checked, RoundState)
    assert checked.repair(FoldAction()) == CheckAction()
    mit = RoundState.new_hand(Rules.for_variant("nlhe"))
    assert mit.repair(RaiseAction(10_000)) == FoldAction()  # MIT: check, else fold
