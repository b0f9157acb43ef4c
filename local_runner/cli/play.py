"""``pokerbots play``: a person plays a match against a bot in the terminal."""

from __future__ import annotations

import argparse
import select
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from sdk.games import GAMES

from ..tables.config import load_config
from ..tables.spec import BotSpec
from ..tables.table import play_table
from ..view.human import human_seat_factory
from .arguments import VARIANT_HELP, non_negative_int, positive_int, seconds, variant_name

__all__ = ["register", "run"]

PERSON = "you"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play against a bot yourself, in the terminal",
        description=(
            "Play a match against BOT (a bot directory or builtin:NAME) in the terminal. Type "
            "f (fold), c (call), k (check), r N (raise to N) or a N (bid N); a wrong answer is "
            "asked again. You have no clock. Ctrl-C ends the match; the logs of the hands "
            "played are written as for a scrimmage."
        ),
    )
    parser.add_argument("bot", metavar="BOT", help="the bot to play against")
    parser.add_argument(
        "--variant",
        type=variant_name,
        choices=[name for name, game in GAMES.items() if game.rules.seats == 2],
        default="nlhe",
        help=f"the game (default nlhe; {VARIANT_HELP})",
    )
    parser.add_argument("--rounds", type=positive_int, default=20, help="hands (default 20)")
    parser.add_argument(
        "--game-clock",
        type=seconds,
        metavar="SECONDS",
        help="the bot's thinking time for the match (default: the game's clock, in proportion "
        "to --rounds; you have no clock)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, help="seed for the deal (default: random, recorded)"
    )
    parser.add_argument("--out", type=Path, help="output directory (default: runs/play-TIME)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play; 0 when the match completed, 130 after Ctrl-C, 2 for a usage error."""
    console = Console(highlight=False, soft_wrap=True)
    opponent = BotSpec.parse(args.bot)
    config = load_config(None).with_overrides(
        variant=args.variant, rounds=args.rounds, seed=args.seed, game_clock=args.game_clock
    )
    name = opponent.name if opponent.name != PERSON else f"{PERSON}-bot"
    me = BotSpec(PERSON, seat=human_seat_factory(name, _read))
    out_dir = args.out or Path("runs") / time.strftime("play-%Y%m%d-%H%M%S")
    print(
        f"You play {name} at {config.rules.variant}, {config.rules.num_rounds} hands "
        f"(seed {config.seed}). Ctrl-C ends the match."
    )
    result = play_table([me, BotSpec(name, opponent.builtin, opponent.program)], config, out_dir)
    mine = result.bankrolls[0]
    print()
    print(f"{result.hands_played} hands played: you {mine:+d}, {name} {-mine:+d}.")
    console.print(
        f"Logs: {escape(str(out_dir))}/ (replay them: pokerbots replay {escape(str(out_dir))})"
    )
    if result.interrupted:
        return 130
    return 0


def _read(prompt: str) -> str:
    """A typed line; the end of input ends the match like Ctrl-C.

    The line is waited for in short slices rather than in one blocking ``input()``:
    a Ctrl-C that lands just before a blocking read starts would only be noticed
    after the next line, so the person would have to press it twice.
    """
    sys.stdout.write(prompt)
    sys.stdout.flush()
    if sys.stdin.isatty():  # a terminal hands over one line per read: nothing waits in a buffer
        while not select.select([sys.stdin], [], [], 0.1)[0]:
            pass  # Python handles a pending Ctrl-C between the slices
    line = sys.stdin.readline()
    if not line:
        raise KeyboardInterrupt
    return line.rstrip("\r\n")
