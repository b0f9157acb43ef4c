"""pokerbots-kit local runner: play tables of bots, run tournaments, validate submissions.

This module is the kit's public face in Python: what a bot author, a course or a notebook
calls.  Everything here is listed in ``__all__`` and stays; every other module path inside
``local_runner`` may move.  The command line (``pokerbots``) is a thin layer over the same
functions.

Play a table of bots (a single match, or ``duplicate=True`` for every seating) and read
its one result type:

>>> import tempfile
>>> from pathlib import Path
>>> import local_runner as kit
>>> config = kit.ScrimmageConfig(rules=kit.Rules.for_variant("nlhe").replace(num_rounds=50))
>>> bots = [kit.BotSpec.parse("builtin:checkcall"), kit.BotSpec.parse("builtin:raise")]
>>> result = kit.play_table(bots, config, Path(tempfile.mkdtemp()))
>>> result.hands_played, len(result.summaries())
(50, 2)

Test a bot object in this process (the harness behind a new bot's own tests):

>>> from sdk import Bot, CheckAction, CallAction
>>> class Passive(Bot):
...     def get_action(self, game_state, round_state, active):
...         legal = round_state.legal_actions()
...         return CheckAction() if CheckAction in legal else CallAction()
>>> kit.play(Passive(), "random", rounds=20).hands_played
20

A name is imported on first use, so ``import local_runner`` costs almost nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .compiled import use_python_engine

# A compiled install's engine refuses another copy's SDK classes: where this process's `sdk`
# is a bot project's vendored copy, an unedited one is swapped for the kit's compiled build of
# the same sources, and with any other the engine is loaded from its .py files.
use_python_engine()

if TYPE_CHECKING:
    from sdk.errors import KitError
    from sdk.rules import Rules

    from .engine.faults import Fault, FaultKind
    from .engine.records import MatchResult, PlayerResult
    from .harness import HarnessError, decide, play, spot
    from .results.stats import Summary
    from .results.table import TableResult
    from .tables.config import Limits, RunnerSettings, ScrimmageConfig, load_config
    from .tables.executors import open_executor
    from .tables.spec import BotSpec
    from .tables.table import play_table
    from .tables.tournament import (
        TournamentPlan,
        TournamentResult,
        plan_tournament,
        run_tournament,
    )
    from .validation import ValidateOptions, ValidationReport, validate

__all__ = [
    "BotSpec",
    "Fault",
    "FaultKind",
    "HarnessError",
    "KitError",
    "Limits",
    "MatchResult",
    "PlayerResult",
    "Rules",
    "RunnerSettings",
    "ScrimmageConfig",
    "Summary",
    "TableResult",
    "TournamentPlan",
    "TournamentResult",
    "ValidateOptions",
    "ValidationReport",
    "decide",
    "load_config",
    "open_executor",
    "plan_tournament",
    "play",
    "play_table",
    "run_tournament",
    "spot",
    "validate",
]

#: Where each public name lives (imported when it is first used).
_HOMES = {
    "KitError": "sdk.errors",
    "Rules": "sdk.rules",
    "Fault": "local_runner.engine.faults",
    "FaultKind": "local_runner.engine.faults",
    "MatchResult": "local_runner.engine.records",
    "PlayerResult": "local_runner.engine.records",
    "HarnessError": "local_runner.harness",
    "decide": "local_runner.harness",
    "play": "local_runner.harness",
    "spot": "local_runner.harness",
    "Summary": "local_runner.results.stats",
    "TableResult": "local_runner.results.table",
    "Limits": "local_runner.tables.config",
    "RunnerSettings": "local_runner.tables.config",
    "ScrimmageConfig": "local_runner.tables.config",
    "load_config": "local_runner.tables.config",
    "open_executor": "local_runner.tables.executors",
    "BotSpec": "local_runner.tables.spec",
    "play_table": "local_runner.tables.table",
    "TournamentPlan": "local_runner.tables.tournament",
    "TournamentResult": "local_runner.tables.tournament",
    "plan_tournament": "local_runner.tables.tournament",
    "run_tournament": "local_runner.tables.tournament",
    "ValidateOptions": "local_runner.validation",
    "ValidationReport": "local_runner.validation",
    "validate": "local_runner.validation",
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its home on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'local_runner' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later uses skip this function
    return value


def __dir__() -> list[str]:
    """The public names, for tab completion."""
    return sorted(__all__)
