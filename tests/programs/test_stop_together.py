"""Bots of one table are stopped together, with shared scans of the processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path

import pytest

import local_runner.programs.process as process_module
from local_runner.programs import waiting
from local_runner.programs.bot_program import BotProgram
from local_runner.programs.proc_tracker import Snapshot
from local_runner.programs.process import BotProcess, remember_processes, stop_bots

pytestmark = pytest.mark.slow  # real processes


def bot(tmp_path: Path, name: str, code: str) -> BotProcess:
    """A started bot whose run command is ``python -c code``."""
    directory = tmp_path / name
    directory.mkdir()
    (directory / "commands.json").write_text(
        json.dumps({"build": [], "run": [sys.executable, "-c", code]})
    )
    process = BotProcess(
        BotProgram.from_directory(directory), name=name, log_path=tmp_path / f"{name}.log"
    )
    process.start(host="127.0.0.1", port=1)
    return process


def counting_scans(monkeypatch: pytest.MonkeyPatch) -> list[Snapshot]:
    """Record every scan of the processes that the process module makes."""
    scans: list[Snapshot] = []
    real = process_module.scan_processes

    def scan(refresh: Collection[int] | None = None) -> Snapshot:
        snapshot = real(refresh)
        scans.append(snapshot)
        return snapshot

    monkeypatch.setattr(process_module, "scan_processes", scan)
    return scans


def test_two_bots_that_take_their_time_to_exit_are_waited_for_at_once(tmp_path: Path) -> None:
    slow = "import time; time.sleep(1.5)"
    bots = [bot(tmp_path, name, slow) for name in ("a", "b")]
    began = time.monotonic()
    reports = stop_bots(bots, grace=10.0)
    waited = time.monotonic() - began
    assert [report.exit_code for report in reports] == [0, 0]
    assert not any(report.killed or report.lingering for report in reports)
    # Each bot needs 1.5 s to exit; in turn that would be 3 s at the least, together 1.5 s.
    # (A generous bound: 2.9 s proves the second was not waited for after the first.)
    assert waited < 2.9
    assert [bot.stop() for bot in bots] == reports  # later calls keep the first report


def test_the_end_of_a_match_scans_proc_once_after_the_bots_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    quick = "import time; time.sleep(0.2)"
    bots = [bot(tmp_path, name, quick) for name in ("a", "b")]
    scans = counting_scans(monkeypatch)
    remember_processes(bots)  # what the runner does just before it sends Q
    assert len(scans) == 1
    reports = stop_bots(bots, grace=10.0)
    assert [report.exit_code for report in reports] == [0, 0]
    # One scan for both bots before Q, one once they have exited; the watcher's own
    # scans (every 0.25 s) are not made through this module's name, so not counted.
    assert len(scans) == 2


def test_a_bot_stopped_without_remembering_is_scanned_before_and_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    process = bot(tmp_path, "a", "import time; time.sleep(0.1)")
    scans = counting_scans(monkeypatch)
    assert process.stop(grace=10.0).exit_code == 0
    assert len(scans) == 2  # before the main process exits, and after


def test_one_stubborn_bot_does_not_hold_up_the_other(tmp_path: Path) -> None:
    stubborn = "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)"
    bots = [bot(tmp_path, "a", stubborn), bot(tmp_path, "b", "pass")]
    reports = stop_bots(bots, grace=0.5)
    assert reports[0].killed and reports[0].exit_code == -9
    assert reports[1].exit_code == 0 and not reports[1].killed
    assert all(not report.survivors for report in reports)


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "polling"])
def test_waiting_for_an_exit_reaps_it_or_gives_up_at_the_timeout(
    pidfd: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not pidfd:  # as on macOS, or a Linux before 5.3
        monkeypatch.delattr(waiting.os, "pidfd_open", raising=False)
    elif not hasattr(waiting.os, "pidfd_open"):
        pytest.skip("this system has no pidfd_open (not Linux)")
    quick = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.1)"])
    waiting.wait_for_exit(quick, 30.0)
    assert quick.returncode == 0  # seen gone and reaped, long before the timeout
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        waiting.wait_for_exit(slow, 0.2)
        assert slow.returncode is None  # still running: given up at the timeout
    finally:
        slow.kill()
        slow.wait()
    waiting.wait_for_exit(slow, 1.0)  # an exit already reaped returns at once
    assert slow.returncode == -9


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a forked child (POSIX)")
@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "polling"])
def test_waiting_for_a_forked_child_reaps_it_or_gives_up_at_the_timeout(
    pidfd: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not pidfd:
        monkeypatch.delattr(waiting.os, "pidfd_open", raising=False)
    elif not hasattr(waiting.os, "pidfd_open"):
        pytest.skip("this system has no pidfd_open (not Linux)")

    def fork(seconds: float, status: int) -> int:
        pid = os.fork()
        if pid == 0:
            time.sleep(seconds)
            os._exit(status)
        return pid

    quick = fork(0.1, 3)
    started = time.monotonic()
    status = waiting.wait_for_child(quick, 30.0)
    assert status is not None and os.waitstatus_to_exitcode(status) == 3
    assert time.monotonic() - started < 10  # seen gone long before the timeout
    slow = fork(30, 0)
    try:
        assert waiting.wait_for_child(slow, 0.0) is None  # a look, no wait
        assert waiting.wait_for_child(slow, 0.2) is None  # still running at the timeout
    finally:
        os.kill(slow, signal.SIGKILL)
    status = waiting.wait_for_child(slow, 5.0)
    assert status is not None and os.waitstatus_to_exitcode(status) == -signal.SIGKILL
