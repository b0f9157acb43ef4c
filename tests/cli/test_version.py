"""The kit's version: declared once (pyproject.toml), the same in every place that shows it."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import sdk
from local_runner.cli import kit_version
from local_runner.compiled import engine_build
from local_runner.submission.new import create_bot
from local_runner.submission.vendor import MANIFEST
from sdk import _declared_version, _installed_version
from tests.cli.test_startup import modules_after
from tests.conftest import ROOT


def declared() -> str:
    """The version pyproject.toml declares."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(project["project"]["version"])


def test_the_sdk_reads_the_version_pyproject_declares() -> None:
    assert sdk.__version__ == declared()
    assert kit_version() == f"pokerbots-kit {declared()}"


@pytest.mark.slow  # starts an interpreter
def test_the_version_is_read_without_parsing_all_of_pyproject() -> None:
    """The checkout's version costs a file read and two regular expressions: no tomllib
    (4-5 ms of every scrimmage, for summary.json), no importlib.metadata (about 20 ms)."""
    loaded = modules_after("import sdk\nassert sdk.__version__")
    assert not loaded & {"tomllib", "importlib.metadata"}
    assert _declared_version((ROOT / "pyproject.toml").read_text(encoding="utf-8")) == declared()


@pytest.mark.parametrize(
    ("table", "version"),
    [
        ('name = "pokerbots-kit"\nversion = "1.0.0"\n', "1.0.0"),
        ("name = \"pokerbots-kit\"\nversion = '2.0.0'\n", "2.0.0"),  # a literal string
        ('version = "3.0.0"   # the next release\nname = "pokerbots-kit"\n', "3.0.0"),
        # A multi-line string that holds a version line of its own.
        (
            'name = "pokerbots-kit"\nversion = "4.0.0"\n'
            'description = """\nversion = "6.6.6"\n"""\n',
            "4.0.0",
        ),
        ('name = "pokerbots-kit"\ndynamic = ["version"]\n', None),
        ('name = "someone-else"\nversion = "5.0.0"\n', None),
    ],
)
def test_a_declared_version_reads_as_tomllib_reads_it(table: str, version: str | None) -> None:
    head = '[build-system]\nrequires = ["setuptools"]\n\n[project]\n'
    text = f'{head}{table}\n[tool.x]\nversion = "7"\n'
    assert _declared_version(text) == version
    project = tomllib.loads(text)["project"]
    if version is not None:
        assert project["version"] == version


def test_an_installed_kit_reads_the_metadata_beside_it(tmp_path: Path) -> None:
    """An installed kit (a wheel: no pyproject.toml beside the package) reads the version pip
    wrote next to it; where that is not one clear answer, importlib.metadata's."""
    info = tmp_path / "pokerbots_kit-3.4.5.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pokerbots-kit\nVersion: 3.4.5\n\nVersion: 9 (the body)\n",
        encoding="utf-8",
    )
    assert _installed_version(tmp_path) == "3.4.5"
    (tmp_path / "pokerbots_kit-3.4.4.dist-info").mkdir()  # a stale copy: ask importlib.metadata
    stale = tmp_path / "pokerbots_kit-3.4.4.dist-info" / "METADATA"
    stale.write_text("Version: 3.4.4\n", encoding="utf-8")
    assert _installed_version(tmp_path) == importlib.metadata.version("pokerbots-kit")
    assert _installed_version(tmp_path / "nothing-here") == importlib.metadata.version(
        "pokerbots-kit"
    )


@pytest.mark.slow  # starts the command
def test_pokerbots_version_prints_it_and_exits_0() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # The second line says how the engine was installed (an editable checkout: pure Python).
    printed = f"pokerbots-kit {declared()}\nengine: {engine_build()}\n"
    assert (run.returncode, run.stdout, run.stderr) == (0, printed, "")
    assert engine_build() == "pure Python"


@pytest.mark.slow  # starts an interpreter
def test_pokerbots_version_imports_neither_rich_nor_the_engine() -> None:
    loaded = modules_after(
        "import contextlib, io, local_runner.cli as cli\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        "    cli.main(['--version'])"
    )
    assert "sdk" in loaded
    assert not {name for name in loaded if name == "rich" or name.startswith("rich.")}
    # Only the signal handler every command installs (its module imports nothing but
    # threading); no part of the match.
    engine = {name for name in loaded if name.startswith("local_runner.engine")}
    assert engine == {"local_runner.engine", "local_runner.engine.interrupts"}


@pytest.mark.slow  # renders the template and starts the bot's interpreter
def test_a_new_bots_vendored_sdk_is_stamped_and_reports_that_version(tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "stamped", {})
    stamp = json.loads((bot / "sdk" / MANIFEST).read_text(encoding="utf-8"))
    assert stamp["kit_version"] == declared()
    # The bot's own copy answers with its stamp, wherever it runs (no kit installed needed).
    stamp["kit_version"] = "9.9.9"
    (bot / "sdk" / MANIFEST).write_text(json.dumps(stamp), encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, '.'); import sdk; print(sdk.__version__)",
        ],
        cwd=bot,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.stdout == "9.9.9\n", run.stderr
