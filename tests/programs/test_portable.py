"""The portable path of process supervision: psutil alone, no ``/proc`` read by the kit and no
``prctl``, as on macOS; forced on Linux with ``POKERBOTS_PORTABLE_PROCESSES=1``.

The hostile-bot corpus runs on both paths (``tests/engine/test_hostile.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from local_runner.programs import proc_tracker, process
from local_runner.programs.process import ResourceLimits
from tests.conftest import ROOT


def test_forcing_the_portable_path_turns_the_subreaper_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(proc_tracker.PORTABLE_VAR, "1")
    assert not proc_tracker.linux_extras()
    assert not proc_tracker.enable_child_subreaper()  # no prctl call at all
    assert process._preexec(ResourceLimits(), adopt_orphans=True) is None


def test_the_linux_path_adopts_orphans_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(proc_tracker.PORTABLE_VAR, raising=False)
    monkeypatch.setattr(proc_tracker.sys, "platform", "linux")
    assert proc_tracker.linux_extras()
    assert process._preexec(ResourceLimits(), adopt_orphans=True) is not None
    monkeypatch.setattr(proc_tracker.sys, "platform", "darwin")
    assert not proc_tracker.linux_extras()  # macOS: no subreaper


#: The modules that may name ``/proc``, and why psutil will not do there.
PROC_READERS = {
    "sandbox.py": "bubblewrap mounts one",
    "cpu_share.py": "psutil says nothing of how long a thread waited for the CPU (schedstat)",
}


def test_no_module_of_the_kit_reads_proc_by_hand() -> None:
    """Only the modules of :data:`PROC_READERS` name ``/proc``; psutil reads the rest."""
    readers = []
    for module in sorted((ROOT / "local_runner").rglob("*.py")):
        if module.name in PROC_READERS:
            continue
        text = module.read_text(encoding="utf-8")
        if re.search(r"[\"']/proc\b", text):
            readers.append(str(module.relative_to(ROOT)))
    assert readers == []


def test_a_scan_that_refreshes_only_some_pids_still_sees_new_processes(tmp_path: Path) -> None:
    """The watcher's cheap scan reads new processes and the bots' own, and takes the rest
    from the last scan."""
    proc_tracker.scan_processes()  # a full scan to start from
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        snapshot = proc_tracker.scan_processes(refresh=[])
        assert child.pid in snapshot and not snapshot[child.pid].zombie
        child.kill()
        child.wait()
        assert child.pid not in proc_tracker.scan_processes(refresh=[])  # gone: not listed
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.slow  # waits past the slack
def test_a_process_older_than_the_bot_is_not_looked_into(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only processes started after the bot can carry its token, so only their environments
    are read: reading every process's cost 100 ms of a 1000-hand scrimmage on a machine with
    400 more processes. A younger process that carries the token is still the bot's, outside
    its session and its line of descent."""
    token = "c0ffee" * 4
    env = {**os.environ, proc_tracker.TOKEN_VAR: token}
    sleeper = [sys.executable, "-c", "import time; time.sleep(30)"]
    old = subprocess.Popen(sleeper, env=env)  # the token, but older than the bot
    started = []
    try:
        started.append(old)
        time.sleep(proc_tracker._TOKEN_SLACK + 0.3)
        root = subprocess.Popen(sleeper, env=env, start_new_session=True)
        started.append(root)
        young = subprocess.Popen(sleeper, env=env)  # the runner's child, not the bot's
        started.append(young)
        tracker = proc_tracker.ProcessTracker(token, root.pid)
        looked_into: list[int] = []
        has_token = proc_tracker.ProcessTracker._has_token

        def spying(self: proc_tracker.ProcessTracker, pid: int) -> bool:
            looked_into.append(pid)
            return has_token(self, pid)

        monkeypatch.setattr(proc_tracker.ProcessTracker, "_has_token", spying)
        snapshot = proc_tracker.scan_processes()
        found = tracker.scan(snapshot)
        assert root.pid in found and young.pid in found and old.pid not in found
        assert young.pid in looked_into
        bot_start = snapshot[root.pid].start
        older = {
            pid
            for pid, info in snapshot.items()
            if info.start < bot_start - proc_tracker._TOKEN_SLACK
        }
        assert old.pid in older and len(older) > 1  # init, at least, is older too
        assert not older & set(looked_into)
    finally:
        for process in started:
            process.kill()
            process.wait()
