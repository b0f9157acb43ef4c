"""The import paths of modules that moved when ``local_runner`` was grouped by job.

``local_runner`` was once thirty flat modules; they now live in packages by job (``engine``,
``programs``, ``results``, ``submission``, ``bots``).  Code written for the old layout keeps
working: importing an old path (``import local_runner.match``, ``from local_runner.stats
import summarize_duplicate``) gives the module at its new path, the very same module object.
The kit itself imports the new paths.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "install"]

#: Old module path -> new module path.
MOVED: dict[str, str] = {
    "local_runner.acpc_seat": "local_runner.engine.acpc_seat",
    "local_runner.acpc_view": "local_runner.engine.acpc_view",
    "local_runner.archive": "local_runner.submission.archive",
    "local_runner.bot_program": "local_runner.programs.bot_program",
    "local_runner.builtin_bots": "local_runner.bots.builtin",
    "local_runner.dealer": "local_runner.engine.dealer",
    "local_runner.explain": "local_runner.results.explain",
    "local_runner.faults": "local_runner.engine.faults",
    "local_runner.interpreter": "local_runner.programs.interpreter",
    "local_runner.logs": "local_runner.results.logs",
    "local_runner.match": "local_runner.engine.match",
    "local_runner.match_stats": "local_runner.results.match_stats",
    "local_runner.match_summary": "local_runner.results.match_summary",
    "local_runner.metadata": "local_runner.submission.metadata",
    "local_runner.mit_view": "local_runner.engine.mit_view",
    "local_runner.new": "local_runner.submission.new",
    "local_runner.output_log": "local_runner.programs.output_log",
    "local_runner.package": "local_runner.submission.package",
    "local_runner.plots": "local_runner.results.plots",
    "local_runner.proc_tracker": "local_runner.programs.proc_tracker",
    "local_runner.process": "local_runner.programs.process",
    "local_runner.rankings": "local_runner.results.rankings",
    "local_runner.records": "local_runner.engine.records",
    "local_runner.relay": "local_runner.programs.relay",
    "local_runner.sandbox": "local_runner.programs.sandbox",
    "local_runner.seat_view": "local_runner.engine.seat_view",
    "local_runner.seating": "local_runner.engine.seating",
    "local_runner.seats": "local_runner.engine.seats",
    "local_runner.socket_seat": "local_runner.engine.socket_seat",
    "local_runner.standings": "local_runner.results.standings",
    "local_runner.stats": "local_runner.results.stats",
    "local_runner.strategies": "local_runner.submission.strategies",
    "local_runner.tdist": "local_runner.results.tdist",
    "local_runner.vendor": "local_runner.submission.vendor",
}


class _OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path and loads it as the module at its new path."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for an old path; None for every other module."""
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """The module at the new path (imported if need be), so both names share it."""
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module ran when its new path was imported."""


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once): an old path must never find a stale
    file left from an older install."""
    if not any(isinstance(finder, _OldPaths) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())
