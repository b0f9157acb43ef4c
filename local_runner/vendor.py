"""The vendored SDK: a copy of ``sdk/`` inside each bot, with its version and hashes recorded.

A bot must run on a competition server that has nothing of ours installed, so
``pokerbots new`` copies the installed kit's SDK into the bot (one source of
truth: the installed package, never a second copy in the template) and writes
``sdk/VENDORED.json`` with the kit version and a SHA-256 per file.
``pokerbots validate`` recomputes the hashes to tell an unmodified SDK from a
modified one, naming the files that changed.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import sdk

__all__ = ["MANIFEST", "VendorCheck", "check_vendored_sdk", "sdk_files", "vendor_sdk"]

#: The manifest written inside the vendored ``sdk/`` directory.
MANIFEST = "VENDORED.json"


def sdk_source() -> Path:
    """The directory of the installed SDK package."""
    return Path(sdk.__file__).resolve().parent


def sdk_files(root: Path) -> list[Path]:
    """The SDK's own files below ``root`` (sources and ``py.typed``), sorted, as relative paths."""
    return sorted(
        path.relative_to(root)
        for path in root.rglob("*")
        if path.is_file()
        and (path.suffix == ".py" or path.name == "py.typed")
        and "__pycache__" not in path.parts
    )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def vendor_sdk(destination: Path) -> dict[str, object]:
    """Copy the installed SDK into ``destination`` (created) and write its manifest."""
    source = sdk_source()
    destination.mkdir(parents=True, exist_ok=True)
    files = {}
    for relative in sdk_files(source):
        target = destination / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / relative, target)
        files[relative.as_posix()] = _digest(target)
    manifest: dict[str, object] = {"kit_version": sdk.__version__, "files": files}
    (destination / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


@dataclass(frozen=True, slots=True)
class VendorCheck:
    """What a vendored SDK looks like against its manifest."""

    present: bool
    version: str | None
    modified: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    added: tuple[str, ...] = ()

    @property
    def pristine(self) -> bool:
        """True when a manifest exists, every file matches it, and nothing was added or removed."""
        return (
            self.present
            and self.version is not None
            and not (self.modified or self.missing or self.added)
        )


def check_vendored_sdk(directory: Path) -> VendorCheck:
    """Compare the SDK vendored in ``directory`` with its manifest."""
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file():
        return VendorCheck(present=directory.is_dir(), version=None)
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        files: dict[str, str] = dict(manifest["files"])
        version = str(manifest.get("kit_version"))
    except (ValueError, KeyError, TypeError):
        return VendorCheck(present=True, version=None, modified=(MANIFEST,))
    actual = {path.as_posix() for path in sdk_files(directory)}
    modified = tuple(
        name
        for name, digest in sorted(files.items())
        if name in actual and _digest(directory / name) != digest
    )
    missing = tuple(sorted(set(files) - actual))
    added = tuple(sorted(actual - set(files)))
    return VendorCheck(True, version, modified, missing, added)
