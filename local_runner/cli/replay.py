"""``pokerbots replay``: step through the hands of a run in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..runs.errors import RunError
from ..runs.layout import HANDS_FILE, leg_runs
from ..runs.reader import Run, open_run
from ..view.replay import HandFilter, Replayer, keys_mode, line_mode, plain_replay, select_hands
from .arguments import positive_int

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="replay a run's hands step by step",
        description=(
            "Replay hands of a run step by step: the seats, the cards, the board and pot, each "
            "action with its amount, faults where they happened, the payoff. On a terminal, "
            "keys step and jump (q quits); otherwise, or with --plain, the hands are printed."
        ),
    )
    parser.add_argument(
        "run_dir",
        type=Path,
        metavar="RUN",
        help="a run directory (a duplicate match's folder replays each leg in turn)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--hand", type=positive_int, metavar="N", help="only hand N")
    which.add_argument("--biggest", action="store_true", help="the hand with the biggest payoff")
    which.add_argument("--faults", action="store_true", help="only the hands with faults")
    parser.add_argument(
        "--bot",
        metavar="B",
        help="show the hands as bot B saw them (the other cards hidden until the showdown)",
    )
    parser.add_argument("--plain", action="store_true", help="print text even on a terminal")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay; 0 when done, 2 when the run cannot be read."""
    try:
        runs = [open_run(directory) for directory in run_directories(args.run_dir)]
        for run_log in runs:
            if args.bot is not None and args.bot not in run_log.names:
                raise RunError(
                    f"There is no bot {args.bot!r} in {run_log.directory}; its bots are "
                    f"{', '.join(run_log.names)}."
                )
        which = HandFilter(number=args.hand, biggest=args.biggest, faults=args.faults)
        selected = [(run_log, select_hands(run_log, which)) for run_log in runs]
        plain = args.plain or not (sys.stdin.isatty() and sys.stdout.isatty())
        for index, (run_log, hands) in enumerate(selected):
            if plain:
                if len(runs) > 1:  # a duplicate match: say which leg the hands are from
                    print(("\n" if index else "") + _leg_title(run_log))
                plain_replay(run_log, hands, args.bot, print)
            elif not _interactive(Replayer(run_log, hands, args.bot)):
                break  # Ctrl-C ends the whole replay; q ends a leg, and the next one begins
    except BrokenPipeError:  # `pokerbots replay RUN | head`
        sys.stderr.close()
    return 0


def run_directories(path: Path) -> list[Path]:
    """The runs to replay: ``path`` itself, or a duplicate match's legs in order.

    A folder that is neither is returned as it is, for :func:`open_run` to explain.
    """
    if not (path / HANDS_FILE).is_file():
        legs = leg_runs(path)
        if legs:
            return legs
    return [path]


def _leg_title(run_log: Run) -> str:
    seats = ", ".join(f"seat {i + 1} {name}" for i, name in enumerate(run_log.names))
    return f"=== {run_log.directory.name}: {seats}"


def _interactive(replayer: Replayer) -> bool:
    """Replay on the terminal until q (True: go on to the next leg) or Ctrl-C (False)."""
    console = Console(highlight=False)

    def ask(prompt: str) -> str:
        with line_mode():
            try:
                return input(prompt)
            except EOFError:
                return ""

    with keys_mode() as read_key:
        while True:
            console.clear()
            for line in replayer.screen():
                console.print(Text(line))  # bot names and fault details are never markup
            try:
                key = read_key()
            except KeyboardInterrupt:
                return False
            if not replayer.press(key, ask):
                return True
