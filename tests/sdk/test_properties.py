"""Property tests of the state machine over random legal hands, for every variant.

Each example draws match rules (stack 2..1000, small <= big <= stack), a deal,
bounties, and then a legal action at every decision (raise and bid amounts
anywhere within bounds).  Chips are tracked by an independent ledger built
from the actions alone, so conservation is checked against the rules, not
against the state's own arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sdk.acpc import (
    AcpcProtocolError,
    action_from_token,
    action_from_wire,
    action_to_wire,
    committed_before_street,
    parse_action,
    wire_token,
)
from sdk.actions import (
    Action,
    ActionType,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.games import MIT_VARIANTS
from sdk.payoffs import hand_deltas
from sdk.rules import RANKS, SUITS, BountyRules, Rules
from sdk.states import RoundState, State, TerminalState

DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
NEXT_STREET = {0: 3, 3: 4, 4: 5}
#: Toss Hold'em: preflop, the two discard streets, then three betting streets.
TOSS_NEXT_STREET = {0: 2, 2: 3, 3: 4, 4: 5, 5: 6}
PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def rules_for(draw: st.DrawFn, variant: str) -> Rules:
    """The variant's rules with random stacks, blinds and (for bounty) bonus parameters."""
    stack = draw(st.integers(2, 1000))
    big = draw(st.one_of(st.integers(1, min(stack, 10)), st.integers(1, stack)))
    small = draw(st.integers(1, big))
    rules = Rules.for_variant(variant).replace(
        starting_stack=stack, big_blind=big, small_blind=small
    )
    if variant == "bounty":
        ratio = draw(st.sampled_from([1.0, 1.25, 1.5, 2.0, 3.0]))
        constant = draw(st.integers(0, 50))
        rules = rules.replace(bounty=BountyRules(ratio=ratio, constant=constant))
    return rules


@dataclass
class Deal:
    holes: tuple[tuple[str, ...], tuple[str, ...]]
    board: tuple[str, ...]
    auction_cards: tuple[str, str]
    bounties: tuple[str, str]


@st.composite
def deals(draw: st.DrawFn, hole_cards: int = 2) -> Deal:
    """Hole cards (two, or three for Toss Hold'em), auction cards, the rest of the deck as
    the board (five cards are used, four in Toss Hold'em, up to 31 in River of Blood) and
    bounty ranks."""
    cards = draw(st.permutations(DECK))
    ranks = (draw(st.sampled_from(RANKS)), draw(st.sampled_from(RANKS)))
    n = hole_cards
    return Deal(
        (tuple(cards[:n]), tuple(cards[n : 2 * n])),
        tuple(cards[2 * n + 2 :]),
        (cards[2 * n], cards[2 * n + 1]),
        ranks,
    )


@dataclass
class Ledger:
    """Chips each seat has committed, computed from the actions alone."""

    committed: list[int]
    bids: list[int | None] = field(default_factory=lambda: [None, None])

    def record(self, state: RoundState, action: Action) -> None:
        me = state.active
        if isinstance(action, RaiseAction):
            self.committed[me] += action.amount - state.pips[me]
        elif isinstance(action, CallAction):
            self.committed[me] += state.pips[1 - me] - state.pips[me]
        elif isinstance(action, BidAction):
            self.bids[me] = action.amount
            b0, b1 = self.bids
            if b0 is not None and b1 is not None:
                if b0 == b1:
                    self.committed[0] += b0
                    self.committed[1] += b1
                elif b0 > b1:
                    self.committed[0] += b1
                else:
                    self.committed[1] += b0


def amounts(low: int, high: int) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from([low, high]), st.integers(low, high))


PASSIVE: dict[ActionType, Action] = {
    FoldAction: FoldAction(),
    CallAction: CallAction(),
    CheckAction: CheckAction(),
}


def draw_action(data: st.DataObject, state: RoundState) -> Action:
    """A random legal action, amounts anywhere within bounds (the bounds themselves often)."""
    kind = data.draw(st.sampled_from(sorted(state.legal_actions(), key=lambda t: t.__name__)))
    if kind is RaiseAction:
        return RaiseAction(data.draw(amounts(*state.raise_bounds()), label="raise"))
    if kind is BidAction:
        return BidAction(data.draw(amounts(*state.bid_bounds()), label="bid"))
    if kind is DiscardAction:
        return DiscardAction(data.draw(st.sampled_from(state.discard_indices()), label="discard"))
    return PASSIVE[kind]


def _reads_as_the_long_way(state: RoundState, token: str) -> None:
    """The codec's short way reads ``token`` as its long way does, an error included."""
    try:
        expected = action_from_wire(state, parse_action(token))
    except AcpcProtocolError as error:
        with pytest.raises(type(error)) as raised:
            action_from_token(state, token)
        assert str(raised.value) == str(error)
    else:
        assert action_from_token(state, token) == expected


def check_decision(data: st.DataObject, state: RoundState) -> None:
    """What must hold at every decision point."""
    rules = state.rules
    me, opp = state.active, 1 - state.active
    legal = state.legal_actions()
    assert legal, "no legal action in a hand that is not over"
    assert min(state.stacks) >= 0
    assert min(state.pips) >= 0
    if rules.discard and state.street in (2, 3):
        # Toss Hold'em: the street's first seat discards, the other acknowledges.
        assert state.pips == (0, 0)
        assert len(state.board) == state.street + (state.active != state.opener)
        if state.active == state.opener:
            assert legal == {DiscardAction}
            assert state.active == (1 if state.street == 2 else 0), "the big blind discards first"
            assert len(state.hands[me]) == 3
            assert state.discard_indices() == (0, 1, 2)
            index = data.draw(st.integers(0, 2), label="discard index")
            assert state.is_legal(DiscardAction(index))
            for bad in (-1, 3, 2.0, True):
                assert not state.is_legal(DiscardAction(bad))  # type: ignore[arg-type]
            assert not state.is_legal(FoldAction())
            assert state.default_action() == FoldAction(), "a missed discard is a fold (2026)"
        else:
            assert legal == {CheckAction}
            assert state.discard_indices() == ()
            assert state.default_action() == CheckAction()
        assert state.button % 2 == state.active
        return
    assert state.is_legal(state.default_action())
    assert DiscardAction not in legal
    if state.auction:
        assert legal == {BidAction}
        assert state.street == 3
        assert state.bid_bounds() == (0, state.stacks[me])
        low, high = state.bid_bounds()
        assert state.is_legal(BidAction(data.draw(st.integers(low, high), label="bid")))
        assert not state.is_legal(BidAction(low - 1))
        assert not state.is_legal(BidAction(high + 1))
        return
    cost = state.continue_cost
    assert cost >= 0
    # What the ACPC wire adds to a street raise: the actor's share of the contributions.
    assert committed_before_street(state) == state.contributions[me] - state.pips[me]
    seats = range(len(state.stacks))
    assert tuple([state.contribution(seat) for seat in seats]) == state.contributions
    # The codec's short ways for one-letter actions say what its long ways say.
    for action in (FoldAction(), CallAction() if cost else CheckAction()):
        assert wire_token(state, action) == action_to_wire(state, action).token
    before = committed_before_street(state)
    odd = data.draw(st.integers(0, 2 * rules.starting_stack), label="a raise's total")
    for token in ("c", "f", "r", "r0", f"r{before}", f"r{before + 1}", f"r{odd}", f"r0{odd}"):
        _reads_as_the_long_way(state, token)
    for token in (f"R{before + 1}", f"b{before + 1}", f"r{before + 1}x", "r\u0661"):
        _reads_as_the_long_way(state, token)
    if rules.limit is None:
        with pytest.raises(ValueError, match="is not a raise"):  # the long way's sentence
            wire_token(state, RaiseAction(0))
    if state.rules.fold_always_legal:
        assert FoldAction in legal, "fold is legal whenever a seat is asked (MIT 2025)"
    else:
        assert (FoldAction in legal) == (cost > 0), "fold must be legal exactly when facing a bet"
    assert (CallAction in legal) == (cost > 0)
    assert (CheckAction in legal) == (cost == 0)
    assert BidAction not in legal
    if 0 in state.stacks:
        assert RaiseAction not in legal
    if RaiseAction in legal:
        low, high = state.raise_bounds()
        assert low <= high
        assert low > state.pips[opp], "a raise must put in more than a call"
        assert high - state.pips[me] <= state.stacks[me]
        assert high - state.pips[opp] <= state.stacks[opp], "the opponent must be able to call"
        if high - state.pips[me] < state.stacks[me]:
            assert high - state.pips[opp] == state.stacks[opp]
        full_raise = state.pips[opp] + max(cost, rules.big_blind)
        assert low == min(full_raise, high)
        amount = data.draw(st.integers(low, high), label="raise within bounds")
        assert state.is_legal(RaiseAction(amount))
        token = wire_token(state, RaiseAction(amount))
        assert token == action_to_wire(state, RaiseAction(amount)).token
        assert action_from_token(state, token) == RaiseAction(amount)
        assert not state.is_legal(RaiseAction(low - 1))
        assert not state.is_legal(RaiseAction(high + 1))
    elif cost > 0:
        assert not state.is_legal(RaiseAction(state.pips[opp] + max(cost, rules.big_blind)))


def check_transition(before: RoundState, after: State, ledger: Ledger, streets: list[int]) -> None:
    """What must hold between a state and the next."""
    rules = before.rules
    start = rules.starting_stack
    last = after.previous_state if isinstance(after, TerminalState) else after
    assert last is not None
    assert last.contributions == tuple(ledger.committed), "chips moved that no action moved"
    assert sum(last.stacks) + last.pot == 2 * start
    assert min(last.stacks) >= 0
    assert last.pot == sum(ledger.committed)
    if not isinstance(after, RoundState):
        return
    if rules.discard:
        check_toss_transition(before, after, streets)
        return
    if after.street != before.street:
        if before.street >= 5:  # River of Blood: a run follows a red river or run card
            assert rules.variant == "blood" and before.board[-1][-1] in "dh"
            assert after.street == before.street + 1
        else:
            assert after.street == NEXT_STREET[before.street]
        streets.append(after.street)
        assert after.pips == (0, 0)
        assert after.button == 1
        assert after.auction == (rules.auction and after.street == 3)
        if not rules.auction or after.street == 3:
            assert after.contributions[0] == after.contributions[1]
    elif before.auction and not after.auction:
        assert after.street == 3
        assert after.button == 1
        assert after.pips == (0, 0)
    else:
        assert after.button == before.button + 1


def check_toss_transition(before: RoundState, after: RoundState, streets: list[int]) -> None:
    """Toss Hold'em: a discard moves one hole card to the end of the board; streets go
    0, 2, 3, 4, 5, 6; the seat to act is ``button % 2`` throughout, as on the 2026 engine."""
    me = before.active
    assert after.button % 2 == after.active
    if after.street != before.street:
        assert after.street == TOSS_NEXT_STREET[before.street]
        streets.append(after.street)
        assert after.pips == (0, 0)
        assert after.active == (0 if after.street == 3 else 1)
        if after.street >= 4:
            assert all(len(hand) == 2 for hand in after.hands)
        if after.street > 2:
            assert after.contributions[0] == after.contributions[1]
    elif len(after.board) != len(before.board):  # a discard
        assert after.board[:-1] == before.board
        card = after.board[-1]
        assert card in before.hands[me] and card not in after.hands[me]
        assert len(after.hands[me]) == 2
        assert after.hands[1 - me] == before.hands[1 - me]
        assert after.active == 1 - me and after.stacks == before.stacks
    else:
        assert after.button == before.button + 1


def check_terminal(data: st.DataObject, end: TerminalState, deal: Deal) -> None:
    """Payoffs of a finished hand: zero-sum and bounded, for any showdown result."""
    rules = end.previous_state.rules
    start = rules.starting_stack
    bounty = rules.bounty
    bound = start if bounty is None else math.ceil(bounty.ratio * start) + bounty.constant
    last = end.previous_state
    results = [end]
    if end.folder is None:
        assert end.deltas == (0, 0)
        if rules.variant == "blood":  # every card from the river on red but the last
            assert last.street >= 5 and len(last.board) == last.street
            assert last.board[-1][-1] in "cs"
            assert all(card[-1] in "dh" for card in last.board[4:-1])
        else:
            assert last.street == (6 if rules.discard else 5)
        if rules.discard:
            assert len(last.board) == 6 and all(len(hand) == 2 for hand in last.hands)
            assert len(set(last.board + last.hands[0] + last.hands[1])) == 10
        winner = data.draw(st.sampled_from([0, 1, None]), label="showdown winner")
        results.append(last.settle(winner))
        if bounty is None:
            expected = (
                (0, 0)
                if winner is None
                else (
                    (last.contributions[1], -last.contributions[1])
                    if winner == 0
                    else (-last.contributions[0], last.contributions[0])
                )
            )
            assert results[-1].deltas == expected
    elif bounty is None:
        assert end.deltas[end.folder] == -last.contributions[end.folder]
    hits = (data.draw(st.booleans(), label="hit 0"), data.draw(st.booleans(), label="hit 1"))
    winner = data.draw(st.sampled_from([0, 1, None]), label="winner with random hits")
    results_deltas = [result.deltas for result in results]
    results_deltas.append(hand_deltas(rules, last.stacks, winner, hits))
    for deltas in results_deltas:
        assert deltas[0] + deltas[1] == 0
        assert all(isinstance(delta, int) for delta in deltas)
        assert abs(deltas[0]) <= bound
    if bounty is None:
        for result in results:
            assert result.bounty_hits == (None, None)
    else:
        for result in results:
            assert result.bounty_hits == tuple(
                rank in {card[0] for card in last.hands[seat] + last.board}
                for seat, rank in enumerate(deal.bounties)
            )


def deal_auction_cards(state: RoundState, deal: Deal) -> RoundState:
    """Give the auction's winner (both seats on a tie) its third hole card, as the dealer does."""
    b0, b1 = state.bids
    assert b0 is not None and b1 is not None
    winners = (0, 1) if b0 == b1 else ((0,) if b0 > b1 else (1,))
    for seat in winners:
        state = state.with_hand(seat, (*state.hands[seat], deal.auction_cards[seat]))
    return state


def play_random_hand(data: st.DataObject, rules: Rules) -> tuple[TerminalState, list[int]]:
    deal = data.draw(deals(3 if rules.discard else 2), label="deal")
    bounties = deal.bounties if rules.bounty is not None else (None, None)
    state: State = RoundState.new_hand(rules, deal.holes, bounties)
    assert isinstance(state, RoundState)
    ledger = Ledger([rules.small_blind, rules.big_blind])
    assert state.contributions == (rules.small_blind, rules.big_blind)
    streets = [0]
    while isinstance(state, RoundState):
        check_decision(data, state)
        action = draw_action(data, state)
        ledger.record(state, action)
        before = state
        state = state.proceed(action)
        check_transition(before, state, ledger, streets)
        if isinstance(state, RoundState):
            if before.auction and not state.auction:
                state = deal_auction_cards(state, deal)
            if state.street != before.street:
                state = state.with_board(state.board_with_deal(deal.board))
    check_terminal(data, state, deal)
    return state, streets


@pytest.mark.parametrize("variant", MIT_VARIANTS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_random_hands_keep_every_invariant(variant: str, data: st.DataObject) -> None:
    rules = data.draw(rules_for(variant), label="rules")
    end, streets = play_random_hand(data, rules)
    event("showdown" if end.folder is None else f"fold on street {end.previous_state.street}")
    event("all-in" if 0 in end.previous_state.stacks else "not all-in")
    every = [0, 2, 3, 4, 5, 6] if rules.discard else [0, 3, 4, 5]
    if variant == "blood":  # the runs: one more street per red card from the river on
        every += list(range(6, end.previous_state.street + 1))
    assert streets == every[: len(streets)]
    if end.folder is None:
        assert streets == every


@pytest.mark.parametrize("variant", MIT_VARIANTS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_default_rules_hands_keep_every_invariant(variant: str, data: st.DataObject) -> None:
    play_random_hand(data, Rules.for_variant(variant))
