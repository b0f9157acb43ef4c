"""The compiled engine (``local_runner/compiled.py``, ``setup.py``): its module list, the marks
that let Python code subclass its classes, the build's switches, and a real compiled wheel
that plays the same hands as the pure engine and passes the engine's own tests."""

from __future__ import annotations

import ast
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from local_runner.compiled import MODULES, compiled_modules, engine_build, missing_build_tools
from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]

# The folders whose Python code may subclass an engine class.
_CODE = ("sdk", "local_runner", "tests", "benchmarks", "scripts", "skeleton")
_MARK = "mypyc_attr(allow_interpreted_subclasses=True)"


def test_the_compiled_modules_are_files_of_the_engine_once() -> None:
    assert len(set(MODULES)) == len(MODULES)
    for module in MODULES:
        assert (ROOT / module).is_file(), f"local_runner/compiled.py names {module}: no such file"
        # The SDK stays Python: a bot project's vendored copy must be able to replace it.
        assert module.startswith("local_runner/"), module


def test_the_benchmarks_full_copy_adds_sdk_modules_of_the_kit() -> None:
    benchmark = load_file("compiled_benchmark", ROOT / "benchmarks" / "compiled.py")
    assert benchmark.BUILDS["runner"] == MODULES
    assert len(set(benchmark.SDK)) == len(benchmark.SDK)
    for module in benchmark.SDK:
        assert module.startswith("sdk/") and (ROOT / module).is_file(), module


def _classes(path: Path) -> dict[str, ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _base_names(node: ast.ClassDef) -> list[str]:
    names = []
    for base in node.bases:
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def test_a_compiled_class_that_other_code_subclasses_is_marked_for_it() -> None:
    # mypyc refuses, at import, a Python class deriving from an unmarked compiled class.
    compiled: dict[str, ast.ClassDef] = {}
    for module in MODULES:
        compiled.update(_classes(ROOT / module))
    subclassed: dict[str, list[str]] = {}
    for folder in _CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in MODULES:
                continue
            for node in _classes(path).values():
                for base in _base_names(node):
                    if base in compiled:
                        subclassed.setdefault(base, []).append(f"{name}:{node.name}")
    assert {"Seat", "InProcessSeat", "CheckCallBot"} <= set(subclassed), subclassed
    for base, where in subclassed.items():
        marks = [ast.unparse(decorator) for decorator in compiled[base].decorator_list]
        assert _MARK in marks, f"{base} is subclassed by {where} but not marked @{_MARK}"


def test_engine_build_tells_pure_partly_and_fully_compiled_installs_apart(tmp_path: Path) -> None:
    for module in MODULES:
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("", encoding="utf-8")
    assert (compiled_modules(tmp_path), engine_build(tmp_path)) == ([], "pure Python")

    def compile_(module: str) -> None:  # what mypyc leaves beside the .py file
        source = tmp_path / module
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        source.with_name(source.stem + suffix).write_bytes(b"")

    first, *rest = MODULES
    compile_(first)
    assert compiled_modules(tmp_path) == [first]
    assert engine_build(tmp_path).startswith(f"partly compiled (1 of {len(MODULES)} modules;")
    for module in rest:
        compile_(module)
    assert engine_build(tmp_path) == f"compiled with mypyc ({len(MODULES)} modules)"


def _setup() -> ModuleType:
    return load_file("kit_setup", ROOT / "setup.py")


def test_the_build_compiles_only_when_asked_and_never_an_editable_install() -> None:
    setup = _setup()
    options, error = setup.options, setup.CompileError
    assert options({}, ["setup.py", "bdist_wheel"]) == {}
    assert options({"POKERBOTS_COMPILE": "0"}, ["setup.py", "bdist_wheel"]) == {}
    with pytest.raises(error, match=r"POKERBOTS_COMPILE='yes': set it to 1"):
        options({"POKERBOTS_COMPILE": "yes"}, ["setup.py", "bdist_wheel"])
    with pytest.raises(error, match=r"cannot make an editable install.*without -e"):
        options({"POKERBOTS_COMPILE": "1"}, ["setup.py", "editable_wheel"])
    # pip first asks what the build needs (an egg_info run): mypy, which it then installs.
    wanted = options({"POKERBOTS_COMPILE": "1"}, ["setup.py", "egg_info"])
    assert wanted == {"setup_requires": setup.BUILD_REQUIRES}
    assert any(requirement.startswith("mypy") for requirement in wanted["setup_requires"])


# One match in a fresh process: where the engine was loaded from, and every hand's deltas.
_MATCH = """
import json
import local_runner.engine.match as match_module
from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat
from sdk.rules import Rules
rules = Rules.for_variant("toss").replace(num_rounds=300)
seats = [InProcessSeat(f"p{i}", make_builtin("random", i), rules) for i in range(2)]
deltas = []
Match(seats, rules, seed=3, on_hand=lambda record: deltas.append(record.deltas)).play()
print(json.dumps([match_module.__file__, deltas]))
"""

# The engine's own tests that the compiled wheel must pass as the checkout does: the golden
# transcripts, the real MIT engines' recorded conformance, the masked view, the log files,
# one unanswered message per seat, the socket waits and the hostile bots.  (Tests that
# monkeypatch an engine function are left out: a compiled module does not look its
# functions up in its namespace, so a patch there does not reach it.)
_ENGINE_TESTS = (
    "tests/engine/test_variants.py",
    "tests/engine/test_toss.py",
    "tests/engine/test_mit_conformance.py",
    "tests/engine/test_masked_view.py",
    "tests/engine/test_one_message.py",
    "tests/engine/test_socket_wait.py",
    "tests/engine/test_hostile.py",
    "tests/results/test_logs.py",
)


def _env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def _build_wheel(tmp_path: Path) -> Path:
    """A wheel of this checkout built as a user would, ``POKERBOTS_COMPILE=1 pip wheel``
    (pip installs mypy into the isolated build), from a copy of the sources."""
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "build")
    for folder in ("sdk", "local_runner", "templates"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(source)],
        env={**_env(), "POKERBOTS_COMPILE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    (wheel,) = dist.glob("pokerbots_kit-*.whl")
    return wheel


@pytest.mark.slow  # builds a wheel with mypyc (about 30 s) and runs the engine's tests on it
def test_a_compiled_wheel_plays_the_same_hands_and_passes_the_engines_tests(
    tmp_path: Path,
) -> None:
    problem = missing_build_tools(need_mypyc=False)
    if problem is not None:
        pytest.skip(f"the compiled engine cannot be built here: {problem}")
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        tree = tmp_path / "installed"
        archive.extractall(tree)
    assert engine_build(tree) == f"compiled with mypyc ({len(MODULES)} modules)", sorted(names)
    assert not any(name.startswith("sdk/") and name.endswith(".so") for name in names)

    def play(where: Path) -> tuple[str, list[list[int]]]:
        out = subprocess.run(
            [sys.executable, "-c", _MATCH],
            env=_env(),
            cwd=where,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        engine, deltas = json.loads(out.stdout)
        return engine, deltas

    engine, compiled = play(tree)
    assert Path(engine).parent == tree / "local_runner" / "engine"
    assert not engine.endswith(".py"), engine
    pure_engine, pure = play(ROOT)
    assert pure_engine.endswith(".py")
    assert len(pure) == 300
    assert compiled == pure

    # The installed copy has no pyproject.toml beside it: its version is the one the wheel's
    # metadata holds, read there (importlib.metadata, which looks through every folder of
    # sys.path, is not needed).
    code = (
        "import sys; sys.path.insert(0, '.'); import sdk; "
        "print(sdk.__version__, sdk.__file__, 'importlib.metadata' in sys.modules)"
    )
    said = subprocess.run(
        [sys.executable, "-I", "-c", code], cwd=tree, capture_output=True, text=True, timeout=60
    )
    version, where, looked_through = said.stdout.split()
    assert Path(where).parent == tree / "sdk", said.stderr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert (version, looked_through) == (project["version"], "False")

    # The engine's tests, run from beside the installed wheel so that they import it.
    for folder in ("tests", "skeleton"):
        shutil.copytree(ROOT / folder, tree / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    probe = tree / "tests" / "engine" / "test_zz_compiled_probe.py"
    probe.write_text(
        "import local_runner.engine.match as match\n\n\n"
        "def test_the_engine_here_is_compiled() -> None:\n"
        "    assert not match.__file__.endswith('.py'), match.__file__\n",
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"]
    argv += [*_ENGINE_TESTS, probe.relative_to(tree).as_posix()]
    ran = subprocess.run(argv, cwd=tree, env=_env(), capture_output=True, text=True, timeout=1200)
    assert ran.returncode == 0, ran.stdout[-4000:]
    assert " passed" in ran.stdout.splitlines()[-1] and "failed" not in ran.stdout.splitlines()[-1]
