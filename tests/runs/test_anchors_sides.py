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

from local_runner.compiled import MODULES
from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]


def _anchors() -> ModuleType:
    return load_file("anchors", ROOT / "benchmarks" / "anchors.py", register=True)


def test_also_names_the_side_by_the_engine_that_interpreter_runs() -> None:
    anchors = _anchors()
    side = anchors.other_kit_side(Path(sys.executable), dict(os.environ))
    compiled = f"also: compiled with mypyc ({len(MODULES)} modules)"
    assert side.label in {"also: pure Python", compiled}
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
    row = "| acpc-2pn | fast | 1.00 | 0.50 | 2.00 | 4.00 (4.00-4.00) | - | 0.50 | 500 | 250 |"
    assert row in table


def test_the_report_judges_each_ratio_against_the_case_target(
    capsys: pytest.CaptureFixture[str],
) -> None:
    anchors = _anchors()
    walls = {"anchor": 0.9, "kit": 1.0, "fast": 0.5}

    def kit(seed: int, side: Any) -> object:
        wall = walls["kit" if side is None else side.label]
        return anchors.Run(wall, wall / 2, 0.1, 0.5, 0.5)

    def anchor(seed: int) -> object:
        return anchors.Run(walls["anchor"], 0.45, 0.1, 0.5, 0.5)

    fast = anchors.KitSide("fast", ("pokerbots",))
    target = anchors.TARGETS["acpc"]
    case = anchors.Case("acpc-2pn", 3000, "ACPC dealer", anchor, kit, (fast,), target)
    short = anchors.Case("acpc-2pl", 1000, "ACPC dealer", anchor, kit, (), target)
    assert anchors.measure([case, short], rounds=1) is False
    anchors.report([case, short])
    table = capsys.readouterr().out
    # the kit at 0.90x misses the ACPC games' goal of 1.0x; the faster side (1.80x) meets it
    row = "| acpc-2pn | 3000 | ACPC dealer | 0.90 | 1.00 | 0.90 (0.90-0.90) | ≥ 1.0x: not met |"
    assert row in table
    assert "| 0.90 | 1.80 (1.80-1.80) | ≥ 1.0x: met | 0.50 |" in table
    # a shorter match than the goal's weighs the start more: its ratio is shown, not judged
    judged = "| 0.90 (0.90-0.90) | not judged: 1000-hand matches, the goal ≥ 1.0x is for 3000 |"
    assert "| acpc-2pl | 1000 | ACPC dealer | 0.90 | 1.00 " + judged in table


def test_every_case_the_benchmark_builds_is_judged_against_its_goal(tmp_path: Path) -> None:
    anchors = _anchors()
    engines = {}
    for year in ("base", "2024"):  # plain copies of an engine (no git): engine.py, a skeleton
        engine = engines[year] = tmp_path / "engines" / year
        (engine / "python_skeleton").mkdir(parents=True)
        (engine / "engine.py").write_text("", encoding="utf-8")
        (engine / "config.py").write_text("", encoding="utf-8")
    dealer = tmp_path / "acpc"
    dealer.mkdir()
    for program in ("dealer", "example_player"):
        (dealer / program).write_text("", encoding="utf-8")
    args = argparse.Namespace(
        mirrors=None, engines=engines, dealer=dealer, quick=False, hands=10, acpc_hands=30, sides=()
    )
    work = tmp_path / "work"
    work.mkdir()
    cases = anchors.build_cases(args, work, dict(os.environ))
    goals = {case.name: case.target.goal_text for case in cases}
    assert goals == {
        "kit skeleton": "≥ 1.5x",
        "MIT skeleton base": "≥ 1.2x",
        "MIT skeleton 2024": "≥ 1.2x",
        "acpc-2pl": "≥ 1.0x",
        "acpc-2pn": "≥ 1.0x",
        "acpc-3pl": "≥ 1.0x",
    }


def test_split_reports_the_start_and_each_further_hand_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--split``: a case's one-hand twin gives the start; the whole command less that start,
    over the hands after the first, gives a hand; for the kit and for every side."""
    anchors = _anchors()
    # (start, each further hand) in seconds, by who plays and how many hands
    shapes = {"anchor": (0.15, 0.0006), "kit": (0.18, 0.00035), "fast": (0.12, 0.0003)}

    def wall(label: str, hands: int) -> float:
        start, hand = shapes[label]
        return start + hand * (hands - 1)

    def make(hands: int) -> tuple[Any, Any]:
        def anchor(seed: int) -> object:
            return anchors.Run(wall("anchor", hands), 0.1, 0.1, 0.5, 0.5)

        def kit(seed: int, side: Any) -> object:  # side: the benchmark's KitSide, or None
            return anchors.Run(
                wall("kit" if side is None else side.label, hands), 0.1, 0.1, 0.5, 0.5
            )

        return anchor, kit

    fast = anchors.KitSide("fast", ("pokerbots",))
    case = anchors.Case("kit skeleton", 1001, "MIT base engine", *make(1001), (fast,))
    twin = anchors.Case("kit skeleton" + anchors.ONE_HAND, 1, "MIT base engine", *make(1), (fast,))
    lonely = anchors.Case("acpc-2pn", 3000, "ACPC dealer", *make(3000), ())  # no twin: no row
    assert anchors.measure([case, twin, lonely], rounds=1) is False
    anchors.report([case, twin, lonely])
    table = capsys.readouterr().out
    assert "| case | kit | start s: anchor | kit | anchor/kit |" in table
    assert "| kit skeleton | kit | 0.150 | 0.180 | 0.83 | 600 | 350 | 1.71 |" in table
    assert "| kit skeleton | fast | 0.150 | 0.120 | 1.25 | 600 | 300 | 2.00 |" in table
    assert "| acpc-2pn | kit |" not in table
    # the twin is also a row of the first table, shown and not judged
    assert "| kit skeleton, 1 hand | 1 | MIT base engine |" in table


def test_split_builds_a_one_hand_twin_of_every_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anchors = _anchors()
    engine = tmp_path / "engines" / "base"
    (engine / "python_skeleton").mkdir(parents=True)
    (engine / "engine.py").write_text("", encoding="utf-8")
    (engine / "config.py").write_text("", encoding="utf-8")
    args = argparse.Namespace(
        mirrors=None,
        engines={"base": engine},
        dealer=tmp_path / "no-dealer",
        quick=False,
        hands=10,
        acpc_hands=30,
        sides=(),
    )
    work = tmp_path / "work"
    work.mkdir()
    cases = anchors.build_cases(args, work, dict(os.environ))
    said = capsys.readouterr().out
    twins = anchors.one_hand_twins(args, work, dict(os.environ))
    assert capsys.readouterr().out == ""  # the skips were said once, by build_cases
    assert "skip acpc-2pl, acpc-2pn, acpc-3pl" in said
    assert [(c.name, c.hands) for c in cases] == [("kit skeleton", 10), ("MIT skeleton base", 10)]
    assert [(t.name, t.hands) for t in twins] == [
        ("kit skeleton, 1 hand", 1),
        ("MIT skeleton base, 1 hand", 1),
    ]
    config = (work / "one-hand" / "mit-base" / "kit" / "config.py").read_text(encoding="utf-8")
    assert "NUM_ROUNDS = 1\n" in config
