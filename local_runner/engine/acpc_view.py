"""The ACPC view: the engine's events of a hand as the ACPC dealer's lines to one seat.

The ACPC dealer (protocol 2.0.0) sends every seat a ``MATCHSTATE`` line at the start of a
hand and after every action, whoever acted, folded seats included; only the seat to act
answers, echoing its line.  The last line of a hand is its final state, which asks for
nothing: at a showdown it shows the hole cards of every seat that did not fold (a seat's own
cards are always shown); when the board runs out to a showdown, the final line has an empty
betting part for each round dealt after the last action.  The recorded real-dealer matches
under ``tests/acpc/`` are the oracle of these lines (``tests/test_acpc_view.py``).

Lines are written by the one ACPC codec (:mod:`sdk.acpc`): positions from seats, no-limit
raises as the raiser's total for the hand (:func:`~sdk.acpc.action_to_wire`, given the
state the action was played in), boards per round.  No rule of the game is written here.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk.acpc import (
    AcpcAction,
    AcpcProtocolError,
    MatchState,
    action_from_wire,
    action_to_wire,
    board_rounds,
    format_match_state,
    parse_action,
    parse_reply,
    position_of_seat,
    seat_of_position,
)
from sdk.actions import Action, FoldAction
from sdk.rules import Rules
from sdk.states import RoundState

from .records import ActionEvent, Event, HandRecord, StreetEvent

__all__ = ["AcpcView"]

Cards = tuple[str, ...]


class AcpcView:
    """One seat's ``MATCHSTATE`` lines, from the engine's records (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        """A view of matches played with ``rules`` (hold'em, any number of seats)."""
        self.rules = rules
        self.current: MatchState | None = None
        """The latest state shown to the seat: the one its reply must echo."""
        self._state: RoundState | None = None  # the state the seat was last asked to act in
        self._record: HandRecord | None = None
        self._cursor = 0
        self._seat = 0
        self._lines: list[str] = []  # not yet sent
        self._current_line = ""  # the line of ``current``
        # The state as the wire shows it, kept ready for the next line (a 3-seat hand writes
        # some thirty lines): betting per round, board per round, hole cards by position.
        self._betting: list[tuple[AcpcAction, ...]] = []
        self._rounds: tuple[Cards, ...] = ((),)
        self._holes: list[Cards] = []  # by seat; () where this seat cannot see them
        self._shown: tuple[Cards, ...] = ()  # the same by position
        self._folded: list[bool] = []
        self._dirty = False  # the state changed since the last line

    def question(self, record: HandRecord, seat: int, state: RoundState, clock: float) -> list[str]:
        """The lines since the seat's last message; the last one asks it to act in ``state``.
        (The ACPC wire carries no clock.)"""
        self._catch_up(record, seat)
        self._flush()
        self._state = state
        lines, self._lines = self._lines, []
        return lines

    def hand_end(self, record: HandRecord, seat: int, clock: float) -> tuple[list[str], bool]:
        """The rest of the hand, ending with its final state; no answer is expected."""
        self.hold(record, seat)
        lines, self._lines = self._lines, []
        return lines, False

    def hold(self, record: HandRecord, seat: int) -> None:
        """Add the rest of the finished hand, ending with its final state (the cards shown
        at a showdown), to the lines not yet sent."""
        self._catch_up(record, seat)
        if record.showdown:
            for other, folded in enumerate(self._folded):
                if not folded:
                    self._holes[other] = record.final_hands[other]
            self._show()
        self._flush()
        self._record = None
        self._state = None  # nothing to answer until the next question

    def read(self, text: str) -> Action:
        """The kit's action in a reply line (``<echo>:<action>``, its line ending removed).

        Raises :class:`~sdk.acpc.AcpcProtocolError` (an :class:`~sdk.acpc.AcpcEchoError` for
        an echo of another state than the latest) with a sentence saying what is wrong.
        """
        if self.current is None or self._state is None:
            raise AcpcProtocolError("a reply came when no state asked for one.")
        line = self._current_line
        if text.startswith(line) and text[len(line) : len(line) + 1] == ":":
            # The echo is the state's own line: only the action needs reading (what nearly
            # every reply is; parse_reply reads the echo for the dealer's looser rule).
            action = parse_action(text[len(line) + 1 :])
        else:
            action = parse_reply(text, self.current).action
        return action_from_wire(self._state, action)

    def _catch_up(self, record: HandRecord, seat: int) -> None:
        """Follow the events the seat has not seen, writing a line before each action."""
        if record is not self._record:
            self._open(record, seat)
        events: Sequence[Event] = record.events
        for event in events[self._cursor :]:
            if type(event) is ActionEvent:
                self._flush()  # the state this action was played in
                self._betting[-1] += (action_to_wire(event.state, event.action),)
                if type(event.action) is FoldAction:
                    self._folded[event.seat] = True
                self._dirty = True
            elif type(event) is StreetEvent:  # a new round (each one when the board runs out)
                self._rounds = board_rounds(event.board)
                while len(self._betting) < len(self._rounds):
                    self._betting.append(())
        self._cursor = len(events)

    def _open(self, record: HandRecord, seat: int) -> None:
        """A new hand: the seat sees its own cards; its first line is owed."""
        count = len(record.players)
        self._record, self._cursor, self._seat = record, 0, seat
        self._betting, self._rounds = [()], ((),)
        self._holes = [()] * count
        self._holes[seat] = record.dealt[seat]
        self._show()
        self._folded = [False] * count
        self._dirty = True

    def _show(self) -> None:
        """The hole cards the seat sees, by position."""
        count = len(self._holes)
        self._shown = tuple(self._holes[seat_of_position(p, count)] for p in range(count))

    def _flush(self) -> None:
        """Write the line of the state as it is now, if it changed since the last line."""
        if not self._dirty or self._record is None:
            return
        self.current = MatchState(
            position_of_seat(self._seat, len(self._shown)),
            self._record.number - 1,  # the dealer counts hands from 0
            tuple(self._betting),
            self._shown,
            self._rounds,
        )
        line = format_match_state(self.current)
        self._lines.append(line)
        self._current_line = line
        self._dirty = False
