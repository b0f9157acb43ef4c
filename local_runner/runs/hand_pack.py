"""A finished hand as plain values (for ``marshal``), and the same record back.

The log writer process (:mod:`.log_handoff`) is fed the match's hands through a pipe.
Pickling a :class:`~local_runner.engine.records.HandRecord` costs the runner about 15 µs a
hand, most of it the round state of every action; :func:`pack_hand` keeps only what the
engine decided (the cards, each action as its MIT reply text, the streets, swaps, auction and
faults), about 2 µs, and :func:`unpack_hand` plays the recorded events again from the
hand's first state with the SDK's own transitions, so each action's state is rebuilt, equal
to the engine's.  Only :attr:`~local_runner.engine.records.HandRecord.terminal` is not rebuilt
(the logs do not read it): it comes back None.

>>> from local_runner.bots.builtin import make_builtin
>>> from local_runner.engine.match import Match
>>> from local_runner.engine.seats import InProcessSeat
>>> from sdk.rules import Rules
>>> rules = Rules.for_variant("acpc-2pn").replace(num_rounds=3)
>>> seats = [InProcessSeat(f"p{i}", make_builtin("random", i), rules) for i in (0, 1)]
>>> records = []
>>> _ = Match(seats, rules, seed=5, on_hand=records.append).play()
>>> import marshal
>>> again = unpack_hand(marshal.loads(marshal.dumps(pack_hand(records[0]))), rules)
>>> again.events == records[0].events and again.deltas == records[0].deltas
True
"""

from __future__ import annotations

from typing import Any

from sdk.protocol import decode_action, encode_action
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState

from ..engine.faults import Fault, FaultKind
from ..engine.records import (
    ActionEvent,
    AuctionEvent,
    Event,
    FaultEvent,
    HandRecord,
    StreetEvent,
    SwapEvent,
)

__all__ = ["Packed", "pack_hand", "unpack_hand"]

Packed = tuple[Any, ...]
"""A hand as :func:`pack_hand` makes it: tuples, strings, numbers, booleans and None."""

# The first item of a packed event says which event it is.
_ACTION, _STREET, _SWAP, _AUCTION, _FAULT = range(5)


def pack_hand(record: HandRecord) -> Packed:
    """``record`` as plain values that ``marshal`` writes (its ``terminal`` left out)."""
    events: list[tuple[Any, ...]] = []
    add = events.append
    for event in record.events:
        if type(event) is ActionEvent:  # (`type(...) is`: these are final named tuples)
            seat, action, _, forced, seconds = event
            add((_ACTION, seat, encode_action(action), forced, seconds))
        elif type(event) is StreetEvent:
            add((_STREET, *event))
        elif type(event) is SwapEvent:
            add((_SWAP, *event))
        elif type(event) is AuctionEvent:
            add((_AUCTION, *event))
        else:
            assert isinstance(event, FaultEvent)
            fault = event.fault
            add((_FAULT, event.seat, fault.kind.value, fault.hand, fault.detail, fault.timed_out))
    return (
        record.number,
        record.players,
        record.bankrolls_before,
        record.dealt,
        record.bounties,
        tuple(events),
        record.final_hands,
        record.board,
        record.deltas,
        record.showdown,
        record.bounty_hits,
        record.values,
    )


def unpack_hand(packed: Packed, rules: Rules) -> HandRecord:
    """The record :func:`pack_hand` packed, for a match of ``rules``: each action's state
    rebuilt by playing the events again (``terminal`` is None)."""
    # The fields in HandRecord's order, as pack_hand wrote them; only the events change.
    number, players, bankrolls, dealt, bounties, packed_events, *after_events = packed
    events = _replay(packed_events, RoundState.new_hand(rules, dealt, bounties), rules)
    return HandRecord(number, players, bankrolls, dealt, bounties, events, *after_events)


def _replay(packed_events: Packed, first: RoundState, rules: Rules) -> list[Event]:
    """The events, each action with the state it was taken in: the engine's transitions
    (:meth:`~local_runner.engine.match.Match.play_hand`) in the order it recorded them."""
    events: list[Event] = []
    state: RoundState | TerminalState = first
    for packed in packed_events:
        tag = packed[0]
        if tag == _ACTION:
            _, seat, text, forced, seconds = packed
            action = decode_action(text, rules)
            assert isinstance(state, RoundState), "an action after the hand ended"
            events.append(ActionEvent(seat, action, state, forced, seconds))
            state = state.proceed(action)
        elif tag == _STREET:
            event = StreetEvent(*packed[1:])
            if isinstance(state, RoundState):  # (after the last action: the board run out)
                state = state.with_board(event.board)
            events.append(event)
        elif tag == _SWAP:
            swap = SwapEvent(*packed[1:])
            assert isinstance(state, RoundState)
            state = state.with_hand(swap.seat, swap.new)
            events.append(swap)
        elif tag == _AUCTION:
            auction = AuctionEvent(*packed[1:])
            assert isinstance(state, RoundState)
            for seat in auction.winners:
                state = state.with_hand(seat, auction.hands[seat])
            events.append(auction)
        else:
            _, seat, kind, hand, detail, timed_out = packed
            events.append(FaultEvent(seat, Fault(FaultKind(kind), hand, detail, timed_out)))
    return events
