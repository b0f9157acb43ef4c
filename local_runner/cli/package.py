"""``pokerbots package``: write a clean archive of a bot folder, then validate it."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from rich.text import Text

from ..submission.package import package_bot
from ..validation.checks import format_bytes
from ..validation.profiles import detect_profile
from .console import make_console
from .validate import (
    add_validate_options,
    options_from_args,
    show,
    usage_error,
    validate_with_status,
)

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``package`` subcommand."""
    parser = subparsers.add_parser(
        "package",
        help="write a clean archive of a bot, then validate it",
        description=(
            "Write BOT_DIR as an archive with the folder as its single top-level directory, "
            "leaving out junk (__MACOSX/, .DS_Store, .git, runs/, virtual environments), "
            "caches, logs (*.log) and build output (build/, dist/, *.egg-info), and keeping "
            "run bits; then validate the archive. The mit profile writes zip files only. "
            "Exit status 0: written and valid; 1: not valid; 2: usage error."
        ),
    )
    parser.add_argument("bot_dir", type=Path, metavar="BOT_DIR", help="the bot folder")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="the archive to write (default: BOT_DIR.zip next to BOT_DIR; "
        ".zip, .jar, .tar, .tar.gz or .tgz)",
    )
    add_validate_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Package and validate; 0 when the archive is valid, 1 when not, 2 on usage errors."""
    errors = make_console(stderr=True)
    try:
        options = options_from_args(args)
        if options.profile is None and Path(args.bot_dir).is_dir():
            # The archive is checked against the profile of the folder it came from, and
            # says so: no --profile was given.
            profile, why = detect_profile(Path(args.bot_dir))
            reason = f"{why}, in the folder {args.bot_dir} the archive was made from"
            options = replace(options, profile=profile, profile_reason=reason)
        output = package_bot(args.bot_dir, args.output, options.profile)
    except OSError as error:
        return usage_error(errors, f"The archive could not be written: {error}.")
    written = f"Wrote {output} ({format_bytes(output.stat().st_size)})."
    if args.json:
        errors.print(Text(written))
    try:
        report = validate_with_status(output, options, errors, args.json)
    except KeyboardInterrupt:
        errors.print("Interrupted; the archive was written but not validated.")
        return 130
    console = make_console()
    if not args.json:
        console.print(Text(written, style="bold"))
    show(console, report, as_json=args.json)
    return 0 if report.ok else 1
