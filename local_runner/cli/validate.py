"""``pokerbots validate``: check a submission and show each check with a verdict."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from sdk.games import VARIANTS

from ..submission.metadata import PROFILES
from ..validation import (
    CheckResult,
    Status,
    ValidateOptions,
    ValidateUsageError,
    ValidationReport,
    validate,
)
from ..validation.checks import format_bytes
from ..validation.options import ACPC_VALIDATION_HANDS, SMOKE_HANDS
from .arguments import VARIANT_HELP, non_negative_int, positive_int, seconds, variant_name
from .console import make_console, print_error

__all__ = [
    "add_validate_options",
    "options_from_args",
    "register",
    "render_report",
    "run",
    "show",
    "usage_error",
    "validate_with_status",
]

_STYLES = {Status.PASS: "green", Status.WARN: "yellow", Status.FAIL: "bold red", Status.SKIP: "dim"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``validate`` subcommand."""
    parser = subparsers.add_parser(
        "validate",
        help="check a submission the way a competition server would",
        description=(
            "Check a bot folder or its archive (.zip, .jar, .tar, .tar.gz, .tgz) the way a "
            "competition server would (--profile mit or acpc): safe to unpack, one bot folder, "
            "upload format, commands.json, start script, metadata, Python sources, vendored SDK, "
            "sizes and junk; then build it and play seeded smoke matches. Exit status 0: valid; "
            "1: not valid; 2: usage error."
        ),
    )
    parser.add_argument("path", type=Path, metavar="PATH", help="a bot folder or its archive")
    add_validate_options(parser)
    parser.set_defaults(handler=run)


def add_validate_options(parser: argparse.ArgumentParser) -> None:
    """Add the options shared by ``validate`` and ``package``."""
    defaults = ValidateOptions()
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        help="the competition: mit (commands.json, a zip) or acpc (README, startme.sh); "
        "default: the Profile line of the bot's README, else mit when it has commands.json",
    )
    parser.add_argument(
        "--variant",
        type=variant_name,
        choices=VARIANTS,
        help=f"the variant to play (default: README.txt's Variant; {VARIANT_HELP})",
    )
    parser.add_argument(
        "--game",
        type=Path,
        metavar="FILE",
        help="an ACPC game definition file to play instead of the variant's 2009 preset, as "
        "the ACPC server's check plays its own no-limit file (default: the file README's Game "
        "line names in the bot's folder)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the report as JSON: {ok, checks, stats}"
    )
    parser.add_argument("--strict", action="store_true", help="treat warnings as failures")
    parser.add_argument(
        "--hands",
        type=positive_int,
        default=None,
        help=f"in an ACPC game, hands in all against builtin:chump (default "
        f"{ACPC_VALIDATION_HANDS}, in matches of 3000, or 1000 with three players, as the "
        f"ACPC server's check); otherwise hands against builtin:random, and half as many "
        f"against builtin:checkcall (default {SMOKE_HANDS})",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=defaults.seed,
        help=f"seed of the smoke matches (default {defaults.seed})",
    )
    parser.add_argument(
        "--build-timeout",
        type=seconds,
        default=defaults.build_timeout,
        help=f"seconds for the build step (default {defaults.build_timeout:g}, the same as "
        "every match's [runner] build_timeout)",
    )
    parser.add_argument(
        "--connect-timeout",
        type=seconds,
        default=defaults.connect_timeout,
        help="seconds for the bot to connect (default: the competition's: 10 s in an MIT "
        "game, no limit in an ACPC game, as the ACPC server's check)",
    )
    parser.add_argument(
        "--reply-timeout",
        type=seconds,
        default=defaults.reply_timeout,
        help="seconds for any single reply (default: the competition's: 10 s in an MIT "
        "game, 600 s in an ACPC game)",
    )
    parser.add_argument(
        "--static-only",
        action="store_true",
        help="check the files only; do not build or play the bot",
    )
    parser.add_argument(
        "--sandbox", action="store_true", help="build and play the bot inside a bubblewrap sandbox"
    )


def options_from_args(args: argparse.Namespace) -> ValidateOptions:
    """The validation options the parsed arguments ask for.

    Raises :class:`ValidateUsageError` for values the options refuse.
    """
    try:
        return ValidateOptions(
            profile=args.profile,
            variant=args.variant,
            strict=args.strict,
            run_match=not args.static_only,
            hands=args.hands,
            seed=args.seed,
            game=args.game,
            build_timeout=args.build_timeout,
            connect_timeout=args.connect_timeout,
            reply_timeout=args.reply_timeout,
            sandbox=args.sandbox,
        )
    except ValueError as error:
        raise ValidateUsageError(str(error)) from None


def usage_error(errors: Console, error: object) -> int:
    """Print a usage error and return its exit status, 2."""
    print_error(errors, str(error))
    return 2


def _row(name: str, check: CheckResult, suffix: str = "") -> tuple[str, Status, Text]:
    message = Text(check.message + suffix)
    if check.hint and check.status is not Status.PASS:
        message.append(f"\nhint: {check.hint}", style="italic")
    return name, check.status, message


def _rows(report: ValidationReport) -> list[tuple[str, Status, Text]]:
    """One row per check; three or more checks skipped for the same reason share one row."""
    rows: list[tuple[str, Status, Text]] = []
    checks, index = report.checks, 0
    while index < len(checks):
        check, run = checks[index], 1
        while (
            check.status is Status.SKIP
            and index + run < len(checks)
            and checks[index + run].status is Status.SKIP
            and checks[index + run].message == check.message
        ):
            run += 1
        if run < 3:
            rows += [_row(other.name, other) for other in checks[index : index + run]]
        else:
            last = checks[index + run - 1].name
            rows.append(_row(f"{check.name} … {last}", check, f" ({run} checks)"))
        index += run
    return rows


def render_report(console: Console, report: ValidationReport) -> None:
    """Print the table of checks, the package's sizes and the verdict line."""
    table = Table(title="pokerbots validate", title_justify="left")
    table.add_column("check")
    table.add_column("status")
    table.add_column("message", overflow="fold")  # prose: wraps between words
    for name, status, message in _rows(report):
        table.add_row(name, Text(status.value, style=_STYLES[status]), message)
    console.print(table)
    stats = report.stats
    if "profile" in stats:
        console.print(
            Text(
                f"Checked for {stats['competition']} (profile {stats['profile']}: "
                f"{stats['profile_reason']}).",
                style="dim",
            )
        )
    if "variant_reason" in stats:
        console.print(Text(f"Game: {stats['variant']} ({stats['variant_reason']}).", style="dim"))
    sizes = [
        f"{stats.get('file_count', 0)} files and folders",
        f"{format_bytes(int(stats.get('uncompressed_bytes') or 0))} uncompressed",
    ]
    if stats.get("compressed_bytes") is not None:
        sizes.append(f"{format_bytes(int(stats['compressed_bytes']))} compressed")
    console.print(Text(", ".join(sizes), style="dim"))
    console.print(Text(report.verdict(), style="bold green" if report.ok else "bold red"))


def run(args: argparse.Namespace) -> int:
    """Validate the path the arguments name; 0 when valid, 1 when not, 2 on usage errors."""
    errors = make_console(stderr=True)
    try:
        options = options_from_args(args)
        report = validate_with_status(args.path, options, errors, args.json)
    except ValidateUsageError as error:
        return usage_error(errors, error)
    except KeyboardInterrupt:
        errors.print("Interrupted; the temporary copy was removed.")
        return 130
    show(make_console(), report, as_json=args.json)
    return 0 if report.ok else 1


def validate_with_status(
    path: Path, options: ValidateOptions, errors: Console, quiet: bool
) -> ValidationReport:
    """Validate ``path``, showing a spinner on a terminal unless ``quiet``."""
    if quiet or not errors.is_terminal:
        return validate(path, options)
    with errors.status(Text(f"Validating {path} ...")):
        return validate(path, options)


def show(console: Console, report: ValidationReport, as_json: bool) -> None:
    """Print ``report`` as JSON or as a table with a verdict."""
    if as_json:
        print(report.to_json())
    else:
        render_report(console, report)
