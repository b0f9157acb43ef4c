"""``pokerbots new --strategy``: a bot that starts from a reference bot, with passing tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from local_runner.cli import main as cli_main
from local_runner.submission.new import NewBotError, create_bot

pytestmark = pytest.mark.slow  # new bots' own test suites in subprocesses


@pytest.mark.parametrize("strategy", ["equity", "range"])
def test_strategy_bot_is_standalone_and_its_tests_pass(tmp_path: Path, strategy: str) -> None:
    project = create_bot(tmp_path / "bot", {"variant": "swap"}, strategy=strategy)
    player = (project / "player.py").read_text(encoding="utf-8")
    assert "from refbots." in player and "from ." not in player
    assert 'VARIANT = "swap"' in player
    assert (project / "refbots" / "data" / "preflop_matrix.csv").is_file()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "passed" in run.stdout


def test_starter_is_the_template_unchanged(tmp_path: Path) -> None:
    project = create_bot(tmp_path / "bot")
    assert not (project / "refbots").exists()
    assert "preflop_strength" in (project / "player.py").read_text(encoding="utf-8")


def test_unknown_strategy_is_refused_before_writing(tmp_path: Path) -> None:
    with pytest.raises(NewBotError, match="starter, equity, range"):
        create_bot(tmp_path / "bot", strategy="cfr")
    assert not (tmp_path / "bot").exists()


@pytest.mark.parametrize("arguments", [["--strategy", "equity"], ["--set", "strategy=equity"]])
def test_cli_takes_the_strategy_either_way(tmp_path: Path, arguments: list[str]) -> None:
    target = tmp_path / "bot"
    assert cli_main(["new", str(target), "--no-input", *arguments]) == 0
    assert "class Player(EquityBot)" in (target / "player.py").read_text(encoding="utf-8")


def test_cli_refuses_an_unknown_strategy(tmp_path: Path) -> None:
    assert cli_main(["new", str(tmp_path / "bot"), "--no-input", "--set", "strategy=cfr"]) == 2
    assert not (tmp_path / "bot").exists()
