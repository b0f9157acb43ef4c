"""The bubblewrap sandbox: bots play normally, and cannot reach the network or write outside.

The tests that run bots in the sandbox need Debian's bubblewrap (``bwrap``) and skip, saying
so, only when it is not installed; a bwrap that is installed but cannot create a sandbox here
makes them fail with the runner's explanation.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from local_runner.engine.records import MatchResult
from local_runner.programs import sandbox as sandbox_module
from local_runner.programs.sandbox import Sandbox, SandboxUnavailable, sandbox_problem
from local_runner.tables.config import Limits, RunnerSettings, ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, UsageError, run_scrimmage
from sdk.rules import Rules
from tests.engine.test_hostile import MARK, ROOT, copy_bot, interrupt_scrimmage, leftovers

pytestmark = pytest.mark.slow  # bot processes in bubblewrap


needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None,
    reason="bubblewrap (bwrap) is not installed; install it with `sudo apt-get install bubblewrap`",
)


@pytest.fixture
def no_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A PATH without bwrap on it (and the sandbox check forgotten before and after)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    sandbox_problem.cache_clear()
    yield
    sandbox_problem.cache_clear()


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> str:
    """A marker in this process's environment, which the bots it starts inherit."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    return value


def config(rounds: int, **runner: float) -> ScrimmageConfig:
    return ScrimmageConfig(
        rules=Rules().replace(num_rounds=rounds),
        seed=5,
        runner=RunnerSettings(**{"reply_timeout": 2.0, "quit_grace": 0.5, **runner}),
        limits=Limits(address_space=1024 * 2**20, open_files=256),
    )


def play(bots: list[Path | str], out: Path, rounds: int = 20, **runner: float) -> MatchResult:
    specs = [BotSpec.parse(str(bot)) for bot in bots]
    return run_scrimmage(specs, config(rounds, **runner), out, sandbox=True)


def faults(result: MatchResult, slot: int = 0) -> dict[str, int]:
    return {kind.value: n for kind, n in result.players[slot].fault_counts.items() if n}


# --- without bubblewrap ---------------------------------------------------------------------


@pytest.mark.usefixtures("no_bwrap")
def test_without_bwrap_the_message_says_how_to_install_it(tmp_path: Path) -> None:
    problem = sandbox_problem()
    assert problem is not None
    assert "bubblewrap" in problem and "sudo apt-get install bubblewrap" in problem
    with pytest.raises(SandboxUnavailable, match="sudo apt-get install bubblewrap"):
        Sandbox(tmp_path)
    bot = copy_bot("polite", tmp_path)
    with pytest.raises(UsageError, match="sudo apt-get install bubblewrap"):
        play([bot, "builtin:checkcall"], tmp_path / "out")


def test_the_command_line_says_how_to_install_bwrap(tmp_path: Path) -> None:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    bot = copy_bot("polite", tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from local_runner.cli import main; sys.exit(main())",
            "scrimmage",
            str(bot),
            "--rounds",
            "5",
            "--out",
            str(tmp_path / "out"),
            "--sandbox",
        ],
        env={**os.environ, "PATH": str(empty), "PYTHONPATH": str(ROOT), "COLUMNS": "300"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "sudo apt-get install bubblewrap" in done.stderr


# --- in the sandbox ---------------------------------------------------------------------------


@needs_bwrap
def test_a_normal_bot_plays_a_full_sandboxed_match_from_the_command_line(
    tmp_path: Path, mark: str
) -> None:
    assert sandbox_problem() is None, sandbox_problem()
    bot = copy_bot("polite", tmp_path)
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from local_runner.cli import main; sys.exit(main())",
            "scrimmage",
            str(bot),
            "builtin:random",
            "--rounds",
            "100",
            "--seed",
            "3",
            "--out",
            str(out),
            "--sandbox",
            "--json",
        ],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rounds"] == 100
    assert all(not any(player["faults"].values()) for player in summary["players"])
    assert "in the sandbox" in (out / "polite.log").read_text()
    assert not leftovers([bot], mark)


@needs_bwrap
def test_two_sandboxed_bots_play_each_other(
    tmp_path: Path, mark: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The sandboxes' private directories go to a folder of this test's own: other runs of the
    # kit on the machine (a parallel test, another checkout's suite) make theirs in /tmp.
    # (Short: a Unix socket's path has at most about 100 bytes.)
    private = Path(tempfile.mkdtemp(prefix="pbt-"))
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    first = copy_bot("polite", tmp_path / "a")
    second = copy_bot("polite", tmp_path / "b")
    result = play([first, second], tmp_path / "out", rounds=100)
    assert result.hands_played == 100
    assert faults(result, 0) == {} and faults(result, 1) == {}
    assert sum(player.bankroll for player in result.players) == 0
    assert not leftovers([first, second], mark)
    assert not list(private.iterdir()), "the sandboxes' private directories were not removed"
    private.rmdir()


@needs_bwrap
def test_a_sandboxed_bot_cannot_reach_the_network_or_write_outside(
    tmp_path: Path, mark: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not for bots\n")
    kit_file = ROOT / f".sandbox-escape-{mark}"
    out = tmp_path / "out"
    bot = copy_bot("sandbox_escape", tmp_path)
    opponent = copy_bot("polite", tmp_path / "opponent")
    with (
        socket.create_server(("127.0.0.1", 0)) as tcp,
        socket.socket(socket.AF_UNIX) as unix,
    ):
        unix.bind(str(outside / "listener.sock"))
        unix.listen(1)
        monkeypatch.setenv("PROBE_TCP_PORT", str(tcp.getsockname()[1]))
        monkeypatch.setenv("PROBE_UNIX_SOCKET", str(outside / "listener.sock"))
        monkeypatch.setenv("PROBE_OUTSIDE_FILE", str(outside / "escaped.txt"))
        monkeypatch.setenv("PROBE_KIT_FILE", str(kit_file))
        hidden = [outside, out, opponent]
        monkeypatch.setenv("PROBE_HIDDEN_DIRS", os.pathsep.join(map(str, hidden)))
        try:
            result = play([bot, opponent], out, rounds=30)
        finally:
            escaped_to_kit = kit_file.exists()
            kit_file.unlink(missing_ok=True)
        knocked, _, _ = select.select([tcp, unix], [], [], 0)
    report: dict[str, Any] = json.loads((bot / "report.json").read_text())
    print(json.dumps(report, indent=2))
    # No network: not the runner's machine, not the world, not a socket outside.
    assert knocked == [], "a connection from the sandbox reached the test's listeners"
    assert report["tcp_host_port"]["outcome"] == "ECONNREFUSED"  # only the sandbox's own loopback
    assert report["tcp_public"]["outcome"] == "ENETUNREACH"
    assert report["tcp_public"]["seconds"] < 1.0  # refused at once, nothing sent
    assert report["unix_outside"]["outcome"] == "ENOENT"  # /tmp is the sandbox's own
    # Writes outside its directory fail (or land in the sandbox's private /tmp, then vanish).
    assert report["write_outside"]["outcome"] == "ENOENT"
    assert not (outside / "escaped.txt").exists()
    assert report["write_etc"]["outcome"] == "EROFS"
    assert report["write_kit"]["outcome"] == "EROFS" and not escaped_to_kit
    assert report["write_home"]["outcome"] in ("EROFS", "EACCES")
    assert report["write_tmp"]["outcome"] == "ok" and not Path("/tmp/scratch.txt").exists()
    # Hidden: the test's files, the match's logs, the opponent's directory.
    assert all(probe["outcome"] in ([], "ENOENT") for probe in report["hidden"].values()), report
    # Its own process namespace: its processes only (bwrap's init, the relay, the bot).
    assert report["processes"] <= 5
    # Its own directory is writable, and it played a normal match.
    assert report["write_own_directory"]["outcome"] == "ok"
    assert (bot / "own-file.txt").read_text() == "escaped\n"
    assert result.hands_played == 30
    assert faults(result, 0) == {} and faults(result, 1) == {}
    assert not leftovers([bot, opponent], mark)


@needs_bwrap
@pytest.mark.parametrize(
    ("name", "expected", "hand", "detail"),
    [
        ("crash_mid_hand", {"crash": 1}, 4, "exited (signal 9 (SIGKILL))"),
        ("exit_at_start", {"never_connected": 1}, 0, "exited before connecting (exit code 3)"),
        ("close_and_linger", {"disconnected": 1}, 3, "closed the connection while still running"),
        ("orphan_children", {"crash": 1}, 3, "exited (exit code 7)"),
        ("double_fork", {}, 0, ""),
        ("silent", {"timeout": 1}, 1, "no reply within 2.000 s"),
    ],
)
def test_hostile_bots_in_the_sandbox_are_recorded_the_same(
    tmp_path: Path, mark: str, name: str, expected: dict[str, int], hand: int, detail: str
) -> None:
    bot = copy_bot(name, tmp_path)
    result = play([bot, "builtin:checkcall"], tmp_path / "out", rounds=12)
    # A bot that never started stops the match before its first hand.
    assert result.hands_played == (0 if "never_connected" in expected else 12)
    assert faults(result) == expected
    if expected:
        first = result.players[0].first_faults[0]
        assert (first.hand, first.detail) == (hand, detail)
    assert not leftovers([bot], mark)


@needs_bwrap
def test_the_build_step_runs_in_the_sandbox_too(tmp_path: Path, mark: str) -> None:
    bot = copy_bot("polite", tmp_path)
    probe = (
        "import socket\n"
        "try:\n"
        "    socket.create_connection(('192.0.2.1', 80), timeout=5)\n"
        "    print('connected')\n"
        "except OSError as error:\n"
        "    print(type(error).__name__, error.errno)\n"
    )
    (bot / "probe.py").write_text(probe)
    commands = {
        "build": ["sh", "-c", "python3 probe.py > build.txt"],
        "run": ["python3", "player.py"],
    }
    (bot / "commands.json").write_text(json.dumps(commands))
    result = play([bot, "builtin:checkcall"], tmp_path / "out", rounds=5)
    assert faults(result) == {}
    assert (bot / "build.txt").read_text().split() == ["OSError", "101"]  # ENETUNREACH
    assert not leftovers([bot], mark)


def test_the_sandbox_mounts_hide_and_expose_the_right_paths(tmp_path: Path) -> None:
    if sandbox_problem() is not None:
        pytest.skip("bubblewrap is not usable here; the command line cannot be built")
    bot = tmp_path / "bot"
    bot.mkdir()
    (tmp_path / "logs").mkdir()
    box = Sandbox(bot, hidden=[tmp_path / "logs", tmp_path / "absent"])
    try:
        argv = box.run_command(["python3", "player.py", "4000"], 4000)
    finally:
        box.close()
    assert not box.private.exists()
    text = " ".join(argv)
    assert "--unshare-all" in argv and "--share-net" not in argv
    assert "--die-with-parent" in argv and argv.count("--cap-drop") == 1
    assert f"--bind {bot.resolve()} {bot.resolve()}" in text
    assert f"--tmpfs {(tmp_path / 'logs').resolve()}" in text
    assert str(tmp_path / "absent") not in text
    assert f"--chdir {bot.resolve()}" in text
    assert argv[-3:] == ["python3", "player.py", "4000"]
    assert str(sandbox_module._RELAY) in argv


@needs_bwrap
@pytest.mark.parametrize("when", ["match", "build"])
def test_ctrl_c_ends_sandboxed_bots_too(when: str, tmp_path: Path) -> None:
    interrupt_scrimmage(when, "group", tmp_path, "--sandbox")


@needs_bwrap
def test_validate_can_play_the_bot_in_the_sandbox(tmp_path: Path) -> None:
    from local_runner.submission.new import create_bot
    from local_runner.validation import ValidateOptions, validate

    project = create_bot(tmp_path / "boxed")
    report = validate(project, ValidateOptions(sandbox=True, hands=40))
    statuses = {check.name: check.status.value for check in report.checks}
    assert report.ok, report.to_json()
    assert statuses["smoke_match"] == "pass" and statuses["cleanup"] == "pass"


@pytest.mark.usefixtures("no_bwrap")
def test_validate_in_the_sandbox_without_bwrap_is_a_usage_error(tmp_path: Path) -> None:
    from local_runner.submission.new import create_bot
    from local_runner.validation import ValidateOptions, ValidateUsageError, validate

    project = create_bot(tmp_path / "boxed")
    with pytest.raises(ValidateUsageError, match="apt-get install bubblewrap"):
        validate(project, ValidateOptions(sandbox=True, hands=5))
