"""Every game the kit plays, each declared once: its rules, its streets, its wires, its
competition.

A :class:`Game` names a preset of :class:`~sdk.rules.Rules` and adds what the rules object
does not say: the streets as data (how many board cards each has, what the players are
asked there, and the names people and the MIT gamelog give them), the wire protocols a bot
may speak in it (the first is the game's own), and the facts of the competition it comes
from (season, hands per match, the clock for that many hands, the limits on building,
connecting and answering).  :data:`GAMES` is the registry; :func:`find_game` reads a name
or a season's alias (``mit-2026`` is ``toss``) and says which names there are when it knows
none.  Each game is declared in its own module of :mod:`sdk.variants` (the types are
:mod:`sdk.declaration`'s); adding a game is adding such a module and its line here.  Every
consumer (the runner's logs and views, the command line's choices, validate's
profiles, the template) reads these declarations instead of spelling a street, a wire or
a limit of its own.

>>> find_game("mit-2026").name, find_game("toss").competition.season
('toss', 'mit-2026')
>>> [street.name for street in find_game("nlhe").streets]
['preflop', 'flop', 'turn', 'river']
>>> find_game("acpc-3pl").wires
('acpc',)
"""

from __future__ import annotations

from dataclasses import replace

from .declaration import ACPC, MIT, Competition, Game, Street
from .rules import Rules, RulesError
from .variants import acpc, auction, blood, bounty, nlhe, permuted, swap, toss

__all__ = [
    "ACPC",
    "ACPC_DEFAULT_GAME",
    "GAMES",
    "MIT",
    "MIT_VARIANTS",
    "PRESETS",
    "SEASONS",
    "VARIANTS",
    "Competition",
    "Game",
    "Street",
    "find_game",
    "game_of",
    "games_speaking",
    "native_wire",
    "street_named",
    "streets_of",
    "swap_chance",
    "swap_streets",
]

#: The ACPC game played when nothing names one (a bot on the ACPC wire that says no game, the
#: acpc profile) and whose competition a game definition file follows: heads-up no-limit,
#: the game of the ACPC server's own submission check.
ACPC_DEFAULT_GAME = "acpc-2pn"

#: Every game the kit plays, by name: the MIT seasons' games (no-limit hold'em first, the
#: kit's default), then the ACPC games.
GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        nlhe.GAME,
        swap.GAME,
        auction.GAME,
        bounty.GAME,
        toss.GAME,
        blood.GAME,
        permuted.GAME,
        *acpc.GAMES,
    )
}
#: Every game's preset of :class:`~sdk.rules.Rules` (its competition's defaults), by name.
PRESETS: dict[str, Rules] = {name: game.rules for name, game in GAMES.items()}
#: Every game's name: the choices of ``--variant``, ``pokerbots new`` and validate.
VARIANTS: tuple[str, ...] = tuple(GAMES)
#: The games of the MIT Pokerbots seasons, which the ``mit`` profile checks.
MIT_VARIANTS: tuple[str, ...] = tuple(
    name for name, game in GAMES.items() if game.competition.profile == MIT
)

#: Each season's alias -> its game's name (``mit-2026`` -> ``toss``).
SEASONS: dict[str, str] = dict(
    sorted((alias, game.name) for game in GAMES.values() for alias in game.aliases)
)


def find_game(name: str) -> Game:
    """The game called ``name`` or one of its aliases; a RulesError naming the known ones."""
    game = GAMES.get(name) or GAMES.get(SEASONS.get(name, ""))
    if game is None:
        names = [*GAMES, *SEASONS]
        raise RulesError(f"Unknown variant {name!r}; choose one of: {', '.join(names)}.")
    return game


def streets_of(rules: Rules) -> tuple[Street, ...]:
    """The streets of the game ``rules`` play: its declaration's, or for rules combined by
    hand (and game files) those the hooks make: Toss Hold'em's with discards, else hold'em's
    with Swap Hold'em's swap streets and Auction Hold'em's bids as the hooks say.

    >>> [s.log_name for s in streets_of(find_game("toss").rules)][1:3]
    ['Flop', 'Discard 1']
    """
    game = game_of(rules)
    if game is not None:
        return game.streets
    if rules.discard:
        return toss.STREETS
    streets = swap.STREETS if rules.swap is not None else nlhe.GAME.streets
    if rules.auction:  # the auction's bids open the flop, swaps or not
        bid_boards = {street.board for street in auction.STREETS if "bid" in street.asks}
        streets = tuple(
            replace(street, asks=("bid", *street.asks)) if street.board in bid_boards else street
            for street in streets
        )
    return streets


def street_named(rules: Rules, board: int) -> Street:
    """The street of ``rules``' game with ``board`` board cards (a RulesError if none): a
    repeating street (River of Blood's runs) stands for every board from its own on.

    >>> street_named(find_game("mit-2023").rules, 9).log_name
    'Run'
    """
    streets = streets_of(rules)
    for street in streets:
        if street.board == board:
            return street
    last = streets[-1]
    if last.more is not None and last.board < board <= 52:
        return last
    raise RulesError(f"{rules.variant} has no street with {board} board cards.")


def swap_streets(rules: Rules) -> tuple[int, ...]:
    """The streets (by board count) as whose cards are dealt hole cards may be swapped.

    >>> swap_streets(find_game("mit-2022").rules), swap_streets(find_game("nlhe").rules)
    ((3, 4), ())
    """
    if rules.swap is None:
        return ()
    return tuple(street.board for street in streets_of(rules) if street.swaps)


def swap_chance(rules: Rules, board: int) -> float:
    """The chance that each hole card is swapped as street ``board`` is dealt: the swap
    rules' field named after that street (``flop``, ``turn``); 0 on other streets.

    >>> swap_chance(find_game("swap").rules, 4), swap_chance(find_game("swap").rules, 5)
    (0.05, 0.0)
    """
    if board not in swap_streets(rules):
        return 0.0
    chance: float = getattr(rules.swap, street_named(rules, board).name)
    return chance


def games_speaking(wire: str) -> tuple[str, ...]:
    """The games a bot may play over ``wire`` (:data:`MIT` or :data:`ACPC`).

    >>> games_speaking(ACPC)
    ('acpc-2pl', 'acpc-2pn', 'acpc-3pl')
    """
    return tuple(name for name, game in GAMES.items() if wire in game.wires)


def native_wire(rules: Rules) -> str:
    """The wire of the server that plays ``rules``' game: a declared game's own, and for an
    undeclared one (a game definition file, rules combined by hand) the ACPC wire when it
    plays the ACPC ways (an illegal action played as a call, no checks after an all-in)."""
    game = game_of(rules)
    if game is not None:
        return game.native_wire
    return ACPC if rules.on_illegal == "call" and not rules.all_in_checks else MIT


def game_of(rules: Rules) -> Game | None:
    """The declared game whose preset ``rules`` play (None for custom rules and game files)."""
    return GAMES.get(rules.variant)
