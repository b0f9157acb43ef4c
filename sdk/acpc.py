"""The ACPC wire: the one codec for the text of the ACPC protocol (version 2.0.0), both sides.

The bot client and the engine's ACPC view both use this module; see ``docs/acpc-protocol.md``
for the wire in full.  In short:

* the client's first line is :data:`VERSION_LINE`;
* the dealer sends every seat a ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` line after
  every action (:class:`MatchState`, :func:`parse_match_state`, :func:`format_match_state`);
* the seat to act answers with the state it was sent, ``:`` and one action
  (:func:`format_reply`, :func:`parse_reply`);
* lines end with ``\\r\\n`` (``\\n`` is accepted), are at most :data:`MAX_LINE_BYTES` bytes,
  and a line starting with ``#`` or ``;`` is a comment;
* a no-limit raise is written as the raiser's total for the hand (:func:`to_street_raise`
  and :func:`to_hand_total` are the only conversion to and from the kit's street amounts);
* positions count from the first seat after the button and rotate every hand
  (:func:`seat_of_position`, :func:`slot_of_position` and their inverses).

The dealer's log lines (``STATE:...`` per hand, ``SCORE:...`` at the end) are read and written
by :func:`parse_log_state`, :func:`format_log_state`, :func:`parse_score` and
:func:`format_score`.

Text and data only: which actions are legal, and how many chips each seat has put in, is the
state machine's business (``sdk.states``), not this module's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from .actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from .gamedef import GameDef
from .protocol import ProtocolError
from .rules import RANKS, SUITS
from .states import RoundState

__all__ = [
    "AcpcAction",
    "AcpcActionError",
    "AcpcEchoError",
    "AcpcProtocolError",
    "CALL",
    "board_rounds",
    "action_from_token",
    "action_from_wire",
    "action_to_wire",
    "committed_before_street",
    "FOLD",
    "LogState",
    "MAX_LINE_BYTES",
    "MatchState",
    "RAISE",
    "Reply",
    "Score",
    "VERSION",
    "VERSION_LINE",
    "echo_matches",
    "encode_line",
    "first_to_act",
    "format_log_state",
    "format_match_state",
    "format_reply",
    "format_score",
    "is_comment",
    "log_state_line",
    "parse_action",
    "parse_log_state",
    "parse_match_state",
    "parse_reply",
    "parse_score",
    "parse_version",
    "position_of_seat",
    "position_of_slot",
    "seat_of_position",
    "slot_of_position",
    "strip_line_ending",
    "to_hand_total",
    "to_street_raise",
    "version_supported",
    "wire_token",
]

#: The protocol version this codec speaks.
VERSION = (2, 0, 0)
#: The client's first line.  Dots, not the colons of the protocol document's grammar: the
#: dealer (v1.0.42) reads ``VERSION:%u.%u.%u`` and stops the match on ``VERSION:2:0:0``.
VERSION_LINE = "VERSION:2.0.0"
#: The longest line either side may send, its ``\r\n`` or ``\n`` included.  The dealer reads
#: into a 4096-byte buffer that keeps one byte for the end of the C string (a longer reply is
#: cut in two), and refuses to send a state longer than 4093 characters plus ``\r\n``.
MAX_LINE_BYTES = 4095

Kind = Literal["f", "c", "r"]
Cards = tuple[str, ...]

# The action letters the dealer reads, and what they mean; it writes only f, c and r.
_ACTION_LETTERS: dict[str, Kind] = {
    "f": "f",
    "F": "f",
    "c": "c",
    "C": "c",
    "k": "c",
    "K": "c",
    "r": "r",
    "R": "r",
    "b": "r",
    "B": "r",
}
_CARD = re.compile(f"[{RANKS}][{SUITS}]")
_ACTION = re.compile(r"([fcr])([0-9]+)?")
_ACTION_TOKEN = re.compile(r"([A-Za-z])(0|[1-9][0-9]*)?")
_NUMBER = re.compile(r"0|[1-9][0-9]*")
_VALUE = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?")
_NAME = re.compile(r"[^|:\s]+")


class AcpcProtocolError(ProtocolError):
    """A line that does not follow the ACPC protocol; the message says what is wrong.

    For a reply, this class itself means the echoed state cannot be read (the dealer:
    "bad state format", the reply is ignored); see :class:`AcpcEchoError` and
    :class:`AcpcActionError` for the other two ways a reply is wrong.
    """


class AcpcEchoError(AcpcProtocolError):
    """A reply whose echoed state is readable but is not the state the seat must answer.

    The dealer ignores such a reply ("ignoring un-requested response") and keeps waiting.
    """


class AcpcActionError(AcpcProtocolError):
    """A reply that echoes the right state but whose action cannot be read.

    The dealer plays a call instead, with the WARNING "bad action format in response,
    changed to call" or, for an unknown letter such as ``x``, "invalid action, changed to
    call".
    """


@dataclass(frozen=True, slots=True)
class AcpcAction:
    """One action on the wire: ``f`` fold, ``c`` check or call, ``r`` bet or raise.

    ``amount`` is ``None`` except for a no-limit raise, where it is the raiser's total
    contribution for the whole hand after the raise (not the amount added on this street;
    see :func:`to_street_raise`).
    """

    kind: Kind
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("f", "c", "r"):
            raise AcpcProtocolError(f"an ACPC action is 'f', 'c' or 'r', not {self.kind!r}.")
        if self.amount is not None and (
            self.kind != "r"
            or isinstance(self.amount, bool)
            or not isinstance(self.amount, int)
            or self.amount < 0
        ):
            raise AcpcProtocolError(
                f"only a raise carries an amount, a whole number of chips; got kind "
                f"{self.kind!r} with amount {self.amount!r}."
            )

    @property
    def token(self) -> str:
        """The action as written on the wire: ``f``, ``c``, ``r`` or ``r<total>``."""
        return self.kind if self.amount is None else f"r{self.amount}"

    def __str__(self) -> str:
        return self.token


#: Fold.
FOLD = AcpcAction("f")
#: Check or call.
CALL = AcpcAction("c")
#: A limit bet or raise (its size is the game's).
RAISE = AcpcAction("r")

# Each one-letter action the dealer reads, as the action it means.
_SIMPLE_ACTIONS = {letter: AcpcAction(kind) for letter, kind in _ACTION_LETTERS.items()}


@dataclass(frozen=True, slots=True)
class MatchState:
    """One ``MATCHSTATE`` line: what one position sees of the hand in play.

    ``betting`` and ``board`` have one entry per round reached (preflop first), so they have
    the same length; ``holes`` has one entry per position, empty where this viewer cannot
    see the cards (other positions' cards are shown only at a showdown).
    """

    position: int
    hand_number: int
    betting: tuple[tuple[AcpcAction, ...], ...]
    holes: tuple[Cards, ...]
    board: tuple[Cards, ...]

    def __post_init__(self) -> None:
        _check_common(self.hand_number, self.betting, self.holes, self.board)
        if not 0 <= self.position < len(self.holes):
            raise AcpcProtocolError(
                f"position {self.position} is not one of the {len(self.holes)} positions of "
                f"the hand (0 to {len(self.holes) - 1})."
            )

    @property
    def round(self) -> int:
        """The round in play, from 0 (preflop)."""
        return len(self.betting) - 1

    @property
    def own_cards(self) -> Cards:
        """This viewer's hole cards."""
        return self.holes[self.position]

    @property
    def num_players(self) -> int:
        """How many positions the hand has."""
        return len(self.holes)

    def __str__(self) -> str:
        return format_match_state(self)


@dataclass(frozen=True, slots=True)
class Reply:
    """A client's answer as the engine reads it: the state it echoes and its action."""

    echo: str
    state: MatchState
    action: AcpcAction


@dataclass(frozen=True, slots=True)
class LogState:
    """One ``STATE`` line of the dealer's log: a finished hand, every hole card shown.

    ``values`` (chips won, exact decimals: a split pot can give fractions) and ``names``
    are in position order for that hand, so the names rotate from hand to hand.
    """

    hand_number: int
    betting: tuple[tuple[AcpcAction, ...], ...]
    holes: tuple[Cards, ...]
    board: tuple[Cards, ...]
    values: tuple[Decimal, ...]
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_common(self.hand_number, self.betting, self.holes, self.board)
        _check_values_names(self.values, self.names, len(self.holes))


@dataclass(frozen=True, slots=True)
class Score:
    """The dealer's final ``SCORE`` line: the match total of each player, in seat order."""

    values: tuple[Decimal, ...]
    names: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_values_names(self.values, self.names, len(self.values))


# --- lines ---------------------------------------------------------------------------------


def strip_line_ending(line: str) -> str:
    """The line without its ``\\r\\n`` or ``\\n`` (either is accepted; none is fine too).

    Raises :class:`AcpcProtocolError` for a line longer than :data:`MAX_LINE_BYTES` bytes or
    holding a line break or carriage return anywhere but at its end.
    """
    size = len(line.encode("utf-8", "replace"))
    if size > MAX_LINE_BYTES:
        raise AcpcProtocolError(
            f"the line is {size} bytes long; the ACPC dealer reads at most {MAX_LINE_BYTES} "
            "bytes per line, line ending included."
        )
    text = line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith("\n") else line
    if "\n" in text or "\r" in text:
        raise AcpcProtocolError(
            f"the line {_show(line)} holds a line break before its end; send one message per "
            "line, ending with '\\r\\n' or '\\n'."
        )
    return text


def encode_line(text: str) -> bytes:
    """``text`` as one wire line: ASCII, ending with ``\\r\\n`` as the dealer writes them.

    Raises :class:`AcpcProtocolError` when the text is not ASCII, holds a line break, or
    would be longer than :data:`MAX_LINE_BYTES` bytes with its ending.
    """
    if not text.isascii():
        raise AcpcProtocolError(f"the line {_show(text)} is not ASCII; the ACPC wire is ASCII.")
    if "\n" in text or "\r" in text:
        raise AcpcProtocolError(f"the line {_show(text)} holds a line break; send one per line.")
    data = text.encode("ascii") + b"\r\n"
    if len(data) > MAX_LINE_BYTES:
        raise AcpcProtocolError(
            f"the line would be {len(data)} bytes long with its ending; the ACPC limit is "
            f"{MAX_LINE_BYTES}."
        )
    return data


def is_comment(line: str) -> bool:
    """Whether a line is a comment (starts with ``#`` or ``;``), which both sides skip."""
    return line.startswith(("#", ";"))


def parse_version(line: str) -> tuple[int, int, int]:
    """The version of a client's first line, ``VERSION:<major>.<minor>.<revision>``.

    Raises :class:`AcpcProtocolError` with the fix when the line is not a version line.
    """
    text = strip_line_ending(line)
    match = re.fullmatch(r"VERSION:([0-9]+)\.([0-9]+)\.([0-9]+)", text)
    if match is None:
        hint = (
            " Write it with dots: the dealer refuses the colon form of the protocol "
            "document's grammar."
            if re.fullmatch(r"VERSION:[0-9]+:[0-9]+:[0-9]+", text)
            else ""
        )
        raise AcpcProtocolError(
            f"the first line must be the version, {VERSION_LINE!r}, not {_show(text)}.{hint}"
        )
    major, minor, revision = (int(part) for part in match.groups())
    return major, minor, revision


def version_supported(version: tuple[int, int, int]) -> bool:
    """Whether the dealer accepts a client version without an error: same major, minor <= 0."""
    return version[0] == VERSION[0] and version[1] <= VERSION[1]


# --- actions and cards ---------------------------------------------------------------------


def parse_action(token: str, game: GameDef | None = None) -> AcpcAction:
    """One action a client writes after the echo: ``f``, ``c``, ``r`` or ``r<total>``.

    The dealer also reads ``k`` for call, ``b`` for raise and any of them in upper case;
    they are accepted and returned as ``c``, ``r``.  With a ``game``, a raise must carry an
    amount in no-limit and none in limit.  Raises :class:`AcpcActionError` otherwise.
    """
    simple = _SIMPLE_ACTIONS.get(token)
    if simple is not None:
        # The common replies (one letter), read without a regular expression: the engine
        # reads one per decision.
        _check_action_for_game(simple, game, AcpcActionError)
        return simple
    digits = token[1:]
    if (
        _ACTION_LETTERS.get(token[:1]) == "r"
        and digits.isascii()
        and digits.isdigit()
        and (digits[0] != "0" or len(digits) == 1)
    ):
        # A no-limit raise, the other common reply, read with string methods alone.
        raised = AcpcAction("r", int(digits))
        _check_action_for_game(raised, game, AcpcActionError)
        return raised
    match = _ACTION_TOKEN.fullmatch(token)
    if match is None or match.group(1) not in _ACTION_LETTERS:
        raise AcpcActionError(
            f"the action {_show(token)} is not an ACPC action; send 'f' (fold), 'c' (check "
            "or call), 'r' (limit raise) or 'r' and your total for the hand (no-limit, e.g. "
            "'r300')."
        )
    kind = _ACTION_LETTERS[match.group(1)]
    amount = None if match.group(2) is None else int(match.group(2))
    if amount is not None and kind != "r":
        raise AcpcActionError(f"the action {_show(token)} has a number, but only a raise has one.")
    action = AcpcAction(kind, amount)
    _check_action_for_game(action, game, AcpcActionError)
    return action


def _check_action_for_game(
    action: AcpcAction, game: GameDef | None, error: type[AcpcProtocolError]
) -> None:
    """A raise carries an amount exactly when the game is no-limit."""
    if game is None or action.kind != "r":
        return
    if game.betting == "nolimit" and action.amount is None:
        raise error("a no-limit raise needs the total for the hand after it, e.g. 'r300'; got 'r'.")
    if game.betting == "limit" and action.amount is not None:
        raise error(f"a limit raise has no amount (its size is the game's); got {action.token!r}.")


def _parse_betting(text: str, game: GameDef | None) -> tuple[tuple[AcpcAction, ...], ...]:
    """``r300c/cr900`` -> one tuple of actions per round."""
    rounds = []
    for segment in text.split("/"):
        actions = []
        at = 0
        while at < len(segment):
            match = _ACTION.match(segment, at)
            if match is None:
                raise AcpcProtocolError(
                    f"the betting {text!r} has {segment[at:]!r} where an action 'f', 'c', 'r' "
                    "or 'r<total>' belongs."
                )
            digits = match.group(2)
            if digits is not None and len(digits) > 1 and digits.startswith("0"):
                raise AcpcProtocolError(
                    f"the betting {text!r} has the amount {digits!r}; write amounts without "
                    "leading zeros."
                )
            amount = None if digits is None else int(digits)
            if amount is not None and match.group(1) != "r":
                raise AcpcProtocolError(
                    f"the betting {text!r} has a number after {match.group(1)!r}; only a "
                    "raise has one."
                )
            action = AcpcAction(_ACTION_LETTERS[match.group(1)], amount)
            _check_action_for_game(action, game, AcpcProtocolError)
            actions.append(action)
            at = match.end()
        rounds.append(tuple(actions))
    raises = [action for actions in rounds for action in actions if action.kind == "r"]
    sized = {action.amount is None for action in raises}
    if len(sized) > 1:
        raise AcpcProtocolError(
            f"the betting {text!r} mixes raises with and without amounts; a game is either "
            "limit ('r') or no-limit ('r<total>')."
        )
    return tuple(rounds)


def _format_betting(betting: tuple[tuple[AcpcAction, ...], ...]) -> str:
    return "/".join("".join(action.token for action in actions) for actions in betting)


def _parse_cards(text: str, what: str) -> Cards:
    """``AhKd`` -> ``("Ah", "Kd")``."""
    if len(text) % 2 or not all(_CARD.fullmatch(text[i : i + 2]) for i in range(0, len(text), 2)):
        raise AcpcProtocolError(
            f"{what} {text!r} are not cards: write each as a rank in {RANKS} and a suit in "
            f"{SUITS}, with nothing between them (e.g. 'AhKd')."
        )
    return tuple(text[i : i + 2] for i in range(0, len(text), 2))


def _parse_card_field(
    text: str, rounds: int, game: GameDef | None
) -> tuple[tuple[Cards, ...], tuple[Cards, ...]]:
    """``Ah2c|/Ks7d3c/9s`` -> hole cards by position and board cards by round."""
    segments = text.split("/")
    if len(segments) != rounds:
        raise AcpcProtocolError(
            f"the cards {text!r} have {len(segments)} round(s) separated by '/', but the "
            f"betting has {rounds}; both have one part per round reached."
        )
    hole_texts = segments[0].split("|")
    board_zero = ""
    if game is not None:
        if len(hole_texts) != game.num_players:
            raise AcpcProtocolError(
                f"the cards {text!r} give {len(hole_texts)} position(s), separated by '|', "
                f"but the game has {game.num_players} players."
            )
        # A game that deals board cards preflop writes them straight after the last hole cards.
        extra = game.num_board_cards[0] * 2
        if extra:
            board_zero, hole_texts[-1] = hole_texts[-1][-extra:], hole_texts[-1][:-extra]
    holes = tuple(_parse_cards(part, "the hole cards") for part in hole_texts)
    board = tuple(_parse_cards(part, "the board cards") for part in [board_zero, *segments[1:]])
    if game is not None:
        for position, cards in enumerate(holes):
            if cards and len(cards) != game.num_hole_cards:
                raise AcpcProtocolError(
                    f"position {position} has {len(cards)} hole card(s); the game deals "
                    f"{game.num_hole_cards}."
                )
        for number, cards in enumerate(board):
            if len(cards) != game.num_board_cards[number]:
                raise AcpcProtocolError(
                    f"round {number} shows {len(cards)} board card(s); the game deals "
                    f"{game.num_board_cards[number]}."
                )
    return holes, board


def _format_cards(holes: tuple[Cards, ...], board: tuple[Cards, ...]) -> str:
    return (
        "|".join("".join(cards) for cards in holes)
        + "".join(board[0])
        + "".join("/" + "".join(cards) for cards in board[1:])
    )


def _check_common(
    hand_number: int,
    betting: tuple[tuple[AcpcAction, ...], ...],
    holes: tuple[Cards, ...],
    board: tuple[Cards, ...],
) -> None:
    """The shape shared by MATCHSTATE and STATE lines."""
    if isinstance(hand_number, bool) or not isinstance(hand_number, int) or hand_number < 0:
        raise AcpcProtocolError(f"the hand number is a whole number from 0, not {hand_number!r}.")
    if not 1 <= len(betting) <= 4:
        raise AcpcProtocolError(f"a hand has 1 to 4 rounds of betting, not {len(betting)}.")
    if len(board) != len(betting):
        raise AcpcProtocolError(
            f"the board has {len(board)} round(s) and the betting {len(betting)}; give one "
            "board entry per round reached (empty preflop in hold'em)."
        )
    if not 2 <= len(holes) <= 10:
        raise AcpcProtocolError(f"a hand has 2 to 10 positions, not {len(holes)}.")
    seen: set[str] = set()
    for cards in (*holes, *board):
        for card in cards:
            if not isinstance(card, str) or not _CARD.fullmatch(card):
                raise AcpcProtocolError(f"{card!r} is not a card like 'Ah' or 'Tc'.")
            if card in seen:
                raise AcpcProtocolError(f"the card {card} is dealt twice in one hand.")
            seen.add(card)


def _check_values_names(values: tuple[Decimal, ...], names: tuple[str, ...], count: int) -> None:
    if len(values) != count or len(names) != count:
        raise AcpcProtocolError(
            f"a result line needs one value and one name per player ({count}); got "
            f"{len(values)} value(s) and {len(names)} name(s)."
        )
    for name in names:
        if not _NAME.fullmatch(name):
            raise AcpcProtocolError(
                f"the player name {name!r} is empty or holds '|', ':' or a space."
            )


# --- MATCHSTATE -------------------------------------------------------------------------------


def parse_match_state(line: str, game: GameDef | None = None) -> MatchState:
    """Read a ``MATCHSTATE`` line (its ``\\r\\n`` or ``\\n`` may be left on).

    With ``game`` (recommended), the number of positions, the cards per position and round,
    and the raise amounts (no-limit) or their absence (limit) are checked against it; it is
    needed to read a game that deals board cards preflop.  Raises
    :class:`AcpcProtocolError` saying what is wrong.
    """
    text = strip_line_ending(line)
    parts = text.split(":")
    if parts[0] != "MATCHSTATE" or len(parts) != 5:
        raise AcpcProtocolError(
            f"expected 'MATCHSTATE:<position>:<hand>:<betting>:<cards>' (five fields "
            f"separated by ':'), got {_show(text)}."
        )
    _, position, hand, betting_text, cards = parts
    for name, value in (("position", position), ("hand number", hand)):
        if not _NUMBER.fullmatch(value):
            raise AcpcProtocolError(f"the {name} {value!r} in {_show(text)} is not a whole number.")
    betting = _parse_betting(betting_text, game)
    holes, board = _parse_card_field(cards, len(betting), game)
    if game is not None and int(position) >= game.num_players:
        raise AcpcProtocolError(
            f"position {position} is not a position of this {game.num_players}-player game."
        )
    return MatchState(int(position), int(hand), betting, holes, board)


def format_match_state(state: MatchState) -> str:
    """The ``MATCHSTATE`` line of a state, without line ending, exactly as the dealer writes it."""
    return (
        f"MATCHSTATE:{state.position}:{state.hand_number}:{_format_betting(state.betting)}:"
        f"{_format_cards(state.holes, state.board)}"
    )


# --- replies ----------------------------------------------------------------------------------


def format_reply(state_line: str, action: AcpcAction | str) -> str:
    """A client's reply: the state line it was sent, unchanged, then ``:`` and the action.

    ``state_line`` may keep its line ending (it is removed); ``action`` is an
    :class:`AcpcAction` or its token.  The result has no line ending (see
    :func:`encode_line`).  Raises :class:`AcpcProtocolError` for a state line that is not a
    ``MATCHSTATE`` line or an action that is not one.
    """
    echo = strip_line_ending(state_line)
    parse_match_state(echo)
    token = action.token if isinstance(action, AcpcAction) else parse_action(action).token
    reply = f"{echo}:{token}"
    if len(reply) + 2 > MAX_LINE_BYTES:
        raise AcpcProtocolError(
            f"the reply would be {len(reply) + 2} bytes with its ending; the limit is "
            f"{MAX_LINE_BYTES}."
        )
    return reply


def echo_matches(echo: MatchState, current: MatchState) -> bool:
    """Whether an echoed state answers ``current``, by the dealer's rule.

    Same position, hand number, betting and board, and the same hole cards for the
    viewer; other positions' hole cards are not compared.
    """
    return (
        echo.position == current.position
        and echo.hand_number == current.hand_number
        and echo.betting == current.betting
        and echo.board == current.board
        and len(echo.holes) == len(current.holes)
        and echo.own_cards == current.own_cards
    )


def parse_reply(line: str, current: MatchState | None = None, game: GameDef | None = None) -> Reply:
    """Read a client's reply ``<echoed MATCHSTATE>:<action>`` (engine side).

    With ``current`` (the state the seat was asked to answer) the echo is checked by
    :func:`echo_matches`.  Raises :class:`AcpcProtocolError` when the echo cannot be read,
    :class:`AcpcEchoError` when it is not ``current``, and :class:`AcpcActionError` when the
    action cannot be read: the three cases the dealer treats differently.
    """
    text = strip_line_ending(line)
    echo, colon, token = text.rpartition(":")
    if not colon or echo.count(":") != 4:
        raise AcpcProtocolError(
            f"the reply {_show(text)} is not '<the MATCHSTATE line you were sent>:<action>'; "
            "echo the state line exactly, then ':' and your action."
        )
    state = parse_match_state(echo, game)
    if current is not None and not echo_matches(state, current):
        raise AcpcEchoError(
            f"the reply echoes {_show(echo)}, but the state to answer is "
            f"{_show(format_match_state(current))}; answer only the latest state, and only "
            "when it is your turn."
        )
    return Reply(echo, state, parse_action(token, game))


# --- raise amounts ----------------------------------------------------------------------------


def to_street_raise(total: int, committed_before_street: int) -> int:
    """A no-limit wire raise (the raiser's total for the hand) as the kit's street amount.

    The kit's ``RaiseAction(amount)`` is the raiser's pip on the current street after the
    raise; the wire's ``r<total>`` counts the chips of earlier streets too.  So
    ``amount = total - committed_before_street``, where ``committed_before_street`` is what
    the raiser had put in on earlier streets: 0 preflop (the blinds are bets of the preflop
    street, part of its pip), the raiser's total when the previous street closed afterwards.
    Raises ``ValueError`` when the total does not exceed it.
    """
    if committed_before_street < 0:
        raise ValueError(
            f"committed_before_street is {committed_before_street}; chips put in are 0 or more."
        )
    if total <= committed_before_street:
        raise ValueError(
            f"a raise to {total} for the hand is not above the {committed_before_street} "
            "chips put in before this street; the ACPC total counts every street."
        )
    return total - committed_before_street


def to_hand_total(raise_to: int, committed_before_street: int) -> int:
    """The kit's street raise amount (pip after the raise) as the wire's total for the hand.

    The inverse of :func:`to_street_raise`: ``total = raise_to + committed_before_street``.
    Raises ``ValueError`` for a raise to 0 chips or less.
    """
    if committed_before_street < 0:
        raise ValueError(
            f"committed_before_street is {committed_before_street}; chips put in are 0 or more."
        )
    if raise_to <= 0:
        raise ValueError(f"a raise to {raise_to} on the street is not a raise; it is 1 or more.")
    return raise_to + committed_before_street


# --- positions, seats and slots ---------------------------------------------------------------


def action_from_wire(state: RoundState, action: AcpcAction) -> Action:
    """The kit's action for wire ``action`` taken by the seat to act in ``state``.

    ``c`` is a check or a call by what the seat faces; a limit ``r`` is the round's one
    raise; a no-limit ``r<total>`` is converted from the hand's total to the street's
    raise-to (:func:`to_street_raise`).  Raises :class:`AcpcProtocolError` for an action of
    the other betting structure; whether the result is legal is the caller's question.
    """
    if action.kind == "f":
        return FoldAction()
    if action.kind == "c":
        return CallAction() if state.continue_cost else CheckAction()
    if state.rules.limit is not None:
        if action.amount is not None:
            raise AcpcProtocolError(
                f"the no-limit raise {action.token!r} came, but these rules are limit."
            )
        return RaiseAction(state.raise_bounds()[0])
    if action.amount is None:
        raise AcpcProtocolError("a limit raise 'r' came, but these rules are no-limit.")
    try:
        return RaiseAction(to_street_raise(action.amount, committed_before_street(state)))
    except ValueError as error:
        raise AcpcProtocolError(str(error)) from None


#: The kit's actions for the one-letter replies (actions are immutable, so one of each).
_FOLD, _CALL, _CHECK = FoldAction(), CallAction(), CheckAction()


def action_from_token(state: RoundState, token: str) -> Action:
    """The kit's action for a reply's action ``token`` by the seat to act in ``state``:
    ``action_from_wire(state, parse_action(token))``, raising as they do.

    ``c`` and ``f``, most replies, and a no-limit ``r<total>`` written the plain way, are read
    without making the wire action: a host reads one at every decision.
    """
    if token == "c":
        return _CALL if state.continue_cost else _CHECK
    if token == "f":
        return _FOLD
    if token[:1] == "r" and state.rules.limit is None:
        digits = token[1:]
        if digits.isascii() and digits.isdigit() and digits[0] != "0":
            total, before = int(digits), committed_before_street(state)
            if total > before:  # else the long way says what is wrong
                return RaiseAction(total - before)
    return action_from_wire(state, parse_action(token))


def wire_token(state: RoundState, action: Action) -> str:
    """The betting token of the kit's legal ``action`` by the seat to act in ``state``:
    ``action_to_wire(state, action).token``.

    Checks, calls, folds and no-limit raises are written without making the wire action: a
    host writes one for every action of every hand.
    """
    kind = type(action)
    if kind is CallAction or kind is CheckAction:
        return "c"
    if kind is FoldAction:
        return "f"
    if isinstance(action, RaiseAction) and state.rules.limit is None:  # as action_to_wire
        amount = action.amount
        if type(amount) is int and amount > 0:  # else the long way says what is wrong
            return f"r{amount + committed_before_street(state)}"
    return action_to_wire(state, action).token


def action_to_wire(state: RoundState, action: Action) -> AcpcAction:
    """The wire action for the kit's legal ``action`` of the seat to act in ``state``."""
    if isinstance(action, FoldAction):
        return FOLD
    if isinstance(action, RaiseAction):
        if state.rules.limit is not None:
            return RAISE
        return AcpcAction("r", to_hand_total(action.amount, committed_before_street(state)))
    return CALL


def board_rounds(board: Cards) -> tuple[Cards, ...]:
    """A hold'em board as the ACPC wire shows it, one entry per round reached: no cards
    preflop, then the flop (3 cards), the turn and the river (1 each).

    >>> board_rounds(("2c", "3d", "4h", "5s"))
    ((), ('2c', '3d', '4h'), ('5s',))
    """
    try:
        reached = _ROUNDS_REACHED[len(board)]
    except KeyError:
        raise AcpcProtocolError(
            f"a hold'em board has 0, 3, 4 or 5 cards, not {len(board)}: {board!r}."
        ) from None
    return ((), tuple(board[:3]), tuple(board[3:4]), tuple(board[4:5]))[:reached]


_ROUNDS_REACHED = {0: 1, 3: 2, 4: 3, 5: 4}


def committed_before_street(state: RoundState) -> int:
    """What the seat to act put in on earlier streets (0 preflop: blinds are preflop pips)."""
    actor = state.actor
    return state.contribution(actor) - state.pips[actor]


def _check_players(num_players: int) -> None:
    if not 2 <= num_players <= 10:
        raise ValueError(f"an ACPC game has 2 to 10 players, not {num_players}.")


def _check_index(name: str, value: int, num_players: int) -> None:
    if not 0 <= value < num_players:
        raise ValueError(f"{name} {value} is not 0 to {num_players - 1} for {num_players} players.")


def seat_of_position(position: int, num_players: int) -> int:
    """The kit's seat (0 = the button) of an ACPC position (0 = the first seat after it).

    ``seat = (position + 1) % num_players``: the button is the last position.
    """
    _check_players(num_players)
    _check_index("position", position, num_players)
    return (position + 1) % num_players


def position_of_seat(seat: int, num_players: int) -> int:
    """The ACPC position of a kit seat (0 = the button): ``(seat - 1) % num_players``."""
    _check_players(num_players)
    _check_index("seat", seat, num_players)
    return (seat - 1) % num_players


def slot_of_position(position: int, hand_number: int, num_players: int, fixed: bool = False) -> int:
    """Which player of the match (0 = the first name given to the dealer) holds a position.

    The dealer gives position 0 to player ``hand_number % num_players`` and the other
    positions in turn after it; with ``fixed`` (its ``-f`` flag) player 0 always holds
    position 0.  The dealer's own messages number these players from 1 (``TO 1 ...``).
    """
    _check_players(num_players)
    _check_index("position", position, num_players)
    if hand_number < 0:
        raise ValueError(f"the hand number is 0 or more, not {hand_number}.")
    return (position + (0 if fixed else hand_number)) % num_players


def position_of_slot(slot: int, hand_number: int, num_players: int, fixed: bool = False) -> int:
    """The ACPC position of a player of the match in a hand; inverse of :func:`slot_of_position`."""
    _check_players(num_players)
    _check_index("slot", slot, num_players)
    if hand_number < 0:
        raise ValueError(f"the hand number is 0 or more, not {hand_number}.")
    return (slot - (0 if fixed else hand_number)) % num_players


def first_to_act(game: GameDef, round_number: int) -> int:
    """The ACPC position that acts first in a round, from the game's ``firstPlayer`` (1-based).

    The hold'em games give heads-up ``2 1 1 1`` (the button, position 1, first preflop; the
    big blind, position 0, first afterwards) and three-handed ``3 1 1 1`` (the button,
    position 2, first preflop; the small blind, position 0, afterwards).  A position that
    has folded or is all-in is skipped by the state machine, not here.
    """
    if not 0 <= round_number < game.num_rounds:
        raise ValueError(f"round {round_number} is not 0 to {game.num_rounds - 1} in this game.")
    return game.first_player[round_number] - 1


# --- the dealer's log -------------------------------------------------------------------------


def _parse_values(text: str, what: str) -> tuple[Decimal, ...]:
    values = []
    for part in text.split("|"):
        if not _VALUE.fullmatch(part):
            raise AcpcProtocolError(
                f"{what} value {part!r} is not a number as the dealer writes it (e.g. '-100' "
                "or '33.333333')."
            )
        try:
            values.append(Decimal(part))
        except InvalidOperation:  # pragma: no cover - the pattern only lets numbers through
            raise AcpcProtocolError(f"{what} value {part!r} is not a number.") from None
    return tuple(values)


def _format_value(value: Decimal | int) -> str:
    """Six decimals, trailing zeros and dot removed: the dealer's ``%.6f`` with its trimming
    (a whole number of chips is just its digits)."""
    if type(value) is int:
        return str(value)
    text = f"{value:.6f}".rstrip("0")
    return text[:-1] if text.endswith(".") else text


def parse_log_state(line: str, game: GameDef | None = None) -> LogState:
    """Read one ``STATE:<hand>:<betting>:<cards>:<values>:<names>`` line of the dealer's log."""
    text = strip_line_ending(line)
    parts = text.split(":")
    if parts[0] != "STATE" or len(parts) != 6:
        raise AcpcProtocolError(
            f"expected 'STATE:<hand>:<betting>:<cards>:<values>:<names>', got {_show(text)}."
        )
    _, hand, betting_text, cards, values, names = parts
    if not _NUMBER.fullmatch(hand):
        raise AcpcProtocolError(f"the hand number {hand!r} in {_show(text)} is not a whole number.")
    betting = _parse_betting(betting_text, game)
    holes, board = _parse_card_field(cards, len(betting), game)
    return LogState(
        int(hand),
        betting,
        holes,
        board,
        _parse_values(values, "a STATE"),
        tuple(names.split("|")),
    )


def format_log_state(state: LogState) -> str:
    """The ``STATE`` log line of a finished hand, as the dealer writes it."""
    return log_state_line(
        state.hand_number, state.betting, state.holes, state.board, state.values, state.names
    )


def log_state_line(
    hand_number: int,
    betting: tuple[tuple[AcpcAction, ...], ...],
    holes: tuple[Cards, ...],
    board: tuple[Cards, ...],
    values: tuple[Decimal | int, ...],
    names: tuple[str, ...],
) -> str:
    """The ``STATE`` line of a finished hand from its parts, which are not checked: for a
    writer whose parts are the engine's own record of the hand, written once a hand (a
    :class:`LogState` checks parts that come from elsewhere).  Values are in position order,
    exact decimals or whole chips.

    >>> log_state_line(0, ((CALL, CALL),), (("Ah", "Kd"), ("2c", "2d")), ((),), (0, 0), ("a", "b"))
    'STATE:0:cc:AhKd|2c2d:0|0:a|b'
    """
    return (
        f"STATE:{hand_number}:{_format_betting(betting)}:{_format_cards(holes, board)}:"
        + "|".join(_format_value(value) for value in values)
        + ":"
        + "|".join(names)
    )


def parse_score(line: str) -> Score:
    """Read the dealer's final ``SCORE:<values>:<names>`` line (seat order)."""
    text = strip_line_ending(line)
    parts = text.split(":")
    if parts[0] != "SCORE" or len(parts) != 3:
        raise AcpcProtocolError(f"expected 'SCORE:<values>:<names>', got {_show(text)}.")
    return Score(_parse_values(parts[1], "a SCORE"), tuple(parts[2].split("|")))


def format_score(score: Score) -> str:
    """The ``SCORE`` line, as the dealer writes it."""
    return (
        "SCORE:"
        + "|".join(_format_value(value) for value in score.values)
        + ":"
        + "|".join(score.names)
    )


def _show(text: str, limit: int = 120) -> str:
    """A line quoted for an error message, cut when long."""
    return repr(text if len(text) <= limit else text[:limit] + "...")
