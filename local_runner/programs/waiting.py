"""Waiting for a child process to exit, and seeing it the moment it does.

``Popen.wait`` with a timeout polls, sleeping twice as long each time (up to 50 ms), so an
exit is seen up to that much late: at the end of every match (a Python bot takes 10-15 ms to
exit), after a bot's build, after the probe of a ``python3``, after a log batch's child.
Where Linux gives a process a file descriptor (``pidfd_open``, Linux 5.3), the wait ends the
moment the process does.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import time

__all__ = ["wait_for_child", "wait_for_exit"]


def _exited_by_descriptor(pid: int, timeout: float) -> bool | None:
    """Whether the child ``pid`` exited within ``timeout`` seconds (it is not reaped), seen
    through its process descriptor; None where the system gives none."""
    try:
        descriptor = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or a kernel before 5.3
        return None
    try:
        waiter = select.poll()
        waiter.register(descriptor, select.POLLIN)
        return bool(waiter.poll(max(timeout, 0.0) * 1000))  # readable once it has exited
    finally:
        os.close(descriptor)


def wait_for_exit(popen: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait until ``popen`` has exited (and reap it: ``returncode`` is then set), or
    ``timeout`` seconds have passed (``returncode`` stays None).  Elsewhere than Linux it
    polls as ``Popen.wait`` does."""
    if popen.poll() is not None:
        return
    if _exited_by_descriptor(popen.pid, timeout) is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=timeout)
        return
    popen.poll()


def wait_for_child(pid: int, timeout: float) -> int | None:
    """Reap the child ``pid`` (one made by ``os.fork``) and return its wait status, or None
    if it is still running after ``timeout`` seconds.  Elsewhere than Linux it polls, every
    5 ms at most."""
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        return status
    if timeout <= 0:
        return None
    exited = _exited_by_descriptor(pid, timeout)
    if exited is not None:
        return os.waitpid(pid, 0)[1] if exited else None
    deadline = time.monotonic() + timeout
    pause = 0.0005
    while time.monotonic() < deadline:
        time.sleep(min(pause, max(deadline - time.monotonic(), 0.0)))
        pause = min(pause * 2, 0.005)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
    return None
