"""Run one untrusted bot program as a child process of the local runner (Linux, macOS, WSL).

A bot is a directory with either ``commands.json`` (MIT Pokerbots format) or an executable
``startme.sh``.  :class:`BotProcess` builds and starts it in a session of its own, copies its
output into a size-capped log, and :meth:`BotProcess.stop` makes sure that every process the
bot created is gone.  The bot's processes are recognised through psutil
(:mod:`local_runner.programs.proc_tracker`):

* each one inherits ``POKERBOTS_BOT_TOKEN=<random hex>`` in its environment, which survives a
  double fork into a new session and reparenting to init;
* members of the bot's session and descendants of recognised processes count too, which catches
  a child that replaced its environment;
* a watcher thread keeps recognising processes it has seen, keyed by (pid, start time) so that a
  reused pid is never mistaken for the bot; one thread serves every running bot of the runner,
  with one scan per interval for all of them, which reads only the bots' own processes and
  new ones;
  :func:`remember_processes` (called by the runner just before it sends ``Q``: one scan for
  every bot of the table) and :func:`stop_bots` scan once more, before the main processes can
  exit and orphan the rest, and once after they have: bots are stopped together, their grace
  periods running at the same time;
* with ``adopt_orphans``, on Linux, the bot's main process is made a child subreaper, so that
  a process whose parent exits is reparented to it and stays a descendant, even after it has
  left the session and cleared its environment (other systems have no subreaper).

What the recognition cannot see: a process that, within one watcher interval (0.25 s), leaves
the session, clears its environment and loses every recognised ancestor.  A sandboxed bot
(:mod:`local_runner.programs.sandbox`) runs in a process namespace of its own and cannot do
even that.

Output is kept up to the log limit; past it, it is counted and dropped without being copied
(``splice`` to ``/dev/null`` where the kernel allows), so a bot that writes gigabytes costs the
runner little time and no memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sdk.client import ERROR_PREFIX
from sdk.errors import KitError

from . import proc_tracker
from .bot_program import BotProgram
from .output_log import CappedLog, LineCounter, pump_output
from .proc_tracker import (
    PR_SET_CHILD_SUBREAPER,
    TOKEN_VAR,
    ProcessTracker,
    ProcInfo,
    Snapshot,
    describe_process,
    linux_extras,
    resident_bytes,
    scan_processes,
)
from .waiting import wait_for_exit

if TYPE_CHECKING:
    from .sandbox import Sandbox

_WATCH_INTERVAL = 0.25  # seconds between process scans while the bot runs
_TERM_WAIT = 0.5  # how long SIGTERM gets before SIGKILL
_KILL_GIVE_UP = 2.0  # how long to keep sending SIGKILL before reporting survivors
_LINGER_POLL = 0.02  # seconds between scans while a stopped bot's processes linger


class BotStartError(KitError, RuntimeError):
    """The operating system refused to start a bot's run command."""


@dataclass(frozen=True)
class ResourceLimits:
    """Limits for the running bot's processes; ``None`` leaves a limit as the runner has it.

    ``address_space`` is bytes of virtual memory (RLIMIT_AS), ``cpu_seconds`` is CPU time per
    process (RLIMIT_CPU) and ``open_files`` is the number of file descriptors (RLIMIT_NOFILE).
    """

    address_space: int | None = None
    cpu_seconds: int | None = None
    open_files: int | None = None


@dataclass(frozen=True)
class BuildResult:
    """Outcome of a bot's build step; ``message`` is one line of plain English."""

    ok: bool
    exit_code: int | None
    timed_out: bool
    seconds: float
    message: str


@dataclass(frozen=True)
class StopReport:
    """Outcome of :meth:`BotProcess.stop`.

    ``exit_code`` is the main process's status (negative = killed by that signal, like Popen),
    ``killed`` says whether the main process had to be signalled, ``survivors`` lists pids that
    were still alive after SIGKILL, ``descendants_killed`` counts other processes signalled.
    ``lingering`` describes (``'pid 123 (sleep 60)'``) each process of the bot still running
    when the grace period ran out, which then had to be ended.
    """

    exit_code: int | None
    killed: bool
    survivors: tuple[int, ...]
    descendants_killed: int
    lingering: tuple[str, ...] = ()


def describe_status(code: int) -> str:
    """Describe a Popen-style status: "exit code 3" or "signal 9 (SIGKILL)"."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"signal {-code} ({signal.Signals(-code).name})"
    except ValueError:
        return f"signal {-code}"


def _preexec(limits: ResourceLimits, adopt_orphans: bool) -> Callable[[], None] | None:
    """Return a preexec_fn that applies the limits in the child, or None if there is nothing to do.

    The values (and the prctl function) are prepared here in the parent, so the child, between
    fork and exec where little is safe in a threaded program, only makes setrlimit and prctl
    calls.  ``adopt_orphans`` makes the child a child subreaper, which survives the exec.
    """
    pairs: list[tuple[int, tuple[int, int]]] = []
    wanted = [
        (resource.RLIMIT_AS, limits.address_space, 0),
        # One second past the soft CPU limit (SIGXCPU, which can be ignored) comes SIGKILL.
        (resource.RLIMIT_CPU, limits.cpu_seconds, 1),
        (resource.RLIMIT_NOFILE, limits.open_files, 0),
    ]
    for which, value, slack in wanted:
        if value is not None:
            _, hard = resource.getrlimit(which)
            # An unprivileged process cannot raise its hard limit, so stay below it.
            cap = value + slack if hard == resource.RLIM_INFINITY else min(value + slack, hard)
            pairs.append((which, (min(value, cap), cap)))
    # The subreaper is Linux's alone (see proc_tracker.linux_extras); elsewhere orphans are
    # still found by their token and session, only not kept as descendants.
    adopt = adopt_orphans and linux_extras()
    prctl = ctypes.CDLL(None, use_errno=True).prctl if adopt else None
    if not pairs and prctl is None:
        return None

    def apply() -> None:
        for which, pair in pairs:
            resource.setrlimit(which, pair)
        if prctl is not None:
            prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    return apply


class _Watcher:
    """One thread that scans the processes every :data:`_WATCH_INTERVAL` for every running bot.

    One scan serves all of them, and the thread runs only while a bot does.  Its work is off
    the match's path: the runner's thread never waits for it (each tracker has its own lock,
    taken for the moment a snapshot is applied).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._applying = threading.Lock()  # held while snapshots are applied to trackers
        self._bots: list[BotProcess] = []
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, bot: BotProcess) -> None:
        with self._lock:
            self._bots.append(bot)
            self._wake.clear()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bot-watcher", daemon=True)
                self._thread.start()

    def remove(self, bots: Iterable[BotProcess]) -> None:
        """Stop watching ``bots``; when this returns, no scan is being applied to them."""
        with self._lock:
            self._bots = [bot for bot in self._bots if bot not in bots]
            if not self._bots:
                self._wake.set()
        with self._applying:
            pass

    def _run(self) -> None:
        while True:
            self._wake.wait(_WATCH_INTERVAL)
            with self._lock:
                bots = list(self._bots)
                if not bots:
                    self._thread = None
                    return
            # Only the bots' own processes and new ones are read: the rest of the system is
            # taken from the last scan (a full scan of a busy laptop costs the match time).
            snapshot = proc_tracker.scan_processes(refresh=_own_pids(bots))
            with self._applying:
                for bot in bots:
                    if bot in self._bots:
                        bot._note(snapshot)


_watcher = _Watcher()


def _new_watcher_after_fork() -> None:
    """A forked child (a process pool's worker) has no watcher thread: it starts its own."""
    global _watcher
    _watcher = _Watcher()


os.register_at_fork(after_in_child=_new_watcher_after_fork)


class BotProcess:
    """One bot's build step and running process, with a capped log and thorough cleanup."""

    def __init__(
        self,
        program: BotProgram,
        *,
        name: str,
        log_path: Path,
        log_limit: int = 1024 * 1024,
        limits: ResourceLimits | None = None,
        env: Mapping[str, str] | None = None,
        adopt_orphans: bool = False,
        sandbox: Sandbox | None = None,
    ) -> None:
        """Prepare (but do not start) the bot; ``env`` is merged over os.environ.

        ``adopt_orphans`` makes the bot's main process a child subreaper (see the module
        docstring).  With a ``sandbox``, the build and the run happen inside it, and
        :meth:`start` expects the port the sandbox's relay listens on.
        """
        self.program, self.name = program, name
        self.limits = limits or ResourceLimits()
        self.adopt_orphans = adopt_orphans
        self.sandbox = sandbox
        self._errors = LineCounter(ERROR_PREFIX)
        self._log = CappedLog(Path(log_path), log_limit, self._errors)
        # What secrets.token_hex(16) returns, without its import (hmac, hashlib: 3 ms of
        # every command that starts a bot).
        self._token = os.urandom(16).hex()
        self._env = {**os.environ, **(env or {}), TOKEN_VAR: self._token}
        self._popen: subprocess.Popen[bytes] | None = None
        self._tracker: ProcessTracker | None = None
        self._reader: threading.Thread | None = None  # copies the output into the log
        self._remembered = -1.0  # time.monotonic() of the last scan before Q
        self._stop_lock = threading.Lock()
        self._report: StopReport | None = None
        self._peak_memory = 0

    @property
    def pid(self) -> int | None:
        """The main process id, or None before start()."""
        return self._popen.pid if self._popen else None

    @property
    def peak_memory_bytes(self) -> int:
        """The bot's peak memory: the largest sum, over one reading, of its live processes'
        resident memory.  Read every watcher interval and once more just before the match
        ends (a peak shorter than an interval can be missed; the bot's address-space limit
        holds it anyway)."""
        return self._peak_memory

    @property
    def output_truncated(self) -> bool:
        """Whether any output was dropped because the log reached its limit."""
        return self._log.dropped > 0

    @property
    def bot_errors(self) -> tuple[int, str | None, bool]:
        """How many SDK bot-error lines the bot wrote (``get_action`` raised), the first one,
        and whether the count is complete (False when output past the log limit went unread)."""
        return (self._errors.count, self._errors.first, self._errors.complete)

    @property
    def bytes_dropped(self) -> int:
        """Bytes of build and run output counted but not written to the log."""
        return self._log.dropped

    @property
    def bytes_logged(self) -> int:
        """Bytes of build and run output written to the log."""
        return self._log.logged

    def note(self, text: str) -> None:
        """Write one line of the runner's own into the bot's log (``--- text ---``)."""
        self._log.note(f"--- {text} ---\n")

    def _spawn(
        self, argv: list[str], preexec: Callable[[], None] | None
    ) -> tuple[subprocess.Popen[bytes], threading.Thread]:
        popen = subprocess.Popen(
            argv,
            cwd=self.program.directory,
            env=self._env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=preexec,
        )
        assert popen.stdout is not None  # guaranteed by stdout=PIPE
        reader = threading.Thread(
            target=pump_output,
            args=(popen.stdout, self._log),
            name=f"{self.name}-output",
            daemon=True,
        )
        reader.start()
        return popen, reader

    def build(self, timeout: float) -> BuildResult:
        """Run the build step to completion or until ``timeout`` seconds have passed.

        The resource limits apply to the run only (compilers and JVMs need more room).  Processes
        still alive when the build ends are killed, and a timeout kills the whole build.
        """
        began = time.monotonic()

        def result(ok: bool, code: int | None, timed_out: bool, message: str) -> BuildResult:
            self._log.note(f"--- {message} ---\n")
            return BuildResult(ok, code, timed_out, time.monotonic() - began, message)

        if not self.program.build:
            return BuildResult(True, None, False, 0.0, "build skipped (no build step)")
        argv = list(self.program.build)
        self._log.note(f"--- build: {shlex.join(argv)} ---\n")
        if self.sandbox is not None:
            self._log.note("--- (in the sandbox, without network) ---\n")
            argv = self.sandbox.build_command(argv)
        try:
            popen, reader = self._spawn(argv, None)
        except OSError as exc:
            return result(False, None, False, f"build could not be started: {exc}")
        tracker = ProcessTracker(self._token, popen.pid)
        code: int | None = None
        try:
            wait_for_exit(popen, timeout)
            code = popen.returncode
        finally:
            # A build must not leave processes behind: they could hold the output pipe open or
            # disturb the match.  So whatever is left (everything, on timeout or Ctrl-C) is
            # killed outright.
            tracker.terminate(term_wait=0.0)
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(timeout=1.0)
            tracker.reap_orphans(popen.pid)
            reader.join(timeout=1.0)
        if code is None:
            return result(False, None, True, f"build timed out after {timeout:.1f} s")
        if code == 0:
            return result(True, 0, False, f"build succeeded in {time.monotonic() - began:.1f} s")
        if code > 0:
            return result(False, code, False, f"build exited with status {code}")
        return result(False, code, False, f"build was killed by {describe_status(code)}")

    def start(self, host: str, port: int) -> None:
        """Start the run command with the host (startme.sh only) and port appended.

        Raises BotStartError if the program cannot be executed.
        """
        if self._popen is not None or self._report is not None:
            raise RuntimeError(f"Bot {self.name} was already started; make a new BotProcess.")
        host_arg = [host] if self.program.append_host else []
        argv = [*self.program.run, *host_arg, str(port)]
        self._log.note(f"--- run: {shlex.join(argv)} ---\n")
        if self.sandbox is not None:
            self._log.note("--- (in the sandbox, without network) ---\n")
            argv = self.sandbox.run_command(argv, port)
        try:
            self._popen, reader = self._spawn(argv, _preexec(self.limits, self.adopt_orphans))
        except (OSError, subprocess.SubprocessError) as exc:
            self._log.note(f"--- could not start: {exc} ---\n")
            if isinstance(exc, subprocess.SubprocessError) and "preexec_fn" in str(exc):
                # The new process failed before the bot's program ran: in the limits it is
                # given (setrlimit), which a tool such as valgrind or a locked-down container
                # can refuse.  Its command is not at fault.  (subprocess reports a failed
                # preexec_fn only by this message, without the child's exception.)
                raise BotStartError(
                    f"Bot {self.name} could not be started: the new process refused the "
                    f"resource limits the kit sets for a bot ({exc}); this happens under tools "
                    "such as valgrind and in containers that forbid setrlimit. Set the limits "
                    "to 0 (no limit) under [limits] in the config file, or run the kit outside "
                    "that tool."
                ) from exc
            raise BotStartError(
                f"Bot {self.name} could not be started in {self.program.directory} ({exc}); "
                f"check the run command in {self.program.source} and that the program exists "
                "and is executable."
            ) from exc
        self._tracker = ProcessTracker(self._token, self._popen.pid)
        self._reader = reader
        _watcher.add(self)

    def _note(self, snapshot: Snapshot) -> None:
        # Rescanning lets the tracker see a child before it can escape the session and clear
        # its environment; once seen, it is recognised by (pid, start time).
        if self._tracker is not None:
            self._measure(self._tracker.scan(snapshot).values())

    def process_ids(self) -> list[int]:
        """The ids of the bot's processes at the watcher's last scan (its main process at
        least, once started; new processes are seen within a watcher interval)."""
        tracker = self._tracker
        if tracker is None:
            return []
        return [tracker.root, *tracker.last_pids()]

    def _measure(self, procs: Iterable[ProcInfo]) -> None:
        peaks = sum(resident_bytes(proc.pid) for proc in procs if not proc.zombie)
        self._peak_memory = max(self._peak_memory, peaks)

    def remember_processes(self) -> None:
        """Note every process the bot has now, so that each is ended by :meth:`stop` however it
        hides afterwards.  The runner calls it just before telling the bot the match is over
        (:func:`remember_processes` does it for several bots with one scan)."""
        remember_processes([self])

    def poll(self) -> int | None:
        """The main process's status like Popen.poll(); None while running or before start()."""
        return self._popen.poll() if self._popen else None

    def exit_description(self) -> str:
        """Describe the main process's state for people.

        One of "exit code N", "signal N (SIGNAME)", "still running" or "not started".
        """
        if self._popen is None:
            return "not started"
        code = self._popen.poll()
        if code is None:
            return "still running"
        # In a sandbox the main process is bubblewrap; the relay reports the bot's own status.
        inner = self.sandbox.exit_description() if self.sandbox is not None else None
        return inner or describe_status(code)

    def stop(self, grace: float = 2.0) -> StopReport:
        """Give the bot ``grace`` seconds to exit, then end every process it started.

        The grace period is the whole bot's: a process it detached (``setsid``, a daemon)
        that is still running when it ends is reported in ``lingering``.

        Safe to call more than once and before start(); later calls return the first report.
        :func:`stop_bots` stops several bots together.
        """
        return stop_bots([self], grace)[0]

    def __enter__(self) -> BotProcess:
        """Return self, so that leaving the ``with`` block stops the bot."""
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Stop the bot and everything it started (see stop())."""
        self.stop()


def remember_processes(bots: Sequence[BotProcess]) -> None:
    """Note every process each running bot of ``bots`` has now, with one scan
    (see :meth:`BotProcess.remember_processes`)."""
    running = [bot for bot in bots if bot._tracker is not None and bot._report is None]
    if not running:
        return
    snapshot = scan_processes(refresh=_own_pids(running))
    for bot in running:
        bot._note(snapshot)
        bot._remembered = time.monotonic()


def stop_bots(bots: Sequence[BotProcess], grace: float = 2.0) -> list[StopReport]:
    """Stop ``bots`` together, as :meth:`BotProcess.stop` stops one: their grace periods run
    at the same time, and each scan of the processes serves them all.

    Without lingering processes that is at most two scans: one before the main processes
    exit (skipped when :func:`remember_processes` ran less than a watcher interval ago, since
    the watcher kept scanning meanwhile), and one once they have.  Returns the reports in the
    order of ``bots``; a bot stopped before keeps its first report.
    """
    locks = sorted({id(bot): bot for bot in bots}.values(), key=id)
    with contextlib.ExitStack() as held:
        for bot in locks:
            held.enter_context(bot._stop_lock)
        pending = [bot for bot in locks if bot._report is None]
        started = [bot for bot in pending if bot._popen is not None and bot._tracker is not None]
        for bot in pending:
            if bot not in started:
                bot._log.close()
                bot._report = StopReport(None, False, (), 0)
        if started:
            _stop_together(started, grace)
        reports = []
        for bot in bots:
            assert bot._report is not None
            reports.append(bot._report)
        return reports


def _stop_together(bots: list[BotProcess], grace: float) -> None:
    """The body of :func:`stop_bots` for bots that were started (their stop locks held)."""
    now = time.monotonic()
    if any(now - bot._remembered > _WATCH_INTERVAL for bot in bots):
        snapshot = scan_processes(refresh=_own_pids(bots))  # before orphans can hide
        for bot in bots:
            bot._note(snapshot)
    deadline = now + grace
    for bot in bots:  # they were all asked to end: waiting in turn waits for the slowest
        assert bot._popen is not None
        wait_for_exit(bot._popen, max(deadline - time.monotonic(), 0.0))
    snapshot = scan_processes(refresh=_own_pids(bots))
    live = {bot: _tracker(bot).live(snapshot) for bot in bots}
    while any(live.values()) and time.monotonic() < deadline:
        time.sleep(_LINGER_POLL)
        snapshot = scan_processes(refresh=_own_pids(bots))
        live = {bot: _tracker(bot).live(snapshot) for bot in bots}
    lingering = {bot: tuple(describe_process(proc.pid) for proc in live[bot]) for bot in bots}
    _watcher.remove(bots)  # the watcher must not scan concurrently with the ending
    outcomes: dict[BotProcess, tuple[set[int], tuple[int, ...]]] = {
        bot: (set(), ()) for bot in bots if not live[bot]
    }
    ending = [bot for bot in bots if live[bot]]

    def end(bot: BotProcess) -> None:
        outcomes[bot] = _tracker(bot).terminate(_TERM_WAIT, live[bot])

    threads = [threading.Thread(target=end, args=(bot,), daemon=True) for bot in ending[1:]]
    for thread in threads:
        thread.start()
    if ending:
        end(ending[0])
    for thread in threads:
        thread.join()
    if ending:
        snapshot = scan_processes(refresh=_own_pids(bots))  # gone, or survived SIGKILL
    for bot in bots:
        popen, tracker = bot._popen, _tracker(bot)
        assert popen is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=1.0)
        tracker.reap_orphans(popen.pid, snapshot)
    for bot in bots:
        popen = bot._popen
        assert popen is not None
        signalled, survivors = outcomes[bot]
        # The pipe closes once every process holding it is gone; a survivor may keep it open.
        if bot._reader is not None:
            bot._reader.join(timeout=1.0)
        if survivors:
            bot._log.note(
                f"--- {len(survivors)} process(es) of the bot survived SIGKILL: "
                f"pid {', '.join(map(str, survivors))} ---\n"
            )
        bot._log.close()
        bot._report = StopReport(
            popen.returncode,
            popen.pid in signalled,
            survivors,
            len(signalled - {popen.pid}),
            lingering[bot],
        )


def _own_pids(bots: Iterable[BotProcess]) -> list[int]:
    """The pids whose state a scan must read afresh: every process the bots had at the last
    scan (the rest of the system is taken from it, and new processes are always read)."""
    return [pid for bot in bots for pid in bot.process_ids()]


def _tracker(bot: BotProcess) -> ProcessTracker:
    assert bot._tracker is not None
    return bot._tracker
