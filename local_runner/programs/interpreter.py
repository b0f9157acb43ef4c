"""Which Python a bot's ``python3`` runs: the user's, the kit's, or one the user names.

The MIT engines start a bot's ``python3 player.py`` with whatever ``python3`` is first on
PATH, so a bot finds the packages its author installed for that interpreter.  The kit does
the same, with one exception that keeps a fresh checkout working: when the ``python3`` on
PATH has no eval7 installed (which many real MIT bots import; the kit installs it for its
own interpreter), the kit's interpreter comes first instead.  The ``[runner] python``
setting (``--python`` on the command line) chooses explicitly:

* ``"auto"`` (the default): as just described;
* ``"path"``: PATH unchanged, exactly as the MIT engine runs a bot;
* ``"kit"``: the interpreter the kit itself runs on (and its packages);
* anything else: a path to an interpreter, which bots then get as ``python3`` and ``python``.

Whatever was chosen is written at the top of each bot's log, and named again with a hint
when a bot stops because a module is missing.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sdk.errors import KitError

from .waiting import wait_for_exit

__all__ = ["AUTO", "KIT", "PATH", "BotPython", "InterpreterError", "choose_python", "start_probe"]

AUTO, PATH, KIT = "auto", "path", "kit"
_PROBE_TIMEOUT = 20.0
#: What the probe runs: eval7 is looked for on the interpreter's path, not imported.  Importing
#: it (pyparsing and its range grammar) took about 50 ms more than starting the interpreter
#: (72 against 21 ms here), which a command started from a pyenv shim, itself 50-60 ms, then
#: waited for after its own imports.
_PROBE_CODE = "import importlib.util, sys; sys.exit(importlib.util.find_spec('eval7') is None)"


class InterpreterError(KitError, ValueError):
    """The ``python`` setting names no usable interpreter; the message says what to change."""


@dataclass(frozen=True, slots=True)
class BotPython:
    """The interpreter a bot's ``python3`` will be, and why."""

    executable: str | None
    """The interpreter's path (None when there is no ``python3`` on PATH at all)."""
    setting: str
    """The ``[runner] python`` setting that led here."""
    reason: str
    """One sentence for the bot's log: which interpreter, and why this one."""
    first_on_path: str | None
    """A directory to put first on the bot's PATH, or None to leave PATH as it is."""

    def bot_path(self, path: str) -> str:
        """The PATH a bot gets, given the runner's own ``path``."""
        if self.first_on_path is None:
            return path
        return os.pathsep.join([self.first_on_path, path]) if path else self.first_on_path

    def hint(self) -> str:
        """What to do when a bot could not import a module: install it, or choose another."""
        target = self.executable or "python3"
        return (
            f"The bot's python3 was {self.reason}. Install the missing package for it "
            f"({target} -m pip install NAME), or choose another interpreter with --python "
            '(a path, "path" or "kit") or [runner] python = "..." in the config file.'
        )


def choose_python(setting: str, path: str | None = None) -> BotPython:
    """The interpreter bots get as ``python3`` for ``setting`` (see the module docstring).

    ``path`` is the runner's PATH (default: this process's).  Raises :class:`InterpreterError`
    for a setting that names no executable file.
    """
    path = os.environ.get("PATH", "") if path is None else path
    kit = sys.executable
    kit_dir = str(Path(kit).parent)
    if setting == KIT:
        return BotPython(kit, setting, "the kit's own interpreter, as configured", kit_dir)
    on_path = shutil.which("python3", path=path)
    if setting == PATH:
        where = on_path or "no python3 on PATH"
        return BotPython(on_path, setting, f"the python3 on PATH, as configured: {where}", None)
    if setting == AUTO:
        if on_path is None:
            return BotPython(
                kit, setting, "the kit's interpreter: there is no python3 on PATH", kit_dir
            )
        if _same_file(on_path, kit) or _has_eval7(on_path):
            return BotPython(on_path, setting, "the python3 on PATH", None)
        return BotPython(
            kit,
            setting,
            f"the kit's interpreter, because the python3 on PATH ({on_path}) has no eval7",
            kit_dir,
        )
    return _named(setting)


def _named(setting: str) -> BotPython:
    """An interpreter given by path (or by a command name found on PATH)."""
    found = shutil.which(setting) if os.sep not in setting else setting
    if found is None or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise InterpreterError(
            f'The python setting {setting!r} is not an executable interpreter. Use "auto", '
            '"path", "kit", or the path of a Python interpreter such as /usr/bin/python3.'
        )
    executable = os.path.abspath(found)
    return BotPython(executable, setting, f"{executable}, as configured", _shim_dir(executable))


@functools.cache
def _shim_dir(executable: str) -> str:
    """A private directory whose ``python3`` and ``python`` run ``executable``.

    Each is a two-line script that ``exec``s the interpreter by its own path, not a symbolic
    link: Python finds a virtual environment by the path it was started as (``pyvenv.cfg``
    beside it), so a link to a venv's interpreter elsewhere would start it without the venv's
    packages.
    """
    directory = tempfile.mkdtemp(prefix="pokerbots-python-")
    atexit.register(shutil.rmtree, directory, True)
    for name in ("python3", "python"):
        shim = Path(directory, name)
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(executable)} "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
    return directory


#: Probes started ahead of time by :func:`start_probe`, by interpreter path.
_started: dict[str, subprocess.Popen[bytes]] = {}


def start_probe(path: str | None = None) -> None:
    """Start asking the ``python3`` on ``path`` (default: PATH) whether it has eval7,
    without waiting for the answer; :func:`choose_python` collects it.

    Starting another interpreter takes 0.05-0.3 s (a pyenv shim runs several shell scripts
    first); a command that starts bots calls this first thing, so that the answer is ready
    by the time its own imports are done.  An answer nobody collects is reaped at exit.
    """
    path = os.environ.get("PATH", "") if path is None else path
    on_path = shutil.which("python3", path=path)
    if on_path is None or on_path in _started or _same_file(on_path, sys.executable):
        return
    with contextlib.suppress(OSError):
        _started[on_path] = _spawn_probe(on_path)
        if len(_started) == 1:
            atexit.register(_reap_probes)


def _spawn_probe(executable: str) -> subprocess.Popen[bytes]:
    """An interpreter process that exits with 0 if ``executable`` finds eval7 on its path
    (an installed eval7 that would fail to import still counts: the bot's own error says so,
    with :meth:`BotPython.hint`)."""
    return subprocess.Popen(
        [executable, "-c", _PROBE_CODE],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _reap_probes() -> None:
    """Stop and reap the probes whose answer was never needed (a config chose ``kit``)."""
    for probe in _started.values():
        if probe.poll() is None:
            probe.kill()
        probe.wait()


def _same_file(one: str, other: str) -> bool:
    """Whether two paths are the same interpreter with the same packages: the same file, in
    the same folder (``python3`` and ``python`` of one virtualenv; another virtualenv's
    ``python3`` is a link to the same file too, but it has packages of its own)."""
    one, other = os.path.abspath(one), os.path.abspath(other)
    if one == other:
        return True
    same_folder = os.path.dirname(one) == os.path.dirname(other)
    return same_folder and os.path.realpath(one) == os.path.realpath(other)


@functools.cache
def _has_eval7(executable: str) -> bool:
    """Whether ``executable`` has eval7 (asked once per interpreter and run)."""
    try:
        probe = _started.pop(executable, None) or _spawn_probe(executable)
    except OSError:
        return False
    wait_for_exit(probe, _PROBE_TIMEOUT)
    if probe.returncode is None:  # too slow to be of use
        probe.kill()
        probe.wait()
        return False
    return probe.returncode == 0
