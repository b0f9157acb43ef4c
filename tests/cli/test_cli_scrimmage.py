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
    # The seat no bot was named for is said, on stderr beside the JSON.
    assert "Seat 2: builtin:random (no bot was named, so the skeleton plays seat 1" in run.stderr
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


# --------------------------------------------------------------------------- the game


def new_bot(parent: Path, name: str, *settings: str) -> Path:
    """A bot from `pokerbots new`, as a user makes one."""
    made = pokerbots("new", name, "--no-input", *settings, cwd=parent)
    assert made.returncode == 0, made.stderr
    return parent / name


def test_kit_bots_of_toss_are_played_at_toss_with_the_reason(tmp_path: Path) -> None:
    one = new_bot(tmp_path, "tb", "--set", "variant=toss")
    two = new_bot(tmp_path, "tb2", "--set", "variant=mit-2026")
    run = pokerbots("scrimmage", str(one), str(two), "--rounds", "12", "--out", str(tmp_path / "r"))
    assert run.returncode == 0, run.stderr
    assert "Game: toss (tb: its metadata's Variant line says toss; tb2 as well)" in run.stdout
    summary = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert summary["variant"] == "toss"
    assert not any(any(p["faults"].values()) for p in summary["players"])
    # One bot against a built-in: the bot's game, too.
    alone = pokerbots("scrimmage", str(one), "--rounds", "5", "--out", str(tmp_path / "s"))
    assert alone.returncode == 0 and "Game: toss (tb: " in alone.stdout, alone.stderr


def test_bots_of_two_games_are_refused_with_a_sentence_naming_variant(tmp_path: Path) -> None:
    toss = new_bot(tmp_path, "tb", "--set", "variant=toss")
    auction = new_bot(tmp_path, "ab", "--set", "variant=auction")
    run = pokerbots("scrimmage", str(toss), str(auction), "--out", str(tmp_path / "r"))
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "different games: tb plays toss" in run.stderr and "ab plays auction" in run.stderr
    assert "--variant" in run.stderr
    chosen = pokerbots(
        "scrimmage", str(toss), str(auction), "--variant", "nlhe", "--rounds", "5",
        "--out", str(tmp_path / "r"),
    )  # fmt: skip
    assert chosen.returncode == 0 and "Game:" not in chosen.stdout, chosen.stderr


def test_files_of_two_seasons_are_an_ambiguity_naming_variant(tmp_path: Path) -> None:
    bot = new_bot(tmp_path, "mixed", "--set", "variant=toss")
    readme = bot / "README.txt"
    readme.write_text(readme.read_text().replace("Variant: toss\n", ""))
    (bot / "extra.py").write_text("BidAction = DiscardAction = None\n")
    run = pokerbots("scrimmage", str(bot), "--out", str(tmp_path / "r"))
    assert run.returncode == 2 and "mixed: its files use the identifiers of more" in run.stderr
    assert "--variant" in run.stderr


def test_a_bot_that_names_no_game_plays_the_default_and_says_so(tmp_path: Path) -> None:
    # No README and no source file of its own: it runs the kit's skeleton from elsewhere.
    bot = tmp_path / "plain"
    bot.mkdir()
    player = ROOT / "skeleton" / "player.py"
    (bot / "commands.json").write_text(json.dumps({"build": [], "run": ["python3", str(player)]}))
    run = pokerbots("scrimmage", str(bot), "--rounds", "5", "--out", str(tmp_path / "r"))
    assert run.returncode == 0, run.stderr
    assert "Game: nlhe (no bot's README Variant line or files name a game" in run.stdout
    assert "the default, is played); --variant chooses another." in run.stdout


def test_an_acpc_kit_bot_plays_its_acpc_game(tmp_path: Path) -> None:
    bot = new_bot(tmp_path, "ab", "--set", "variant=acpc-2pn")
    run = pokerbots(
        "scrimmage", str(bot), "builtin:chump", "--rounds", "5", "--out", str(tmp_path / "r")
    )
    assert run.returncode == 0, run.stderr
    assert "Game: acpc-2pn (ab: its metadata's Variant line says acpc-2pn)" in run.stdout
    assert (
        "Clock: 35 s per bot for 5 hands (7 s a hand, scaled from the clock of ACPC 2009)"
        in run.stdout
    )


# --------------------------------------------------------------------------- the clock


def test_the_clock_follows_rounds_and_is_recorded(tmp_path: Path) -> None:
    args = ["scrimmage", "builtin:checkcall", "builtin:raise", "--variant", "bounty"]
    run = pokerbots(*args, "--rounds", "3000", "--seed", "1", "--out", str(tmp_path / "a"))
    assert run.returncode == 0, run.stderr
    line = (
        "Clock: 180 s per bot for 3,000 hands (60 s per 1,000, scaled from the clock of "
        "MIT Pokerbots 2025)"
    )
    assert line in run.stdout and "set --game-clock to change it" in run.stdout
    summary = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert summary["rules"]["game_clock"] == 180.0
    assert summary["clock"]["source"] == "scaled" and summary["clock"]["game_clock"] == 180.0
    assert (summary["clock"]["competition_clock"], summary["clock"]["competition_hands"]) == (
        60.0,
        1000,
    )
    explicit = pokerbots(
        *args, "--rounds", "50", "--game-clock", "7.5", "--out", str(tmp_path / "b"), "--json"
    )
    assert explicit.returncode == 0, explicit.stderr
    printed = json.loads(explicit.stdout)  # --json prints what summary.json holds
    assert printed["clock"] == json.loads((tmp_path / "b" / "summary.json").read_text())["clock"]
    assert printed["clock"]["source"] == "explicit" and printed["rules"]["game_clock"] == 7.5
    assert "Clock: 7.5 s per bot for 50 hands (set by you" in explicit.stderr
    season = pokerbots(*args, "--rounds", "1000", "--out", str(tmp_path / "c"), "--json")
    assert json.loads(season.stdout)["clock"]["source"] == "season"
    assert "Clock:" not in season.stderr  # the season's own clock for its own hands


@pytest.mark.parametrize("value", ["0", "-3", "soon", "nan", "inf"])
def test_a_bad_game_clock_is_a_usage_error(value: str) -> None:
    run = pokerbots("scrimmage", "--game-clock", value)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"argument --game-clock: '{value}' is not a positive number of seconds" in run.stderr


def test_an_acpc_bot_that_exits_before_connecting_is_named_not_waited_for(
    tmp_path: Path,
) -> None:
    bot = new_bot(tmp_path, "quitter", "--set", "variant=acpc-2pn")
    (bot / "commands.json").unlink()  # started by startme.sh alone, as the ACPC server does
    (bot / "startme.sh").write_text("#!/bin/sh\necho loading failed\nexit 5\n")
    run = pokerbots("scrimmage", str(bot), "builtin:chump", "--out", str(tmp_path / "r"))
    assert run.returncode == 3, (run.stdout, run.stderr)
    assert "exited before connecting" in run.stderr and "exit code 5" in run.stderr
