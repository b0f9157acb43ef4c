"""``pokerbots sdk refresh``: bring a bot's vendored SDK up to the installed kit's, and say how.

Only ``BOT_DIR/sdk`` is touched: player.py, README.txt and the tests stay as they are.
The hashes in ``sdk/VENDORED.json`` tell the files the kit wrote from the ones the
author edited; an edited file is never overwritten without ``--overwrite-edited``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..submission.vendor import SdkRefreshError, plan_sdk_refresh, refresh_sdk
from .console import make_console, print_error

__all__ = ["register", "run"]

FLAG = "--overwrite-edited"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``sdk`` subcommand and its ``refresh`` action."""
    parser = subparsers.add_parser(
        "sdk",
        help="refresh a bot's vendored copy of the SDK",
        description="Manage the copy of the SDK a bot carries in its sdk/ folder.",
    )
    actions = parser.add_subparsers(dest="sdk_action", metavar="ACTION", required=True)
    refresh = actions.add_parser(
        "refresh",
        help="update BOT_DIR/sdk to the installed kit's SDK",
        description=(
            "Update BOT_DIR/sdk to the installed kit's SDK and list what changed; nothing "
            "else in the bot is touched. Files you edited in sdk/ (their hash differs from "
            f"sdk/VENDORED.json) are listed and left alone unless {FLAG} is given. "
            "Exit status 0: refreshed (or already current); 1: edited files were kept; "
            "2: usage error."
        ),
    )
    refresh.add_argument("bot_dir", type=Path, metavar="BOT_DIR", help="the bot folder")
    refresh.add_argument(
        FLAG,
        dest="overwrite_edited",
        action="store_true",
        help="overwrite (or remove) sdk files you edited, too",
    )
    refresh.add_argument(
        "--dry-run", action="store_true", help="say what would change; write nothing"
    )
    refresh.set_defaults(handler=run)


def _bot_problem(bot_dir: Path) -> str | None:
    """Why ``bot_dir`` is not a bot folder, as a sentence with the fix; None if it is."""
    if not bot_dir.is_dir():
        return f"{bot_dir} is not a folder; pass the bot's folder (the one holding sdk/)."
    if bot_dir.name == "sdk" and not (bot_dir / "sdk").exists():
        return f"{bot_dir} is an sdk folder; pass the bot's folder that holds it."
    if not any((bot_dir / name).is_file() for name in ("commands.json", "startme.sh")):
        return (
            f"{bot_dir} has neither commands.json nor startme.sh, so it is not a bot folder; "
            "pass the folder `pokerbots new` created."
        )
    return None


def run(args: argparse.Namespace) -> int:
    """Refresh (or plan) the vendored SDK; 0 when done, 1 when edits were kept, 2 on misuse."""
    console = make_console()
    errors = make_console(stderr=True)
    bot_dir: Path = args.bot_dir
    problem = _bot_problem(bot_dir)
    if problem is not None:
        print_error(errors, problem)
        return 2
    directory = bot_dir / "sdk"
    try:
        if args.dry_run:
            plan = plan_sdk_refresh(directory)
        else:
            plan = refresh_sdk(directory, overwrite_edited=args.overwrite_edited, flag=FLAG)
    except SdkRefreshError as error:
        print_error(errors, f"{error} Nothing was written.")
        return 1
    except OSError as error:
        print_error(errors, f"could not write {directory}: {error}. Check its permissions.")
        return 2
    lines = plan.describe(f"{directory}/")
    if args.dry_run:
        lines = ["Dry run: nothing was written.", *lines]
        if plan.edited and not args.overwrite_edited:
            lines.append(f"Edited by you (kept unless {FLAG}): {', '.join(plan.edited)}.")
    elif plan.edited:
        lines.append(f"Overwritten although edited ({FLAG}): {', '.join(plan.edited)}.")
    for line in lines:
        console.print(line)
    return 0
