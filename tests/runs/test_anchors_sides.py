"""``benchmarks/anchors.py``'s further sides: ``--spread`` and ``--also PYTHON`` (another
installation of the kit, such as a compiled one) play in the same interleaved rounds as the
anchor and the kit, and the report compares each with the kit."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]


def _anchors() -> ModuleType:
    return load_file("anchors", ROOT / "benchmarks" / "anchors.py", register=True)


def test_also_names_the_side_by_the_engine_that_interpreter_runs() -> None:
    anchors = _anchors()
    side = anchors.other_kit_side(Path(sys.executable), dict(os.environ))
    assert side.label in {"also: pure Python", "also: compiled with mypyc (17 modules)"}
    assert side.command == (sys.executable, "-m", "local_runner.cli")
    assert side.extra == ()


def test_also_refuses_an_interpreter_without_the_kit(tmp_path: Path) -> None:
    anchors = _anchors()
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho 'No module named local_runner' >&2\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(ValueError, match=r"does not run the kit.*No module named local_runner"):
        anchors.other_kit_side(fake, dict(os.environ))
    with pytest.raises(ValueError, match="cannot run it"):
        anchors.other_kit_side(tmp_path / "missing" / "python", dict(os.environ))


def test_two_sides_with_one_name_are_refused(tmp_path: Path) -> None:
    anchors = _anchors()
    args = argparse.Namespace(spread=False, also=[Path(sys.executable), Path(sys.executable)])
    with pytest.raises(ValueError, match="both be called"):
        anchors.kit_sides(args, tmp_path, dict(os.environ))


def test_every_side_plays_every_round_interleaved_and_is_reported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    anchors = _anchors()
    played: list[tuple[int, str]] = []
    walls = {"anchor": 2.0, "kit": 1.0, "fast": 0.5}

    def run(label: str) -> object:
        return anchors.Run(walls[label], walls[label] / 2, 0.1, 0.5, 0.5)

    def anchor(seed: int) -> object:
        played.append((seed, "anchor"))
        return run("anchor")

    def kit(seed: int, side: Any) -> object:  # side: the benchmark's KitSide, or None
        label = "kit" if side is None else side.label
        played.append((seed, label))
        return run(label)

    fast = anchors.KitSide("fast", ("pokerbots",))
    case = anchors.Case("acpc-2pn", 1000, "ACPC dealer", anchor, kit, (fast,))
    assert anchors.measure([case], rounds=2) is False
    # round 0 warms the caches and is not counted; the order alternates from round to round
    assert played == [
        (0, "fast"), (0, "kit"), (0, "anchor"),
        (1, "anchor"), (1, "kit"), (1, "fast"),
        (2, "fast"), (2, "kit"), (2, "anchor"),
    ]  # fmt: skip
    assert len(case.kit_runs) == 2 and len(case.side_runs["fast"]) == 2
    anchors.report([case])
    table = capsys.readouterr().out
    # anchor 2.0 s, kit 1.0 s, the side 0.5 s; runner CPU is half the wall: 500 and 250 µs/hand
    assert "| acpc-2pn | fast | 1.00 | 0.50 | 2.00 | 4.00 (4.00-4.00) | 0.50 | 500 | 250 |" in table
