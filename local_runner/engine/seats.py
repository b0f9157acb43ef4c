"""Seats: how the engine talks to a bot, whatever the bot runs in.

A seat accepts messages that each expect exactly one reply (:meth:`Seat.send`)
and hands the replies back in order (:meth:`Seat.receive`).  Sending does not
wait, so the engine can send an end-of-hand message and go on with the next
hand; the reply arrives later, timed from when the bot could start on it.  A
message that expects no reply (the ACPC wire's end of a hand) is told
(:meth:`Seat.tell`).  The messages themselves are made by the seat's view
(:meth:`Seat.make_view`, MIT clauses unless the seat speaks another protocol),
so the engine passes them on without knowing a wire.

* :class:`InProcessSeat` drives a :class:`sdk.Bot` object in this process (no sockets): for
  simulation and tests.  It feeds the bot through the SDK's own client, from MIT clauses,
  unless the bot opts in to a masked view of the engine's own states
  (:attr:`sdk.bot.Bot.masked_view`, :mod:`local_runner.engine.masked_view`).
* :class:`local_runner.engine.socket_seat.SocketSeat` talks to a bot process over TCP.
"""

from __future__ import annotations

import time
import traceback
from abc import ABC, abstractmethod
from collections import deque
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from sdk.actions import Action, CheckAction
from sdk.bot import Bot
from sdk.client import BotClient
from sdk.protocol import Quit
from sdk.rules import Rules
from sdk.states import GameState, TerminalState

from .faults import FaultKind
from .masked_view import MaskedMessage, MaskedView
from .mit_view import MitView
from .seat_view import Message, SeatView

__all__ = ["InProcessSeat", "Reply", "Seat"]

_new = tuple.__new__
_ACK = CheckAction()


class Reply(NamedTuple):
    """The answer to one message.

    ``action`` is None when there is no usable answer; ``fault`` then says why
    (timeout, misformatted, crash, disconnected).  ``elapsed`` is the time
    charged to the bot's game clock.  (A named tuple: one is made per message,
    and a tuple is several times cheaper to make than a frozen dataclass.)
    """

    hand: int
    action: Action | None
    elapsed: float
    is_ack: bool = False
    """True for the reply to an end-of-hand message (which must be ``K``)."""
    text: str = ""
    fault: FaultKind | None = None
    detail: str = ""


# Subclassed outside the compiled engine (local_runner/compiled.py): the scrimmage's empty
# seat, tests' replaying seats.
@mypyc_attr(allow_interpreted_subclasses=True)
class Seat(ABC):
    """One bot at the table, behind a uniform interface."""

    name: str

    @property
    @abstractmethod
    def alive(self) -> bool:
        """False once the bot has crashed or disconnected; nothing is sent to it then."""

    def make_view(self, rules: Rules) -> SeatView:
        """The view that makes this seat's messages from the engine's events (called once per
        match): the MIT wire's, unless the seat speaks another protocol."""
        return MitView(rules)

    @abstractmethod
    def send(self, message: Message, hand: int, ack: bool) -> None:
        """Send a message of this seat's view that expects one reply: an action, or the
        acknowledgement of a hand's end if ``ack``."""

    def tell(self, message: Message, hand: int) -> None:
        """Send a message of this seat's view that expects no reply (a hand's end on a wire
        without acknowledgements).  A seat whose view never makes one need not accept it."""
        raise NotImplementedError(f"{type(self).__name__} has no messages without a reply.")

    @abstractmethod
    def receive(self, budget: float) -> Reply:
        """The reply to the oldest unanswered message, waiting at most ``budget`` seconds."""

    @property
    @abstractmethod
    def outstanding(self) -> int:
        """How many sent messages still await their reply."""

    @abstractmethod
    def quit(self) -> None:
        """Tell the bot the match is over (``Q``); no reply is expected."""

    @property
    def busy(self) -> bool:
        """True while a reply that timed out is still owed: the bot is not asked meanwhile."""
        return False

    def take_unrequested(self) -> int:
        """How many lines the bot sent that no message asked for, since the last call."""
        return 0

    def bot_errors(self) -> tuple[int, str | None]:
        """How often the bot's own ``get_action`` raised (the SDK played the default), and
        the first error's line; (0, None) where the seat cannot tell (a bot process's errors
        are counted from its log by the runner)."""
        return (0, None)


# Subclassed outside the compiled engine: the human seat, the golden transcripts' recorder.
@mypyc_attr(allow_interpreted_subclasses=True)
class InProcessSeat(Seat):
    """A :class:`sdk.Bot` object played in this process.

    A bot that opts in (:attr:`sdk.bot.Bot.masked_view`: the built-in bots do) is handed
    masked copies of the engine's own states (:class:`MaskedView`); any other is fed MIT
    clauses through the SDK client, which rebuilds each state as a bot process does.  The
    states are equal either way; the masked view makes no message and steps nothing twice.
    The bot is timed like a remote one, but cannot be interrupted: a reply
    that took longer than the budget is recorded as a timeout afterwards.
    An exception escaping the bot's callbacks ends the bot, as it would end
    a bot process.
    """

    def __init__(self, name: str, bot: Bot, rules: Rules) -> None:
        self.name = name
        self.client = BotClient(bot, rules)
        self.client.on_error = _ignore  # counted here, reported as bot_error faults
        self.masked = getattr(bot, "masked_view", False) is True
        """Whether the bot is handed the masked view rather than the client's states."""
        self._replies: deque[Reply] = deque()
        self._alive = True
        self.last_error = ""

    def make_view(self, rules: Rules) -> SeatView:
        """The masked view for a bot that opts in to it, else the MIT wire's."""
        return MaskedView(rules) if self.masked else MitView(rules)

    @property
    def alive(self) -> bool:
        """False once the bot raised out of a callback."""
        return self._alive

    @property
    def outstanding(self) -> int:
        """Replies computed but not yet collected."""
        return len(self._replies)

    def send(self, message: Message, hand: int, ack: bool) -> None:
        """Run the bot on the message (MIT clauses) now and keep its reply for :meth:`receive`."""
        start = time.perf_counter()
        try:
            # A masked view's message; a seat wrapped by code that makes MIT messages itself
            # (Seat.make_view's default) still gets them through the client.
            if type(message) is MaskedMessage:
                action: Action | None = self._play(message)
            else:
                action = self.client.handle(message)
        except Exception as error:
            elapsed = time.perf_counter() - start
            self._alive = False
            self.last_error = traceback.format_exc()
            detail = f"raised {type(error).__name__}: {error}"
            self._replies.append(Reply(hand, None, elapsed, ack, "", FaultKind.CRASH, detail))
            return
        # tuple.__new__: a named tuple's constructor costs twice as much, once per message.
        self._replies.append(
            _new(Reply, (hand, action, time.perf_counter() - start, ack, "", None, ""))
        )

    def _play(self, message: MaskedMessage) -> Action:
        """Call the bot on a masked view's message as the client calls it on the MIT
        message it stands for: the same callbacks, states and game state."""
        seat, clock, opening, state, delta = message
        client = self.client
        bankroll, _, round_num = client.game_state
        game = _new(GameState, (bankroll, clock, round_num))
        if opening is not None:
            client.seat = seat
            client.bot.handle_new_round(game, opening, seat)
        if isinstance(state, TerminalState):
            game = _new(GameState, (bankroll + delta, clock, round_num))
            client.game_state = game
            client.bot.handle_round_over(game, state, seat)
            client.game_state = _new(GameState, (bankroll + delta, clock, round_num + 1))
            return _ACK
        client.game_state = game
        return client.call_get_action(game, state, seat, round_num)

    def receive(self, budget: float) -> Reply:
        """The kept reply; one slower than ``budget`` becomes a timeout."""
        reply = self._replies.popleft()
        if reply.fault is None and reply.elapsed > budget:
            detail = f"took {reply.elapsed:.3f} s, more than the {budget:.3f} s allowed"
            return Reply(
                reply.hand, None, reply.elapsed, reply.is_ack, "", FaultKind.TIMEOUT, detail
            )
        return reply

    def quit(self) -> None:
        """Deliver ``Q`` so the client sees the end of the match."""
        if self._alive:
            self.client.handle([Quit()])

    def bot_errors(self) -> tuple[int, str | None]:
        """The client's count of exceptions raised by ``get_action``, and the first one."""
        return (self.client.errors, self.client.first_error)


def _ignore(line: str) -> None:
    """An in-process bot's errors are counted by its seat, not printed in the runner."""
