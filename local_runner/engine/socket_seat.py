"""A seat for a bot process connected over a stream socket (TCP; any connected socket works).

Reading is bounded and non-blocking: every byte read from a bot goes into a
buffer of at most :data:`~sdk.protocol.MAX_LINE_BYTES`.  A line that grows past
that is answered as misformatted as soon as it does, and the rest of it, up to
its newline, is read and dropped.  While the engine waits for one seat, it also
reads whatever its other seats have sent, so each line is timestamped when it
arrives, not when the engine gets round to it; a reply is charged from the
moment the bot could start on its message (the later of the message being sent
and the bot's previous reply arriving) to its arrival.

A reply later than its budget is a timeout: the engine plays the default
action, and the late line, when it comes, is discarded rather than taken as
the answer to a later message.  Lines nobody asked for (two replies to one
message) are discarded and reported.  A closed connection is reported once, as
a crash if the bot's process has ended and as a disconnect otherwise, even when
it is noticed while the bot was not being asked anything.

What the lines say is the business of a :class:`LineCodec` given to the seat: the MIT wire's
(:class:`MitCodec`, the default) or another protocol's (:mod:`local_runner.engine.acpc_seat`).  The
codec encodes the messages of the seat's view, decodes a reply, and may set lines aside that
are not replies (a protocol's comments and handshake); the seat itself only moves lines.
"""

from __future__ import annotations

import contextlib
import select
import socket
import struct
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sdk.actions import Action
from sdk.protocol import MAX_LINE_BYTES, ProtocolError, Quit, decode_action, encode_message
from sdk.rules import Rules

from .faults import FaultKind
from .seat_view import Message
from .seats import Reply, Seat

__all__ = ["LineCodec", "MitCodec", "SocketSeat", "accept_bot"]

_READ_CHUNK = 65536
_SEND_TIMEOUT = 5.0
_EXIT_PATIENCE = 0.5  # how long a closed connection waits for the process's exit status
_MAX_TEXT = 200  # characters of a bad reply kept for fault details and logs
_QUICKACK: int = getattr(socket, "TCP_QUICKACK", 0)  # Linux only
# Reads and writes that must not wait pass this flag, so they never block whatever the
# socket's own mode (a seat with a blocking wait keeps its socket blocking: see _await_own).
_DONTWAIT: int = getattr(socket, "MSG_DONTWAIT", 0)
#: How long one blocking ``recv`` of a seat's own wait may sleep (its ``SO_RCVTIMEO``, set once
#: per match); the end of a reply's budget, closer than this and a margin for the kernel's
#: rounding of that timeout (one clock tick, at most 10 ms), is waited for in ``select``.
_BLOCKING_SLICE = 0.25
_BLOCKING_MARGIN = 0.02


class LineCodec(Protocol):
    """What the lines of one wire protocol say, for a :class:`SocketSeat`."""

    quit_line: bytes
    """What ends the match for the bot (empty: the connection's end is all)."""

    def encode(self, message: Message) -> bytes:
        """The bytes of a message of the seat's view, line endings included."""
        ...

    def decode(self, text: str) -> Action:
        """The action of a reply line (line ending removed); :class:`ProtocolError` with a
        sentence when it is none."""
        ...

    def admit(self, line: bytes) -> bool:
        """False for a line that is no reply (a comment, a handshake): it is set aside."""
        ...


class MitCodec:
    """The MIT wire: clauses in, one action per line out, nothing set aside."""

    quit_line = (encode_message([Quit()]) + "\n").encode("ascii")

    def __init__(self, rules: Rules | None = None) -> None:
        """``rules`` are the match's: some letters depend on the game (Toss Hold'em's D, A)."""
        self.rules = rules

    def encode(self, message: Message) -> bytes:
        """One line of space-separated clauses."""
        return (encode_message(message, self.rules) + "\n").encode("ascii")

    def decode(self, text: str) -> Action:
        """One action: ``F``, ``C``, ``K``, ``R<amount>``, ``A<bid>`` (or a discard)."""
        return decode_action(text, self.rules)

    def admit(self, line: bytes) -> bool:
        """Every line is a reply on the MIT wire."""
        return True


@dataclass(slots=True)
class _Request:
    hand: int
    ack: bool
    sent_at: float


class SocketSeat(Seat):
    """A connected bot process.  ``exit_status`` tells a crash from a disconnect."""

    blocking_wait = False
    """Wait for this seat's own reply in a blocking ``recv`` when no other seat owes one (one
    system call instead of ``select`` and ``recv``; see :meth:`_await_own`).  The ACPC seat,
    whose peers never owe an acknowledgement, turns it on."""

    def __init__(
        self,
        name: str,
        sock: socket.socket,
        exit_status: Callable[[], str | None] = lambda: None,
        before_quit: Callable[[], None] | None = None,
        spin_wait: float = 0.0,
        rules: Rules | None = None,
        codec: LineCodec | None = None,
    ) -> None:
        """Take over the connected ``sock``.

        ``exit_status`` describes the bot's process once it has ended (None while it runs);
        ``before_quit`` is called just before ``Q`` is sent (the runner notes the bot's
        processes while they are all still there).  ``spin_wait`` is accepted and ignored (the
        seat always sleeps in ``select``: see :meth:`_wait`).  ``rules`` are the match's:
        some letters of the wire depend on the game (Toss Hold'em's ``D`` and ``A``).
        ``codec`` is the wire protocol (default: :class:`MitCodec` with ``rules``).
        """
        self.rules = rules
        self.codec: LineCodec = codec if codec is not None else MitCodec(rules)
        self._admit_all = isinstance(self.codec, MitCodec)  # no call per line on the MIT wire
        self._decode = self.codec.decode
        del spin_wait  # deprecated: there is no spin-wait any more
        self.name = name
        self.before_quit = before_quit
        self.sock = sock
        # A blocking wait needs the socket in blocking mode with a receive timeout; every
        # other read and write passes _DONTWAIT.  (Linux: the timeout's layout is a timeval.)
        self._blocking = self.blocking_wait and bool(_DONTWAIT) and sys.platform == "linux"
        if self._blocking:
            try:
                seconds = int(_BLOCKING_SLICE)
                micros = round((_BLOCKING_SLICE - seconds) * 1e6)
                sock.setsockopt(
                    socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", seconds, micros)
                )
                sock.setblocking(True)
            except OSError:
                self._blocking = False
        if not self._blocking:
            sock.setblocking(False)
        is_tcp = sock.family in (socket.AF_INET, socket.AF_INET6)
        self._quickack = is_tcp and _QUICKACK
        self._fd = sock.fileno()
        if is_tcp:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # once, for the match
            if self._quickack:
                self._ack_at_once()
        self.exit_status = exit_status
        self.peers: list[SocketSeat] = []
        """Other seats of the same match, read while this one is waited for."""
        self._buffer = bytearray()
        self._skipping = False  # inside an over-long line, dropping bytes until its newline
        self._lines: deque[tuple[bytes | None, float]] = deque()  # None: an over-long line
        self._requests: deque[_Request] = deque()
        self._abandoned = 0  # replies that timed out and are still owed
        self._unrequested = 0
        self._last_arrival = 0.0
        self._eof = False
        self._broken = False  # writing failed: nothing more is sent
        self._gone_reported = False  # the end of the connection was reported as a fault
        self._stalled = False  # a write timed out because the bot stopped reading

    # -- Seat interface ----------------------------------------------------

    @property
    def alive(self) -> bool:
        """False once the end of the connection has been reported by :meth:`receive`.

        A connection found closed while the bot was not being asked anything (read
        on behalf of another seat, or while a late reply was owed) keeps the seat
        alive until the engine asks once more, so that the crash is recorded.
        """
        return not self._gone_reported

    @property
    def busy(self) -> bool:
        """True while a late reply is still owed (checked without waiting)."""
        if not self._abandoned:
            return False
        self._catch_up()
        return self._abandoned > 0 and not (self._eof or self._broken)

    @property
    def outstanding(self) -> int:
        """Messages sent and not yet answered (or timed out)."""
        return len(self._requests)

    def fileno(self) -> int:
        """The socket's descriptor, for ``select``."""
        return self.sock.fileno()

    def send(self, message: Message, hand: int, ack: bool) -> None:
        """Write a message that asks for one reply; a broken connection is noticed by
        :meth:`receive`."""
        self._requests.append(_Request(hand, ack, time.perf_counter()))
        if not self._broken:
            data = self.codec.encode(message)
            try:
                sent = self.sock.send(data, _DONTWAIT)  # the usual case: one call takes it all
            except BlockingIOError:
                sent = 0
            except OSError:
                self._broken = True
                return
            if sent < len(data):
                self._write(data[sent:])

    def tell(self, message: Message, hand: int) -> None:
        """Write a message that asks for no reply (a reply to it would be unrequested)."""
        if not self._broken:
            self._write(self.codec.encode(message))

    def receive(self, budget: float) -> Reply:
        """The reply to the oldest outstanding message, or a fault after ``budget`` seconds.

        While an earlier reply is overdue, the bot cannot have started on this message, so
        nothing is waited for or charged: the reply is empty (the engine plays the default) and
        the bot's answer to this message will be discarded too when it comes.
        """
        request = self._requests[0]
        if not (self._lines or self._abandoned or self._eof or self._broken):
            # The usual case: nothing owed, nothing read yet.  Wait for the reply here.
            start = request.sent_at
            if self._last_arrival > start:
                start = self._last_arrival
            deadline = start + budget
            while not self._lines:
                remaining = deadline - time.perf_counter()
                if remaining <= 0 or self._eof or self._broken:
                    break
                self._wait(remaining)
            else:
                if not self._abandoned:
                    line, arrival = self._lines.popleft()
                    self._requests.popleft()
                    self._last_arrival = arrival
                    return self._reply(request, line, arrival - start)
        if self._abandoned and not (self._eof or self._broken):
            self._catch_up()
            if self._abandoned and not self._lines and not self._eof:
                self._requests.popleft()
                self._abandoned += 1
                return Reply(request.hand, None, 0.0, request.ack)
        start = max(request.sent_at, self._last_arrival)
        deadline = start + budget
        while True:
            if self._lines and self._abandoned:
                self._drop_late_lines()
                start = max(request.sent_at, self._last_arrival)
                deadline = start + budget
            if self._lines:
                line, arrival = self._lines.popleft()
                self._requests.popleft()
                self._last_arrival = arrival
                return self._reply(request, line, arrival - start)
            if self._broken or self._eof:
                self._requests.popleft()
                return self._gone(request)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                self._requests.popleft()
                self._abandoned += 1
                detail = f"no reply within {budget:.3f} s"
                return Reply(request.hand, None, budget, request.ack, "", FaultKind.TIMEOUT, detail)
            self._wait(remaining)

    def quit(self) -> None:
        """Send ``Q`` (the codec's end of the match); the connection is closed by :meth:`close`."""
        if self.before_quit is not None:
            self.before_quit()
        if not self._broken and self.codec.quit_line:
            self._write(self.codec.quit_line)

    def close(self) -> None:
        """Close the connection; shut down first, so the bot sees the end even if another
        process (a sandbox's relay) holds a copy of the socket."""
        self._broken = self._eof = True  # its descriptor (kept for select) is no longer ours
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self.sock.close()

    def take_unrequested(self) -> int:
        """How many unrequested lines were dropped since the last call."""
        count, self._unrequested = self._unrequested, 0
        return count

    # -- internals ---------------------------------------------------------

    def _catch_up(self) -> None:
        """Read what has arrived, without waiting, and drop the late replies among it."""
        if self._abandoned and not self._eof:
            self._read_available(time.perf_counter())
            self._drop_late_lines()

    def _drop_late_lines(self) -> None:
        """Discard replies to messages that already timed out (they were answered by default)."""
        while self._lines and self._abandoned:
            _, self._last_arrival = self._lines.popleft()
            self._abandoned -= 1

    def _reply(self, request: _Request, line: bytes | None, elapsed: float) -> Reply:
        if line is None:
            detail = f"sent a line longer than {MAX_LINE_BYTES} bytes"
            return Reply(
                request.hand, None, elapsed, request.ack, "", FaultKind.MISFORMATTED, detail
            )
        text = line.decode("ascii", "replace").rstrip("\r\n")
        try:
            action = self._decode(text)
        except ProtocolError as error:
            return Reply(
                request.hand,
                None,
                elapsed,
                request.ack,
                _shorten(text),
                FaultKind.MISFORMATTED,
                _shorten(f"response misformatted: {error}"),
            )
        if len(text) > _MAX_TEXT:
            text = _shorten(text)
        return Reply(request.hand, action, elapsed, request.ack, text)

    def _gone(self, request: _Request) -> Reply:
        """The reply to a message the bot can no longer answer; a fault only the first time."""
        self._broken = True
        if self._gone_reported:
            return Reply(request.hand, None, 0.0, request.ack)
        self._gone_reported = True
        # A process that closed its socket by exiting may need a moment to be seen as exited
        # (in a sandbox, its relay and bubblewrap exit after it).
        deadline = time.perf_counter() + _EXIT_PATIENCE
        while (status := self.exit_status()) is None and time.perf_counter() < deadline:
            time.sleep(0.01)
        if status is not None:
            kind, detail = FaultKind.CRASH, f"exited ({status})"
        elif self._stalled:
            kind = FaultKind.DISCONNECTED
            detail = f"stopped reading its messages (a write waited {_SEND_TIMEOUT:g} s)"
        else:
            kind, detail = FaultKind.DISCONNECTED, "closed the connection while still running"
        return Reply(request.hand, None, 0.0, request.ack, "", kind, detail)

    def _wait(self, timeout: float) -> None:
        """Sleep in ``select`` until this seat or a peer that owes a reply has sent something,
        or ``timeout`` seconds have passed; read what came.

        A blocking wait with the deadline as its timeout: no CPU is spent while the bot
        thinks, and the runner wakes as soon as a byte arrives, however busy the machine.
        (There used to be a spin-wait here, ``[runner] spin_wait``: it cost more CPU than it
        saved wall time, and on a loaded machine it took the CPU from the bots it waited for.)
        A seat with :attr:`blocking_wait` that waits for itself alone, with more than a
        receive timeout left, sleeps in ``recv`` instead (:meth:`_await_own`).
        """
        fd = self._fd
        watched = [fd]
        peers = self.peers
        for peer in peers:
            if (peer._requests or peer._abandoned) and not peer._eof:
                watched.append(peer._fd)
        if self._blocking and len(watched) == 1 and timeout > _BLOCKING_SLICE + _BLOCKING_MARGIN:
            self._await_own()
            return
        try:
            readable, _, _ = select.select(watched, [], [], timeout)
        except (OSError, ValueError):
            self._broken = True
            return
        if not readable:
            return
        now = time.perf_counter()
        if len(readable) == 1 and readable[0] == fd:
            self._read_available(now)
            return
        for seat in (self, *peers):
            if seat._fd in readable:
                seat._read_available(now)

    def _ack_at_once(self) -> None:
        """Acknowledge the bot's next segment at once instead of delaying the ACK (Linux).

        A bot that leaves Nagle's algorithm on (the MIT Python skeleton does) holds back the
        rest of a line it wrote in pieces until the first piece is acknowledged; a delayed ACK
        would cost it about 40 ms of its clock.  A whole line needs nothing: the engine's next
        message to the bot carries the ACK, and it sends none before the reply has come (one
        unanswered message per seat).  So this is asked for once when the connection is taken
        over and again only after a read that ends inside a line.  (The kernel turns quick
        ACKs off again by itself, so no option set once would do it; before 2026-11-25 this
        ran after every read, one system call per message.)
        """
        with contextlib.suppress(OSError):
            self.sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)

    def _await_own(self) -> None:
        """Sleep in ``recv`` itself until the bot sends something or the socket's receive
        timeout (:data:`_BLOCKING_SLICE`) passes; take what came.

        For a wait on this seat alone, well before its deadline: the caller loops until the
        reply comes or the deadline is near, and waits out the rest in ``select``, whose
        timeout is exact.
        """
        try:
            data = self.sock.recv(_READ_CHUNK)
        except BlockingIOError:  # the receive timeout: nothing came
            return
        except OSError:
            self._eof = True
            return
        self._take(data, time.perf_counter())

    def _read_available(self, now: float) -> None:
        try:
            data = self.sock.recv(_READ_CHUNK, _DONTWAIT)
        except BlockingIOError:
            return
        except OSError:
            self._eof = True
            return
        self._take(data, now)

    def _take(self, data: bytes, now: float) -> None:
        """Split what was read at ``now`` into lines (see the module docstring)."""
        if not data:
            self._eof = True
            return
        buffer = self._buffer
        if (
            not buffer
            and not self._skipping
            and data.find(b"\n") == len(data) - 1
            and len(data) <= MAX_LINE_BYTES + 1
        ):
            self._add_line(data, now)  # the usual case: one whole line
            return
        start = 0
        while True:
            newline = data.find(b"\n", start)
            if newline < 0:
                break
            if self._skipping:
                self._skipping = False  # the over-long line ends here; it was answered already
            else:
                buffer += data[start : newline + 1]
                if len(buffer) > MAX_LINE_BYTES + 1:
                    self._add_line(None, now)
                else:
                    self._add_line(bytes(buffer), now)
            buffer.clear()
            start = newline + 1
        if start < len(data) and not self._skipping:
            buffer += data[start:]
            if self._quickack:
                self._ack_at_once()  # the bot is inside a line: let the rest of it come
            if len(buffer) > MAX_LINE_BYTES:
                # Answer now rather than when (if ever) the newline comes; drop the rest.
                buffer.clear()
                self._skipping = True
                self._add_line(None, now)

    def _add_line(self, line: bytes | None, now: float) -> None:
        if line is not None and not self._admit_all and not self.codec.admit(line):
            return  # not a reply: a comment or a handshake, seen by the codec
        if len(self._lines) >= len(self._requests) + self._abandoned:
            self._unrequested += 1  # nobody asked: keep the bot in step by dropping it
            return
        self._lines.append((line, now))

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        deadline = time.perf_counter() + _SEND_TIMEOUT
        try:
            while view:
                try:
                    sent = self.sock.send(view, _DONTWAIT)
                    view = view[sent:]
                except BlockingIOError:
                    remaining = deadline - time.perf_counter()
                    if remaining <= 0:
                        self._broken = self._stalled = True  # the bot stopped reading
                        return
                    select.select([], [self.sock], [], remaining)
        except OSError:
            self._broken = True


def _shorten(text: str) -> str:
    """``text`` cut to :data:`_MAX_TEXT` characters, so a bad reply cannot bloat the logs."""
    return text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT] + f"... ({len(text)} characters)"


def accept_bot(
    listener: socket.socket,
    timeout: float,
    exited: Callable[[], bool],
) -> socket.socket | None:
    """Wait up to ``timeout`` seconds for a bot to connect to ``listener``.

    Returns None if it does not, or as soon as ``exited()`` says its process ended.
    """
    deadline = time.perf_counter() + timeout
    while True:
        remaining = deadline - time.perf_counter()
        # A connection already waiting is taken even when the time is up: bots start
        # together, and one may have connected in time while another was waited for.
        readable, _, _ = select.select([listener], [], [], min(max(remaining, 0), 0.05))
        if readable:
            connection, _ = listener.accept()
            return connection
        if remaining <= 0 or exited():
            return None
