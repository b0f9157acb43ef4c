"""Old import paths of ``local_runner`` keep working after its modules were grouped by job."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from local_runner.moved import MOVED

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_is_the_module_at_its_new_path(old: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_every_new_path_exists_and_no_old_file_is_left() -> None:
    for old, new in MOVED.items():
        assert (ROOT / (new.replace(".", "/") + ".py")).is_file(), new
        assert not (ROOT / (old.replace(".", "/") + ".py")).exists(), old


def test_old_from_imports_work_in_a_fresh_interpreter() -> None:
    # A fresh process: nothing imported yet, as in a bot author's script.
    code = (
        "from local_runner.match import Match\n"
        "from local_runner.stats import summarize_duplicate\n"
        "from local_runner.builtin_bots import make_builtin\n"
        "import local_runner.seats as seats, local_runner.engine.seats as new\n"
        "assert seats is new and Match.__module__ == 'local_runner.engine.match'\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "ok"


def test_an_unknown_module_is_still_an_import_error() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("local_runner.no_such_module")


def test_the_bot_spec_lives_with_the_bot_programs_and_is_still_found_in_scrimmage() -> None:
    from local_runner import scrimmage
    from local_runner.programs import spec

    assert scrimmage.BotSpec is spec.BotSpec and scrimmage.UsageError is spec.UsageError
    assert spec.BotSpec.parse("builtin:random").builtin == "random"
