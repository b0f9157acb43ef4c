"""Recognise every process a bot started, through ``/proc``, and end them.

* each one inherits ``POKERBOTS_BOT_TOKEN=<random hex>`` in its environment, which survives a
  double fork into a new session and reparenting to init;
* members of the bot's session and descendants of recognised processes count too, which
  catches a child that replaced its environment;
* processes seen once are remembered by (pid, start time), so a reused pid is never mistaken
  for the bot.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import threading
import time
from dataclasses import dataclass

__all__ = [
    "PR_SET_CHILD_SUBREAPER",
    "TOKEN_VAR",
    "ProcInfo",
    "ProcessTracker",
    "Snapshot",
    "describe_process",
    "enable_child_subreaper",
    "peak_resident_bytes",
    "read_stat",
    "scan_processes",
]

TOKEN_VAR = "POKERBOTS_BOT_TOKEN"
_KILL_GIVE_UP = 2.0  # how long to keep sending SIGKILL before reporting survivors
#: prctl option that makes orphaned descendants reparent to the caller.
PR_SET_CHILD_SUBREAPER = 36


def enable_child_subreaper() -> bool:
    """Make orphaned descendants of this process reparent to it instead of init.

    Optional: a bot's processes are found without it.  When it is on, orphans become zombies of
    the runner, and :meth:`BotProcess.stop` reaps the ones that belong to its bot.  Returns False
    if the kernel refused.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


@dataclass(frozen=True)
class ProcInfo:
    """One process as ``/proc/<pid>/stat`` describes it."""

    pid: int
    ppid: int
    pgrp: int
    session: int
    start: int  # clock ticks since boot; with the pid it identifies a process for good
    zombie: bool
    rss: int  # resident pages


def read_stat(pid: int) -> ProcInfo | None:
    """Parse /proc/<pid>/stat, or return None if the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return None
    # The command name (field 2) may contain spaces and ')', so split after the last ')'.
    rest = stat.rpartition(b")")[2].split()
    zombie = rest[0] in (b"Z", b"X")
    rss = int(rest[21])
    return ProcInfo(pid, int(rest[1]), int(rest[2]), int(rest[3]), int(rest[19]), zombie, rss)


class Snapshot(dict[int, ProcInfo]):
    """Every process in ``/proc`` at one moment, by pid; ``number`` orders snapshots in time
    (a tracker never lets an older snapshot replace what a newer one showed it)."""

    number: int = 0


_snapshots = itertools.count(1)
_snapshot_lock = threading.Lock()


def scan_processes() -> Snapshot:
    """Snapshot every process in /proc; processes that vanish meanwhile are skipped.

    One snapshot serves every bot of a table (:func:`local_runner.programs.process.stop_bots`,
    the shared watcher): a full scan of ``/proc`` is the expensive part.
    """
    with _snapshot_lock:
        number = next(_snapshots)
    snapshot = Snapshot()
    snapshot.number = number
    for name in os.listdir("/proc"):
        if name.isdigit() and (proc := read_stat(int(name))) is not None:
            snapshot[proc.pid] = proc
    return snapshot


class ProcessTracker:
    """Recognises the processes of one bot; see the module docstring for the rules."""

    def __init__(self, token: str, root: int) -> None:
        self._needle = f"{TOKEN_VAR}={token}".encode()
        self.root = root  # pid == process group == session, thanks to start_new_session
        root_proc = read_stat(root)
        # Session members are created after the session leader: a cheap guard against pid reuse.
        self._root_start = root_proc.start if root_proc else 0
        self._known: set[tuple[int, int]] = set()
        self._foreign: set[tuple[int, int]] = set()  # saves re-reading their environment
        self._lock = threading.Lock()  # the watcher and the runner's thread both scan
        self._seen = 0  # the number of the newest snapshot applied
        self._last: dict[int, ProcInfo] = {}  # what that snapshot showed of the bot

    def _has_token(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                return self._needle in file.read().split(b"\0")
        except OSError:
            return False

    def scan(self, snapshot: Snapshot | None = None) -> dict[int, ProcInfo]:
        """Return the bot's processes, zombies included, and remember them.

        ``snapshot`` is a scan of ``/proc`` shared with other trackers (default: a fresh one).
        One older than a snapshot already applied changes nothing: it could show a process as
        not yet started, and forgetting it would let it hide.
        """
        with self._lock:
            procs = scan_processes() if snapshot is None else snapshot
            if procs.number < self._seen:
                return dict(self._last)
            self._seen = procs.number
            self._last = self._scan(procs)
            return dict(self._last)

    def _scan(self, procs: dict[int, ProcInfo]) -> dict[int, ProcInfo]:
        me = os.getpid()
        ours: dict[int, ProcInfo] = {}
        for proc in procs.values():
            key = (proc.pid, proc.start)
            in_session = proc.session == self.root and proc.start >= self._root_start
            if proc.pid != me and (
                key in self._known
                or in_session
                or (key not in self._foreign and self._has_token(proc.pid))
            ):
                ours[proc.pid] = proc
        children: dict[int, list[ProcInfo]] = {}
        for proc in procs.values():
            children.setdefault(proc.ppid, []).append(proc)
        stack = list(ours)
        while stack:
            for child in children.get(stack.pop(), []):
                if child.pid not in ours and child.pid != me:
                    ours[child.pid] = child
                    stack.append(child.pid)
        # Dead processes never come back under the same (pid, start), so forgetting them is safe.
        self._known = {(p.pid, p.start) for p in ours.values()}
        self._foreign = {(p.pid, p.start) for p in procs.values()} - self._known
        return ours

    def live(self, snapshot: Snapshot | None = None) -> list[ProcInfo]:
        """The bot's processes that have not exited yet (in ``snapshot``, or a fresh scan)."""
        return [proc for proc in self.scan(snapshot).values() if not proc.zombie]

    def send(self, procs: list[ProcInfo], sig: int) -> None:
        """Signal the given processes, and the bot's process group while it is known to exist."""
        if any(proc.pgrp == self.root for proc in procs):
            with contextlib.suppress(OSError):  # catches group members forked since the scan
                os.killpg(self.root, sig)
        for proc in procs:
            with contextlib.suppress(OSError):
                os.kill(proc.pid, sig)

    def terminate(
        self, term_wait: float, live: list[ProcInfo] | None = None
    ) -> tuple[set[int], tuple[int, ...]]:
        """SIGTERM everything, wait up to term_wait, then SIGKILL until nothing is left.

        ``live`` is what a scan just found alive (default: scan now).  Returns the pids that
        were signalled and those still alive when it gave up.
        """
        signalled: set[int] = set()
        if live is None:
            live = self.live()
        if live and term_wait > 0:
            self.send(live, signal.SIGTERM)
            signalled.update(proc.pid for proc in live)
            deadline = time.monotonic() + term_wait
            while live and time.monotonic() < deadline:
                time.sleep(0.02)
                live = self.live()
        deadline = time.monotonic() + _KILL_GIVE_UP
        while live and time.monotonic() < deadline:
            self.send(live, signal.SIGKILL)
            signalled.update(proc.pid for proc in live)
            time.sleep(0.02)
            live = self.live()
        return signalled, tuple(sorted(proc.pid for proc in live))

    def reap_orphans(self, main_pid: int, snapshot: Snapshot | None = None) -> None:
        """Reap the bot's zombies that were reparented to the runner (when it is a subreaper).

        Only pids known to be the bot's are waited for, so other Popen objects keep their status.
        ``snapshot``: a scan just made (default: scan now).
        """
        me = os.getpid()
        for proc in self.scan(snapshot).values():
            if proc.zombie and proc.ppid == me and proc.pid != main_pid:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(proc.pid, os.WNOHANG)


def describe_process(pid: int) -> str:
    """``'pid 123 (sleep 1000)'``: the pid and the start of its command line."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            command = file.read(200).replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        command = ""
    return f"pid {pid} ({command or '?'})"


def peak_resident_bytes(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM, in bytes); 0 if it is gone.

    The kernel keeps the high-water mark, so one reading while the process lives measures
    its peak, however briefly it held the memory.
    """
    try:
        with open(f"/proc/{pid}/status", "rb") as file:
            for line in file:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0
