"""Hostile bot: tries to get out of the sandbox, writes down what happened, then plays fairly.

The targets come from the environment (the test sets them; the runner passes them on):

* PROBE_TCP_PORT: a port the test listens on at 127.0.0.1 outside the sandbox;
* PROBE_UNIX_SOCKET: a Unix socket the test listens on outside the bot's directory;
* PROBE_OUTSIDE_FILE: a file to create outside the bot's directory;
* PROBE_HIDDEN_DIRS: directories it should not see (os.pathsep-separated);
* PROBE_KIT_FILE: a file to create in the kit's checkout.

It writes ``report.json`` into its own directory: for each attempt, "ok" or the error.
"""

import errno
import json
import os
import socket
import time
from pathlib import Path

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


def attempt(action):
    began = time.monotonic()
    try:
        result = action()
    except OSError as error:
        outcome = errno.errorcode.get(error.errno, str(error.errno)) if error.errno else str(error)
    else:
        outcome = "ok" if result is None else result
    return {"outcome": outcome, "seconds": round(time.monotonic() - began, 3)}


def tcp(host, port):
    def connect():
        with socket.create_connection((host, port), timeout=5):
            pass

    return connect


def unix(path):
    def connect():
        with socket.socket(socket.AF_UNIX) as sock:
            sock.connect(path)

    return connect


def write(path):
    def create():
        Path(path).write_text("escaped\n")

    return create


def listing(path):
    return lambda: sorted(os.listdir(path))


env = os.environ
report = {
    "tcp_host_port": attempt(tcp("127.0.0.1", int(env["PROBE_TCP_PORT"]))),
    "tcp_public": attempt(tcp("192.0.2.1", 80)),  # TEST-NET-1: never routed anywhere
    "unix_outside": attempt(unix(env["PROBE_UNIX_SOCKET"])),
    "write_outside": attempt(write(env["PROBE_OUTSIDE_FILE"])),
    "write_etc": attempt(write("/etc/pokerbots-sandbox-escape")),
    "write_kit": attempt(write(env["PROBE_KIT_FILE"])),
    "write_home": attempt(write(Path.home() / ".pokerbots-sandbox-escape")),
    "hidden": {path: attempt(listing(path)) for path in env["PROBE_HIDDEN_DIRS"].split(os.pathsep)},
    "processes": len([name for name in os.listdir("/proc") if name.isdigit()]),
    "write_own_directory": attempt(write("own-file.txt")),
    "write_tmp": attempt(write("/tmp/scratch.txt")),
}
Path("report.json").write_text(json.dumps(report, indent=2))


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
