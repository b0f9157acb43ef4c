"""``pokerbots export``: a run's hands as PHH or as an ACPC dealer log; and ``--phh`` on a match."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..runs.errors import RunError
from ..runs.layout import HANDS_FILE, PHH_FILE, leg_runs
from ..runs.reader import open_run
from ..view.acpc import write_acpc_log
from ..view.phh import write_phhs

__all__ = ["export_run", "export_runs", "register", "run"]


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
        help=(
            "a run directory (--out of a scrimmage, or a tournament's matches/<id>); a "
            "duplicate match's folder exports each leg"
        ),
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


def export_runs(run_dir: Path, fmt: str, out_dir: Path | None) -> list[tuple[Path, int]]:
    """Export a run, or each leg of a duplicate match's folder; the files and hand counts.

    A leg is written into its own folder, or into ``out_dir`` named after the leg
    (``half-1.phhs``, ``half-2.phhs``).  Raises RunError.
    """
    legs = [] if (run_dir / HANDS_FILE).is_file() else leg_runs(run_dir)
    return [export_run(leg, fmt, out_dir or leg) for leg in legs or [run_dir]]


def run(args: argparse.Namespace) -> int:
    """Export the run; 0 when written, 2 when the run cannot be read or converted."""
    console = Console(soft_wrap=True, highlight=False)
    for path, count in export_runs(args.run_dir, args.format, args.out):
        console.print(f"Wrote {count} hands to {escape(str(path))}")
    return 0
