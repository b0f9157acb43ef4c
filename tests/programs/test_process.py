"""Tests for local_runner.programs.process, run against real child processes (Linux only)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from local_runner.programs import process as process_module
from local_runner.programs.bot_program import BotDirectoryError, BotProgram
from local_runner.programs.process import BotProcess, BotStartError, ResourceLimits

pytestmark = pytest.mark.slow  # real processes

PY = sys.executable


def make_bot(tmp_path: Path, run: list[str], build: list[str] | None = None) -> BotProgram:
    """A commands.json bot in tmp_path/bot."""
    bot = tmp_path / "bot"
    bot.mkdir(exist_ok=True)
    (bot / "commands.json").write_text(json.dumps({"build": build or [], "run": run}))
    return BotProgram.from_directory(bot)


def make_startme(tmp_path: Path, script: str, executable: bool = True) -> Path:
    bot = tmp_path / "bot"
    bot.mkdir(exist_ok=True)
    startme = bot / "startme.sh"
    startme.write_text("#!/bin/sh\n" + script)
    if executable:
        startme.chmod(startme.stat().st_mode | stat.S_IXUSR)
    return bot


def process(
    tmp_path: Path,
    program: BotProgram,
    log_limit: int = 1 << 20,
    limits: ResourceLimits | None = None,
    env: dict[str, str] | None = None,
) -> BotProcess:
    """A BotProcess named A logging to tmp_path/logs/A.log."""
    log_path = tmp_path / "logs" / "A.log"
    return BotProcess(
        program, name="A", log_path=log_path, log_limit=log_limit, limits=limits, env=env
    )


def wait_exit(proc: BotProcess, timeout: float = 10.0) -> int:
    deadline = time.monotonic() + timeout
    while (code := proc.poll()) is None:
        assert time.monotonic() < deadline, "bot did not exit in time"
        time.sleep(0.02)
    return code


def wait_for_file(path: Path, timeout: float = 5.0) -> str:
    deadline = time.monotonic() + timeout
    while not (path.exists() and path.read_text().strip()):
        assert time.monotonic() < deadline, f"{path} was not written"
        time.sleep(0.02)
    return path.read_text().strip()


def gone(pid: int) -> bool:
    """True if pid no longer runs (a zombie waiting for init to reap it counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0]
    except OSError:
        return True
    return state in (b"Z", b"X")


# --- reading bot directories ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"build": [], "run": ["x"]', "not valid JSON"),
        ('["python3"]', "JSON object, not a list"),
        ('{"run": ["python3"]}', 'no "build" key'),
        ('{"build": []}', 'no "run" key'),
        ('{"build": "make", "run": ["x"]}', '"build" must be a list of strings'),
        ('{"build": [], "run": ["python3", 7]}', 'element 1 of "run" is 7'),
        ('{"build": [], "run": []}', '"run" is empty'),
    ],
)
def test_commands_json_errors_name_the_problem(tmp_path: Path, content: str, expected: str) -> None:
    (tmp_path / "commands.json").write_text(content)
    with pytest.raises(BotDirectoryError) as info:
        BotProgram.from_directory(tmp_path)
    message = str(info.value)
    assert "commands.json" in message
    assert expected in message
    assert message.endswith(".")


def test_commands_json_is_parsed(tmp_path: Path) -> None:
    program = make_bot(tmp_path, ["python3", "player.py"], build=["make", "all"])
    assert program.directory == (tmp_path / "bot").resolve()
    assert program.directory.is_absolute()
    assert program.build == ("make", "all")
    assert program.run == ("python3", "player.py")
    assert not program.append_host
    assert program.source == "commands.json"


def test_startme_sh(tmp_path: Path) -> None:
    program = BotProgram.from_directory(make_startme(tmp_path, "exit 0\n"))
    assert program.run == ("./startme.sh",)
    assert program.build == ()
    assert program.append_host
    assert program.source == "startme.sh"


def test_startme_sh_without_exec_bit(tmp_path: Path) -> None:
    bot = make_startme(tmp_path, "exit 0\n", executable=False)
    with pytest.raises(BotDirectoryError, match=r"not executable.*chmod \+x startme\.sh"):
        BotProgram.from_directory(bot)


def test_empty_or_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(BotDirectoryError, match=r"neither commands\.json nor startme\.sh"):
        BotProgram.from_directory(tmp_path)
    with pytest.raises(BotDirectoryError, match="does not exist"):
        BotProgram.from_directory(tmp_path / "missing")


# --- building -------------------------------------------------------------------------------


def test_build_success_runs_in_bot_directory(tmp_path: Path) -> None:
    program = make_bot(tmp_path, ["x"], build=["sh", "-c", "echo compiling; echo ok > built.txt"])
    proc = process(tmp_path, program)
    result = proc.build(timeout=10.0)
    proc.stop()
    assert result.ok and result.exit_code == 0 and not result.timed_out
    assert (program.directory / "built.txt").read_text() == "ok\n"
    log = (tmp_path / "logs" / "A.log").read_text()
    assert "--- build: sh -c" in log and "compiling" in log


def test_build_skipped_when_empty(tmp_path: Path) -> None:
    result = process(tmp_path, make_bot(tmp_path, ["x"])).build(timeout=1.0)
    assert result.ok and result.exit_code is None and result.message.startswith("build skipped")


def test_build_failure_is_reported(tmp_path: Path) -> None:
    program = make_bot(tmp_path, ["x"], build=["sh", "-c", "echo broken >&2; exit 1"])
    result = process(tmp_path, program).build(timeout=10.0)
    assert not result.ok and result.exit_code == 1 and not result.timed_out
    assert result.message == "build exited with status 1"
    assert "broken" in (tmp_path / "logs" / "A.log").read_text()


def test_build_command_not_found(tmp_path: Path) -> None:
    program = make_bot(tmp_path, ["x"], build=["./no-such-compiler"])
    result = process(tmp_path, program).build(timeout=10.0)
    assert not result.ok and result.exit_code is None
    assert "could not be started" in result.message


def test_build_timeout_kills_the_build(tmp_path: Path) -> None:
    program = make_bot(tmp_path, ["x"], build=["sh", "-c", "sleep 30 & echo $! > sleep.pid; wait"])
    began = time.monotonic()
    result = process(tmp_path, program).build(timeout=0.5)
    # The build sleeps 30 s; 15 s proves it was killed, not waited for (a loaded machine is slow).
    assert time.monotonic() - began < 15.0
    assert result.timed_out and not result.ok
    assert result.message == "build timed out after 0.5 s"
    assert gone(int((program.directory / "sleep.pid").read_text()))


# --- running --------------------------------------------------------------------------------


def test_startme_gets_host_port_and_env(tmp_path: Path) -> None:
    bot = make_startme(tmp_path, 'echo "$1 $2 $POKERBOTS_RULES" > args.txt\n')
    proc = process(tmp_path, BotProgram.from_directory(bot), env={"POKERBOTS_RULES": "nlhe"})
    proc.start(host="127.0.0.1", port=54321)
    assert wait_exit(proc) == 0
    assert (bot / "args.txt").read_text() == "127.0.0.1 54321 nlhe\n"
    assert proc.stop().exit_code == 0


def test_commands_json_gets_only_the_port(tmp_path: Path) -> None:
    script = "import sys; open('args.txt', 'w').write(' '.join(sys.argv[1:]))"
    program = make_bot(tmp_path, [PY, "-c", script])
    with process(tmp_path, program) as proc:
        proc.start(host="127.0.0.1", port=4000)
        wait_exit(proc)
    assert (program.directory / "args.txt").read_text() == "4000"


def test_output_is_capped_without_buffering(tmp_path: Path) -> None:
    limit = 64 * 1024
    script = "import sys\nfor _ in range(50): sys.stdout.buffer.write(b'x' * 100_000)"
    proc = process(tmp_path, make_bot(tmp_path, [PY, "-c", script]), log_limit=limit)
    tracemalloc.start()
    try:
        proc.start(host="127.0.0.1", port=1)
        assert wait_exit(proc) == 0
        report = proc.stop()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.exit_code == 0 and not report.killed
    assert proc.output_truncated
    assert proc.bytes_logged == limit
    assert proc.bytes_dropped == 5_000_000 - limit
    log = (tmp_path / "logs" / "A.log").read_bytes()
    assert len(log) <= limit + 400
    assert b"output truncated at 65536 bytes" in log
    assert f"{5_000_000 - limit} bytes of output dropped".encode() in log
    assert peak < 2_000_000  # the 5 MB went through in chunks, never all at once


def test_exit_descriptions(tmp_path: Path) -> None:
    exits = process(tmp_path, make_bot(tmp_path, ["sh", "-c", "exit 3"]))
    assert exits.exit_description() == "not started"
    exits.start(host="127.0.0.1", port=1)
    assert wait_exit(exits) == 3
    assert exits.exit_description() == "exit code 3"
    exits.stop()

    killed = process(tmp_path, make_bot(tmp_path, ["sh", "-c", "sleep 0.3; kill -9 $$"]))
    killed.start(host="127.0.0.1", port=1)
    assert killed.exit_description() == "still running"
    assert wait_exit(killed) == -9
    assert killed.exit_description() == "signal 9 (SIGKILL)"
    killed.stop()


def test_address_space_limit(tmp_path: Path) -> None:
    program = make_bot(tmp_path, [PY, "-c", "x = bytearray(1 << 30)"])
    proc = process(tmp_path, program, limits=ResourceLimits(address_space=256 * 2**20))
    proc.start(host="127.0.0.1", port=1)
    assert wait_exit(proc) != 0
    proc.stop()
    assert "MemoryError" in (tmp_path / "logs" / "A.log").read_text()


@pytest.mark.parametrize(
    ("limits", "script", "expected"),
    [
        (ResourceLimits(cpu_seconds=1), "while True: pass", -24),  # SIGXCPU
        (ResourceLimits(open_files=32), "[open('/dev/null') for _ in range(64)]", 1),
    ],
)
def test_cpu_and_open_file_limits(
    tmp_path: Path, limits: ResourceLimits, script: str, expected: int
) -> None:
    proc = process(tmp_path, make_bot(tmp_path, [PY, "-c", script]), limits=limits)
    proc.start(host="127.0.0.1", port=1)
    assert wait_exit(proc) == expected
    proc.stop()


def test_start_failure_is_a_clear_error(tmp_path: Path) -> None:
    proc = process(tmp_path, make_bot(tmp_path, ["./no-such-player"]))
    with pytest.raises(BotStartError, match=r"could not be started.*commands\.json"):
        proc.start(host="127.0.0.1", port=1)
    assert proc.stop().exit_code is None


def test_limits_refused_by_the_new_process_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """valgrind refuses the address-space limit in the child: the error must not blame the
    bot's command, and must say how to go on."""

    def refusing(limits: ResourceLimits, adopt_orphans: bool) -> Callable[[], None]:
        def apply() -> None:
            raise PermissionError(1, "setrlimit refused")

        return apply

    monkeypatch.setattr(process_module, "_preexec", refusing)
    proc = process(tmp_path, make_bot(tmp_path, [PY, "-c", "pass"]))
    with pytest.raises(BotStartError) as raised:
        proc.start(host="127.0.0.1", port=1)
    message = str(raised.value)
    assert "resource limits" in message and "[limits]" in message
    assert "commands.json" not in message
    assert proc.stop().exit_code is None
    assert "could not start" in (tmp_path / "logs" / "A.log").read_text()


# --- stopping -------------------------------------------------------------------------------


def test_stop_before_start_and_twice(tmp_path: Path) -> None:
    proc = process(tmp_path, make_bot(tmp_path, ["x"]))
    first = proc.stop()
    assert first.exit_code is None and not first.killed and first.survivors == ()
    assert proc.stop() is first
    with pytest.raises(RuntimeError):
        proc.start(host="127.0.0.1", port=1)


def test_stop_kills_a_bot_that_ignores_sigterm(tmp_path: Path) -> None:
    bot = make_startme(tmp_path, "trap '' TERM\necho $$ > main.pid\nsleep 1000\n")
    proc = process(tmp_path, BotProgram.from_directory(bot))
    proc.start(host="127.0.0.1", port=1)
    wait_for_file(bot / "main.pid")
    began = time.monotonic()
    report = proc.stop(grace=0.2)
    # The bot sleeps 1000 s and ignores SIGTERM; 30 s proves it was killed, not waited for.
    assert time.monotonic() - began < 30.0
    assert report.killed and report.exit_code == -9 and report.survivors == ()
    assert report.descendants_killed >= 1  # the sleep
    assert proc.exit_description() == "signal 9 (SIGKILL)"
    assert proc.stop() is report


DOUBLE_FORK = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open("grandchild.pid.tmp", "w").write(str(os.getpid()))
        os.rename("grandchild.pid.tmp", "grandchild.pid")
        if sys.argv[1] == "clear-env":
            os.execve("/bin/sleep", ["sleep", "1000"], {})
        time.sleep(1000)
    time.sleep(float(sys.argv[2]))  # then exit, leaving the grandchild to init
    os._exit(0)
time.sleep(1000)
"""


@pytest.mark.parametrize(
    ("mode", "parent_lingers"),
    [
        ("keep-env", "0"),  # found through the environment token
        ("clear-env", "1"),  # found as a descendant while its parent lived, then remembered
    ],
)
def test_stop_kills_double_forked_children(tmp_path: Path, mode: str, parent_lingers: str) -> None:
    program = make_bot(tmp_path, [PY, "-c", DOUBLE_FORK, mode, parent_lingers])
    proc = process(tmp_path, program)
    proc.start(host="127.0.0.1", port=1)
    grandchild = int(wait_for_file(program.directory / "grandchild.pid"))
    time.sleep(float(parent_lingers) + 0.3)  # the grandchild is now an orphan in its own session
    assert not gone(grandchild)
    assert os.getsid(grandchild) != proc.pid
    report = proc.stop(grace=0.1)
    assert report.killed and report.survivors == ()
    assert report.descendants_killed >= 1
    assert gone(grandchild)


SUBREAPER_RUNNER = """
import os, sys, time
from pathlib import Path
from local_runner.programs.bot_program import BotProgram
from local_runner.programs.process import BotProcess
from local_runner.programs.proc_tracker import enable_child_subreaper

assert enable_child_subreaper()
bot = Path(sys.argv[1])
proc = BotProcess(BotProgram.from_directory(bot), name="A", log_path=bot / "A.log")
proc.start(host="127.0.0.1", port=1)
while not (bot / "grandchild.pid").exists():
    time.sleep(0.02)
time.sleep(0.3)
grandchild = Path("/proc", (bot / "grandchild.pid").read_text())
ppid = grandchild.joinpath("stat").read_text().rpartition(")")[2].split()[1]
assert ppid == str(os.getpid()), "the orphan should have been reparented to this runner"
report = proc.stop(grace=0.1)
assert report.survivors == () and report.descendants_killed >= 1, report
assert not grandchild.exists(), "the orphan should have been killed and reaped"
"""


def test_orphans_reparented_to_a_subreaper_runner_are_reaped(tmp_path: Path) -> None:
    program = make_bot(tmp_path, [PY, "-c", DOUBLE_FORK, "keep-env", "0"])
    repo = Path(__file__).resolve().parents[2]
    # A separate runner process, because the subreaper setting cannot be undone in this one.
    done = subprocess.run(
        [PY, "-c", SUBREAPER_RUNNER, str(program.directory)],
        env={**os.environ, "PYTHONPATH": str(repo)},
        capture_output=True,
        text=True,
        timeout=15,
    )
    assert done.returncode == 0, done.stderr
