"""Regenerate ``skeleton/``: the bot template rendered with the default answers.

Usage::

    python scripts/regenerate_skeleton.py           # rewrite skeleton/ from templates/bot
    python scripts/regenerate_skeleton.py --check   # list the differences; exit 1 if any

``skeleton/`` is exactly what ``pokerbots new`` writes with ``DEFAULT_ANSWERS``, with one
exception: ``skeleton/sdk`` is a symlink to the kit's ``sdk/`` rather than a second copy of
it.  Edit the template, never the skeleton, and run this script; ``tests/test_template.py``
fails while the two differ.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from local_runner.submission.new import DEFAULT_ANSWERS, create_bot
from local_runner.submission.vendor import MANIFEST, check_vendored_sdk, sdk_files, sdk_source

ROOT = Path(__file__).resolve().parents[1]
SKELETON = ROOT / "skeleton"

#: What running, testing and type-checking a bot leaves behind (the template's .gitignore).
IGNORED_DIRECTORIES = frozenset(
    {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".venv", "runs"}
)
IGNORED_SUFFIXES = (".pyc", ".pyo", ".log")


def render_default(scratch: Path) -> Path:
    """Render the template with the default answers into ``scratch``; return the project."""
    return create_bot(scratch / "skeleton", DEFAULT_ANSWERS)


def project_files(root: Path) -> Iterator[Path]:
    """The files of a bot project below ``root``, relative, without ``sdk/`` and leftovers."""
    for directory, names, files in os.walk(root):
        here = Path(directory)
        names[:] = sorted(
            name
            for name in names
            if name not in IGNORED_DIRECTORIES and not (here == root and name == "sdk")
        )
        for name in sorted(files):
            if here == root and name == "sdk":
                continue  # the skeleton's sdk symlink, when os.walk does not follow it
            if not name.endswith(IGNORED_SUFFIXES):
                yield (here / name).relative_to(root)


def _executable(path: Path) -> bool:
    return bool(path.stat().st_mode & stat.S_IXUSR)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def differences(rendered: Path, skeleton: Path = SKELETON) -> list[str]:
    """How ``skeleton`` differs from the ``rendered`` template, one sentence each; [] if not.

    Every file but ``sdk/`` is compared byte for byte, with its executable bit.
    ``skeleton/sdk`` must be a symlink to the kit's ``sdk/``, and the rendering's vendored
    ``sdk/`` must hold the kit's SDK files unchanged, with their hashes in ``VENDORED.json``.
    """
    found: list[str] = []
    ours = set(project_files(rendered))
    theirs = set(project_files(skeleton))
    found += [f"skeleton/{name} is missing." for name in sorted(ours - theirs)]
    found += [f"skeleton/{name} is not in the template." for name in sorted(theirs - ours)]
    for name in sorted(ours & theirs):
        if (rendered / name).read_bytes() != (skeleton / name).read_bytes():
            found.append(f"skeleton/{name} differs from the template's rendering.")
        if _executable(rendered / name) != _executable(skeleton / name):
            found.append(f"skeleton/{name} differs from the template in its executable bit.")
    kit_sdk = sdk_source()
    link = skeleton / "sdk"
    if not link.is_symlink() or link.resolve() != kit_sdk:
        found.append(f"skeleton/sdk is not a symlink to the kit's SDK at {kit_sdk}.")
    vendored = rendered / "sdk"
    check = check_vendored_sdk(vendored)
    if not check.pristine:
        found.append(f"The rendering's sdk/ does not match its {MANIFEST}: {check}.")
    kit_files = {path.as_posix(): _digest(kit_sdk / path) for path in sdk_files(kit_sdk)}
    copied = {path.as_posix(): _digest(vendored / path) for path in sdk_files(vendored)}
    if kit_files != copied:
        changed = sorted(
            set(kit_files) ^ set(copied)
            | {name for name in set(kit_files) & set(copied) if kit_files[name] != copied[name]}
        )
        found.append(f"The rendering's sdk/ differs from the kit's sdk/ in: {', '.join(changed)}.")
    return found


def regenerate(rendered: Path, skeleton: Path = SKELETON) -> list[str]:
    """Make ``skeleton`` match ``rendered``; return what was changed, one line each."""
    changes: list[str] = []
    ours = set(project_files(rendered))
    skeleton.mkdir(exist_ok=True)
    for name in sorted(set(project_files(skeleton)) - ours):
        (skeleton / name).unlink()
        changes.append(f"removed skeleton/{name}")
    for name in sorted(ours):
        source, target = rendered / name, skeleton / name
        same = (
            target.is_file()
            and source.read_bytes() == target.read_bytes()
            and _executable(source) == _executable(target)
        )
        if not same:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
            changes.append(f"wrote skeleton/{name}")
    link = skeleton / "sdk"
    if not link.is_symlink() or link.resolve() != sdk_source():
        if link.is_symlink() or link.is_file():
            link.unlink()
        elif link.is_dir():
            shutil.rmtree(link)
        link.symlink_to(Path("..") / "sdk")
        changes.append("linked skeleton/sdk to ../sdk")
    return changes


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate (or with ``--check``, compare) the skeleton; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="only list the differences; exit 1 if any"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pokerbots-skeleton-") as scratch:
        rendered = render_default(Path(scratch))
        if args.check:
            found = differences(rendered)
            for line in found:
                print(line)
            if not found:
                print("skeleton/ matches the template.")
            return 1 if found else 0
        changes = regenerate(rendered)
    for line in changes:
        print(line)
    print("skeleton/ is up to date." if not changes else f"{len(changes)} change(s) made.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
