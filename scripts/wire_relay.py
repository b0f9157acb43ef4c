"""Record what an engine and a bot say to each other, line by line, without changing it.

Put this in front of a bot's run command (``commands.json``)::

    {"build": [], "run": ["python3", "wire_relay.py", "wire.txt", "--", "python3", "player.py"]}

The engine appends its port as the last argument, as every MIT engine and this kit do.  The
relay listens on a port of its own, starts the bot with that port appended, connects to the
engine, and copies each line across, writing it to the log as ``<- line`` (engine to bot) or
``-> line`` (bot to engine).  It copies whole lines as they come and never joins or splits
them, so the bot sees the engine's timing to within a loopback hop.  It ends when either side
closes, and exits with the bot's status.

Used by ``scripts/mit_conformance.py`` to record the transcripts in ``tests/conformance/``.
"""

from __future__ import annotations

import selectors
import socket
import subprocess
import sys
from pathlib import Path
from typing import TextIO


def main(argv: list[str]) -> int:
    """Relay between the engine's port (the last argument) and the bot command after ``--``."""
    if "--" not in argv or len(argv) < 4:
        print("usage: wire_relay.py LOG -- BOT COMMAND... ENGINE_PORT", file=sys.stderr)
        return 2
    log_path = Path(argv[0])
    command, engine_port = argv[argv.index("--") + 1 : -1], int(argv[-1])
    listener = socket.create_server(("127.0.0.1", 0))
    bot_process = subprocess.Popen([*command, str(listener.getsockname()[1])])
    listener.settimeout(30.0)
    try:
        bot, _ = listener.accept()
    except TimeoutError:
        print("wire_relay: the bot did not connect within 30 s", file=sys.stderr)
        bot_process.kill()
        return 1
    finally:
        listener.close()
    engine = socket.create_connection(("localhost", engine_port))
    for sock in (bot, engine):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    with log_path.open("a", encoding="ascii", errors="replace") as log:
        _pump(engine, bot, log)
    for sock in (bot, engine):
        sock.close()
    try:
        return bot_process.wait(timeout=10.0)
    except subprocess.TimeoutExpired:
        bot_process.kill()
        return 1


def _pump(engine: socket.socket, bot: socket.socket, log: TextIO) -> None:
    """Copy complete lines both ways until one side closes, logging each one."""
    selector = selectors.DefaultSelector()
    partial = {engine: b"", bot: b""}
    peer = {engine: bot, bot: engine}
    arrow = {engine: "<- ", bot: "-> "}
    for sock in (engine, bot):
        selector.register(sock, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            source = engine if key.fileobj is engine else bot
            data = source.recv(65536)
            if not data:
                return
            buffered = partial[source] + data
            *lines, partial[source] = buffered.split(b"\n")
            for line in lines:
                log.write(arrow[source] + line.decode("ascii", "replace") + "\n")
            if lines:
                log.flush()
                peer[source].sendall(b"".join(line + b"\n" for line in lines))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
