"""``pokerbots scrimmage``: play a match between two bots and show the result."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sdk.games import ACPC_DEFAULT_GAME, VARIANTS

from ..bots.builtin import BUILTIN_BOTS
from ..engine.faults import FaultKind
from ..engine.records import HandRecord
from ..programs.interpreter import choose_python
from ..results.explain import result_notes, start_failure_lines
from ..results.stats import Summary, ci_sentence, table_verdict
from ..results.table import TableResult
from ..runs.errors import RunError
from ..runs.layout import PHH_FILE, leg_runs
from ..runs.summary import summary_content
from ..submission.infer import infer_game
from ..submission.metadata import declared_variant
from ..tables.config import ScrimmageConfig, clock_line, load_config
from ..tables.spec import BotSpec, UsageError
from ..tables.table import planned_legs, play_table
from .arguments import VARIANT_HELP, non_negative_int, positive_int, seconds, variant_name
from .console import make_console, print_warning
from .outputs import prepare_scrimmage_folder
from .progress import PlainProgress
from .render import describe_faults, result_table

__all__ = ["add_phh_option", "infer_table_game", "register", "run"]

DEFAULT_OPPONENT = "builtin:random"
#: The exit status when a bot failed to build or never connected (no match was played).
NOT_STARTED = 3


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
        from .export import export_run  # the PHH writer, only when asked for

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


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scrimmage`` subcommand."""
    parser = subparsers.add_parser(
        "scrimmage",
        help="play a match between two bots",
        description=(
            "Play a match between two bots (three in acpc-3pl). A BOT is a directory holding "
            "commands.json or "
            f"startme.sh, or builtin:NAME ({', '.join(BUILTIN_BOTS)}). With no BOT, the "
            f"repository's skeleton/ plays {DEFAULT_OPPONENT}; with one BOT, that bot does."
        ),
    )
    parser.add_argument("bots", nargs="*", metavar="BOT", help="up to two bots (three in acpc-3pl)")
    parser.add_argument(
        "--variant",
        type=variant_name,
        choices=VARIANTS,
        help="the game (default: the config's, else the one the bots' README Variant lines or "
        f"their files name, else nlhe; {VARIANT_HELP})",
    )
    parser.add_argument("--rounds", type=positive_int, help="hands to play (default 1000)")
    parser.add_argument(
        "--game-clock",
        type=seconds,
        metavar="SECONDS",
        help="each bot's thinking time for the whole match (default: the game's clock, in "
        "proportion to --rounds: 30 s per 1,000 hands in nlhe)",
    )
    parser.add_argument(
        "--seed", type=non_negative_int, help="seed for the deal (default: random, recorded)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="output directory (default: runs/scrimmage-TIME); a previous scrimmage's files "
        "in it are removed first, a folder holding anything else is refused",
    )
    parser.add_argument("--config", type=Path, help="a TOML match config (flags override it)")
    parser.add_argument(
        "--json", action="store_true", help="print summary.json to stdout instead of tables"
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play the deals in every seating, bots restarted between legs (heads-up: twice, "
        "seats swapped; three-handed: the six seatings of the ACPC rules); report each leg and "
        "the deals",
    )
    parser.add_argument(
        "--plot", action="store_true", help="also write bankroll.png (needs matplotlib)"
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="run each bot directory in a bubblewrap sandbox: no network, only its own folder "
        "writable (needs the bwrap command: sudo apt-get install bubblewrap)",
    )
    parser.add_argument(
        "--game",
        type=Path,
        metavar="FILE",
        help="an ACPC game definition file (GAMEDEF ... END GAMEDEF) to play instead of a variant",
    )
    parser.add_argument(
        "--python",
        metavar="PYTHON",
        help='the interpreter bots get as python3: "auto" (default: the python3 on PATH if it '
        'has eval7 installed, else the kit\'s), "path", "kit", or an interpreter\'s path',
    )
    parser.set_defaults(handler=run)
    add_phh_option(parser)


def find_skeleton() -> Path | None:
    """The starter bot to play when no bot is named: ``./skeleton`` or the kit's own."""
    for candidate in (Path("skeleton"), Path(__file__).resolve().parents[2] / "skeleton"):
        if (candidate / "commands.json").is_file() or (candidate / "startme.sh").is_file():
            return candidate
    return None


def infer_table_game(specs: Sequence[BotSpec]) -> tuple[str, str] | None:
    """The game the bot directories among ``specs`` were written for, and in words why; None
    when none of them says.

    Each bot's game is :func:`~local_runner.submission.infer.infer_game`'s (its README's
    Variant line, then the identifiers of one season's skeleton in its files), else
    ``acpc-2pn`` for a bot that speaks the ACPC wire (it starts from startme.sh alone, or its
    commands.json says so).  Raises :class:`UsageError`, naming ``--variant``, when a bot's
    files name more than one game or two bots name different games.
    """
    found: dict[str, list[tuple[str, str]]] = {}  # game -> (bot, why), in the bots' order
    for spec in specs:
        program = spec.program
        if program is None:
            continue
        root = program.directory
        inference = infer_game(root, declared_variant(root))
        if inference.ambiguous:
            raise UsageError(f"{spec.name}: {inference.reason}.")
        name, why = inference.name, inference.reason
        if name is None and (program.protocol == "acpc" or program.source == "startme.sh"):
            name = ACPC_DEFAULT_GAME
            why = (
                f"{why}, and it speaks the ACPC wire, so the ACPC heads-up no-limit game is played"
            )
        if name is not None:
            found.setdefault(name, []).append((spec.name, why))
    if len(found) > 1:
        each = "; ".join(
            f"{bots[0][0]} plays {game} ({bots[0][1]})" for game, bots in found.items()
        )
        raise UsageError(
            f"The bots are written for different games: {each}. Pass --variant with the game "
            "to play."
        )
    if not found:
        return None
    ((game, bots),) = found.items()
    others = [bot for bot, _ in bots[1:]]
    also = f"; {', '.join(others)} as well" if others else ""
    return game, f"{bots[0][0]}: {bots[0][1]}{also}"


def _game_of_bots(names: list[str], default: str) -> tuple[str | None, str | None]:
    """The game the named bots (or the skeleton, when none is named) were written for, and
    the console's line saying so; ``(None, line)`` keeps ``default`` when none says which,
    ``(None, None)`` when no bot is a directory."""
    if not names:
        skeleton = find_skeleton()
        names = [] if skeleton is None else [str(skeleton)]
    specs = []
    for text in names:
        # A bot that cannot be read is refused later, in its turn, with its own sentence.
        with suppress(UsageError):
            specs.append(BotSpec.parse(text))
    inferred = infer_table_game(specs)
    if inferred is not None:
        return inferred[0], f"Game: {inferred[0]} ({inferred[1]}); --variant chooses another."
    if not any(spec.program for spec in specs):
        return None, None
    return None, (
        f"Game: {default} (no bot's README Variant line or files name a game, so {default}, "
        "the default, is played); --variant chooses another."
    )


def _notice(console: Console) -> Callable[[str], None]:
    """Notices while bots start (a bot still being waited for), printed where the progress
    bar is, so that a terminal shows them above it."""

    def say(line: str) -> None:
        console.print(line, markup=False, highlight=False, soft_wrap=True)

    return say


def _bot_texts(names: list[str], seats: int = 2, duplicate: bool = False) -> list[str]:
    if len(names) > seats:
        raise UsageError(
            f"This game seats {seats} bots; {len(names)} were given."
            + (" Choose a game for more with --variant (acpc-3pl)." if seats == 2 else "")
        )
    if duplicate and seats > 2 and len(names) < seats:
        # A duplicate match compares the bots named; a seat filled silently would change that.
        raise UsageError(
            f"A duplicate match of this game seats {seats} bots in every seating, but "
            f"{len(names)} were given; name {seats} (builtin:NAME fills a seat, for example "
            f"{DEFAULT_OPPONENT})."
        )
    if not names:
        skeleton = find_skeleton()
        if skeleton is None:
            raise UsageError(
                "No bot was named and there is no skeleton/ here to play; "
                "name a bot directory, or run from the kit's checkout."
            )
        names = [str(skeleton)]
    while len(names) < seats:  # the seats left get the default opponent (seats_line says so)
        names.append(DEFAULT_OPPONENT)
    return names


def seats_line(named: int, seats: int) -> str | None:
    """One line saying which seats :func:`_bot_texts` filled with the default opponent, when
    fewer than ``seats`` bots were ``named`` (None when every seat was named; with none
    named, the skeleton takes seat 1).

    >>> print(seats_line(2, 3))
    Seat 3: builtin:random (2 bots were named for the game's 3 seats).
    >>> print(seats_line(1, 4))
    Seats 2, 3 and 4: builtin:random (1 bot was named for the game's 4 seats).
    >>> print(seats_line(0, 2))
    Seat 2: builtin:random (no bot was named, so the skeleton plays seat 1 of the game's 2).
    """
    if named >= seats:
        return None
    filled = [str(seat) for seat in range(max(named, 1) + 1, seats + 1)]
    which = f"Seat {filled[0]}" if len(filled) == 1 else f"Seats {', '.join(filled[:-1])}"
    which += f" and {filled[-1]}" if len(filled) > 1 else ""
    if named == 0:
        why = f"no bot was named, so the skeleton plays seat 1 of the game's {seats}"
    else:
        bots = "1 bot was" if named == 1 else f"{named} bots were"
        why = f"{bots} named for the game's {seats} seats"
    return f"{which}: {DEFAULT_OPPONENT} ({why})."


def run(args: argparse.Namespace) -> int:
    """Play the scrimmage the arguments describe; 0 when the match completed."""
    console = make_console(stderr=args.json)
    error_console = make_console(stderr=True)
    if args.plot:  # an optional extra a flag needs is checked before the match, not after
        from ..results.plots import require_plotting

        require_plotting()
    config = load_config(args.config)
    variant, game_line = args.variant, None
    if variant is None and args.game is None and not config.names_game:
        variant, game_line = _game_of_bots(list(args.bots), config.rules.variant)
    config = config.with_overrides(
        variant=variant,
        rounds=args.rounds,
        seed=args.seed,
        python=args.python,
        game=args.game,
        game_clock=args.game_clock,
    )
    seats = config.rules.seats
    texts = _bot_texts(list(args.bots), seats, args.duplicate)
    specs = [BotSpec.parse(text) for text in texts]
    filled = seats_line(len(args.bots), seats)
    for line in (game_line, filled, clock_line(config)):
        if line is not None:
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    out_dir = args.out or Path("runs") / time.strftime("scrimmage-%Y%m%d-%H%M%S")
    cleared = prepare_scrimmage_folder(out_dir)
    if cleared:
        console.print(
            f"Removed the previous scrimmage's files from {out_dir}: {', '.join(cleared)}."
        )
    show = not args.json
    table = _play(
        specs, config, out_dir, console, show, args.sandbox, args.duplicate, _notice(console)
    )
    if table.not_started:
        # A bot that cannot start gets no match: say why, with the end of its log.
        python = choose_python(config.runner.python)
        for leg, directory in zip(table.legs, table.directories, strict=False):
            for line in start_failure_lines(leg, out_dir / directory, python):
                error_console.print(line, markup=False, highlight=False)
        if args.json:
            print(json.dumps(summary_content(table.to_dict()), indent=2))
        return NOT_STARTED
    if args.json:
        print(json.dumps(summary_content(table.to_dict()), indent=2))
    else:
        _report(console, table, out_dir)
        for leg in table.legs:
            for line in result_notes(leg):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
    if args.plot:
        _plot(out_dir, console, error_console)
    if table.interrupted:
        error_console.print(
            f"Interrupted: {table.hands_played} hands were played; their logs are in {out_dir}."
        )
        return 130
    return 0


def _plot(out_dir: Path, console: Console, error_console: Console) -> None:
    from ..results.plots import PlotUnavailable, plot_match_bankroll

    try:
        path = plot_match_bankroll(out_dir)
    except PlotUnavailable as error:
        print_warning(error_console, str(error))
        return
    console.print(f"Chart: {path}")


@contextmanager
def _progress(
    console: Console, show: bool, description: str, total: int
) -> Iterator[Callable[[HandRecord], None] | None]:
    """A progress bar over ``total`` hands, as a hand observer (None when not shown).

    Off a terminal there is no bar: a plain line now and then says how far the match is.
    """
    if not show:
        yield None
        return
    if not console.is_terminal:
        plain = PlainProgress(console, description, total, "hands")

        def count(record: HandRecord) -> None:
            plain.advance()

        yield count
        return
    # The bar's modules only where a bar is drawn (they are a good part of a command's start).
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from .progress_bar import FittingProgress

    columns = (
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeRemainingColumn(),
    )
    with FittingProgress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(description, total=total)

        def advance(record: HandRecord) -> None:
            progress.advance(task)

        yield advance


def _play(
    specs: list[BotSpec],
    config: ScrimmageConfig,
    out_dir: Path,
    console: Console,
    show_progress: bool,
    sandbox: bool,
    duplicate: bool,
    notice: Callable[[str], None] | None = None,
) -> TableResult:
    description = " vs ".join(spec.name for spec in specs) + (", duplicate" if duplicate else "")
    total = planned_legs(config.rules.seats, duplicate) * config.rules.num_rounds
    with _progress(console, show_progress, description, total) as advance:
        return play_table(
            specs, config, out_dir, duplicate, on_hand=advance, sandbox=sandbox, notice=notice
        )


def _verdict_lines(
    names: Sequence[str],
    summaries: Sequence[Summary] | None,
    duplicate: bool = False,
    samples: str | None = None,
) -> list[str]:
    if summaries is None:
        return ["No hands were played, so there are no statistics."]
    lines = [
        ci_sentence(name, s, duplicate, samples) for name, s in zip(names, summaries, strict=True)
    ]
    return [*lines, f"Verdict: {table_verdict(names, summaries)}."]


#: Faults whose cause is usually in what the bot printed (a traceback, a build error).
_SEE_THE_LOG = (FaultKind.CRASH, FaultKind.BOT_ERROR)


def _pair_table(duplicate: TableResult) -> Table:
    """Each bot's chips (per half, heads-up) and over the deals, with mbb/hand and its interval."""
    first = duplicate.legs[0]
    legs = len(duplicate.orders)
    if heads_up(duplicate):
        title = f"{first.rules.variant} · duplicate · {duplicate.samples} hand pairs"
        columns = ["half 1", "half 2"]
    else:  # six legs would not fit a terminal's width: they have their own table
        title = f"{first.rules.variant} · duplicate · {duplicate.samples} deals in {legs} seatings"
        columns = []
    table = Table(title=f"{title} · seed {first.seed}", title_justify="left")
    table.add_column("bot")
    for column in (*columns, "total", "mbb/hand", "95% CI"):
        table.add_column(column, justify="right")
    summaries = duplicate.summaries()
    for bot, name in enumerate(duplicate.names):
        played = [f"{duplicate.player(leg, bot).bankroll:+d}" for leg in range(len(duplicate.legs))]
        played = (played + ["-"] * (legs - len(played))) if columns else []
        if summaries is None:
            rate, interval = "-", "-"
        else:
            mbb = summaries[bot].mbb_per_hand
            rate, interval = f"{mbb.mean:+.1f}", f"{mbb.low:+.1f} to {mbb.high:+.1f}"
        table.add_row(name, *played, f"{duplicate.bankrolls[bot]:+d}", rate, interval)
    return table


def _legs_table(duplicate: TableResult) -> Table:
    """Three-handed: each leg's seating (button first, in its first hand) and chips."""
    table = Table(title="Legs: the same deals in every seating", title_justify="left")
    table.add_column("leg")
    # Lists of names and of numbers: they wrap between their items (fit_table).
    table.add_column("button, small blind, big blind in hand 1", overflow="fold")
    table.add_column("chips", justify="right", overflow="fold")
    for directory, leg in zip(duplicate.directories, duplicate.legs, strict=False):
        names = ", ".join(player.name for player in leg.players)
        chips = ", ".join(f"{player.bankroll:+d}" for player in leg.players)
        table.add_row(directory, names, chips)
    return table


def heads_up(table: TableResult) -> bool:
    """Whether two bots played (a duplicate's legs are then two halves)."""
    return len(table.names) == 2


def _report(console: Console, table: TableResult, out_dir: Path) -> None:
    """The result for people: each leg's table (three-handed duplicates: one legs table),
    the faults, the bots' intervals and the verdict."""
    for directory, leg in zip(table.directories, table.legs, strict=False):
        if heads_up(table) or not table.duplicate:
            leg_table = result_table(leg)
            if directory:
                leg_table.title = f"{directory}: {leg_table.title}"
            console.print(leg_table)
        else:
            for line in describe_faults(leg):
                console.print(f"{directory}: {line}")
        if table.duplicate and heads_up(table):
            for line in describe_faults(leg):
                console.print(line)
    if table.duplicate:
        if not heads_up(table):
            console.print(_legs_table(table))
        console.print(_pair_table(table))
        samples = None if heads_up(table) else f"deals of {len(table.orders)} hands"
        for line in _verdict_lines(table.names, table.summaries(), True, samples):
            console.print(line)
        first, last = table.directories[0], table.directories[-1]
        legs, joiner = ("each half's", "and") if heads_up(table) else ("each leg's", "to")
        console.print(f"Logs: {out_dir}/ (summary.json; {legs} logs in {first}/ {joiner} {last}/)")
        return
    (leg,) = table.legs
    for line in _verdict_lines(table.names, table.summaries()):
        console.print(line)
    for line in describe_faults(leg):
        console.print(line)
    for player in leg.players:
        if any(player.fault_counts.get(kind) for kind in _SEE_THE_LOG):
            console.print(f"What {player.name} printed is in {out_dir / (player.name + '.log')}")
    console.print(f"Logs: {out_dir}/ (gamelog.txt, hands.jsonl, summary.json)")
