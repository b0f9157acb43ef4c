"""The vendored SDK: a copy of ``sdk/`` inside each bot, with its version and hashes recorded.

A bot must run on a competition server that has nothing of ours installed, so
``pokerbots new`` copies the installed kit's SDK into the bot (one source of
truth: the installed package, never a second copy in the template) and writes
``sdk/VENDORED.json`` with the kit version and a SHA-256 per file.
``pokerbots validate`` recomputes the hashes to tell an unmodified SDK from a
modified one, naming the files that changed.  ``pokerbots sdk refresh`` brings a bot's
copy up to the installed kit's SDK with :func:`refresh_sdk`, and uses the same hashes to
refuse to overwrite a file the author edited.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import sdk
from sdk.errors import KitError

__all__ = [
    "MANIFEST",
    "SdkRefresh",
    "SdkRefreshError",
    "VendorCheck",
    "check_vendored_sdk",
    "edited_sentence",
    "plan_sdk_refresh",
    "refresh_sdk",
    "sdk_files",
    "vendor_sdk",
]

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


class SdkRefreshError(KitError, ValueError):
    """A vendored SDK that cannot be refreshed as asked; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class SdkRefresh:
    """What refreshing a bot's ``sdk/`` from the installed kit changes (file names in ``sdk/``).

    ``edited`` lists the files whose content the author changed since the kit wrote them
    (their hash differs from ``VENDORED.json``; without a manifest, any file that differs
    from the kit's), or added, and that the refresh would overwrite or remove.
    """

    old_version: str | None
    new_version: str
    updated: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()
    edited: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """True when the refresh writes or removes any SDK file (or the manifest's version)."""
        return bool(self.updated or self.added or self.removed) or (
            self.old_version != self.new_version
        )

    def describe(self, where: str = "sdk/") -> list[str]:
        """What the refresh changes, as sentences (one per kind of change).

        >>> SdkRefresh("0.1.0", "0.2.0", updated=("client.py",), unchanged=("bot.py",)).describe()
        ['sdk/ goes from kit 0.1.0 to 0.2.0.', 'Updated: client.py.', '1 file unchanged.']
        """
        if not self.changed:
            return [f"{where} already holds the kit's SDK {self.new_version}; nothing changed."]
        old = self.old_version or "an unknown version"
        lines = [f"{where} goes from kit {old} to {self.new_version}."]
        if self.old_version == self.new_version:
            lines = [f"{where} is brought back to the kit's SDK {self.new_version}."]
        for label, names in (
            ("Updated", self.updated),
            ("Added", self.added),
            ("Removed", self.removed),
        ):
            if names:
                lines.append(f"{label}: {', '.join(names)}.")
        if self.unchanged:
            count = len(self.unchanged)
            lines.append(f"{count} file{'s' if count != 1 else ''} unchanged.")
        return lines


def _manifest_hashes(directory: Path) -> tuple[dict[str, str] | None, str | None]:
    """The hashes and version recorded in ``directory``'s manifest; (None, None) without one."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        files = {str(name): str(digest) for name, digest in dict(manifest["files"]).items()}
        return files, str(manifest.get("kit_version"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, None


def plan_sdk_refresh(directory: Path) -> SdkRefresh:
    """What :func:`refresh_sdk` would change in the vendored SDK ``directory`` (read only)."""
    source = sdk_source()
    kit = {path.as_posix(): _digest(source / path) for path in sdk_files(source)}
    if directory.is_symlink() or (directory.exists() and not directory.is_dir()):
        raise SdkRefreshError(
            f"{directory} is {'a link' if directory.is_symlink() else 'a file'}, not a folder; "
            "a bot carries its own copy of the SDK. Remove it and run the refresh again to "
            "write a copy."
        )
    current = (
        {path.as_posix(): _digest(directory / path) for path in sdk_files(directory)}
        if directory.is_dir()
        else {}
    )
    recorded, version = _manifest_hashes(directory)
    updated, added, removed, unchanged, edited = [], [], [], [], []
    for name, digest in sorted(kit.items()):
        if name not in current:
            added.append(name)
        elif current[name] == digest:
            unchanged.append(name)
        else:
            updated.append(name)
    removed = sorted(set(current) - set(kit))
    for name in sorted(updated + removed):
        # At risk: what the refresh overwrites or removes, unless the kit wrote it as it is.
        if recorded is None or recorded.get(name) != current[name]:
            edited.append(name)
    return SdkRefresh(
        old_version=version,
        new_version=sdk.__version__,
        updated=tuple(updated),
        added=tuple(added),
        removed=tuple(removed),
        unchanged=tuple(unchanged),
        edited=tuple(edited),
    )


def edited_sentence(directory: Path, edited: tuple[str, ...], flag: str) -> str:
    """The refusal for files the author edited: which, and how to go ahead anyway."""
    listed = ", ".join(f"{directory.name}/{name}" for name in edited)
    return (
        f"{len(edited)} file(s) of the vendored SDK in {directory} differ from what the kit "
        f"wrote there (edited by you, or written without {MANIFEST}): {listed}. The refresh "
        f"would overwrite or remove them; keep a copy of your changes, then pass {flag}."
    )


def refresh_sdk(
    directory: Path, overwrite_edited: bool = False, flag: str = "--overwrite-edited"
) -> SdkRefresh:
    """Bring the vendored SDK ``directory`` to the installed kit's SDK; return what changed.

    Files the kit wrote and the author left alone are updated, added or removed; other
    files in the folder (notes, caches) are kept.  A file the author edited is only
    overwritten with ``overwrite_edited``: otherwise :class:`SdkRefreshError` (naming
    the files and ``flag``) is raised before anything is written.
    """
    plan = plan_sdk_refresh(directory)
    if plan.edited and not overwrite_edited:
        raise SdkRefreshError(edited_sentence(directory, plan.edited, flag))
    if not plan.changed and (directory / MANIFEST).is_file():
        return plan
    for name in plan.removed:
        (directory / name).unlink()
    vendor_sdk(directory)
    return plan
