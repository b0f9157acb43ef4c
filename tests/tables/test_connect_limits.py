"""How long a bot may take to connect: the game's competition says, unless the user does.

ACPC games set no limit (the ACPC server's check passes no start timeout: a real agent may
load its strategy for ten seconds or more), so the runner waits as long as the bot's
process runs, saying now and then that it waits; a bot that exits first still ends the
match with a clear fault.  MIT games keep their 10 s (``tests/tables/test_config.py``).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from local_runner.engine.records import MatchResult
from local_runner.tables.config import RunnerSettings, load_config
from local_runner.tables.scrimmage import WAIT_NOTICE_FIRST, run_scrimmage
from local_runner.tables.spec import BotSpec
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # starts bot processes


def acpc_bot(parent: Path, before: str) -> Path:
    """The skeleton on the ACPC wire, its startme.sh running ``before`` first."""
    bot = parent / "slowbot"
    shutil.copytree(ROOT / "skeleton", bot, ignore=shutil.ignore_patterns("__pycache__"))
    (bot / "commands.json").unlink()  # started by startme.sh alone, as the ACPC server does
    startme = bot / "startme.sh"
    startme.write_text(
        f'#!/bin/sh\ncd "$(dirname "$0")" || exit 1\n{before}\n'
        'exec python3 player.py --protocol acpc "$@"\n'
    )
    startme.chmod(0o755)
    return bot


def play(
    bot: Path, out: Path, hands: int = 5, connect: float | None = None
) -> tuple[MatchResult, list[str]]:
    config = load_config(None).with_overrides(variant="acpc-2pn", rounds=hands, seed=3)
    config = replace(config, runner=RunnerSettings(connect_timeout=connect))
    notices: list[str] = []
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:chump")]
    return run_scrimmage(specs, config, out, notice=notices.append), notices


def test_an_acpc_bot_that_loads_for_twelve_seconds_is_waited_for_and_told_about(
    tmp_path: Path,
) -> None:
    bot = acpc_bot(tmp_path, "sleep 12")  # past the first notice, as a large strategy loads
    result, notices = play(bot, tmp_path / "run")
    slow = result.players[0]
    assert slow.start_failure is None and result.hands_played == 5
    assert not any(slow.fault_counts.values()), slow.fault_counts
    assert notices, "a user waiting past the first notice must be told why"
    assert notices[0].startswith(f"Waiting for seat 1 ({bot.name}) to connect: ")
    assert "the ACPC rules set no limit" in notices[0] and "Ctrl-C" in notices[0]
    seconds = int(notices[0].split(": ")[1].split(" s")[0])
    assert seconds >= WAIT_NOTICE_FIRST  # the notice counts what it waited


def test_an_acpc_bot_that_exits_before_connecting_ends_the_match_with_a_fault(
    tmp_path: Path,
) -> None:
    result, notices = play(acpc_bot(tmp_path, "exit 4"), tmp_path / "run")
    failure = result.players[0].start_failure
    assert failure is not None and "exited before connecting" in failure, failure
    assert "exit code 4" in failure and result.hands_played == 0 and notices == []


def test_the_users_connect_timeout_wins_in_an_acpc_game(tmp_path: Path) -> None:
    result, notices = play(acpc_bot(tmp_path, "sleep 30"), tmp_path / "run", connect=0.5)
    failure = result.players[0].start_failure
    assert failure is not None and "did not connect within 0.5 s" in failure, failure
    assert notices == []  # a limit was set: nothing to wait for without one
