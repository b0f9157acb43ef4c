"""The engine modules a compiled install builds with mypyc, and which of them this one has.

The kit is pure Python.  ``POKERBOTS_COMPILE=1 pip install PATH/TO/pokerbots-kit`` (not
``-e``) builds the modules in :data:`MODULES` with mypyc into C extensions
(``setup.py`` reads this list); the engine then plays about 1.5 times as many hands a
second in process (``docs/performance.md``).  The SDK stays Python in every install: a bot
project's vendored copy of the SDK takes the kit's place in the project's own tests, and a
compiled engine would refuse that copy's classes.

This file imports nothing but the standard library, so the build can read it before the kit's
requirements are installed, and ``pokerbots --version`` can tell which engine is installed
without importing it:

>>> len(MODULES) == len(set(MODULES))
True
>>> all(name.startswith("local_runner/") and name.endswith(".py") for name in MODULES)
True
>>> engine_build() in {"pure Python", f"compiled with mypyc ({len(MODULES)} modules)"}
True
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import sysconfig
from pathlib import Path

__all__ = ["MODULES", "compiled_modules", "engine_build", "missing_build_tools"]

#: The modules a compiled install builds, as paths from the project's root: each match's
#: inner loop and what it calls per hand or per message (the engine, its seats and wire
#: views, the log writers, the built-in bots).  A class of theirs that code outside the list
#: subclasses is marked ``@mypyc_attr(allow_interpreted_subclasses=True)``, which
#: ``tests/engine/test_compiled.py`` checks.
MODULES: tuple[str, ...] = (
    "local_runner/engine/acpc_seat.py",
    "local_runner/engine/acpc_view.py",
    "local_runner/engine/dealer.py",
    "local_runner/engine/faults.py",
    "local_runner/engine/masked_view.py",
    "local_runner/engine/match.py",
    "local_runner/engine/mit_view.py",
    "local_runner/engine/records.py",
    "local_runner/engine/seat_view.py",
    "local_runner/engine/seating.py",
    "local_runner/engine/seats.py",
    "local_runner/engine/socket_seat.py",
    "local_runner/runs/gamelog.py",
    "local_runner/runs/hands.py",
    "local_runner/runs/writer.py",
    "local_runner/runs/dealer_log.py",
    "local_runner/runs/hand_pack.py",
    "local_runner/bots/builtin.py",
)

_ROOT = Path(__file__).resolve().parent.parent


def compiled_modules(root: Path = _ROOT) -> list[str]:
    """The modules of :data:`MODULES` that have a C extension beside them under ``root``
    (what Python imports in place of the ``.py`` file)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = []
    for module in MODULES:
        source = root / module
        stem = source.name.removesuffix(".py")
        if any((source.parent / f"{stem}{suffix}").is_file() for suffix in suffixes):
            found.append(module)
    return found


def engine_build(root: Path = _ROOT) -> str:
    """``pure Python``, ``compiled with mypyc (N modules)``, or which ones are missing when
    only some are compiled (a broken install: reinstall the kit)."""
    found = compiled_modules(root)
    if not found:
        return "pure Python"
    if len(found) == len(MODULES):
        return f"compiled with mypyc ({len(found)} modules)"
    missing = ", ".join(sorted(set(MODULES) - set(found)))
    return (
        f"partly compiled ({len(found)} of {len(MODULES)} modules; not {missing}): "
        "reinstall the kit"
    )


def missing_build_tools(need_mypyc: bool = True) -> str | None:
    """A sentence naming what compiling the engine needs and this machine lacks, else None:
    a C compiler and Python's headers (mypyc writes C), and mypyc itself when
    ``need_mypyc`` (an isolated ``pip`` build installs it by itself)."""
    if need_mypyc and importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed: it comes with mypy (pip install mypy)"
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler found (cc or gcc): mypyc compiles to C; install gcc"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's headers (Python.h) are missing: install the python3-dev package"
    return None
