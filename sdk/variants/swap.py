"""Swap Hold'em, MIT Pokerbots 2022: hole cards may be swapped after the flop and the turn."""

from __future__ import annotations

from ..declaration import MIT, Game, Street, mit_competition
from ..rules import Rules, SwapRules

#: 200 chips a hand, and the MIT 2022 engine's swap chances (:class:`~sdk.rules.SwapRules`).
RULES = Rules(variant="swap", starting_stack=200, swap=SwapRules())

STREETS = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop", swaps=True),
    Street(4, "turn", "Turn", swaps=True),
    Street(5, "river", "River"),
)

GAME = Game(
    "swap",
    RULES,
    STREETS,
    (MIT,),
    mit_competition("mit-2022", RULES),
    ("mit-2022",),
)
