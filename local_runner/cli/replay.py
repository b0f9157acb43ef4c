"""``pokerbots replay``: step through the hands of a run in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from ..runs.errors import RunError
from ..runs.reader import open_run
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
    parser.add_argument("run_dir", type=Path, metavar="RUN", help="a run directory")
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
        run_log = open_run(args.run_dir)
        if args.bot is not None and args.bot not in run_log.names:
            raise RunError(
                f"There is no bot {args.bot!r} in this run; its bots are "
                f"{', '.join(run_log.names)}."
            )
        hands = select_hands(
            run_log, HandFilter(number=args.hand, biggest=args.biggest, faults=args.faults)
        )
        if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
            plain_replay(run_log, hands, args.bot, print)
            return 0
        _interactive(Replayer(run_log, hands, args.bot))
    except BrokenPipeError:  # `pokerbots replay RUN | head`
        sys.stderr.close()
    return 0


def _interactive(replayer: Replayer) -> None:
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
                return
            if not replayer.press(key, ask):
                return
