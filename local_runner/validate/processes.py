"""The bot's processes, recognised by where they run: find them, measure them, end them.

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

__all__ = ["MemorySampler", "check_cleanup", "end_processes", "processes_inside"]

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


def _peak_resident(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM) in bytes; 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/status", "rb") as file:
            for line in file:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


class MemorySampler:
    """The peak memory of the processes running inside a directory, sampled on demand.

    ``peak_bytes`` is the largest sum, over one sample, of the live processes'
    peak resident memory (VmHWM).  VmHWM remembers a process's peak, so one
    sample while the bot is alive (say, after its last hand) measures it even
    if it lived for less than a second.  :meth:`maybe_sample` is cheap to call
    often: it samples at most once per ``interval`` seconds.
    """

    def __init__(self, directory: Path, interval: float = 0.05) -> None:
        """Sample the processes inside ``directory``."""
        self.directory, self.interval = directory, interval
        self.peak_bytes = 0
        self._last = -interval

    def sample(self) -> None:
        """Measure now."""
        self._last = time.monotonic()
        total = sum(_peak_resident(pid) for pid in processes_inside(self.directory))
        self.peak_bytes = max(self.peak_bytes, total)

    def maybe_sample(self, force: bool = False) -> None:
        """Measure if ``force`` or if ``interval`` seconds have passed since the last sample."""
        if force or time.monotonic() - self._last >= self.interval:
            self.sample()


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
