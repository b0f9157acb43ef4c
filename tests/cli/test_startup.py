"""Start-up: a command imports only what it runs, and a bot only what it plays with.

Each check imports in a fresh interpreter (a subprocess) and reads its ``sys.modules``:
the test process itself has long imported everything.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import NoReturn

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
    monkeypatch.setattr(sys, "argv", ["pokerbots", "--version"])
    try:
        with pytest.raises(SystemExit) as exited:
            cli.run()
        assert exited.value.code == 3
        assert asked == [True]  # the imports' objects frozen too, once they are made
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process goes on


class _Left(Exception):
    """``os._exit`` as the tests below see it: the status it was given."""


class _Output(io.StringIO):
    """A standard stream that counts its flushes."""

    flushes = 0

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


def _run_leaving(
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    threads: int = 1,
    profiler: object = None,
    tracer: object = None,
) -> tuple[str, int, int, int]:
    """Run ``cli.run`` for ``argv`` with ``main`` answering 3, ``threads`` threads running and
    ``profiler`` and ``tracer`` watching: how it ended (``os._exit`` or ``sys.exit``), with
    which status, how often stdout was flushed and how often the exit handlers were run
    before."""
    monkeypatch.setattr(cli, "main", lambda *, freeze=False: 3)
    monkeypatch.setattr(sys, "argv", ["pokerbots", *argv])
    monkeypatch.setattr(cli.threading, "active_count", lambda: threads)
    monkeypatch.setattr(cli.sys, "getprofile", lambda: profiler)
    monkeypatch.setattr(cli.sys, "gettrace", lambda: tracer)
    out = _Output()
    monkeypatch.setattr(sys, "stdout", out)
    handled: list[int] = []
    monkeypatch.setattr(cli.atexit, "_run_exitfuncs", lambda: handled.append(out.flushes))

    def leave(status: int) -> NoReturn:
        raise _Left(status)

    monkeypatch.setattr(cli.os, "_exit", leave)
    try:
        cli.run()
    except _Left as left:
        return "os._exit", left.args[0], out.flushes, len(handled)
    except SystemExit as exited:
        assert isinstance(exited.code, int)
        return "sys.exit", exited.code, out.flushes, len(handled)
    finally:
        gc.unfreeze()
    raise AssertionError("run returned")


def test_a_scrimmage_leaves_at_once_its_output_flushed(monkeypatch: pytest.MonkeyPatch) -> None:
    how, status, flushes, handled = _run_leaving(monkeypatch, ["scrimmage", "builtin:random"])
    assert (how, status) == ("os._exit", 3)
    assert flushes >= 1
    assert handled == 1  # the exit handlers ran, once, as the interpreter's exit runs them
    # Other commands (whose files the interpreter's teardown may still have to close) exit
    # the usual way.
    assert _run_leaving(monkeypatch, ["replay", "somewhere"])[:2] == ("sys.exit", 3)


def test_a_scrimmage_exits_the_usual_way_while_another_thread_runs_or_a_profiler_watches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The interpreter's exit waits for a thread that is not a daemon, and a profiler or a
    tracer writes what it found after the program ends; leaving at once would lose both."""
    usual = ("sys.exit", 3, 0, 0)
    assert _run_leaving(monkeypatch, ["scrimmage", "a"], threads=2) == usual
    assert _run_leaving(monkeypatch, ["scrimmage", "a"], profiler=object()) == usual
    assert _run_leaving(monkeypatch, ["scrimmage", "a"], tracer=object()) == usual


def test_a_profiled_scrimmage_keeps_its_profile(tmp_path: Path) -> None:
    """``python -m cProfile -o FILE -m local_runner.cli scrimmage ...`` writes FILE."""
    profile = tmp_path / "scrimmage.prof"
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "local_runner.cli",
         "scrimmage", "builtin:random", "builtin:checkcall", "--rounds", "10", "--out",
         str(tmp_path / "run")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert profile.stat().st_size > 0


#: The ``pokerbots`` command, with a note of the status it left by ``os._exit`` (if it did)
#: and an exit handler that notes it ran.
_NOTING_RUN = """
import atexit, os, sys
real, note = os._exit, sys.argv.pop(1)
def leave(status):
    with open(note, "w") as noted:
        noted.write(str(status))
    real(status)
os._exit = leave
atexit.register(lambda: open(note + ".handled", "w").close())
from local_runner.cli import run
run()
"""


def test_a_scrimmage_that_leaves_at_once_has_written_all_of_its_logs(tmp_path: Path) -> None:
    """The whole command, in its own process: it leaves at once, its exit handlers run and
    its logs complete."""
    out, note = tmp_path / "run", tmp_path / "left"
    done = subprocess.run(
        [sys.executable, "-c", _NOTING_RUN, str(note), "scrimmage", "builtin:random",
         "builtin:checkcall", "--rounds", "40", "--seed", "3", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert note.read_text() == "0"  # no thread left: it left at once
    assert (tmp_path / "left.handled").exists()  # after the exit handlers
    assert "Logs:" in done.stdout
    assert len((out / "hands.jsonl").read_text(encoding="utf-8").splitlines()) == 40
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["rounds"] == 40
    assert (
        (out / "gamelog.txt")
        .read_text(encoding="utf-8")
        .rstrip()
        .splitlines()[-1]
        .startswith("Final")
    )


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


def test_the_collector_rests_while_the_frozen_imports_are_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``freeze`` the collector is off while the parser (and so the subcommand's
    modules) is built, and on again once they are frozen; without it, or when the caller had
    switched it off, ``main`` leaves it as it was."""
    during: list[bool] = []
    build = cli.build_parser

    def watched(chosen: Iterable[str] | None = None) -> argparse.ArgumentParser:
        during.append(gc.isenabled())
        return build(chosen)

    monkeypatch.setattr(cli, "build_parser", watched)
    assert gc.isenabled()
    try:
        for freeze in (False, True):
            with pytest.raises(SystemExit):
                cli.main(["--version"], freeze=freeze)
            assert gc.isenabled()
        gc.disable()
        with pytest.raises(SystemExit):
            cli.main(["--version"], freeze=True)
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
    assert during == [True, False, False]


def test_a_scrimmage_started_without_output_streams_ends_well(tmp_path: Path) -> None:
    """Started with stdout and stderr closed (Python then has None for them), a scrimmage
    still leaves cleanly, its logs complete."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "local_runner.cli", "scrimmage", "builtin:random",
               "builtin:checkcall", "--rounds", "20", "--out", str(out)]  # fmt: skip
    done = subprocess.run(["sh", "-c", 'exec "$@" >&- 2>&-', "sh", *command], cwd=ROOT, timeout=120)
    assert done.returncode == 0
    assert len((out / "hands.jsonl").read_text(encoding="utf-8").splitlines()) == 20
