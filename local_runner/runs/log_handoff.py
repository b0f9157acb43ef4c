"""The hands' logs written by a writer process on a free CPU, fed the hands as plain values.

While a match's runner and bots take turns on one CPU (:mod:`local_runner.programs.cpu_share`),
the machine's other CPUs are idle, and the lines of each hand (``gamelog.txt``,
``hands.jsonl``, ``dealer.log``: about 50 µs of the runner's Python a hand, a fifth of an
ACPC match) are the one part of the runner's work that nothing waits for.  So the runner
forks one writer when the match starts and sends it each finished hand through a pipe, as
the plain values of :func:`~.hand_pack.pack_hand` (about 2 µs a hand), in a ``marshal``
batch about fifty times a second.  The writer rebuilds each record
(:func:`~.hand_pack.unpack_hand`) and writes its lines with the same writers.

Why not a child per batch, as the runner did before: a fork marks every page of the runner
copy-on-write, and the runner then paid a page copy for each page it wrote while that child
lived (about 1,200 pages a batch, ten batches a second).  One writer for the whole match costs
those copies once.  Why not pickled records: pickling a record's round states costs the runner
about 15 µs a hand, more than the forks did.

What the writer may touch is small on purpose: the pipe, the writers' formatting and the log
files (every other descriptor it inherited, but standard input, output and error, is closed,
so that, for one, a bot sees the end of its connection when the runner closes it).  It
leaves with ``os._exit``, without ``atexit`` handlers or flushing any file of the runner's;
Ctrl-C and SIGTERM stay blocked in it (the runner handles them; the writer ends when the
pipe does, and one that has not after :data:`CHILD_PATIENCE` is killed).

Nothing is lost: after each batch the writer flushes the logs and tells the runner their
sizes.  The runner keeps every batch the writer has not confirmed; when the writer fails
(killed, hung, or an error in its writing), the logs are cut back to the last sizes it
confirmed and the runner writes the rest itself, so an error raises in the runner as it
would have without a writer.  What the runner keeps of each hand (the dealer log's running
totals) is kept here, hand by hand (:meth:`HandLog.tally`).
"""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import signal
import struct
import time
import warnings
from collections import deque
from collections.abc import Iterable, Sequence
from typing import IO, Any, Protocol

from sdk.rules import Rules

from ..engine.records import HandRecord
from ..programs.waiting import wait_for_child
from .hand_pack import Packed, pack_hand, unpack_hand

__all__ = ["HandLog", "LogHandoff"]

BATCH_SECONDS = 0.02
"""How often the hands gathered are sent to the writer, at most (each send is a system call
and wakes the writer; the shorter, the less is left to write when the match ends)."""

CHILD_PATIENCE = 30.0
"""How long the runner waits for the writer at the end (or for room in its pipe) before it
ends it and writes the rest itself (a batch takes the writer milliseconds; this only bounds a
writer that could never finish)."""

_DEFERRED = {signal.SIGINT, signal.SIGTERM}
_LENGTH = struct.Struct("<I")  # before each batch on the pipe: its length in bytes
_PIPE_BYTES = 1 << 20  # (a hand packs to about 200 bytes; the usual pipe holds 64 KiB)


class HandLog(Protocol):
    """A log written hand by hand (:class:`~.writer.MatchLogWriter`,
    :class:`~.dealer_log.DealerLogWriter`)."""

    def tally(self, record: HandRecord) -> None:
        """Keep what the writer needs of the hand beyond its lines (in the runner)."""
        ...

    def write_hand(self, record: HandRecord) -> None:
        """Write the hand's lines (in the writer process, or in the runner)."""
        ...

    def files(self) -> Sequence[IO[Any]]:
        """The open files the lines go to."""
        ...


class LogHandoff:
    """Hands the logs of finished hands to a writer process on one of ``cpus``.

    Call :meth:`on_hand` for every finished hand, :meth:`hand_off` when the last one is in
    (the writer then finishes while the bots stop), and :meth:`finish` before the logs close:
    it waits for the writer and writes here whatever it did not.  ``rules`` are the match's:
    the writer needs them to rebuild the records.
    """

    def __init__(self, logs: Sequence[HandLog], cpus: Iterable[int], rules: Rules) -> None:
        self.logs = tuple(logs)
        self.cpus = frozenset(cpus)
        self.rules = rules
        self.batches = 0
        """Batches sent to the writer so far."""
        self.written_here = 0
        """Hands whose lines the runner wrote itself (after a failed writer, or without one)."""
        self._files = [file for log in self.logs for file in log.files()]
        # The writer's confirmation of a batch: the size of each log file after it.
        self._sizes = struct.Struct(f"<{len(self._files)}Q")
        self._batch: list[Packed] = []
        self._unconfirmed: deque[bytes] = deque()  # sent, in order, not yet confirmed written
        self._pending = b""  # what the pipe has not taken yet
        self._confirmed_sizes: list[int] = []
        self._acks = b""
        self._pid: int | None = None
        self._pipe = self._acks_fd = -1
        self._due = time.perf_counter() + BATCH_SECONDS
        self._start()

    def on_hand(self, record: HandRecord) -> None:
        """Keep the finished hand ``record``; send the batch when one is due."""
        for log in self.logs:
            log.tally(record)
        if self._pid is None:  # no writer (it failed, or never started): write here
            self._write_here([record])
            return
        self._batch.append(pack_hand(record))
        now = time.perf_counter()
        if now >= self._due:
            self._due = now + BATCH_SECONDS
            self._send()

    def hand_off(self) -> None:
        """Send the hands kept so far and end the pipe: the writer finishes them and exits
        (:meth:`finish` then waits for it)."""
        if self._pid is None or self._pipe < 0:
            return
        self._send()
        self._drain(time.monotonic() + CHILD_PATIENCE)
        if self._pid is not None:
            os.close(self._pipe)
            self._pipe = -1

    def finish(self) -> None:
        """Wait for the writer and write here what it did not: when this returns, every hand
        handed in is in the logs (or an error raised saying why not)."""
        if self._pid is None:
            return
        self.hand_off()
        if self._pid is None:  # the writer failed while the last batches went
            return
        pid = self._pid
        try:
            status = wait_for_child(pid, CHILD_PATIENCE)
            if status is None:  # a writer that could never finish: end it
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                status = os.waitpid(pid, 0)[1]
        except ChildProcessError:  # reaped elsewhere: what it confirmed is what counts
            status = 0
        self._read_acks()
        self._end_writer(failed=status != 0 or bool(self._unconfirmed), reaped=True)

    # -- internals ---------------------------------------------------------

    def _start(self) -> None:
        """Fork the writer (where that fails, the lines are written here)."""
        for file in self._files:
            file.flush()  # nothing of the runner's may sit in a buffer the writer copies
        self._confirmed_sizes = [os.fstat(file.fileno()).st_size for file in self._files]
        hands_read, hands_write = os.pipe()
        acks_read, acks_write = os.pipe()
        # Ctrl-C or SIGTERM between the fork and the next line would leave a writer nobody
        # knows of: they wait until it is known.  (The writer keeps them blocked.)
        signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns that forking a process with threads may deadlock the
                # child; the writer touches no lock another thread could hold (see above).
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
            if pid == 0:
                self._writer(hands_read, acks_write)
        except OSError:  # no memory or no process to spare: write here instead
            for fd in (hands_read, hands_write, acks_read, acks_write):
                os.close(fd)
            return
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _DEFERRED)
        os.close(hands_read)
        os.close(acks_write)
        os.set_blocking(hands_write, False)
        os.set_blocking(acks_read, False)
        import fcntl  # (POSIX, as fork is)

        if hasattr(fcntl, "F_SETPIPE_SZ"):  # (Linux) room for a batch or two of a fast match
            with contextlib.suppress(OSError):
                fcntl.fcntl(hands_write, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
        self._pid, self._pipe, self._acks_fd = pid, hands_write, acks_read
        if self.cpus:
            # Off the runner's CPU (where that fails, the writer is gone already or the
            # CPUs changed, and it writes where it is).
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, self.cpus)

    def _writer(self, hands: int, acks: int) -> None:
        """The writer's whole life: read batches until the pipe ends, write each, confirm
        it with the logs' sizes; then leave (never returns)."""
        status = 1
        try:
            keep = sorted({0, 1, 2, hands, acks, *(file.fileno() for file in self._files)})
            for low, high in zip(keep, [*keep[1:], os.sysconf("SC_OPEN_MAX")], strict=True):
                os.closerange(low + 1, high)
            with open(hands, "rb", closefd=False) as pipe:
                while length := pipe.read(_LENGTH.size):
                    payload = pipe.read(_LENGTH.unpack(length)[0])
                    for packed in marshal.loads(payload):
                        record = unpack_hand(packed, self.rules)
                        for log in self.logs:
                            log.write_hand(record)
                    for file in self._files:
                        file.flush()
                    ends = [os.fstat(file.fileno()).st_size for file in self._files]
                    os.write(acks, self._sizes.pack(*ends))
            status = 0
        finally:
            os._exit(status)

    def _send(self) -> None:
        """Send the batch kept (as much as the pipe takes now; the rest waits)."""
        if self._batch:
            payload = marshal.dumps(self._batch)
            self._batch = []
            self._unconfirmed.append(payload)
            self._pending += _LENGTH.pack(len(payload)) + payload
            self.batches += 1
        self._read_acks()
        if self._pending and self._pid is not None:
            self._write_pending()

    def _write_pending(self) -> None:
        try:
            sent = os.write(self._pipe, self._pending)
        except BlockingIOError:
            return  # the writer is behind: the rest goes with the next batch
        except OSError:  # the writer is gone (a broken pipe)
            self._end_writer(failed=True)
            return
        self._pending = self._pending[sent:]

    def _drain(self, deadline: float) -> None:
        """Send everything pending, waiting for room in the pipe until ``deadline``."""
        while self._pending and self._pid is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._end_writer(failed=True)
                return
            select.select([], [self._pipe], [], remaining)
            self._write_pending()
            self._read_acks()

    def _read_acks(self) -> None:
        """Read the writer's confirmations so far: each confirmed batch is dropped here."""
        if self._acks_fd < 0:
            return
        width = self._sizes.size
        while True:
            try:
                data = os.read(self._acks_fd, 65536)
            except OSError:  # none yet (BlockingIOError), or the writer is gone
                return
            if not data:
                return
            self._acks += data
            whole = len(self._acks) // width * width
            for _ in range(whole // width):
                self._unconfirmed.popleft()
            if whole:
                last = self._acks[whole - width : whole]
                self._confirmed_sizes = list(self._sizes.unpack(last))
                self._acks = self._acks[whole:]

    def _end_writer(self, failed: bool, reaped: bool = False) -> None:
        """The writer is done with (``reaped``: its exit is collected already): if it
        failed, end it, cut the logs back to what it confirmed and write the rest here."""
        pid = self._pid
        self._pid = None
        for fd in (self._pipe, self._acks_fd):
            if fd >= 0:
                os.close(fd)
        self._pipe = self._acks_fd = -1
        if not failed:
            return
        if pid is not None and not reaped:  # (a reaped pid may be another process's now)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        for file, size in zip(self._files, self._confirmed_sizes, strict=True):
            file.flush()
            file.truncate(size)
            file.seek(size)
        batches, self._unconfirmed, self._pending = list(self._unconfirmed), deque(), b""
        for payload in batches:
            self._write_here([unpack_hand(packed, self.rules) for packed in marshal.loads(payload)])
        kept, self._batch = self._batch, []
        self._write_here([unpack_hand(packed, self.rules) for packed in kept])

    def _write_here(self, batch: list[HandRecord]) -> None:
        for record in batch:
            for log in self.logs:
                log.write_hand(record)
        self.written_here += len(batch)
