"""River of Blood Hold'em, MIT Pokerbots 2023: no-limit hold'em in which the board does not
stop at the river.  While the newest board card is red (a diamond or a heart), one more card
is dealt and a full betting round is played on it, the big blind first; the hand ends with
the betting round after the first black card from the river on.  A board can grow to 31
cards (26 red cards after the first five), and the showdown is the best five of all.

>>> from sdk.games import find_game
>>> [street.name for street in find_game("mit-2023").streets]
['preflop', 'flop', 'turn', 'river', 'run']
>>> newest_is_red(("Js", "6d", "6c", "Qs", "6h")), newest_is_red(("Js", "6d", "6c", "Qs", "6s"))
(True, False)
"""

from __future__ import annotations

from ..declaration import MIT, Game, Street, mit_competition
from ..rules import Rules


def newest_is_red(board: tuple[str, ...]) -> bool:
    """Whether another run follows a street with this board: its newest card is red."""
    return board[-1][-1] in "dh"


#: No-limit hold'em's rules: the runs past the river are streets of this declaration, not a
#: rules hook.
RULES = Rules(variant="blood")

#: The MIT 2023 engine labels every street past the river "Run" in its gamelog.
STREETS = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop"),
    Street(4, "turn", "Turn"),
    Street(5, "river", "River"),
    Street(6, "run", "Run", more=newest_is_red),
)

GAME = Game(
    "blood",
    RULES,
    STREETS,
    (MIT,),
    mit_competition("mit-2023", RULES),
    ("mit-2023",),
)
