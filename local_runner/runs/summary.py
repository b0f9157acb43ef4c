"""``summary.json``: a match's (or a duplicate match's combined) result, written and read.

What goes in is the result's own ``to_dict()`` (a match's, or a duplicate match's with
its legs), after the version of the kit that played it (``kit_version``, so that a run
can be told apart from one of an older kit); this module owns the file: where it is, what
it holds (:func:`summary_content`), how it is written (indented JSON, one trailing
newline) and how it is read back without trusting it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sdk

from .errors import RunError
from .layout import SUMMARY_FILE

__all__ = ["VERSION_KEY", "read_summary", "summary_content", "summary_path", "write_summary"]

#: The key of the kit's version in a summary.
VERSION_KEY = "kit_version"


def summary_path(directory: Path) -> Path:
    """Where ``directory``'s summary is."""
    return directory / SUMMARY_FILE


def summary_content(content: Mapping[str, Any]) -> dict[str, Any]:
    """What a summary holds: the kit's version, then a result's ``content``.

    >>> summary_content({"seed": 4}) == {"kit_version": sdk.__version__, "seed": 4}
    True
    """
    return {VERSION_KEY: sdk.__version__, **content}


def write_summary(directory: Path, content: Mapping[str, Any]) -> Path:
    """Write ``content`` (with the kit's version) as ``directory/summary.json``; its path."""
    path = summary_path(directory)
    path.write_text(json.dumps(summary_content(content), indent=2) + "\n", encoding="utf-8")
    return path


def read_summary(path: Path) -> dict[str, Any]:
    """The JSON object in the summary file ``path``.

    Raises :class:`~.errors.RunError`, saying what to do, when the file is missing,
    unreadable, not JSON or not an object.  Its fields are the caller's to check.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RunError(
            f"{path} is missing: the match did not finish writing its logs (it was killed), or "
            f"{path.parent} is not a run directory (pass the directory a scrimmage wrote, "
            "with summary.json and hands.jsonl)."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise RunError(f"Cannot read {path}: {error}.") from None
    try:
        summary = json.loads(text)
    except json.JSONDecodeError as error:
        raise RunError(
            f"{path} is not valid JSON ({error.msg} at line {error.lineno}); "
            "it is damaged or was cut off."
        ) from None
    if not isinstance(summary, dict):
        raise RunError(f"{path} should hold a JSON object.")
    return summary
