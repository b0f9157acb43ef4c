"""A tournament signalled as a job scheduler or ``timeout`` does it: SIGINT or SIGTERM to the
runner's process alone (not to its process group, as a terminal's Ctrl-C is).

The runner passes the stop to its pool's workers: the matches being played end with their
bots stopped and their logs kept, no queued match starts, the plan stays for ``--resume``,
and a sentence says how to resume.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from local_runner.runs.layout import MATCHES_FILE, PLAN_FILE
from tests.conftest import ROOT
from tests.engine.test_hostile import leftovers, runner_env

pytestmark = pytest.mark.slow  # a tournament of bot processes

BOTS = ROOT / "benchmarks" / "bots"


def match_folders(out: Path) -> set[str]:
    """The matches that have started (each makes its folder when it begins)."""
    matches = out / "matches"
    return {p.name for p in matches.iterdir()} if matches.is_dir() else set()


def started_playing(out: Path, count: int) -> bool:
    """Whether ``count`` matches are under way, each past its first hands."""
    logs = [out / "matches" / name / "gamelog.txt" for name in match_folders(out)]
    playing = [log for log in logs if log.exists() and log.stat().st_size > 2000]
    return len(playing) >= count


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_to_the_runner_alone_stops_the_workers_matches(
    signum: signal.Signals, tmp_path: Path
) -> None:
    bots = []
    for name in ("checkcall", "random", "checkcall"):
        bot = tmp_path / f"{name}-{len(bots)}"
        shutil.copytree(BOTS / name, bot)
        bots.append(bot)
    out = tmp_path / "out"
    mark = uuid.uuid4().hex
    # Matches of 50,000 hands: minutes each, so any match that ends did so because it was
    # told to, and a match that starts after the signal is one that should not have.
    command = [sys.executable, "-m", "local_runner.cli", "tournament", *map(str, bots)]
    command += ["--rounds", "50000", "--matches", "2", "--workers", "2", "--out", str(out)]
    runner = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=runner_env(mark),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # signals reach the runner alone, not its workers
    )
    try:
        deadline = time.monotonic() + 120
        while not started_playing(out, 2):
            assert runner.poll() is None, runner.communicate()
            assert time.monotonic() < deadline, "two matches did not start within 120 s"
            time.sleep(0.05)
        begun = match_folders(out)
        runner.send_signal(signum)
        _, stderr = runner.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            subprocess.run(["pkill", "-KILL", "-s", str(runner.pid)], check=False)
    assert runner.returncode == 130, stderr
    assert match_folders(out) == begun, "a queued match started after the signal"
    assert f"pokerbots tournament --resume --out {out}" in stderr
    assert (out / PLAN_FILE).is_file()
    recorded = (
        (out / MATCHES_FILE).read_text().splitlines() if (out / MATCHES_FILE).exists() else []
    )
    assert recorded == []  # the interrupted matches are not recorded: a resume plays them
    for name in begun:  # their logs were kept, up to the hand where they stopped
        gamelog = (out / "matches" / name / "gamelog.txt").read_text()
        assert gamelog.count("\nRound #") >= 1
    assert not leftovers(bots, mark), "a bot outlived the tournament"
