"""Test setup: the bot's folder on the import path, eval7's noise off, a visible skip reason."""

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: Why the tests are skipped without the kit, with the command that installs it.
KIT_MISSING = (
    "the pokerbots kit is not installed in this Python, so the bot's tests are skipped; "
    "install it from the kit's checkout (the folder holding pyproject.toml): "
    f"{sys.executable} -m pip install -e PATH/TO/pokerbots-kit"
)


def pytest_configure(config: pytest.Config) -> None:
    """Hide eval7's DeprecationWarnings: its range parser uses names pyparsing 3 renamed."""
    config.addinivalue_line("filterwarnings", "ignore::DeprecationWarning:eval7.rangestring")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say why the tests were skipped, after the summary line where it is seen."""
    if importlib.util.find_spec("local_runner") is None:
        terminalreporter.write_line(f"SKIPPED: {KIT_MISSING}", yellow=True, bold=True)
