"""``benchmarks/targets.py`` declares the speed targets once; the benchmarks print each figure
beside its target, judged as they print it (never a gate)."""

from __future__ import annotations

import doctest
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]


def _targets() -> ModuleType:
    return load_file("targets", ROOT / "benchmarks" / "targets.py", register=True)


def test_the_examples_in_its_docstrings_run() -> None:
    results = doctest.testmod(_targets(), optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 5 and results.failed == 0


@pytest.mark.parametrize(
    ("name", "below", "at", "above"),
    [
        ("acpc", "not met", "met", "met"),  # a ratio: at least the goal
        ("in process", "not met", "met", "met"),  # a speed: at least the goal
        ("runner CPU", "met", "met", "not met"),  # a cost: at most the goal
    ],
)
def test_the_goal_itself_is_met_in_either_direction(
    name: str, below: str, at: str, above: str
) -> None:
    target = _targets().TARGETS[name]
    step = 0.05 if target.unit == "x" else 5
    verdicts = [
        target.verdict(value).split(": ")[1].split(" (")[0]
        for value in (target.goal - step, target.goal, target.goal + step)
    ]
    assert verdicts == [below, at, above]


def test_a_figure_is_judged_as_printed() -> None:
    targets = _targets().TARGETS
    # 1.497 prints as 1.50x: it must not read "not met" beside a goal of 1.5
    assert targets["kit skeleton"].verdict(1.497) == "1.50x: met (goal ≥ 1.5x)"
    assert targets["kit skeleton"].verdict(1.494) == "1.49x: not met (goal ≥ 1.5x)"
    assert targets["in process"].verdict(19_999.6) == "20,000 hands/s: met (goal ≥ 20,000 hands/s)"
    assert targets["runner CPU"].against_goal(250.4) == "≤ 250 µs: met"
    assert targets["runner CPU"].against_goal(250.6) == "≤ 250 µs: not met"


def test_every_target_says_which_benchmark_measures_it() -> None:
    benchmarks = {path.name for path in (ROOT / "benchmarks").glob("*.py")}
    for name, target in _targets().TARGETS.items():
        script = target.measured.split(":")[0].split()[0]
        assert script in benchmarks, f"{name}: {script} is not a benchmark"


def test_a_relative_goal_names_a_commit_of_this_repository() -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the commit cannot be looked up")
    relative = [t for t in _targets().TARGETS.values() if t.baseline is not None]
    assert relative, "the state machine's goal is relative to the commit it was set at"
    for target in relative:
        found = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{target.baseline}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        assert found.returncode == 0, f"{target.baseline} is not a commit here"


def test_a_missing_goal_commit_is_a_clear_error() -> None:
    targets = _targets()
    state_machine = load_file("state_machine", ROOT / "benchmarks" / "state_machine.py")
    absent = targets.Target(1.0, True, "x", "state_machine.py: test", baseline="0" * 40)
    with (
        pytest.raises(SystemExit, match=r"needs commit 0{40} .*give --baseline DIR"),
        state_machine.goal_checkout(absent),
    ):
        pass  # (the copy is made on entering, and fails there)
