"""What the ``pokerbots`` command prints: never garbled, never read as markup, never wrapped.

Every test runs the real command in a child process, off a terminal (pipes, as in CI) or on
a narrow pseudo-terminal, because that is where the console decides how to print.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # runs the pokerbots command, some on a pseudo-terminal


HOSTILE = ROOT / "tests" / "hostile"


def pokerbots(
    *args: str, cwd: Path = ROOT, columns: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``pokerbots ARGS`` with its output on pipes; ``columns`` sets ``$COLUMNS``."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    if columns is not None:
        env["COLUMNS"] = columns
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def on_a_terminal(*args: str, columns: int, cwd: Path = ROOT) -> tuple[int, str]:
    """Run ``pokerbots ARGS`` on a pseudo-terminal ``columns`` wide; its status and output."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env["TERM"] = "xterm"
    child = subprocess.Popen(
        [sys.executable, "-m", "local_runner.cli", *args],
        cwd=cwd,
        env=env,
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            child.kill()
            pytest.fail("the command printed nothing for 120 s")
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    status = child.wait(timeout=60)
    return status, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def long_path(base: Path) -> Path:
    """A folder whose path is far wider than any console (about 200 characters)."""
    path = base / ("a-rather-long-folder-name-" * 3) / ("and-another-one-" * 4) / "missing-bot"
    return path


def test_an_error_with_a_long_path_is_one_line_off_a_terminal(tmp_path: Path) -> None:
    path = long_path(tmp_path)
    for columns in (None, "40"):
        run = pokerbots("validate", str(path), columns=columns)
        assert run.returncode == 2, run.stderr
        assert run.stderr == f"error: {path} does not exist; pass a bot folder or its archive.\n"


def test_an_error_with_a_long_path_is_one_line_on_a_narrow_terminal(tmp_path: Path) -> None:
    path = long_path(tmp_path)
    status, output = on_a_terminal("validate", str(path), columns=40)
    assert status == 2, output
    assert f"{path} does not exist; pass a bot folder or its archive." in output


def test_toml_section_names_are_shown(tmp_path: Path) -> None:
    config = tmp_path / "match.toml"
    config.write_text("[matchh]\nrounds = 10\n", encoding="utf-8")
    run = pokerbots("scrimmage", "--config", str(config), "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert "unknown section(s) matchh; use [match], [rules], [runner] and [limits]." in run.stderr
    assert "\n" not in run.stderr.rstrip("\n")


def test_a_bot_replying_markup_is_shown_as_it_is(tmp_path: Path) -> None:
    bot = tmp_path / "[red]markup"
    shutil.copytree(HOSTILE / "markup_reply", bot)
    out = tmp_path / "out"
    run = pokerbots("scrimmage", str(bot), "builtin:checkcall", "--rounds", "5", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr and "MarkupError" not in run.stderr
    # the bot is named after its folder, brackets and all, in the table and the fault lines
    assert "│ [red]markup " in run.stdout
    assert "bot [red]markup sent a misformatted reply in hand 1:" in run.stdout
    assert "'[/]'" in run.stdout
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["players"][0]["faults"]["misformatted"] >= 1


def test_a_bot_replying_markup_on_a_narrow_terminal(tmp_path: Path) -> None:
    bot = tmp_path / "markup"
    shutil.copytree(HOSTILE / "markup_reply", bot)
    out = tmp_path / ("an-output-folder-with-a-long-name-" * 3)
    status, output = on_a_terminal(
        "scrimmage", str(bot), "builtin:random", "--rounds", "5", "--out", str(out), columns=40
    )
    assert status == 0, output
    assert "Traceback" not in output
    assert "'[/]'" in output
    assert f"Logs: {out}/ (gamelog.txt, hands.jsonl, summary.json)" in output


# -- progress off a terminal ---------------------------------------------------------


def test_a_scrimmage_off_a_terminal_prints_plain_progress_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from local_runner.cli import main, progress

    monkeypatch.setattr(progress, "EVERY", 0.0)  # a line after every hand
    status = main(
        [
            "scrimmage",
            "builtin:checkcall",
            "builtin:raise",
            "--rounds",
            "20",
            "--seed",
            "1",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    progress_lines = [line for line in lines if line.startswith("checkcall vs raise: ")]
    assert progress_lines[0].startswith("checkcall vs raise: 1/20 hands (5%) after ")
    assert progress_lines[-1].startswith("checkcall vs raise: 20/20 hands (100%) after ")
    assert len(progress_lines) == 20


def test_the_scrimmage_progress_is_quiet_for_short_runs_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from local_runner.cli import main

    args = ["scrimmage", "builtin:checkcall", "builtin:raise", "--rounds", "20"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out  # done long before the first progress line is due
    assert "checkcall vs raise: " not in out
    assert main([*args, "--out", str(tmp_path / "b"), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["rounds"] == 20
    # Only the clock's one line, on stderr beside --json: 20 hands get 20/1000 of nlhe's.
    assert captured.err.splitlines() == [
        "Clock: 0.6 s per bot for 20 hands (30 s per 1,000, scaled from the clock of "
        "MIT Pokerbots (base engine)); set --game-clock to change it."
    ]


def test_a_heartbeat_prints_while_nothing_else_does() -> None:
    import io
    import time

    from local_runner.cli.console import make_console
    from local_runner.cli.progress import Heartbeat

    console = make_console()
    console.file = io.StringIO()
    with Heartbeat(console, lambda: "still playing", every=0.05) as heartbeat:
        time.sleep(1.5)  # the thread looks every 0.05 s
        heartbeat.touch()
    lines = console.file.getvalue().splitlines()
    assert lines and set(lines) == {"still playing"}
    assert len(lines) < 40  # at most one line a period, not one per look
