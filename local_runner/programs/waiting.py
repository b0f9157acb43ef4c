"""Waiting for a child process to exit, and seeing it the moment it does.

``Popen.wait`` with a timeout polls, sleeping twice as long each time (up to 50 ms), so an
exit is seen up to that much late: at the end of every match (a Python bot takes 10-15 ms to
exit), after a bot's build, after the probe of a ``python3``.  Where Linux gives a process a
file descriptor (``pidfd_open``, Linux 5.3), the wait ends the moment the process does.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess

__all__ = ["wait_for_exit"]


def wait_for_exit(popen: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait until ``popen`` has exited (and reap it: ``returncode`` is then set), or
    ``timeout`` seconds have passed (``returncode`` stays None).  Elsewhere than Linux it
    polls as ``Popen.wait`` does."""
    if popen.poll() is not None:
        return
    try:
        descriptor = os.pidfd_open(popen.pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=timeout)
        return
    try:
        waiter = select.poll()
        waiter.register(descriptor, select.POLLIN)
        waiter.poll(timeout * 1000)  # readable once the process has exited
    finally:
        os.close(descriptor)
    popen.poll()
