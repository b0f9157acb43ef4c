"""Connect a bot to an engine over TCP and play until the match ends.

Usage from a bot's ``player.py``, as in the MIT skeleton::

    from sdk.runner import parse_args, run_bot
    run_bot(Player(), parse_args())

The engine starts the bot with the port as the last argument (``PORT``);
``HOST PORT`` and ``--host HOST PORT`` work too.
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence

from .bot import Bot
from .client import BotClient
from .protocol import MAX_LINE_BYTES, ProtocolError, decode_message, encode_action
from .rules import Rules, rules_from_environment

__all__ = ["parse_args", "run_bot"]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Read ``[--host HOST] [HOST] PORT`` from the command line (``sys.argv`` by default)."""
    parser = argparse.ArgumentParser(prog="player.py", description="Run a poker bot.")
    parser.add_argument("--host", default=None, help="host to connect to (default: localhost)")
    parser.add_argument(
        "address",
        nargs="+",
        metavar="[HOST] PORT",
        help="the engine's port, optionally after its host",
    )
    args = parser.parse_args(argv)
    address: list[str] = args.address
    if len(address) > 2:
        parser.error("give at most a host and a port.")
    port_text = address[-1]
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        parser.error(f"{port_text!r} is not a port number (1-65535).")
    host = args.host or (address[0] if len(address) == 2 else "localhost")
    return argparse.Namespace(host=host, port=int(port_text))


def run_bot(
    bot: Bot,
    args: argparse.Namespace,
    variant: str | None = None,
    rules: Rules | None = None,
) -> None:
    """Connect to the engine at ``args.host:args.port`` and play ``bot`` until the match ends.

    The match rules come from ``rules`` if given, else from the runner
    (``POKERBOTS_RULES``), else the defaults of ``variant`` (no-limit hold'em
    when None).
    """
    if not isinstance(bot, Bot):
        raise TypeError(f"run_bot() needs a Bot, not {type(bot).__name__}.")
    if rules is None:
        rules = rules_from_environment(variant or "nlhe")
    try:
        sock = socket.create_connection((args.host, args.port))
    except OSError as error:
        print(f"Could not connect to {args.host}:{args.port}: {error}", file=sys.stderr)
        return
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    client = BotClient(bot, rules)
    reader = sock.makefile("rb")
    try:
        while True:
            line = reader.readline(MAX_LINE_BYTES + 1)
            if not line:
                return  # the engine closed the connection
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                raise ProtocolError(f"the engine sent a line longer than {MAX_LINE_BYTES} bytes.")
            reply = client.handle(decode_message(line.decode("ascii", "replace"), client.rules))
            if reply is None:
                return
            sock.sendall(encode_action(reply).encode("ascii") + b"\n")
    except (ConnectionError, BrokenPipeError):
        return
    finally:
        reader.close()
        sock.close()
