"""The bot's processes, recognised by where they run: find them and end them.

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
from pathlib import Path

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
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        for link in ("cwd", "exe"):
            try:
                target = os.readlink(f"/proc/{name}/{link}")
            except OSError:
                continue
            if _inside(target, root):
                found.append(int(name))
                break
    return sorted(found)


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read(200).replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def end_processes(pids: list[int], wait: float = 2.0) -> None:
    """SIGKILL the given processes and wait up to ``wait`` seconds for them to go."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{pid}/cwd") for pid in pids):
        time.sleep(0.02)


def check_cleanup(directory: Path) -> CheckResult:
    """Nothing of the bot runs in ``directory`` any more; survivors are named, then killed."""
    name = "cleanup"
    pids = processes_inside(directory)
    if not pids:
        return CheckResult.passed(name, "No process of the bot was left running after the match.")
    described = ", ".join(f"{pid} ({_command(pid)})" for pid in pids[:3])
    end_processes(pids)
    return CheckResult.failed(
        name, f"{len(pids)} process(es) of the bot outlived the match: {described}.",
        "Exit when the engine closes the connection, and stop the processes your bot starts "
        "(no `setsid`, `nohup` or daemons); the validator killed them.")
