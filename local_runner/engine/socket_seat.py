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
_TOLD_BYTES = 16384  # told lines kept for the next message at most (then written at once)
_EXIT_PATIENCE = 0.5  # how long a closed connection waits for the process's exit status
_MAX_TEXT = 200  # characters of a bad reply kept for fault details and logs
_QUICKACK: int = getattr(socket, "TCP_QUICKACK", 0)  # Linux only
#: Reads and writes that must not wait pass this flag; the socket itself stays blocking, so
#: that a wait for one bot's reply can be one ``recv`` bounded by ``SO_RCVTIMEO``
#: (:meth:`SocketSeat._wait`).  Without the flag (Windows) the socket is non-blocking and
#: every wait is a ``select`` (also off Linux: ``SO_RCVTIMEO``'s layout below is Linux's).
_DONTWAIT: int = getattr(socket, "MSG_DONTWAIT", 0)
#: A wait shorter than this goes through ``select``, whose timeout is exact: the kernel
#: rounds ``SO_RCVTIMEO`` up to its clock tick (up to 10 ms), and a deadline is a deadline.
_BLOCKING_MIN = 0.05
_NONBLOCKING_ONLY = _DONTWAIT == 0 or not sys.platform.startswith("linux")
_KNOWN_REPLIES = 512  # whole reply lines remembered with their action (the MIT wire only)
_TIMEVAL = struct.Struct("@ll")  # struct timeval, as Linux's SO_RCVTIMEO takes it


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
        # The MIT wire's decoding depends on the line alone: the replies a bot repeats (K, C,
        # F, its usual raises) are decoded once.  (An ACPC reply is read against the state.)
        self._known: dict[bytes, tuple[str, Action]] | None = {} if self._admit_all else None
        self._decode = self.codec.decode
        del spin_wait  # deprecated: there is no spin-wait any more
        self.name = name
        self.before_quit = before_quit
        self.sock = sock
        # Blocking, with every read and write that must not wait flagged _DONTWAIT; without
        # the flag, non-blocking (see _DONTWAIT).
        sock.setblocking(not _NONBLOCKING_ONLY)
        self._rcvtimeo = 0.0  # SO_RCVTIMEO as last set (0: never set, the kernel's "forever")
        is_tcp = sock.family in (socket.AF_INET, socket.AF_INET6)
        self._quickack = is_tcp and _QUICKACK
        self._fd = sock.fileno()
        self._told = b""  # messages that ask for no reply, not written yet (see tell)
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
            if self._told:
                data, self._told = self._told + data, b""
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
        """Write a message that asks for no reply (a reply to it would be unrequested).

        It is written with the seat's next message, or before the end of the match
        (:meth:`quit`), in its order: the bot has nothing to do with it before then, and
        waking a bot for each such message (the ACPC final state of every hand) cost it
        and the runner a switch of the CPU each.
        """
        if not self._broken:
            self._told += self.codec.encode(message)
            if len(self._told) > _TOLD_BYTES:  # a seat long without a question
                self._write(self._told)
                self._told = b""

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
        if not self._broken and (self._told or self.codec.quit_line):
            self._write(self._told + self.codec.quit_line)  # what it was told, then Q
            self._told = b""

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
        known = self._known
        if known is not None and line is not None:
            seen = known.get(line)
            if seen is not None:
                return Reply(request.hand, seen[1], elapsed, request.ack, seen[0])
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
        elif known is not None and line is not None and len(known) < _KNOWN_REPLIES:
            known[line] = (text, action)
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
        """Sleep until this seat or a peer that owes a reply has sent something, or
        ``timeout`` seconds have passed; read what came.

        A blocking wait with the deadline as its bound: no CPU is spent while the bot
        thinks, and the runner wakes as soon as a byte arrives, however busy the machine.
        When no peer owes a reply (most of a hand), the wait is the read itself: one
        ``recv`` that the kernel ends after ``SO_RCVTIMEO`` (:meth:`_receive_blocking`);
        otherwise ``select`` watches this seat and every peer that does, and the seats it
        names are read.  (There used to be a spin-wait here, ``[runner] spin_wait``: it cost
        more CPU than it saved wall time, and on a loaded machine it took the CPU from the
        bots it waited for.)
        """
        fd = self._fd
        watched = [fd]
        peers = self.peers
        for peer in peers:
            if (peer._requests or peer._abandoned) and not peer._eof:
                watched.append(peer._fd)
        if len(watched) == 1 and timeout >= _BLOCKING_MIN and not _NONBLOCKING_ONLY:
            self._receive_blocking(timeout)
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

    def _receive_blocking(self, timeout: float) -> None:
        """One ``recv`` that waits at most ``timeout`` seconds (at least :data:`_BLOCKING_MIN`).

        ``SO_RCVTIMEO`` bounds the wait.  It is set again only when it would outlast
        ``timeout`` (to half of it, so that a clock that shrinks a little with every reply does
        not cost a system call per message); a read that ends early for that reason returns
        nothing, and the caller waits again for what is left.
        """
        if self._rcvtimeo > timeout * 0.75 or self._rcvtimeo <= 0.0:
            bound = timeout / 2
            seconds = int(bound)
            try:
                self.sock.setsockopt(
                    socket.SOL_SOCKET,
                    socket.SO_RCVTIMEO,
                    _TIMEVAL.pack(seconds, int((bound - seconds) * 1e6)),
                )
            except OSError:
                self._broken = True
                return
            self._rcvtimeo = bound
        try:
            data = self.sock.recv(_READ_CHUNK)
        except BlockingIOError:
            return  # SO_RCVTIMEO ran out
        except OSError:
            self._eof = True
            return
        self._take(data, time.perf_counter())

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

    def _read_available(self, now: float) -> None:
        """Read what has arrived, without waiting."""
        try:
            data = self.sock.recv(_READ_CHUNK, _DONTWAIT)
        except BlockingIOError:
            return
        except OSError:
            self._eof = True
            return
        self._take(data, now)

    def _take(self, data: bytes, now: float) -> None:
        """Split what one read brought into lines (an empty read: the connection's end)."""
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
