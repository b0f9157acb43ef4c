"""The ACPC view: the engine's events of a hand as the ACPC dealer's lines to one seat.

The ACPC dealer (protocol 2.0.0) sends every seat a ``MATCHSTATE`` line at the start of a
hand and after every action, whoever acted, folded seats included; only the seat to act
answers, echoing its line.  The last line of a hand is its final state, which asks for
nothing: at a showdown it shows the hole cards of every seat that did not fold (a seat's own
cards are always shown); when the board runs out to a showdown, the final line has an empty
betting part for each round dealt after the last action.  The recorded real-dealer matches
under ``tests/acpc/`` are the oracle of these lines (``tests/test_acpc_view.py``).

Lines are written with the one ACPC codec (:mod:`sdk.acpc`): positions from seats, no-limit
raises as the raiser's total for the hand (:func:`~sdk.acpc.action_to_wire`, given the
state the action was played in), boards per round.  No rule of the game is written here.

The lines are built incrementally, a hand and a seat at a time: the engine's own state is
trusted, so a line is the hand's fixed head, the betting text so far (one token appended per
action, a ``/`` per new round) and the card text (rebuilt only when a round is dealt or the
showdown shows cards), with no :class:`~sdk.acpc.MatchState` made and validated per line.
What comes back from the bot is untrusted and read in full: an exact echo of the latest line
costs one comparison and the action's reading; anything else goes through
:func:`~sdk.acpc.parse_reply`.  ``tests/engine/test_acpc_view_fast.py`` checks the lines
against :func:`~sdk.acpc.format_match_state` on random hands of every seat count.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk.acpc import (
    AcpcProtocolError,
    MatchState,
    action_from_wire,
    action_to_wire,
    board_rounds,
    parse_action,
    parse_match_state,
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
        self._state: RoundState | None = None  # the state the seat was last asked to act in
        self._record: HandRecord | None = None
        self._cursor = 0
        self._seat = 0
        self._lines: list[str] = []  # not yet sent
        self._current_line = ""  # the latest line sent: the one a reply must echo
        self._current: MatchState | None = None  # read from it only when a reply needs it
        # The hand as the wire shows it, kept as text ready for the next line (a 3-seat hand
        # writes some fifty lines): "MATCHSTATE:<position>:<hand>:", the betting so far, and
        # the cards (hole cards by position, then the board per round).
        self._head = ""
        self._betting = ""
        self._cards = ""
        self._rounds: tuple[Cards, ...] = ((),)
        self._holes: list[Cards] = []  # by seat; () where this seat cannot see them
        self._order: list[int] = []  # the seats by position
        self._folded: list[bool] = []
        self._dirty = False  # the state changed since the last line

    @property
    def current(self) -> MatchState | None:
        """The latest state shown to the seat: the one its reply must echo."""
        if self._current is None and self._current_line:
            # Read back from the line, only when asked (a reply that is not an exact echo):
            # the line is the one source, so the state is the line's, byte for byte.
            self._current = parse_match_state(self._current_line)
        return self._current

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
        if not self._current_line or self._state is None:
            raise AcpcProtocolError("a reply came when no state asked for one.")
        line = self._current_line
        size = len(line)
        if text.startswith(line) and text[size : size + 1] == ":":
            # The echo is the state's own line: only the action needs reading (what nearly
            # every reply is; parse_reply reads the echo for the dealer's looser rule).
            action = parse_action(text[size + 1 :])
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
                self._betting += action_to_wire(event.state, event.action).token
                if type(event.action) is FoldAction:
                    self._folded[event.seat] = True
                self._dirty = True
            elif type(event) is StreetEvent:  # a new round (each one when the board runs out)
                rounds = board_rounds(event.board)
                self._betting += "/" * (len(rounds) - len(self._rounds))
                self._rounds = rounds
                self._show()
        self._cursor = len(events)

    def _open(self, record: HandRecord, seat: int) -> None:
        """A new hand: the seat sees its own cards; its first line is owed."""
        count = len(record.players)
        self._record, self._cursor, self._seat = record, 0, seat
        # The dealer counts hands from 0.
        self._head = f"MATCHSTATE:{position_of_seat(seat, count)}:{record.number - 1}:"
        self._betting, self._rounds = "", ((),)
        self._holes = [()] * count
        self._holes[seat] = record.dealt[seat]
        self._order = [seat_of_position(p, count) for p in range(count)]
        self._show()
        self._folded = [False] * count
        self._dirty = True

    def _show(self) -> None:
        """The card text: hole cards the seat sees, by position, then the board by round."""
        holes = self._holes
        shown = "|".join(["".join(holes[seat]) for seat in self._order])
        rounds = self._rounds
        # The first round's board cards (none in hold'em) follow the last hole cards directly.
        self._cards = shown + "".join(rounds[0]) + "".join("/" + "".join(c) for c in rounds[1:])

    def _flush(self) -> None:
        """Write the line of the state as it is now, if it changed since the last line."""
        if not self._dirty or self._record is None:
            return
        line = f"{self._head}{self._betting}:{self._cards}"
        self._lines.append(line)
        self._current_line = line
        self._current = None
        self._dirty = False
