"""``pokerbots package``: write a clean archive of a bot folder, ready to upload.

The archive holds the bot folder as its single top-level directory (the MIT
server says "zip the entire parent folder") and leaves out what a server does
not need: junk left by other tools (:data:`JUNK_NAMES`, virtual environments),
caches, logs and build output.  ``pokerbots validate`` flags the junk and
validates a folder without any of it, so a folder and its package are judged
alike.  Symbolic links are stored as the files they point to, because the MIT
server unpacks with Python's zipfile, which does not create links; a link to
the kit's own SDK (the repository's ``skeleton/sdk -> ../sdk``) becomes a
vendored copy with its manifest, as ``pokerbots new`` writes it.  Zip entries
carry Unix modes, so ``startme.sh`` stays executable.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sdk.errors import KitError

from .archive import archive_kind
from .vendor import sdk_source, vendor_sdk

__all__ = [
    "EXCLUDED_DIRS",
    "EXCLUDED_SUFFIXES",
    "JUNK_NAMES",
    "PackageError",
    "find_junk",
    "is_excluded",
    "is_junk",
    "is_kit_sdk_link",
    "package_bot",
]

#: Files and folders that other tools leave in a bot folder and no server wants: macOS and
#: Windows metadata, version control, the kit's match logs, virtual environments (any folder
#: holding ``pyvenv.cfg`` is one too, and macOS's ``._NAME`` files are junk as well).
#: ``pokerbots validate`` flags them.
JUNK_NAMES = frozenset(
    {"__MACOSX", ".DS_Store", "Thumbs.db", "desktop.ini", ".git", "runs", ".venv", "venv"}
)
#: Folders never packaged: the junk, caches and build output (the build step rebuilds it).
EXCLUDED_DIRS = (
    frozenset(
        {
            "__pycache__",
            ".mypy_cache",
            ".pytest_cache",
            ".ruff_cache",
            ".hypothesis",
            "build",
            "dist",
        }
    )
    | JUNK_NAMES
)
#: File and folder name endings never packaged.
EXCLUDED_SUFFIXES = (".log", ".pyc", ".pyo", ".egg-info")
_ZIP_EPOCH = time.mktime((1980, 1, 1, 0, 0, 0, 0, 0, -1))


class PackageError(KitError, ValueError):
    """The bot folder cannot be packaged; the message says why and how to fix it."""


@dataclass(frozen=True, slots=True)
class _Entry:
    source: Path
    name: str  # path inside the archive, with slashes
    is_dir: bool
    mode: int
    mtime: float


def is_junk(path: Path) -> bool:
    """Whether ``path`` is junk: a name of :data:`JUNK_NAMES` or a virtual environment."""
    if path.name in JUNK_NAMES or path.name.startswith("._"):
        return True
    return path.is_dir() and not path.is_symlink() and (path / "pyvenv.cfg").is_file()


def is_excluded(path: Path) -> bool:
    """Whether ``path`` (a file or folder of a bot) is left out of the package."""
    name = path.name
    if name.endswith(EXCLUDED_SUFFIXES) or is_junk(path):
        return True
    return name in EXCLUDED_DIRS and path.is_dir()


def is_kit_sdk_link(path: Path) -> bool:
    """Whether ``path`` is a symbolic link to the installed kit's ``sdk/`` (or into it)."""
    if not path.is_symlink():
        return False
    kit = str(sdk_source())
    real = os.path.realpath(path)
    return real == kit or real.startswith(kit + os.sep)


def find_junk(directory: Path) -> list[str]:
    """The junk below ``directory``, as relative paths (folders end in ``/``), sorted.

    Links are not followed, and nothing inside a junk or excluded folder is listed.
    """
    found = []
    for parent, dirnames, filenames in os.walk(directory):
        here = Path(parent)
        for name in sorted(dirnames + filenames):
            path = here / name
            if is_junk(path):
                shown = path.relative_to(directory).as_posix()
                found.append(shown + "/" if path.is_dir() and not path.is_symlink() else shown)
        dirnames[:] = [name for name in dirnames if not is_excluded(here / name)]
    return sorted(found)


def _entries(
    directory: Path, prefix: str, ancestors: frozenset[str], skip: str, scratch: Path
) -> Iterator[_Entry]:
    """Walk ``directory`` through links (refusing loops), skipping excluded entries.

    A link to the kit's whole SDK is replaced by a vendored copy written in ``scratch``.
    """
    for path in sorted(directory.iterdir()):
        if os.path.realpath(path) == skip or is_excluded(path):
            continue
        name = f"{prefix}/{path.name}"
        if is_kit_sdk_link(path) and os.path.realpath(path) == str(sdk_source()):
            vendored = scratch / "sdk"
            if not vendored.exists():
                vendor_sdk(vendored)
            yield _Entry(path, name, True, 0o755, path.lstat().st_mtime)
            yield from _entries(vendored, name, ancestors, skip, scratch)
            continue
        try:
            info = path.stat()
        except OSError:
            raise PackageError(
                f"{path} is a symbolic link to {os.readlink(path)!r}, which does not exist; "
                "remove the link or restore its target."
            ) from None
        if stat.S_ISDIR(info.st_mode):
            real = os.path.realpath(path)
            if real in ancestors:
                raise PackageError(
                    f"{path} leads back into {real} (a symbolic-link loop); remove the link."
                )
            yield _Entry(path, name, True, 0o755, info.st_mtime)
            yield from _entries(path, name, ancestors | {real}, skip, scratch)
        elif stat.S_ISREG(info.st_mode):
            yield _Entry(path, name, False, stat.S_IMODE(info.st_mode) & 0o777, info.st_mtime)
        else:
            raise PackageError(
                f"{path} is a device, FIFO or socket, which cannot be packaged; remove it."
            )


def _write_zip(target: Path, entries: list[_Entry]) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry in entries:
            stamp = time.localtime(max(entry.mtime, _ZIP_EPOCH))[:6]
            info = zipfile.ZipInfo(entry.name + ("/" if entry.is_dir else ""), stamp)
            info.create_system = 3  # Unix, so that external_attr carries the mode
            kind = stat.S_IFDIR if entry.is_dir else stat.S_IFREG
            info.external_attr = (kind | entry.mode) << 16 | (0x10 if entry.is_dir else 0)
            if entry.is_dir:
                archive.writestr(info, b"")
                continue
            info.compress_type = zipfile.ZIP_DEFLATED
            with (
                open(entry.source, "rb") as source,
                archive.open(info, "w", force_zip64=entry.source.stat().st_size > 2**31) as sink,
            ):
                shutil.copyfileobj(source, sink, 1 << 20)


def _write_tar(target: Path, entries: list[_Entry], compress: bool) -> None:
    with tarfile.open(target, "w:gz" if compress else "w") as archive:
        for entry in entries:
            info = tarfile.TarInfo(entry.name)
            info.mode, info.mtime = entry.mode, int(entry.mtime)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if entry.is_dir:
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
                continue
            info.size = entry.source.stat().st_size
            with open(entry.source, "rb") as source:
                archive.addfile(info, source)


def package_bot(bot_dir: Path, output: Path | None = None, profile: str | None = None) -> Path:
    """Write the archive of ``bot_dir`` to ``output`` and return its path.

    ``output`` defaults to ``<bot_dir name>.zip`` next to ``bot_dir``; its
    suffix chooses the format (.zip, .jar, .tar, .tar.gz or .tgz; only .zip
    for the ``"mit"`` profile, whose server takes zip uploads).  The file
    appears only once it is complete.  Raises :class:`PackageError` if the
    folder is not a bot, holds a broken link, a link loop or a special file.
    """
    bot_dir = Path(bot_dir)
    if not bot_dir.is_dir():
        raise PackageError(f"{bot_dir} is not a folder; pass the folder of your bot.")
    bot_dir = bot_dir.resolve()
    if not ((bot_dir / "commands.json").is_file() or (bot_dir / "startme.sh").is_file()):
        raise PackageError(
            f"{bot_dir} has neither commands.json nor startme.sh, so it is not a bot folder; "
            "pass the folder that holds them."
        )
    output = Path(output) if output is not None else bot_dir.parent / f"{bot_dir.name}.zip"
    kind = archive_kind(output)
    if kind is None:
        raise PackageError(
            f"{output} does not end in .zip, .jar, .tar, .tar.gz or .tgz; "
            "choose one of those suffixes."
        )
    if profile == "mit" and not output.name.lower().endswith(".zip"):
        raise PackageError(
            f"{output.name}: the MIT Pokerbots server takes .zip uploads only; write "
            f"-o {bot_dir.name}.zip, or choose --profile acpc for a tar or jar."
        )
    output = output.parent.resolve() / output.name
    with tempfile.TemporaryDirectory(prefix="pokerbots-package-") as scratch:
        entries = [_Entry(bot_dir, bot_dir.name, True, 0o755, bot_dir.stat().st_mtime)]
        entries += _entries(
            bot_dir, bot_dir.name, frozenset({str(bot_dir)}), str(output), Path(scratch)
        )
        _write(entries, output, kind)
    return output


def _write(entries: list[_Entry], output: Path, kind: str) -> None:
    """Write the archive next to ``output`` and move it into place once complete."""
    handle, temporary = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)
    os.close(handle)
    try:
        if kind == "zip":
            _write_zip(Path(temporary), entries)
        else:
            _write_tar(Path(temporary), entries, compress=not output.name.endswith(".tar"))
        os.chmod(temporary, 0o644)
        os.replace(temporary, output)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
