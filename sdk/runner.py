"""Connect a bot to an engine over TCP and play until the match ends.

Usage from a bot's ``player.py``, as in the MIT skeleton::

    from sdk.runner import parse_args, run_bot
    run_bot(Player(), parse_args())

The engine starts the bot with the port as the last argument (``PORT``);
``HOST PORT`` and ``--host HOST PORT`` work too.

The same bot plays the ACPC wire with ``--protocol acpc`` (or ``run_bot(...,
protocol="acpc")``), against an ACPC dealer started as the ACPC server starts bots
(``./startme.sh HOST PORT``); ``--game FILE`` names the dealer's game definition file::

    python player.py --protocol acpc --game holdem.limit.2p.reverse_blinds.game HOST PORT
"""

from __future__ import annotations

import argparse
import gc
import os
import socket
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, BinaryIO

from .bot import Bot
from .client import BotClient
from .games import ACPC, games_speaking
from .protocol import MAX_LINE_BYTES, ProtocolError, decode_message, encode_action
from .rules import ENVIRONMENT_VARIABLE, Rules, rules_from_environment

if TYPE_CHECKING:  # the ACPC modules are imported when a bot plays the ACPC wire
    from .acpc_client import AcpcClient
    from .gamedef import GameDef

__all__ = ["PROTOCOLS", "parse_args", "run_bot"]

#: The wires a bot can speak: the MIT engines' and the ACPC dealer's.
PROTOCOLS = ("mit", "acpc")
_ACPC_VARIANTS = games_speaking(ACPC)
_READ_CHUNK = 65536


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Read ``[--host HOST] [--protocol mit|acpc] [--game FILE] [HOST] PORT`` from the command
    line (``sys.argv`` by default).

    The namespace has ``host``, ``port``, ``protocol`` (None unless given: :func:`run_bot`
    then plays the MIT wire) and ``game`` (the ACPC game definition file, or None).
    """
    parser = argparse.ArgumentParser(prog="player.py", description="Run a poker bot.")
    parser.add_argument("--host", default=None, help="host to connect to (default: localhost)")
    parser.add_argument(
        "--protocol",
        choices=PROTOCOLS,
        default=None,
        help="the wire to speak: mit (the MIT engines', the default) or acpc (the ACPC dealer's)",
    )
    parser.add_argument(
        "--game",
        default=None,
        metavar="FILE",
        help="ACPC only: the dealer's game definition file (default: the bot's ACPC variant)",
    )
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
    if args.game is not None and args.protocol == "mit":
        parser.error("--game is an ACPC game definition file; use it with --protocol acpc.")
    return argparse.Namespace(
        host=host, port=int(port_text), protocol=args.protocol, game=args.game
    )


def run_bot(
    bot: Bot,
    args: argparse.Namespace,
    variant: str | None = None,
    rules: Rules | None = None,
    protocol: str | None = None,
) -> None:
    """Connect to the engine at ``args.host:args.port`` and play ``bot`` until the match ends.

    ``protocol`` (else ``args.protocol``, else ``"mit"``) is the wire: ``"mit"`` or
    ``"acpc"``.  The match rules come from ``rules`` if given; on the ACPC wire, next from
    the game definition file ``args.game``; then from the runner (``POKERBOTS_RULES``);
    then from the defaults of ``variant`` (no-limit hold'em when None; on the ACPC wire
    ``variant`` must then be an ACPC game).  Raises ``ValueError`` with the fix when the
    wire or the game cannot be known.
    """
    if not isinstance(bot, Bot):
        raise TypeError(f"run_bot() needs a Bot, not {type(bot).__name__}.")
    wire = protocol or getattr(args, "protocol", None) or "mit"
    if wire not in PROTOCOLS:
        raise ValueError(f"the protocol is one of {', '.join(PROTOCOLS)}, not {wire!r}.")
    game: GameDef | None = None
    if wire == "acpc":
        game = _game_file(getattr(args, "game", None))
        if rules is None:
            rules = _acpc_rules(game, variant)
    elif rules is None:
        rules = rules_from_environment(variant or "nlhe")
    try:
        sock = socket.create_connection((args.host, args.port))
    except OSError as error:
        print(f"Could not connect to {args.host}:{args.port}: {error}", file=sys.stderr)
        return
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        if wire == "acpc":
            from .acpc_client import AcpcClient

            with sock.makefile("rb") as reader:
                _play_acpc(sock, reader, AcpcClient(bot, rules, game))
        else:
            _play_mit(sock, BotClient(bot, rules))
    except (ConnectionError, BrokenPipeError):
        return
    finally:
        sock.close()
        # The match is over, and a bot's process exits next: what the match made is frozen
        # (gc.freeze), so that the interpreter's exit does not walk it all once more in a last
        # collection while the engine waits for the bot to end.  A program that goes on
        # after run_bot can undo it with gc.unfreeze().
        gc.freeze()


def _play_mit(sock: socket.socket, client: BotClient) -> None:
    """The MIT wire: one reply to every message, until the engine quits or closes.

    Lines are split from the socket's reads here rather than through a buffered file: the
    engine sends one line and waits for its answer, so a read is almost always exactly one
    line, and the file's layers cost more than the split (this runs for every message)."""
    rules, handle, recv, sendall = client.rules, client.handle, sock.recv, sock.sendall
    pending = b""  # what was read after the last whole line
    while True:
        end = pending.find(b"\n") + 1
        while not end:
            if len(pending) > MAX_LINE_BYTES:
                raise ProtocolError(f"the engine sent a line longer than {MAX_LINE_BYTES} bytes.")
            data = recv(_READ_CHUNK)
            if not data:  # the engine closed the connection (after a last unended line?)
                if not pending:
                    return
                data = b"\n"
            pending += data
            end = pending.find(b"\n") + 1
        line, pending = pending[:end], pending[end:]
        reply = handle(decode_message(line.decode("ascii", "replace"), rules))
        if reply is None:
            return
        sendall(encode_action(reply).encode("ascii") + b"\n")


def _play_acpc(sock: socket.socket, reader: BinaryIO, client: AcpcClient) -> None:
    """The ACPC wire: the version line first, then a reply only when it is this seat's turn;
    comment and empty lines skipped; ``\\r\\n`` or ``\\n`` endings; until the dealer closes."""
    from . import acpc

    sock.sendall(acpc.encode_line(acpc.VERSION_LINE))
    while True:
        data = reader.readline(acpc.MAX_LINE_BYTES + 1)
        if not data:
            return  # the dealer closed the connection: the match is over
        if len(data) > acpc.MAX_LINE_BYTES and not data.endswith(b"\n"):
            raise acpc.AcpcProtocolError(
                f"the dealer sent a line longer than {acpc.MAX_LINE_BYTES} bytes."
            )
        line = data.decode("ascii", "replace")
        if acpc.is_comment(line) or not acpc.strip_line_ending(line):
            continue
        reply = client.handle(line)
        if reply is not None:
            sock.sendall(acpc.encode_line(reply))


def _game_file(path: str | None) -> GameDef | None:
    """The game definition file named on the command line, read; None when none is named."""
    if path is None:
        return None
    from .gamedef import parse_gamedef

    try:
        with open(path, encoding="ascii", errors="replace") as file:
            text = file.read()
    except OSError as error:
        raise ValueError(
            f"could not read the ACPC game file {path!r} ({error.strerror}); give the path of "
            "the dealer's .game file with --game FILE."
        ) from None
    return parse_gamedef(text)


def _acpc_rules(game: GameDef | None, variant: str | None) -> Rules:
    """The rules of an ACPC match: the game file's, the runner's, or the ACPC variant's."""
    if game is not None:
        return game.to_rules()
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return rules_from_environment()
    if variant in _ACPC_VARIANTS:
        return Rules.for_variant(variant)
    raise ValueError(
        f"the ACPC wire needs the dealer's game, and the variant {variant or 'nlhe'!r} is not "
        f"an ACPC game; pass --game FILE (the dealer's .game file) or write the bot for one of "
        f"{', '.join(_ACPC_VARIANTS)}."
    )
