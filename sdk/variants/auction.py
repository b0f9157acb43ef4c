"""Auction Hold'em, MIT Pokerbots 2024: a sealed bid for a third hole card on the flop."""

from __future__ import annotations

from ..declaration import MIT, Game, Street, mit_competition
from ..rules import Rules

RULES = Rules(variant="auction", auction=True)

STREETS = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop", asks=("bid", "bet")),
    Street(4, "turn", "Turn"),
    Street(5, "river", "River"),
)

GAME = Game(
    "auction",
    RULES,
    STREETS,
    (MIT,),
    mit_competition("mit-2024", RULES),
    ("mit-2024",),
    ("BidAction", "BID_ACTION_TYPE", "BID"),
)
