"""A seat for a bot that speaks the ACPC wire (``MATCHSTATE``), as the ACPC dealer hosts it.

The seat's view (:class:`~local_runner.engine.acpc_view.AcpcView`) makes the dealer's lines from the
engine's events: a state at the start of each hand and after every action, whoever acted;
only the seat to act owes an answer, and the final state of a hand asks for nothing (no
end-of-hand acknowledgement), so any number of seats can play.  This module is the wire's
transport side, a :class:`~local_runner.engine.socket_seat.LineCodec` for the socket seat:

* the bot's first line must be the protocol version (``VERSION:2.0.0``); a first line that is
  not, or names a version the kit does not speak, makes its first reply a ``misformatted``
  fault, answered by default, with a sentence saying so;
* lines starting with ``#`` or ``;``, and empty lines, are comments and set aside;
* a reply must echo the state it answers: the dealer ignores a reply to an older state, here
  it is a ``misformatted`` fault, answered by default;
* lines end with ``\\r\\n`` (either ending is read); the match ends by closing the connection.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from sdk.acpc import (
    VERSION_LINE,
    AcpcProtocolError,
    is_comment,
    parse_version,
    strip_line_ending,
    version_supported,
)
from sdk.actions import Action
from sdk.rules import Rules

from .acpc_view import AcpcView
from .seat_view import Message, SeatView
from .socket_seat import SocketSeat

__all__ = ["AcpcCodec", "AcpcSocketSeat"]

_SET_ASIDE = (b"#", b";")  # the first byte of a comment
_EMPTY_LINES = (b"", b"\n", b"\r\n")


class AcpcCodec:
    """The ACPC wire's lines for a socket seat (see the module docstring)."""

    quit_line = b""  # the dealer ends a match by closing the connection

    def __init__(self, view: AcpcView) -> None:
        """Read replies against ``view``'s latest state."""
        self.view = view
        self.version: str | None = None
        """The bot's first line, once it came."""
        self._problem: str | None = None  # a bad handshake, reported with the next reply

    def encode(self, message: Message) -> bytes:
        """The view's lines, each ended with ``\\r\\n`` as the dealer ends them."""
        return ("\r\n".join(message) + "\r\n").encode("ascii") if message else b""

    def decode(self, text: str) -> Action:
        """The action of a reply that echoes the latest state; :class:`AcpcProtocolError`
        (a bad handshake first, once) otherwise."""
        if self._problem is not None:
            problem, self._problem = self._problem, None
            raise AcpcProtocolError(problem)
        return self.view.read(text)

    def admit(self, line: bytes) -> bool:
        """Set comments, empty lines and the version line aside; check the version."""
        if self.version is not None:
            # After the handshake, a test on the bytes alone: this runs for every reply.
            return line[:1] not in _SET_ASIDE and line not in _EMPTY_LINES
        text = strip_line_ending(line.decode("ascii", "replace"))
        if not text or is_comment(text):
            return False
        if self.version is not None:
            return True
        self.version = text
        try:
            version = parse_version(text)
        except AcpcProtocolError:
            self._problem = (
                f"the bot's first line was {text[:80]!r}, not the protocol version; an ACPC "
                f"bot sends {VERSION_LINE} first"
            )
            return True  # perhaps a reply: it is read as one, after the fault
        if not version_supported(version):
            self._problem = (
                f"the bot speaks protocol {text[:80]}; the kit's runner, like the ACPC dealer, "
                f"speaks {VERSION_LINE}"
            )
        return False


class AcpcSocketSeat(SocketSeat):
    """A connected bot process that speaks the ACPC wire (see the module docstring)."""

    blocking_wait = True  # no acknowledgements: only the seat asked owes a reply

    def __init__(
        self,
        name: str,
        sock: socket.socket,
        rules: Rules,
        exit_status: Callable[[], str | None] = lambda: None,
        before_quit: Callable[[], None] | None = None,
        spin_wait: float = 0.0,
    ) -> None:
        """Take over ``sock`` for a bot playing ``rules`` (any number of seats) over the ACPC
        wire."""
        self.view = AcpcView(rules)
        super().__init__(
            name, sock, exit_status, before_quit, spin_wait, rules, codec=AcpcCodec(self.view)
        )

    def make_view(self, rules: Rules) -> SeatView:
        """The seat's own ACPC view: its codec reads the replies against it."""
        return self.view
