"""The result of one named check, and the static checks of a bot's files.

Every check is a small function returning a :class:`CheckResult`: a name, a
status, a one-line message and, for anything that did not pass, a hint saying
how to fix it (Gymnasium's environment checker is the model).  The static
checks read the private copy of the package and run nothing from it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from sdk.games import VARIANTS

from ..programs.bot_program import BotDirectoryError, BotProgram
from ..submission.metadata import Metadata
from ..submission.vendor import check_vendored_sdk as compare_vendored_sdk
from ..tables.spec import read_bot_program

__all__ = [
    "BotFiles",
    "CheckResult",
    "Status",
    "check_bot_root",
    "check_commands_json",
    "check_large_files",
    "check_machine_paths",
    "check_python_sources",
    "check_startme_executable",
    "check_startme_line_endings",
    "check_startme_shebang",
    "check_variant",
    "check_vendored_sdk",
    "find_bot_roots",
    "format_bytes",
]

_EXAMPLE = '{"build": [], "run": ["python3", "player.py"]}'
#: Paths that exist only on the author's machine: home folders and Windows drives.
_MACHINE_PATH = re.compile(
    r"(?<![\w.~$])(?:/home/[^/\s\"']+|/Users/[^/\s\"']+|/root/|/mnt/[a-z]/|[A-Za-z]:[\\/])"
)
_MAX_SCRIPT = 1 << 20  # bytes of a start script or commands.json searched for paths
_IMPORTS_SDK = re.compile(rb"^\s*(?:from|import)\s+sdk\b", re.MULTILINE)
_SKIPPED_DIRS = {"__pycache__", ".git"}
#: Programs whose first argument (not an option) is a script that must be in the bot folder.
_INTERPRETER = re.compile(r"^(?:python[\d.]*|bash|sh|dash|zsh|node|ruby|perl|Rscript)$")
#: Interpreter options whose value is the next argument (``python3 -X dev player.py``,
#: ``bash -o pipefail run.sh``).
_OPTION_VALUES = frozenset({"-X", "-W", "--check-hash-based-pycs", "-o", "--rcfile"})


class Status(StrEnum):
    """How a check came out: ``fail`` makes the package invalid, ``warn`` only with --strict."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check's outcome: its name, status, a one-line message, and a hint when not passing."""

    name: str
    status: Status
    message: str
    hint: str = ""

    @classmethod
    def passed(cls, name: str, message: str) -> CheckResult:
        """A passing check."""
        return cls(name, Status.PASS, message)

    @classmethod
    def warned(cls, name: str, message: str, hint: str) -> CheckResult:
        """A warning: the package works here but may not on the server."""
        return cls(name, Status.WARN, message, hint)

    @classmethod
    def failed(cls, name: str, message: str, hint: str) -> CheckResult:
        """A failure: the package would be refused or would not play."""
        return cls(name, Status.FAIL, message, hint)

    @classmethod
    def skipped(cls, name: str, reason: str, hint: str = "") -> CheckResult:
        """A check that did not apply or could not run, with the reason."""
        return cls(name, Status.SKIP, reason, hint)

    def to_dict(self) -> dict[str, str]:
        """The JSON form: name, status, message and hint."""
        return {
            "name": self.name,
            "status": self.status.value,
            "message": self.message,
            "hint": self.hint,
        }


def format_bytes(count: int, binary: bool = False) -> str:
    """A byte count for people: ``'532 B'``, ``'1.2 MB'``, or with ``binary`` ``'4 GiB'``."""
    base, units = (1024, ("KiB", "MiB", "GiB")) if binary else (1000, ("kB", "MB", "GB"))
    if count < base:
        return f"{count} B"
    value = count / base
    for unit in units:
        if value < base or unit == units[-1]:
            return f"{value:.1f}".removesuffix(".0") + f" {unit}"
        value /= base
    raise AssertionError("unreachable")


@dataclass(frozen=True, slots=True)
class BotFiles:
    """Where a bot lies in the private copy: ``top`` is the package, ``root`` the bot folder."""

    top: Path
    root: Path

    def show(self, path: Path) -> str:
        """``path`` as the author knows it: relative to the package, with slashes."""
        return path.relative_to(self.top).as_posix() if path != self.top else "."

    @property
    def startme(self) -> Path | None:
        """The bot's ``startme.sh``, if it has one."""
        path = self.root / "startme.sh"
        return path if path.is_file() else None

    def python_files(self, include_sdk: bool = True) -> Iterator[Path]:
        """The ``.py`` files of the bot, in a stable order, skipping caches and virtualenvs."""
        for directory, dirnames, filenames in os.walk(self.root):
            here = Path(directory)
            dirnames[:] = sorted(
                name
                for name in dirnames
                if name not in _SKIPPED_DIRS
                and not (here / name / "pyvenv.cfg").exists()
                and (include_sdk or here != self.root or name != "sdk")
            )
            for name in sorted(filenames):
                if name.endswith(".py") and (here / name).is_file():
                    yield here / name


def find_bot_roots(top: Path) -> list[Path]:
    """Folders holding ``commands.json`` or ``startme.sh``, in ``os.walk`` top-down order."""
    roots = []
    for directory, dirnames, filenames in os.walk(top):
        dirnames.sort()
        if "commands.json" in filenames or "startme.sh" in filenames:
            roots.append(Path(directory))
    return roots


def check_bot_root(top: Path) -> tuple[CheckResult, Path | None]:
    """Exactly one bot folder; returns the one the MIT server would take, even on failure.

    The MIT scrimmage server runs the first folder in ``os.walk`` top-down order
    that holds ``commands.json``, so a second candidate is a trap.
    """
    roots = find_bot_roots(top)
    files = BotFiles(top, top)
    if not roots:
        return CheckResult.failed(
            "bot_root",
            "No folder of the package holds a commands.json or a startme.sh.",
            f"Add a commands.json such as {_EXAMPLE} (or an executable startme.sh) to the bot "
            "folder.",
        ), None
    chosen = next((root for root in roots if (root / "commands.json").is_file()), roots[0])
    if len(roots) > 1:
        names = ", ".join(files.show(root) + "/" for root in roots)
        return CheckResult.failed(
            "bot_root",
            f"The package has {len(roots)} candidate bot folders: {names}.",
            f"Keep commands.json and startme.sh in one folder only; the MIT server would run "
            f"{files.show(chosen)}/, the first one it finds.",
        ), chosen
    launchers = " and ".join(n for n in ("commands.json", "startme.sh") if (chosen / n).is_file())
    return CheckResult.passed(
        "bot_root", f"The bot folder is {files.show(chosen)}/ (with {launchers})."
    ), chosen


def _bad(files: BotFiles, profile: str, name: str, message: str, hint: str) -> CheckResult:
    """A broken startme.sh: a failure when it starts the bot, else a warning.

    The MIT server never runs startme.sh, so with commands.json beside it a broken
    one is only a warning under the ``mit`` profile.
    """
    if profile == "mit" and (files.root / "commands.json").is_file():
        return CheckResult.warned(
            name, message + " The MIT server does not run startme.sh; the ACPC server would.", hint
        )
    return CheckResult.failed(name, message, hint)


def check_startme_executable(files: BotFiles, profile: str = "mit") -> CheckResult:
    """``startme.sh`` has its run bits; the ``acpc`` profile requires it at mode 0755."""
    name = "startme_executable"
    chmod = "Run `chmod 755 startme.sh` in the bot folder and package it again."
    if (path := files.startme) is None:
        if profile == "acpc":
            return CheckResult.failed(
                name,
                f"There is no startme.sh in {files.show(files.root)}/; the ACPC server "
                "starts a bot with `./startme.sh HOST PORT`.",
                "Add an executable startme.sh that starts the bot (`pokerbots new` writes one), "
                "then " + chmod[0].lower() + chmod[1:],
            )
        return CheckResult.skipped(
            name, "There is no startme.sh; the bot starts from commands.json."
        )
    mode = stat.S_IMODE(path.stat().st_mode)
    if not mode & stat.S_IXUSR:
        return _bad(files, profile, name, f"startme.sh is not executable (mode {mode:04o}).", chmod)
    if mode & 0o755 != 0o755 and profile == "acpc":
        return CheckResult.failed(
            name,
            f"startme.sh has mode {mode:04o}; the ACPC server's check wants at least 0755.",
            chmod,
        )
    return CheckResult.passed(name, f"startme.sh is executable (mode {mode:04o}).")


def check_startme_shebang(files: BotFiles, profile: str = "mit") -> CheckResult:
    """``startme.sh`` begins with ``#!`` naming its interpreter."""
    name = "startme_shebang"
    if (path := files.startme) is None:
        return CheckResult.skipped(name, "There is no startme.sh.")
    with open(path, "rb") as file:
        first = file.read(200).split(b"\n")[0].rstrip(b"\r")
    if not first.startswith(b"#!"):
        return _bad(
            files,
            profile,
            name,
            "startme.sh does not start with a shebang line, so it cannot be executed.",
            "Make its first line `#!/bin/sh` (or `#!/bin/bash`).",
        )
    return CheckResult.passed(name, f"startme.sh starts with {first.decode(errors='replace')}.")


def check_startme_line_endings(files: BotFiles, profile: str = "mit") -> CheckResult:
    """``startme.sh`` has Unix (LF) line endings."""
    name = "startme_line_endings"
    if (path := files.startme) is None:
        return CheckResult.skipped(name, "There is no startme.sh.")
    if b"\r" in path.read_bytes():
        return _bad(
            files,
            profile,
            name,
            "startme.sh has Windows (CRLF) line endings; Linux would look for an interpreter "
            "named '/bin/sh\\r'.",
            "Convert it with `dos2unix startme.sh` (or `sed -i 's/\\r$//' startme.sh`), or set "
            "your editor to LF line endings.",
        )
    return CheckResult.passed(name, "startme.sh has Unix (LF) line endings.")


def check_machine_paths(files: BotFiles) -> CheckResult:
    """``startme.sh`` and ``commands.json`` name no path that exists only on your machine."""
    name = "machine_paths"
    found = []
    for launcher in ("startme.sh", "commands.json"):
        path = files.root / launcher
        if not path.is_file():
            continue
        with open(path, "rb") as file:
            text = file.read(_MAX_SCRIPT).decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), 1):
            match = _MACHINE_PATH.search(line)
            if match and not line.lstrip().startswith("#"):
                found.append(f"{launcher}:{number} ({match.group(0)}...)")
    if found:
        return CheckResult.failed(
            name,
            f"Absolute paths into your machine: {', '.join(found[:3])}.",
            'Use paths relative to the bot folder (startme.sh can `cd "$(dirname "$0")"`) '
            "and programs found on PATH, such as python3.",
        )
    return CheckResult.passed(name, "The start commands use no paths into your machine.")


def check_commands_json(files: BotFiles, profile: str = "mit") -> CheckResult:
    """``commands.json`` is an object whose ``build`` and ``run`` are lists of strings, and
    the programs and scripts they name exist; the ``mit`` profile requires the file."""
    name = "commands_json"
    if not (files.root / "commands.json").is_file():
        if profile == "acpc":
            return CheckResult.skipped(
                name, "There is no commands.json; the ACPC server runs startme.sh."
            )
        return CheckResult.failed(
            name,
            "There is no commands.json; the MIT server finds a bot only by it.",
            f"Add a commands.json such as {_EXAMPLE} to the bot folder.",
        )
    try:
        program = read_bot_program(files.root)
    except BotDirectoryError as error:
        message = str(error).replace(str(files.top) + os.sep, "")
        return CheckResult.failed(name, message, f"It should look like {_EXAMPLE}.")
    missing, unknown = _command_problems(files.root, program)
    if missing:
        return CheckResult.failed(
            name,
            f"commands.json names what the bot folder does not hold: {'; '.join(missing)}.",
            "Fix the path (it is relative to the bot folder) or add the file; a program the "
            "build step creates may be missing before the build only.",
        )
    if unknown:
        return CheckResult.warned(
            name,
            f"commands.json runs {', '.join(unknown)}, not found on PATH here.",
            "Install it here to test the bot, or run a program the server has (python3, bash, "
            "java, g++ and cmake on the MIT worker).",
        )
    return CheckResult.passed(
        name,
        f"commands.json builds with {json.dumps(program.build)} and runs "
        f"{json.dumps(program.run)}.",
    )


def _script(arguments: tuple[str, ...]) -> str:
    """The script an interpreter is given: its first argument that is not an option."""
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in _OPTION_VALUES:
            skip = True
        elif not argument.startswith("-"):
            return argument
    return ""


def _command_problems(root: Path, program: BotProgram) -> tuple[list[str], list[str]]:
    """Files the build and run commands name that are missing, and programs not on PATH.

    A path (with a slash) must exist in the bot folder, as must the script an
    interpreter is given; for the run command, only when there is no build step
    that could make it.
    """
    missing: list[str] = []
    unknown: list[str] = []
    for key, argv in (("build", program.build), ("run", program.run)):
        if not argv:
            continue
        may_be_built = key == "run" and bool(program.build)
        wanted = [argv[0]] if "/" in argv[0] else []
        if "/" not in argv[0] and shutil.which(argv[0]) is None:
            unknown.append(f"`{argv[0]}`")
        if _INTERPRETER.match(os.path.basename(argv[0])) and not {"-c", "-m"} & set(argv):
            wanted.append(_script(argv[1:]))
        for item in filter(None, wanted):
            if os.path.isabs(item):
                continue  # machine_paths reports paths into the author's machine
            if not os.path.lexists(root / item) and not may_be_built:
                missing.append(f'"{key}" names {item}, which is not there')
    return missing, sorted(set(unknown))


def check_variant(metadata: Metadata | None, requested: str | None) -> CheckResult:
    """README.txt's ``Variant`` is a known variant and matches ``--variant`` when given."""
    name = "variant"
    if metadata is None:
        return CheckResult.skipped(
            name,
            "There is no readable metadata, so the variant is "
            "unknown; the smoke match plays --variant (default "
            "nlhe).",
        )
    declared = metadata.variant.strip()
    if declared not in VARIANTS:
        return CheckResult.warned(
            name,
            f"README.txt names the variant {declared!r}, which the kit does not know.",
            f"Write one of {', '.join(VARIANTS)} after 'Variant:'.",
        )
    if requested is not None and requested != declared:
        return CheckResult.warned(
            name,
            f"README.txt says the bot plays {declared!r}, but --variant is {requested!r}.",
            "Correct the Variant line of README.txt, or validate with the variant you will enter.",
        )
    return CheckResult.passed(name, f"The bot plays {declared!r}.")


def check_python_sources(files: BotFiles) -> CheckResult:
    """Every ``.py`` file of the bot compiles (nothing is written: no ``.pyc``)."""
    name = "python_sources"
    count = 0
    for path in files.python_files():
        count += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarnings are not errors
                compile(path.read_bytes(), files.show(path), "exec", dont_inherit=True)
        except SyntaxError as error:
            where = f"{error.filename or files.show(path)}:{error.lineno or 0}"
            return CheckResult.failed(
                name,
                f"{where}: {error.msg}.",
                f"Fix the error; `python3 -m py_compile {files.show(path)}` shows it in context.",
            )
        except ValueError as error:  # null bytes, undecodable source
            return CheckResult.failed(
                name, f"{files.show(path)}: {error}.", "Save the file as UTF-8 Python source."
            )
    if count == 0:
        return CheckResult.skipped(name, "The bot has no Python sources.")
    return CheckResult.passed(name, f"All {count} Python files compile.")


def check_vendored_sdk(files: BotFiles) -> CheckResult:
    """The vendored ``sdk/`` matches its manifest; it exists if the bot imports ``sdk``."""
    name = "vendored_sdk"
    directory = files.root / "sdk"
    found = compare_vendored_sdk(directory)
    refresh = (
        "Keep your code outside sdk/; to restore it, copy a fresh one with "
        "local_runner.submission.vendor.vendor_sdk (`pokerbots sdk refresh`) or "
        "re-create the bot with `pokerbots new`."
    )
    if not found.present:
        uses = any(
            _IMPORTS_SDK.search(path.read_bytes()) for path in files.python_files(include_sdk=False)
        )
        if uses:
            return CheckResult.warned(
                name,
                "The bot imports sdk but has no sdk/ folder; the server has no kit installed.",
                refresh,
            )
        return CheckResult.skipped(name, "The bot does not use the kit's SDK.")
    if found.version is None and not found.modified:
        return CheckResult.warned(
            name,
            "sdk/ has no VENDORED.json manifest, so changes to it cannot be detected.",
            refresh,
        )
    changed = [
        *found.modified,
        *(f"{n} (missing)" for n in found.missing),
        *(f"{n} (added)" for n in found.added),
    ]
    if changed:
        shown = ", ".join(changed[:5]) + (
            f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        )
        return CheckResult.warned(name, f"The vendored SDK was modified: {shown}.", refresh)
    return CheckResult.passed(name, f"sdk/ is the unmodified SDK of kit {found.version}.")


def check_large_files(files: BotFiles, max_bytes: int) -> CheckResult:
    """No single file is larger than ``max_bytes``."""
    name = "large_files"
    large = []
    for directory, _dirnames, filenames in os.walk(files.top):
        for filename in filenames:
            path = Path(directory) / filename
            info = path.lstat()
            if info.st_size > max_bytes and stat.S_ISREG(info.st_mode):
                large.append((info.st_size, files.show(path)))
    if large:
        large.sort(reverse=True)
        shown = ", ".join(f"{shown} ({format_bytes(size)})" for size, shown in large[:5])
        return CheckResult.warned(
            name,
            f"{len(large)} file(s) over {format_bytes(max_bytes)}: {shown}.",
            "Remove data the bot does not need, or shrink it (quantise a model, drop logs); "
            "uploads are limited to 100 MB compressed.",
        )
    return CheckResult.passed(name, f"No file is larger than {format_bytes(max_bytes)}.")
