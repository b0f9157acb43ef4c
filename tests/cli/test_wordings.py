"""The small sentences the commands print say what is true: next steps, seats, extras."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from local_runner.cli import main
from sdk.games import GAMES
from tests.conftest import ROOT


@pytest.mark.parametrize("variant", ["nlhe", "acpc-2pn", "acpc-3pl"])
def test_a_new_bots_next_steps_name_a_bot_for_every_seat_of_its_game(
    variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "seated"
    assert main(["new", str(bot), "--no-input", "--set", f"variant={variant}"]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if "scrimmage" in line]
    words = line.split("#")[0].split()
    named = [word for word in words[2:] if word == str(bot) or word.startswith("builtin:")]
    if variant == "nlhe":
        assert named == [str(bot)]  # the default opponent fills the other seat, as said
        assert "builtin:random" in line
    else:
        assert len(named) == GAMES[variant].rules.seats, line
        assert f"--variant {variant}" in line


def pokerbots(*args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``pokerbots ARGS`` in a child process, after the Python ``prelude``."""
    code = f"{prelude}\nimport sys\nfrom local_runner.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow  # runs the pokerbots command
def test_a_scrimmage_with_fewer_bots_than_seats_says_which_seats_got_which_bot(
    tmp_path: Path,
) -> None:
    run = pokerbots(
        "scrimmage",
        "builtin:chump",
        "--variant",
        "acpc-3pl",
        "--rounds",
        "3",
        "--seed",
        "2",
        "--out",
        str(tmp_path / "three"),
    )
    assert run.returncode == 0, run.stderr
    assert "Seats 2 and 3: builtin:random (1 bot was named for the game's 3 seats).\n" in run.stdout
    run = pokerbots(
        "scrimmage",
        "builtin:chump",
        "builtin:raise",
        "--variant",
        "acpc-3pl",
        "--rounds",
        "3",
        "--out",
        str(tmp_path / "two"),
    )
    assert "Seat 3: builtin:random (2 bots were named for the game's 3 seats).\n" in run.stdout
    run = pokerbots(
        "scrimmage",
        "builtin:chump",
        "builtin:raise",
        "--rounds",
        "3",
        "--out",
        str(tmp_path / "full"),
    )
    assert run.returncode == 0 and "Seat" not in run.stdout, run.stdout


#: A Python without matplotlib, as far as the kit can tell.
NO_MATPLOTLIB = "import sys\nsys.modules['matplotlib'] = None"


@pytest.mark.slow  # runs the pokerbots command
@pytest.mark.parametrize(
    "command",
    [
        ["scrimmage", "builtin:random", "builtin:raise", "--rounds", "5"],
        ["tournament", "builtin:random", "builtin:raise", "--rounds", "5", "--workers", "1"],
    ],
)
def test_plot_without_matplotlib_is_refused_before_any_hand(
    command: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run = pokerbots(*command, "--plot", "--out", str(out), prelude=NO_MATPLOTLIB)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.startswith("error: Plots need matplotlib, which is not installed: ")
    assert "[plot]" in run.stderr
    assert not out.exists()  # no match was played
    assert run.stdout == ""
