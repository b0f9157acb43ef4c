"""A bot's output, kept on disk up to a limit and only counted past it.

The runner reads a bot's stdout and stderr through a pipe in a thread
(:func:`pump_output`) and writes them into a :class:`CappedLog`; once the log is full,
output is spliced to ``/dev/null`` in large pieces (or read and dropped), so a bot that
writes gigabytes costs the runner little time and no memory.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import IO, BinaryIO

__all__ = ["CappedLog", "LineCounter", "pump_output"]

_CHUNK = 64 * 1024
_DROP_CHUNK = 1024 * 1024  # bytes discarded per call once the log is full


class LineCounter:
    """Counts the output lines that start with ``prefix`` and keeps the first one.

    Fed the output chunk by chunk as it is read; a line split between two chunks is found
    once.  Used for the SDK's bot-error lines (:data:`sdk.client.ERROR_PREFIX`).
    """

    def __init__(self, prefix: str) -> None:
        self._needle = b"\n" + prefix.encode()
        self._skip = len(self._needle)
        self._tail = b"\n"  # the output starts a line
        self.count = 0
        self.first: str | None = None
        """The first counted line without its prefix (at most 300 characters)."""
        self.complete = True
        """False once output went unread (past the log limit): the count is a lower bound."""

    def feed(self, chunk: bytes) -> None:
        """Count the prefixed lines that start in ``chunk``."""
        data = self._tail + chunk
        found = data.count(self._needle)
        if found:
            if self.first is None:
                start = data.find(self._needle) + self._skip
                end = data.find(b"\n", start)
                text = data[start : end if end >= 0 else len(data)]
                self.first = text[:300].decode("utf-8", "replace").rstrip("\r")
            self.count += found
        self._tail = data[-(self._skip - 1) :]


class CappedLog:
    """A log file that keeps at most ``limit`` bytes of bot output and counts the rest."""

    def __init__(self, path: Path, limit: int, counter: LineCounter | None = None) -> None:
        self.path, self.limit = path, limit
        self.counter = counter
        """Counts marked lines in everything that is read (kept or dropped)."""
        self.logged = self.dropped = 0
        self._file: BinaryIO | None = None
        self._closed = False
        self._lock = threading.Lock()  # the output thread and stop() both write

    def _open(self) -> BinaryIO | None:
        if self._file is None and not self._closed:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "wb")  # noqa: SIM115 - kept open until close()
        return self._file

    def note(self, text: str) -> None:
        """Write a line of the runner's own (not counted against the limit)."""
        with self._lock:
            if (file := self._open()) is not None:
                file.write(text.encode())
                file.flush()

    def output(self, chunk: bytes) -> None:
        """Keep what fits under the limit; count the rest as dropped."""
        if self.counter is not None:
            self.counter.feed(chunk)
        with self._lock:
            file = self._open()
            if file is None:
                return
            kept = chunk[: max(self.limit - self.logged, 0)]
            file.write(kept)
            self.logged += len(kept)
            if len(kept) < len(chunk):
                if self.dropped == 0:
                    file.write(self._truncation_note())
                self.dropped += len(chunk) - len(kept)
            file.flush()

    @property
    def full(self) -> bool:
        """True once the limit is reached (from then on, output is only counted)."""
        return self.logged >= self.limit

    def drop(self, count: int) -> None:
        """Count ``count`` bytes of output that were discarded without being written."""
        if self.counter is not None:
            self.counter.complete = False  # never read, so never counted
        with self._lock:
            if self.dropped == 0 and (file := self._open()) is not None:
                file.write(self._truncation_note())
                file.flush()
            self.dropped += count

    def _truncation_note(self) -> bytes:
        return (
            f"\n--- output truncated at {self.limit} bytes; "
            "the rest is counted, not kept ---\n".encode()
        )

    def close(self) -> None:
        """Record how much was dropped and close the file; later output is ignored."""
        with self._lock:
            if self._file is not None:
                if self.dropped:
                    self._file.write(f"--- {self.dropped} bytes of output dropped ---\n".encode())
                self._file.close()
            self._file, self._closed = None, True


def pump_output(stream: IO[bytes], log: CappedLog) -> None:
    """Copy a child's output into the log until the pipe closes, never holding more than a chunk.

    os.read blocks until data or end-of-file arrives, so this does not spin.  Once the log is
    full, output is only counted: spliced to /dev/null in large pieces without entering this
    process, or read and dropped if splicing is not possible.
    """
    fd = stream.fileno()
    try:
        while not log.full:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                return
            log.output(chunk)
        _discard(fd, log)
    finally:
        stream.close()


def _discard(fd: int, log: CappedLog) -> None:
    """Count and drop everything left in the pipe ``fd`` until it closes."""
    with open(os.devnull, "wb") as null:
        try:
            while moved := os.splice(fd, null.fileno(), _DROP_CHUNK):
                log.drop(moved)
            return
        except (OSError, AttributeError):  # no splice here: copy instead
            pass
    while chunk := os.read(fd, _DROP_CHUNK):
        log.drop(len(chunk))
