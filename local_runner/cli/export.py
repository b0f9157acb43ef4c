"""``pokerbots export``: a run's hands as PHH or as an ACPC dealer log; and ``--phh`` on a match."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..runs.errors import RunError
from ..runs.layout import PHH_FILE, leg_runs
from ..runs.reader import open_run
from ..view.acpc import write_acpc_log
from ..view.phh import write_phhs

__all__ = ["add_phh_option", "export_run", "register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``export`` subcommand."""
    parser = subparsers.add_parser(
        "export",
        help="write a run's hands as PHH (PokerKit) or as an ACPC dealer log",
        description=(
            "Write every hand of a run as a hand history: --format phh writes RUN_NAME.phhs "
            "(PokerKit's PHH, one table per hand), --format acpc writes RUN_NAME.log (the ACPC "
            "dealer's STATE lines; hold'em only: nlhe and the acpc-* games, not swap, auction, "
            "bounty or toss)."
        ),
    )
    parser.add_argument(
        "run_dir",
        type=Path,
        metavar="RUN",
        help="a run directory (--out of a scrimmage, or a tournament's matches/<id>)",
    )
    parser.add_argument(
        "--format", choices=["phh", "acpc"], default="phh", help="phh (default) or acpc"
    )
    parser.add_argument("--out", type=Path, help="directory to write into (default: RUN)")
    parser.set_defaults(handler=run)


def export_run(run_dir: Path, fmt: str, out_dir: Path) -> tuple[Path, int]:
    """Export one run; returns the file written and the number of hands.  Raises RunError."""
    run_log = open_run(run_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise RunError(f"Cannot create the output directory {out_dir}: {error}.") from None
    name = run_dir.resolve().name or "run"
    if fmt == "acpc":
        path = out_dir / f"{name}.log"
        return path, write_acpc_log(run_log, path)
    path = out_dir / (PHH_FILE if out_dir.resolve() == run_dir.resolve() else f"{name}.phhs")
    return path, write_phhs(run_log, path)


def run(args: argparse.Namespace) -> int:
    """Export the run; 0 when written, 2 when the run cannot be read or converted."""
    console = Console(soft_wrap=True, highlight=False)
    path, count = export_run(args.run_dir, args.format, args.out or args.run_dir)
    console.print(f"Wrote {count} hands to {escape(str(path))}")
    return 0


def add_phh_option(parser: argparse.ArgumentParser) -> None:
    """Give a match subcommand ``--phh``: after the match, write its hands as PHH there."""
    parser.add_argument(
        "--phh",
        action="store_true",
        help=f"also write every hand as PHH ({PHH_FILE} in the output directory)",
    )
    play: Callable[[argparse.Namespace], int] = parser.get_default("handler")

    def play_then_export(args: argparse.Namespace) -> int:
        if args.phh and args.out is None:  # the match's own default, fixed now to find it after
            args.out = Path("runs") / time.strftime("scrimmage-%Y%m%d-%H%M%S")
        status = play(args)
        if not args.phh or status not in (0, 130):
            return status
        for run_dir in leg_runs(args.out) or [args.out]:  # a duplicate's legs, or the match
            try:
                path, count = export_run(run_dir, "phh", run_dir)
            except RunError as error:
                Console(stderr=True, soft_wrap=True).print(
                    f"[bold yellow]warning:[/] no PHH written: {escape(str(error))}",
                    highlight=False,
                )
                continue
            Console(stderr=bool(getattr(args, "json", False)), soft_wrap=True).print(
                f"PHH: {count} hands in {escape(str(path))}", highlight=False
            )
        return status

    parser.set_defaults(handler=play_then_export)
