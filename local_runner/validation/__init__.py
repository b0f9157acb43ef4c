"""``pokerbots validate``: check a submission the way a competition server would.

A submission (a bot folder, or its ``.zip``/``.jar``/``.tar``/``.tar.gz``/
``.tgz`` archive) is inspected for unsafe content, unpacked or copied into a
private temporary directory, checked statically against a competition
profile (``mit`` or ``acpc``, see :mod:`.profiles`: the upload's format, its
layout, start script, ``commands.json``, README metadata, Python sources,
vendored SDK, sizes, junk) and then built and played in short seeded smoke
matches; in an ACPC game, in the ACPC server's own matches against its chump
(:mod:`.acpc_matches`: 12,000 hands, not losing)::

    from pathlib import Path
    from local_runner.validation import ValidateOptions, validate

    report = validate(Path("my-bot.zip"), ValidateOptions(hands=50))
    print(report.verdict())
    for check in report.failures:
        print(check.name, check.message, check.hint)

Every check is listed, with what it means and how to fix it, in ``docs/validate.md``.
"""

from __future__ import annotations

from .acpc_matches import ACPC_CHECKS
from .checks import CheckResult, Status
from .dynamic import DYNAMIC_CHECKS
from .options import ValidateOptions
from .pipeline import STATIC_CHECKS, ValidateUsageError, validate
from .report import ValidationReport

__all__ = [
    "ACPC_CHECKS",
    "DYNAMIC_CHECKS",
    "STATIC_CHECKS",
    "CheckResult",
    "Status",
    "ValidateOptions",
    "ValidateUsageError",
    "ValidationReport",
    "validate",
]
