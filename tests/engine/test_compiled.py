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
from typing import Any

import pytest

from local_runner.compiled import (
    MODULES,
    compiled_modules,
    engine_build,
    missing_build_tools,
    use_python_engine,
)
from local_runner.submission.vendor import vendor_sdk
from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]

# The folders whose Python code may subclass an engine class.
_CODE = ("sdk", "local_runner", "tests", "benchmarks", "scripts", "skeleton")
_MARK = "mypyc_attr(allow_interpreted_subclasses=True)"


def test_the_compiled_modules_are_files_of_the_kit_once() -> None:
    assert len(set(MODULES)) == len(MODULES)
    for module in MODULES:
        assert (ROOT / module).is_file(), f"local_runner/compiled.py names {module}: no such file"
        assert module.split("/")[0] in {"local_runner", "sdk"}, module
    # A bot subclasses Bot, and the ACPC client the MIT client's BotCaller: those stay Python.
    assert "sdk/bot.py" not in MODULES and "sdk/client.py" not in MODULES


def test_the_benchmark_builds_the_engine_alone_and_the_install() -> None:
    benchmark = load_file("compiled_benchmark", ROOT / "benchmarks" / "compiled.py")
    assert benchmark.BUILDS["install"] == MODULES
    engine = benchmark.BUILDS["engine"]
    assert engine and all(module.startswith("local_runner/") for module in engine)
    assert set(engine) == {module for module in MODULES if module.startswith("local_runner/")}


def _fake_kit(root: Path, compiled: bool) -> Path:
    """A kit's folders under ``root``: every module of MODULES as a small .py file, and (if
    ``compiled``) an extension file beside each, as mypyc leaves them; returns the engine's
    match module's source."""
    for module in MODULES:
        source = root / module
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("WHERE = 'source'\n", encoding="utf-8")
        if compiled:
            suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
            source.with_name(source.stem + suffix).write_bytes(b"")
    (root / "sdk" / "__init__.py").write_text("", encoding="utf-8")
    return root / "local_runner" / "engine" / "match.py"


def test_a_vendored_sdk_gets_the_kits_compiled_build_or_the_engine_as_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled_kit, pure_kit = tmp_path / "compiled", tmp_path / "pure"
    match_source = _fake_kit(compiled_kit, compiled=True)
    _fake_kit(pure_kit, compiled=False)
    project = tmp_path / "project"
    shutil.copytree(compiled_kit / "sdk", project / "sdk", ignore=shutil.ignore_patterns("*.so"))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.setattr(sys, "path", [str(project), *sys.path])
    monkeypatch.delitem(sys.modules, "sdk")  # (the test's own `sdk` is imported: not this one)

    def imported_from(folder: Path) -> None:
        module = ModuleType("sdk")
        module.__file__ = str(folder / "__init__.py")
        monkeypatch.setitem(sys.modules, "sdk", module)

    # Nothing compiled: nothing to do.  The project's SDK, unedited: the kit's compiled build.
    assert use_python_engine(pure_kit) is False
    before = len(sys.meta_path)
    assert use_python_engine(compiled_kit) is False
    assert len(sys.meta_path) == before + 1
    kit_sdk = sys.meta_path[0].find_spec("sdk")
    assert kit_sdk is not None and kit_sdk.origin == str(compiled_kit / "sdk" / "__init__.py")
    assert sys.meta_path[0].find_spec("local_runner.engine.match") is None
    del sys.meta_path[0]

    # Edited, or imported already: the engine's modules from their .py files.
    (project / "sdk" / "states.py").write_text("WHERE = 'edited'\n", encoding="utf-8")
    assert use_python_engine(compiled_kit) is True
    assert use_python_engine(compiled_kit) is True  # a second call adds no second finder
    assert len(sys.meta_path) == before + 1
    finder = sys.meta_path[0]
    spec = finder.find_spec("local_runner.engine.match")
    assert spec is not None and spec.origin == str(match_source)
    assert isinstance(spec.loader, importlib.machinery.SourceFileLoader)
    assert finder.find_spec("sdk.states") is None  # the project's own SDK is used as it is
    assert finder.find_spec("local_runner.harness") is None  # not compiled: found as usual
    del sys.meta_path[0]
    (project / "sdk" / "states.py").write_text("WHERE = 'source'\n", encoding="utf-8")
    imported_from(project / "sdk")
    assert use_python_engine(compiled_kit) is True
    del sys.meta_path[0]

    # The kit's own SDK in use: the compiled engine, nothing changed.
    imported_from(compiled_kit / "sdk")
    assert use_python_engine(compiled_kit) is False
    assert len(sys.meta_path) == before


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

# A bot project's test: its bot class from the project's vendored SDK, played in process.
_VENDORED = """
import json
import local_runner as kit
import local_runner.engine.match as match
import sdk
from sdk import Bot, CallAction, CheckAction
class Passive(Bot):
    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()
result = kit.play(Passive(), "random", rounds=50)
print(json.dumps([match.__file__, sdk.__file__, result.hands_played]))
"""

# A bot that raises 4.5 chips: the actions stay Python in every install, so the compiled
# state machine judges it as the pure one does (illegal; the match goes on).
_FLOAT = """
import json
import local_runner as kit
from sdk import Bot, RaiseAction
class Floaty(Bot):
    def get_action(self, game_state, round_state, active):
        return RaiseAction(4.5)
result = kit.play(Floaty(), "checkcall", rounds=20, raise_errors=False)
player = result.players[0]
counts = {kind.value: count for kind, count in player.fault_counts.items()}
print(json.dumps([result.hands_played, counts, player.first_faults[0].detail]))
"""

# The engine's own tests that the compiled wheel must pass as the checkout does: the golden
# transcripts, the real MIT engines' recorded conformance, the masked view, the log files,
# one unanswered message per seat, the socket waits and the hostile bots, and the tests of
# the SDK's compiled modules.  (Tests that monkeypatch an engine function are left out: a
# compiled module does not look its functions up in its namespace, so a patch there does not
# reach it.)
_ENGINE_TESTS = (
    "tests/engine/test_variants.py",
    "tests/engine/test_toss.py",
    "tests/engine/test_mit_conformance.py",
    "tests/engine/test_masked_view.py",
    "tests/engine/test_one_message.py",
    "tests/engine/test_socket_wait.py",
    "tests/engine/test_hostile.py",
    "tests/results/test_logs.py",
    # and the SDK's compiled modules: the state machine (worked examples, hypothesis's
    # invariants, PokerKit as an oracle), the evaluator against eval7, the codecs, the payoffs
    "tests/sdk/test_states.py",
    "tests/sdk/test_properties.py",
    "tests/sdk/test_states_oracle.py",
    "tests/sdk/test_evaluator.py",
    "tests/sdk/test_acpc_codec.py",
    "tests/sdk/test_protocol.py",
    "tests/sdk/test_payoffs.py",
)


def _env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def _printed(code: str, where: Path, python_path: Path | None = None) -> Any:
    """What ``code`` prints (JSON), run by this interpreter in a fresh process in ``where``,
    with ``python_path`` as ``PYTHONPATH`` (else none)."""
    env = _env() if python_path is None else {**_env(), "PYTHONPATH": str(python_path)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=where,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


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


@pytest.mark.slow  # builds a wheel with mypyc (about a minute) and runs the engine's tests on it
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
    assert any(name.startswith("sdk/states.") and name.endswith(".so") for name in names)

    def play(where: Path) -> tuple[str, list[list[int]]]:
        engine, deltas = _printed(_MATCH, where)
        return engine, deltas

    engine, compiled = play(tree)
    assert Path(engine).parent == tree / "local_runner" / "engine"
    assert not engine.endswith(".py"), engine
    pure_engine, pure = play(ROOT)
    assert pure_engine.endswith(".py")
    assert len(pure) == 300
    assert compiled == pure

    # A bot project's own tests: its vendored SDK comes first on the path.  Unedited, it is the
    # kit's sources, and the kit's compiled build of them runs; edited, it is used as it is,
    # with the engine loaded from its .py files.
    project = tmp_path / "project"
    vendor_sdk(project / "sdk")

    def vendored() -> tuple[Path, Path, int]:
        engine, sdk_file, hands = _printed(_VENDORED, project, python_path=tree)
        return Path(engine), Path(sdk_file), hands

    engine_file, sdk_file, hands = vendored()
    assert engine_file.parent == tree / "local_runner" / "engine" and engine_file.suffix == ".so"
    assert (sdk_file, hands) == (tree / "sdk" / "__init__.py", 50)
    with (project / "sdk" / "states.py").open("a", encoding="utf-8") as states:
        states.write("# the bot's author was here\n")
    engine_file, sdk_file, hands = vendored()
    assert engine_file == tree / "local_runner" / "engine" / "match.py"
    assert (sdk_file, hands) == (project / "sdk" / "__init__.py", 50)

    hands, counts, detail = _printed(_FLOAT, tree)
    assert hands == 20 and set(counts) == {"illegal"}
    assert detail == "attempted illegal Raise with amount 4.5"
    assert _printed(_FLOAT, ROOT) == [hands, counts, detail]

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
