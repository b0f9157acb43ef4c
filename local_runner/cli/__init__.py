"""The ``pokerbots`` command: a thin layer that parses arguments and renders results.

Each subcommand lives in its own module with a ``register(subparsers)``
function; the work itself is done by typed library functions.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterable, Sequence
from typing import NamedTuple, NoReturn

from sdk.errors import KitError

from ..engine.interrupts import interrupt

__all__ = ["COMMANDS", "Command", "build_parser", "chosen_commands", "kit_version", "main", "run"]


class Command(NamedTuple):
    """A subcommand: its name, the module that registers it, its line in ``--help``,
    whether it starts bot programs (and so needs to know which ``python3`` they get), and
    whether it has closed every file it wrote when it returns (so that the process may end
    then without the interpreter's teardown: :func:`run`)."""

    name: str
    module: str
    help: str
    starts_bots: bool = False
    leaves_at_once: bool = False


#: The subcommands, in the order `pokerbots --help` lists them.  The one-line help is
#: declared here so that the list needs no subcommand's module (each pulls in its own
#: part of the kit); `tests/cli/test_startup.py` holds it equal to the module's own.
COMMANDS = (
    Command("new", "new", "create a bot project from the template"),
    Command("sdk", "sdk_command", "refresh a bot's vendored copy of the SDK"),
    Command(
        "scrimmage",
        "scrimmage",
        "play a match between two bots",
        starts_bots=True,
        leaves_at_once=True,
    ),
    Command(
        "tournament",
        "tournament",
        "a round robin between bots, with bankroll and instant run-off rankings",
        starts_bots=True,
    ),
    Command(
        "validate",
        "validate",
        "check a submission the way a competition server would",
        starts_bots=True,
    ),
    Command(
        "package",
        "package",
        "write a clean archive of a bot, then validate it",
        starts_bots=True,
    ),
    Command("export", "export", "write a run's hands as PHH (PokerKit) or as an ACPC dealer log"),
    Command("replay", "replay", "replay a run's hands step by step"),
    Command("report", "report", "write a match or tournament report as one HTML file"),
    Command("play", "play", "play against a bot yourself, in the terminal", starts_bots=True),
)


def chosen_commands(argv: Sequence[str]) -> frozenset[str]:
    """The subcommand ``argv`` names (its first word that is not an option), if any."""
    names = {command.name for command in COMMANDS}
    for word in argv:
        if not word.startswith("-"):
            return frozenset({word} & names)
    return frozenset()


def kit_version() -> str:
    """``pokerbots-kit VERSION``: the version pyproject.toml declares (read by :mod:`sdk`)."""
    import sdk  # the SDK's package alone: no rich, no engine

    return f"pokerbots-kit {sdk.__version__}"


class _VersionAction(argparse.Action):
    """``--version``: print the kit's version and how its engine was installed (pure Python or
    compiled with mypyc, :mod:`local_runner.compiled`), and exit (read only when asked for)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, help="print the kit's version and engine build, and exit"
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from local_runner.compiled import engine_build  # the standard library only

        print(kit_version())
        print(f"engine: {engine_build()}")
        parser.exit()


def build_parser(chosen: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``chosen`` names the subcommands to build in full (all by default).

    A chosen subcommand's module is imported and registers its options; every other one is
    listed in ``pokerbots --help`` by its declared line only, its module not imported.
    """
    wanted = None if chosen is None else set(chosen)
    parser = argparse.ArgumentParser(
        prog="pokerbots",
        description="Start, play, test and ship poker bots for competitions.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        if wanted is None or command.name in wanted:
            importlib.import_module(f"local_runner.cli.{command.module}").register(subparsers)
        else:
            subparsers.add_parser(command.name, help=command.help)
    return parser


def main(argv: Sequence[str] | None = None, *, freeze: bool = False) -> int:
    """Run the command line; returns the exit status (0 ok, 1 failed check, 2 usage error).

    With ``freeze`` (the ``pokerbots`` command's choice, :func:`run`), the objects the
    subcommand's imports made are frozen (``gc.freeze``) before it runs: they live as long as
    the process, and the collections during a match (its hands make many short-lived
    objects) then skip them.  Since they are frozen anyway, the collector is off while the
    imports make them: its collections there would only walk objects that stay (about 7 ms
    of the scrimmage's 80 ms of imports).  A caller in a longer-lived process, a test,
    leaves it off.

    Every kit error (:class:`~sdk.errors.KitError`) that ends a command is printed as its
    sentence and exits with its ``exit_status``.

    SIGTERM and SIGINT are handled like Ctrl-C (even when SIGINT was ignored at start): bots
    are stopped and the logs so far are written.
    """
    # Both raise KeyboardInterrupt, held back while a match counts a finished hand (so that
    # the hand is in the logs, the bankrolls and the summary, or in none of them).
    signal.signal(signal.SIGTERM, interrupt)
    # A shell without job control starts `cmd &` with SIGINT ignored, and the ignored state
    # is inherited: a scheduler's or a script's `kill -INT` would then do nothing.  SIGINT
    # always means "stop as Ctrl-C does" for the kit's commands.
    signal.signal(signal.SIGINT, interrupt)
    words = sys.argv[1:] if argv is None else list(argv)
    chosen = chosen_commands(words)
    collecting = gc.isenabled()
    if freeze:
        gc.disable()
    try:
        if any(command.starts_bots and command.name in chosen for command in COMMANDS):
            # Which python3 bots get may depend on a second interpreter's answer: ask it
            # now, while this one imports the subcommand's modules.
            from ..programs.interpreter import start_probe

            start_probe()
        parser = build_parser(chosen)
    finally:
        if freeze:
            gc.freeze()
            if collecting:
                gc.enable()
    args = parser.parse_args(words)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        status: int = args.handler(args)
    except KitError as error:  # bad input of any kind: its sentence, and its exit status
        from .console import make_console, print_error  # rich, only when there is an error

        print_error(make_console(stderr=True), str(error))
        return error.exit_status
    return status


def run() -> NoReturn:
    """The ``pokerbots`` command (and ``python -m local_runner.cli``): :func:`main`, then exit
    with its status.

    The objects the imports made are frozen (``gc.freeze``) once they are made (``main``'s
    ``freeze``): the collections while a match plays then skip them, which took about 2% of
    an ``acpc-2pn`` match's command.  Before the interpreter exits, the objects left are
    frozen too, so that the exit's own collection skips everything: it took about 15 ms of
    every command.  Nothing is lost by either: the kit closes and flushes its files itself,
    and the objects are freed with the process.

    A command that has closed every file it wrote when it returns (``leaves_at_once``: a
    scrimmage) then ends the process at once, its output flushed: the interpreter's teardown
    would only free its objects one by one, about 10 ms of every scrimmage, for memory the
    process gives back as it ends.  Only when no other thread runs (the interpreter would wait
    for it) and no profiler or tracer watches (``python -m cProfile``, coverage: they write
    what they found after the program ends); the exit handlers run first, as the
    interpreter's own exit would run them.
    """
    status = main(freeze=True)
    gc.freeze()
    chosen = chosen_commands(sys.argv[1:])
    leaves = any(command.leaves_at_once and command.name in chosen for command in COMMANDS)
    watched = sys.getprofile() is not None or sys.gettrace() is not None
    if leaves and not watched and threading.active_count() == 1:
        atexit._run_exitfuncs()
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:  # None: started without it
                    stream.flush()
        except (OSError, ValueError):  # a closed pipe: the usual exit says so
            sys.exit(status)
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":
    run()
