"""Run every check of a validation in order, each skipped when a check it needs failed."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sdk.errors import KitError
from sdk.games import ACPC_DEFAULT_GAME

from ..programs.sandbox import sandbox_problem
from ..submission.archive import archive_kind
from ..submission.infer import infer_game
from ..submission.metadata import Metadata
from ..tables.config import ConfigError
from .acpc_matches import (
    ACPC_CHECKS,
    ACPC_GAMES,
    AcpcGame,
    acpc_game,
    is_acpc_game,
    run_acpc_checks,
)
from .checks import (
    BotFiles,
    CheckResult,
    Status,
    check_bot_root,
    check_commands_json,
    check_large_files,
    check_machine_paths,
    check_python_sources,
    check_startme_executable,
    check_startme_line_endings,
    check_startme_shebang,
    check_variant,
    check_vendored_sdk,
)
from .competition import check_junk, check_readme, check_submission_format
from .dynamic import DYNAMIC_CHECKS, run_dynamic_checks, skipped_dynamic_checks
from .options import ValidateOptions
from .profiles import competition_rules, describe, detect_profile, metadata_file
from .report import ValidationReport
from .staging import stage

__all__ = ["STATIC_CHECKS", "ValidateUsageError", "validate"]

#: The checks of the bot's files, in report order (after the safety and size checks).
STATIC_CHECKS = (
    "bot_root",
    "submission_format",
    "commands_json",
    "startme_executable",
    "startme_shebang",
    "startme_line_endings",
    "machine_paths",
    "readme",
    "variant",
    "python_sources",
    "vendored_sdk",
    "large_files",
    "junk",
)
_STARTME = ("startme_executable", "startme_shebang", "startme_line_endings")


class ValidateUsageError(KitError, ValueError):
    """The path to validate is missing or is not a directory or a supported archive."""


def validate(path: Path, options: ValidateOptions | None = None) -> ValidationReport:
    """Check the submission at ``path`` (a bot folder or its archive) the way a server would.

    Everything happens in a private temporary directory, removed afterwards;
    nothing is written next to ``path``.  Raises :class:`ValidateUsageError` if
    ``path`` cannot be validated at all; every problem of the package itself is
    a failed check in the report.
    """
    options = options or ValidateOptions()
    path = Path(path)
    if not path.exists():
        raise ValidateUsageError(f"{path} does not exist; pass a bot folder or its archive.")
    if not path.is_dir() and archive_kind(path) is None:
        raise ValidateUsageError(
            f"{path} is neither a folder nor a .zip, .jar, .tar, .tar.gz or .tgz archive; "
            "pass the bot folder or its archive."
        )
    if options.game is not None and not options.game.is_file():
        raise ValidateUsageError(
            f"The game definition file {options.game} does not exist; pass the .game file the "
            "ACPC dealer plays."
        )
    if options.sandbox and options.run_match and (problem := sandbox_problem()) is not None:
        raise ValidateUsageError(problem)
    work = Path(tempfile.mkdtemp(prefix="pokerbots-validate-"))
    try:
        checks, stats = _run(path, options, work)
    finally:
        _remove(work)
    return ValidationReport.create(checks, stats, options.strict)


def _run(
    path: Path, options: ValidateOptions, work: Path
) -> tuple[list[CheckResult], dict[str, Any]]:
    staged = stage(path, work, options.limits)
    report = staged.report
    checks = list(staged.checks)
    stats: dict[str, Any] = {
        "path": str(path),
        "kind": report.kind,
        "compressed_bytes": None if report.kind == "directory" else report.compressed_bytes,
        "uncompressed_bytes": report.uncompressed_bytes,
        "file_count": report.file_count,
    }
    # Before the bot's metadata is read, the options alone say which matches would be played.
    acpc = options.profile == "acpc" or is_acpc_game(options.variant or "", options.game)
    dynamic_names = ACPC_CHECKS if acpc else DYNAMIC_CHECKS
    if staged.top is None:
        reason = "The package was refused by the safety checks, so it was not unpacked."
        checks += [CheckResult.skipped(name, reason) for name in STATIC_CHECKS]
        return checks + skipped_dynamic_checks(reason, dynamic_names), stats
    root_check, root = check_bot_root(staged.top)
    checks.append(root_check)
    if root is None:
        reason = "There is no bot folder to check."
        checks += [CheckResult.skipped(name, reason) for name in STATIC_CHECKS[1:]]
        return checks + skipped_dynamic_checks(reason, dynamic_names), stats
    files = BotFiles(staged.top, root)
    profile, why = detect_profile(root, options.profile)
    if options.profile is not None and options.profile_reason is not None:
        why = options.profile_reason
    readme, metadata = check_readme(files, profile, metadata_file(root))
    declared = metadata.variant.strip() if metadata is not None else ""
    game_file = options.game or _declared_game(root, metadata, options.variant)
    if options.variant is not None:
        variant, variant_reason = options.variant, "chosen with --variant"
        if profile == "acpc" and not is_acpc_game(variant, game_file):
            raise ValidateUsageError(
                f"The acpc profile ({why}) plays ACPC games over the ACPC wire, and "
                f"{variant} is an MIT game: pass --variant {' or '.join(ACPC_GAMES)} (or "
                "--game FILE), or --profile mit to check an MIT bot."
            )
    else:
        inference = infer_game(root, declared)
        variant = inference.name or "nlhe"
        variant_reason = inference.reason + ("" if inference.name else "; nlhe is played")
        if profile == "acpc" and not is_acpc_game(variant, game_file):
            # The ACPC server plays only its own games, over its own wire: never an MIT one.
            found = f"{inference.reason}, an MIT game" if inference.name else inference.reason
            variant = ACPC_DEFAULT_GAME
            variant_reason = (
                f"{found}; the acpc profile plays ACPC games, so {variant}, the heads-up "
                "no-limit game, is played (--variant chooses another)"
            )
    game: AcpcGame | None = None
    game_problem = None
    if is_acpc_game(variant, game_file):
        dynamic_names = ACPC_CHECKS
        try:
            game = acpc_game(variant, game_file)
        except ConfigError as error:
            game_problem = str(error)
    stats.update(
        profile=profile,
        profile_reason=why,
        competition=describe(profile, variant, game),
        variant=variant,
        variant_reason=variant_reason,
    )
    if game is not None:
        stats.update(game=game.label)
    checks.append(check_submission_format(path, report, profile, variant))
    startme: list[Callable[[BotFiles, str], CheckResult]] = [
        check_commands_json,
        check_startme_executable,
        check_startme_shebang,
        check_startme_line_endings,
    ]
    checks += [check(files, profile) for check in startme]
    checks += [
        check_machine_paths(files),
        readme,
        check_variant(metadata, options.variant),
        check_python_sources(files),
        check_vendored_sdk(files),
        check_large_files(files, options.max_file_bytes),
        check_junk(list(staged.junk), report.kind == "directory"),
    ]
    blocker = _blocker(checks, profile)
    if not options.run_match:
        return checks + skipped_dynamic_checks(
            "The matches were not requested.", dynamic_names
        ), stats
    if blocker is not None:
        reason = f"Skipped because the {blocker} check failed."
        return checks + skipped_dynamic_checks(reason, dynamic_names), stats
    if game_problem is not None:
        skipped = skipped_dynamic_checks("There is no game to play.", dynamic_names)
        skipped[2] = CheckResult.failed(
            "acpc_matches",
            game_problem,
            "Give the game definition file the ACPC dealer plays (--game FILE, or a Game line "
            "in README naming a file in the bot's folder).",
        )
        return checks + skipped, stats
    if game is not None:
        dynamic, match_stats = run_acpc_checks(root, game, options, work, profile)
    else:
        dynamic, match_stats = run_dynamic_checks(
            root, competition_rules(profile, variant), options, work, profile
        )
    stats.update(match_stats)
    return checks + dynamic, stats


def _declared_game(root: Path, metadata: Metadata | None, variant: str | None) -> Path | None:
    """The game definition file README's ``Game:`` line names, in the bot's folder (None
    without the line, or when ``--variant`` asks for a preset instead)."""
    if metadata is None or metadata.game is None or variant is not None:
        return None
    return root / metadata.game


def _blocker(checks: list[CheckResult], profile: str) -> str | None:
    """The first failed check the bot cannot be started without, if any.

    The MIT server starts a bot from commands.json, the ACPC server with startme.sh.
    """
    needed = ["bot_root", "commands_json"] if profile == "mit" else ["bot_root", *_STARTME]
    failed = {check.name for check in checks if check.status is Status.FAIL}
    return next((name for name in needed if name in failed), None)


def _remove(work: Path) -> None:
    """Delete the private directory, even where the bot took away write permission."""

    def unlock(function: Callable[..., Any], path: str, _error: object) -> None:
        with contextlib.suppress(OSError):
            parent = os.path.dirname(path)
            os.chmod(parent, os.stat(parent).st_mode | stat.S_IRWXU)
            function(path)

    shutil.rmtree(work, onerror=unlock)
