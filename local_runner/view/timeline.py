"""A recorded hand, rebuilt step by step with the SDK's own state machine.

:func:`walk` replays a :class:`~local_runner.runs.hands.Hand` through
:class:`sdk.states.RoundState` (the one betting state machine, so no rule is
coded twice) and checks the record on the way: every action must be legal for
the seat to act, and the payoff must be the rules' payoff.  A record that does
not replay is a :class:`~local_runner.runs.errors.RunError`.

:func:`timeline` turns a walk into the steps a person reads: the deal, each
action with its amount, each street, swap and auction, each fault at the
action it came with, the showdown and the payoff.  Where the record does not
say which action a fault came with (``hands.jsonl`` keeps a hand's faults in a
list), a fault that made the runner play a default action is placed at that
action: the first action of that seat played by the runner although the seat
had a choice.  Other faults (an unrequested line, a wrong end-of-hand reply)
are shown at the end of the hand, and faults from the previous hand's
end-of-hand reply at its start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sdk.actions import (
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.games import street_named
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState

from ..engine.dealer import showdown_ranks
from ..runs.errors import RunError
from ..runs.hands import Cards, FaultRecord, Hand, SwapRecord

__all__ = [
    "Step",
    "Walk",
    "describe_action",
    "place_faults",
    "street_name",
    "timeline",
    "walk",
]

_PLAIN = Rules()  # a game named without rules: plain hold'em's streets


def street_name(street: int, rules: Rules | None) -> str:
    """The name of ``street`` in the game of ``rules`` (its declaration in :mod:`sdk.games`;
    None: plain hold'em)."""
    return street_named(rules if rules is not None else _PLAIN, street).name


#: Fault kinds after which the runner plays a default action for the seat.
_DEFAULTING = frozenset(
    {
        "timeout",
        "crash",
        "disconnected",
        "misformatted",
        "illegal",
        "build_failed",
        "never_connected",
    }
)


@dataclass(frozen=True, slots=True)
class Walk:
    """A hand replayed: the state before each action, and the end."""

    hand: Hand
    before: tuple[RoundState, ...]
    """The state each action was taken in (``before[i]`` for ``hand.actions[i]``)."""
    after: tuple[RoundState | TerminalState, ...]
    """The state after each action, cards dealt (board, swaps, auction card) included."""
    last: RoundState
    """The last state before the hand ended (its board and hands are the final ones)."""
    terminal: TerminalState

    def only_move(self, index: int) -> bool:
        """Whether action ``index`` was the seat's only legal move (the runner plays those)."""
        return self.before[index].only_move() is not None

    def nobody_can_bet(self, index: int) -> bool:
        """Whether action ``index`` came when no bet was possible any more: nothing to call
        and the actor, or every other seat still in, all in.  (Bounty Hold'em still asks such
        a seat, to check or fold; PokerKit and the ACPC dealer skip it.)"""
        state = self.before[index]
        if state.continue_cost:
            return False
        others = [state.stacks[s] for s in state.in_hand if s != state.actor]
        return state.stacks[state.actor] == 0 or not any(others)


def _error(hand: Hand, problem: str) -> RunError:
    return RunError(
        f"hand {hand.number}: {problem}; the hand does not follow the rules in "
        "summary.json (the files were edited, or come from another version)."
    )


def walk(hand: Hand, rules: Rules) -> Walk:
    """Replay ``hand`` under ``rules``; :class:`RunError` if the record does not replay."""
    if hand.seats != rules.seats:
        raise _error(hand, f"the hand has {hand.seats} seats where the rules seat {rules.seats}")
    state: RoundState | TerminalState = RoundState.new_hand(
        rules, hand.hole_cards, None if hand.bounties is None else hand.bounties
    )
    swaps = {(s.street, s.seat): s for s in hand.swaps}
    before: list[RoundState] = []
    after: list[RoundState | TerminalState] = []
    for index, record in enumerate(hand.actions):
        if not isinstance(state, RoundState):
            raise _error(hand, f"action {index + 1} ({record.code}) comes after the hand ended")
        if record.seat != state.actor or record.street != state.street:
            raise _error(
                hand,
                f"action {index + 1} ({record.code}) is recorded for seat "
                f"{record.seat} on street {record.street}, but seat {state.actor} "
                f"was to act on street {state.street}",
            )
        if not state.is_legal(record.action):
            raise _error(hand, f"action {index + 1} ({record.code}) is not legal there")
        before.append(state)
        previous = state
        state = previous.proceed(record.action)
        if isinstance(state, RoundState):
            if previous.auction and not state.auction:
                state = _auction(hand, state)
            if state.street != previous.street:
                state = _street(hand, state, swaps)
        after.append(state)
    if not isinstance(state, TerminalState):
        raise _error(
            hand, "the recorded actions stop before the hand ends (the file is incomplete)"
        )
    last = state.previous_state
    if hand.showdown != (state.folder is None):
        raise _error(hand, "the record's showdown flag does not match its actions")
    if state.folder is None:
        if rules.permutation is not None and hand.values is None:
            raise _error(hand, "the hand has no order of the card values to rank its showdown")
        if len(last.board) < len(hand.board):  # the board ran out (nobody could bet)
            last = last.with_board(hand.board)
        ranks = showdown_ranks(last.hands, last.board, last.folded, hand.values)
        state = last.settle_ranks(ranks)
    if tuple(state.deltas) != hand.deltas:
        raise _error(
            hand, f"the recorded payoff {list(hand.deltas)} is not the rules' {list(state.deltas)}"
        )
    return Walk(hand, tuple(before), tuple(after), last, state)


def _auction(hand: Hand, state: RoundState) -> RoundState:
    """Give each auction winner its third card (the last card of its final hand)."""
    if hand.auction is None:
        raise _error(hand, "an auction took place but the record has none")
    if tuple(b for b in state.bids) != hand.auction.bids:
        raise _error(hand, "the recorded bids differ from the bid actions")
    for seat in hand.auction.winners:
        final = hand.final_hands[seat]
        if len(final) != 3:
            raise _error(hand, f"seat {seat} won the auction but does not end with three cards")
        state = state.with_hand(seat, state.hands[seat] + (final[2],))
    return state


def _street(hand: Hand, state: RoundState, swaps: dict[tuple[int, int], SwapRecord]) -> RoundState:
    """Deal the board of the new street and apply that street's swaps."""
    if len(hand.board) < state.street:
        name = street_name(state.street, state.rules)
        raise _error(hand, f"the {name} was reached but the board has {len(hand.board)} cards")
    state = state.with_board(hand.board[: state.street])
    for seat in (0, 1):
        swap = swaps.get((state.street, seat))
        if swap is not None:
            new = swap.new
            old = tuple(state.hands[seat])
            # A swap replaces the dealt cards; an auction card stays.
            state = state.with_hand(seat, (*new, *old[len(new) :]))
    return state


def describe_action(action: object, state: RoundState) -> str:
    """An action in words, with its amount: ``raises to 20``, ``calls 4``, ``bids 12``."""
    if isinstance(action, RaiseAction):
        verb = "bets" if max(state.pips) == 0 else "raises to"
        return f"{verb} {action.amount}"
    if isinstance(action, CallAction):
        return f"calls {state.continue_cost}"
    if isinstance(action, CheckAction):
        return "checks"
    if isinstance(action, FoldAction):
        return "folds"
    if isinstance(action, BidAction):
        return f"bids {action.amount}"
    if isinstance(action, DiscardAction):
        hand = state.hands[state.actor]
        card = hand[action.index] if 0 <= action.index < len(hand) else f"index {action.index}"
        return f"discards {card}"
    return repr(action)


_Emit = Callable[[str, "int | None", str, RoundState], None]


class Step(NamedTuple):
    """One thing that happened in a hand, and the table right after it."""

    kind: str
    """One of: deal, action, street, swap, auction, fault, showdown, result."""
    seat: int | None
    text: str
    street: int
    board: Cards
    pot: int
    stacks: tuple[int, ...]
    hands: tuple[Cards, ...]
    """Each seat's hole cards at this point, as that seat saw them."""


_Placed = tuple[list[FaultRecord], dict[int, list[FaultRecord]], list[FaultRecord]]


def place_faults(w: Walk) -> _Placed:
    """The hand's faults split into (before the hand, at action index, after the last action)."""
    hand = w.hand
    early: list[FaultRecord] = []
    at: dict[int, list[FaultRecord]] = {}
    late: list[FaultRecord] = []
    claimed: set[int] = set()
    for fault in hand.faults:
        if fault.at is not None and 0 <= fault.at < len(hand.actions):
            at.setdefault(fault.at, []).append(fault)
            claimed.add(fault.at)
            continue
        if fault.hand < hand.number:
            early.append(fault)
            continue
        index = None
        if fault.kind in _DEFAULTING and not fault.detail.startswith("answered the end"):
            index = next(
                (
                    i
                    for i, a in enumerate(hand.actions)
                    if i not in claimed and a.seat == fault.seat and a.forced and not w.only_move(i)
                ),
                None,
            )
        if index is None:
            late.append(fault)
        else:
            claimed.add(index)
            at.setdefault(index, []).append(fault)
    return early, at, late


def _fault_text(fault: FaultRecord, names: Sequence[str]) -> str:
    where = "" if fault.hand >= 1 else " (before the first hand)"
    return f"{names[fault.seat]} fault: {fault.kind}{where}: {fault.detail}"


def timeline(w: Walk) -> list[Step]:
    """The steps of a replayed hand, in order, each with the table after it."""
    hand = w.hand
    names = hand.players
    steps: list[Step] = []
    first = w.before[0] if w.before else w.last

    def add(kind: str, seat: int | None, text: str, state: RoundState) -> None:
        steps.append(
            Step(
                kind,
                seat,
                text,
                state.street,
                tuple(state.board),
                state.pot,
                tuple(state.stacks),
                tuple(tuple(h) for h in state.hands),
            )
        )

    early, at, late = place_faults(w)
    bounty = ""
    if hand.bounties is not None:
        bounty = "; bounties " + ", ".join(
            f"{n} {b}" for n, b in zip(names, hand.bounties, strict=True)
        )
    if len(names) == 2:
        seats = f"{names[0]} deals (small blind), {names[1]} is the big blind"
        blinds = f"blinds {first.pips[0]}/{first.pips[1]}"
    else:  # the button, then the small and the big blind
        seats = f"{names[0]} deals, {names[1]} is the small blind, {names[2]} the big blind" + (
            f"; then {', '.join(names[3:])}" if len(names) > 3 else ""
        )
        blinds = f"blinds {first.pips[1]}/{first.pips[2]}"
    add("deal", None, f"hand {hand.number}: {seats}; {blinds}{bounty}", first)
    for fault in early:
        add(
            "fault",
            fault.seat,
            _fault_text(fault, names) + f" (from hand {fault.hand}'s end)",
            first,
        )
    for index, record in enumerate(hand.actions):
        state = w.before[index]
        for fault in at.get(index, ()):
            add("fault", fault.seat, _fault_text(fault, names), state)
        after = w.after[index]
        shown = after.previous_state if isinstance(after, TerminalState) else after
        if isinstance(after, RoundState) and after.street != state.street:
            # Show the action on the street it was played, then the new street.
            mid = shown._replace(board=state.board, street=state.street, hands=state.hands)
            add("action", record.seat, _action_text(w, index), mid)
            _new_street(add, hand, names, state, after)
        else:
            add("action", record.seat, _action_text(w, index), shown)
            if isinstance(after, RoundState) and state.auction and not after.auction:
                _auction_steps(add, hand, names, after)
    for fault in late:
        add("fault", fault.seat, _fault_text(fault, names), w.last)
    if hand.showdown:
        add(
            "showdown",
            None,
            "showdown: "
            + "; ".join(
                f"{n} shows {' '.join(h)}" for n, h in zip(names, w.last.hands, strict=True)
            ),
            w.last,
        )
    result = ", ".join(f"{n} {d:+d}" for n, d in zip(names, hand.deltas, strict=True))
    hits = ""
    if hand.bounty_hits is not None and any(hand.bounty_hits):
        hits = "; " + ", ".join(
            f"{n} hits the bounty" for n, h in zip(names, hand.bounty_hits, strict=True) if h
        )
    add("result", None, f"result: {result}{hits}", w.last)
    return steps


def _action_text(w: Walk, index: int) -> str:
    record = w.hand.actions[index]
    text = f"{w.hand.players[record.seat]} {describe_action(record.action, w.before[index])}"
    if not record.forced:
        return text
    return text + (" (no other move)" if w.only_move(index) else " (default, played by the runner)")


def _new_street(
    add: _Emit, hand: Hand, names: Sequence[str], state: RoundState, after: RoundState
) -> None:
    """Steps for a street dealt after ``state``: the board, then that street's swaps."""
    board = " ".join(after.board[len(state.board) :])
    name = street_name(after.street, after.rules)
    text = f"{name}: {board or '-'} (board {' '.join(after.board)}; pot {after.pot})"
    add("street", None, text, after._replace(hands=state.hands))
    for swap in hand.swaps:
        if swap.street == after.street:
            add(
                "swap",
                swap.seat,
                f"{names[swap.seat]}'s cards are swapped: "
                f"{' '.join(swap.old)} -> {' '.join(swap.new)}",
                after,
            )


def _auction_steps(add: _Emit, hand: Hand, names: Sequence[str], after: RoundState) -> None:
    if hand.auction is None:
        return
    bids = ", ".join(f"{n} bid {b}" for n, b in zip(names, hand.auction.bids, strict=True))
    won = " and ".join(f"{names[s]} gets {after.hands[s][-1]}" for s in hand.auction.winners)
    add("auction", None, f"auction: {bids}; {won}", after)
