"""The scrimmage command as a user runs it: a real `pokerbots` process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # runs the pokerbots command


def pokerbots(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_no_bots_plays_the_skeleton_against_a_builtin_and_prints_json(tmp_path: Path) -> None:
    run = pokerbots("scrimmage", "--rounds", "50", "--seed", "4", "--out", str(tmp_path), "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert [p["name"] for p in summary["players"]] == ["skeleton", "random"]
    assert summary["rounds"] == 50 and summary["seed"] == 4
    assert all(not any(p["faults"].values()) for p in summary["players"])
    assert (tmp_path / "summary.json").is_file() and (tmp_path / "gamelog.txt").is_file()


def test_the_table_names_both_bots(tmp_path: Path) -> None:
    run = pokerbots(
        "scrimmage", "builtin:checkcall", "builtin:raise", "--rounds", "20", "--out", str(tmp_path)
    )
    assert run.returncode == 0, run.stderr
    assert "checkcall" in run.stdout and "raise" in run.stdout and "bankroll" in run.stdout


def test_the_same_seed_gives_the_same_match(tmp_path: Path) -> None:
    first = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:random",
        "--rounds",
        "100",
        "--seed",
        "9",
        "--out",
        str(tmp_path / "a"),
        "--json",
    )
    second = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:random",
        "--rounds",
        "100",
        "--seed",
        "9",
        "--out",
        str(tmp_path / "b"),
        "--json",
    )
    assert first.returncode == second.returncode == 0
    bankrolls = [[p["bankroll"] for p in json.loads(r.stdout)["players"]] for r in (first, second)]
    assert bankrolls[0] == bankrolls[1]

    def hands(run: str) -> list[dict[str, object]]:
        """The hands of a run without the reply times (which depend on the machine)."""
        records = [json.loads(line) for line in (tmp_path / run / "hands.jsonl").open()]
        for record in records:
            for action in record["actions"]:
                action.pop("seconds", None)
        return records

    assert hands("a") == hands("b")


def test_usage_errors_exit_2_with_a_message_and_no_traceback(tmp_path: Path) -> None:
    cases = [
        (("scrimmage", str(tmp_path / "missing")), "does not exist"),
        (("scrimmage", "builtin:nobody"), "no built-in bot 'builtin:nobody'"),
        (("scrimmage", "--config", str(tmp_path / "none.toml")), "does not exist"),
        (("scrimmage", "a", "b", "c"), "This game seats 2 bots; 3 were given"),
    ]
    for args, message in cases:
        run = pokerbots(*args, "--out", str(tmp_path / "out"))
        assert run.returncode == 2, (args, run.stdout, run.stderr)
        assert message in run.stderr, (args, run.stderr)
        assert "Traceback" not in run.stderr


def test_bad_flag_values_are_usage_errors() -> None:
    run = pokerbots("scrimmage", "--rounds", "zero")
    assert run.returncode == 2 and "not a whole number" in run.stderr


def test_a_bot_that_cannot_start_is_named_with_its_log(tmp_path: Path) -> None:
    bot = tmp_path / "broken"
    bot.mkdir()
    (bot / "player.py").write_text("def broken(:\n", encoding="utf-8")
    (bot / "commands.json").write_text(f'{{"build": [], "run": ["{sys.executable}", "player.py"]}}')
    out = tmp_path / "out"
    run = pokerbots("scrimmage", str(bot), "--rounds", "500", "--out", str(out))
    # No match is played: the run stops at once, shows the end of the bot's log, exits 3.
    assert run.returncode == 3, run.stdout + run.stderr
    assert "bot broken did not start (never_connected: exited before connecting" in run.stderr
    assert "SyntaxError: invalid syntax" in run.stderr
    assert "SyntaxError" in (out / "broken.log").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rounds"] == 0
    assert summary["players"][0]["start_failure"].startswith("never_connected")


def test_a_bot_missing_a_module_is_told_which_interpreter_ran_it(tmp_path: Path) -> None:
    bot = tmp_path / "needs"
    bot.mkdir()
    (bot / "player.py").write_text("import no_such_module_here\n", encoding="utf-8")
    (bot / "commands.json").write_text('{"build": [], "run": ["python3", "player.py"]}')
    run = pokerbots(
        "scrimmage", str(bot), "--rounds", "5", "--out", str(tmp_path / "out"), "--python", "kit"
    )
    assert run.returncode == 3
    assert "No module named 'no_such_module_here'" in run.stderr
    assert "The bot's python3 was the kit's own interpreter" in run.stderr
    assert "--python" in run.stderr


def test_a_bot_that_fails_to_build_stops_the_scrimmage_and_names_the_setting(
    tmp_path: Path,
) -> None:
    bot = tmp_path / "nobuild"
    bot.mkdir()
    (bot / "player.py").write_text("", encoding="utf-8")
    build = ["sh", "-c", "echo compiler says no >&2; exit 4"]
    commands = {"build": build, "run": ["python3", "player.py"]}
    (bot / "commands.json").write_text(json.dumps(commands))
    run = pokerbots("scrimmage", str(bot), "--rounds", "5", "--out", str(tmp_path / "out"))
    assert run.returncode == 3
    assert "build_failed: build exited with status 4" in run.stderr
    assert "compiler says no" in run.stderr
    assert "build_timeout" in run.stderr


def test_reusing_out_replaces_the_previous_scrimmage_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = pokerbots("scrimmage", "--rounds", "5", "--duplicate", "--out", str(out))
    assert first.returncode == 0, first.stderr
    assert (out / "half-1" / "skeleton.log").is_file()  # the skeleton is a real process
    second = pokerbots(
        "scrimmage", "builtin:random", "builtin:raise", "--rounds", "5", "--out", str(out)
    )
    assert second.returncode == 0, second.stderr
    assert f"Removed the previous scrimmage's files from {out}: " in second.stdout
    assert "half-1/" in second.stdout and "summary.json" in second.stdout
    # nothing of the first match is left beside the second
    assert not (out / "half-1").exists() and not (out / "half-2").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert [p["name"] for p in summary["players"]] == ["random", "raise"]


def test_reusing_out_refuses_a_folder_with_other_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = pokerbots(
        "scrimmage", "builtin:checkcall", "builtin:raise", "--rounds", "5", "--out", str(out)
    )
    assert first.returncode == 0, first.stderr
    (out / "notes.txt").write_text("mine\n")
    before = sorted(path.name for path in out.iterdir())
    again = pokerbots("scrimmage", "builtin:checkcall", "--rounds", "5", "--out", str(out))
    assert again.returncode == 2
    assert again.stderr == (
        f"error: The output folder {out} is not empty and holds files a scrimmage did not "
        "write (notes.txt); choose a new --out folder, or empty this one.\n"
    )
    assert sorted(path.name for path in out.iterdir()) == before


def test_out_may_be_an_empty_folder_but_not_a_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    run = pokerbots(
        "scrimmage", "builtin:checkcall", "builtin:raise", "--rounds", "5", "--out", str(empty)
    )
    assert run.returncode == 0 and "Removed" not in run.stdout
    afile = tmp_path / "file"
    afile.write_text("x")
    run = pokerbots("scrimmage", "builtin:checkcall", "--rounds", "5", "--out", str(afile))
    assert run.returncode == 2 and "is a file" in run.stderr
