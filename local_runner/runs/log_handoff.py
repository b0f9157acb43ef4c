"""The hands' logs written by a child process on a free CPU, a batch of hands at a time.

While a match's runner and bots take turns on one CPU (:mod:`local_runner.programs.cpu_share`),
the machine's other CPUs are idle, and the lines of each hand (``gamelog.txt``,
``hands.jsonl``, ``dealer.log``: about 50 µs of the runner's Python a hand, a fifth of an
ACPC match) are the one part of the runner's work that nothing waits for.  So, about ten
times a second, the runner forks: the child moves to a free CPU, writes the hands finished
since the last child with the same writers, and leaves with ``os._exit``.  A fork copies no
memory until it is written, so the records reach the child without being serialised (which
would cost more than the lines themselves).

What the child may touch is small on purpose: the records, the writers' formatting and the
log files, all the forking thread's own (the runner's other threads hold none of their
locks).  It leaves without ``atexit`` handlers or flushing any other file of the runner's,
and Ctrl-C and SIGTERM stay blocked in it (the runner handles them; the child ends by itself
within moments, and one that has not after :data:`CHILD_PATIENCE` is killed).  Children run
one at a time, so the lines stay in order; a batch is due only when the last child has
finished, and hands gather meanwhile.

A batch is written whole, or the runner writes it itself: before each child the runner
notes the size of every log, and when a child fails (killed, hung, or an error in its writing)
the logs are cut back to those sizes and the batch written here, so an error raises in the
runner as it would have without a child.  What the runner keeps of each hand (the dealer
log's running totals) is kept here, hand by hand (:meth:`HandLog.tally`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import warnings
from collections.abc import Iterable, Sequence
from typing import IO, Any, Protocol

from ..engine.records import HandRecord
from ..programs.waiting import wait_for_child

__all__ = ["HandLog", "LogHandoff"]

BATCH_SECONDS = 0.1
"""How often a child is started, at most (the longer, the less the forks cost the runner;
the shorter, the less is left to write when the match ends)."""


CHILD_PATIENCE = 30.0
"""How long the runner waits for a child before it ends it and writes the batch itself (a
batch takes a child milliseconds; this only bounds a child that could never finish)."""

_DEFERRED = {signal.SIGINT, signal.SIGTERM}


class HandLog(Protocol):
    """A log written hand by hand (:class:`~.writer.MatchLogWriter`,
    :class:`~.dealer_log.DealerLogWriter`)."""

    def tally(self, record: HandRecord) -> None:
        """Keep what the writer needs of the hand beyond its lines (in the runner)."""
        ...

    def write_hand(self, record: HandRecord) -> None:
        """Write the hand's lines (in a child, or in the runner)."""
        ...

    def files(self) -> Sequence[IO[Any]]:
        """The open files the lines go to."""
        ...


class LogHandoff:
    """Hands the logs of finished hands to a child on one of ``cpus``, a batch at a time.

    Call :meth:`on_hand` for every finished hand, :meth:`hand_off` when the last one is in
    (the child then works while the bots stop), and :meth:`finish` before the logs close:
    it waits for the child and writes here whatever is left.
    """

    def __init__(self, logs: Sequence[HandLog], cpus: Iterable[int]) -> None:
        self.logs = tuple(logs)
        self.cpus = frozenset(cpus)
        self.children = 0
        """Children started so far (each wrote one batch, or the runner wrote it after)."""
        self.written_here = 0
        """Hands whose lines the runner wrote itself (a failed child's, or left at the end)."""
        self._batch: list[HandRecord] = []
        self._child: tuple[int, list[HandRecord], list[int]] | None = None
        self._due = time.perf_counter() + BATCH_SECONDS

    def on_hand(self, record: HandRecord) -> None:
        """Keep the finished hand ``record``; start a child when a batch is due."""
        for log in self.logs:
            log.tally(record)
        self._batch.append(record)
        now = time.perf_counter()
        if now >= self._due:
            self._due = now + BATCH_SECONDS
            if self._free():
                self._start()

    def hand_off(self) -> None:
        """Start a child for the hands kept so far, unless one is still writing (then
        :meth:`finish` takes care of them)."""
        if self._batch and self._free():
            self._start()

    def wait(self) -> None:
        """Wait for the child writing now, if any (its batch is then in the logs)."""
        if self._child is not None:
            self._reap(block=True)

    def finish(self) -> None:
        """Wait for the child and write the hands still kept: when this returns, every hand
        handed in is in the logs (or an error raised saying why not)."""
        self.wait()
        batch, self._batch = self._batch, []
        self._write_here(batch)

    # -- internals ---------------------------------------------------------

    def _free(self) -> bool:
        """Whether no child is writing now (the last one, if any, is reaped)."""
        return self._child is None or self._reap(block=False)

    def _start(self) -> None:
        files = [file for log in self.logs for file in log.files()]
        for file in files:
            file.flush()  # nothing of the runner's may sit in a buffer the child copies
        sizes = [os.fstat(file.fileno()).st_size for file in files]
        batch, self._batch = self._batch, []
        # Ctrl-C or SIGTERM between the fork and the next line would leave a child nobody
        # knows of, whose batch the runner would write again: they wait until it is known.
        # (The child keeps them blocked: it ends by itself within moments.)
        signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns that forking a process with threads may deadlock the
                # child; this child touches no lock another thread could hold (see above).
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
            if pid == 0:
                self._child_writes(batch, files)
            self.children += 1
            self._child = (pid, batch, sizes)
        except OSError:  # no memory or no process to spare: write here instead
            self._write_here(batch)
            return
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _DEFERRED)
        if self.cpus:
            # Off the runner's CPU before it runs (where that fails, the child is gone
            # already or the CPUs changed, and it writes where it is).
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, self.cpus)

    def _child_writes(self, batch: list[HandRecord], files: list[IO[Any]]) -> None:
        """The child's whole life: write the batch, flush, leave (never returns)."""
        status = 1
        try:
            for record in batch:
                for log in self.logs:
                    log.write_hand(record)
            for file in files:
                file.flush()
            status = 0
        finally:
            os._exit(status)

    def _reap(self, block: bool) -> bool:
        """Whether the child is done (its batch written, by it or here)."""
        assert self._child is not None
        pid, batch, sizes = self._child
        try:
            found = wait_for_child(pid, CHILD_PATIENCE if block else 0.0)
            if found is None and block:  # a child that could never finish: end it
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                found = os.waitpid(pid, 0)[1]
        except ChildProcessError:  # reaped elsewhere: its status is unknown
            found = -1
        if found is None:
            return False
        self._child = None
        if found != 0:  # cut the logs back to before the batch and write it here
            files = [file for log in self.logs for file in log.files()]
            for file, size in zip(files, sizes, strict=True):
                file.flush()
                file.truncate(size)
                file.seek(size)
            self._write_here(batch)
        return True

    def _write_here(self, batch: list[HandRecord]) -> None:
        for record in batch:
            for log in self.logs:
                log.write_hand(record)
        self.written_here += len(batch)
