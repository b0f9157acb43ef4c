"""Bounty Hold'em, MIT Pokerbots 2025: a winner who holds its bounty rank wins more."""

from __future__ import annotations

from ..declaration import HOLDEM_STREETS, MIT, Game, mit_competition
from ..rules import PRESETS

GAME = Game(
    "bounty",
    PRESETS["bounty"],
    HOLDEM_STREETS,
    (MIT,),
    mit_competition("mit-2025", PRESETS["bounty"]),
    ("mit-2025",),
    ("bounty_hits", "get_bounty_hits", "opponent_bounty_rank"),
)
