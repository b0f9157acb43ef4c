"""The modules a compiled install builds with mypyc, which of them this one has, and which
engine runs in a process whose SDK is a bot project's copy.

The kit is pure Python.  ``POKERBOTS_COMPILE=1 pip install PATH/TO/pokerbots-kit`` (not
``-e``) builds the modules in :data:`MODULES` with mypyc into C extensions
(``setup.py`` reads this list): the engine, and the SDK's modules it runs per decision.  The
engine then plays about twice as many hands a second in process (``docs/performance.md``).

A bot project made by ``pokerbots new`` carries its own copy of the SDK (pure Python, so that
it runs on a competition server), and in the project's own tests that copy takes the place of
the kit's.  A compiled engine refuses the classes of another copy, so ``import local_runner``
checks where this process's ``sdk`` comes from (:func:`use_python_engine`): a copy with the
kit's own sources is swapped for the kit's compiled build of them; any other copy gets the
engine loaded from its ``.py`` files, as pure Python, as in a pure install.

This file imports nothing but the standard library, so the build can read it before the kit's
requirements are installed, and ``pokerbots --version`` can tell which engine is installed
without importing it:

>>> len(MODULES) == len(set(MODULES))
True
>>> all(name.split("/")[0] in {"local_runner", "sdk"} and name.endswith(".py") for name in MODULES)
True
>>> engine_build() in {"pure Python", f"compiled with mypyc ({len(MODULES)} modules)"}
True
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "MODULES",
    "compiled_modules",
    "engine_build",
    "missing_build_tools",
    "use_python_engine",
]

#: The modules a compiled install builds, as paths from the project's root: each match's
#: inner loop and what it calls per hand or per message (the engine, its seats and wire
#: views, the log writers, the built-in bots, and the SDK's state machine, codecs, payoffs
#: and evaluator).  A class of theirs that code outside the list subclasses is marked
#: ``@mypyc_attr(allow_interpreted_subclasses=True)``, which ``tests/engine/test_compiled.py``
#: checks.  What bot authors' code makes or extends stays Python: ``sdk/bot.py`` and
#: ``sdk/client.py`` (bots and the ACPC client subclass their classes), ``sdk/actions.py``
#: and ``sdk/pots.py`` (compiled, ``RaiseAction(4.5)`` or a float among a pot's chips would
#: raise mypyc's ``TypeError``, and ``DiscardAction(True)`` would become index 1, where the
#: Python classes keep what they are given and the rules refuse it with a sentence).
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
    "sdk/states.py",
    "sdk/acpc.py",
    "sdk/protocol.py",
    "sdk/payoffs.py",
    "sdk/evaluator.py",
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


class _PythonEngine:
    """A finder first on ``sys.meta_path`` that loads the compiled engine's modules from
    their ``.py`` files (see :func:`use_python_engine`)."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources
        """Each module's dotted name and its source file."""

    def find_spec(
        self, name: str, path: object = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The source file's spec for an engine module, else None (the usual finders)."""
        source = self.sources.get(name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(name, source)


class _KitSdk:
    """A finder first on ``sys.meta_path`` that finds the package ``sdk`` beside the kit (its
    modules are then found in that package's folder); see :func:`use_python_engine`."""

    def __init__(self, root: Path) -> None:
        self.path = [str(root)]
        """The folder that holds the kit's ``sdk``."""

    def find_spec(
        self, name: str, path: object = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The kit's ``sdk`` package for the name ``sdk``, else None (the usual finders)."""
        if name != "sdk":
            return None
        return importlib.machinery.PathFinder.find_spec(name, self.path)


def _sdk_folder() -> Path | None:
    """The folder of the ``sdk`` package this process imports (or has imported)."""
    module = sys.modules.get("sdk")
    if module is not None:
        origin = getattr(module, "__file__", None)
    else:
        spec = importlib.util.find_spec("sdk")
        origin = None if spec is None else spec.origin
    return None if origin is None else Path(origin).resolve().parent


def _same_sources(one: Path, other: Path) -> bool:
    """Whether two folders hold the same ``.py`` files, byte for byte."""

    def sources(root: Path) -> list[Path]:
        return sorted(
            path.relative_to(root) for path in root.rglob("*.py") if "__pycache__" not in path.parts
        )

    names = sources(one)
    if names != sources(other):
        return False
    return all((one / name).read_bytes() == (other / name).read_bytes() for name in names)


def use_python_engine(root: Path = _ROOT) -> bool:
    """Keep a compiled engine working where this process's ``sdk`` is another copy than the
    one installed beside the kit (a bot project's vendored SDK, first on the path in the
    project's own tests and scripts); True if the engine will run as Python.

    ``local_runner`` calls it once, when it is first imported.  Compiled code refuses another
    copy's classes, so, where the engine here is compiled:

    * if the other copy holds the same sources as the kit's, byte for byte (an unedited SDK
      vendored from this version of the kit), and is not imported yet, ``import sdk`` is
      sent to the kit's own (compiled) build of them, and the compiled engine runs;
    * otherwise (an edited or older copy, or one already imported) the engine's modules are
      loaded from their ``.py`` files, and the engine runs as pure Python on that copy.

    In a pure install, or where the kit's own SDK is in use, it changes nothing."""
    folder = _sdk_folder()
    kit_sdk = (root / "sdk").resolve()
    if folder is None or folder == kit_sdk:
        return False
    sources = {
        module.removesuffix(".py").replace("/", "."): root / module
        for module in compiled_modules(root)
        if module.startswith("local_runner/")
    }
    if not sources:
        return False
    if any(isinstance(finder, _PythonEngine) for finder in sys.meta_path):
        return True
    if "sdk" not in sys.modules and _same_sources(kit_sdk, folder):
        sys.meta_path.insert(0, _KitSdk(root))
        return False
    sys.meta_path.insert(0, _PythonEngine(sources))
    return True


def missing_build_tools(need_mypyc: bool = True) -> str | None:
    """A sentence naming what compiling the engine needs and this machine lacks, else None:
    a C compiler and Python's headers (mypyc writes C), and mypyc itself when
    ``need_mypyc`` (an isolated ``pip`` build installs it by itself)."""
    import shutil  # (here, not at the top: `import local_runner` reads this module)
    import sysconfig

    if need_mypyc and importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed: it comes with mypy (pip install mypy)"
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        return "no C compiler found (cc or gcc): mypyc compiles to C; install gcc"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's headers (Python.h) are missing: install the python3-dev package"
    return None
