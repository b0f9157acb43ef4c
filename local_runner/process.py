"""Run one untrusted bot program as a child process of the local runner (Linux only).

A bot is a directory with either ``commands.json`` (MIT Pokerbots format) or an executable
``startme.sh``.  :class:`BotProcess` builds and starts it in a session of its own, copies its
output into a size-capped log, and :meth:`BotProcess.stop` makes sure that every process the
bot created is gone.  The bot's processes are recognised through ``/proc``:

* each one inherits ``POKERBOTS_BOT_TOKEN=<random hex>`` in its environment, which survives a
  double fork into a new session and reparenting to init;
* members of the bot's session and descendants of recognised processes count too, which catches
  a child that replaced its environment;
* a watcher thread keeps recognising processes it has seen, keyed by (pid, start time) so that a
  reused pid is never mistaken for the bot; :meth:`BotProcess.remember_processes` (called by the
  runner just before it sends ``Q``) and :meth:`BotProcess.stop` scan once more, before the main
  process can exit and orphan the rest;
* with ``adopt_orphans``, the bot's main process is made a child subreaper, so that a process
  whose parent exits is reparented to it and stays a descendant, even after it has left the
  session and cleared its environment.

What the recognition cannot see: a process that, within one watcher interval (0.25 s), leaves
the session, clears its environment and loses every recognised ancestor.  A sandboxed bot
(:mod:`local_runner.sandbox`) runs in a process namespace of its own and cannot do even that.

Output is kept up to the log limit; past it, it is counted and dropped without being copied
(``splice`` to ``/dev/null`` where the kernel allows), so a bot that writes gigabytes costs the
runner little time and no memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import secrets
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from .sandbox import Sandbox

TOKEN_VAR = "POKERBOTS_BOT_TOKEN"
_CHUNK = 64 * 1024
_DROP_CHUNK = 1024 * 1024  # bytes discarded per call once the log is full
_WATCH_INTERVAL = 0.25  # seconds between /proc scans while the bot runs
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
_TERM_WAIT = 0.5  # how long SIGTERM gets before SIGKILL
_KILL_GIVE_UP = 2.0  # how long to keep sending SIGKILL before reporting survivors
_PR_SET_CHILD_SUBREAPER = 36
_EXAMPLE = '{"build": [], "run": ["python3", "player.py"]}'


class BotDirectoryError(ValueError):
    """A bot directory is missing or does not say how to build and run the bot."""


class BotStartError(RuntimeError):
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
class BotProgram:
    """How to build and run one bot, as described by its directory."""

    directory: Path
    build: tuple[str, ...]
    run: tuple[str, ...]
    append_host: bool  # True: run + [host, port] (startme.sh); False: run + [port]
    source: str  # "commands.json" or "startme.sh"

    @classmethod
    def from_directory(cls, directory: Path) -> BotProgram:
        """Read a bot directory, preferring commands.json over startme.sh.

        Raises BotDirectoryError, with a message saying how to fix it, if neither is usable.
        """
        path = Path(directory).expanduser()
        if not path.is_dir():
            what = "is not a directory" if path.exists() else "does not exist"
            raise BotDirectoryError(
                f"The bot directory {path} {what}; pass the folder that contains your bot's "
                "commands.json or startme.sh."
            )
        path = path.resolve()
        if (path / "commands.json").exists():
            build, run = _parse_commands(path / "commands.json")
            return cls(path, build, run, append_host=False, source="commands.json")
        startme = path / "startme.sh"
        if startme.exists():
            if not os.access(startme, os.X_OK):
                raise BotDirectoryError(
                    f"{startme} is not executable, so the bot cannot be started; "
                    f"run `chmod +x startme.sh` in {path}."
                )
            return cls(path, (), ("./startme.sh",), append_host=True, source="startme.sh")
        raise BotDirectoryError(
            f"The bot directory {path} has neither commands.json nor startme.sh; add a "
            f"commands.json such as {_EXAMPLE} or an executable startme.sh."
        )


def _parse_commands(file: Path) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Validate commands.json and return its build and run argv."""
    hint = f"it should look like {_EXAMPLE}"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BotDirectoryError(
            f"{file} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
            f"fix the syntax, {hint}."
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise BotDirectoryError(
            f"{file} could not be read ({exc}); make sure it is a readable UTF-8 text file."
        ) from exc
    if not isinstance(data, dict):
        raise BotDirectoryError(f"{file} must hold a JSON object, not {_json_type(data)}; {hint}.")
    argvs: list[tuple[str, ...]] = []
    for key in ("build", "run"):
        if key not in data:
            raise BotDirectoryError(f'{file} has no "{key}" key; add it ({hint}).')
        value = data[key]
        if not isinstance(value, list):
            raise BotDirectoryError(
                f'In {file}, "{key}" must be a list of strings (an argv, no shell), '
                f"not {_json_type(value)}; {hint}."
            )
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise BotDirectoryError(
                    f'In {file}, element {index} of "{key}" is {json.dumps(item)}, which is not '
                    "a string; put every argument in double quotes."
                )
        argvs.append(tuple(value))
    if not argvs[1]:
        raise BotDirectoryError(
            f'In {file}, "run" is empty; it must name the program to start, '
            'e.g. ["python3", "player.py"].'
        )
    return argvs[0], argvs[1]


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    return names.get(type(value), "a number" if isinstance(value, (int, float)) else "null")


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
    """

    exit_code: int | None
    killed: bool
    survivors: tuple[int, ...]
    descendants_killed: int


def enable_child_subreaper() -> bool:
    """Make orphaned descendants of this process reparent to it instead of init.

    Optional: a bot's processes are found without it.  When it is on, orphans become zombies of
    the runner, and :meth:`BotProcess.stop` reaps the ones that belong to its bot.  Returns False
    if the kernel refused.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


def describe_status(code: int) -> str:
    """Describe a Popen-style status: "exit code 3" or "signal 9 (SIGKILL)"."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"signal {-code} ({signal.Signals(-code).name})"
    except ValueError:
        return f"signal {-code}"


class _CappedLog:
    """A log file that keeps at most ``limit`` bytes of bot output and counts the rest."""

    def __init__(self, path: Path, limit: int) -> None:
        self.path, self.limit = path, limit
        self.logged = self.dropped = 0
        self._file: BinaryIO | None = None
        self._closed = False
        self._lock = threading.Lock()  # the output thread and stop() both write

    def _open(self) -> BinaryIO | None:
        if self._file is None and not self._closed:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "wb")  # noqa: SIM115 - kept open until close()
        return self._file

    def note(self, text: str) -> None:
        """Write a line of the runner's own (not counted against the limit)."""
        with self._lock:
            if (file := self._open()) is not None:
                file.write(text.encode())
                file.flush()

    def output(self, chunk: bytes) -> None:
        """Keep what fits under the limit; count the rest as dropped."""
        with self._lock:
            file = self._open()
            if file is None:
                return
            kept = chunk[: max(self.limit - self.logged, 0)]
            file.write(kept)
            self.logged += len(kept)
            if len(kept) < len(chunk):
                if self.dropped == 0:
                    file.write(self._truncation_note())
                self.dropped += len(chunk) - len(kept)
            file.flush()

    @property
    def full(self) -> bool:
        """True once the limit is reached (from then on, output is only counted)."""
        return self.logged >= self.limit

    def drop(self, count: int) -> None:
        """Count ``count`` bytes of output that were discarded without being written."""
        with self._lock:
            if self.dropped == 0 and (file := self._open()) is not None:
                file.write(self._truncation_note())
                file.flush()
            self.dropped += count

    def _truncation_note(self) -> bytes:
        return (
            f"\n--- output truncated at {self.limit} bytes; "
            "the rest is counted, not kept ---\n".encode()
        )

    def close(self) -> None:
        """Record how much was dropped and close the file; later output is ignored."""
        with self._lock:
            if self._file is not None:
                if self.dropped:
                    self._file.write(f"--- {self.dropped} bytes of output dropped ---\n".encode())
                self._file.close()
            self._file, self._closed = None, True


def _pump(stream: IO[bytes], log: _CappedLog) -> None:
    """Copy a child's output into the log until the pipe closes, never holding more than a chunk.

    os.read blocks until data or end-of-file arrives, so this does not spin.  Once the log is
    full, output is only counted: spliced to /dev/null in large pieces without entering this
    process, or read and dropped if splicing is not possible.
    """
    fd = stream.fileno()
    try:
        while not log.full:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                return
            log.output(chunk)
        _discard(fd, log)
    finally:
        stream.close()


def _discard(fd: int, log: _CappedLog) -> None:
    """Count and drop everything left in the pipe ``fd`` until it closes."""
    with open(os.devnull, "wb") as null:
        try:
            while moved := os.splice(fd, null.fileno(), _DROP_CHUNK):
                log.drop(moved)
            return
        except (OSError, AttributeError):  # no splice here: copy instead
            pass
    while chunk := os.read(fd, _DROP_CHUNK):
        log.drop(len(chunk))


@dataclass(frozen=True)
class _Proc:
    pid: int
    ppid: int
    pgrp: int
    session: int
    start: int  # clock ticks since boot; with the pid it identifies a process for good
    zombie: bool
    rss: int  # resident pages


def _read_stat(pid: int) -> _Proc | None:
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
    return _Proc(pid, int(rest[1]), int(rest[2]), int(rest[3]), int(rest[19]), zombie, rss)


def _scan_proc() -> dict[int, _Proc]:
    """Snapshot every process in /proc; processes that vanish meanwhile are skipped."""
    procs = (_read_stat(int(name)) for name in os.listdir("/proc") if name.isdigit())
    return {proc.pid: proc for proc in procs if proc is not None}


class _Tracker:
    """Recognises the processes of one bot; see the module docstring for the rules."""

    def __init__(self, token: str, root: int) -> None:
        self._needle = f"{TOKEN_VAR}={token}".encode()
        self.root = root  # pid == process group == session, thanks to start_new_session
        root_proc = _read_stat(root)
        # Session members are created after the session leader: a cheap guard against pid reuse.
        self._root_start = root_proc.start if root_proc else 0
        self._known: set[tuple[int, int]] = set()
        self._foreign: set[tuple[int, int]] = set()  # saves re-reading their environment
        self._lock = threading.Lock()  # the watcher and the runner's thread both scan

    def _has_token(self, pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/environ", "rb") as file:
                return self._needle in file.read().split(b"\0")
        except OSError:
            return False

    def scan(self) -> dict[int, _Proc]:
        """Return the bot's processes, zombies included, and remember them."""
        with self._lock:
            return self._scan()

    def _scan(self) -> dict[int, _Proc]:
        procs, me = _scan_proc(), os.getpid()
        ours: dict[int, _Proc] = {}
        for proc in procs.values():
            key = (proc.pid, proc.start)
            in_session = proc.session == self.root and proc.start >= self._root_start
            if proc.pid != me and (
                key in self._known
                or in_session
                or (key not in self._foreign and self._has_token(proc.pid))
            ):
                ours[proc.pid] = proc
        children: dict[int, list[_Proc]] = {}
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

    def live(self) -> list[_Proc]:
        """The bot's processes that have not exited yet."""
        return [proc for proc in self.scan().values() if not proc.zombie]

    def send(self, procs: list[_Proc], sig: int) -> None:
        """Signal the given processes, and the bot's process group while it is known to exist."""
        if any(proc.pgrp == self.root for proc in procs):
            with contextlib.suppress(OSError):  # catches group members forked since the scan
                os.killpg(self.root, sig)
        for proc in procs:
            with contextlib.suppress(OSError):
                os.kill(proc.pid, sig)

    def terminate(self, term_wait: float) -> tuple[set[int], tuple[int, ...]]:
        """SIGTERM everything, wait up to term_wait, then SIGKILL until nothing is left.

        Returns the pids that were signalled and those still alive when it gave up.
        """
        signalled: set[int] = set()
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

    def reap_orphans(self, main_pid: int) -> None:
        """Reap the bot's zombies that were reparented to the runner (when it is a subreaper).

        Only pids known to be the bot's are waited for, so other Popen objects keep their status.
        """
        me = os.getpid()
        for proc in self.scan().values():
            if proc.zombie and proc.ppid == me and proc.pid != main_pid:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(proc.pid, os.WNOHANG)


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
    prctl = ctypes.CDLL(None, use_errno=True).prctl if adopt_orphans else None
    if not pairs and prctl is None:
        return None

    def apply() -> None:
        for which, pair in pairs:
            resource.setrlimit(which, pair)
        if prctl is not None:
            prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    return apply


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
        self._log = _CappedLog(Path(log_path), log_limit)
        self._token = secrets.token_hex(16)
        self._env = {**os.environ, **(env or {}), TOKEN_VAR: self._token}
        self._popen: subprocess.Popen[bytes] | None = None
        self._tracker: _Tracker | None = None
        self._threads: list[threading.Thread] = []  # output reader, then /proc watcher
        self._stopping = threading.Event()
        self._stop_lock = threading.Lock()
        self._report: StopReport | None = None
        self._peak_memory = 0

    @property
    def pid(self) -> int | None:
        """The main process id, or None before start()."""
        return self._popen.pid if self._popen else None

    @property
    def peak_memory_bytes(self) -> int:
        """The largest resident memory of the bot's processes together, sampled while it ran."""
        return self._peak_memory

    @property
    def output_truncated(self) -> bool:
        """Whether any output was dropped because the log reached its limit."""
        return self._log.dropped > 0

    @property
    def bytes_dropped(self) -> int:
        """Bytes of build and run output counted but not written to the log."""
        return self._log.dropped

    @property
    def bytes_logged(self) -> int:
        """Bytes of build and run output written to the log."""
        return self._log.logged

    def _spawn(
        self, argv: list[str], preexec: Callable[[], None] | None
    ) -> tuple[subprocess.Popen[bytes], threading.Thread]:
        popen = subprocess.Popen(
            argv, cwd=self.program.directory, env=self._env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=preexec,
        )  # fmt: skip
        assert popen.stdout is not None  # guaranteed by stdout=PIPE
        reader = threading.Thread(
            target=_pump, args=(popen.stdout, self._log), name=f"{self.name}-output", daemon=True
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
        tracker = _Tracker(self._token, popen.pid)
        code: int | None = None
        try:
            code = popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
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
            raise BotStartError(
                f"Bot {self.name} could not be started in {self.program.directory} ({exc}); "
                f"check the run command in {self.program.source} and that the program exists "
                "and is executable."
            ) from exc
        self._tracker = tracker = _Tracker(self._token, self._popen.pid)
        watcher = threading.Thread(
            target=self._watch, args=(tracker,), name=f"{self.name}-watcher", daemon=True
        )
        watcher.start()
        self._threads = [reader, watcher]

    def _watch(self, tracker: _Tracker) -> None:
        # Rescanning lets the tracker see a child before it can escape the session and clear
        # its environment; once seen, it is recognised by (pid, start time).
        while not self._stopping.wait(_WATCH_INTERVAL):
            pages = sum(proc.rss for proc in tracker.scan().values() if not proc.zombie)
            self._peak_memory = max(self._peak_memory, pages * _PAGE_SIZE)

    def remember_processes(self) -> None:
        """Note every process the bot has now, so that each is ended by :meth:`stop` however it
        hides afterwards.  The runner calls it just before telling the bot the match is over."""
        if self._tracker is not None and self._report is None:
            self._tracker.scan()

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

        Safe to call more than once and before start(); later calls return the first report.
        """
        with self._stop_lock:
            if self._report is None:
                self._report = self._shutdown(grace)
            return self._report

    def _shutdown(self, grace: float) -> StopReport:
        popen, tracker = self._popen, self._tracker
        if popen is None or tracker is None:
            self._log.close()
            return StopReport(None, False, (), 0)
        tracker.scan()  # before the main process exits and its orphans are reparented
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=grace)
        self._stopping.set()
        self._threads[1].join()  # the watcher; it must not scan concurrently with us
        signalled, survivors = tracker.terminate(_TERM_WAIT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=1.0)
        tracker.reap_orphans(popen.pid)
        # The pipe closes once every process holding it is gone; a survivor may keep it open.
        self._threads[0].join(timeout=1.0)
        if survivors:
            self._log.note(
                f"--- {len(survivors)} process(es) of the bot survived SIGKILL: "
                f"pid {', '.join(map(str, survivors))} ---\n"
            )
        self._log.close()
        return StopReport(
            popen.returncode, popen.pid in signalled, survivors, len(signalled - {popen.pid})
        )

    def __enter__(self) -> BotProcess:
        """Return self, so that leaving the ``with`` block stops the bot."""
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Stop the bot and everything it started (see stop())."""
        self.stop()
