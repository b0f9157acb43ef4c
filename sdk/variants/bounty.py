"""Bounty Hold'em, MIT Pokerbots 2025: a winner who holds its bounty rank wins more."""

from __future__ import annotations

from ..declaration import HOLDEM_STREETS, MIT, Game, mit_competition
from ..rules import BountyRules, Rules

#: A 60 s clock, and the 2025 engine lets a player fold when a check is free.
RULES = Rules(variant="bounty", game_clock=60.0, bounty=BountyRules(), fold_always_legal=True)

GAME = Game(
    "bounty",
    RULES,
    HOLDEM_STREETS,
    (MIT,),
    mit_competition("mit-2025", RULES),
    ("mit-2025",),
    ("bounty_hits", "get_bounty_hits", "opponent_bounty_rank"),
)
