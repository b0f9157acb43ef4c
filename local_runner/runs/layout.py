"""Every file and folder name of a run, and where a run folder keeps its legs.

A match (a scrimmage, or one match of a tournament) writes into its folder:

* ``gamelog.txt``, ``hands.jsonl``, ``summary.json`` (:mod:`.gamelog`, :mod:`.hands`,
  :mod:`.summary`), ``NAME.log`` for each bot, ``dealer.log`` in an ACPC game
  (:mod:`.dealer_log`), and ``bankroll.png`` with ``--plot``;
  ``pokerbots export`` and ``report`` add ``hands.phhs`` and ``report.html``;
* a duplicate match writes each leg as such a match in its own folder (``half-1`` and
  ``half-2`` heads-up, ``leg-1`` to ``leg-6`` three-handed) and its combined
  ``summary.json`` beside them.

A tournament writes ``tournament.json`` (the plan), ``matches.jsonl`` (one line per
finished match), ``results.json``, ``cross-table.png`` with ``--plot``, and each match's
folder under ``matches/<id>/``.
"""

from __future__ import annotations

from pathlib import Path

from sdk.games import ACPC, native_wire
from sdk.rules import Rules

from ..engine.seating import duplicate_orders

__all__ = [
    "BANKROLL_PNG",
    "CROSS_TABLE_PNG",
    "DEALER_LOG_FILE",
    "GAMELOG_FILE",
    "HALF_DIRECTORIES",
    "HANDS_FILE",
    "LEG_DIRECTORIES",
    "LEG_FOLDERS",
    "MATCHES_DIRECTORY",
    "MATCHES_FILE",
    "PHH_FILE",
    "PLAN_FILE",
    "REPORT_FILE",
    "RESULTS_FILE",
    "SUMMARY_FILE",
    "bot_log_name",
    "keeps_dealer_log",
    "leg_directories",
    "leg_folders",
    "leg_runs",
]

#: A match's MIT-format game log (:mod:`.gamelog`).
GAMELOG_FILE = "gamelog.txt"
#: A match's hands, one JSON line each (:mod:`.hands`).
HANDS_FILE = "hands.jsonl"
#: A match's (or a duplicate match's combined) result (:mod:`.summary`).
SUMMARY_FILE = "summary.json"
#: An ACPC game's match as the ACPC dealer logs it (:mod:`.dealer_log`).
DEALER_LOG_FILE = "dealer.log"
#: A match's bankroll chart (``--plot``).
BANKROLL_PNG = "bankroll.png"
#: A run's hands as PHH (``pokerbots export``, ``--phh``), when written into the run's folder.
PHH_FILE = "hands.phhs"
#: A run's (or a tournament's) HTML report (``pokerbots report``).
REPORT_FILE = "report.html"

#: The subdirectories of a heads-up duplicate match's output that hold its two halves.
HALF_DIRECTORIES = ("half-1", "half-2")
#: The subdirectories of a three-handed duplicate match's output, one per leg.
LEG_DIRECTORIES = tuple(f"leg-{leg}" for leg in range(1, 7))
#: Every folder name a duplicate match's leg may have.
LEG_FOLDERS = frozenset(HALF_DIRECTORIES + LEG_DIRECTORIES)

#: A tournament's plan.
PLAN_FILE = "tournament.json"
#: A tournament's finished matches, one JSON line each.
MATCHES_FILE = "matches.jsonl"
#: A tournament's standings and every match.
RESULTS_FILE = "results.json"
#: The folder holding a tournament's matches, one folder each (named by the match's id).
MATCHES_DIRECTORY = "matches"
#: A tournament's cross table as a heat map (``--plot``).
CROSS_TABLE_PNG = "cross-table.png"


def bot_log_name(name: str) -> str:
    """The file of a bot's output in its match's folder.

    >>> bot_log_name("A")
    'A.log'
    """
    return f"{name}.log"


def leg_directories(seats: int) -> tuple[str, ...]:
    """The subdirectories holding the legs of a duplicate match at a table of ``seats``.

    >>> leg_directories(2)
    ('half-1', 'half-2')
    """
    return HALF_DIRECTORIES if seats == 2 else LEG_DIRECTORIES[: len(duplicate_orders(seats))]


def leg_folders(directory: Path) -> list[Path]:
    """The legs of a duplicate match's folder that exist (folders), in order; else none."""
    legs = (directory / name for name in HALF_DIRECTORIES + LEG_DIRECTORIES)
    return [leg for leg in legs if leg.is_dir()]


def leg_runs(directory: Path) -> list[Path]:
    """The legs of a duplicate match's folder that hold hands (each is a run), in order."""
    return [leg for leg in leg_folders(directory) if (leg / HANDS_FILE).is_file()]


def keeps_dealer_log(rules: Rules) -> bool:
    """Whether a match of ``rules`` gets a ``dealer.log``: a game the ACPC server plays."""
    return native_wire(rules) == ACPC
