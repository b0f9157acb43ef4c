"""``pokerbots new``: create a bot project from the template.

Interactive by default: each question is asked with ``input()`` and checked as soon as
it is answered (a bad answer is asked again), so by the time cookiecutter runs, in its
no-input mode, every answer is known to be good.  ``--no-input`` asks nothing: answers
come from ``--set KEY=VALUE`` and the defaults.  Nothing is written unless every answer
and the target folder pass their checks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from sdk.games import GAMES, MIT_VARIANTS

from ..submission.new import (
    BOT_NAME_PATTERN,
    DEFAULT_ANSWERS,
    OVERWRITE_FLAG,
    QUESTIONS,
    NewBotError,
    ProjectChanges,
    Question,
    answer_problem,
    create_bot,
    default_profile,
    game_file_variant,
    readme_answers,
    refresh_bot,
    target_problem,
)
from ..submission.strategies import STRATEGIES
from .console import make_console, print_error, styled

__all__ = ["register", "run"]


class _Cancelled(Exception):
    """The user ended the questions (end of input)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``new`` subcommand."""
    keys = ", ".join(question.key for question in QUESTIONS)
    parser = subparsers.add_parser(
        "new",
        help="create a bot project from the template",
        description=(
            "Create a bot project at PATH: player.py, startme.sh, commands.json, README.txt, "
            "requirements.txt, tests and a vendored copy of the SDK. Asks for the README.txt "
            "details unless --no-input is given."
        ),
        epilog=(
            f"Answer keys for --set: {keys}. Team members are 'Name <e-mail>' separated by "
            "';' (empty: the leader alone); references are one per line. The bot name "
            "defaults to the folder name. Example: pokerbots new my-bot --no-input "
            "--set team_name='The Folding Chairs' --set variant=auction"
        ),
    )
    parser.add_argument("path", type=Path, metavar="PATH", help="the folder to create")
    parser.add_argument(
        "--no-input",
        action="store_true",
        help="ask nothing: use the --set answers and the defaults",
    )
    parser.add_argument(
        "--set",
        dest="answers",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="answer one question (repeatable)",
    )
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="starter",
        help="the bot to start from: the template's starter (default) or a reference bot",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="write into an existing, non-empty folder: refresh the template's files and the "
        "SDK, starting from the answers in its README.txt; files you edited are listed and "
        f"nothing is written unless {OVERWRITE_FLAG} is given too",
    )
    parser.add_argument(
        OVERWRITE_FLAG,
        dest="overwrite_edited",
        action="store_true",
        help="with --force: overwrite the files you edited as well",
    )
    parser.add_argument(
        "--game",
        type=Path,
        metavar="FILE",
        help="an ACPC game definition file (such as the ACPC server's "
        "holdem.nolimit.2p.reverse_blinds.game): the bot is an ACPC bot playing that game; "
        "the file is copied into it and startme.sh passes it with --game",
    )
    parser.set_defaults(handler=run)


def _parse_sets(items: list[str]) -> dict[str, str]:
    """``KEY=VALUE`` items as a dictionary; NewBotError for a malformed or unknown key."""
    known = {question.key for question in QUESTIONS}
    answers: dict[str, str] = {}
    for item in items:
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals:
            raise NewBotError(f"--set {item!r} has no '='; write it as --set KEY=VALUE.")
        if key not in known:
            raise NewBotError(
                f"--set {key!r} is not a question; the keys are: "
                f"{', '.join(question.key for question in QUESTIONS)}."
            )
        answers[key] = value
    return answers


def _strategy(chosen: str, items: list[str]) -> tuple[str, list[str]]:
    """``--set strategy=NAME`` as another spelling of ``--strategy NAME`` (the last one wins).

    The strategy is not a README.txt answer, so it is taken out of the ``--set`` items.
    """
    rest = []
    for item in items:
        key, equals, value = item.partition("=")
        if equals and key.strip() == "strategy":
            chosen = value.strip()
        else:
            rest.append(item)
    return chosen, rest


def _read(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        raise _Cancelled from None


def _ask(question: Question, default: str, console: Console) -> str:
    """Ask ``question`` until the answer passes its check; return it."""
    while True:
        if question.multiline:
            console.print(
                f"{question.prompt} (finish with an empty line; an empty first line "
                "keeps the default):"
            )
            if default:
                console.print(styled((f"default: {default}", "dim")))
            lines: list[str] = []
            while True:
                line = _read("  > ")
                if not line.strip():
                    break
                lines.append(line)
            answer = "\n".join(lines) if lines else default
        else:
            shown = f" ({'/'.join(question.choices)})" if question.choices else ""
            suffix = f" [{default}]" if default else ""
            answer = _read(f"{question.prompt}{shown}{suffix}: ").strip() or default
        problem = answer_problem(question.key, answer)
        if problem is None:
            return answer
        print_error(console, problem)


def _interview(
    path: Path,
    given: dict[str, str],
    console: Console,
    defaults: dict[str, str],
    game_variant: str | None = None,
) -> dict[str, str]:
    """Ask every question ``given`` does not answer; return all the answers.

    ``defaults`` (the answers in an existing README.txt) come before the kit's defaults;
    ``game_variant`` is the variant of the ``--game`` file, the variant's default.
    """
    answers = dict(given)
    folder = path.resolve().name
    for question in QUESTIONS:
        if question.key in answers:
            continue
        if question.key in defaults:
            default = defaults[question.key]
        elif question.key == "bot_name":
            default = folder if BOT_NAME_PATTERN.fullmatch(folder) else ""
        elif question.key == "members":
            default = ""  # the leader alone
        elif question.key == "profile":
            default = default_profile(answers["variant"])  # an ACPC game is an ACPC entry
        elif question.key == "variant" and game_variant is not None:
            default = game_variant  # the game file's shape
        else:
            default = DEFAULT_ANSWERS[question.key]
        answers[question.key] = _ask(question, default, console)
    return answers


def run(args: argparse.Namespace) -> int:
    """Create the bot the arguments describe; 0 when created, 2 for bad answers."""
    console = make_console()
    errors = make_console(stderr=True)
    path: Path = args.path
    try:
        strategy, sets = _strategy(args.strategy, list(args.answers))
        answers = _parse_sets(sets)
        problem = target_problem(path, args.force)
        if problem is not None:
            raise NewBotError(problem)
        refreshing = args.force and path.is_dir() and any(path.iterdir())
        defaults = (readme_answers(path) or {}) if refreshing else {}
        shape = game_file_variant(args.game) if args.game is not None else None
        if not args.no_input:
            answers = _interview(path, answers, console, defaults, shape)
        if refreshing:
            if args.game is not None:
                create_bot(path, answers, force=True, game=args.game)  # refuses, saying why
            changes = refresh_bot(path, answers, overwrite_edited=args.overwrite_edited)
        else:
            project = create_bot(path, answers, force=args.force, strategy=strategy, game=args.game)
    except NewBotError as error:
        for line in error.problems:
            print_error(errors, line)
        errors.print("Nothing was written.")
        return 2
    except _Cancelled:
        print_error(
            errors,
            "the input ended before every question was answered; nothing was written. "
            "Pass --no-input (with --set KEY=VALUE answers) to ask nothing.",
        )
        return 2
    except KeyboardInterrupt:
        errors.print("Cancelled; nothing was written.")
        return 130
    except OSError as error:
        print_error(
            errors,
            f"could not write the bot to {path}: {error}. Check the path and its permissions.",
        )
        return 1
    if refreshing:
        _report_changes(console, path, changes)
        return 0
    shown = str(project)
    console.print(styled("Created the bot ", (shown, "bold"), ". Next steps:"))
    for command, why in (
        (f"cd {shown} && python -m pytest", "run the bot's own tests"),
        _first_scrimmage(shown, readme_answers(project) or {}),
        (f"pokerbots validate {shown}", "check it the way the competition server will"),
    ):
        console.print(styled(f"  {command}  ", (f"# {why}", "dim")))
    return 0


def _first_scrimmage(shown: str, metadata: dict[str, str]) -> tuple[str, str]:
    """The scrimmage a new bot's next steps suggest, and why: a bot for every seat of its
    game (the seats its game declares, :mod:`sdk.games`), so that no seat is filled
    unasked.  An MIT bot plays builtin:random; an ACPC bot, the ACPC server's chump.

    >>> _first_scrimmage("b", {"variant": "acpc-3pl"})
    ('pokerbots scrimmage b builtin:chump builtin:chump --variant acpc-3pl', \
"play the ACPC server's chump in the 2 other seats")
    """
    variant = metadata.get("variant", "nlhe")
    others = GAMES[variant].rules.seats - 1 if variant in GAMES else 1
    if variant in MIT_VARIANTS:
        return f"pokerbots scrimmage {shown}", "play a match against builtin:random"
    chumps = " ".join(["builtin:chump"] * others)
    count = "" if others == 1 else f" in the {others} other seats"
    if "game" in metadata:  # an ACPC bot of a game file plays that game
        where = f"--game {shown}/{metadata['game']}"
        return (
            f"pokerbots scrimmage {shown} {chumps} {where}",
            f"play the ACPC server's chump{count} in its game",
        )
    return f"pokerbots scrimmage {shown} {chumps} --variant {variant}", (
        f"play the ACPC server's chump{count}"
    )


def _report_changes(console: Console, path: Path, changes: ProjectChanges) -> None:
    """Say what ``--force`` did to the existing bot folder, file by file."""
    console.print(styled("Refreshed the bot ", (str(path), "bold"), " from the template."))
    for label, names in (
        ("Added", changes.added),
        ("Updated", changes.updated),
        (f"Overwritten although edited ({OVERWRITE_FLAG})", changes.edited),
    ):
        if names:
            console.print(f"{label}: {', '.join(names)}.")
    if changes.unchanged:
        console.print(f"Unchanged: {', '.join(changes.unchanged)}.")
    if changes.sdk is None:
        console.print("sdk/: a fresh copy of the kit's SDK.")
    else:
        for line in changes.sdk.describe("sdk/"):
            console.print(line)
