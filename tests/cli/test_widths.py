"""At any width the console prints every number and name whole: tables, lists, progress.

A table that fits keeps its cells on one line each; one that does not becomes a list; the
progress bar narrows, then moves its description to a line of its own.  Checked at 40,
60, 80 and 120 columns with long names and numbers of seven digits and more.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from local_runner.cli.console import KitConsole, make_console
from local_runner.cli.progress_bar import FittingProgress
from local_runner.cli.render import result_table
from local_runner.engine.faults import FaultKind
from local_runner.engine.records import MatchResult, PlayerResult
from sdk.rules import Rules
from tests.cli.test_console import on_a_terminal, pokerbots
from tests.conftest import MakeBot

WIDTHS = (40, 60, 80, 120)
LONG = "skeleton-with-a-rather-long-name"
OTHER = "builtin:random"


def printed(width: int, *renderables: object) -> str:
    """What a kit console ``width`` columns wide prints for ``renderables``."""
    console: KitConsole = make_console()
    console.file = io.StringIO()
    console.width = width
    console.print(*renderables)
    text = console.file.getvalue()
    assert isinstance(text, str)
    return text


def a_result() -> MatchResult:
    """A match whose numbers are as wide as a long match's can be."""
    return MatchResult(
        rules=Rules.for_variant("nlhe"),
        seed=2_147_483_647,
        hands_played=1_000_000,
        players=(
            PlayerResult(
                LONG,
                bankroll=-1_234_567,
                time_used=12_345.67,
                fault_counts={FaultKind.TIMEOUT: 1_234, FaultKind.CRASH: 1},
            ),
            PlayerResult(OTHER, bankroll=1_234_567, time_used=0.25),
        ),
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_the_result_table_prints_every_number_and_name_whole(width: int) -> None:
    text = printed(width, result_table(a_result()))
    for whole in (
        LONG,
        OTHER,
        "-1234567",
        "+1234567",
        "-617.3",  # mbb/hand: 1000 * -1234567 / (2 * 1000000)
        "+617.3",
        "12345.67 s",
        "0.25 s",
        "1234 timeout",
        "1 crash",
        "2147483647",
        "1000000",
    ):
        assert whole in text, (width, whole, text)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width, text


def test_a_wide_table_becomes_a_list_and_a_narrow_one_stays_a_table() -> None:
    assert "┃" in printed(120, result_table(a_result()))  # the table's own borders
    narrow = printed(40, result_table(a_result()))
    assert "┃" not in narrow
    assert f"bot: {LONG}\n  bankroll: -1234567\n" in narrow


@pytest.mark.parametrize("width", WIDTHS)
def test_a_prose_column_wraps_between_words_and_cuts_no_number(width: int) -> None:
    table = Table(title="pokerbots validate")
    table.add_column("check")
    table.add_column("message", overflow="fold")
    sentence = "The zip is 104,857,601 bytes, over the 100,000,000 bytes upload limit " * 2
    table.add_row("submission_format", sentence.strip())
    text = printed(width, table)
    words = " ".join(text.replace("│", " ").replace("┃", " ").split())
    assert "104,857,601" in words and "100,000,000" in words and "submission_format" in words
    assert "…" not in text


def progress_text(width: int, description: str, done: int, total: int) -> str:
    """What the scrimmage's progress display shows ``width`` columns wide."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    progress = FittingProgress(
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeRemainingColumn(),
        console=console,
    )
    task = progress.add_task(description, total=total)
    progress.advance(task, done)
    console.print(progress.get_renderable())
    text = console.file.getvalue()
    assert isinstance(text, str)
    return text


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    ("description", "total"),
    [("random vs raise", 1000), (f"{LONG} vs {OTHER}, duplicate", 1_234_567)],
)
def test_the_progress_display_cuts_no_count_time_or_name(
    width: int, description: str, total: int
) -> None:
    text = progress_text(width, description, 7, total)
    assert f"7/{total}" in text and "hands" in text
    assert re.search(r"(-:--:--|\d+:\d\d:\d\d)", text), text
    for name in description.replace(",", "").split():
        assert name in text, (width, name, text)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width, text


def test_the_progress_keeps_one_line_and_a_bar_where_there_is_room() -> None:
    assert len(progress_text(120, "random vs raise", 7, 1000).splitlines()) == 1
    lines = progress_text(40, f"{LONG} vs {OTHER}", 7, 1000).splitlines()
    assert LONG in lines[0] and OTHER in lines[1] and "7/1000 hands" in lines[2]


def two_long_bots(make_bot: MakeBot) -> tuple[Path, Path]:
    """Two checking bots with long folder names (the names the result table shows)."""
    source = """
        from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

        class Player(Bot):
            def get_action(self, game_state, round_state, active):
                legal = round_state.legal_actions()
                return CheckAction() if CheckAction in legal else CallAction()

        if __name__ == "__main__":
            run_bot(Player(), parse_args())
    """
    return make_bot(LONG, source), make_bot("another-bot-with-a-long-name", source)


def assert_whole(text: str, out: Path) -> None:
    """Every name and bankroll summary.json records is printed whole in ``text``."""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    for player in summary["players"]:
        assert player["name"] in text, text
        assert f"{player['bankroll']:+d}" in text, text
    assert str(summary["seed"]) in text
    assert "…" not in text


@pytest.mark.slow  # runs the pokerbots command with two bot processes
@pytest.mark.parametrize("columns", ["40", "60"])
def test_a_scrimmage_off_a_terminal_at_narrow_columns_cuts_nothing(
    make_bot: MakeBot, tmp_path: Path, columns: str
) -> None:
    first, second = two_long_bots(make_bot)
    out = tmp_path / "out"
    run = pokerbots(
        "scrimmage",
        str(first),
        str(second),
        "--rounds",
        "30",
        "--seed",
        "5",
        "--out",
        str(out),
        columns=columns,
    )
    assert run.returncode == 0, run.stderr
    assert_whole(run.stdout, out)


@pytest.mark.slow  # runs the pokerbots command on a pseudo-terminal
def test_a_scrimmage_on_a_40_column_terminal_cuts_nothing(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    first, second = two_long_bots(make_bot)
    out = tmp_path / "out"
    status, output = on_a_terminal(
        "scrimmage",
        str(first),
        str(second),
        "--rounds",
        "30",
        "--seed",
        "5",
        "--out",
        str(out),
        columns=40,
    )
    assert status == 0, output
    assert_whole(output, out)


def test_a_cell_of_several_lines_keeps_them_under_its_label_in_a_list() -> None:
    table = Table(title="pokerbots validate")
    table.add_column("check")
    table.add_column("message", overflow="fold")
    table.add_row("a_check_with_a_rather_long_name", "It is wrong.\nhint: " + "x" * 40)
    text = printed(40, table)
    assert "check: a_check_with_a_rather_long_name\n  message: It is wrong.\n    hint: " in text
