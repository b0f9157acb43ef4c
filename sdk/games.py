"""Every game the kit plays, each declared once: its rules, its streets, its wires, its
competition.

A :class:`Game` names a preset of :class:`~sdk.rules.Rules` and adds what the rules object
does not say: the streets as data (how many board cards each has, what the players are
asked there, and the names people and the MIT gamelog give them), the wire protocols a bot
may speak in it (the first is the game's own), and the facts of the competition it comes
from (season, hands per match, the clock for that many hands, the limits on building,
connecting and answering).  :data:`GAMES` is the registry; :func:`find_game` reads a name
or a season's alias (``mit-2026`` is ``toss``) and says which names there are when it knows
none.  Every consumer (the runner's logs and views, the command line's choices, validate's
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

from dataclasses import dataclass

from .rules import PRESETS, Rules, RulesError

__all__ = [
    "ACPC",
    "GAMES",
    "MIT",
    "SEASONS",
    "Competition",
    "Game",
    "Street",
    "find_game",
    "game_of",
    "games_speaking",
    "native_wire",
    "street_named",
    "streets_of",
]

#: The wire protocols: the MIT Pokerbots engines' and the ACPC dealer's.
MIT = "mit"
ACPC = "acpc"

#: What a player can be asked on a street.
_ASKS = frozenset({"bet", "bid", "discard"})


@dataclass(frozen=True, slots=True)
class Street:
    """One street of a hand: ``board`` is its number (the board cards once it is dealt, as
    ``RoundState.street`` counts), ``asks`` what the players are asked there in order,
    ``name`` what people call it, ``log_name`` the label of the MIT gamelog's line for it
    (None: the street has no line, as preflop), and ``swaps`` whether hole cards may be
    swapped after its betting (Swap Hold'em)."""

    board: int
    name: str
    log_name: str | None
    asks: tuple[str, ...] = ("bet",)
    swaps: bool = False


@dataclass(frozen=True, slots=True)
class Competition:
    """The facts of the competition a game comes from, as its server applies them.

    ``rounds`` hands per match and ``clock`` seconds of thinking time for that many hands
    (a different number of hands gets the clock in proportion: :meth:`clock_for`).  The
    limits are seconds, None where the server sets none: ``build`` for the build step,
    ``connect`` for the bot to connect, ``response`` for one reply, ``hand`` for all of a
    seat's replies in one hand.
    """

    name: str
    season: str | None
    profile: str
    rounds: int
    clock: float
    build: float | None
    connect: float | None
    response: float | None
    hand: float | None = None

    def clock_for(self, rounds: int) -> float:
        """The clock for a match of ``rounds`` hands: the competition's, in proportion.

        >>> find_game("nlhe").competition.clock_for(30_000)
        900.0
        """
        return self.clock * rounds / self.rounds


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its name, the aliases it answers to, its rules, streets, wires and
    competition.  Made only by this module; it checks itself when it is made."""

    name: str
    rules: Rules
    streets: tuple[Street, ...]
    wires: tuple[str, ...]
    competition: Competition
    aliases: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    """Identifiers that only this game's own skeletons use (in Python, C++ or Java), by
    which a bot written for it is recognised from its files (``DiscardAction``)."""

    def __post_init__(self) -> None:
        problems = []
        if self.rules.variant != self.name:
            problems.append(f"its rules are those of {self.rules.variant!r}")
        boards = [street.board for street in self.streets]
        if not boards or boards[0] != 0 or boards != sorted(set(boards)):
            problems.append(f"its streets' board counts {boards} do not rise from 0")
        for street in self.streets:
            unknown = set(street.asks) - _ASKS
            if unknown or not street.asks:
                problems.append(f"street {street.name!r} asks {street.asks}")
        if not self.wires or set(self.wires) - {MIT, ACPC}:
            problems.append(f"its wires are {self.wires}")
        if MIT in self.wires and self.rules.seats != 2:
            problems.append(f"the MIT wire seats two players, not {self.rules.seats}")
        if any(s.swaps for s in self.streets) != (self.rules.swap is not None):
            problems.append("its swap streets and its rules' swaps disagree")
        if any("bid" in s.asks for s in self.streets) != self.rules.auction:
            problems.append("its bid street and its rules' auction disagree")
        if any("discard" in s.asks for s in self.streets) != self.rules.discard:
            problems.append("its discard streets and its rules' discards disagree")
        if self.competition.rounds != self.rules.num_rounds:
            problems.append("its competition's hands and its rules' hands differ")
        if self.competition.clock != self.rules.game_clock:
            problems.append("its competition's clock and its rules' clock differ")
        if problems:
            raise RulesError(f"The game {self.name!r} contradicts itself: {'; '.join(problems)}.")

    @property
    def native_wire(self) -> str:
        """The wire the game's own server speaks."""
        return self.wires[0]


_HOLDEM = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop"),
    Street(4, "turn", "Turn"),
    Street(5, "river", "River"),
)
_SWAP = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop", swaps=True),
    Street(4, "turn", "Turn", swaps=True),
    Street(5, "river", "River"),
)
_AUCTION = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop", asks=("bid", "bet")),
    Street(4, "turn", "Turn"),
    Street(5, "river", "River"),
)
#: The MIT 2026 engine names a street by the street before it: its "Flop" line opens the
#: street on which the big blind discards.
_TOSS = (
    Street(0, "preflop", None),
    Street(2, "flop", "Flop", asks=("discard",)),
    Street(3, "discard 1", "Discard 1", asks=("discard",)),
    Street(4, "discard 2", "Discard 2"),
    Street(5, "turn", "Turn"),
    Street(6, "river", "River"),
)


def _mit(season: str | None, name: str) -> Competition:
    """An MIT Pokerbots season as its scrimmage server runs it: 180 s to build, 10 s to
    connect, and 10 s for any one reply (the engine's socket timeout, hidden in its config)."""
    rules = PRESETS[name]
    title = f"MIT Pokerbots {season[4:]}" if season else "MIT Pokerbots (base engine)"
    return Competition(title, season, MIT, rules.num_rounds, rules.game_clock, 180.0, 10.0, 10.0)


def _acpc(name: str) -> Competition:
    """An ACPC 2009 game as the ACPC server's check plays it: 7 s a hand on average, 600 s
    for one response, 21,000 s for one hand, and no limit on connecting or building."""
    rules = PRESETS[name]
    return Competition(
        "ACPC 2009", None, ACPC, rules.num_rounds, rules.game_clock, None, None, 600.0, 21000.0
    )


#: Every game the kit plays, by name, in the order of :data:`sdk.rules.VARIANTS`.
GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game("nlhe", PRESETS["nlhe"], _HOLDEM, (MIT,), _mit(None, "nlhe")),
        Game("swap", PRESETS["swap"], _SWAP, (MIT,), _mit("mit-2022", "swap"), ("mit-2022",)),
        Game(
            "auction",
            PRESETS["auction"],
            _AUCTION,
            (MIT,),
            _mit("mit-2024", "auction"),
            ("mit-2024",),
            ("BidAction", "BID_ACTION_TYPE", "BID"),
        ),
        Game(
            "bounty",
            PRESETS["bounty"],
            _HOLDEM,
            (MIT,),
            _mit("mit-2025", "bounty"),
            ("mit-2025",),
            ("bounty_hits", "get_bounty_hits", "opponent_bounty_rank"),
        ),
        Game(
            "toss",
            PRESETS["toss"],
            _TOSS,
            (MIT,),
            _mit("mit-2026", "toss"),
            ("mit-2026",),
            ("DiscardAction", "DISCARD_ACTION_TYPE", "DISCARD"),
        ),
        Game("acpc-2pl", PRESETS["acpc-2pl"], _HOLDEM, (ACPC, MIT), _acpc("acpc-2pl")),
        Game("acpc-2pn", PRESETS["acpc-2pn"], _HOLDEM, (ACPC, MIT), _acpc("acpc-2pn")),
        Game("acpc-3pl", PRESETS["acpc-3pl"], _HOLDEM, (ACPC,), _acpc("acpc-3pl")),
    )
}
assert tuple(GAMES) == tuple(PRESETS), "one declaration per preset"

#: Each season's alias -> its game's name (``mit-2026`` -> ``toss``).
SEASONS: dict[str, str] = {alias: game.name for game in GAMES.values() for alias in game.aliases}


def find_game(name: str) -> Game:
    """The game called ``name`` or one of its aliases; a RulesError naming the known ones."""
    game = GAMES.get(name) or GAMES.get(SEASONS.get(name, ""))
    if game is None:
        names = [*GAMES, *SEASONS]
        raise RulesError(f"Unknown variant {name!r}; choose one of: {', '.join(names)}.")
    return game


def streets_of(rules: Rules) -> tuple[Street, ...]:
    """The streets of the game ``rules`` play: its declaration's, or for rules combined by
    hand (and game files) those of the declared game with the same hooks.

    >>> [s.log_name for s in streets_of(find_game("toss").rules)][1:3]
    ['Flop', 'Discard 1']
    """
    game = game_of(rules)
    if game is not None:
        return game.streets
    if rules.discard:
        return _TOSS
    if rules.auction:
        return _AUCTION
    return _SWAP if rules.swap is not None else _HOLDEM


def street_named(rules: Rules, board: int) -> Street:
    """The street of ``rules``' game with ``board`` board cards (a RulesError if none)."""
    for street in streets_of(rules):
        if street.board == board:
            return street
    raise RulesError(f"{rules.variant} has no street with {board} board cards.")


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
