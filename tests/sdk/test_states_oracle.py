"""The N-seat state machine plays heads-up exactly as the heads-up machine it replaced.

``tests/reference/states_heads_up.py`` is a frozen copy of ``sdk/states.py`` from before
the N-seat generalisation (with the MIT fixes of issue 11, bounty fold included).  Both
machines are stepped with the same random legal actions over 100,000 random heads-up
hands, every MIT variant, and must agree at every decision on the seat to act, the
legal actions, the raise and bid bounds, the counters, pips and stacks, and at the end on
the deltas and bounty hits.  Random raise sizes make all-ins and short stacks common.
"""

from __future__ import annotations

import random

import pytest

from sdk.actions import BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState
from tests.reference import states_heads_up as old

RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = [rank + suit for rank in RANKS for suit in SUITS]
HANDS_PER_VARIANT = 25_000


def choose(rng: random.Random, state: RoundState) -> object:
    """A random legal action: raises often near all-in, so stacks run out."""
    legal = sorted(state.legal_actions(), key=lambda kind: kind.__name__)
    kind = rng.choice(legal)
    if kind is RaiseAction:
        low, high = state.raise_bounds()
        amount = high if rng.random() < 0.25 else rng.randint(low, high)
        return RaiseAction(amount)
    if kind is BidAction:
        low, high = state.bid_bounds()
        return BidAction(rng.choice([low, high, rng.randint(low, high)]))
    return kind()


def chain_length(state: object) -> int:
    """How many states the ``previous_state`` chain holds (bots walk it for the history)."""
    count = 0
    while state is not None:
        count, state = count + 1, state.previous_state  # type: ignore[attr-defined]
    return count


def same_decision(new: RoundState, ref: old.RoundState) -> None:
    assert new.active == ref.active == new.button % 2
    assert chain_length(new) == chain_length(ref)
    assert (new.button, new.street, new.pips, new.stacks, new.auction, new.bids) == (
        ref.button,
        ref.street,
        ref.pips,
        ref.stacks,
        ref.auction,
        ref.bids,
    )
    legal = new.legal_actions()
    assert legal == ref.legal_actions()
    assert new.continue_cost == ref.continue_cost and new.pot == ref.pot
    if RaiseAction in legal:
        assert new.raise_bounds() == ref.raise_bounds()
    if BidAction in legal:
        assert new.bid_bounds() == ref.bid_bounds()
    assert new.default_action() == ref.default_action()


def play_both(rules: Rules, rng: random.Random) -> int:
    """One random hand in both machines; the number of decisions compared."""
    cards = rng.sample(DECK, 11)
    holes = ((cards[0], cards[1]), (cards[2], cards[3]))
    board, extra = tuple(cards[4:9]), (cards[9], cards[10])
    bounties = (rng.choice(RANKS), rng.choice(RANKS)) if rules.bounty else (None, None)
    new: RoundState | TerminalState = RoundState.new_hand(rules, holes, bounties)
    ref: old.RoundState | old.TerminalState = old.RoundState.new_hand(rules, holes, bounties)
    decisions = 0
    while isinstance(new, RoundState):
        assert isinstance(ref, old.RoundState)
        same_decision(new, ref)
        decisions += 1
        action = choose(rng, new)
        before = new
        new, ref = new.proceed(action), ref.proceed(action)  # type: ignore[arg-type]
        if isinstance(new, RoundState):
            assert isinstance(ref, old.RoundState)
            if before.auction and not new.auction:  # the dealer gives the winners a card
                for seat in new.auction_winners:
                    new = new.with_hand(seat, new.hands[seat] + (extra[seat],))
                    ref = ref.with_hand(seat, ref.hands[seat] + (extra[seat],))
            if new.street != before.street:
                new, ref = new.with_board(board[: new.street]), ref.with_board(board[: ref.street])
    assert isinstance(ref, old.TerminalState), "the old machine goes on where the new one ended"
    if new.folder is None:  # a showdown: the same random winner in both
        winner = rng.choice([0, 1, None])
        new = new.previous_state.settle(winner)
        ref = ref.previous_state.settle(winner)
    assert new.deltas == ref.deltas and sum(new.deltas) == 0
    assert new.bounty_hits == ref.bounty_hits
    assert new.folder == ref.folder
    return decisions


@pytest.mark.parametrize("variant", ["nlhe", "swap", "auction", "bounty"])
def test_heads_up_hands_are_decided_exactly_as_before(variant: str) -> None:
    rng = random.Random(f"oracle-{variant}")
    rules = Rules.for_variant(variant)
    short = rules.replace(starting_stack=rules.big_blind * 6)  # all-ins in most hands
    decisions = 0
    for index in range(HANDS_PER_VARIANT):
        decisions += play_both(short if index % 3 == 0 else rules, rng)
    assert decisions > 2 * HANDS_PER_VARIANT


def test_the_folded_seat_and_the_seat_to_act_are_new_fields_after_the_mit_ones() -> None:
    fields = RoundState._fields
    assert fields[:11] == old.RoundState._fields
    state = RoundState.new_hand(Rules.for_variant("nlhe")).proceed(FoldAction())
    assert isinstance(state, TerminalState) and state.previous_state.folded == (True, False)
    assert CallAction is not CheckAction


def test_the_heads_up_data_shortcut_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # `_put`, `_pay`, `_high` and `_answerable` each have a two-seat fast path; the same
    # hands played with only the general paths give the same states, legal actions and
    # raise bounds at every step.
    import sdk.states as states

    def general(values: tuple[object, ...], index: int, value: object) -> tuple[object, ...]:
        return (*values[:index], value, *values[index + 1 :])

    def general_pay(
        pips: tuple[int, ...], stacks: tuple[int, ...], seat: int, pip: int, stack: int
    ) -> tuple[tuple[object, ...], tuple[object, ...]]:
        return general(pips, seat, pip), general(stacks, seat, stack)

    def general_answerable(stacks: tuple[int, ...], folded: tuple[bool, ...], seat: int) -> bool:
        return any(stacks[o] > 0 and not folded[o] for o in range(len(stacks)) if o != seat)

    def record(seed: int) -> list[tuple[object, ...]]:
        rng = random.Random(seed)
        seen: list[tuple[object, ...]] = []
        for _ in range(400):
            state: RoundState | TerminalState = RoundState.new_hand(Rules.for_variant("nlhe"))
            while isinstance(state, RoundState):
                seen.append(tuple(state[:6]) + tuple(state[8:]))
                seen.append((state.legal_actions(), state.continue_cost, state.default_action()))
                if RaiseAction in state.legal_actions():
                    seen.append(state.raise_bounds())
                state = state.proceed(choose(rng, state))  # type: ignore[arg-type]
            seen.append(state.deltas)
        return seen

    fast = record(5)
    monkeypatch.setattr(states, "_put", general)
    monkeypatch.setattr(states, "_pay", general_pay)
    monkeypatch.setattr(states, "_high", max)
    monkeypatch.setattr(states, "_answerable", general_answerable)
    assert record(5) == fast
