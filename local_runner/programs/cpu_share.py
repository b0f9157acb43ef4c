"""Keep a match's runner and its bots on one CPU while they take turns; give every CPU back
when that stops paying.

The runner and its bots take turns: the runner writes a message, one bot thinks and answers,
the runner reads.  When the reader sleeps on another CPU, each message wakes a CPU, which on
a small virtual machine costs more than the work on either side: on the project's 2-CPU
machine a round trip between two processes took 60-80 µs across CPUs and 7 µs on one CPU,
and a 2000-hand match of two kit skeletons 1.5-1.6 s instead of 2.0-2.5 s (``docs/performance.md``).
So, once every bot has connected (they start on every CPU, at the same time), the runner's
thread and every process of every bot are placed on the CPU the runner runs on.

One CPU is not what a competition server gives a bot, so the sharing ends, for the rest of
the match, at the first watch interval (:data:`INTERVAL`) in which:

* a bot ran two or more threads or processes for at least a tenth of the interval each: it
  thinks in parallel (worker threads, a Java virtual machine compiling), and would be slowed;
* one thread or process of a bot ran for half the interval or more: the bot computes more
  than the messages cost, so sharing gains little, and the others would wait behind it (a
  bot that thinks hard, or a helper process that never rests);
* the match's processes waited for the CPU :data:`CROWDED_WAIT` on average each time they
  were ready to run, and a tenth of the interval in all: something else competes for it, such
  as a bot that computes while it is not its turn (which would take the time of the bot whose
  turn it is).  Turn-taking alone waits about 25 µs, and 50 µs next to a busy loop on the
  same CPU, where sharing still won (2.6 s against 2.9 s for 2000 hands).

Each bot's log says where its match ran (``--- ... ---`` lines).  Linux only (CPU affinity
and ``/proc/PID/task/TID/schedstat``); elsewhere, with one CPU allowed, or where the
kernel keeps no scheduler statistics, nothing is changed.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CROWDED_WAIT",
    "INTERVAL",
    "RUNNER",
    "BotTasks",
    "CpuShare",
    "TaskTimes",
    "verdict",
]

#: Seconds between two looks at the match's processes.
INTERVAL = 0.25
#: A thread busy for this share of an interval is thinking.
_BUSY_SHARE = 0.10
#: A bot's thread busy for this share of an interval makes the match more than messages.
_HOG_SHARE = 0.5
#: The runner's group in a sample (no bot is named so).
RUNNER = ""
#: The mean wait for the CPU, in seconds, each time a process of the match was ready to run,
#: above which the CPU is crowded.
CROWDED_WAIT = 0.001

_PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class TaskTimes:
    """One thread's scheduler figures (nanoseconds; ``slices``: times it was given the CPU)."""

    run: int
    wait: int
    slices: int


#: A group's threads by (pid, thread id).
Tasks = Mapping[tuple[int, int], TaskTimes]


@dataclass(frozen=True, slots=True)
class BotTasks:
    """A bot's name and how to find its processes' ids now."""

    name: str
    pids: Callable[[], Iterable[int]]


def verdict(before: Mapping[str, Tasks], after: Mapping[str, Tasks], seconds: float) -> str | None:
    """Why the sharing should end, judging one interval of ``seconds`` between two samples of
    each group's threads (a bot's, by name; the runner's thread under :data:`RUNNER`), or None.

    >>> idle = {"a": {(1, 1): TaskTimes(0, 0, 0)}}
    >>> busy = {"a": {(1, 1): TaskTimes(200_000_000, 0, 9), (1, 2): TaskTimes(30_000_000, 0, 5)}}
    >>> verdict(idle, busy, 0.25)
    'a ran 2 threads or processes at once'
    >>> verdict(idle, {"a": {(1, 1): TaskTimes(100_000_000, 40_000, 900)}}, 0.25) is None
    True
    >>> verdict(idle, {"a": {(1, 1): TaskTimes(150_000_000, 40_000, 900)}}, 0.25)
    'a computed for 60% of 0.25 s'
    """
    busy_floor = _BUSY_SHARE * seconds * 1e9
    waited = slices = 0
    for name, tasks in after.items():
        earlier = before.get(name, {})
        busy, most = 0, 0
        for key, now in tasks.items():
            then = earlier.get(key, TaskTimes(0, 0, 0))
            ran = now.run - then.run
            busy += ran >= busy_floor
            most = max(most, ran)
            waited += max(now.wait - then.wait, 0)
            slices += max(now.slices - then.slices, 0)
        if name == RUNNER:
            continue  # passing messages is the work that sharing speeds up
        if busy >= 2:
            return f"{name} ran {busy} threads or processes at once"
        if most >= _HOG_SHARE * seconds * 1e9:
            return f"{name} computed for {most / (seconds * 1e9):.0%} of {seconds:.2f} s"
    if slices and waited >= busy_floor and waited / slices >= CROWDED_WAIT * 1e9:
        mean = waited / slices / 1e6
        return f"the match's processes waited {mean:.1f} ms on average for the CPU"
    return None


def _task_times(pid: int, tids: Iterable[str] | None = None) -> dict[tuple[int, int], TaskTimes]:
    """The threads of ``pid`` (all, or ``tids``) with their figures; threads that end
    meanwhile are skipped."""
    tasks: dict[tuple[int, int], TaskTimes] = {}
    if tids is None:
        try:
            tids = os.listdir(_PROC / str(pid) / "task")
        except OSError:
            return tasks
    for tid in tids:
        try:
            run, wait, slices = (_PROC / str(pid) / "task" / tid / "schedstat").read_text().split()
        except (OSError, ValueError):
            continue
        tasks[(pid, int(tid))] = TaskTimes(int(run), int(wait), int(slices))
    return tasks


def _current_cpu() -> int:
    """The CPU this thread runs on now (field 39 of ``/proc/thread-self/stat``)."""
    stat = (_PROC / "thread-self" / "stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[36])


def _place(pid: int, cpus: set[int]) -> None:
    """Every thread of ``pid`` may run on ``cpus`` only (a thread created later inherits it)."""
    try:
        tids = os.listdir(_PROC / str(pid) / "task")
    except OSError:
        return
    for tid in tids:
        with contextlib.suppress(OSError):  # gone, or not ours to place
            os.sched_setaffinity(int(tid), cpus)


def _give_back(thread: int, cpus: set[int]) -> None:
    """Let the runner's ``thread`` run on ``cpus`` again; where the system refuses (a CPU
    taken away meanwhile), on the CPUs it still allows."""
    try:
        os.sched_setaffinity(thread, cpus)
    except OSError:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(thread, set(range(os.cpu_count() or 1)))


class CpuShare:
    """One match's sharing of a CPU: started by :meth:`begin`, watched from a thread of its
    own, ended by :meth:`end` (which must be called: it gives the runner's thread back every
    CPU it had)."""

    def __init__(
        self, cpu: int, allowed: set[int], bots: Sequence[BotTasks], note: Callable[[str], None]
    ) -> None:
        self.cpu = cpu
        self.allowed = allowed
        self.bots = list(bots)
        self.reason: str | None = None
        """Why the sharing ended before the match did (None while it lasts)."""
        self._note = note
        self._runner_thread = threading.get_native_id()
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def begin(cls, bots: Sequence[BotTasks], note: Callable[[str], None]) -> CpuShare | None:
        """Place this thread and every process of ``bots`` on the CPU this thread runs on,
        and watch them; None (nothing changed) where it cannot be done or would not help.
        ``note`` is told, in a line, where the match runs and why that changes."""
        if not bots or not hasattr(os, "sched_setaffinity"):
            return None
        try:
            allowed = os.sched_getaffinity(0)
            cpu = _current_cpu()
            readable = bool(_task_times(os.getpid(), [str(threading.get_native_id())]))
        except (OSError, ValueError, IndexError):
            return None
        if len(allowed) < 2 or cpu not in allowed or not readable:
            return None
        share = cls(cpu, allowed, bots, note)
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:  # a CPU set changed under us (a container's): leave everything be
            return None
        for bot in bots:
            for pid in bot.pids():
                _place(pid, {cpu})
        note(
            f"the runner and the bots share CPU {cpu} while they take turns (a message is "
            "then quicker to deliver); [runner] share_cpu = false turns this off"
        )
        share._thread = threading.Thread(target=share._watch, name="cpu-share", daemon=True)
        share._thread.start()
        return share

    def _sample(self) -> dict[str, dict[tuple[int, int], TaskTimes]]:
        # The runner's thread only: the one placed with the bots (its other threads are light
        # and free to run anywhere).
        groups = {RUNNER: _task_times(os.getpid(), [str(self._runner_thread)])}
        for bot in self.bots:
            tasks: dict[tuple[int, int], TaskTimes] = {}
            for pid in bot.pids():
                tasks.update(_task_times(pid))
            groups[bot.name] = tasks
        return groups

    def _watch(self) -> None:
        # This thread was born on the shared CPU (a new thread takes its creator's CPUs); its
        # looks at the match belong anywhere else.
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, self.allowed)
        before, then = self._sample(), time.monotonic()
        while not self._done.wait(INTERVAL):
            after, now = self._sample(), time.monotonic()
            reason = verdict(before, after, now - then)
            if reason is not None:
                self._release(reason)
                return
            before, then = after, now

    def _release(self, reason: str) -> None:
        with self._lock:
            if self._done.is_set():
                return  # the match ended meanwhile: end() gives the CPUs back
            self._done.set()
            _give_back(self._runner_thread, self.allowed)
            for bot in self.bots:
                for pid in bot.pids():
                    _place(pid, self.allowed)
            self.reason = reason  # once every process has its CPUs back
        self._note(f"every CPU given back to the runner and the bots: {reason}")

    def end(self) -> None:
        """Stop watching and give the runner's thread every CPU it had (the bots are about
        to stop); safe to call more than once."""
        with self._lock:
            if not self._done.is_set():
                self._done.set()
                _give_back(self._runner_thread, self.allowed)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
