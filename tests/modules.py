"""A file outside the import path, loaded as a module: the repository's scripts, benchmarks
and bot files that tests call directly."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_file(name: str, path: Path, register: bool = False) -> ModuleType:
    """The module ``name`` run from ``path``.  With ``register`` it is put in ``sys.modules``
    first: a dataclass defined in it looks its module up there by name."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
