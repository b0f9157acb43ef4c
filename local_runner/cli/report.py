"""``pokerbots report``: a match, a duplicate match or a tournament as one self-contained
HTML file."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..view.report import is_tournament, match_report, tournament_report

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``report`` subcommand."""
    parser = subparsers.add_parser(
        "report",
        help="write a match or tournament report as one HTML file",
        description=(
            "Write RUN/report.html: the result with intervals, the bankroll chart, statistics "
            "per bot (VPIP, PFR, aggression, showdowns, by street and by position), a "
            "searchable hand list and a hand viewer. It needs no network: open it from the "
            "file. For a duplicate match's folder, one page has the pair result and every "
            "leg. For a tournament directory, each match gets its report and report.html "
            "holds both rankings, the cross table as a heat map and links to the matches."
        ),
    )
    parser.add_argument(
        "run_dir", type=Path, metavar="RUN", help="a run, duplicate match or tournament directory"
    )
    parser.add_argument("--out", type=Path, help="the HTML file to write (default RUN/report.html)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the report; 0 when written, 2 when the run cannot be read."""
    console = Console(highlight=False, soft_wrap=True)
    if is_tournament(args.run_dir):
        path, problems = tournament_report(args.run_dir, args.out)
        for problem in problems:
            console.print(f"[bold yellow]warning:[/] {escape(problem)}")
    else:
        path = match_report(args.run_dir, args.out)
    size = path.stat().st_size
    console.print(f"Report: {escape(str(path))} ({size / 1024:.0f} KiB)")
    return 0
