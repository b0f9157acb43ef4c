"""What a seat view is: the one seam between the wire-neutral engine and a wire protocol.

The engine (:mod:`local_runner.engine.match`) knows no wire.  It plays a hand on the SDK's state
machine and keeps the hand's events in its :class:`~local_runner.engine.records.HandRecord`: the
opening (every seat's hole cards and bounty), the event list (each action with the state it
was played in, each street dealt, each swap, the auction's result) and the close (the
showdown's hands, the deltas, the bounty hits).  Each seat has a view, chosen by its seat
(:meth:`local_runner.engine.seats.Seat.make_view`), that reads those events and writes what its
protocol sends:

* :class:`local_runner.engine.mit_view.MitView`: MIT clauses, the history since the seat's last
  message, sent when the seat must act or when the hand ends (answered with ``K``);
* :class:`local_runner.engine.acpc_view.AcpcView`: one ``MATCHSTATE`` line for the start of the
  hand and after every action, the final state with no answer expected.

A view reads the record lazily, from where it stopped the last time it was asked, so the
engine pays nothing per action for a seat that is not asked (the in-process hot path).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sdk.states import RoundState

from .records import HandRecord

__all__ = ["Message", "SeatView"]

Message = Sequence[Any]
"""What a view made for its seat: MIT clauses, or ACPC lines.  Only the seat that made the
view reads it (:meth:`Seat.send <local_runner.engine.seats.Seat.send>`), so the engine passes it on
without looking inside."""


class SeatView(Protocol):
    """One seat's messages, in one protocol, from the engine's record of each hand."""

    def question(self, record: HandRecord, seat: int, state: RoundState, clock: float) -> Message:
        """The message that asks ``seat`` to act in ``state``: everything it has not been
        shown yet.  ``clock`` is its game clock in seconds."""
        ...

    def hand_end(self, record: HandRecord, seat: int, clock: float) -> tuple[Message, bool]:
        """The message that ends the finished hand ``record`` for ``seat``, and whether the
        protocol expects an answer to it (MIT: ``K``; ACPC: nothing)."""
        ...

    def hold(self, record: HandRecord, seat: int) -> None:
        """Keep the end of the finished hand for the seat's next message (the seat was busy
        with a late reply when the hand ended)."""
        ...
