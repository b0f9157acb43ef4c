"""Start-up: a command imports only what it runs, and a bot only what it plays with.

Each check imports in a fresh interpreter (a subprocess) and reads its ``sys.modules``:
the test process itself has long imported everything.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys

import pytest

import local_runner.cli as cli
from local_runner.cli import COMMANDS, build_parser, chosen_commands
from tests.conftest import ROOT

#: eval7 and what its package pulls in (its range parser: pyparsing, which imports unittest).
EVAL7 = ("eval7", "pyparsing", "unittest")


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (from the checkout)."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return set(json.loads(run.stdout.splitlines()[-1]))


def subcommand_help(parser: argparse.ArgumentParser) -> dict[str, str | None]:
    """Each subcommand's line in ``--help``, by name."""
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    return {action.dest: action.help for action in subparsers._choices_actions}


def test_the_declared_help_lines_are_the_subcommands_own() -> None:
    """`pokerbots --help` lists the declared lines; each module registers the same one."""
    declared = {command.name: command.help for command in COMMANDS}
    assert subcommand_help(build_parser(())) == declared  # no module imported
    assert subcommand_help(build_parser()) == declared  # every module's own register()


def test_the_chosen_subcommand_is_the_first_word_that_is_not_an_option() -> None:
    assert chosen_commands(["scrimmage", "a", "b"]) == {"scrimmage"}
    assert chosen_commands(["-h"]) == frozenset()
    assert chosen_commands(["--help", "sdk", "refresh"]) == {"sdk"}
    assert chosen_commands(["nonsense", "scrimmage"]) == frozenset()


@pytest.mark.slow  # starts interpreters
def test_import_sdk_imports_no_module_of_the_sdk_and_no_eval7() -> None:
    loaded = modules_after("import sdk")
    assert not {name for name in loaded if name.startswith("sdk.")}
    assert not loaded & set(EVAL7)


@pytest.mark.slow  # starts interpreters
def test_the_starter_bot_starts_without_eval7_or_the_acpc_reader() -> None:
    """Everything the template's player imports before it connects (the skeleton is the
    template rendered): no eval7, on the MIT wire none of the ACPC modules, and nothing
    that only some games or some hands need."""
    loaded = modules_after(
        "import sys; sys.path.insert(0, 'skeleton'); import player; "
        "player.parse_args(['127.0.0.1', '9']); player.Player()"
    )
    assert "player" in loaded and "sdk.runner" in loaded
    assert not loaded & {*EVAL7, "sdk.acpc", "sdk.acpc_client", "sdk.gamedef"}
    # Exact shares (fractions, and through it decimal) are imported where a bounty or a
    # split pot is paid, and hashlib where a permuted game draws its card values: a bot's
    # start needs neither (about 5 ms of each bot's start-up together).
    assert not loaded & {"fractions", "decimal", "hashlib"}


@pytest.mark.slow  # starts interpreters
@pytest.mark.parametrize("argv", [["--help"], ["scrimmage", "--help"]])
def test_a_subcommands_help_imports_no_other_subcommand(argv: list[str]) -> None:
    loaded = modules_after(
        f"import contextlib, io, local_runner.cli as cli\n"
        f"with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    cli.main({argv!r})"
    )
    chosen = chosen_commands(argv)
    for command in COMMANDS:
        assert (f"local_runner.cli.{command.module}" in loaded) == (command.name in chosen)
    assert not loaded & set(EVAL7)  # the dealer imports eval7 at its first showdown
    if not chosen:
        assert "rich" not in loaded  # `pokerbots --help` is argparse alone


def test_a_match_with_showdowns_never_imports_eval7_in_the_runner() -> None:
    """The engine ranks showdowns with the SDK's evaluator (eval7's numbers, its tests say),
    so the runner does not pay eval7's import (pyparsing, unittest) at every match's start."""
    code = (
        "import json, tempfile\n"
        "from pathlib import Path\n"
        "import local_runner as kit\n"
        "out = Path(tempfile.mkdtemp())\n"
        "config = kit.ScrimmageConfig(rules=kit.Rules.for_variant('nlhe').replace(num_rounds=30))\n"
        "bots = [kit.BotSpec.parse('builtin:checkcall')] * 2\n"
        "assert kit.play_table(bots, config, out).hands_played == 30\n"
        "hands = (out / 'hands.jsonl').read_text().splitlines()\n"
        "assert any(json.loads(hand)['showdown'] for hand in hands)\n"
    )
    assert not set(EVAL7) & modules_after(code)


def test_the_command_exits_with_mains_status_its_output_written() -> None:
    """``run`` (the ``pokerbots`` entry point) freezes what is left before the interpreter's
    exit, which then skips collecting it: the status and the output are main's."""
    for argv, status, stream, words in (
        (["--version"], 0, "stdout", "pokerbots-kit "),
        (["scrimmage", "builtin:random", "--variant", "no-such-game"], 2, "stderr", "no-such"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "local_runner.cli", *argv],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == status, done.stderr
        assert words in getattr(done, stream), (argv, done.stdout, done.stderr)


def test_run_freezes_what_is_left_and_exits_with_mains_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[bool] = []

    def main(*, freeze: bool = False) -> int:
        asked.append(freeze)
        return 3

    monkeypatch.setattr(cli, "main", main)
    try:
        with pytest.raises(SystemExit) as exited:
            cli.run()
        assert exited.value.code == 3
        assert asked == [True]  # the imports' objects frozen too, once they are made
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process goes on


def test_main_freezes_the_imports_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """``main(freeze=True)`` freezes once the parser (and so the subcommand's modules) is
    built, before the command runs; without it (a test, a longer-lived process) nothing is
    frozen."""
    before = gc.get_freeze_count()
    seen: list[int] = []  # the frozen count when the command ran (--version prints)

    def version() -> str:
        seen.append(gc.get_freeze_count())
        return "pokerbots-kit test"

    monkeypatch.setattr(cli, "kit_version", version)
    try:
        for freeze in (False, True):
            with pytest.raises(SystemExit):
                cli.main(["--version"], freeze=freeze)
        assert seen[0] == before
        assert seen[1] > before
    finally:
        gc.unfreeze()
