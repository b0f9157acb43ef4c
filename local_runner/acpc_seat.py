"""A seat for a bot that speaks the ACPC wire (``MATCHSTATE``), as the ACPC dealer hosts it.

The engine tells every seat the history since its last message (the MIT view); this seat
turns that history into what the ACPC dealer would have sent: one ``MATCHSTATE`` line for
the start of the hand and after every action (only the last one, when the bot is to act,
asks for an answer), and the final state with the cards shown at a showdown, which asks
for nothing.  It steps the SDK's one state machine to know each line, and converts actions
with the one ACPC codec (:mod:`sdk.acpc`), so no rule is written here.

The bot's first line must be the protocol version (``VERSION:2.0.0``); lines starting with
``#`` or ``;`` are comments.  A reply must echo the state it answers (the dealer ignores a
reply to an older state: here it is a ``misformatted`` fault, answered by default).

Heads-up only in this version: the MIT view shows one opponent's cards at a showdown.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Callable, Sequence

from sdk.acpc import (
    AcpcAction,
    AcpcProtocolError,
    MatchState,
    action_from_wire,
    action_to_wire,
    board_rounds,
    format_match_state,
    is_comment,
    parse_reply,
    parse_version,
    position_of_seat,
    strip_line_ending,
)
from sdk.actions import Action, BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.protocol import Board, Clause, Delta, HoleCards, OpponentHand, Position
from sdk.rules import Rules
from sdk.states import RoundState, State

from .faults import FaultKind
from .seats import Reply
from .socket_seat import SocketSeat, _Request

__all__ = ["AcpcSocketSeat", "AcpcView"]

class AcpcView:
    """One seat's ``MATCHSTATE`` lines, from the engine's history of a heads-up hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seat = 0
        self.hand = -1  # the ACPC hand number, from 0
        self.state: State | None = None
        self.betting: list[list[AcpcAction]] = []
        self.board: tuple[str, ...] = ()
        self.holes: list[tuple[str, ...]] = []
        self.current: MatchState | None = None
        """The last state shown: the one a reply must echo."""

    def feed(self, clauses: Sequence[Clause]) -> list[str]:
        """The lines that the history ``clauses`` makes the ACPC dealer send, in order."""
        lines: list[str] = []
        dirty = False
        for clause in clauses:
            if isinstance(clause, Position):
                self.seat = clause.seat
            elif isinstance(clause, HoleCards):
                if dirty:
                    lines.append(self._line())
                self._new_hand(clause.cards)
                dirty = True
            elif isinstance(clause, _ACTIONS):
                if dirty:
                    lines.append(self._line())
                self._act(clause)
                dirty = True
            elif isinstance(clause, Board):
                self._deal(clause.cards)
            elif isinstance(clause, OpponentHand):
                self.holes[1 - self.seat] = clause.cards
            elif isinstance(clause, Delta):
                dirty = True  # the hand's end: its final state
        if dirty:
            lines.append(self._line())
        return lines

    def _new_hand(self, cards: tuple[str, ...]) -> None:
        self.hand += 1
        self.holes = [(), ()]
        self.holes[self.seat] = cards
        self.state = RoundState.new_hand(self.rules)
        self.betting, self.board = [[]], ()

    def _act(self, action: Action) -> None:
        state = self.state
        if not isinstance(state, RoundState):
            raise AcpcProtocolError(f"an action ({action}) came outside a hand.")
        self.betting[-1].append(action_to_wire(state, action))
        after = state.proceed(action)
        if isinstance(after, RoundState) and after.street != state.street:
            self.betting.append([])
        self.state = after

    def _deal(self, board: tuple[str, ...]) -> None:
        self.board = tuple(board)
        while len(self.betting) < len(board_rounds(self.board)):  # the board ran out
            self.betting.append([])
        if isinstance(self.state, RoundState):
            self.state = self.state.with_board(self.board)

    def _line(self) -> str:
        n = self.rules.seats
        rounds = board_rounds(self.board)
        holes = tuple(self.holes[(position + 1) % n] for position in range(n))
        self.current = MatchState(
            position_of_seat(self.seat, n), self.hand,
            tuple(tuple(actions) for actions in self.betting), holes, rounds[: len(self.betting)],
        )  # fmt: skip
        return format_match_state(self.current)

    def read(self, text: str) -> Action:
        """The kit's action in a reply line (``<echo>:<action>``); :class:`AcpcProtocolError`
        (an echo of another state, an unreadable action) says what is wrong."""
        if self.current is None or not isinstance(self.state, RoundState):
            raise AcpcProtocolError("a reply came when no state asked for one.")
        reply = parse_reply(text, self.current)
        return action_from_wire(self.state, reply.action)


class AcpcSocketSeat(SocketSeat):
    """A connected bot process that speaks the ACPC wire (see the module docstring)."""

    def __init__(
        self,
        name: str,
        sock: socket.socket,
        rules: Rules,
        exit_status: Callable[[], str | None] = lambda: None,
        before_quit: Callable[[], None] | None = None,
        spin_wait: float = 0.0,
    ) -> None:
        """Take over ``sock`` for a bot playing ``rules`` (heads-up) over the ACPC wire."""
        if rules.seats != 2:
            raise ValueError("The ACPC seat plays heads-up games in this version.")
        super().__init__(name, sock, exit_status, before_quit, spin_wait, rules)
        self.view = AcpcView(rules)
        self._handshake: str | None = None  # the version line, once it came
        self._acks: deque[Reply] = deque()  # hands' ends: the ACPC dealer asks nothing

    @property
    def outstanding(self) -> int:
        """Messages sent and not yet answered, the hands' ends included."""
        return len(self._requests) + len(self._acks)

    def send(self, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        """Write the ``MATCHSTATE`` lines of ``clauses``; only a question awaits a reply."""
        try:
            lines = self.view.feed(clauses)
        except AcpcProtocolError:
            lines = []  # cannot happen with the engine's own history; never break the match
        if ack:
            self._acks.append(Reply(hand, _K, 0.0, True))
        else:
            self._requests.append(_Request(hand, ack, time.perf_counter()))
        if lines and not self._broken:
            self._write("".join(line + "\r\n" for line in lines).encode("ascii"))

    def receive(self, budget: float) -> Reply:
        """A hand's end at once (nothing to wait for); else the reply to the question."""
        if self._acks:
            return self._acks.popleft()
        return super().receive(budget)

    def quit(self) -> None:
        """Close the match: the ACPC dealer just closes the connection (no ``Q`` line)."""
        if self.before_quit is not None:
            self.before_quit()

    def _reply(self, request: _Request, line: bytes | None, elapsed: float) -> Reply:
        if line is None:
            return super()._reply(request, line, elapsed)
        text = strip_line_ending(line.decode("ascii", "replace"))
        try:
            action = self.view.read(text)
        except AcpcProtocolError as error:
            return Reply(request.hand, None, elapsed, request.ack, text[:200],
                         FaultKind.MISFORMATTED, f"response misformatted: {error}"[:300])
        return Reply(request.hand, action, elapsed, request.ack, text[:200])

    def _add_line(self, line: bytes | None, now: float) -> None:
        if line is not None:
            text = strip_line_ending(line.decode("ascii", "replace"))
            if is_comment(text) or not text:
                return
            if self._handshake is None:
                try:
                    parse_version(text)
                except AcpcProtocolError:
                    self._handshake = ""  # not a version line: answered as a reply below
                else:
                    self._handshake = text
                    return
        super()._add_line(line, now)


_K = CheckAction()  # how the engine counts an answered hand's end
_ACTIONS = (FoldAction, CallAction, CheckAction, RaiseAction, BidAction)
