"""Run a bot inside a bubblewrap (``bwrap``) sandbox: its own directory writable, no network.

What a sandboxed bot sees:

* the file system read-only (``/`` bound read-only), with ``/tmp``, ``/var/tmp`` and ``/run``
  replaced by empty private directories (``/run`` holds sockets such as Docker's, which a
  read-only mount does not protect), the opponent's directory and the match's output
  directory hidden, and the Python interpreter and the kit visible read-only;
* its own directory writable, and its working directory;
* a network namespace of its own: only a loopback interface, so every outside address is
  unreachable; a private process namespace, so every process it starts ends with it; no
  capabilities.

The runner listens on a Unix socket in a private directory bound into the sandbox, and the
relay (:mod:`local_runner.programs.relay`), started inside the sandbox's network namespace,
listens on 127.0.0.1:PORT there.  The bot connects to ``localhost:PORT`` as it always does;
the relay accepts, and passes the accepted socket to the runner over the Unix socket
(:meth:`Sandbox.take_connection`), so that runner and bot then talk directly.

:func:`sandbox_problem` says whether this works on the machine, with the fix when it does
not (``sudo apt-get install bubblewrap``).
"""

from __future__ import annotations

import functools
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from sdk.errors import KitError

__all__ = [
    "INSTALL_HINT",
    "Sandbox",
    "SandboxUnavailable",
    "require_sandbox",
    "sandbox_problem",
]

INSTALL_HINT = (
    "install bubblewrap with `sudo apt-get install bubblewrap` (Debian, Ubuntu) "
    "or `sudo dnf install bubblewrap` (Fedora)"
)
_HIDDEN_BASES = ("/tmp", "/var/tmp", "/run")  # replaced by empty private directories
_TMPFS_BYTES = 256 * 2**20  # the size of the sandbox's own /tmp and /var/tmp
_HIDDEN_BYTES = 2**20  # the size of the empty directories that hide things
_INSIDE = "/tmp/.pokerbots-runner"  # where the private directory appears in the sandbox
_RELAY = Path(__file__).with_name("relay.py")
_KIT_ROOT = Path(__file__).resolve().parents[2]


class SandboxUnavailable(KitError, RuntimeError):
    """Bots cannot be sandboxed on this machine; the message says why and how to fix it."""


@functools.cache
def _bwrap_help(bwrap: str) -> str:
    try:
        done = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout + done.stderr


@functools.cache
def sandbox_problem() -> str | None:
    """None if bots can be sandboxed here; otherwise a sentence saying why not and what to do.

    The answer is worked out once per process: bubblewrap must be installed and able to create
    the namespaces the sandbox uses (the check starts one empty sandbox).
    """
    if not sys.platform.startswith("linux"):
        return (
            "The sandbox uses Linux namespaces through bubblewrap, so it works on Linux only; "
            "run without --sandbox, or on a Linux machine."
        )
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return (
            "The sandbox needs bubblewrap (the bwrap command), which is not installed; "
            f"{INSTALL_HINT}, then try again."
        )
    try:
        done = subprocess.run(
            [
                bwrap,
                *_ISOLATION,
                "--ro-bind",
                "/",
                "/",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--",
                "true",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"bubblewrap ({bwrap}) could not be run ({error}); reinstall it: {INSTALL_HINT}."
    if done.returncode != 0:
        why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no message"
        return (
            f"bubblewrap ({bwrap}) is installed but cannot create a sandbox here ({why}). It "
            "needs unprivileged user namespaces: enable them (for example `sudo sysctl -w "
            "kernel.unprivileged_userns_clone=1`, or on Ubuntu 24.04 an AppArmor profile for "
            "bwrap), or run without --sandbox."
        )
    return None


def require_sandbox() -> None:
    """Raise :class:`SandboxUnavailable` unless bots can be sandboxed on this machine."""
    problem = sandbox_problem()
    if problem is not None:
        raise SandboxUnavailable(problem)


# Every namespace (network included), a new terminal session, no capabilities, and the whole
# sandbox killed if the runner dies.
_ISOLATION = ("--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL")


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _runtime_paths() -> list[Path]:
    """What the relay and Python bots need to see: the interpreter, its libraries, the kit."""
    found = {
        Path(sys.prefix),
        Path(sys.exec_prefix),
        Path(sys.base_prefix),
        Path(sys.base_exec_prefix),
        Path(sys.executable).parent,
        Path(os.path.realpath(sys.executable)).parent,
        _KIT_ROOT,
    }
    found.update(Path(entry) for entry in sys.path if entry and os.path.isabs(entry))
    paths = sorted({path.resolve() for path in found if path.exists()})
    # A path inside another one is visible through it.
    return [path for path in paths if not any(o != path and _inside(path, o) for o in paths)]


class Sandbox:
    """The bubblewrap sandbox of one bot, and the runner's end of its connection.

    ``hidden`` paths (the opponent's directory, the match's logs) are replaced by empty
    read-only directories.  Call :meth:`close` when the bot has stopped, to remove the private
    directory that holds the runner's socket.

    Raises :class:`SandboxUnavailable` if bubblewrap cannot be used here.
    """

    def __init__(self, bot_dir: Path, hidden: Iterable[Path] = ()) -> None:
        """Prepare (but do not start) the sandbox of the bot in ``bot_dir``."""
        require_sandbox()
        bwrap = shutil.which("bwrap")
        assert bwrap is not None  # checked by require_sandbox()
        self.bwrap = bwrap
        self.bot_dir = Path(bot_dir).resolve()
        self.hidden = tuple(sorted({Path(path).resolve() for path in hidden}))
        self.port = random.randint(20000, 60000)  # any port: nothing else listens in there
        self.private = Path(tempfile.mkdtemp(prefix="pokerbots-sandbox-"))

    @property
    def socket_path(self) -> Path:
        """The runner's Unix socket, as the runner sees it."""
        return self.private / "runner.sock"

    @property
    def status_path(self) -> Path:
        """Where the relay writes how the bot exited."""
        return self.private / "status"

    def listen(self) -> socket.socket:
        """A listening Unix socket that the relay connects to once the bot has connected.

        Accept on it, then pass the accepted socket to :meth:`take_connection`.
        """
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(self.socket_path))
            listener.listen(1)
        except OSError:
            listener.close()
            raise
        return listener

    def take_connection(self, relay: socket.socket, timeout: float = 5.0) -> socket.socket | None:
        """The bot's own connection, which the relay sends over ``relay`` (then closed).

        Returns None if the relay does not send it within ``timeout`` seconds.
        """
        with relay:
            relay.settimeout(timeout)
            try:
                _, fds, _, _ = socket.recv_fds(relay, 16, 1)
            except OSError:
                return None
        if not fds:
            return None
        return socket.socket(fileno=fds[0])

    def build_command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` (a build step) wrapped to run in the sandbox, without the relay."""
        return [self.bwrap, *self._arguments(), "--", *argv]

    def run_command(self, argv: Sequence[str], port: int) -> list[str]:
        """``argv`` (the bot's run command) wrapped to run in the sandbox behind the relay."""
        self.status_path.unlink(missing_ok=True)
        relay = [
            sys.executable,
            "-I",
            "-S",
            str(_RELAY),
            f"{_INSIDE}/runner.sock",
            str(port),
            f"{_INSIDE}/status",
            "--",
        ]
        return [
            self.bwrap,
            *self._arguments(),
            "--bind",
            str(self.private),
            _INSIDE,
            "--",
            *relay,
            *argv,
        ]

    def exit_description(self) -> str | None:
        """How the bot's own process exited, as the relay saw it, or None if not known."""
        try:
            return self.status_path.read_text(encoding="utf-8").strip() or None
        except (OSError, UnicodeDecodeError):
            return None

    def close(self) -> None:
        """Remove the private directory (the socket and the status file)."""
        shutil.rmtree(self.private, ignore_errors=True)

    def _arguments(self) -> list[str]:
        """The bwrap options that build the sandbox's view of the machine, in mount order."""
        can_size = "--size" in _bwrap_help(self.bwrap)
        args = [*_ISOLATION, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
        bases = [Path(base) for base in _HIDDEN_BASES if os.path.isdir(base)]
        for base in bases:
            size = _TMPFS_BYTES if base.name == "tmp" else _HIDDEN_BYTES
            args += [*(["--size", str(size)] if can_size else []), "--tmpfs", str(base)]
        runtime = _runtime_paths()
        for path in runtime:  # the interpreter or the kit may live in /tmp
            if any(_inside(path, base) for base in bases):
                args += ["--ro-bind", str(path), str(path)]
        hidden = [path for path in self.hidden if path.exists()]
        empty = [*(["--size", str(_HIDDEN_BYTES)] if can_size else []), "--tmpfs"]
        for path in hidden:
            if not _inside(path, self.bot_dir):
                args += [*empty, str(path)]
        for path in runtime:  # again, in case a hidden directory holds one
            if any(_inside(path, other) for other in hidden):
                args += ["--ro-bind", str(path), str(path)]
        args += ["--bind", str(self.bot_dir), str(self.bot_dir)]
        for path in hidden:
            if _inside(path, self.bot_dir) and path != self.bot_dir:
                args += [*empty, str(path)]
        # Read-only only now: mount points inside them had to be created first.
        for path in hidden:
            if path != self.bot_dir:
                args += ["--remount-ro", str(path)]
        return [*args, "--chdir", str(self.bot_dir)]
