"""The kit's version: declared once (pyproject.toml), the same in every place that shows it."""

from __future__ import annotations

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
from tests.cli.test_startup import modules_after
from tests.conftest import ROOT


def declared() -> str:
    """The version pyproject.toml declares."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return str(project["project"]["version"])


def test_the_sdk_reads_the_version_pyproject_declares() -> None:
    assert sdk.__version__ == declared()
    assert kit_version() == f"pokerbots-kit {declared()}"


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
    assert not {name for name in loaded if name.startswith("local_runner.engine")}


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
