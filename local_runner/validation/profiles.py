"""Competition profiles: what the MIT Pokerbots server or the ACPC server needs of a bot.

A profile is chosen by ``--profile``, else by the ``Profile:`` line of the bot's
metadata (README, else README.txt), else by the layout: a folder with
``commands.json`` is an MIT bot, one with only ``startme.sh`` an ACPC bot.

* ``mit``: ``commands.json`` is required (the server finds the bot by it), uploads
  are zip files within the size limit of the variant's year, README.txt is
  optional, and the clock is the variant's year's (:meth:`Rules.for_variant`).
* ``acpc``: a file named ``README`` with the metadata the 2009 rules ask for,
  ``startme.sh`` at mode 0755, a jar, tar or zip; the clock is 7 s per hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sdk.games import ACPC_DEFAULT_GAME, GAMES, MIT_VARIANTS
from sdk.rules import Rules

from ..submission.metadata import PROFILES, declared_profile, metadata_path

if TYPE_CHECKING:
    from .acpc_matches import AcpcGame

__all__ = [
    "ACPC_HANDS_PER_MATCH",
    "ACPC_SECONDS_PER_HAND",
    "PROFILES",
    "MitSeason",
    "competition_rules",
    "describe",
    "detect_profile",
    "metadata_file",
    "mit_season",
]

#: The MIT upload limits, the same every year: the upload page says "max 100 MB
#: compressed, 1 GB uncompressed", the match worker refuses a zip whose entries add up
#: to more than 1 GiB (shared/reference/mit-engines.md, section 4, "Upload" and "Checks
#: made at match time"; the 2 GB upload of January 2025 was reverted within the month).
_MIT_UPLOAD_BYTES = 100 * 10**6
_MIT_UNZIPPED_BYTES = 2**30


@dataclass(frozen=True, slots=True)
class MitSeason:
    """The MIT Pokerbots year whose game a variant is, and that year's upload limits."""

    variant: str
    year: int | None  # None: the base engine (plain no-limit hold'em), no one season
    max_upload_bytes: int = _MIT_UPLOAD_BYTES
    max_unzipped_bytes: int = _MIT_UNZIPPED_BYTES

    @property
    def label(self) -> str:
        """``'MIT Pokerbots 2024 (auction)'``, or the base engine for ``nlhe``."""
        if self.year is None:
            return "MIT Pokerbots (base engine, nlhe)"
        return f"MIT Pokerbots {self.year} ({self.variant})"


#: Which year each MIT game was played, from its declaration (:mod:`sdk.games`).
_MIT_YEARS: dict[str, int | None] = {
    name: int(game.competition.season.removeprefix("mit-")) if game.competition.season else None
    for name, game in GAMES.items()
    if game.competition.profile == "mit"
}

#: The ACPC 2009 competition's hands per heads-up match and seconds per hand, from the
#: declaration of its heads-up games.
_ACPC = GAMES[ACPC_DEFAULT_GAME].competition
ACPC_HANDS_PER_MATCH = _ACPC.rounds
ACPC_SECONDS_PER_HAND = _ACPC.clock / _ACPC.rounds


def mit_season(variant: str) -> MitSeason:
    """The MIT season of ``variant`` (one of :data:`sdk.games.MIT_VARIANTS`; no year for
    another game)."""
    return MitSeason(variant, _MIT_YEARS.get(variant))


def competition_rules(profile: str, variant: str) -> Rules:
    """The rules a full match of the competition is played by (hands and clock).

    The ACPC profile keeps the variant's betting (the kit plays no ACPC game yet)
    with the ACPC's 3000 hands and 7 s per hand.
    """
    rules = Rules.for_variant(variant)
    if profile == "acpc":
        return rules.replace(
            num_rounds=ACPC_HANDS_PER_MATCH, game_clock=ACPC_SECONDS_PER_HAND * ACPC_HANDS_PER_MATCH
        )
    return rules


def metadata_file(root: Path) -> Path | None:
    """The bot's metadata file: ``README`` (the ACPC name), else ``README.txt``, else None."""
    return metadata_path(root)


def detect_profile(root: Path, requested: str | None = None) -> tuple[str, str]:
    """The profile to check the bot in ``root`` against, and why it was chosen."""
    if requested is not None:
        if requested not in PROFILES:
            raise ValueError(
                f"Unknown profile {requested!r}; choose one of: {', '.join(PROFILES)}."
            )
        return requested, "chosen with --profile"
    declared = declared_profile(root)
    if declared is not None:
        return declared[0], f"the Profile line of {declared[1].name}"
    if (root / "commands.json").is_file():
        if _says_acpc(root / "commands.json"):
            return "acpc", 'the commands.json says "protocol": "acpc"'
        return "mit", "the bot has commands.json and its metadata names no profile"
    return "acpc", "the bot has startme.sh without commands.json"


def _says_acpc(commands: Path) -> bool:
    """Whether ``commands.json`` holds ``"protocol": "acpc"`` (an unreadable one does not:
    its own check says what is wrong)."""
    try:
        data = json.loads(commands.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(data, dict) and data.get("protocol") == "acpc"


def describe(profile: str, variant: str, game: AcpcGame | None = None) -> str:
    """One line naming the competition checked against, and the ACPC game played."""
    if game is not None:
        return f"the ACPC server's validate_submission.pl, playing {game.label}"
    if profile == "mit":
        return mit_season(variant).label
    return f"ACPC 2009 rules (smoke match plays the kit's {variant})"


assert set(_MIT_YEARS) == set(MIT_VARIANTS), "every MIT variant needs its MIT season"
