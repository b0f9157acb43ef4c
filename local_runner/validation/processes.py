"""The cleanup check: no process of the bot outlived its match.

The runner reports the bot's processes still running when the grace period
after a match ran out (``PlayerResult.lingering_processes``; it then ends
them).  This module looks on its own, after everything, for processes that
escaped the runner:

A bot's processes run in its private copy, so a live process whose working
directory or executable lies inside that copy belongs to the bot; after the
match, it outlived the bot.  Nothing else on the machine can match, because
the copy is a fresh temporary directory.  This is independent of the runner's
process manager, so it checks that manager's work.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path

import psutil

from ..programs.proc_tracker import describe_process
from .checks import CheckResult

__all__ = ["check_cleanup", "end_processes", "processes_inside"]

_DELETED = " (deleted)"


def _inside(target: str, root: str) -> bool:
    target = target.removesuffix(_DELETED)
    return target == root or target.startswith(root + os.sep)


def processes_inside(directory: Path) -> list[int]:
    """Pids of live processes (not this one) working or running an executable in ``directory``.

    Zombies and processes of other users are not visible this way, and neither
    is needed: a zombie has ended, and another user's process is not the bot's.
    """
    root = os.path.realpath(directory)
    found = []
    for process in psutil.process_iter():
        if process.pid == os.getpid():
            continue
        for where in (process.cwd, process.exe):
            try:
                target = where()
            except (psutil.Error, OSError):
                continue
            if target and _inside(target, root):
                found.append(process.pid)
                break
    return sorted(found)


def end_processes(pids: list[int], wait: float = 2.0) -> None:
    """SIGKILL the given processes and wait up to ``wait`` seconds for them to go."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(_running(pid) for pid in pids):
        time.sleep(0.02)


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    try:
        return psutil.Process(pid).status() not in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    except (psutil.Error, OSError):
        return False


def check_cleanup(
    directory: Path, lingering: Sequence[str] = (), grace: float = 10.0
) -> CheckResult:
    """No process of the bot outlived its match by ``grace`` seconds, and nothing of the bot
    runs in ``directory`` any more.

    ``lingering`` describes the processes the runner found still running ``grace``
    seconds after a match and ended (the ACPC server's check waits 10 s); a
    process still running in ``directory`` now escaped the runner: it is named,
    then killed.
    """
    name = "cleanup"
    hint = (
        "Exit when the engine closes the connection, and stop the processes your bot "
        "starts (no `setsid`, `nohup` or daemons)."
    )
    pids = processes_inside(directory)
    survivors = [describe_process(pid) for pid in pids]
    if pids:
        end_processes(pids)
    if not lingering and not survivors:
        return CheckResult.passed(
            name, f"Every process of the bot had exited within {grace:g} s of its match."
        )
    parts = []
    if lingering:
        shown = ", ".join(lingering[:3]) + (" ..." if len(lingering) > 3 else "")
        parts.append(
            f"{len(lingering)} process(es) of the bot were still running {grace:g} s "
            f"after the match and had to be ended: {shown}"
        )
    if survivors:
        parts.append(
            f"{len(survivors)} process(es) escaped the runner and were still running "
            f"after everything: {', '.join(survivors[:3])} (the validator killed them)"
        )
    return CheckResult.failed(name, "; ".join(parts) + ".", hint)
