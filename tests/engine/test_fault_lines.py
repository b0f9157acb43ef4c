"""Fault lines in ``gamelog.txt`` stand where the MIT engines print them: just before the
default action the fault led to.

The oracle is two recorded real-engine logs of the same hostile bot (it raises a million
chips at every decision), played on the MIT base engine and the 2025 engine with
``tests/hostile/illegal`` as player A: ``tests/conformance/mit-*-illegal-gamelog.txt``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from local_runner.engine.faults import FaultKind
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.rules import Rules
from tests.engine.test_hostile import copy_bot

pytestmark = pytest.mark.slow  # the hostile bot is a real process

RECORDED = Path(__file__).resolve().parents[1] / "conformance"
FAULT = re.compile(r"^(\S+) attempted illegal ")


def faults_and_what_follows(gamelog: str) -> list[tuple[str, str]]:
    """Each fault line's player, and the line right after it."""
    lines = gamelog.splitlines()
    return [
        (match.group(1), lines[index + 1])
        for index, line in enumerate(lines)
        if (match := FAULT.match(line))
    ]


@pytest.mark.parametrize("engine", ["base", "2025"])
def test_the_recorded_engines_print_the_fault_before_its_default(engine: str) -> None:
    gamelog = (RECORDED / f"mit-{engine}-illegal-gamelog.txt").read_text(encoding="utf-8")
    pairs = faults_and_what_follows(gamelog)
    assert len(pairs) >= 2
    assert all(after in (f"{who} folds", f"{who} checks") for who, after in pairs), pairs


def test_the_kit_prints_the_fault_before_its_default_as_they_do(tmp_path: Path) -> None:
    bot = copy_bot("illegal", tmp_path)
    rules = Rules.for_variant("nlhe").replace(num_rounds=6)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:checkcall")]
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=3), tmp_path / "run")
    assert result.hands_played == 6
    gamelog = (tmp_path / "run" / "gamelog.txt").read_text(encoding="utf-8")
    pairs = faults_and_what_follows(gamelog)
    assert len(pairs) == result.players[0].fault_counts[FaultKind.ILLEGAL]  # every one
    assert pairs and all(who == bot.name for who, _ in pairs)
    assert all(after in (f"{who} folds", f"{who} checks") for who, after in pairs), gamelog
