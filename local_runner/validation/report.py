"""The outcome of a validation: the checks in order, the stats, and the verdict."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .checks import CheckResult, Status

__all__ = ["ValidationReport"]


@dataclass(frozen=True, slots=True)
class ValidationReport:
    """Every check of one validation, and numbers about the package and the smoke match.

    Build it with :meth:`create`, which applies ``strict``: warnings then count
    as failures and are reported with status ``fail``.
    """

    checks: tuple[CheckResult, ...]
    stats: Mapping[str, Any] = field(default_factory=dict)
    strict: bool = False

    @classmethod
    def create(
        cls, checks: Iterable[CheckResult], stats: Mapping[str, Any], strict: bool = False
    ) -> ValidationReport:
        """A report of ``checks``; with ``strict``, every warning becomes a failure."""
        results = tuple(
            replace(check, status=Status.FAIL) if strict and check.status is Status.WARN else check
            for check in checks
        )
        return cls(results, dict(stats), strict)

    @property
    def ok(self) -> bool:
        """True when no check failed: the package is valid."""
        return not self.failures

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        """The checks that failed."""
        return tuple(check for check in self.checks if check.status is Status.FAIL)

    @property
    def warnings(self) -> tuple[CheckResult, ...]:
        """The checks that warned."""
        return tuple(check for check in self.checks if check.status is Status.WARN)

    def __getitem__(self, name: str) -> CheckResult:
        """The check called ``name``; KeyError if there is none."""
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(f"The report has no check named {name!r}.")

    def verdict(self) -> str:
        """One sentence: valid or not, and why."""
        if self.ok:
            warned = len(self.warnings)
            tail = f", with {warned} warning(s)" if warned else ""
            return f"Valid: the package passed every check{tail}."
        names = ", ".join(check.name for check in self.failures)
        return f"Not valid: {len(self.failures)} check(s) failed ({names})."

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"ok", "checks": [{name, status, message, hint}], "stats"}``."""
        return {
            "ok": self.ok,
            "checks": [check.to_dict() for check in self.checks],
            "stats": dict(self.stats),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2)
