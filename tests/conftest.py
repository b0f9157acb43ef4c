"""Shared fixtures: bot directories written on the fly, and the kit's root."""

from __future__ import annotations

import gc
import json
import os
import stat
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MakeBot = Callable[..., Path]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core.  Many tests wait on bot processes, sockets and timeouts
    rather than compute, so a second worker a core keeps the cores busy (2 cores: 4 workers)."""
    return 2 * (os.cpu_count() or 1)


@pytest.fixture(autouse=True)
def _collector_as_found() -> Iterator[None]:
    """A test that plays ``run_bot`` in this process (which freezes the match's objects at
    its end, for the bot process's exit) leaves the collector as it found it."""
    frozen = gc.get_freeze_count()
    yield
    if frozen == 0 and gc.get_freeze_count():
        gc.unfreeze()


@pytest.fixture
def make_bot(tmp_path: Path) -> MakeBot:
    """Write a bot directory whose player.py is ``source`` and return its path.

    The bot imports the kit's SDK from this checkout (PYTHONPATH-free: the
    directory gets a symlink to ``sdk``), and runs with this interpreter.
    """

    def make(name: str, source: str, *, startme: bool = False) -> Path:
        directory = tmp_path / name
        directory.mkdir()
        (directory / "player.py").write_text(textwrap.dedent(source), encoding="utf-8")
        os.symlink(ROOT / "sdk", directory / "sdk")
        if startme:
            script = directory / "startme.sh"
            script.write_text(
                f'#!/bin/sh\ncd "$(dirname "$0")" && exec {sys.executable} player.py "$@"\n',
                encoding="utf-8",
            )
            script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        else:
            commands = {"build": [], "run": [sys.executable, "player.py"]}
            (directory / "commands.json").write_text(json.dumps(commands), encoding="utf-8")
        return directory

    return make
