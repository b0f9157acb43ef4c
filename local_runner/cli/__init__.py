"""The ``pokerbots`` command: a thin layer that parses arguments and renders results.

Each subcommand lives in its own module with a ``register(subparsers)``
function; the work itself is done by typed library functions.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence

from sdk.errors import KitError

from .console import make_console, print_error

__all__ = ["main"]

# Subcommand modules, in the order `pokerbots --help` lists them.
COMMANDS = (
    "new",
    "sdk_command",
    "scrimmage",
    "tournament",
    "validate",
    "package",
    "export",
    "replay",
    "report",
    "play",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="pokerbots",
        description="Start, play, test and ship poker bots for competitions.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"local_runner.cli.{name}")
        module.register(subparsers)
    importlib.import_module("local_runner.cli.export").add_phh_option(
        subparsers.choices["scrimmage"]
    )
    return parser


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 failed check, 2 usage error).

    Every kit error (:class:`~sdk.errors.KitError`) that ends a command is printed as its
    sentence and exits with its ``exit_status``.

    SIGTERM and SIGINT are handled like Ctrl-C (even when SIGINT was ignored at start): bots
    are stopped and the logs so far are written.
    """
    signal.signal(signal.SIGTERM, _interrupt)
    # A shell without job control starts `cmd &` with SIGINT ignored, and the ignored state
    # is inherited: a scheduler's or a script's `kill -INT` would then do nothing.  SIGINT
    # always means "stop as Ctrl-C does" for the kit's commands.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        status: int = args.handler(args)
    except KitError as error:  # bad input of any kind: its sentence, and its exit status
        print_error(make_console(stderr=True), str(error))
        return error.exit_status
    return status


if __name__ == "__main__":
    sys.exit(main())
