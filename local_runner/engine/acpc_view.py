"""The ACPC view: the engine's events of a hand as the ACPC dealer's lines to one seat.

The ACPC dealer (protocol 2.0.0) sends every seat a ``MATCHSTATE`` line at the start of a
hand and after every action, whoever acted, folded seats included; only the seat to act
answers, echoing its line.  The view makes the same lines; they reach a seat with its next
question (the socket seat writes a hand's final lines with it too, :meth:`SocketSeat.tell
<local_runner.engine.socket_seat.SocketSeat.tell>`).  The last line of a hand is its final
state, which asks for nothing: at a showdown it shows the hole cards of every seat that did
not fold (a seat's own cards are always shown); when the board runs out to a showdown, the
final line has an empty betting part for each round dealt after the last action.  The
recorded real-dealer matches under ``tests/acpc/`` are the oracle of these lines
(``tests/engine/test_acpc_view.py``).

Lines are written with the one ACPC codec (:mod:`sdk.acpc`): positions from seats, no-limit
raises as the raiser's total for the hand (:func:`~sdk.acpc.action_to_wire`, given the
state the action was played in), boards per round.  No rule of the game is written here.

The lines are built incrementally: the engine's own state is trusted, so a line is the
seat's fixed head and hole cards around the hand's public text of that state, the betting so
far (one token appended per action, a ``/`` per new round) and the board (rebuilt only when a
round is dealt), with no :class:`~sdk.acpc.MatchState` made and validated per line.  The
public text of each state is written once per hand and shared by every seat's view
(:class:`_HandText`); only a showdown's final line shows other seats' cards.
What comes back from the bot is untrusted and read in full: an exact echo of the latest line
costs one comparison and the action's reading; anything else goes through
:func:`~sdk.acpc.parse_reply`.  ``tests/engine/test_acpc_view_fast.py`` checks the lines
against :func:`~sdk.acpc.format_match_state` on random hands of every seat count.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sdk.acpc import (
    AcpcProtocolError,
    MatchState,
    action_from_token,
    action_from_wire,
    board_rounds,
    parse_match_state,
    parse_reply,
    position_of_seat,
    seat_of_position,
    wire_token,
)
from sdk.actions import Action, FoldAction
from sdk.rules import Rules
from sdk.states import RoundState

from .records import ActionEvent, Event, HandRecord, StreetEvent

__all__ = ["AcpcView"]

Cards = tuple[str, ...]


class _HandText:
    """The public part of one hand's lines, written once for every seat that sees it.

    Every seat's line of a state is ``MATCHSTATE:<position>:<hand>:<betting>:<holes><board>``
    where only the head and the hole cards depend on the seat; the betting and the board are
    the same for all.  So the text of each state, the betting so far and the board by round,
    is made here once per hand (one token per action, a ``/`` per round, the board when a
    round is dealt), and each seat's view puts its own head and hole cards around it.
    """

    __slots__ = ("betting", "board", "cursor", "folded", "record", "rounds", "states")

    def __init__(self, record: HandRecord) -> None:
        """The text of ``record``'s hand, before any event is read."""
        self.record = record
        self.cursor = 0
        # The states before each action so far, (betting, board); the latest state, which
        # the next event may still change (a round dealt), is (betting, board) itself.
        self.states: list[tuple[str, str]] = []
        self.betting = ""
        self.board = ""
        self.rounds: tuple[Cards, ...] = ((),)
        self.folded = [False] * len(record.players)

    def catch_up(self) -> None:
        """Read the events not read yet: each action closes a state and adds its token."""
        events: Sequence[Event] = self.record.events
        for event in events[self.cursor :]:
            if type(event) is ActionEvent:
                self.states.append((self.betting, self.board))  # the state it was played in
                self.betting += wire_token(event.state, event.action)
                if type(event.action) is FoldAction:
                    self.folded[event.seat] = True
            elif type(event) is StreetEvent:  # a new round (each one when the board runs out)
                rounds = board_rounds(event.board)
                self.betting += "/" * (len(rounds) - len(self.rounds))
                self.rounds = rounds
                # The first round's board cards (none in hold'em) follow the hole cards
                # directly; each later round's after a "/".
                self.board = "".join(rounds[0]) + "".join("/" + "".join(c) for c in rounds[1:])
        self.cursor = len(events)


#: The text of the hand being played (every seat's view of a match reads the same record,
#: one after the other; a view that finds another record here starts that record's text).
_latest: list[_HandText | None] = [None]


class AcpcView:
    """One seat's ``MATCHSTATE`` lines, from the engine's records (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        """A view of matches played with ``rules`` (hold'em, any number of seats)."""
        self.rules = rules
        self._state: RoundState | None = None  # the state the seat was last asked to act in
        self._record: HandRecord | None = None
        self._text: _HandText | None = None  # the record's public text, shared by the seats
        self._sent = 0  # the hand's states already written for this seat
        self._seat = 0
        self._lines: list[str] = []  # not yet sent
        self._current_line = ""  # the latest line sent: the one a reply must echo
        self._current: MatchState | None = None  # read from it only when a reply needs it
        # This seat's part of every line of the hand: "MATCHSTATE:<position>:<hand>:" and
        # the hole cards it sees, by position (its own).
        self._head = ""
        self._holes = ""

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
        text = self._text if record is self._record else self._open(record, seat)
        assert text is not None
        text.catch_up()
        self._write(text, self._holes)
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
        text = self._text if record is self._record else self._open(record, seat)
        assert text is not None
        text.catch_up()
        holes = self._holes
        if record.showdown:  # every seat that did not fold shows its cards; its own always
            shown = record.final_hands
            dealt = record.dealt[seat]
            folded = text.folded
            holes = "|".join(
                [
                    "".join(shown[other] if not folded[other] else dealt if other == seat else ())
                    for other in _order(len(folded))
                ]
            )
        self._write(text, holes)
        self._record = self._text = None
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
            return action_from_token(self._state, text[size + 1 :])
        return action_from_wire(self._state, parse_reply(text, self.current).action)

    def _open(self, record: HandRecord, seat: int) -> _HandText:
        """A new hand: the seat sees its own cards; its first line is owed."""
        count = len(record.players)
        text = _latest[0]
        if text is None or text.record is not record:
            text = _latest[0] = _HandText(record)
        self._record, self._text, self._sent, self._seat = record, text, 0, seat
        # The dealer counts hands from 0.
        self._head = f"MATCHSTATE:{position_of_seat(seat, count)}:{record.number - 1}:"
        own = "".join(record.dealt[seat])
        self._holes = "|".join([own if other == seat else "" for other in _order(count)])
        return text

    def _write(self, text: _HandText, holes: str) -> None:
        """Add the lines of the states the seat has not been shown, the latest last (with
        ``holes`` as its hole cards)."""
        head = self._head
        states = text.states
        done = len(states)
        if self._sent > done:
            return  # the seat has seen the latest state already
        lines = self._lines
        for betting, board in states[self._sent :]:
            lines.append(f"{head}{betting}:{self._holes}{board}")
        line = f"{head}{text.betting}:{holes}{text.board}"
        lines.append(line)
        self._sent = done + 1
        self._current_line = line
        self._current = None


@lru_cache(maxsize=16)
def _order(count: int) -> tuple[int, ...]:
    """The seats by position, for ``count`` seats."""
    return tuple(seat_of_position(position, count) for position in range(count))
