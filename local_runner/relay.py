"""The relay that connects a sandboxed bot to the runner (started by :mod:`local_runner.sandbox`).

A bot in the sandbox has its own network namespace: only its own loopback, so the runner's TCP
port is out of reach.  This script runs inside that namespace, before the bot::

    python -I -S relay.py RUNNER_SOCKET PORT STATUS_FILE -- BOT_COMMAND...

It listens on 127.0.0.1:PORT (and [::1]:PORT where IPv6 exists), starts the bot, accepts the
bot's one connection, connects to the runner's Unix socket ``RUNNER_SOCKET`` (bound into the
sandbox) and copies bytes both ways, passing on a closed side as a half-close.  It exits when
the bot's main process has exited and the bot's side of the connection is closed (or was never
opened), with the bot's exit code (``128 + N`` for a signal N), after writing a description of
the bot's exit status ("exit code 3", "signal 9 (SIGKILL)") into ``STATUS_FILE``.

It uses the standard library only and prints nothing unless something goes wrong.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence

_CHUNK = 65536
_EXIT_WAIT = 0.2  # after the bot's side closes, how long to wait for its process to exit


def describe(code: int) -> str:
    """A Popen-style status in words, as the runner writes it: "exit code 3", "signal 9 (...)"."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"signal {-code} ({signal.Signals(-code).name})"
    except ValueError:
        return f"signal {-code}"


def _listen(port: int) -> list[socket.socket]:
    listeners = []
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        try:
            listener = socket.socket(family, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((host, port))
            listener.listen(1)
        except OSError:
            continue  # no IPv6 in this namespace, for instance
        listeners.append(listener)
    return listeners


class _Relay:
    """The state of one relay: the bot process, its connection and the runner's."""

    def __init__(self, runner_path: str, status_file: str, bot: subprocess.Popen[bytes]) -> None:
        self.runner_path, self.status_file, self.bot = runner_path, status_file, bot
        self.status: int | None = None
        self.bot_side: socket.socket | None = None
        self.runner_side: socket.socket | None = None
        self.bot_open = self.runner_open = False  # still reading from that side

    def reap(self) -> bool:
        """Record the bot's status once it has exited; True if it has."""
        if self.status is None and (code := self.bot.poll()) is not None:
            self.status = code
            with contextlib.suppress(OSError), open(self.status_file, "w") as file:
                file.write(describe(code))
        return self.status is not None

    def connect(self, listeners: list[socket.socket]) -> None:
        """Accept the bot's connection and open the runner's; further connections are refused."""
        ready = [s for s in listeners if s.fileno() >= 0]
        readable, _, _ = select.select(ready, [], [], 0)
        if not readable:
            return
        self.bot_side, _ = readable[0].accept()
        for listener in listeners:
            listener.close()
        runner = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            runner.connect(self.runner_path)
        except OSError as error:
            print(f"[sandbox relay] the runner is not listening any more: {error}", file=sys.stderr)
            runner.close()
            self.bot_side.close()
            return
        self.runner_side = runner
        self.bot_open = self.runner_open = True

    def copy(self, source: socket.socket) -> None:
        """Forward what ``source`` has to the other side; pass on end-of-file as a half-close."""
        assert self.bot_side is not None and self.runner_side is not None
        target = self.runner_side if source is self.bot_side else self.bot_side
        try:
            data = source.recv(_CHUNK)
        except OSError:
            data = b""
        if data:
            with contextlib.suppress(OSError):
                target.sendall(data)
            return
        if source is self.bot_side:
            self.bot_open = False
            # Let the bot's process exit first, so that the runner sees a crash, not a disconnect.
            deadline = time.monotonic() + _EXIT_WAIT
            while not self.reap() and time.monotonic() < deadline:
                time.sleep(0.005)
        else:
            self.runner_open = False
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)

    def finished(self) -> bool:
        """The bot's process has exited and its side of the connection is closed or never was."""
        return self.reap() and not self.bot_open


def main(argv: Sequence[str]) -> int:
    """Run the relay; returns the bot's exit code (128 + N for signal N)."""
    if len(argv) < 5 or argv[3] != "--":
        print("usage: relay.py RUNNER_SOCKET PORT STATUS_FILE -- BOT_COMMAND...", file=sys.stderr)
        return 2
    runner_path, port, status_file, command = argv[0], int(argv[1]), argv[2], list(argv[4:])
    listeners = _listen(port)
    if not listeners:
        print(f"[sandbox relay] cannot listen on port {port} in the sandbox.", file=sys.stderr)
        return 70
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # wakes select via the pipe
    try:
        bot = subprocess.Popen(command)
    except OSError as error:
        print(f"[sandbox relay] could not start {command[0]!r}: {error}", file=sys.stderr)
        with contextlib.suppress(OSError), open(status_file, "w") as file:
            file.write(f"could not start: {error}")
        return 127
    relay = _Relay(runner_path, status_file, bot)
    while not relay.finished():
        if relay.bot_side is None and relay.reap():
            break  # exited without connecting
        watched: list[socket.socket | int] = [wake_read]
        if relay.bot_side is None:
            watched += [s for s in listeners if s.fileno() >= 0]
        else:
            watched += [s for s, is_open in ((relay.bot_side, relay.bot_open),
                                             (relay.runner_side, relay.runner_open))
                        if is_open and s is not None]  # fmt: skip
        readable, _, _ = select.select(watched, [], [], 0.5)
        for ready in readable:
            if ready == wake_read:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_read, 512)
            elif relay.bot_side is None:
                relay.connect(listeners)
            elif isinstance(ready, socket.socket):
                relay.copy(ready)
    code = relay.status if relay.status is not None else 0
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
