"""Heads-up output pinned byte for byte: scrimmages, duplicates and tournaments.

The golden files in ``tests/golden/headsup/`` were written by the kit before 3-player
duplicates and tournaments existed (``python tests/cli/test_headsup_output.py`` rewrites
them; do so only for a deliberate change of the heads-up output).  What varies from run
to run is masked first: the output directory, wall times and each bot's time used.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from local_runner.runs.summary import VERSION_KEY

pytestmark = pytest.mark.slow  # runs the pokerbots command


ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "headsup"

BOTS = ["builtin:random", "builtin:raise", "builtin:checkcall"]

#: name -> the command's arguments after ``pokerbots`` ({out} is the output directory).
CASES: dict[str, list[str]] = {
    "scrimmage": [
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--rounds",
        "150",
        "--seed",
        "4",
        "--out",
        "{out}",
    ],
    "scrimmage-json": [
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--rounds",
        "150",
        "--seed",
        "4",
        "--out",
        "{out}",
        "--json",
    ],
    "duplicate": [
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--duplicate",
        "--rounds",
        "150",
        "--seed",
        "4",
        "--out",
        "{out}",
    ],
    "duplicate-json": [
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--duplicate",
        "--rounds",
        "150",
        "--seed",
        "4",
        "--out",
        "{out}",
        "--json",
    ],
    "tournament": [
        "tournament",
        *BOTS,
        "--rounds",
        "80",
        "--matches",
        "2",
        "--seed",
        "6",
        "--workers",
        "1",
        "--out",
        "{out}",
    ],
    "tournament-duplicate-json": [
        "tournament",
        *BOTS,
        "--rounds",
        "60",
        "--matches",
        "1",
        "--duplicate",
        "--seed",
        "6",
        "--workers",
        "1",
        "--out",
        "{out}",
        "--json",
    ],
}

#: JSON keys whose values are measured, not computed: left out of the comparison.
_MEASURED = {"wall_seconds", "time_used", "log_dir", "host", "peak_memory_bytes"}
#: The kit's version (pyproject.toml's): written as VERSION, so that a release changes no
#: golden file.
_VERSIONED = {VERSION_KEY}


def _scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: ("*" if k in _MEASURED else "VERSION" if k in _VERSIONED else _scrub(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    return value


def _mask(text: str, out: Path) -> str:
    """The output with the directory and the measured times masked (widths kept)."""
    text = text.replace(str(out), "OUT")
    return re.sub(r"\d+\.\d\d s\b", lambda m: re.sub(r"\d", "9", m.group()), text)


def produce(name: str, out: Path) -> str:
    """What the command prints, masked (and, for JSON, with measured values starred)."""
    args = [arg.replace("{out}", str(out)) for arg in CASES[name]]
    run = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    if name.endswith("-json"):
        text = json.dumps(_scrub(json.loads(_mask(run.stdout, out))), indent=1) + "\n"
    else:
        text = _mask(run.stdout, out)
    if name.startswith("tournament"):  # the plan as stored, too
        text += _mask((out / "tournament.json").read_text(encoding="utf-8"), out)
    return text


@pytest.mark.parametrize("name", sorted(CASES))
def test_heads_up_output_is_unchanged(name: str, tmp_path: Path) -> None:
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert produce(name, tmp_path / "out") == expected


if __name__ == "__main__":  # rewrite the golden files (a deliberate change only)
    import tempfile

    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        with tempfile.TemporaryDirectory() as scratch:
            (GOLDEN / f"{case}.txt").write_text(produce(case, Path(scratch) / "out"), "utf-8")
