"""Toss Hold'em, MIT Pokerbots 2026: three hole cards, each player discards one face up
onto a two-card flop (the big blind first), then betting goes on to a six-card board."""

from __future__ import annotations

from ..declaration import MIT, Game, Street, mit_competition
from ..rules import Rules

#: A 60 s clock; as in 2025, a player may fold when a check is free.
RULES = Rules(variant="toss", game_clock=60.0, discard=True, fold_always_legal=True)

#: The MIT 2026 engine names a street by the street before it: its "Flop" line opens the
#: street on which the big blind discards.  On the second discard street the small blind
#: (seat 0, the button) discards first.
STREETS = (
    Street(0, "preflop", None),
    Street(2, "flop", "Flop", asks=("discard",)),
    Street(3, "discard 1", "Discard 1", asks=("discard",), opener=0),
    Street(4, "discard 2", "Discard 2"),
    Street(5, "turn", "Turn"),
    Street(6, "river", "River"),
)

GAME = Game(
    "toss",
    RULES,
    STREETS,
    (MIT,),
    mit_competition("mit-2026", RULES),
    ("mit-2026",),
    ("DiscardAction", "DISCARD_ACTION_TYPE", "DISCARD"),
)
