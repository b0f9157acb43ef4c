"""Build hooks for pokerbots-kit; everything else about the package is in pyproject.toml.

By default the kit installs as pure Python, and this file adds nothing.  With
``POKERBOTS_COMPILE=1`` in the environment, a wheel (``pip install PATH``, ``pip wheel PATH``)
compiles the engine's modules, listed in ``local_runner/compiled.py``, with mypyc into C
extensions.  pip installs mypy for that build by itself: the build asks for it through
``setup_requires``, which setuptools' PEP 517 backend reports as a build requirement.  An
editable install (``pip install -e``) is refused with ``POKERBOTS_COMPILE=1``: a compiled
module would shadow the ``.py`` file beside it, and editing that file would change nothing.
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

#: What mypyc needs to type-check the engine's modules: mypy itself, and the typed
#: packages they import (psutil's stubs; rich ships its own types).
BUILD_REQUIRES = ["mypy>=1.10", "types-psutil", "rich>=13"]

#: The setuptools commands that build the extensions; any other (``egg_info`` while pip asks
#: for the build's requirements or metadata) only learns what the build needs.
_BUILDING = {"bdist_wheel", "build", "build_ext", "install"}
_EDITABLE = {"editable_wheel", "develop"}


class CompileError(SystemExit):
    """``POKERBOTS_COMPILE`` asked for something this build cannot do; the message says why."""


def options(environ: Mapping[str, str], argv: Sequence[str]) -> dict[str, Any]:
    """The keyword arguments for ``setup()`` in this environment and for this command."""
    wanted = environ.get("POKERBOTS_COMPILE", "").strip()
    if wanted in ("", "0"):
        return {}
    if wanted != "1":
        raise CompileError(
            f"POKERBOTS_COMPILE={wanted!r}: set it to 1 to compile the engine with mypyc, "
            "or to 0 (or leave it unset) for the pure-Python kit"
        )
    if _EDITABLE & set(argv):
        raise CompileError(
            "POKERBOTS_COMPILE=1 cannot make an editable install: the compiled modules would "
            "shadow the .py files you edit. Install without -e "
            "(POKERBOTS_COMPILE=1 pip install PATH/TO/pokerbots-kit), or drop "
            "POKERBOTS_COMPILE for an editable, pure-Python install"
        )
    if not _BUILDING & set(argv):
        return {"setup_requires": BUILD_REQUIRES}
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise CompileError(
            "POKERBOTS_COMPILE=1 needs mypy (which provides mypyc) in the build environment: "
            "pip installs it by itself in an isolated build; with --no-build-isolation, "
            f"install it first (pip install {' '.join(repr(r) for r in BUILD_REQUIRES)})"
        ) from None
    declared = runpy.run_path(str(HERE / "local_runner" / "compiled.py"))
    problem = declared["missing_build_tools"](need_mypyc=False)
    if problem is not None:
        raise CompileError(f"POKERBOTS_COMPILE=1 cannot compile the engine here: {problem}")
    return {"ext_modules": mypycify(list(declared["MODULES"]), opt_level="3")}


if __name__ == "__main__":
    from setuptools import setup

    setup(**options(os.environ, sys.argv))
