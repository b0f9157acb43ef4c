"""Progress: a bar on a terminal, a plain line now and then off one.

On a terminal the commands draw a :class:`~.progress_bar.FittingProgress` (its own module, so
that a command run off a terminal never imports rich's progress bars).  In
a pipe or a CI log those bars are not drawn, and a long scrimmage or tournament would
print nothing until it ends: :class:`PlainProgress` prints one line at most every
:data:`EVERY` seconds as work is done; :class:`Heartbeat` prints one from a thread when
nothing else was printed for that long (a tournament whose matches are long).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import TracebackType

from rich.console import Console

__all__ = ["EVERY", "Heartbeat", "PlainProgress", "elapsed"]

#: Seconds between two progress lines (read when a progress starts).
EVERY = 30.0


def elapsed(seconds: float) -> str:
    """A duration for a progress line.

    >>> elapsed(42.4), elapsed(75), elapsed(3725)
    ('42 s', '1 min 15 s', '1 h 2 min')
    """
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


class PlainProgress:
    """Counts work done and prints ``WHAT: DONE/TOTAL UNIT (P%) after TIME`` now and then.

    >>> import io
    >>> from local_runner.cli.console import make_console
    >>> console = make_console()
    >>> console.file = io.StringIO()
    >>> now = [0.0]
    >>> progress = PlainProgress(console, "a vs b", 1000, "hands", clock=lambda: now[0])
    >>> progress.advance(100)
    >>> now[0] = 31.0
    >>> progress.advance(150)
    >>> progress.advance(1)
    >>> console.file.getvalue()
    'a vs b: 250/1000 hands (25%) after 31 s\\n'
    """

    def __init__(
        self,
        console: Console,
        what: str,
        total: int,
        unit: str,
        every: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._console = console
        self._what = what
        self._total = max(total, 1)
        self._unit = unit
        self._every = EVERY if every is None else every
        self._clock = clock
        self._start = self._last = clock()
        self.done = 0

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more units done; print a line if the last was long enough ago."""
        self.done += count
        now = self._clock()
        if now - self._last >= self._every:
            self._last = now
            self._console.print(self.line(now))

    def line(self, now: float | None = None) -> str:
        """The progress line as of ``now`` (default: the clock's time)."""
        now = self._clock() if now is None else now
        share = 100 * self.done // self._total
        return (
            f"{self._what}: {self.done}/{self._total} {self._unit} ({share}%) "
            f"after {elapsed(now - self._start)}"
        )


class Heartbeat:
    """A thread that prints ``line()`` whenever nothing was printed for ``every`` seconds.

    Use it as a context manager; call :meth:`touch` after printing something else.
    """

    def __init__(
        self, console: Console, line: Callable[[], str], every: float | None = None
    ) -> None:
        self._console = console
        self._line = line
        self._every = EVERY if every is None else every
        self._stop = threading.Event()
        self._last = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="progress-heartbeat", daemon=True)

    def touch(self) -> None:
        """Something was just printed: wait a full period before the next line."""
        self._last = time.monotonic()

    def _run(self) -> None:
        while not self._stop.wait(min(self._every, 1.0)):
            if time.monotonic() - self._last >= self._every:
                self._console.print(self._line())
                self.touch()

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
