"""``pokerbots scrimmage``: play a match between two bots and show the result."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..config import ConfigError, ScrimmageConfig, load_config
from ..records import HandRecord, MatchResult
from ..scrimmage import BotSpec, UsageError, run_scrimmage
from .render import describe_faults, result_table

__all__ = ["register", "run"]

DEFAULT_OPPONENT = "builtin:random"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scrimmage`` subcommand."""
    parser = subparsers.add_parser(
        "scrimmage",
        help="play a match between two bots",
        description=(
            "Play a match between two bots. A BOT is a directory holding commands.json or "
            "startme.sh, or builtin:NAME (random, checkcall, raise). With no BOT, the "
            f"repository's skeleton/ plays {DEFAULT_OPPONENT}; with one BOT, that bot does."
        ),
    )
    parser.add_argument("bots", nargs="*", metavar="BOT", help="up to two bots")
    parser.add_argument(
        "--variant",
        choices=["nlhe", "swap", "auction", "bounty"],
        help="the game (default: nlhe, or the config's)",
    )
    parser.add_argument("--rounds", type=_positive, help="hands to play (default 1000)")
    parser.add_argument(
        "--seed", type=_non_negative, help="seed for the deal (default: random, recorded)"
    )
    parser.add_argument("--out", type=Path, help="output directory (default: runs/scrimmage-TIME)")
    parser.add_argument("--config", type=Path, help="a TOML match config (flags override it)")
    parser.add_argument(
        "--json", action="store_true", help="print summary.json to stdout instead of tables"
    )
    parser.set_defaults(handler=run)


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _non_negative(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def find_skeleton() -> Path | None:
    """The starter bot to play when no bot is named: ``./skeleton`` or the kit's own."""
    for candidate in (Path("skeleton"), Path(__file__).resolve().parents[2] / "skeleton"):
        if (candidate / "commands.json").is_file() or (candidate / "startme.sh").is_file():
            return candidate
    return None


def _bot_texts(names: list[str]) -> list[str]:
    if len(names) > 2:
        raise UsageError(f"A scrimmage takes at most two bots; {len(names)} were given.")
    if not names:
        skeleton = find_skeleton()
        if skeleton is None:
            raise UsageError(
                "No bot was named and there is no skeleton/ here to play; "
                "name a bot directory, or run from the kit's checkout."
            )
        names = [str(skeleton)]
    if len(names) == 1:
        names.append(DEFAULT_OPPONENT)
    return names


def run(args: argparse.Namespace) -> int:
    """Play the scrimmage the arguments describe; 0 when the match completed."""
    console = Console(stderr=args.json)
    error_console = Console(stderr=True, soft_wrap=True)
    try:
        specs = [BotSpec.parse(text) for text in _bot_texts(list(args.bots))]
        config = load_config(args.config).with_overrides(
            variant=args.variant, rounds=args.rounds, seed=args.seed
        )
        out_dir = args.out or Path("runs") / time.strftime("scrimmage-%Y%m%d-%H%M%S")
        result = _play(specs, config, out_dir, console, show_progress=not args.json)
    except (UsageError, ConfigError) as error:
        error_console.print(f"[bold red]error:[/] {error}", highlight=False)
        return 2
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        _report(console, result, out_dir)
    if result.interrupted:
        error_console.print(
            f"Interrupted: {result.hands_played} hands were played; their logs are in {out_dir}."
        )
        return 130
    return 0


def _play(
    specs: list[BotSpec],
    config: ScrimmageConfig,
    out_dir: Path,
    console: Console,
    show_progress: bool,
) -> MatchResult:
    total = config.rules.num_rounds
    if not show_progress or not console.is_terminal:
        return run_scrimmage(specs, config, out_dir)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{specs[0].name} vs {specs[1].name}", total=total)

        def advance(record: HandRecord) -> None:
            progress.update(task, completed=record.number)

        return run_scrimmage(specs, config, out_dir, on_hand=advance)


def _report(console: Console, result: MatchResult, out_dir: Path) -> None:
    console.print(result_table(result))
    for line in describe_faults(result):
        console.print(line, highlight=False)
    console.print(f"Logs: {out_dir}/ (gamelog.txt, hands.jsonl, summary.json)", highlight=False)
