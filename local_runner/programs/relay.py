"""The relay that connects a sandboxed bot to the runner (started by
:mod:`local_runner.programs.sandbox`).

A bot in the sandbox has its own network namespace: only its own loopback, so the runner's TCP
port is out of reach.  This script runs inside that namespace, before the bot::

    python -I -S relay.py RUNNER_SOCKET PORT STATUS_FILE -- BOT_COMMAND...

It listens on 127.0.0.1:PORT (and [::1]:PORT where IPv6 exists), starts the bot, and accepts
the bot's one connection.  Then it connects to the runner's Unix socket ``RUNNER_SOCKET``
(bound into the sandbox) and hands the accepted TCP socket over to the runner (``SCM_RIGHTS``):
from then on the runner talks to the bot directly, with no copying in between, exactly as
outside the sandbox.

The relay stays to report how the bot ended: when the bot's main process has exited and the
bot's side of the connection is closed (or never opened), it writes a description of the
bot's exit status ("exit code 3", "signal 9 (SIGKILL)") into ``STATUS_FILE`` and exits with
the bot's exit code (``128 + N`` for a signal N).  Leaving ends the sandbox, and with it every
process the bot started.

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
from collections.abc import Sequence

_CLOSED = select.POLLRDHUP | select.POLLHUP | select.POLLERR | select.POLLNVAL


def describe(code: int) -> str:
    """A Popen-style status in words, as the runner writes it: "exit code 3", "signal 9 (...)".

    The same wording as ``local_runner.programs.process.describe_status``; the relay runs isolated
    (``python -I -S`` inside the sandbox) and cannot import the kit.
    """
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


def _hand_over(connection: socket.socket, runner_path: str) -> bool:
    """Pass the bot's connection to the runner; False if the runner is not listening."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as runner:
        try:
            runner.connect(runner_path)
            socket.send_fds(runner, [b"B"], [connection.fileno()])
        except OSError as error:
            print(f"[sandbox relay] the runner is not listening any more: {error}", file=sys.stderr)
            return False
    return True


def _write_status(path: str, text: str) -> None:
    with contextlib.suppress(OSError), open(path, "w") as file:
        file.write(text)


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
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # wakes poll() via the pipe
    try:
        bot = subprocess.Popen(command)
    except OSError as error:
        print(f"[sandbox relay] could not start {command[0]!r}: {error}", file=sys.stderr)
        _write_status(status_file, f"could not start: {error}")
        return 127
    poller = select.poll()
    poller.register(wake_read, select.POLLIN)
    for listener in listeners:
        poller.register(listener, select.POLLIN)
    connection: socket.socket | None = None  # kept, never read: only to see it close
    connected = False
    while (code := bot.poll()) is None or connected:
        for fd, events in poller.poll():
            if fd == wake_read:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_read, 512)
            elif connection is not None and fd == connection.fileno():
                if events & _CLOSED:  # the bot closed its side, or the runner shut it down
                    poller.unregister(connection)
                    connected = False
            elif connection is None and events & select.POLLIN:
                listener = next(s for s in listeners if s.fileno() == fd)
                connection, _ = listener.accept()
                for other in listeners:
                    poller.unregister(other)
                    other.close()
                if _hand_over(connection, runner_path):
                    poller.register(connection, _CLOSED)
                    connected = True
                else:
                    connection.close()
    assert code is not None  # the loop ends only once the bot has exited
    _write_status(status_file, describe(code))
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
