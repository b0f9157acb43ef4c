"""The runner and its bots on one CPU while they take turns, and every CPU given back when a
bot thinks in parallel or the CPU is crowded (local_runner.programs.cpu_share)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from local_runner.programs.cpu_share import (
    CROWDED_WAIT,
    RUNNER,
    BotTasks,
    CpuShare,
    TaskTimes,
    verdict,
)
from local_runner.tables import scrimmage
from local_runner.tables.config import RunnerSettings, ScrimmageConfig
from local_runner.tables.spec import BotSpec
from local_runner.tables.table import play_table
from local_runner.tables.tournament import TournamentPlan, plan_tournament
from local_runner.validation.options import ValidateOptions
from sdk.rules import Rules
from tests.conftest import MakeBot

MS = 1_000_000  # nanoseconds


def tasks(*figures: tuple[int, int, int]) -> dict[tuple[int, int], TaskTimes]:
    """Threads 1, 2, ... of process 100 with (run, wait, slices) each."""
    return {(100, tid): TaskTimes(*numbers) for tid, numbers in enumerate(figures, start=1)}


# --- the verdict, on figures --------------------------------------------------------------


def test_turn_taking_keeps_the_cpu_shared() -> None:
    # Measured in a shared 2000-hand match of two kit skeletons: the CPU busy all the time,
    # 6,400 slices an interval, waits of about 26 µs each.
    before = {"a": tasks((0, 0, 0)), "b": tasks((0, 0, 0)), RUNNER: tasks((0, 0, 0))}
    after = {
        "a": tasks((60 * MS, 55 * MS, 2100)),
        "b": tasks((60 * MS, 55 * MS, 2100)),
        RUNNER: tasks((120 * MS, 60 * MS, 2200)),
    }
    assert verdict(before, after, 0.25) is None
    # The runner busy nearly all the time (an ACPC match of C players) is what sharing is for.
    assert verdict({RUNNER: tasks((0, 0, 0))}, {RUNNER: tasks((230 * MS, 0, 9000))}, 0.25) is None


def test_a_bot_busy_on_two_threads_ends_the_sharing() -> None:
    before = {"a": tasks((0, 0, 0), (0, 0, 0)), "b": tasks((0, 0, 0))}
    after = {"a": tasks((120 * MS, 0, 40), (100 * MS, 0, 40)), "b": tasks((1 * MS, 0, 5))}
    assert verdict(before, after, 0.25) == "a ran 2 threads or processes at once"


def test_a_thread_busy_for_less_than_a_tenth_of_the_interval_is_not_counted() -> None:
    before = {"a": tasks((0, 0, 0), (0, 0, 0))}
    after = {"a": tasks((100 * MS, 0, 40), (24 * MS, 0, 40))}
    assert verdict(before, after, 0.25) is None


def test_a_thread_that_appears_counts_from_zero_and_one_that_ends_is_ignored() -> None:
    before = {"a": {(100, 1): TaskTimes(500 * MS, 0, 10), (100, 9): TaskTimes(900 * MS, 0, 9)}}
    after = {"a": {(100, 1): TaskTimes(600 * MS, 0, 20), (101, 1): TaskTimes(50 * MS, 0, 5)}}
    assert verdict(before, after, 0.25) == "a ran 2 threads or processes at once"
    after_alone = {"a": {(100, 1): TaskTimes(600 * MS, 0, 20)}}
    assert verdict(before, after_alone, 0.25) is None


def test_a_bot_busy_half_the_time_ends_the_sharing() -> None:
    # A bot that thinks hard, or a helper that never rests: the match is more than messages.
    before = {"a": tasks((0, 0, 0), (0, 0, 0)), "b": tasks((0, 0, 0))}
    after = {"a": tasks((5 * MS, 0, 40), (150 * MS, 0, 40)), "b": tasks((5 * MS, 0, 5))}
    assert verdict(before, after, 0.25) == "a computed for 60% of 0.25 s"


def test_long_waits_for_the_cpu_end_the_sharing() -> None:
    # Three bots each busy on one thread (thinking out of turn): each waits for the others'
    # slices, milliseconds at a time.
    before = {name: tasks((0, 0, 0)) for name in "abc"}
    after = {name: tasks((80 * MS, 120 * MS, 40)) for name in "abc"}
    reason = verdict(before, after, 0.25)
    assert reason == "the match's processes waited 3.0 ms on average for the CPU"


def test_waits_must_be_long_on_average_and_large_in_all() -> None:
    before = {"a": tasks((0, 0, 0))}
    mean = int(CROWDED_WAIT * 1e9)
    # Long waits, but few: 2 ms in all over a quarter of a second.
    assert verdict(before, {"a": tasks((10 * MS, 2 * mean, 2))}, 0.25) is None
    # Much waiting, in short waits (turn-taking next to a busy loop: about 50 µs each).
    assert verdict(before, {"a": tasks((100 * MS, 180 * MS, 3600))}, 0.25) is None
    # Both: crowded.
    assert verdict(before, {"a": tasks((100 * MS, 30 * mean, 25))}, 0.25) is not None


# --- real processes -----------------------------------------------------------------------


def _sharing_problem() -> str | None:
    if not hasattr(os, "sched_setaffinity"):
        return "this system has no CPU affinity (not Linux)"
    if len(os.sched_getaffinity(0)) < 2:
        return "only one CPU is allowed here: there is nothing to share"
    if not Path(f"/proc/self/task/{threading.get_native_id()}/schedstat").exists():
        return "the kernel keeps no scheduler statistics (/proc/PID/task/TID/schedstat)"
    return None


_PROBLEM = _sharing_problem()
needs_cpus = pytest.mark.skipif(_PROBLEM is not None, reason=str(_PROBLEM))

BUSY = "while :; do :; done"
#: How a release that blames no bot begins: the CPU was crowded.
OTHERS = "the match's processes waited "
GIVEN_BACK = "every CPU given back to the runner and the bots: "


def family(pid: int) -> list[int]:
    """``pid`` and its descendants now."""
    try:
        root = psutil.Process(pid)
        return [pid, *(child.pid for child in root.children(recursive=True))]
    except psutil.Error:
        return []


@pytest.fixture
def spawn() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Start shell commands in sessions of their own; every one is killed at the end."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        for pid in reversed(family(process.pid)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 9)
        process.wait()


def start(started: list[subprocess.Popen[bytes]], script: str) -> int:
    process = subprocess.Popen(["sh", "-c", script], start_new_session=True)
    started.append(process)
    time.sleep(0.1)  # its children exist
    return process.pid


def share_among(bots: dict[str, int], notes: list[str]) -> CpuShare:
    """A sharing begun by this test's thread for ``bots`` (name: main pid) and each one's
    descendants, its notes going into ``notes``."""
    tasks = [BotTasks(name, lambda pid=pid: family(pid)) for name, pid in bots.items()]
    share = CpuShare.begin(tasks, notes.append)
    assert share is not None
    return share


def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@needs_cpus
def test_sharing_places_the_runner_and_every_bot_process_and_end_gives_back(
    spawn: list[subprocess.Popen[bytes]],
) -> None:
    before = os.sched_getaffinity(0)
    first = start(spawn, "sleep 30 & sleep 30; wait")
    second = start(spawn, "sleep 30")
    notes: list[str] = []
    share = share_among({"first": first, "second": second}, notes)
    try:
        assert os.sched_getaffinity(0) == {share.cpu}
        watcher = next(t for t in threading.enumerate() if t.name == "cpu-share")
        assert wait_for(lambda: os.sched_getaffinity(watcher.native_id or 0) == before)
        assert len(family(first)) == 3  # the shell and both sleeps
        for pid in family(first) + family(second):
            assert os.sched_getaffinity(pid) == {share.cpu}, pid
        assert notes == [
            f"the runner and the bots share CPU {share.cpu} while they take turns (a message "
            "is then quicker to deliver); [runner] share_cpu = false turns this off"
        ]
        time.sleep(4 * 0.25)  # sleeping bots are never blamed
        assert share.reason is None or share.reason.startswith(OTHERS), share.reason
    finally:
        share.end()
    assert os.sched_getaffinity(0) == before
    share.end()  # twice is harmless
    assert os.sched_getaffinity(0) == before


@pytest.mark.slow
@needs_cpus
def test_a_bot_with_two_busy_processes_gets_every_cpu_back(
    spawn: list[subprocess.Popen[bytes]],
) -> None:
    allowed = os.sched_getaffinity(0)
    busy = start(spawn, f"({BUSY}) & {BUSY}")
    calm = start(spawn, "sleep 30")
    notes: list[str] = []
    share = share_among({"busy": busy, "calm": calm}, notes)
    try:
        assert wait_for(lambda: share.reason is not None)
        assert share.reason == "busy ran 2 threads or processes at once"
        assert notes[-1] == (
            "every CPU given back to the runner and the bots: busy ran 2 threads or "
            "processes at once"
        )
        assert os.sched_getaffinity(0) == allowed
        for pid in family(busy) + family(calm):
            assert os.sched_getaffinity(pid) == allowed, pid
    finally:
        share.end()
    assert os.sched_getaffinity(0) == allowed


@pytest.mark.slow
@needs_cpus
def test_three_bots_busy_at_once_crowd_the_cpu_and_get_it_back(
    spawn: list[subprocess.Popen[bytes]],
) -> None:
    # Each busy a third of the time (none half of it), all waiting for each other.
    pids = {name: start(spawn, f"exec sh -c '{BUSY}'") for name in ("one", "two", "three")}
    share = share_among(pids, [])
    try:
        assert wait_for(lambda: share.reason is not None)
        assert share.reason is not None
        assert share.reason.startswith(OTHERS), share.reason
        assert os.sched_getaffinity(pids["one"]) == os.sched_getaffinity(0)
    finally:
        share.end()


def test_nothing_is_shared_without_bots() -> None:
    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    assert CpuShare.begin([], lambda text: None) is None
    if before is not None:
        assert os.sched_getaffinity(0) == before


# --- in a match ---------------------------------------------------------------------------

CALLER = """
from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

run_bot(Player(), parse_args())
"""

#: A caller whose first decision waits until its process may run on more than one CPU, 5 s
#: at most (half the MIT limit for one reply, so a watch that never acts fails the test on its
#: missing line, not on a timed-out reply).  The hands of such a match took 0.26-0.30 s here,
#: about one watch interval, so without the wait the match could end before the watch judged
#: it (it did once in CI).
PATIENT_CALLER = CALLER.replace(
    "    def get_action(self, game_state, round_state, active):\n",
    """    waited = False

    def get_action(self, game_state, round_state, active):
        import os, time

        deadline = time.monotonic() + 5
        while not self.waited and len(os.sched_getaffinity(0)) < 2:
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        self.waited = True
""",
)
assert PATIENT_CALLER != CALLER


def _match(
    tmp_path: Path, bots: list[Path], variant: str = "nlhe", **runner: bool
) -> tuple[dict, Path]:
    out_dir = tmp_path / "out"
    rules = Rules.for_variant(variant).replace(num_rounds=600)
    config = ScrimmageConfig(rules=rules, seed=5, runner=RunnerSettings(**runner))
    play_table([BotSpec.parse(str(bot)) for bot in bots], config, out_dir)
    return json.loads((out_dir / "summary.json").read_text()), out_dir


def _faults(summary: dict) -> list[dict[str, int]]:
    return [{kind: n for kind, n in player["faults"].items() if n} for player in summary["players"]]


@pytest.mark.slow
@needs_cpus
def test_a_match_shares_a_cpu_and_its_bots_logs_say_so(make_bot: MakeBot, tmp_path: Path) -> None:
    before = os.sched_getaffinity(0)
    first, second = make_bot("first", CALLER), make_bot("second", CALLER)
    summary, out = _match(tmp_path, [first, second])
    assert summary["rounds"] == 600 and _faults(summary) == [{}, {}]
    for name in ("first", "second"):
        log = (out / f"{name}.log").read_text()
        assert "the runner and the bots share CPU " in log
        # Two bots that take turns are never blamed (other programs, such as the tests
        # running beside this one, may crowd the CPU on a busy machine).
        released = [line for line in log.splitlines() if "every CPU given back" in line]
        assert len(released) <= 1 and all(GIVEN_BACK + OTHERS in line for line in released)
    assert os.sched_getaffinity(0) == before  # the runner's thread has its CPUs again


@pytest.mark.slow
@needs_cpus
def test_a_bot_that_thinks_in_parallel_plays_on_every_cpu(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    busy = make_bot("busy", PATIENT_CALLER)
    # A second process that computes all match long, beside the bot.
    run = ["sh", "-c", f'({BUSY}) & exec "$0" player.py "$@"', sys.executable]
    (busy / "commands.json").write_text(json.dumps({"build": [], "run": run}))
    calm = make_bot("calm", CALLER)
    summary, out = _match(tmp_path, [busy, calm])
    assert summary["rounds"] == 600 and _faults(summary) == [{}, {}]
    for name in ("busy", "calm"):
        log = (out / f"{name}.log").read_text()
        assert "the runner and the bots share CPU " in log
        # Its helper computes all the time, beside a bot that thinks a little: which rule
        # sees it first depends on how the CPU was divided in the first interval ("busy ran
        # 2 threads or processes at once", "busy computed for N% of 0.25 s", or the others'
        # waits behind it).
        assert GIVEN_BACK in log
        reason = log.split(GIVEN_BACK)[1].splitlines()[0]
        assert reason.startswith(("busy ran 2 ", "busy computed for ", OTHERS)), reason


def _without_times(hands_jsonl: str) -> list[dict]:
    hands = [json.loads(line) for line in hands_jsonl.splitlines()]
    for hand in hands:
        for action in hand["actions"]:
            action.pop("seconds", None)  # the bots' reply times: never the same twice
    return hands


@pytest.mark.slow
@needs_cpus
def test_a_shared_matchs_logs_are_written_on_a_free_cpu_and_read_the_same(
    make_bot: MakeBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    handoffs: list[scrimmage.LogHandoff] = []

    class Counted(scrimmage.LogHandoff):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            handoffs.append(self)

    monkeypatch.setattr(scrimmage, "LogHandoff", Counted)
    first, second = make_bot("first", CALLER), make_bot("second", CALLER)
    shared, shared_out = _match(tmp_path / "shared", [first, second], "acpc-2pn")
    # Every CPU the runner may use but the one the match shared.
    assert len(handoffs) == 1 and len(handoffs[0].cpus) == len(os.sched_getaffinity(0)) - 1
    assert handoffs[0].batches >= 1 and handoffs[0].written_here == 0  # the writer wrote
    alone, alone_out = _match(tmp_path / "alone", [first, second], "acpc-2pn", share_cpu=False)
    assert len(handoffs) == 1  # none without sharing
    assert _faults(shared) == _faults(alone) == [{}, {}]
    for name in ("gamelog.txt", "dealer.log"):
        assert (shared_out / name).read_bytes() == (alone_out / name).read_bytes(), name
    read = [_without_times((out / "hands.jsonl").read_text()) for out in (shared_out, alone_out)]
    assert read[0] == read[1] and len(read[0]) == 600


@pytest.mark.slow
@needs_cpus
def test_share_cpu_false_leaves_the_cpus_alone(make_bot: MakeBot, tmp_path: Path) -> None:
    first, second = make_bot("first", CALLER), make_bot("second", CALLER)
    summary, out = _match(tmp_path, [first, second], share_cpu=False)
    assert _faults(summary) == [{}, {}]
    assert "share CPU" not in (out / "first.log").read_text()


def test_validation_and_tournaments_never_share_a_cpu(tmp_path: Path) -> None:
    assert RunnerSettings().share_cpu is True  # a scrimmage's default
    assert ValidateOptions().runner().share_cpu is False
    plan = plan_tournament(["builtin:random", "builtin:checkcall"], ScrimmageConfig())
    assert plan.config.runner.share_cpu is False
    # A plan written before the setting existed reads as what its matches did.
    data = plan.to_dict()
    del data["runner"]["share_cpu"]
    assert TournamentPlan.from_dict(data).config.runner.share_cpu is False
