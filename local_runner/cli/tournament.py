"""``pokerbots tournament``: a round robin, live standings, ACPC rankings and a cross table
(heads-up) or a group table (a 3-seat game)."""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import Executor
from pathlib import Path

from rich.console import Console, Group
from rich.live import Live
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from sdk.games import VARIANTS

from ..results.standings import MatchSummary, Standings
from ..results.stats import Summary
from ..runs.layout import CROSS_TABLE_PNG, MATCHES_FILE, RESULTS_FILE
from ..tables.config import ScrimmageConfig, clock_line, load_config
from ..tables.executors import open_executor
from ..tables.spec import UsageError
from ..tables.tournament import (
    TournamentPlan,
    TournamentProgress,
    TournamentResult,
    load_plan,
    plan_tournament,
    run_tournament,
)
from .arguments import VARIANT_HELP, non_negative_int, positive_int, seconds, variant_name
from .console import fit_table, make_console, print_warning, styled
from .progress import Heartbeat, elapsed
from .progress_bar import FittingProgress

__all__ = ["register", "run"]

DEFAULT_MATCHES = 2
#: Seconds between two redraws of the live standings, at least.
STANDINGS_EVERY = 1.0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``tournament`` subcommand."""
    parser = subparsers.add_parser(
        "tournament",
        help="a round robin between bots, with bankroll and instant run-off rankings",
        description=(
            "Every pair of bots (every group of three in acpc-3pl) plays --matches matches "
            "(duplicate matches with --duplicate), with seeds derived from one master seed, in "
            "parallel on this machine or on a Dask cluster. Bots are ranked by total bankroll "
            "and by bankroll instant run-off (ACPC rules). A BOT is a bot directory or "
            "builtin:NAME."
        ),
    )
    parser.add_argument(
        "bots", nargs="*", metavar="BOT", help="two or more bots (three or more in acpc-3pl)"
    )
    parser.add_argument(
        "--variant",
        type=variant_name,
        choices=VARIANTS,
        help=f"the game (default nlhe; {VARIANT_HELP})",
    )
    parser.add_argument(
        "--rounds", type=positive_int, help="hands per match (per leg if duplicate)"
    )
    parser.add_argument(
        "--game-clock",
        type=seconds,
        metavar="SECONDS",
        help="each bot's thinking time per match (default: the game's clock, in proportion "
        "to --rounds: 30 s per 1,000 hands in nlhe)",
    )
    parser.add_argument(
        "--matches",
        type=positive_int,
        help=f"matches per pair, or per group of three in acpc-3pl (default {DEFAULT_MATCHES})",
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play every match as a duplicate match (two legs heads-up, six three-handed)",
    )
    parser.add_argument(
        "--workers", type=positive_int, help="parallel matches on this machine (default: cores)"
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="run on the Dask cluster at ADDRESS (tcp://...)"
    )
    parser.add_argument("--seed", type=non_negative_int, help="master seed (default: random)")
    parser.add_argument("--out", type=Path, help="output directory (default runs/tournament-TIME)")
    parser.add_argument("--config", type=Path, help="a TOML match config (flags override it)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--resume", action="store_true", help="continue the interrupted tournament in --out"
    )
    parser.add_argument("--plot", action="store_true", help="write PNG charts (needs matplotlib)")
    parser.set_defaults(handler=run)


def _plan(args: argparse.Namespace) -> tuple[TournamentPlan, Path]:
    """The tournament the arguments describe; with --resume, what is not given is as stored."""
    if args.resume and args.out is None:
        raise UsageError("--resume needs --out DIR: the directory of the tournament to continue.")
    out_dir: Path = args.out or Path("runs") / time.strftime("tournament-%Y%m%d-%H%M%S")
    stored = load_plan(out_dir) if args.resume else None
    if args.resume and stored is None:
        raise UsageError(
            f"There is no tournament to resume in {out_dir} (it has no tournament.json); "
            "start it without --resume."
        )
    if stored is None:
        config = load_config(args.config).with_overrides(
            variant=args.variant, rounds=args.rounds, seed=args.seed, game_clock=args.game_clock
        )
        plan = plan_tournament(args.bots, config, args.matches or DEFAULT_MATCHES, args.duplicate)
        return plan, out_dir
    base: ScrimmageConfig = load_config(args.config) if args.config else stored.config
    config = base.with_overrides(
        variant=args.variant,
        rounds=args.rounds,
        seed=stored.config.seed if args.seed is None else args.seed,
        game_clock=args.game_clock,
    )
    bots = args.bots or [entrant.source for entrant in stored.entrants]
    matches = args.matches or stored.matches_per_pair
    return plan_tournament(bots, config, matches, args.duplicate or stored.duplicate), out_dir


def run(args: argparse.Namespace) -> int:
    """Play the tournament the arguments describe; 0 when every match finished."""
    console = make_console(stderr=args.json)
    error_console = make_console(stderr=True)
    if args.plot:  # the optional extra the flag needs, checked before any match is played
        from ..results.plots import require_plotting

        require_plotting()
    try:
        plan, out_dir = _plan(args)
        if (line := clock_line(plan.config)) is not None:
            console.print(line, markup=False, highlight=False, soft_wrap=True)
        with open_executor(args.workers, args.scheduler) as executor:
            result = _play(plan, out_dir, executor, args, console)
    except KeyboardInterrupt:  # before the first match was scheduled
        error_console.print("Interrupted before any match was played.")
        return 130
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        _report(console, result, out_dir)
    if args.plot:
        _plot(result, out_dir, console, error_console)
    for failure in result.failures:
        error_console.print(
            styled((f"match {failure.match_id} failed:", "bold red"), " ", failure.message)
        )
    total = len(plan.matches())
    if result.interrupted:
        error_console.print(
            f"Interrupted: {len(result.matches)} of {total} matches are recorded in {out_dir}; "
            f"run `pokerbots tournament --resume --out {out_dir}` to finish."
        )
        return 130
    if result.failures:
        error_console.print(
            f"{len(result.failures)} of {total} matches failed; fix the cause and run "
            f"`pokerbots tournament --resume --out {out_dir}` to play them."
        )
        return 1
    return 0


def _play(
    plan: TournamentPlan,
    out_dir: Path,
    executor: Executor,
    args: argparse.Namespace,
    console: Console,
) -> TournamentResult:
    total = len(plan.matches())
    ship = args.scheduler is not None
    if args.json:
        return run_tournament(plan, out_dir, executor, resume=args.resume, ship_bots=ship)
    if not console.is_terminal:
        # A line per finished match, and a plain progress line while long matches run.
        started = time.monotonic()
        done = [0]

        def still_playing() -> str:
            return (
                f"{done[0]}/{total} matches recorded after {elapsed(time.monotonic() - started)}"
                "; still playing"
            )

        with Heartbeat(console, still_playing) as heartbeat:

            def log_line(summary: MatchSummary, progress: TournamentProgress) -> None:
                done[0] = progress.matches
                chips = ", ".join(
                    f"{name} {chips:+d}"
                    for name, chips in zip(summary.players, summary.chips, strict=True)
                )
                console.print(f"[{progress.matches}/{total}] match {summary.match_id}: {chips}")
                heartbeat.touch()

            return run_tournament(
                plan, out_dir, executor, resume=args.resume, ship_bots=ship, on_match=log_line
            )
    progress = FittingProgress(
        TextColumn("matches", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )
    task = progress.add_task("matches", total=total)
    drawn = [-math.inf, 0.0]  # when the standings were last drawn, and what that took
    with Live(Group(progress), console=console, refresh_per_second=4, transient=True) as live:

        def update(summary: MatchSummary, recorded: TournamentProgress) -> None:
            progress.update(task, completed=recorded.matches)
            # The standings' cost grows with the matches: redraw them at most once a second,
            # and never spend more than a twentieth of the time on them, so that the
            # display does not hold back the recording of the next matches.
            started = time.monotonic()
            if started - drawn[0] < max(STANDINGS_EVERY, 20 * drawn[1]):
                return
            standing = fit_table(console, bankroll_table(recorded.standings(), "Standings so far"))
            live.update(Group(progress, standing))
            drawn[:] = [time.monotonic(), time.monotonic() - started]

        return run_tournament(
            plan, out_dir, executor, resume=args.resume, ship_bots=ship, on_match=update
        )


def _number(value: float, sign: str = "+") -> str:
    """A rate for a table: one decimal below 100, whole numbers above; ``inf`` spelled out."""
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:{sign}.1f}" if abs(value) < 100 else f"{value:{sign}.0f}"


def _rate(summary: Summary | None) -> tuple[str, str]:
    """mbb/hand and its 95% interval as text (``-`` before any hand)."""
    if summary is None:
        return "-", "-"
    mbb = summary.mbb_per_hand
    return _number(mbb.mean), f"{_number(mbb.low)} to {_number(mbb.high)}"


def bankroll_table(standings: Standings, title: str = "Total bankroll") -> Table:
    """The bankroll ranking with each bot's mbb/hand and its 95% interval."""
    table = Table(title=title, title_justify="left")
    table.add_column("rank", justify="right")
    table.add_column("bot")
    table.add_column("chips", justify="right")
    table.add_column("mbb/hand", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("matches", justify="right")
    for entry in standings.bankroll:
        rate, interval = _rate(standings.bots[entry.bot].summary)
        table.add_row(
            str(entry.rank), entry.bot, f"{entry.bankroll:+d}", rate, interval, str(entry.matches)
        )
    return table


def runoff_table(standings: Standings) -> Table:
    """The bankroll instant run-off ranking, with each bot's chips in its last contested round."""
    table = Table(title="Bankroll instant run-off", title_justify="left")
    table.add_column("rank", justify="right")
    table.add_column("bot")
    table.add_column("chips in its last round", justify="right")
    table.add_column("against", justify="right")
    for entry in standings.instant_runoff:
        table.add_row(
            str(entry.rank), entry.bot, f"{entry.bankroll:+d}", f"{entry.matches} matches"
        )
    return table


def cross_table(standings: Standings, bots: list[str]) -> Table:
    """Row bot's mbb/hand against column bot, ± the half-width of its 95% interval.

    Green: the row bot is ahead (the interval excludes zero); red: behind.
    """
    table = Table(
        title="Cross table: mbb/hand of row against column (±95% CI)", title_justify="left"
    )
    table.add_column("")
    for bot in bots:
        table.add_column(bot, justify="right")
    for row in bots:
        cells: list[str | Text] = []
        for col in bots:
            pair = standings.cross.get(row, {}).get(col)
            if pair is None or pair.summary is None:
                cells.append("·" if row == col else "-")
                continue
            mbb = pair.summary.mbb_per_hand
            text = f"{_number(mbb.mean)} ±{_number((mbb.high - mbb.low) / 2, '')}"
            style = "green" if mbb.low > 0 else "red" if mbb.high < 0 else "dim"
            cells.append(Text(text, style=style))
        table.add_row(row, *cells)
    return table


def group_table(standings: Standings) -> Table:
    """A 3-seat tournament: each group's table, with each bot's mbb/hand and 95% interval there.

    Green: the bot is ahead of its table (the interval excludes zero); red: behind.
    """
    table = Table(title="Groups: each bot's result at each table", title_justify="left")
    table.add_column("group")
    table.add_column("bot")
    table.add_column("chips", justify="right")
    table.add_column("mbb/hand", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("matches", justify="right")
    for number, group in enumerate(standings.groups, start=1):
        for index, (bot, chips, summary) in enumerate(
            zip(group.bots, group.chips, group.summaries, strict=True)
        ):
            rate, interval = _rate(summary)
            style = "dim"
            if summary is not None:
                mbb = summary.mbb_per_hand
                style = "green" if mbb.low > 0 else "red" if mbb.high < 0 else "dim"
            table.add_row(
                str(number) if index == 0 else "",
                bot,
                f"{chips:+d}",
                rate,
                Text(interval, style=style),
                str(group.matches) if index == 0 else "",
                end_section=index == len(group.bots) - 1,
            )
    return table


def _report(console: Console, result: TournamentResult, out_dir: Path) -> None:
    plan = result.plan
    rules = plan.config.rules
    kind = "duplicate matches" if plan.duplicate else "matches"
    group = "pair" if plan.table == 2 else "group of three"
    console.print(
        f"{rules.variant} · {len(plan.entrants)} bots · {plan.matches_per_pair} {kind} per {group} "
        f"of {rules.num_rounds} hands · master seed {plan.config.seed} · "
        f"{len(result.matches)}/{len(plan.matches())} matches played"
    )
    standings = result.standings
    console.print(bankroll_table(standings))
    console.print(runoff_table(standings))
    if plan.table == 2:
        console.print(cross_table(standings, plan.names))
    else:
        console.print(group_table(standings))
    for match in result.matches:
        for name, reason in zip(match.players, match.forfeits, strict=True):
            if reason is not None:
                console.print(
                    f"match {match.match_id}: bot {name} forfeited ({reason}); every decision "
                    f"of its was played by default. Its log: {match.log_dir}"
                )
    faulty = [m for m in result.matches if any(any(faults) for faults in m.faults)]
    for match in faulty[:10]:
        for name, faults in zip(match.players, match.faults, strict=True):
            if faults:
                listed = ", ".join(f"{count} {kind}" for kind, count in faults.items())
                console.print(
                    f"match {match.match_id}: bot {name} had faults ({listed}); see {match.log_dir}"
                )
    console.print(
        f"Results: {out_dir / RESULTS_FILE}; one line per match in {out_dir / MATCHES_FILE}"
    )


def _plot(
    result: TournamentResult, out_dir: Path, console: Console, error_console: Console
) -> None:
    from ..results.plots import (
        PlotUnavailable,
        plot_cross_table,
        plot_match_bankroll,
    )

    try:
        charts = ""
        if result.plan.table == 2:  # a cross table pairs heads-up results
            path = out_dir / CROSS_TABLE_PNG
            charts = f"{plot_cross_table(result.standings, path, result.plan.names)}, and "
        drawn = 0
        for match in result.matches:
            match_dir = Path(match.log_dir)
            try:
                plot_match_bankroll(match_dir)
            except FileNotFoundError:  # logs of matches played on other machines stay there
                continue
            drawn += 1
    except PlotUnavailable as error:
        print_warning(error_console, str(error))
        return
    console.print(f"Charts: {charts}bankroll.png in {drawn} match directories")
