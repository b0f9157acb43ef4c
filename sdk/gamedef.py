"""ACPC game definitions: the ``GAMEDEF ... END GAMEDEF`` text of the server's ``*.game`` files.

:func:`parse_gamedef` reads the text into a frozen :class:`GameDef`, the way the ACPC
dealer (v1.0.42) reads it: between a ``GAMEDEF`` line and an ``END GAMEDEF`` line, one
parameter per line, names in any case, an optional ``=`` before the values, blank lines
and lines starting with ``#`` skipped, and nothing read after ``END GAMEDEF``.  It is
stricter in one way: a parameter given per position or per round must give exactly one
value per position or round (the dealer would fill the missing ones silently).

Positions are ACPC's: position 0 is the first seat after the button (the big blind
heads-up, where the blinds are reversed; the small blind in ring games).  Rounds are
numbered from 0 (preflop).  ``first_player`` keeps the file's 1-based positions.

:meth:`GameDef.unplayable_reason` says whether the kit can play a game: Texas hold'em
only, with the blinds and the order of play of the ACPC hold'em games.  :data:`ACPC_GAMES`
holds the three games of the 2009 competition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Literal

from .errors import KitError
from .rules import CUSTOM, LimitRules, Rules

__all__ = [
    "ACPC_GAMES",
    "GameDef",
    "GameDefError",
    "NO_STACK_LIMIT",
    "UNLIMITED_RAISES",
    "parse_gamedef",
]

#: The ACPC dealer's stack when a game gives none (limit games): ``INT32_MAX``.
NO_STACK_LIMIT = 2**31 - 1
#: The ACPC dealer's ``maxRaises`` when a game gives none: no cap on raises.
UNLIMITED_RAISES = 255
# The ACPC dealer's bounds (MAX_PLAYERS, MAX_ROUNDS, MAX_SUITS, MAX_RANKS, MAX_HOLE_CARDS,
# MAX_BOARD_CARDS).
_MAX_PLAYERS, _MAX_ROUNDS, _MAX_SUITS, _MAX_RANKS, _MAX_HOLE, _MAX_BOARD = 10, 4, 4, 13, 3, 7

Betting = Literal["limit", "nolimit"]


class GameDefError(KitError, ValueError):
    """A game definition that cannot be read or is not a valid game; the message says why.

    ``line`` is the 1-based line of the text where the problem is, when there is one.
    """

    def __init__(self, message: str, line: int | None = None, key: str | None = None) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line
        self.key = key  # the GameDef field at fault, so the parser can point at its line


@dataclass(frozen=True, slots=True)
class GameDef:
    """One ACPC game: betting type, seats, stacks and blinds by position, and per-round rules.

    Build one with :func:`parse_gamedef` or directly; the values are checked on
    construction as the ACPC dealer checks them (:class:`GameDefError` otherwise).
    """

    betting: Betting
    num_players: int
    num_rounds: int
    #: Chips each position starts every hand with (reset every hand: "Doyle's game").
    stack: tuple[int, ...]
    #: Forced bet of each position, position 0 first.
    blind: tuple[int, ...]
    #: Limit games: the size of every bet or raise, per round.  Zero in no-limit games.
    raise_size: tuple[int, ...]
    #: The position (1-based, as in the file) that acts first in each round.
    first_player: tuple[int, ...]
    #: The most bets and raises allowed in each round; :data:`UNLIMITED_RAISES` for no cap.
    max_raises: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    #: Board cards dealt at the start of each round.
    num_board_cards: tuple[int, ...]

    def __post_init__(self) -> None:
        _validate(self)

    def unplayable_reason(self) -> str | None:
        """``None`` when the kit can play this game, else a sentence saying why it cannot.

        The kit plays Texas hold'em for 2 to 10 players: 4 suits of 13 ranks, 2 hole cards,
        4 rounds dealing 0, 3, 1 and 1 board cards; the same stack for every seat; the
        ACPC hold'em blinds (heads-up reversed: ``big small``; ring: ``small big 0 ...``)
        and order of play (first after the big blind preflop, then first after the
        button); in no-limit, no cap on raises.
        """
        if not self._is_holdem():
            return (
                f"The kit cannot play this game: it is not Texas hold'em (a deck of "
                f"{_count(self.num_suits, 'suit')} of {_count(self.num_ranks, 'rank')}, "
                f"{_count(self.num_hole_cards, 'hole card')}, "
                f"{_count(self.num_rounds, 'round')} with "
                f"{' '.join(map(str, self.num_board_cards))} board cards), and the kit plays "
                "only hold'em: 4 suits of 13 ranks, 2 hole cards, 4 rounds with 0 3 1 1 "
                "board cards."
            )
        problems = []
        heads_up = self.num_players == 2
        small, big = (self.blind[1], self.blind[0]) if heads_up else self.blind[:2]
        others = self.blind[2:]
        if not 0 < small <= big or any(others):
            layout = "big small" if heads_up else "small big " + " ".join(["0"] * len(others))
            problems.append(
                f"the blinds by position are {' '.join(map(str, self.blind))}, where the kit "
                f"needs '{layout.strip()}' with 0 < small <= big"
            )
        order = (2 if heads_up else 3, 1, 1, 1)
        if self.first_player != order:
            problems.append(
                f"firstPlayer is {' '.join(map(str, self.first_player))}, where the kit plays "
                f"{' '.join(map(str, order))} (first after the big blind preflop, then first "
                "after the button)"
            )
        if len(set(self.stack)) != 1:
            problems.append(
                f"the stacks differ by position ({' '.join(map(str, self.stack))}), where the "
                "kit gives every seat the same stack"
            )
        if self.betting == "nolimit" and any(n != UNLIMITED_RAISES for n in self.max_raises):
            problems.append(
                f"maxRaises caps the raises of a no-limit game at "
                f"{' '.join(map(str, self.max_raises))}, where the kit allows any number"
            )
        if problems:
            return "The kit cannot play this game: " + "; ".join(problems) + "."
        return None

    @property
    def playable(self) -> bool:
        """Whether the kit can play this game (see :meth:`unplayable_reason`)."""
        return self.unplayable_reason() is None

    def to_rules(self, num_rounds: int = 3000) -> Rules:
        """The :class:`~sdk.rules.Rules` of this game: ``num_rounds`` hands, 7 s a hand of
        thinking time, an all-in seat skipped and illegal actions played as a call (the
        ACPC dealer's ways).  A game the kit cannot play raises :class:`GameDefError` with
        :meth:`unplayable_reason`'s sentence.

        >>> ACPC_GAMES["acpc-3pl"].to_rules(1000).seats
        3
        """
        reason = self.unplayable_reason()
        if reason is not None:
            raise GameDefError(reason)
        heads_up = self.num_players == 2
        small, big = (self.blind[1], self.blind[0]) if heads_up else self.blind[:2]
        limit = None
        if self.betting == "limit":
            sizes, caps = self.raise_size, self.max_raises
            limit = LimitRules(
                (sizes[0], sizes[1], sizes[2], sizes[3]), (caps[0], caps[1], caps[2], caps[3])
            )
        return Rules(
            variant=CUSTOM,
            num_rounds=num_rounds,
            starting_stack=self.stack[0],
            big_blind=big,
            small_blind=small,
            game_clock=7.0 * num_rounds,
            seats=self.num_players,
            limit=limit,
            all_in_checks=False,
            on_illegal="call",
        )

    def to_text(self) -> str:
        """The game as ``GAMEDEF ... END GAMEDEF`` text, which :func:`parse_gamedef` reads back."""
        lines = ["GAMEDEF", self.betting]
        values: list[tuple[str, tuple[int, ...] | int]] = [
            ("numPlayers", self.num_players),
            ("numRounds", self.num_rounds),
        ]
        if any(n != NO_STACK_LIMIT for n in self.stack):
            values.append(("stack", self.stack))
        values.append(("blind", self.blind))
        if self.betting == "limit" or any(self.raise_size):
            values.append(("raiseSize", self.raise_size))
        values.append(("firstPlayer", self.first_player))
        if any(n != UNLIMITED_RAISES for n in self.max_raises):
            values.append(("maxRaises", self.max_raises))
        values += [
            ("numSuits", self.num_suits),
            ("numRanks", self.num_ranks),
            ("numHoleCards", self.num_hole_cards),
            ("numBoardCards", self.num_board_cards),
        ]
        for name, value in values:
            shown = " ".join(map(str, value)) if isinstance(value, tuple) else str(value)
            lines.append(f"{name} = {shown}")
        lines.append("END GAMEDEF")
        return "\n".join(lines) + "\n"

    def _is_holdem(self) -> bool:
        """Texas hold'em's deck, hole cards and board."""
        return (
            (self.num_suits, self.num_ranks, self.num_hole_cards, self.num_rounds) == (4, 13, 2, 4)
        ) and self.num_board_cards == (0, 3, 1, 1)


@dataclass(frozen=True, slots=True)
class _Parameter:
    """One parameter of a game file: its spelling, its GameDef field, how many values."""

    name: str  # as the ACPC files spell it; read in any case
    field: str
    per: Literal["game", "position", "round"]  # one value per game, position or round
    example: str | None  # shown when a required parameter is missing; None: optional


_PARAMETERS = (
    _Parameter("numPlayers", "num_players", "game", "2"),
    _Parameter("numRounds", "num_rounds", "game", "4"),
    _Parameter("stack", "stack", "position", None),
    _Parameter("blind", "blind", "position", "10 5"),
    _Parameter("raiseSize", "raise_size", "round", None),
    _Parameter("firstPlayer", "first_player", "round", None),
    _Parameter("maxRaises", "max_raises", "round", None),
    _Parameter("numSuits", "num_suits", "game", "4"),
    _Parameter("numRanks", "num_ranks", "game", "13"),
    _Parameter("numHoleCards", "num_hole_cards", "game", "2"),
    _Parameter("numBoardCards", "num_board_cards", "round", "0 3 1 1"),
)
_BY_NAME = {parameter.name.lower(): parameter for parameter in _PARAMETERS}
_BY_FIELD = {parameter.field: parameter for parameter in _PARAMETERS}
# How error messages name a GameDef field: its spelling in the files.
_SPELLING = {parameter.field: parameter.name for parameter in _PARAMETERS} | {
    "betting": "limit/nolimit"
}


def parse_gamedef(text: str) -> GameDef:
    """Read ``GAMEDEF ... END GAMEDEF`` text (an ACPC ``.game`` file) into a :class:`GameDef`.

    Raises :class:`GameDefError` naming the line and what is wrong with it.
    """
    lines = text.splitlines()
    start = _find_start(lines)
    seen: dict[str, tuple[int, list[int]]] = {}  # GameDef field -> (line, values)
    betting: tuple[int, Betting] | None = None
    end = None
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1].strip()
        if not line or line.startswith("#"):
            continue
        lowered = line.lower()
        if lowered.split() == ["end", "gamedef"]:
            end = number
            break
        name, rest = _split(line)
        if not name:
            raise GameDefError(f"expected a parameter name at the start of {line!r}.", number)
        if name.lower() in ("limit", "nolimit"):
            if rest:
                raise GameDefError(f"'{name}' takes no values, but the line has {rest!r}.", number)
            if betting is not None:
                raise GameDefError(
                    f"the betting type is given twice (here and on line {betting[0]}); "
                    "keep one 'limit' or 'nolimit' line.",
                    number,
                )
            betting = (number, "limit" if name.lower() == "limit" else "nolimit")
            continue
        if name.lower() == "gamedef":
            raise GameDefError("a second GAMEDEF before END GAMEDEF closes the first.", number)
        if name.lower() not in _BY_NAME:
            raise GameDefError(
                f"unknown parameter {name!r}; the parameters are limit, nolimit, "
                + ", ".join(parameter.name for parameter in _PARAMETERS)
                + ".",
                number,
            )
        key = _BY_NAME[name.lower()].field
        if key in seen:
            raise GameDefError(
                f"{_SPELLING[key]} is given twice (here and on line {seen[key][0]}); keep one.",
                number,
            )
        seen[key] = (number, _numbers(rest, key, number))
    if end is None:
        raise GameDefError(
            f"the text ends at line {len(lines)} without an END GAMEDEF line; "
            "add one after the parameters."
        )
    return _build(seen, betting, start, end)


def _find_start(lines: list[str]) -> int:
    """The 1-based line of ``GAMEDEF``; only comments and blank lines may come before it."""
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.lower() == "gamedef":
            return number
        raise GameDefError(
            f"expected the line GAMEDEF before the game's parameters, found {line!r}.", number
        )
    raise GameDefError("the text has no GAMEDEF line: a game definition starts with GAMEDEF.")


def _split(line: str) -> tuple[str, str]:
    """``name = values`` or ``name values`` -> (name, values); the name is the leading letters."""
    name_end = 0
    while name_end < len(line) and line[name_end].isalpha():
        name_end += 1
    name, rest = line[:name_end], line[name_end:].strip()
    return name, rest[1:].strip() if rest.startswith("=") else rest


def _numbers(rest: str, key: str, number: int) -> list[int]:
    """The whole numbers after a parameter's name."""
    if not rest:
        raise GameDefError(f"{_SPELLING[key]} has no value.", number)
    values = []
    for word in rest.split():
        try:
            values.append(int(word))
        except ValueError:
            raise GameDefError(
                f"{_SPELLING[key]} takes whole numbers separated by spaces, not {word!r}.", number
            ) from None
    return values


def _build(
    seen: dict[str, tuple[int, list[int]]],
    betting: tuple[int, Betting] | None,
    start: int,
    end: int,
) -> GameDef:
    """The GameDef from the parsed lines: defaults, counts per position and round, checks."""
    for parameter in _PARAMETERS:
        if parameter.example is not None and parameter.field not in seen:
            raise GameDefError(
                f"the game definition (lines {start}-{end}) has no {parameter.name} line; "
                f"add one, for example '{parameter.name} = {parameter.example}'."
            )
    kind: Betting = betting[1] if betting is not None else "limit"  # the dealer's default
    if kind == "limit" and "raise_size" not in seen:
        raise GameDefError(
            f"a limit game needs raiseSize (the bet size of each round), for example "
            f"'raiseSize = 10 10 20 20'; lines {start}-{end} have none."
        )
    single = {}
    for key, (number, values) in seen.items():
        if _BY_FIELD[key].per == "game":
            if len(values) != 1:
                raise GameDefError(f"{_SPELLING[key]} takes one value, not {len(values)}.", number)
            single[key] = values[0]
    players, rounds = single["num_players"], single["num_rounds"]
    if not 2 <= players <= _MAX_PLAYERS:
        raise GameDefError(
            f"numPlayers is {players}; the ACPC dealer plays 2 to {_MAX_PLAYERS} players.",
            seen["num_players"][0],
        )
    if not 1 <= rounds <= _MAX_ROUNDS:
        raise GameDefError(
            f"numRounds is {rounds}; the ACPC dealer plays 1 to {_MAX_ROUNDS} rounds.",
            seen["num_rounds"][0],
        )
    defaults = {
        "stack": [NO_STACK_LIMIT] * players,
        "raise_size": [0] * rounds,
        "first_player": [1] * rounds,
        "max_raises": [UNLIMITED_RAISES] * rounds,
    }
    lists: dict[str, tuple[int, ...]] = {}
    for key in ("stack", "blind", "raise_size", "first_player", "max_raises", "num_board_cards"):
        if key not in seen:
            lists[key] = tuple(defaults[key])
            continue
        number, values = seen[key]
        per = _BY_FIELD[key].per
        needed, what = (players, "numPlayers") if per == "position" else (rounds, "numRounds")
        if len(values) != needed:
            raise GameDefError(
                f"{_SPELLING[key]} has {len(values)} values, but {what} is {needed}: give one "
                f"per {per}{' (0 for no blind)' if key == 'blind' else ''}.",
                number,
            )
        lists[key] = tuple(values)
    try:
        return GameDef(
            betting=kind,
            num_players=players,
            num_rounds=rounds,
            stack=lists["stack"],
            blind=lists["blind"],
            raise_size=lists["raise_size"],
            first_player=lists["first_player"],
            max_raises=lists["max_raises"],
            num_suits=single["num_suits"],
            num_ranks=single["num_ranks"],
            num_hole_cards=single["num_hole_cards"],
            num_board_cards=lists["num_board_cards"],
        )
    except GameDefError as error:
        if error.key in seen:
            raise GameDefError(str(error), seen[error.key][0]) from None
        raise


def _validate(game: GameDef) -> None:
    """The checks the ACPC dealer makes on a game, as sentences naming the parameter."""

    def fail(key: str, message: str) -> None:
        raise GameDefError(f"{_SPELLING[key]}: {message}", key=key)

    if game.betting not in ("limit", "nolimit"):
        fail("betting", f"the betting type is {game.betting!r}; use 'limit' or 'nolimit'.")
    for item in fields(game):
        value = getattr(game, item.name)
        numbers = value if isinstance(value, tuple) else (value,)
        if item.name != "betting" and not all(
            isinstance(n, int) and not isinstance(n, bool) for n in numbers
        ):
            fail(item.name, f"{value!r} is not whole numbers.")
    players, rounds = game.num_players, game.num_rounds
    if not 2 <= players <= _MAX_PLAYERS:
        fail("num_players", f"{players} players; the ACPC dealer plays 2 to {_MAX_PLAYERS}.")
    if not 1 <= rounds <= _MAX_ROUNDS:
        fail("num_rounds", f"{rounds} rounds; the ACPC dealer plays 1 to {_MAX_ROUNDS}.")
    for key in ("stack", "blind"):
        if len(getattr(game, key)) != players:
            fail(key, f"{len(getattr(game, key))} values for {players} positions; give one each.")
    for key in ("raise_size", "first_player", "max_raises", "num_board_cards"):
        if len(getattr(game, key)) != rounds:
            fail(key, f"{len(getattr(game, key))} values for {rounds} rounds; give one each.")
    for position, (stack, blind) in enumerate(zip(game.stack, game.blind, strict=True)):
        if not 0 < stack <= NO_STACK_LIMIT:
            fail("stack", f"position {position} starts with {stack} chips; give 1 or more.")
        if blind < 0:
            fail("blind", f"position {position}'s blind is {blind}; a blind is 0 or more.")
        if blind > stack:
            fail("blind", f"position {position}'s blind of {blind} is more than its stack {stack}.")
    if game.betting == "limit" and any(size <= 0 for size in game.raise_size):
        fail("raise_size", "a limit game needs a bet size of 1 or more in every round.")
    if any(size < 0 for size in game.raise_size):
        fail("raise_size", "a bet size is 0 or more.")
    if not all(1 <= first <= players for first in game.first_player):
        fail("first_player", f"each round's first player is a position from 1 to {players}.")
    if not all(0 <= cap <= UNLIMITED_RAISES for cap in game.max_raises):
        fail("max_raises", f"a round's cap on raises is 0 to {UNLIMITED_RAISES} (no cap).")
    if not 1 <= game.num_suits <= _MAX_SUITS:
        fail("num_suits", f"{game.num_suits} suits; a deck has 1 to {_MAX_SUITS}.")
    if not 1 <= game.num_ranks <= _MAX_RANKS:
        fail("num_ranks", f"{game.num_ranks} ranks; a deck has 1 to {_MAX_RANKS}.")
    if not 1 <= game.num_hole_cards <= _MAX_HOLE:
        fail("num_hole_cards", f"{game.num_hole_cards}; each player gets 1 to {_MAX_HOLE} cards.")
    board = game.num_board_cards
    if any(n < 0 for n in board) or sum(board) > _MAX_BOARD:
        fail("num_board_cards", f"{board}: 0 or more per round, at most {_MAX_BOARD} in all.")
    dealt = players * game.num_hole_cards + sum(board)
    deck = game.num_suits * game.num_ranks
    if dealt > deck:
        fail(
            "num_board_cards",
            f"the game deals {dealt} cards ({players} x {game.num_hole_cards} hole cards and "
            f"{sum(board)} on the board) from a deck of {deck}.",
        )


def _count(number: int, noun: str) -> str:
    """``3 rounds``, ``1 suit``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _holdem(
    betting: Betting,
    blind: tuple[int, ...],
    stack: int = NO_STACK_LIMIT,
    raise_size: tuple[int, ...] = (0, 0, 0, 0),
    max_raises: tuple[int, ...] = (UNLIMITED_RAISES,) * 4,
) -> GameDef:
    """A Texas hold'em GameDef with the ACPC order of play for its number of players."""
    players = len(blind)
    return GameDef(
        betting=betting,
        num_players=players,
        num_rounds=4,
        stack=(stack,) * players,
        blind=blind,
        raise_size=raise_size,
        first_player=(2 if players == 2 else 3, 1, 1, 1),
        max_raises=max_raises,
        num_suits=4,
        num_ranks=13,
        num_hole_cards=2,
        num_board_cards=(0, 3, 1, 1),
    )


#: The three games of the ACPC 2009 competition, by the kit's variant label.
#:
#: * ``acpc-2pl``: heads-up limit, reverse blinds 5/10, bets 10/10/20/20, caps 3/4/4/4.
#: * ``acpc-2pn``: heads-up no-limit "Doyle's game", reverse blinds 1/2, 400 chips each,
#:   reset every hand (the 2009 rules; the server's example file plays 50/100 with 20,000).
#: * ``acpc-3pl``: three-player limit, blinds 5/10, bets 10/10/20/20, caps 3/4/4/4.
ACPC_GAMES: Mapping[str, GameDef] = MappingProxyType(
    {
        "acpc-2pl": _holdem("limit", (10, 5), raise_size=(10, 10, 20, 20), max_raises=(3, 4, 4, 4)),
        "acpc-2pn": _holdem("nolimit", (2, 1), stack=400),
        "acpc-3pl": _holdem(
            "limit", (5, 10, 0), raise_size=(10, 10, 20, 20), max_raises=(3, 4, 4, 4)
        ),
    }
)
