"""Recognise every process a bot started, and end them, through psutil (Linux, macOS, WSL).

* each one inherits ``POKERBOTS_BOT_TOKEN=<random hex>`` in its environment, which survives a
  double fork into a new session and reparenting to init (the environment of a process that
  started before the bot is not read: it cannot be the bot's);
* members of the bot's session and descendants of recognised processes count too, which
  catches a child that replaced its environment;
* processes seen once are remembered by (pid, start time), so a reused pid is never mistaken
  for the bot.

The process table is read with psutil, which works on every system the kit supports. What
only Linux gives is used there and nowhere else: the child subreaper (:func:`linux_extras`),
which keeps a bot's orphans its descendants; ``POKERBOTS_PORTABLE_PROCESSES=1`` turns it off
on Linux too, to run the portable path alone (the tests do).
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import sys
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass

import psutil

__all__ = [
    "PORTABLE_VAR",
    "PR_SET_CHILD_SUBREAPER",
    "TOKEN_VAR",
    "ProcInfo",
    "ProcessTracker",
    "Snapshot",
    "describe_process",
    "enable_child_subreaper",
    "linux_extras",
    "resident_bytes",
    "scan_processes",
]

TOKEN_VAR = "POKERBOTS_BOT_TOKEN"
PORTABLE_VAR = "POKERBOTS_PORTABLE_PROCESSES"
_KILL_GIVE_UP = 2.0  # how long to keep sending SIGKILL before reporting survivors
#: Seconds before the bot's start from which a process's environment is still read for the
#: token.  A process of the bot starts after the bot, and its start is read the same way
#: (psutil: boot time plus clock ticks), so this only keeps a margin for the boot time's
#: estimate; older processes, most of a machine's, are not looked into (see ``_scan``).
_TOKEN_SLACK = 1.0
#: prctl option that makes orphaned descendants reparent to the caller.
PR_SET_CHILD_SUBREAPER = 36


def linux_extras() -> bool:
    """Whether to use what only Linux has (the child subreaper): on Linux, unless
    ``POKERBOTS_PORTABLE_PROCESSES=1`` asks for the portable path alone."""
    return sys.platform.startswith("linux") and os.environ.get(PORTABLE_VAR, "") in ("", "0")


def enable_child_subreaper() -> bool:
    """Make orphaned descendants of this process reparent to it instead of init (Linux).

    Optional: a bot's processes are found without it.  When it is on, orphans become zombies of
    the runner, and :meth:`BotProcess.stop` reaps the ones that belong to its bot.  Returns False
    where it is not available (not Linux, or the portable path forced) or the kernel refused.
    """
    if not linux_extras():
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


@dataclass(frozen=True, slots=True)
class ProcInfo:
    """One process as the system describes it."""

    pid: int
    ppid: int
    pgrp: int  # -1 where the system no longer says (some systems, for a zombie)
    session: int  # the same
    start: float  # creation time; with the pid it identifies a process for good
    zombie: bool


_GONE = (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)


def read_process(pid: int) -> ProcInfo | None:
    """What the system says of ``pid`` now, or None if it is gone (or may not be looked at)."""
    try:
        process = psutil.Process(pid)
        with process.oneshot():
            ppid, start, zombie = process.ppid(), process.create_time(), process.status() in _GONE
    except (psutil.Error, OSError):
        return None
    try:
        pgrp, session = os.getpgid(pid), os.getsid(pid)
    except OSError:
        if not zombie:
            return None  # gone between the two questions
        pgrp = session = -1
    return ProcInfo(pid, ppid, pgrp, session, start, zombie)


class Snapshot(dict[int, ProcInfo]):
    """Every process at one moment, by pid; ``number`` orders snapshots in time (a tracker
    never lets an older snapshot replace what a newer one showed it)."""

    number: int = 0


_snapshots = itertools.count(1)
_table_lock = threading.Lock()
_table: dict[int, ProcInfo] = {}  # the latest scan, for scans that read only what changed


def scan_processes(refresh: Collection[int] | None = None) -> Snapshot:
    """Snapshot every process; processes that vanish meanwhile are skipped.

    With ``refresh`` (the pids whose state matters: the bots' own processes), only those and
    the processes new since the last scan are read, the others taken from it (a process that
    is neither cannot become a bot's: it has no token, and it is in no bot's session or
    line of descent), for a fraction of the cost of reading them all: the runner scans so
    four times a second while bots run, and when it stops them.  Without ``refresh``, or
    with no earlier scan, every process is read.
    One snapshot serves every bot of a table (:func:`local_runner.programs.process.stop_bots`,
    the shared watcher).
    """
    pids = psutil.pids()
    with _table_lock:
        number = next(_snapshots)
        previous = dict(_table) if refresh is not None else {}
    fresh = frozenset(refresh or ())
    snapshot = Snapshot()
    snapshot.number = number
    for pid in pids:
        known = previous.get(pid)
        if known is not None and pid not in fresh:
            snapshot[pid] = known
        elif (proc := read_process(pid)) is not None:
            snapshot[pid] = proc
    with _table_lock:
        _table.clear()
        _table.update(snapshot)
    return snapshot


class ProcessTracker:
    """Recognises the processes of one bot; see the module docstring for the rules."""

    def __init__(self, token: str, root: int) -> None:
        self._token = token
        self.root = root  # pid == process group == session, thanks to start_new_session
        root_proc = read_process(root)
        # Session members are created after the session leader: a cheap guard against pid reuse.
        self._root_start = root_proc.start if root_proc else 0.0
        self._known: set[tuple[int, float]] = set()
        self._foreign: set[tuple[int, float]] = set()  # saves re-reading their environment
        self._lock = threading.Lock()  # the watcher and the runner's thread both scan
        self._seen = 0  # the number of the newest snapshot applied
        self._last: dict[int, ProcInfo] = {}  # what that snapshot showed of the bot

    def _has_token(self, pid: int) -> bool:
        try:
            return bool(psutil.Process(pid).environ().get(TOKEN_VAR) == self._token)
        except (psutil.Error, OSError):
            return False  # gone, or not ours to read (another user's)

    def scan(self, snapshot: Snapshot | None = None) -> dict[int, ProcInfo]:
        """Return the bot's processes, zombies included, and remember them.

        ``snapshot`` is a scan shared with other trackers (default: a fresh one).
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
        # Only a process started after the bot can carry its token: the environment of the
        # older ones is not read.  Reading every process's cost a tracker about 30 µs each, on
        # the watcher's thread in the middle of the match: with 400 more processes on the
        # machine (a laptop has as many), a 1000-hand scrimmage took 100 ms longer.
        young = self._root_start - _TOKEN_SLACK
        for proc in procs.values():
            key = (proc.pid, proc.start)
            in_session = proc.session == self.root and proc.start >= self._root_start
            if proc.pid != me and (
                key in self._known
                or in_session
                or (proc.start >= young and key not in self._foreign and self._has_token(proc.pid))
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

    def last_pids(self) -> list[int]:
        """The bot's pids at the newest scan applied."""
        with self._lock:
            return list(self._last)

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
        command = " ".join(psutil.Process(pid).cmdline())[:200].strip()
    except (psutil.Error, OSError):
        command = ""
    return f"pid {pid} ({command or '?'})"


def resident_bytes(pid: int) -> int:
    """The process's resident memory now, in bytes; 0 if it is gone.

    Sampled by the watcher four times a second (and just before ``Q``), the largest sum over
    a bot's processes is its peak: a peak shorter than a quarter second can be missed, which
    the address-space limit the bot runs under bounds anyway.
    """
    try:
        return int(psutil.Process(pid).memory_info().rss)
    except (psutil.Error, OSError):
        return 0
