"""Which game a bot was written for, when nobody says: its metadata, then its own files.

A kit bot says its game in its README (``Variant: toss``).  A real MIT bot has no README:
its game shows in the skeleton it was built on, whose year's identifiers (``DiscardAction``
in 2026, ``BidAction`` in 2024, ``bounty_hits`` in 2025; each game's ``markers`` in
:mod:`sdk.games`) appear in its Python, C++ or Java files.  :func:`infer_game` reads both, in
that order, and says what it found and where; files of two seasons are an ambiguity that
only ``--variant`` settles, and the reason says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sdk.games import GAMES, SEASONS

__all__ = ["GameInference", "infer_game"]

#: The source files a bot's skeleton is written in.
_SOURCES = frozenset({".py", ".cpp", ".cc", ".h", ".hpp", ".java"})
#: Folders that are not the bot's own code (the kit's vendored SDK speaks every game).
_SKIPPED = frozenset({"sdk", ".git", "__pycache__", ".venv", "venv", "build", "node_modules"})
_MAX_FILES = 2000
_MAX_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class GameInference:
    """The game inferred (a name of :data:`sdk.games.GAMES`, or None: nothing says), and in
    words what it was inferred from."""

    name: str | None
    reason: str
    ambiguous: bool = False
    """True when the files name more than one game (only ``--variant`` settles it)."""


def infer_game(root: Path, declared: str | None = None) -> GameInference:
    """The game of the bot in ``root``: ``declared`` (its metadata's Variant line) when it
    names a game or a season, else the one season whose skeleton's identifiers its files use.

    When its files use the identifiers of more than one season, no game is inferred and the
    reason names them and ``--variant``.
    """
    if declared:
        name = declared.strip().lower()
        name = SEASONS.get(name, name)
        if name in GAMES:
            return GameInference(name, f"its metadata's Variant line says {declared.strip()}")
    found: dict[str, tuple[str, str]] = {}
    patterns = {
        name: re.compile(rb"\b(" + b"|".join(m.encode() for m in game.markers) + rb")\b")
        for name, game in GAMES.items()
        if game.markers
    }
    for path in _sources(root):
        try:
            text = path.read_bytes()[:_MAX_BYTES]
        except OSError:
            continue
        for name, pattern in patterns.items():
            if name not in found and (hit := pattern.search(text)):
                found[name] = (str(path.relative_to(root)), hit.group(1).decode())
    if len(found) > 1:
        seen = "; ".join(
            f"{GAMES[n].competition.season or n}'s {word} in {file}"
            for n, (file, word) in found.items()
        )
        return GameInference(
            None,
            f"its files use the identifiers of more than one season ({seen}), so its game "
            "cannot be told: pass --variant with the game it plays, or write it on a Variant "
            "line of its README.txt",
            ambiguous=True,
        )
    if found:
        ((name, (file, word)),) = found.items()
        season = GAMES[name].competition.season or name
        return GameInference(name, f"{file} uses {word}, which only {season}'s skeleton has")
    return GameInference(None, "neither its metadata nor its files name a game")


def _sources(root: Path) -> list[Path]:
    """The bot's own source files, breadth first, at most a few thousand."""
    out: list[Path] = []
    pending = [root]
    while pending and len(out) < _MAX_FILES:
        folder = pending.pop(0)
        try:
            entries = sorted(folder.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                continue
            if entry.is_dir():
                if entry.name not in _SKIPPED:
                    pending.append(entry)
            elif entry.suffix in _SOURCES:
                out.append(entry)
    return out[:_MAX_FILES]
