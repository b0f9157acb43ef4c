"""Differential test of the betting state machine against PokerKit 0.7.7.

Both engines play the same heads-up no-limit hands (blinds 1/2, equal stacks S,
the same hole cards and board), driven by one random sequence of legal actions.
At every decision they must agree on whose turn it is, on whether folding,
checking/calling and raising are allowed, on the amount to call, on the
minimum and maximum raise-to, and on the stacks and street bets; at the end
they must agree on the payoffs.

Mapping between the two:

* PokerKit's heads-up indexing is the reverse of ours: its player 0 posts the
  big blind, its player 1 is the button / small blind.  Our seat ``s`` is
  PokerKit's player ``1 - s``.
* Both express raises as "raise to" this street's bet; PokerKit collects bets
  into the pot at the end of each street, as our pips reset.
* PokerKit in tournament mode forbids folding when checking is free, as our
  rules do (the MIT engines of 2025/26 allow it), so ``can_fold`` is compared
  directly.

One difference by design, handled rather than compared: once a player is all
in, PokerKit skips the remaining decisions (it only deals the board), while
our engine, like the MIT engines, still asks both seats to check on every later
street.  Those check-only turns are played on our side alone, and the test
asserts that PokerKit has no player to act at them.

PokerKit's minimum raise after a short (incomplete) all-in raise differs from
ours in general, but heads-up with equal stacks such a raise always leaves
the raiser with no chips, so the opponent may only call or fold in both
engines: the generator needs no restriction for it, and the comparison at
every decision checks that both engines agree there.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from local_runner.engine.dealer import showdown_winner
from sdk.actions import Action, ActionType, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import RANKS, SUITS, Rules
from sdk.states import RoundState, State, TerminalState
from tests.pokerkit_checks import AUTOMATIONS

pokerkit = pytest.importorskip("pokerkit")

DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
BLINDS = (1, 2)
# Everything automated except the betting and the cards, which the test deals.
# Board cards dealt when a street starts: flop, turn, river.
BOARD_CHUNKS = {3: slice(0, 3), 4: slice(3, 4), 5: slice(4, 5)}

Cards = tuple[str, ...]


def pk_player(seat: int) -> int:
    """PokerKit's index of our ``seat`` (it seats the big blind first heads-up)."""
    return 1 - seat


class PokerKitHand:
    """A PokerKit state dealt the same cards as our hand, stepped alongside it."""

    def __init__(
        self, stack: int, holes: tuple[Cards, Cards], board: Cards, burns: Sequence[str]
    ) -> None:
        self.board = board
        self.burns = list(burns)
        self.state: Any = pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS,
            True,
            0,
            BLINDS,
            BLINDS[1],
            (stack, stack),
            2,
            mode=pokerkit.Mode.TOURNAMENT,
        )
        for player in (0, 1):
            self.state.deal_hole("".join(holes[1 - player]))

    def board_dealt(self) -> Cards:
        return tuple(repr(card) for card in self.state.get_board_cards(0))

    def deal_to(self, street: int) -> None:
        """Deal the board up to ``street`` cards (burning a card before each street)."""
        state = self.state
        while len(self.board_dealt()) < street:
            next_street = {0: 3, 3: 4, 4: 5}[len(self.board_dealt())]
            assert state.can_burn_card(), "PokerKit is not ready to deal the next street"
            state.burn_card(self.burns.pop())
            assert state.can_deal_board()
            state.deal_board("".join(self.board[BOARD_CHUNKS[next_street]]))
        assert self.board_dealt() == self.board[:street]

    def act(self, action: Action) -> None:
        if isinstance(action, FoldAction):
            self.state.fold()
        elif isinstance(action, (CheckAction, CallAction)):
            self.state.check_or_call()
        elif isinstance(action, RaiseAction):
            self.state.complete_bet_or_raise_to(action.amount)
        else:
            raise AssertionError(f"no PokerKit counterpart for {action!r}")


def compare_decision(ours: RoundState, theirs: PokerKitHand) -> None:
    """Both engines agree on everything about the decision at hand."""
    pk = theirs.state
    legal = ours.legal_actions()
    if 0 in ours.stacks and ours.continue_cost == 0:
        assert legal == {CheckAction}
        assert pk.actor_index is None, "PokerKit still has a decision when a player is all in"
        if ours.street == 5:
            # PokerKit settled the hand as soon as the river was dealt.
            assert pk.status is False
            return
    assert pk.status is True
    assert list(pk.stacks) == [ours.stacks[1], ours.stacks[0]]
    if pk.actor_index is None:
        # All in: PokerKit has already collected the street's bets into the pot.
        assert pk.total_pot_amount == ours.pot
        return
    assert list(pk.bets) == [ours.pips[1], ours.pips[0]]
    assert pk.actor_index == pk_player(ours.active)
    assert pk.can_fold() == (FoldAction in legal)
    assert pk.can_check_or_call()
    assert pk.checking_or_calling_amount == ours.continue_cost
    assert (CheckAction in legal) == (ours.continue_cost == 0)
    assert (CallAction in legal) == (ours.continue_cost > 0)
    assert pk.can_complete_bet_or_raise_to() == (RaiseAction in legal)
    if RaiseAction in legal:
        low, high = ours.raise_bounds()
        assert pk.min_completion_betting_or_raising_to_amount == low
        assert pk.max_completion_betting_or_raising_to_amount == high
        assert pk.can_complete_bet_or_raise_to(low)
        assert pk.can_complete_bet_or_raise_to(high)
        assert not pk.can_complete_bet_or_raise_to(low - 1)
        assert not pk.can_complete_bet_or_raise_to(high + 1)


def amounts(low: int, high: int) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from([low, high]), st.integers(low, high))


PASSIVE: dict[ActionType, Action] = {
    FoldAction: FoldAction(),
    CallAction: CallAction(),
    CheckAction: CheckAction(),
}


def draw_action(data: st.DataObject, state: RoundState) -> Action:
    kind = data.draw(st.sampled_from(sorted(state.legal_actions(), key=lambda t: t.__name__)))
    if kind is RaiseAction:
        return RaiseAction(data.draw(amounts(*state.raise_bounds()), label="raise"))
    return PASSIVE[kind]


def expected_payoffs(end: TerminalState) -> tuple[int, int]:
    """Our deltas: the fold payoff, or the showdown settled by our hand evaluator."""
    if end.folder is not None:
        return end.deltas
    last = end.previous_state
    return last.settle(showdown_winner(last.hands, last.board)).deltas


Chooser = Callable[[RoundState], Action]


def new_hands(stack: int, cards: Sequence[str]) -> tuple[RoundState, PokerKitHand, Cards]:
    """Our hand and PokerKit's, dealt the same cards; and the board to deal."""
    holes: tuple[Cards, Cards] = ((cards[0], cards[1]), (cards[2], cards[3]))
    board: Cards = tuple(cards[4:9])
    rules = Rules.for_variant("nlhe").replace(
        starting_stack=stack, small_blind=BLINDS[0], big_blind=BLINDS[1]
    )
    return RoundState.new_hand(rules, holes), PokerKitHand(stack, holes, board, cards[9:12]), board


def play_both(stack: int, cards: Sequence[str], choose: Chooser) -> tuple[TerminalState, Any]:
    """Play one hand in both engines, comparing every decision; PokerKit's state at the end."""
    ours: State
    ours, theirs, board = new_hands(stack, cards)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        while isinstance(ours, RoundState):
            theirs.deal_to(ours.street)
            compare_decision(ours, theirs)
            action = choose(ours)
            if theirs.state.actor_index is not None:
                theirs.act(action)
            before = ours.street
            ours = ours.proceed(action)
            if isinstance(ours, RoundState) and ours.street != before:
                ours = ours.with_board(board[: ours.street])
        if ours.folder is None:
            theirs.deal_to(5)
    return ours, theirs.state


def check_payoffs(ours: TerminalState, pk: Any) -> None:
    assert pk.status is False, "PokerKit's hand is not over when ours is"
    assert (pk.payoffs[pk_player(0)], pk.payoffs[pk_player(1)]) == expected_payoffs(ours)


def describe(end: TerminalState) -> str:
    return "showdown" if end.folder is None else f"fold on street {end.previous_state.street}"


stacks = st.one_of(st.integers(2, 12), st.integers(2, 1000), st.just(400))


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), stack=stacks, cards=st.permutations(DECK))
def test_random_hands_agree_with_pokerkit(
    data: st.DataObject, stack: int, cards: list[str]
) -> None:
    ours, pk = play_both(stack, cards, lambda state: draw_action(data, state))
    check_payoffs(ours, pk)
    event(describe(ours))
    event("all-in" if 0 in ours.previous_state.stacks else "not all-in")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), stack=stacks, cards=st.permutations(DECK))
def test_showdowns_agree_with_pokerkit(data: st.DataObject, stack: int, cards: list[str]) -> None:
    """Hands without folds always reach showdown: both engines must pay the same winner."""

    def never_fold(state: RoundState) -> Action:
        legal = state.legal_actions()
        if RaiseAction in legal and data.draw(st.booleans(), label="raise?"):
            return RaiseAction(data.draw(amounts(*state.raise_bounds()), label="raise"))
        return CheckAction() if CheckAction in legal else CallAction()

    ours, pk = play_both(stack, cards, never_fold)
    assert ours.folder is None
    check_payoffs(ours, pk)
    event(f"winner {showdown_winner(ours.previous_state.hands, ours.previous_state.board)}")


@pytest.mark.parametrize(
    ("holes", "board", "winner"),
    [
        ((("Ah", "Kd"), ("7c", "7s")), ("2h", "9d", "Qs", "3c", "8s"), 1),
        ((("Ah", "Kd"), ("7c", "Jd")), ("2h", "9d", "Qs", "3c", "8s"), 0),
        ((("Ah", "2d"), ("As", "3c")), ("Kh", "Kd", "Qs", "Qc", "Jh"), None),
    ],
)
def test_known_showdowns_agree_with_pokerkit(
    holes: tuple[Cards, Cards], board: Cards, winner: int | None
) -> None:
    assert showdown_winner(holes, board) == winner
    used = set(holes[0] + holes[1] + board)
    cards = [*holes[0], *holes[1], *board, *(c for c in DECK if c not in used)]
    script: list[Action] = [RaiseAction(20), CallAction(), *[CheckAction()] * 6]
    ours, pk = play_both(400, cards, lambda state: script.pop(0))
    assert script == []
    check_payoffs(ours, pk)
    assert expected_payoffs(ours) == {0: (20, -20), 1: (-20, 20), None: (0, 0)}[winner]


def test_all_in_preflop_pokerkit_runs_out_while_we_check() -> None:
    cards = list(DECK)
    checks_asked: list[int] = []

    def shove_and_call(state: RoundState) -> Action:
        if state.street == 0:
            return RaiseAction(400) if state.active == 0 else CallAction()
        checks_asked.append(state.street)
        return CheckAction()

    ours, pk = play_both(400, cards, shove_and_call)
    assert checks_asked == [3, 3, 4, 4, 5, 5]
    check_payoffs(ours, pk)
