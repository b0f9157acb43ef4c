"""Put a submission into a private directory, refusing it first if it is unsafe.

An archive is inspected by :mod:`local_runner.submission.archive` and extracted only if
nothing is wrong with it; a directory is inspected the same way and copied,
without what ``pokerbots package`` leaves out (junk, caches, logs, build
output such as a CMake ``build/`` made for another path), so a folder is
judged like its package.  A link to the kit's own SDK (the repository's
``skeleton/sdk -> ../sdk``) is accepted in a folder and copied as a vendored
SDK, as ``pokerbots package`` stores it.  Every later check, and the smoke
match, works on that private copy, so validation never writes next to the
author's files.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from ..submission.archive import (
    ArchiveLimits,
    ArchiveReport,
    Problem,
    UnsafeArchiveError,
    archive_kind,
    extract_archive,
    inspect_archive,
    inspect_directory,
)
from ..submission.package import find_junk, is_excluded, is_kit_sdk_link
from ..submission.vendor import sdk_source, vendor_sdk
from .checks import CheckResult, format_bytes

__all__ = ["StagedPackage", "safety_checks", "size_check", "stage"]

_LEAVES_OUT = (
    "`pokerbots package` leaves out caches, virtual environments, .git, logs and build output."
)
#: What ``pokerbots package`` would do about a folder's problem.
_PACKAGE_HINTS = {
    "link_escape": "`pokerbots package` stores links as the files they point to (only a link "
    "to the kit's own sdk/ is accepted in a folder).",
    "too_many_files": _LEAVES_OUT,
    "too_large_uncompressed": _LEAVES_OUT,
}


@dataclass(frozen=True, slots=True)
class StagedPackage:
    """A submission after inspection: the report, the private copy (None if refused), and
    the junk found (relative paths; in a folder, left out of the copy)."""

    report: ArchiveReport
    top: Path | None
    checks: tuple[CheckResult, ...]
    junk: tuple[str, ...] = ()


def safety_checks(report: ArchiveReport) -> list[CheckResult]:
    """One failed check per kind of problem (named like the problem), or ``safety`` passing."""
    by_kind: dict[str, list[Problem]] = {}
    for problem in report.problems:
        by_kind.setdefault(problem.check, []).append(problem)
    if not by_kind:
        return [
            CheckResult.passed(
                "safety",
                "No absolute paths, '..' components, escaping links or special files, "
                "and within the size and file limits.",
            )
        ]
    checks = []
    for kind, problems in by_kind.items():
        more = f" (and {len(problems) - 1} more like it)" if len(problems) > 1 else ""
        hint = problems[0].hint
        if report.kind == "directory" and kind in _PACKAGE_HINTS:
            hint += " " + _PACKAGE_HINTS[kind]
        checks.append(CheckResult.failed(kind, problems[0].message + more, hint))
    return checks


def size_check(report: ArchiveReport) -> CheckResult:
    """The package's sizes, for the report (the limits themselves are safety checks)."""
    sizes = f"{format_bytes(report.uncompressed_bytes)} uncompressed, {report.file_count} files"
    if report.kind == "directory":
        return CheckResult.passed(
            "sizes", f"{sizes} and folders (`pokerbots package` shows the compressed size)."
        )
    return CheckResult.passed(
        "sizes", f"{format_bytes(report.compressed_bytes)} compressed, {sizes} and folders."
    )


def stage(path: Path, work: Path, limits: ArchiveLimits) -> StagedPackage:
    """Inspect ``path`` (a directory or an archive) and copy it into ``work/package``.

    ``work`` must be a private, existing directory.  Raises ValueError if
    ``path`` is neither a directory nor a supported archive.
    """
    top = work / "package"
    top.mkdir()
    junk: list[str] = []
    if path.is_dir():
        report = inspect_directory(path, limits, exclude=is_excluded, linked_roots=(sdk_source(),))
        junk = find_junk(path)
        if report.ok:
            try:
                _copy_directory(path, top / path.resolve().name)
            except (OSError, shutil.Error) as error:
                return _refused(
                    report,
                    CheckResult.failed(
                        "readable",
                        f"The folder could not be copied: {_first_error(error)}.",
                        "Make every file of the bot readable (chmod -R u+r) and try again.",
                    ),
                )
    elif archive_kind(path) is None:
        raise ValueError(
            f"{path} is neither a directory nor a .zip, .jar, .tar, .tar.gz or "
            ".tgz archive; pass the bot folder or its archive."
        )
    else:
        report = inspect_archive(path, limits)
        if report.ok:
            try:
                extract_archive(path, top, limits)
            except UnsafeArchiveError as error:
                report = error.report
            else:
                junk = find_junk(top)
    checks = (*safety_checks(report), size_check(report))
    return StagedPackage(report, top if report.ok else None, checks, tuple(junk))


def _refused(report: ArchiveReport, check: CheckResult) -> StagedPackage:
    return StagedPackage(report, None, (check, size_check(report)))


def _first_error(error: OSError | shutil.Error) -> str:
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list):
        source, _target, reason = error.args[0][0]
        return f"{source}: {reason}"
    return str(error)


def _copy_directory(source: Path, target: Path) -> None:
    """Copy a bot folder as its package would hold it, keeping its inside-pointing links.

    Excluded entries (junk, caches, logs, build output) are left out.  A link to
    the kit's SDK becomes a vendored copy (a link into it, a copy of its target).
    An absolute link inside the folder would point back into the author's
    folder, so the smoke match could write there; it is made relative, into the
    copy.
    """
    _copy_into(source, target, os.path.realpath(source), target)


def _copy_into(source: Path, target: Path, real_root: str, target_root: Path) -> None:
    target.mkdir()
    for entry in sorted(os.scandir(source), key=lambda item: item.name):
        path, destination = Path(entry.path), target / entry.name
        if is_excluded(path):
            continue
        if is_kit_sdk_link(path):
            real = os.path.realpath(path)
            if real == str(sdk_source()):
                vendor_sdk(destination)
            elif os.path.isdir(real):
                shutil.copytree(real, destination)
            else:
                shutil.copy2(real, destination)
        elif entry.is_symlink():
            link = os.readlink(path)
            if os.path.isabs(link):
                inside = os.path.relpath(os.path.realpath(link), real_root)
                link = os.path.relpath(target_root / inside, target)
            os.symlink(link, destination)
        elif entry.is_dir(follow_symlinks=False):
            _copy_into(path, destination, real_root, target_root)
        else:
            shutil.copy2(path, destination, follow_symlinks=False)
    shutil.copystat(source, target)
