"""No-limit hold'em as the MIT base engine plays it (the kit's default game)."""

from __future__ import annotations

from ..declaration import HOLDEM_STREETS, MIT, Game, mit_competition
from ..rules import Rules

RULES = Rules(variant="nlhe")

GAME = Game("nlhe", RULES, HOLDEM_STREETS, (MIT,), mit_competition(None, RULES))
