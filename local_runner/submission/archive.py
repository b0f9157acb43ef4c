"""Inspect and extract bot submission archives safely.

``pokerbots validate PATH`` checks a submission the way a competition server
would.  A submission is a directory or an archive (``.zip``, ``.jar``, ``.tar``,
``.tar.gz``, ``.tgz``).  :func:`inspect_archive` reads the archive's headers and
reports every reason it would be refused, writing nothing; :func:`extract_archive`
unpacks an accepted archive into an empty directory, counting the bytes it
writes, and empties that directory again if anything goes wrong.

Links: a tar hard link is extracted as a copy of the in-archive file it names.
Symbolic links (tar symlinks, and entries of zips made on Unix whose mode marks
a symlink, whose content is the target) are created as symbolic links, after
every other member, and only if they resolve inside the destination.  A member stored
beneath a symbolic link is refused, so nothing is ever written through a link.

A file with the setuid or setgid bit, and a name holding a control character
(a newline, a tab, an escape), are refused too: neither belongs in a bot, and a
newline in a name breaks every line-based listing of the files.
"""

from __future__ import annotations

import lzma
import os
import re
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TypeAlias

from sdk.errors import KitError

__all__ = [
    "RATIO_MIN_BYTES",
    "ArchiveLimits",
    "ArchiveReport",
    "Problem",
    "UnsafeArchiveError",
    "archive_kind",
    "extract_archive",
    "inspect_archive",
    "inspect_directory",
]

#: Members (and archives) expanding to at most this many bytes are never
#: refused for compressing too well: small files compress well legitimately.
RATIO_MIN_BYTES = 2**20

_CHUNK = 1 << 16
_MAX_LINK = 4096
_DRIVE = re.compile(r"^[A-Za-z]:")
_SUFFIXES = {".tar.gz": "tar", ".tgz": "tar", ".tar": "tar", ".zip": "zip", ".jar": "zip"}
_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
#: What reading a broken archive can raise (gzip and bz2 raise OSError).
_READ_ERRORS = (
    zipfile.BadZipFile,
    tarfile.TarError,
    EOFError,
    OSError,
    zlib.error,
    lzma.LZMAError,
    NotImplementedError,
    RuntimeError,
)
_SLIM = "Remove files the bot does not need at run time (logs, data, caches) and archive again."
_HINTS = {
    "archive_format": "Re-create the archive with a standard zip or tar tool and try again.",
    "absolute_path": "Archive the bot folder from inside it, so that member paths are relative.",
    "parent_path": "Archive the bot folder from inside it, so that no path contains '..'.",
    "link_escape": "Replace the link with a copy of the file, or make it point inside the bot.",
    "special_file": "Remove device files, FIFOs and sockets from the bot folder.",
    "too_many_files": "Delete caches, build output and unused dependencies to use fewer files.",
    "too_large_compressed": _SLIM,
    "too_large_uncompressed": _SLIM,
    "compression_ratio": "Remove the highly compressible file (padding, sparse or generated data).",
    "duplicate_member": "Re-create the archive so that every path is stored only once.",
    "unsafe_name": "Rename the file so that its name has no line break, tab or other control "
    "character.",
    "setuid_file": "Remove the setuid/setgid bit (`chmod ug-s FILE`) and archive again; a bot "
    "never needs it.",
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SETID = stat.S_ISUID | stat.S_ISGID


@dataclass(frozen=True)
class ArchiveLimits:
    """Limits a submission must respect (defaults follow the MIT scrimmage server).

    ``max_ratio`` bounds uncompressed/compressed size, per zip member and overall.
    """

    max_compressed: int = 100 * 10**6
    max_uncompressed: int = 2**30
    max_files: int = 10_000
    max_ratio: float = 200.0


@dataclass(frozen=True)
class Problem:
    """One reason a submission is refused: which check, which member, what, how to fix."""

    check: str
    member: str | None
    message: str
    hint: str


@dataclass(frozen=True)
class ArchiveReport:
    """What inspecting a submission found; ``file_count`` counts files, directories and links."""

    kind: str
    compressed_bytes: int
    uncompressed_bytes: int
    file_count: int
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        """True if no problem was found."""
        return not self.problems


class UnsafeArchiveError(KitError):
    """Raised by :func:`extract_archive` when it refuses an archive; ``report`` says why."""

    def __init__(self, report: ArchiveReport) -> None:
        super().__init__(report)
        self.report = report

    def __str__(self) -> str:
        problems = "".join(f"\n- {p.message} {p.hint}" for p in self.report.problems)
        return f"The {self.report.kind} archive was refused:{problems}"


_Archive: TypeAlias = "zipfile.ZipFile | tarfile.TarFile"


@dataclass
class _Member:
    name: str  # as stored in the archive
    kind: str  # "file" | "dir" | "symlink" | "hardlink" | "special"
    size: int  # bytes extraction writes (a hard link: its target's size)
    mode: int
    target: str  # link target, backslashes turned into slashes
    source: zipfile.ZipInfo | tarfile.TarInfo  # where the bytes are read from
    parts: tuple[str, ...] = ()  # the safe, normalised path


def _problem(check: str, member: str | None, message: str, hint: str = "") -> Problem:
    return Problem(check, member, message, hint or _HINTS[check])


def archive_kind(path: Path) -> str | None:
    """Return ``"zip"`` (.zip, .jar) or ``"tar"`` (.tar, .tar.gz, .tgz) by suffix, else None."""
    name = path.name.lower()
    return next((kind for suffix, kind in _SUFFIXES.items() if name.endswith(suffix)), None)


def _name_problem(name: str, what: str) -> Problem | None:
    """A problem if ``name`` holds a control character such as a newline."""
    found = _CONTROL.search(name)
    if found is None:
        return None
    return _problem(
        "unsafe_name",
        name,
        (
            f"The {what} {name!r} has the control character U+{ord(found.group()):04X} "
            "(a line break, tab or similar) in its name."
        ),
    )


def _setid_problem(name: str, mode: int, what: str) -> Problem | None:
    """A problem if a regular file's ``mode`` carries the setuid or setgid bit."""
    if not mode & _SETID:
        return None
    bits = " and ".join(
        b for b, m in (("setuid", stat.S_ISUID), ("setgid", stat.S_ISGID)) if mode & m
    )
    plural = "s" if " and " in bits else ""
    return _problem(
        "setuid_file",
        name,
        (f"The {what} {name!r} has the {bits} bit{plural} (mode {stat.S_IMODE(mode):04o})."),
    )


def _split_name(name: str) -> tuple[tuple[str, ...], Problem | None]:
    """Split a member name into safe path components, or say why it is unsafe."""
    if (problem := _name_problem(name, "member")) is not None:
        return (), problem
    norm = name.replace("\\", "/")
    if norm.startswith("/") or _DRIVE.match(norm):
        return (), _problem("absolute_path", name, f"The member {name!r} has an absolute path.")
    parts = tuple(p for p in norm.split("/") if p not in ("", "."))
    if ".." in parts:
        return (), _problem("parent_path", name, f"The member {name!r} climbs out with '..'.")
    return parts, None


def _resolve(base: tuple[str, ...], target: str) -> tuple[str, ...] | None:
    """Resolve a link target relative to ``base``; None if it leaves the root."""
    if not target or target.startswith("/") or _DRIVE.match(target) or len(target) > _MAX_LINK:
        return None
    parts = list(base)
    for part in target.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return tuple(parts)


def _zip_members(
    zf: zipfile.ZipFile, limits: ArchiveLimits, problems: list[Problem]
) -> Iterator[_Member]:
    for info in zf.infolist():
        mode = info.external_attr >> 16 if info.create_system == 3 else 0  # 3: made on Unix
        name, target = info.filename, b""
        kind = (
            "dir"
            if name.replace("\\", "/").endswith("/") or stat.S_ISDIR(mode)
            else "symlink"
            if stat.S_ISLNK(mode)
            else "special"
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode)
            else "file"
        )
        if info.flag_bits & 0x1:
            problems.append(
                _problem(
                    "archive_format",
                    name,
                    f"The member {name!r} is encrypted.",
                    "Create the archive without a password.",
                )
            )
        elif kind == "symlink":
            with zf.open(info) as handle:
                target = handle.read(_MAX_LINK + 1)
        size = info.file_size if kind == "file" else 0
        ratio = size / max(info.compress_size, 1)
        if size > RATIO_MIN_BYTES and ratio > limits.max_ratio:
            problems.append(
                _problem(
                    "compression_ratio",
                    name,
                    (
                        f"The member {name!r} expands {ratio:.0f}-fold to {size:,} bytes, "
                        "more than "
                        f"{limits.max_ratio:g}-fold, like a zip bomb."
                    ),
                )
            )
        link = target.decode("utf-8", "surrogateescape").replace("\\", "/")
        yield _Member(name, kind, size, mode, link, info)


def _tar_members(tf: tarfile.TarFile) -> Iterator[_Member]:
    for info in tf:
        kind = (
            "file"
            if info.isreg()
            else "dir"
            if info.isdir()
            else "symlink"
            if info.issym()
            else "hardlink"
            if info.islnk()
            else "special"
        )
        size = info.size if kind == "file" else 0
        yield _Member(info.name, kind, size, info.mode, info.linkname.replace("\\", "/"), info)


def _limit_problems(what: str, count: int, total: int, limits: ArchiveLimits) -> list[Problem]:
    problems = []
    if count > limits.max_files:
        problems.append(
            _problem(
                "too_many_files",
                None,
                (f"The {what} holds more than {limits.max_files:,} files, directories and links."),
            )
        )
    if total > limits.max_uncompressed:
        problems.append(
            _problem(
                "too_large_uncompressed",
                None,
                (f"The {what} holds more than {limits.max_uncompressed:,} bytes of files."),
            )
        )
    return problems


def _check_links(
    members: list[_Member],
    seen: dict[tuple[str, ...], _Member],
    complete: bool,
    problems: list[Problem],
) -> None:
    """Check link targets and paths beneath links or files; size hard links as copies."""
    for m in members:
        if m.kind in ("symlink", "hardlink") and m.parts:
            resolved = _resolve(m.parts[:-1] if m.kind == "symlink" else (), m.target)
            target = seen.get(resolved) if resolved is not None else None
            if resolved is None:
                problems.append(
                    _problem(
                        "link_escape",
                        m.name,
                        (f"The {m.kind} {m.name!r} points outside the bot, to {m.target[:200]!r}."),
                    )
                )
            elif m.kind == "hardlink" and target is not None and target.kind == "file":
                m.size, m.source = target.size, target.source
            elif m.kind == "hardlink" and complete:
                problems.append(
                    _problem(
                        "archive_format",
                        m.name,
                        (
                            f"The hardlink {m.name!r} points to {m.target!r}, not to a file in the "
                            "archive."
                        ),
                    )
                )
        for depth in range(1, len(m.parts)):
            other = seen.get(m.parts[:depth])
            if other is not None and other.kind == "symlink":
                problems.append(
                    _problem(
                        "link_escape",
                        m.name,
                        (f"The member {m.name!r} is stored beneath the symlink {other.name!r}."),
                    )
                )
                break
            if other is not None and other.kind != "dir":
                problems.append(
                    _problem(
                        "duplicate_member",
                        m.name,
                        (
                            f"The member {m.name!r} needs {other.name!r} to be a directory, but it "
                            "is also stored as a file."
                        ),
                    )
                )
                break


def _scan(
    archive: _Archive, kind: str, compressed: int, limits: ArchiveLimits
) -> tuple[ArchiveReport, list[_Member]]:
    """Read every header, stopping early once the file count or size limit is exceeded."""
    problems: list[Problem] = []
    members: list[_Member] = []
    seen: dict[tuple[str, ...], _Member] = {}
    entries = (
        _zip_members(archive, limits, problems)
        if isinstance(archive, zipfile.ZipFile)
        else _tar_members(archive)
    )
    total, complete = 0, False
    try:
        for m in entries:
            members.append(m)
            total += m.size
            if len(members) > limits.max_files or total > limits.max_uncompressed:
                break
            m.parts, problem = _split_name(m.name)
            if problem is not None:
                problems.append(problem)
                continue
            if not m.parts and m.kind != "dir":
                problems.append(_problem("archive_format", m.name, "A member has no name."))
            if m.kind == "special":
                problems.append(
                    _problem(
                        "special_file",
                        m.name,
                        (f"The member {m.name!r} is a device, FIFO or other special file."),
                    )
                )
            if (
                m.kind in ("file", "hardlink")
                and (setid := _setid_problem(m.name, m.mode, "member")) is not None
            ):
                problems.append(setid)
            if m.parts in seen and not seen[m.parts].kind == m.kind == "dir":
                problems.append(
                    _problem(
                        "duplicate_member",
                        m.name,
                        (f"The member {m.name!r} is stored more than once."),
                    )
                )
            seen[m.parts] = m
        else:
            complete = True
    except _READ_ERRORS as exc:
        problems.append(_problem("archive_format", None, f"The archive is damaged ({exc})."))
    _check_links(members, seen, complete, problems)
    total = sum(m.size for m in members)
    problems += _limit_problems("archive", len(members), total, limits)
    ratio = total / max(compressed, 1)
    if (
        total > RATIO_MIN_BYTES
        and ratio > limits.max_ratio
        and all(p.check != "compression_ratio" for p in problems)
    ):
        problems.append(
            _problem(
                "compression_ratio",
                None,
                (
                    f"The archive expands {ratio:.0f}-fold to {total:,} bytes, more than "
                    f"{limits.max_ratio:g}-fold, like a decompression bomb."
                ),
            )
        )
    return ArchiveReport(kind, compressed, total, len(members), tuple(problems)), members


@contextmanager
def _scanned(
    path: Path, limits: ArchiveLimits
) -> Iterator[tuple[ArchiveReport, list[_Member], _Archive | None]]:
    """Open and scan an archive; yield the report, the members and the open archive."""
    kind = archive_kind(path)
    if kind is None:
        raise ValueError(
            f"{path} is not a supported archive. Pass a directory or a .zip, .jar, "
            ".tar, .tar.gz or .tgz file."
        )
    size = path.stat().st_size
    if size > limits.max_compressed:
        message = f"The archive is {size:,} bytes, more than {limits.max_compressed:,} bytes."
        yield _refused(kind, size, "too_large_compressed", message), [], None
        return
    try:
        opened = zipfile.ZipFile(path) if kind == "zip" else tarfile.open(path, "r:*")  # noqa: SIM115
    except _READ_ERRORS as exc:
        message = f"The file {path.name!r} is not a valid {kind} archive ({exc})."
        yield _refused(kind, size, "archive_format", message), [], None
        return
    with opened as archive:  # extraction reads the very archive that was inspected
        report, members = _scan(archive, kind, size, limits)
        yield report, members, archive


def _refused(kind: str, size: int, check: str, message: str) -> ArchiveReport:
    return ArchiveReport(kind, size, 0, 0, (_problem(check, None, message),))


def inspect_archive(path: Path, limits: ArchiveLimits = ArchiveLimits()) -> ArchiveReport:
    """Check an archive's headers against ``limits`` and the rules, writing nothing.

    Raises ValueError if the suffix is not a supported archive kind, and OSError
    if the file cannot be found; every other defect is a problem in the report.
    """
    with _scanned(path, limits) as (report, _members, _archive):
        return report


def _copy_limited(source: IO[bytes], target: IO[bytes], limit: int) -> int:
    """Copy at most ``limit`` bytes; return the count, or ``limit + 1`` if there was more."""
    copied = 0
    while chunk := source.read(min(_CHUNK, limit - copied + 1)):
        if copied + len(chunk) > limit:
            return limit + 1
        target.write(chunk)
        copied += len(chunk)
    return copied


def _opener(path: str, flags: int) -> int:
    """Open a new file for ``open()``, refusing to follow a link planted at ``path``."""
    return os.open(path, flags | _NOFOLLOW, 0o600)


def _open_member(archive: _Archive, member: _Member) -> IO[bytes]:
    source = member.source
    if isinstance(archive, zipfile.ZipFile) and isinstance(source, zipfile.ZipInfo):
        return archive.open(source)
    if isinstance(archive, tarfile.TarFile) and isinstance(source, tarfile.TarInfo):
        handle = archive.extractfile(source)
        if handle is not None:
            return handle
    raise tarfile.ExtractError(f"The member {member.name!r} has no data to extract.")


def _make_dirs(root: Path, parts: tuple[str, ...]) -> Path:
    """Create ``root/parts`` one level at a time (mode 0o755), never through a link."""
    current = root
    for part in parts:
        current = current / part
        try:
            current.mkdir()
        except FileExistsError:
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                raise NotADirectoryError(f"{current} exists and is not a directory.") from None
        else:
            os.chmod(current, 0o755)
    return current


def _extract(
    archive: _Archive,
    members: list[_Member],
    root: Path,
    limits: ArchiveLimits,
    report: ArchiveReport,
) -> None:
    def refuse(check: str, member: str, message: str) -> UnsafeArchiveError:
        return UnsafeArchiveError(replace(report, problems=(_problem(check, member, message),)))

    written = 0
    for m in members:
        if m.kind == "dir":
            _make_dirs(root, m.parts)
        elif m.kind in ("file", "hardlink"):
            path = _make_dirs(root, m.parts[:-1]) / m.parts[-1]
            limit = min(m.size, limits.max_uncompressed - written)
            with _open_member(archive, m) as src, open(path, "xb", opener=_opener) as dst:
                count = _copy_limited(src, dst, limit)
            if count > limit:  # headers can lie: never write more than they declared
                raise refuse(
                    "too_large_uncompressed",
                    m.name,
                    f"The member {m.name!r} holds more than its {m.size:,} bytes.",
                )
            if count < m.size:
                raise refuse("archive_format", m.name, f"The member {m.name!r} is truncated.")
            written += count
            os.chmod(path, 0o644 | (m.mode & 0o111))  # keep exec bits, never setuid/sticky
    links = [m for m in members if m.kind == "symlink"]
    for m in links:
        os.symlink(m.target, _make_dirs(root, m.parts[:-1]) / m.parts[-1])
    real_root = os.path.realpath(root)
    for m in links:  # a chain of links can escape although each one looked fine
        real = os.path.realpath(root.joinpath(*m.parts))
        if os.path.commonpath([real_root, real]) != real_root:
            raise refuse(
                "link_escape",
                m.name,
                f"The symlink {m.name!r} leads outside the bot through other links.",
            )


def _clear(directory: Path) -> None:
    with os.scandir(directory) as entries:
        for entry in list(entries):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


def extract_archive(
    path: Path, destination: Path, limits: ArchiveLimits = ArchiveLimits()
) -> ArchiveReport:
    """Inspect ``path``, then extract it into ``destination``, an existing empty directory.

    Raises UnsafeArchiveError without writing anything if inspection finds a
    problem, and after deleting what it wrote if extraction meets one (more
    data than declared, a corrupt stream, a link escaping through other links).
    Regular files keep their executable bits (never setuid, setgid or sticky);
    directories are 0o755.
    """
    with os.scandir(destination) as entries:
        if next(entries, None) is not None:
            raise ValueError(
                f"The destination {destination} is not empty. Extract into a new "
                "empty directory, e.g. one made by tempfile.mkdtemp()."
            )
    with _scanned(path, limits) as (report, members, archive):
        if not report.ok or archive is None:
            raise UnsafeArchiveError(report)
        try:
            _extract(archive, members, destination, limits, report)
        except BaseException as exc:
            _clear(destination)
            if isinstance(exc, _READ_ERRORS):
                raise UnsafeArchiveError(
                    replace(
                        report,
                        problems=(
                            _problem(
                                "archive_format",
                                None,
                                f"The archive could not be extracted ({exc}).",
                                "Check that the archive is intact "
                                "and that the disk has free space.",
                            ),
                        ),
                    )
                ) from exc
            raise
    return report


def inspect_directory(
    path: Path,
    limits: ArchiveLimits = ArchiveLimits(),
    exclude: Callable[[Path], bool] | None = None,
    linked_roots: tuple[Path, ...] = (),
) -> ArchiveReport:
    """Check a submission directory, walking it without following symbolic links.

    Links resolving outside the directory and special files are problems, as are
    setuid/setgid files, names with control characters, more than ``max_files``
    entries (the walk stops there) or more than ``max_uncompressed`` bytes of
    regular files.  Entries for which ``exclude`` is true are skipped (not
    counted, not checked): what ``pokerbots package`` leaves out.  A link
    resolving inside one of ``linked_roots`` is accepted and walked as if its
    target stood in its place (the copy made for validation holds the target's
    files).  Raises OSError if ``path`` is not a readable directory.
    """
    root = os.path.realpath(path)
    allowed = tuple(os.path.realpath(linked) for linked in linked_roots)
    problems: list[Problem] = []
    count = total = 0
    pending = [(root, "")]  # (directory to scan, its name as the author sees it)
    while pending and count <= limits.max_files:
        directory, shown = pending.pop()
        with os.scandir(directory) as entries:
            for entry in entries:
                name = f"{shown}{entry.name}"
                if exclude is not None and exclude(Path(entry.path)):
                    continue
                count += 1
                info = entry.stat(follow_symlinks=False)
                if count > limits.max_files:
                    break
                if (problem := _name_problem(name, "entry")) is not None:
                    problems.append(problem)
                if stat.S_ISDIR(info.st_mode):
                    pending.append((entry.path, f"{name}/"))
                elif stat.S_ISREG(info.st_mode):
                    total += info.st_size
                    if (setid := _setid_problem(name, info.st_mode, "file")) is not None:
                        problems.append(setid)
                elif not stat.S_ISLNK(info.st_mode):
                    problems.append(
                        _problem(
                            "special_file",
                            name,
                            (
                                f"The entry {name!r} is a device, FIFO, socket "
                                "or other special file."
                            ),
                        )
                    )
                elif _inside(root, real := os.path.realpath(entry.path)):
                    continue
                elif any(_inside(linked, real) for linked in allowed):
                    if os.path.isdir(real):
                        pending.append((real, f"{name}/"))
                    elif os.path.isfile(real):
                        total += os.path.getsize(real)
                else:
                    problems.append(
                        _problem(
                            "link_escape",
                            name,
                            (
                                f"The symlink {name!r} points outside the bot: "
                                f"{os.readlink(entry)!r}."
                            ),
                        )
                    )
    problems += _limit_problems("directory", count, total, limits)
    return ArchiveReport("directory", total, total, count, tuple(problems))


def _inside(root: str, real: str) -> bool:
    """Whether the resolved path ``real`` is ``root`` or lies below it."""
    return os.path.commonpath([root, real]) == root
