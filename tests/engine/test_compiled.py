"""The engine compiled by mypyc (``benchmarks/compiled.py``) plays the same hands as the pure
engine: its module lists name real modules, and a compiled copy of the kit gives the same
match, hand for hand, as this checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]

# One match in a fresh process: where the engine was loaded from, and every hand's deltas.
_MATCH = """
import json
import local_runner.engine.match as match_module
import sdk.states as states_module
from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat
from sdk.rules import Rules
rules = Rules.for_variant("toss").replace(num_rounds=300)
seats = [InProcessSeat(f"p{i}", make_builtin("random", i), rules) for i in range(2)]
deltas = []
Match(seats, rules, seed=3, on_hand=lambda record: deltas.append(record.deltas)).play()
print(json.dumps([match_module.__file__, states_module.__file__, deltas]))
"""


def _benchmark() -> ModuleType:
    return load_file("compiled_benchmark", ROOT / "benchmarks" / "compiled.py")


def _play(tree: Path) -> tuple[str, str, list[list[int]]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _MATCH], env=env, cwd=tree, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    engine, states, deltas = json.loads(out.stdout)
    return engine, states, deltas


def test_the_compiled_sets_name_modules_of_the_kit_once() -> None:
    benchmark = _benchmark()
    for name, modules in benchmark.BUILDS.items():
        assert len(set(modules)) == len(modules), name
        for module in modules:
            assert (ROOT / module).is_file(), f"{name} names {module}, which is not in the kit"
    assert all(module.startswith("local_runner/") for module in benchmark.RUNNER)
    assert all(module.startswith("sdk/") for module in benchmark.SDK)


@pytest.mark.slow
def test_a_compiled_copy_plays_the_same_hands_as_the_pure_engine(tmp_path: Path) -> None:
    benchmark = _benchmark()
    missing = benchmark.missing_tools()
    if missing is not None:
        pytest.skip(f"the compiled engine cannot be built here: {missing}")
    copy = tmp_path / "full"
    benchmark.build(copy, benchmark.BUILDS["full"])
    engine, states, compiled = _play(copy)
    # The copy's engine and state machine are the compiled modules, not the .py files.
    assert Path(engine).parent == copy / "local_runner" / "engine"
    assert not engine.endswith(".py") and not states.endswith(".py"), (engine, states)
    pure_engine, _, pure = _play(ROOT)
    assert pure_engine.endswith(".py")
    assert len(pure) == 300
    assert compiled == pure
