"""Hostile bots: the runner survives every one, records the right fault, and leaves nothing behind.

Each bot in ``tests/hostile/<name>/`` is a real process playing a real match, run by a real
``pokerbots scrimmage`` process (so that the runner's own peak memory can be measured).  For
every case the test checks:

* the runner exits normally and writes ``gamelog.txt``, ``hands.jsonl`` and ``summary.json``,
  all consistent with each other (hands, bankrolls, every fault in every file);
* the exact faults, with the hand where the first one happened and its detail;
* that no process of the bot is left: none with the test's marker in its environment (which
  bots inherit from the runner) or a working directory inside the bot's directory, and none of
  the pids the bot wrote down for its escaped children;
* that the runner's peak resident memory stayed under 200 MB.

The interrupt tests send a real SIGINT to a running ``pokerbots scrimmage``: to its pid, and
to its whole process group as a terminal's Ctrl-C does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from local_runner.engine.faults import Fault, FaultKind
from local_runner.engine.match import MAX_FAULT_DETAILS
from local_runner.engine.socket_seat import SocketSeat
from local_runner.programs.proc_tracker import PORTABLE_VAR
from local_runner.programs.process import BotProcess, StopReport
from local_runner.runs.gamelog import format_fault
from local_runner.submission.vendor import vendor_sdk
from local_runner.tables import scrimmage
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.actions import CallAction, CheckAction, FoldAction
from sdk.protocol import MAX_LINE_BYTES, Clock
from sdk.rules import Rules

pytestmark = pytest.mark.slow  # hostile bot processes, and the runner's CLI

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
MARK = "POKERBOTS_HOSTILE_TEST"
MAX_RUNNER_RSS = 200 * 2**20
LOG_LIMIT = 65536

# Runs the CLI's main() and writes the process's own peak RSS (VmHWM, KiB).  Not ru_maxrss:
# on Linux that survives execve, so it would include the RSS of the test process that forked.
RUNNER = """
import sys
from local_runner.cli import main

try:
    code = main(sys.argv[2:])
finally:
    with open("/proc/self/status") as status, open(sys.argv[1], "w") as file:
        file.write(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
sys.exit(code)
"""


@dataclass(frozen=True)
class Outcome:
    """What one run left behind, for the checks of a case."""

    summary: dict[str, Any]
    hands: list[dict[str, Any]]
    gamelog: str
    stdout: str
    bot_dir: Path
    out: Path
    seconds: float

    def player(self, slot: int = 0) -> dict[str, Any]:
        """The summary entry of the player in ``slot``."""
        player: dict[str, Any] = self.summary["players"][slot]
        return player

    def faults(self, slot: int = 0) -> dict[str, int]:
        """The player's fault counts that are not zero."""
        return {kind: n for kind, n in self.player(slot)["faults"].items() if n}

    def details(self, slot: int = 0, kind: str | None = None) -> list[dict[str, Any]]:
        """The player's fault details, optionally of one kind."""
        details: list[dict[str, Any]] = self.player(slot)["fault_details"]
        return [d for d in details if kind is None or d["kind"] == kind]

    def log(self) -> str:
        """The bot's own log (build and run output)."""
        return (self.out / f"{self.bot_dir.name}.log").read_text(errors="replace")


@dataclass(frozen=True)
class Case:
    """One hostile bot and what the runner must make of it."""

    name: str
    faults: dict[str, int] | None
    """The exact non-zero fault counts, or None when only ``kinds`` can be fixed."""
    first: tuple[str, int, str] | None = None
    """Kind, hand and a piece of the detail of the first fault of that kind."""
    kinds: frozenset[str] = frozenset()
    """When ``faults`` is None: the kinds allowed (the first one must occur)."""
    rounds: int = 12
    opponent: str = "builtin:checkcall"
    config: dict[str, dict[str, float]] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment for the runner, which its bots inherit."""
    console: str | None = None
    """A sentence the console (without --json) must print."""
    starts: bool = True
    """False for a bot that never starts: no hand is played and the runner exits with 3."""
    check: Callable[[Outcome], None] | None = None


def pid_files_gone(names: list[str]) -> Callable[[Outcome], None]:
    """A check that the pids the bot wrote into these files are all dead."""

    def check(outcome: Outcome) -> None:
        for name in names:
            pid = int((outcome.bot_dir / name).read_text())
            assert gone(pid), f"process {pid} from {name} outlived the match"

    return check


def kept_playing_after_hand_3(outcome: Outcome) -> None:
    later = [
        action
        for hand in outcome.hands[3:]
        for action in hand["actions"]
        if hand["players"][action["seat"]] == "sleeps_once" and not action["forced"]
    ]
    assert later, "the bot should be asked again once its late reply arrived"


def clock_ran_out(outcome: Outcome) -> None:
    player = outcome.player()
    assert 0.95 <= player["time_used"] <= 1.2  # the whole clock, and not much more
    assert player["decisions"] <= 5  # never asked again after the clock ran out
    assert player["clock_ran_out_hand"] is not None
    assert player["decisions_defaulted"] > 0


def log_capped(outcome: Outcome) -> None:
    log = outcome.out / "stdout_flood.log"
    assert log.stat().st_size <= LOG_LIMIT + 1024
    footer = log.read_text(errors="replace").splitlines()[-1]
    dropped = int(footer.split()[1])
    assert dropped >= 100 * 2**20, footer  # it wrote at least this much more than was kept
    # A note, not a fault (as on the MIT engine): summary.json counts what was dropped.
    assert outcome.player()["output_dropped_bytes"] == dropped
    print(f"stdout_flood: {dropped / 1e9:.2f} GB dropped, log {log.stat().st_size} bytes")


def memory_error_logged(outcome: Outcome) -> None:
    assert "MemoryError" in outcome.log()


def crash_after_timeout(outcome: Outcome) -> None:
    (crash,) = outcome.details(kind="crash")
    assert crash["hand"] > 2 and crash["detail"] == "exited (exit code 5)"
    assert outcome.faults(1) == {}


def opponent_clean(outcome: Outcome) -> None:
    assert outcome.faults(1) == {}


CASES = [
    Case(
        "exit_at_start",
        {"never_connected": 1},
        ("never_connected", 0, "exited before connecting (exit code 3)"),
        starts=False,
        console="bot exit_at_start did not start (never_connected: exited before connecting "
        "(exit code 3))",
    ),
    Case(
        "crash_mid_hand",
        {"crash": 1},
        ("crash", 4, "exited (signal 9 (SIGKILL))"),
        console="bot crash_mid_hand crashed in hand 4: exited (signal 9 (SIGKILL))",
    ),
    Case(
        "never_connects",
        {"never_connected": 1},
        ("never_connected", 0, "did not connect within 0.5 s"),
        starts=False,
        config={"runner": {"connect_timeout": 0.5}},
    ),
    Case("silent", {"timeout": 1}, ("timeout", 1, "no reply within 1.000 s")),
    Case(
        "sleeps_once",
        {"timeout": 1},
        ("timeout", 3, "no reply within 1.000 s"),
        opponent="polite",
        env={"POLITE_DELAY": "0.03"},
        check=kept_playing_after_hand_3,
    ),
    Case(
        "clock_exhaust",
        {"timeout": 1},
        ("timeout", 1, "ran out of time: its game clock had"),
        config={"rules": {"game_clock": 1.0}},
        check=clock_ran_out,
    ),
    Case(
        "garbage",
        None,
        ("misformatted", 1, "'banana!' is not an action"),
        kinds=frozenset({"misformatted"}),
    ),
    Case(
        "two_lines",
        None,
        ("misformatted", 1, "no message asked for"),
        kinds=frozenset({"misformatted", "illegal"}),
    ),
    Case(
        "huge_line",
        {"misformatted": 1, "timeout": 1},
        ("misformatted", 1, "sent a line longer than 65536 bytes"),
    ),
    Case("stdout_flood", {}, rounds=60, check=log_capped),
    Case(
        "memory_hog", {"crash": 1}, ("crash", 2, "exited (exit code 1)"), check=memory_error_logged
    ),
    Case(
        "orphan_children",
        {"crash": 1},
        ("crash", 3, "exited (exit code 7)"),
        check=pid_files_gone(["child-0.pid", "child-1.pid", "child-2.pid"]),
    ),
    Case("double_fork", {}, check=pid_files_gone(["grandchild.pid"])),
    Case("clean_env_escape", {}, check=pid_files_gone(["grandchild.pid"])),
    Case(
        "close_and_linger",
        {"disconnected": 1},
        ("disconnected", 3, "closed the connection while still running"),
        console="bot close_and_linger disconnected in hand 3: closed the connection",
    ),
    Case("ignores_sigterm", {}),
    Case(
        "illegal",
        None,
        ("illegal", 1, "attempted illegal Raise with amount 1000000"),
        kinds=frozenset({"illegal"}),
    ),
    Case(
        "build_fails",
        {"build_failed": 1},
        ("build_failed", 0, "build exited with status 2"),
        starts=False,
    ),
    Case(
        "build_hangs",
        {"build_failed": 1},
        ("build_failed", 0, "build timed out after 1.0 s"),
        starts=False,
    ),
    Case(
        "cpu_spinner",
        {"crash": 1},
        ("crash", 2, "exited (signal 24 (SIGXCPU))"),
        config={"limits": {"cpu_seconds": 1}, "runner": {"reply_timeout": 5.0}},
    ),
    Case(
        "hangs_then_dies",
        {"timeout": 1, "crash": 1},
        ("timeout", 2, "no reply within 1.000 s"),
        rounds=40,
        opponent="polite",
        env={"POLITE_DELAY": "0.02"},
        check=crash_after_timeout,
    ),
    Case(
        "socket_flood",
        None,
        ("misformatted", 1, "no message asked for"),
        kinds=frozenset({"misformatted", "illegal"}),
    ),
    Case(
        "crash_at_hand_end",
        {"crash": 1},
        ("crash", 3, "exited (exit code 4)"),
        opponent="polite",
        check=opponent_clean,
    ),
]


# --- helpers ----------------------------------------------------------------------------------


def gone(pid: int) -> bool:
    """True if ``pid`` no longer runs (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
    except OSError:
        return True
    return state in (b"Z", b"X")


def leftovers(directories: list[Path], mark: str | None) -> list[str]:
    """Live processes with ``mark`` in their environment (unless None) or a working directory
    in one of ``directories``."""
    roots = [str(d.resolve()) for d in directories]
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid() or gone(int(name)):
            continue
        try:
            cwd = os.readlink(f"/proc/{name}/cwd")
            environ = Path(f"/proc/{name}/environ").read_bytes()
        except OSError:
            continue
        inside = any(cwd == root or cwd.startswith(root + os.sep) for root in roots)
        if inside or (mark is not None and f"{MARK}={mark}".encode() in environ.split(b"\0")):
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ")
            found.append(f"{name}: {cmdline.decode(errors='replace')} (cwd {cwd})")
    return found


def copy_bot(name: str, tmp_path: Path) -> Path:
    """A fresh copy of the corpus bot ``name`` with this checkout's SDK vendored, as
    ``pokerbots new`` vendors it (its sources: where the kit is compiled, a link to the
    package would hand the bot extension modules it cannot load on its own)."""
    target = tmp_path / name
    shutil.copytree(HOSTILE / name, target)
    vendor_sdk(target / "sdk")
    return target


def write_config(path: Path, rounds: int, overrides: dict[str, dict[str, float]]) -> Path:
    """A TOML match config: short timeouts and small limits, with ``overrides`` on top."""
    sections: dict[str, dict[str, float]] = {
        "match": {"rounds": rounds, "seed": 7},
        "rules": {"game_clock": 30.0},
        "runner": {
            "build_timeout": 1.0,
            "connect_timeout": 3.0,
            "reply_timeout": 1.0,
            "log_limit": LOG_LIMIT,
            "quit_grace": 0.5,
        },
        "limits": {"address_space": 512 * 2**20, "open_files": 256, "cpu_seconds": 0},
    }
    for section, values in overrides.items():
        sections[section] = {**sections[section], **values}
    text = "".join(
        f"[{section}]\n" + "".join(f"{key} = {value!r}\n" for key, value in values.items())
        for section, values in sections.items()
    )
    path.write_text(text)
    return path


def runner_env(mark: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a runner process: the marker, this checkout, a wide console."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, MARK: mark, "PYTHONPATH": path, "COLUMNS": "200", **(extra or {})}


def run_runner(
    args: list[str], tmp_path: Path, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``pokerbots ARGS`` in a child process; return it and its peak RSS in bytes."""
    rss_file = tmp_path / "runner-rss"
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(rss_file), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, int(rss_file.read_text()) * 1024


def check_consistent(outcome: Outcome, rounds: int) -> None:
    """The three logs agree with each other and with a complete match."""
    summary, hands, gamelog = outcome.summary, outcome.hands, outcome.gamelog
    assert summary["rounds"] == summary["rounds_scheduled"] == rounds
    assert summary["interrupted"] is False
    assert [hand["hand"] for hand in hands] == list(range(1, rounds + 1))
    names = [player["name"] for player in summary["players"]]
    bankrolls = [player["bankroll"] for player in summary["players"]]
    assert sum(bankrolls) == 0
    for slot, name in enumerate(names):
        won = sum(hand["deltas"][hand["players"].index(name)] for hand in hands)
        assert won == bankrolls[slot]
    assert gamelog.startswith(f"6.9630 MIT Pokerbots - {names[0]} vs {names[1]}")
    assert all(f"Round #{number}, " in gamelog for number in range(1, rounds + 1))
    assert "\nFinal, " in gamelog
    for slot, name in enumerate(names):
        details = outcome.details(slot)
        in_hands = [
            {key: fault[key] for key in ("kind", "hand", "detail")}
            for hand in hands
            for fault in hand["faults"]
            if fault["player"] == name
        ]
        for fault in in_hands:
            if len(details) < MAX_FAULT_DETAILS:  # summary.json keeps the first 50 only
                assert fault in details, f"{fault} is in hands.jsonl but not in summary.json"
            kind = FaultKind(fault["kind"])
            line = format_fault(name, Fault(kind, fault["hand"], fault["detail"]))
            assert line in gamelog, f"{line!r} is not in gamelog.txt"
        # Only faults noticed after the last hand was logged are missing from the hand records.
        for detail in details:
            if detail not in in_hands:
                assert detail["hand"] == rounds, detail
        total = sum(outcome.faults(slot).values())
        assert total == len(details) or len(details) == MAX_FAULT_DETAILS


def check_first_fault(outcome: Outcome, first: tuple[str, int, str]) -> None:
    kind, hand, piece = first
    details = outcome.details(kind=kind)
    assert details, f"no {kind} fault in {outcome.details()}"
    assert details[0]["hand"] == hand, details[0]
    assert piece in details[0]["detail"], details[0]


# --- the corpus ---------------------------------------------------------------------------------


#: How the runner finds a bot's processes: with what Linux alone has (the child subreaper),
#: and the portable path alone, as on macOS (psutil, no prctl), forced on Linux.
PROCESS_PATHS = {"linux": {}, "portable": {PORTABLE_VAR: "1"}}
#: The one case only the subreaper catches (see the test after this one).
NEEDS_SUBREAPER = "clean_env_escape"
RUNS = [
    pytest.param(case, path, id=f"{case.name}-{path}")
    for case in CASES
    for path in PROCESS_PATHS
    if not (path == "portable" and case.name == NEEDS_SUBREAPER)
]


@pytest.mark.parametrize(("case", "path"), RUNS)
def test_hostile_bot(case: Case, path: str, tmp_path: Path) -> None:
    mark = uuid.uuid4().hex
    bot = copy_bot(case.name, tmp_path)
    opponent = case.opponent
    directories = [bot]
    if not opponent.startswith("builtin:"):
        directories.append(copy_bot(opponent, tmp_path))
        opponent = str(directories[-1])
    config = write_config(tmp_path / "config.toml", case.rounds, case.config)
    out = tmp_path / "out"
    args = ["scrimmage", str(bot), opponent, "--config", str(config), "--out", str(out)]
    began = time.monotonic()
    env = runner_env(mark, {**PROCESS_PATHS[path], **(case.env or {})})
    done, rss = run_runner(args if case.console else [*args, "--json"], tmp_path, env)
    seconds = time.monotonic() - began
    assert done.returncode == (0 if case.starts else 3), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    outcome = Outcome(
        summary=json.loads((out / "summary.json").read_text()),
        hands=[json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()],
        gamelog=(out / "gamelog.txt").read_text(),
        stdout=done.stdout,
        bot_dir=bot,
        out=out,
        seconds=seconds,
    )
    if not case.console:
        printed = json.loads(done.stdout)
        assert printed["players"] == outcome.summary["players"]
    left = leftovers(directories, mark)
    assert not left, f"processes outlived the match: {left}"
    if case.starts:
        check_consistent(outcome, case.rounds)
    else:  # stopped before the first hand, with the cause and the end of the log on stderr
        assert outcome.summary["rounds"] == 0 and outcome.hands == []
        assert outcome.player()["start_failure"] is not None
        assert "did not start" in done.stderr
    if case.faults is not None:
        assert outcome.faults() == case.faults, outcome.details()
    else:
        assert set(outcome.faults()) <= case.kinds, outcome.details()
    if case.first is not None:
        check_first_fault(outcome, case.first)
    if case.console is not None:
        assert case.console in done.stdout + done.stderr, done.stdout + done.stderr
    if case.check is not None:
        case.check(outcome)
    assert case.opponent != "builtin:checkcall" or outcome.faults(1) == {}
    assert rss < MAX_RUNNER_RSS, f"the runner peaked at {rss / 2**20:.0f} MiB"
    print(f"{case.name}: runner peak RSS {rss / 2**20:.1f} MiB, {seconds:.1f} s")


def test_without_a_subreaper_a_process_that_hides_at_once_is_not_found(tmp_path: Path) -> None:
    """The portable path's known limit, stated in docs/faults.md: a process that, within one
    watcher interval, leaves the bot's session, clears its environment and leaves its
    directory, its parent gone, keeps running (Linux's subreaper keeps it a descendant: the
    same bot is ended in ``test_hostile_bot[clean_env_escape-linux]``)."""
    mark = uuid.uuid4().hex
    bot = copy_bot(NEEDS_SUBREAPER, tmp_path)
    config = write_config(tmp_path / "config.toml", 5, {})
    args = ["scrimmage", str(bot), "builtin:checkcall", "--config", str(config)]
    env = runner_env(mark, PROCESS_PATHS["portable"])
    done, _ = run_runner([*args, "--out", str(tmp_path / "out"), "--json"], tmp_path, env)
    assert done.returncode == 0, done.stderr
    pid = int((bot / "grandchild.pid").read_text())
    try:
        assert not gone(pid), "found after all: update this test and docs/faults.md"
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# --- Ctrl-C ---------------------------------------------------------------------------------------


def pokerbots_command() -> list[str]:
    """The installed ``pokerbots`` script next to this interpreter, or the same main() via -c."""
    script = Path(sys.executable).with_name("pokerbots")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from local_runner.cli import main; sys.exit(main())"]


def default_sigint() -> None:
    """Give the runner the SIGINT disposition of a terminal's foreground program.

    A shell starts background jobs with SIGINT ignored, and Python keeps it ignored; the test
    must not depend on how it was started.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def progress(bot: Path) -> int:
    try:
        return int((bot / "progress").read_text())
    except (OSError, ValueError):
        return 0


@pytest.mark.parametrize(
    ("when", "target"),
    [
        ("match", "runner"),  # SIGINT to the runner's pid only
        ("match", "group"),  # SIGINT to the runner's process group, like a terminal's Ctrl-C
        ("match", "term"),  # SIGTERM to the runner's pid, as a job scheduler stops it
        ("build", "group"),
        ("connect", "group"),
    ],
)
def test_ctrl_c_ends_the_bots_and_keeps_the_logs(when: str, target: str, tmp_path: Path) -> None:
    interrupt_scrimmage(when, target, tmp_path)


def interrupt_scrimmage(when: str, target: str, tmp_path: Path, *extra: str) -> None:
    """Send SIGINT to a ``pokerbots scrimmage`` (during ``when``: match, build or connect) and
    check that it ends cleanly: status 130, the message, the logs, no bot left, no SIGINT seen
    by the bot."""
    mark = uuid.uuid4().hex
    name = {"match": "sigint_watcher", "build": "build_hangs", "connect": "never_connects"}[when]
    bot = copy_bot(name, tmp_path)
    config = write_config(
        tmp_path / "config.toml",
        100_000,
        {"runner": {"build_timeout": 60.0, "connect_timeout": 60.0}},
    )
    out = tmp_path / "out"
    runner = subprocess.Popen(
        [
            *pokerbots_command(),
            "scrimmage",
            str(bot),
            "builtin:checkcall",
            "--config",
            str(config),
            "--out",
            str(out),
            *extra,
        ],
        cwd=tmp_path,
        env=runner_env(mark),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the runner leads its own process group
        preexec_fn=default_sigint,
    )
    try:
        if when == "match":
            wait_for(lambda: progress(bot) >= 5, 30, "the bot to play five hands")
        else:
            wait_for(lambda: bool(leftovers([bot], None)), 30, "the bot's processes to start")
            time.sleep(0.3)
        if target == "runner":
            os.kill(runner.pid, signal.SIGINT)
        elif target == "term":
            os.kill(runner.pid, signal.SIGTERM)
        else:
            os.killpg(runner.pid, signal.SIGINT)
        _, stderr = runner.communicate(timeout=15)
    finally:
        if runner.poll() is None:  # the test failed: do not leave the runner's bots running
            runner.kill()
            runner.wait()
            for line in leftovers([bot], mark):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(line.split(":")[0]), signal.SIGKILL)
    assert runner.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    summary = json.loads((out / "summary.json").read_text())
    hands = (out / "hands.jsonl").read_text().splitlines()
    played = summary["rounds"]
    assert f"Interrupted: {played} hands were played; their logs are in {out}." in stderr
    assert summary["interrupted"] is True
    assert len(hands) == played
    assert (out / "gamelog.txt").read_text().rstrip().splitlines()[-1].startswith("Final, ")
    if when == "match":
        assert played >= 5
    else:
        assert played == 0
    assert not (bot / "got-sigint").exists(), "the Ctrl-C reached the bot"
    assert not leftovers([bot], mark)


# --- leftovers that resist SIGKILL ----------------------------------------------------------


def test_processes_that_survive_sigkill_are_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing survives SIGKILL on a healthy machine (a process stuck in the kernel can), so the
    # stop report is doctored: the point is where survivors end up.
    # (The runner stops a table's bots together, through stop_bots.)
    real_stop = scrimmage.stop_bots

    def stop(bots: Sequence[BotProcess], grace: float = 2.0) -> list[StopReport]:
        return [
            dataclasses.replace(report, survivors=(4242, 4343)) for report in real_stop(bots, grace)
        ]

    monkeypatch.setattr(scrimmage, "stop_bots", stop)
    bot = copy_bot("polite", tmp_path)
    out = tmp_path / "out"
    config = ScrimmageConfig(rules=Rules().replace(num_rounds=5), seed=1)
    result = run_scrimmage(
        [BotSpec.parse(str(bot)), BotSpec.parse("builtin:checkcall")], config, out
    )
    player = json.loads((out / "summary.json").read_text())["players"][0]
    assert player["leftover_processes"] == [4242, 4343]
    assert player["fault_details"][-1] == {
        "kind": "leftover_processes",
        "hand": 5,
        "detail": "2 process(es) survived SIGKILL: pid 4242, 4343",
    }
    assert result.hands_played == 5


# --- the seat itself, over a socket pair ----------------------------------------------------


def seat_pair(
    exit_status: Callable[[], str | None] = lambda: None,
) -> tuple[SocketSeat, socket.socket]:
    """A seat on one end of a connected pair of Unix sockets, and the bot's end."""
    runner_end, bot_end = socket.socketpair()
    return SocketSeat("A", runner_end, exit_status), bot_end


def later(delay: float, action: Callable[[], object]) -> threading.Thread:
    """Run ``action`` after ``delay`` seconds in a thread (the bot, while the runner waits)."""

    def run() -> None:
        time.sleep(delay)
        action()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_an_over_long_line_is_answered_at_once_and_the_rest_of_it_dropped() -> None:
    seat, bot = seat_pair()
    seat.send([Clock(30.0)], hand=1, ack=False)
    bot.sendall(b"R" * (MAX_LINE_BYTES + 10))  # and no newline
    reply = seat.receive(30.0)
    assert reply.fault is FaultKind.MISFORMATTED
    assert reply.detail == f"sent a line longer than {MAX_LINE_BYTES} bytes"
    # The kit's own clock: a wait for the newline would have used the whole 30 s budget.
    assert reply.elapsed < 10.0
    bot.sendall(b"RRRR\nK\n")  # the end of the long line, then the next reply
    seat.send([Clock(30.0)], hand=1, ack=False)
    assert seat.receive(1.0).action == CheckAction()
    # A line of exactly the limit is fine; one byte more is not.
    bot.sendall(b"K" + b" " * (MAX_LINE_BYTES - 1) + b"\n" + b"K" + b" " * MAX_LINE_BYTES + b"\n")
    seat.send([Clock(30.0)], hand=2, ack=False)
    seat.send([Clock(30.0)], hand=2, ack=False)
    assert seat.receive(1.0).action == CheckAction()
    assert seat.receive(1.0).fault is FaultKind.MISFORMATTED


def test_a_garbage_reply_is_quoted_briefly() -> None:
    seat, bot = seat_pair()
    bot.sendall(b"x" * 50_000 + b"\n")
    seat.send([Clock(30.0)], hand=1, ack=False)
    reply = seat.receive(1.0)
    assert reply.fault is FaultKind.MISFORMATTED
    assert len(reply.detail) < 300 and len(reply.text) < 300


def test_time_is_charged_from_when_the_bot_could_start() -> None:
    # Inequalities that hold however slow the machine is (no window on the wall clock): each
    # reply is charged at least the time the bot took, and together no more than the time that
    # passed from the first message to the last reply.  Charged from its own message, the
    # second reply would add the 0.3 s the bot spent on the first one again, past that total.
    seat, bot = seat_pair()
    began = time.perf_counter()
    seat.send([Clock(30.0)], hand=1, ack=True)  # the end of a hand ...
    seat.send([Clock(30.0)], hand=2, ack=False)  # ... and the next hand, at once
    time.sleep(0.3)
    bot.sendall(b"K\n")  # 0.3 s after both messages were sent
    first = seat.receive(10.0)
    time.sleep(0.2)
    bot.sendall(b"C\n")  # at least 0.2 s after its previous reply arrived
    second = seat.receive(10.0)
    ended = time.perf_counter()
    assert first.is_ack and first.action == CheckAction()
    assert second.action == CallAction()
    assert first.elapsed >= 0.3
    assert second.elapsed >= 0.2
    assert first.elapsed + second.elapsed <= ended - began


def test_a_late_reply_is_discarded_and_the_bot_skipped_until_it_comes() -> None:
    seat, bot = seat_pair()
    seat.send([Clock(30.0)], hand=1, ack=True)
    seat.send([Clock(30.0)], hand=2, ack=False)
    late = later(3.0, lambda: bot.sendall(b"K\nR50\n"))
    began = time.perf_counter()
    timed_out = seat.receive(0.1)
    assert timed_out.fault is FaultKind.TIMEOUT and timed_out.elapsed == 0.1
    # The message already on its way cannot have been started: a default, at once, no charge.
    in_flight = seat.receive(0.1)
    assert (in_flight.action, in_flight.fault, in_flight.elapsed) == (None, None, 0.0)
    # The late lines come after 3 s; returning within 2 s proves neither receive waited for them.
    assert time.perf_counter() - began < 2.0
    assert seat.busy
    late.join()
    time.sleep(0.05)
    assert not seat.busy  # both late lines arrived and were dropped
    seat.send([Clock(30.0)], hand=3, ack=False)
    bot.sendall(b"F\n")
    assert seat.receive(1.0).action == FoldAction()
    assert seat.take_unrequested() == 0


def test_extra_lines_are_counted_and_dropped() -> None:
    seat, bot = seat_pair()
    seat.send([Clock(30.0)], hand=1, ack=False)
    bot.sendall(b"C\nC\nC\n")
    assert seat.receive(1.0).action == CallAction()
    time.sleep(0.05)
    seat.send([Clock(30.0)], hand=1, ack=False)
    later(0.1, lambda: bot.sendall(b"K\n"))
    assert seat.receive(1.0).action == CheckAction()
    assert seat.take_unrequested() == 2


def test_a_crash_noticed_for_another_seat_is_still_reported() -> None:
    status: list[str] = []
    crasher, crasher_bot = seat_pair(lambda: status[0] if status else None)
    other, other_bot = seat_pair()
    other.peers = [crasher]
    crasher.send([Clock(30.0)], hand=7, ack=True)  # an end of hand, not waited for
    crasher_bot.close()
    status.append("exit code 3")
    other.send([Clock(30.0)], hand=7, ack=False)
    later(0.2, lambda: other_bot.sendall(b"K\n"))
    assert other.receive(1.0).action == CheckAction()  # the crasher's end was read meanwhile
    assert crasher.alive  # until the crash is reported
    reply = crasher.receive(1.0)
    assert (reply.hand, reply.fault, reply.detail) == (7, FaultKind.CRASH, "exited (exit code 3)")
    assert not crasher.alive
    crasher.send([Clock(30.0)], hand=8, ack=False)
    assert crasher.receive(1.0).fault is None  # reported once
