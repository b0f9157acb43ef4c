"""How a game is declared: its streets, its wires, its competition (the types and the two
competitions' common shapes).

A game's own module in :mod:`sdk.variants` makes one :class:`Game` from these; the registry
:mod:`sdk.games` collects them.  A :class:`Game` checks itself when it is made, so a
declaration that contradicts itself is refused as the kit is imported, not in a match.

>>> from sdk.games import PRESETS
>>> HOLDEM_STREETS[-1].name, mit_competition("mit-2026", PRESETS["toss"]).clock
('river', 60.0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .rules import Rules, RulesError

__all__ = [
    "ACPC",
    "HOLDEM_STREETS",
    "MIT",
    "Competition",
    "Game",
    "Street",
    "acpc_competition",
    "mit_competition",
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
    swapped after its betting (Swap Hold'em).

    ``opener`` is the seat, counted from the button, that acts first heads-up (None: the
    usual seat, the first after the big blind preflop and after the button later).  ``more``
    makes a street that is played only while it holds of the board so far (the cards of the
    streets before it), and then again with one more card each time while it still holds:
    River of Blood Hold'em's runs, dealt while the newest card is red.
    """

    board: int
    name: str
    log_name: str | None
    asks: tuple[str, ...] = ("bet",)
    swaps: bool = False
    opener: int | None = None
    more: Callable[[tuple[str, ...]], bool] | None = None


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

        >>> from sdk.games import PRESETS
        >>> mit_competition(None, PRESETS["nlhe"]).clock_for(30_000)
        900.0
        """
        return self.clock * rounds / self.rounds


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its name, the aliases it answers to, its rules, streets, wires and
    competition.  Each is made by its game's module in :mod:`sdk.variants`, and checks
    itself when it is made."""

    name: str
    rules: Rules
    streets: tuple[Street, ...]
    wires: tuple[str, ...]
    competition: Competition
    aliases: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    """Identifiers that only this game's own skeletons use (in Python, C++ or Java), by
    which a bot written for it is recognised from its files (``DiscardAction``)."""
    page: str | None = None
    """The game's page in the kit's ``docs/variants/`` (None: ``<name>.md``)."""

    def __post_init__(self) -> None:
        problems = []
        if self.rules.variant != self.name:
            problems.append(f"its rules are those of {self.rules.variant!r}")
        boards = [street.board for street in self.streets]
        if not boards or boards[0] != 0 or boards != sorted(set(boards)):
            problems.append(f"its streets' board counts {boards} do not rise from 0")
        for number, street in enumerate(self.streets):
            unknown = set(street.asks) - _ASKS
            if unknown or not street.asks:
                problems.append(f"street {street.name!r} asks {street.asks}")
            if street.more is not None and number != len(self.streets) - 1:
                problems.append(f"street {street.name!r} repeats but is not the last street")
            if street.opener is not None and street.opener not in range(self.rules.seats):
                problems.append(f"street {street.name!r} opens with seat {street.opener}")
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
    def docs_page(self) -> str:
        """The file name of the game's page in ``docs/variants/``."""
        return self.page or f"{self.name}.md"

    @property
    def native_wire(self) -> str:
        """The wire the game's own server speaks."""
        return self.wires[0]


#: The streets of hold'em: preflop, then the flop, turn and river, each a betting round.
HOLDEM_STREETS = (
    Street(0, "preflop", None),
    Street(3, "flop", "Flop"),
    Street(4, "turn", "Turn"),
    Street(5, "river", "River"),
)


def mit_competition(season: str | None, rules: Rules) -> Competition:
    """An MIT Pokerbots season as its scrimmage server runs it: 180 s to build, 10 s to
    connect, and 10 s for any one reply (the engine's socket timeout, hidden in its config);
    the hands and the clock are the season's ``rules``'."""
    title = f"MIT Pokerbots {season[4:]}" if season else "MIT Pokerbots (base engine)"
    return Competition(title, season, MIT, rules.num_rounds, rules.game_clock, 180.0, 10.0, 10.0)


def acpc_competition(rules: Rules) -> Competition:
    """An ACPC 2009 game as the ACPC server's check plays it: 7 s a hand on average, 600 s
    for one response, 21,000 s for one hand, and no limit on connecting or building."""
    return Competition(
        "ACPC 2009", None, ACPC, rules.num_rounds, rules.game_clock, None, None, 600.0, 21000.0
    )
