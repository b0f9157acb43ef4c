"""A run folder, opened without trusting it.

A run directory holds ``summary.json`` and ``hands.jsonl`` as a scrimmage writes them
(``docs/runner-outputs.md``).  Either file may be missing, cut off by a crash or a full
disk, edited by hand, or written by an older version of the kit; every such problem
becomes a :class:`~.errors.RunError` whose message names the file, the line and what to
do, never a traceback.  Hands are read lazily (:meth:`Run.hands`, :mod:`.hands`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdk.rules import Rules, RulesError

from .errors import RERUN, RunError
from .hands import Hand, read_hands
from .layout import HANDS_FILE, MATCHES_DIRECTORY, PLAN_FILE, leg_runs
from .summary import read_summary, summary_path

__all__ = ["Run", "open_run"]


@dataclass(frozen=True)
class Run:
    """A finished (or interrupted) match's directory, its summary checked."""

    directory: Path
    summary: dict[str, Any]
    rules: Rules
    seed: int
    names: tuple[str, ...]
    """The players in the order they were named (``summary.json``)."""

    @property
    def hands_path(self) -> Path:
        """Where the hands are."""
        return self.directory / HANDS_FILE

    @property
    def variant(self) -> str:
        """The variant played."""
        return self.rules.variant

    def hands(self) -> Iterator[Hand]:
        """Every hand in the order played, checked one line at a time.

        Raises :class:`~.errors.RunError` at the first line that is cut off, is not
        JSON, lacks a field, or does not follow the hand before it.
        """
        return read_hands(self.hands_path)

    def hand(self, number: int) -> Hand:
        """Hand ``number`` (from 1); :class:`~.errors.RunError` if the run has no such hand."""
        if number < 1:
            raise RunError(f"Hands are numbered from 1; there is no hand {number}.")
        for hand in self.hands():
            if hand.number == number:
                return hand
        raise RunError(f"{self.directory} has no hand {number}; it has {self.hand_count()} hands.")

    def hand_count(self) -> int:
        """How many hands ``hands.jsonl`` holds (lines; not checked)."""
        try:
            with self.hands_path.open("rb") as stream:
                return sum(1 for _ in stream)
        except OSError:
            return 0


def open_run(directory: Path | str) -> Run:
    """Open a run directory written by a scrimmage (or one match of a tournament).

    Checks ``summary.json`` (the rules, the seed, the players) and that
    ``hands.jsonl`` exists; the hands themselves are checked as they are read.
    A duplicate scrimmage's directory names its halves in the error.
    """
    path = Path(directory)
    if not path.is_dir():
        raise RunError(
            f"{path} is not a directory; pass the directory a scrimmage wrote "
            "(runs/scrimmage-<time>/ by default, or its --out)."
        )
    if not (path / HANDS_FILE).is_file():
        halves = [leg.name for leg in leg_runs(path)]  # heads-up halves, or 3-seat legs
        if halves:
            part = "half" if halves[0].startswith("half-") else "leg"
            raise RunError(
                f"{path} is a duplicate scrimmage: each {part} is its own run; pass "
                f"{path / halves[0]} (or {', '.join(halves[1:])})."
            )
        if (path / PLAN_FILE).is_file():
            raise RunError(
                f"{path} is a tournament: pass one of its matches "
                f"({path / MATCHES_DIRECTORY}/<id>/), or use `pokerbots report` on it."
            )
        raise RunError(
            f"{path} has no {HANDS_FILE}: it is not a run directory written by "
            "`pokerbots scrimmage` (or the match never started)."
        )
    where = summary_path(path)
    summary = read_summary(where)
    for key in ("rules", "seed", "players"):
        if key not in summary:
            raise RunError(
                f"{where} has no {key!r}: it was written by an older version of the kit; {RERUN}."
            )
    try:
        rules = Rules.from_dict(summary["rules"])
    except (RulesError, TypeError) as error:
        raise RunError(f"{where}: its rules cannot be used: {error}") from None
    seed = summary["seed"]
    players = summary["players"]
    if type(seed) is not int:
        raise RunError(f"{where}: the seed should be a whole number, not {seed!r}.")
    if (
        not isinstance(players, list)
        or len(players) < 2
        or not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in players)
    ):
        raise RunError(f"{where}: 'players' should list at least two players with names.")
    return Run(path, summary, rules, seed, tuple(p["name"] for p in players))
