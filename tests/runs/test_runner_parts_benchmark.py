"""``benchmarks/runner_parts.py`` switches a part of the runner's work off by replacing it:
each replacement must reach a real function, or the benchmark would measure nothing."""

from __future__ import annotations

import doctest
import importlib
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]


def _benchmark() -> ModuleType:
    return load_file("runner_parts", ROOT / "benchmarks" / "runner_parts.py", register=True)


def test_every_part_names_a_function_that_exists() -> None:
    parts = _benchmark().PARTS
    assert {"logs", "nosend", "inline", "stats", "curve", "showdown"} <= set(parts)
    for name, targets in parts.items():
        for module_name, path, _ in targets:
            owner: object = importlib.import_module(module_name)
            for step in path.split("."):
                assert hasattr(owner, step), f"{name}: {module_name}.{path} is gone"
                owner = getattr(owner, step)
            assert callable(owner), f"{name}: {module_name}.{path} is not a function"


def _hands_logged(out: Path) -> int:
    with (out / "hands.jsonl").open(encoding="utf-8") as lines:
        return sum(1 for _ in lines)


def test_switching_the_logs_off_writes_no_hand_and_the_rest_still_runs(tmp_path: Path) -> None:
    benchmark = _benchmark()
    case = benchmark.Case(
        "builtins", ["scrimmage", "builtin:random", "builtin:checkcall", "--rounds", "30"]
    )
    env = benchmark._env(cold=False)
    benchmark.run_once(case, "", 1, tmp_path, env)
    benchmark.run_once(case, "logs", 1, tmp_path, env)
    whole, without = tmp_path / "builtins-all-1", tmp_path / "builtins-logs-1"
    assert _hands_logged(whole) == 30
    assert _hands_logged(without) == 0
    # Only the hands' lines are gone: the match was played and its summary written.
    summary = json.loads((without / "summary.json").read_text(encoding="utf-8"))
    assert summary["rounds"] == 30


def test_a_part_whose_function_was_renamed_stops_the_run(tmp_path: Path) -> None:
    benchmark = _benchmark()
    benchmark.PARTS["gone"] = (("local_runner.runs.writer", "MatchLogWriter.no_such", "None"),)
    try:
        case = benchmark.Case("builtins", ["scrimmage", "builtin:random", "builtin:random"])
        with pytest.raises(RuntimeError, match=r"MatchLogWriter\.no_such no longer exists"):
            benchmark.run_once(case, "gone", 1, tmp_path, benchmark._env(cold=False))
    finally:
        del benchmark.PARTS["gone"]


def test_the_examples_in_its_docstrings_run() -> None:
    results = doctest.testmod(_benchmark())
    assert results.attempted >= 1 and results.failed == 0


def test_with_rounds_and_the_callgrind_summary(tmp_path: Path) -> None:
    benchmark = _benchmark()
    assert benchmark.with_rounds(["scrimmage", "x", "--rounds", "1000", "--seed", "3"], 200) == [
        "scrimmage",
        "x",
        "--rounds",
        "200",
        "--seed",
        "3",
    ]
    out = tmp_path / "callgrind.123-01"
    out.write_text("version: 1\ncmd: python\nevents: Ir\nsummary: 4242\ntotals: 4242\n")
    assert benchmark.main_thread_instructions(out) == 4242
    out.write_text("version: 1\nevents: Ir\n")  # a run cut short writes no summary
    with pytest.raises(RuntimeError, match="no summary line"):
        benchmark.main_thread_instructions(out)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_instruction_counts_of_a_real_command(tmp_path: Path) -> None:
    """Under callgrind: more hands cost more instructions, and the logs switched off fewer."""
    benchmark = _benchmark()
    case = benchmark.Case(
        "builtins", ["scrimmage", "builtin:random", "builtin:checkcall", "--rounds", "0"]
    )
    env = benchmark._env(cold=False)
    counts = {
        (part, hands): benchmark.count_once(case, part, hands, tmp_path, env)
        for part in ("", "logs")
        for hands in (5, 45)
    }
    assert 0 < counts["", 5] < counts["", 45]
    # Per hand (the start cancels: switching a part off imports its module first).
    with_logs = counts["", 45] - counts["", 5]
    without_logs = counts["logs", 45] - counts["logs", 5]
    assert 0 < without_logs < with_logs
    # The commands played their hands (the logs of the one with them on).
    assert _hands_logged(tmp_path / "builtins-all-45") == 45


def test_what_a_count_changes_names_a_setting_that_exists() -> None:
    """The instruction count sends the hands in one batch: the setting it replaces must exist
    (the driver refuses the run otherwise)."""
    for targets in _benchmark()._COUNTING.values():
        for module_name, attribute, replacement in targets:
            module = importlib.import_module(module_name)
            assert isinstance(getattr(module, attribute), float)
            assert float(replacement) > 3600  # longer than any counted match
