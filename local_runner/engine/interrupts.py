"""Ctrl-C and SIGTERM held back while a finished hand is being counted, then raised.

The kit's commands stop a match by raising ``KeyboardInterrupt`` from their SIGINT and
SIGTERM handler (:func:`interrupt`): the match drops the hand in progress and keeps every
hand before it.  A hand is kept once it is counted: its chips added to the bankrolls, the
hands played counted, and its record handed to the observers (the logs among them).  An
interrupt raised in the middle of that left the hand in the summary but not in the logs, or
in one seat's bankroll and not the other's.  So the engine marks that stretch, which never
waits for a bot (:data:`counting`), and an interrupt that comes during it is raised as soon
as it ends.

>>> counting.active = True
>>> interrupt(2, None)  # held back: nothing raised yet
>>> counting.active, counting.pending
(True, True)
>>> counting.active = counting.pending = False
>>> try:
...     interrupt(2, None)
... except KeyboardInterrupt:  # (a doctest lets no KeyboardInterrupt through)
...     print("raised at once")
raised at once
"""

from __future__ import annotations

import threading

__all__ = ["counting", "interrupt"]


class _Counting(threading.local):
    """Per thread: whether a hand is being counted now, and whether an interrupt waits
    for it (a signal's handler runs in the main thread, so only the main thread's matter)."""

    active = False
    pending = False


counting = _Counting()
"""Set by :meth:`~local_runner.engine.match.Match.play_hand` around the counting of a hand."""


def interrupt(signum: int, frame: object) -> None:
    """The kit's handler of SIGINT and SIGTERM: ``KeyboardInterrupt`` now or, when a hand is
    being counted, as soon as it is."""
    if counting.active:
        counting.pending = True
        return
    raise KeyboardInterrupt
