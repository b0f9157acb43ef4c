"""The ACPC 2009 games: heads-up limit, heads-up no-limit (Doyle's game) and 3-player
limit hold'em, each played by the ACPC dealer; the heads-up ones over the MIT wire too."""

from __future__ import annotations

from ..declaration import ACPC, HOLDEM_STREETS, MIT, Game, acpc_competition
from ..rules import LimitRules, Rules

#: The ACPC dealer's stack in limit games, which set none (``INT32_MAX``): never reached.
_NO_STACK_LIMIT = 2**31 - 1


def _acpc(
    variant: str, seats: int, limit: bool, stack: int, blinds: tuple[int, int], rounds: int
) -> Rules:
    """An ACPC 2009 game: 7 s a hand of thinking time, illegal actions played as a call."""
    return Rules(
        variant=variant,
        seats=seats,
        limit=LimitRules() if limit else None,
        starting_stack=stack,
        small_blind=blinds[0],
        big_blind=blinds[1],
        num_rounds=rounds,
        game_clock=7.0 * rounds,
        all_in_checks=False,
        on_illegal="call",
    )


#: The 2009 competition's rules: heads-up limit with reverse blinds 5/10; Doyle's game,
#: heads-up no-limit with blinds 1/2 and 400 chips reset every hand; 3-player limit 5/10.
GAMES = tuple(
    Game(name, rules, HOLDEM_STREETS, wires, acpc_competition(rules), page="acpc.md")
    for name, rules, wires in (
        ("acpc-2pl", _acpc("acpc-2pl", 2, True, _NO_STACK_LIMIT, (5, 10), 3000), (ACPC, MIT)),
        ("acpc-2pn", _acpc("acpc-2pn", 2, False, 400, (1, 2), 3000), (ACPC, MIT)),
        ("acpc-3pl", _acpc("acpc-3pl", 3, True, _NO_STACK_LIMIT, (5, 10), 1000), (ACPC,)),
    )
)
