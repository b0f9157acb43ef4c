"""A scrimmage's ``--out`` folder: new, empty, or a previous scrimmage's files to clear.

A new match written over an old one would leave the old bot logs next to the new game
log.  So before playing, :func:`prepare_scrimmage_folder` either finds the folder free,
or recognises everything in it as what an earlier ``pokerbots scrimmage`` wrote (and
removes exactly that, saying so), or refuses with a sentence naming what else is there.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..runs.errors import RunError
from ..runs.layout import (
    BANKROLL_PNG,
    DEALER_LOG_FILE,
    GAMELOG_FILE,
    HANDS_FILE,
    LEG_FOLDERS,
    SUMMARY_FILE,
    bot_log_name,
)
from ..runs.summary import read_summary, summary_path
from ..tables.spec import UsageError

__all__ = ["kit_files", "prepare_scrimmage_folder"]

#: What a scrimmage writes whatever the bots are called.
_MATCH_FILES = (GAMELOG_FILE, HANDS_FILE, SUMMARY_FILE, DEALER_LOG_FILE, BANKROLL_PNG)


def _player_names(folder: Path) -> list[str] | None:
    """The players named in ``folder``'s summary.json, or None when it is not a scrimmage's."""
    try:
        summary = read_summary(summary_path(folder))
        names = [player["name"] for player in summary["players"]]
    except (RunError, KeyError, TypeError):
        return None
    if not all(isinstance(name, str) and name for name in names):
        return None
    return names


def kit_files(folder: Path) -> tuple[list[Path], list[Path]]:
    """What in ``folder`` a previous scrimmage wrote, and what else is there.

    A scrimmage's folder holds its summary.json (which names the players), the game
    logs (dealer.log too in an ACPC game), ``NAME.log`` for each player, bankroll.png, and
    for a duplicate match the folders half-1/ and half-2/ (three-handed, leg-1/ to leg-6/)
    holding the same.
    Without a readable summary.json nothing is recognised.
    """
    names = _player_names(folder)
    ours: list[Path] = []
    others: list[Path] = []
    expected = set(_MATCH_FILES) | {bot_log_name(name) for name in names or []}
    for entry in sorted(folder.iterdir()):
        if names is not None and entry.name in LEG_FOLDERS and entry.is_dir():
            inside, foreign = kit_files(entry)
            if foreign or not inside:
                others.append(entry)
            else:
                ours.append(entry)
        elif names is not None and entry.name in expected and entry.is_file():
            ours.append(entry)
        else:
            others.append(entry)
    return ours, others


def prepare_scrimmage_folder(folder: Path) -> list[str]:
    """Make ``folder`` ready for a new scrimmage; return the names of what was removed.

    Raises :class:`UsageError` when ``folder`` is a file, or holds anything a previous
    scrimmage did not write.
    """
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise UsageError(f"--out {folder} is a file; name a folder for the match's logs.")
    if not any(folder.iterdir()):
        return []
    ours, others = kit_files(folder)
    if others:
        listed = ", ".join(entry.name + ("/" if entry.is_dir() else "") for entry in others[:5])
        more = f" and {len(others) - 5} more" if len(others) > 5 else ""
        raise UsageError(
            f"The output folder {folder} is not empty and holds files a scrimmage did not "
            f"write ({listed}{more}); choose a new --out folder, or empty this one."
        )
    removed = []
    for entry in ours:
        if entry.is_dir():
            removed.append(entry.name + "/")
            shutil.rmtree(entry)
        else:
            removed.append(entry.name)
            entry.unlink()
    return removed
