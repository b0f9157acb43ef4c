"""The installed package holds every package of the source tree: pyproject.toml lists them
by hand (the template's folder is mapped), so a new folder must be added there too."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_source_package_is_listed_in_pyproject() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("sdk", "local_runner")
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages"
    mapped = set(setuptools.get("package-dir", {}))
    assert listed - on_disk - mapped == set(), "pyproject lists packages that do not exist"
