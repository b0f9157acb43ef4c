"""How long a bot may take to connect: the game's competition says, unless the user does.

ACPC games set no limit (the ACPC server's check passes no start timeout: a real agent may
load its strategy for ten seconds or more), so the runner waits as long as the bot's
process runs, saying now and then that it waits; a bot that exits first still ends the
match with a clear fault.  MIT games keep their 10 s (``tests/tables/test_config.py``).
"""

from __future__ import annotations

import shutil
import socket
from dataclasses import replace
from pathlib import Path

import pytest

from local_runner.engine.records import MatchResult
from local_runner.engine.socket_seat import accept_bot
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


def mit_bot(parent: Path, name: str, before: str) -> Path:
    """The skeleton on the MIT wire, its startme.sh running ``before`` first."""
    bot = parent / name
    shutil.copytree(ROOT / "skeleton", bot, ignore=shutil.ignore_patterns("__pycache__"))
    (bot / "commands.json").unlink()
    startme = bot / "startme.sh"
    startme.write_text(
        f'#!/bin/sh\ncd "$(dirname "$0")" || exit 1\n{before}\nexec python3 player.py "$@"\n'
    )
    startme.chmod(0o755)
    return bot


def test_bots_start_together_so_each_sees_the_other_started(tmp_path: Path) -> None:
    """Both bots run before either connects: each waits (up to 20 s) for the other's mark
    before connecting.  Started one after the other, the first would never see the second's
    mark (the second starts once the first has connected) and would give up after 20 s."""
    marks = tmp_path / "marks"
    marks.mkdir()

    def waiting_for(me: str, other: str) -> str:
        return (
            f'touch "{marks}/{me}"; i=0\n'
            f'while [ ! -e "{marks}/{other}" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done\n'
            f'[ -e "{marks}/{other}" ] && touch "{marks}/{me}-saw-{other}"'
        )

    one = mit_bot(tmp_path, "one", waiting_for("one", "two"))
    two = mit_bot(tmp_path, "two", waiting_for("two", "one"))
    config = load_config(None).with_overrides(variant="nlhe", rounds=3, seed=3)
    config = replace(config, runner=RunnerSettings(connect_timeout=30.0))
    result = run_scrimmage(
        [BotSpec.parse(str(one)), BotSpec.parse(str(two))], config, tmp_path / "run"
    )
    assert result.hands_played == 3
    assert all(player.start_failure is None for player in result.players)
    assert sorted(path.name for path in marks.iterdir()) == [
        "one",
        "one-saw-two",
        "two",
        "two-saw-one",
    ]


def test_a_quick_bot_keeps_its_seat_while_a_slow_one_runs_out_of_time(tmp_path: Path) -> None:
    """Connect limits count from each bot's own start, and the bots start together: the slow
    bot in seat 1 is waited for its whole second, and the quick one, connected long before,
    is still taken afterwards."""
    slow = mit_bot(tmp_path, "slow", "sleep 1.5")
    quick = mit_bot(tmp_path, "quick", ":")
    config = load_config(None).with_overrides(variant="nlhe", rounds=3, seed=3)
    config = replace(config, runner=RunnerSettings(connect_timeout=1.0))
    specs = [BotSpec.parse(str(slow)), BotSpec.parse(str(quick))]
    result = run_scrimmage(specs, config, tmp_path / "run")
    slow_failure, quick_failure = (player.start_failure for player in result.players)
    assert slow_failure is not None and "did not connect within 1 s" in slow_failure
    assert quick_failure is None


def test_a_connection_already_waiting_is_taken_when_no_time_is_left() -> None:
    """A bot that connected in time is not refused because the runner came to it late."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        with socket.create_connection(listener.getsockname()[:2]):
            connection = accept_bot(listener, 0.0, lambda: False)
            assert connection is not None
            connection.close()
        assert accept_bot(listener, 0.0, lambda: False) is None  # nothing waiting: no wait
