"""The wire codec: the one place that turns protocol messages into text and back.

The engine is a TCP server; a bot connects and then, for every line the engine
sends, answers with exactly one line.  An engine-to-bot line is a list of
clauses separated by single spaces; each clause is a type letter and a payload
(see ``docs/protocol.md``):

====  =========================================  ===========================
 T    ``T29.985``: your game clock, seconds       :class:`Clock`
 P    ``P0``: your seat (0 = dealer)               :class:`Position`
 H    ``HAh,Kd``: your hole cards (a new hand)     :class:`HoleCards`
 G    ``GK``: your bounty rank                     :class:`BountyRank`
 G    ``G`` (2026): a new hand, no payload         :class:`RoundStart`
 F C K R A  an action by either seat              :mod:`sdk.actions`
 B    ``B2h,9d,Qs``: the board so far              :class:`Board`
 U    ``U7c,Jd``: your hand after a swap street    :class:`UpdatedHand`
 N    ``N382,394_20,12_Ah,Kd,5c``: auction result  :class:`AuctionResult`
 O    ``O7c,7s``: the opponent's cards (showdown)  :class:`OpponentHand`
 D    ``D-6``: your chip change for the hand       :class:`Delta`
 Y    ``Y1#``: bounty hits, yours then opponent's  :class:`BountyHits`
 Q    end of match, no reply expected              :class:`Quit`
====  =========================================  ===========================

A bot's reply is one action: ``F``, ``C``, ``K``, ``R<amount>`` or ``A<bid>``.
Both directions round-trip: ``decode_message(encode_message(m)) == m``.

Toss Hold'em (MIT 2026, rules with ``discard``) reuses two letters, so the codec takes
the match's rules (``rules=``) wherever a letter's meaning depends on the game: there
``D<index>`` is a discard (:class:`~sdk.actions.DiscardAction`, both ways), the hand's
delta is ``A<int>`` (:class:`Delta`), ``G`` comes empty (:class:`RoundStart`), and
there is no bid.  Without ``rules`` (or with any other game) the letters keep the
meanings of the table above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from .errors import KitError
from .rules import RANKS, SUITS, Rules

__all__ = [
    "AuctionResult",
    "Board",
    "BountyHits",
    "BountyRank",
    "Clause",
    "Clock",
    "Delta",
    "HoleCards",
    "MAX_LINE_BYTES",
    "OpponentHand",
    "Position",
    "ProtocolError",
    "Quit",
    "RoundStart",
    "UpdatedHand",
    "VALID_CARDS",
    "decode_action",
    "decode_message",
    "encode_action",
    "encode_message",
]

#: The longest line either side needs to accept (a generous bound: real
#: messages are well under 1 KiB).
MAX_LINE_BYTES = 64 * 1024

#: Every card as written on the wire, for example ``"Ah"`` or ``"Tc"``.
VALID_CARDS = frozenset(rank + suit for rank in RANKS for suit in SUITS)

Cards = tuple[str, ...]


class ProtocolError(KitError, ValueError):
    """A line that does not follow the protocol; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Clock:
    """``T``: the receiver's remaining game clock in seconds."""

    seconds: float


@dataclass(frozen=True, slots=True)
class Position:
    """``P``: the receiver's seat for this hand (0 = dealer / small blind)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HoleCards:
    """``H``: the receiver's hole cards; starts a new hand."""

    cards: Cards


@dataclass(frozen=True, slots=True)
class BountyRank:
    """``G``: the receiver's bounty rank, one of ``23456789TJQKA`` (Bounty Hold'em)."""

    rank: str


@dataclass(frozen=True, slots=True)
class RoundStart:
    """``G`` with no payload: a new hand has started (the MIT 2026 engine sends it after
    ``H``; it carries nothing, and only prompts the skeleton's ``handle_new_round``)."""


@dataclass(frozen=True, slots=True)
class Board:
    """``B``: the whole board dealt so far."""

    cards: Cards


@dataclass(frozen=True, slots=True)
class UpdatedHand:
    """``U``: the receiver's current hole cards after a swap street (Swap Hold'em)."""

    cards: Cards


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """``N``: stacks and bids in seat order, and the receiver's hand after the auction."""

    stacks: tuple[int, int]
    bids: tuple[int, int]
    cards: Cards


@dataclass(frozen=True, slots=True)
class OpponentHand:
    """``O``: the opponent's hole cards, shown at showdown."""

    cards: Cards


@dataclass(frozen=True, slots=True)
class Delta:
    """``D`` (``A`` in Toss Hold'em): the receiver's chip change for the hand; ends it."""

    amount: int


@dataclass(frozen=True, slots=True)
class BountyHits:
    """``Y``: whether the receiver and the opponent hit their bounties (None = masked)."""

    mine: bool | None
    opponent: bool | None


@dataclass(frozen=True, slots=True)
class Quit:
    """``Q``: the match is over; no reply is expected."""


Clause = (
    Clock
    | Position
    | HoleCards
    | BountyRank
    | RoundStart
    | Board
    | UpdatedHand
    | AuctionResult
    | OpponentHand
    | Delta
    | BountyHits
    | Quit
    | Action
)

_FLAG_TEXT = {True: "1", False: "0", None: "#"}
_TEXT_FLAG = {"1": True, "0": False, "#": None}


def _flag(value: bool | None) -> str:
    return _FLAG_TEXT[value]


# Values are typed Any: each encoder is only ever called with its own key type.
_ENCODERS: dict[type, Callable[[Any], str]] = {
    Clock: lambda c: f"T{c.seconds:.3f}",
    Position: lambda c: f"P{c.seat}",
    HoleCards: lambda c: "H" + ",".join(c.cards),
    BountyRank: lambda c: "G" + c.rank,
    RoundStart: lambda c: "G",
    Board: lambda c: "B" + ",".join(c.cards),
    UpdatedHand: lambda c: "U" + ",".join(c.cards),
    AuctionResult: lambda c: (
        f"N{c.stacks[0]},{c.stacks[1]}_{c.bids[0]},{c.bids[1]}_{','.join(c.cards)}"
    ),
    OpponentHand: lambda c: "O" + ",".join(c.cards),
    Delta: lambda c: f"D{c.amount}",
    BountyHits: lambda c: "Y" + _flag(c.mine) + _flag(c.opponent),
    Quit: lambda c: "Q",
    FoldAction: lambda c: "F",
    CallAction: lambda c: "C",
    CheckAction: lambda c: "K",
    RaiseAction: lambda c: f"R{c.amount}",
    BidAction: lambda c: f"A{c.amount}",
    DiscardAction: lambda c: f"D{c.index}",
}
#: Toss Hold'em's table: the same, but the delta is ``A`` (``D`` is a discard there).
_TOSS_ENCODERS: dict[type, Callable[[Any], str]] = {
    **_ENCODERS,
    Delta: lambda c: f"A{c.amount}",
}


def _is_toss(rules: Rules | None) -> bool:
    """Whether ``rules`` speak the MIT 2026 dialect (``D`` a discard, ``A`` the delta)."""
    return rules is not None and rules.discard


def encode_clause(clause: Clause, rules: Rules | None = None) -> str:
    """One clause as text, for example ``RaiseAction(6)`` as ``"R6"`` (``rules``: the
    match's, for the letters whose meaning depends on the game)."""
    try:
        encoder = (_TOSS_ENCODERS if _is_toss(rules) else _ENCODERS)[type(clause)]
    except KeyError:
        raise TypeError(f"{clause!r} is not a protocol clause.") from None
    return encoder(clause)


def encode_message(clauses: Sequence[Clause], rules: Rules | None = None) -> str:
    """A whole engine-to-bot message as one line of text (without the newline); ``rules``
    as for :func:`encode_clause`."""
    encoders = _TOSS_ENCODERS if _is_toss(rules) else _ENCODERS
    return " ".join([encoders[type(clause)](clause) for clause in clauses])


def encode_action(action: Action) -> str:
    """A bot's reply as text, for example ``"R20"``."""
    return _ENCODERS[type(action)](action)


def _cards(payload: str, clause: str) -> Cards:
    if not payload:
        return ()
    cards = tuple(payload.split(","))
    if VALID_CARDS.issuperset(cards):  # one test for the whole list: every message has cards
        return cards
    for card in cards:
        if card not in VALID_CARDS:
            raise ProtocolError(
                f"{card!r} in clause {clause!r} is not a card; cards are a rank of "
                f"{RANKS} followed by a suit of {SUITS}, like 'Ah'."
            )
    return cards


def _integer(text: str, clause: str) -> int:
    digits = text[1:] if text[:1] == "-" else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        raise ProtocolError(f"{text!r} in clause {clause!r} is not a whole number.")
    return int(text)


def _pair(text: str, clause: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise ProtocolError(f"clause {clause!r} needs two comma-separated numbers, got {text!r}.")
    return (_integer(parts[0], clause), _integer(parts[1], clause))


def _decode_toss_clause(clause: str) -> Clause:
    """A clause of the MIT 2026 dialect: ``D`` a discard, ``A`` the delta, ``G`` empty."""
    kind, payload = clause[:1], clause[1:]
    if kind == "D":
        return DiscardAction(_integer(payload, clause))
    if kind == "A":
        return Delta(_integer(payload, clause))
    if kind == "G":
        if payload:
            raise ProtocolError(f"clause {clause!r}: in Toss Hold'em 'G' carries nothing.")
        return RoundStart()
    return _decode_clause(clause)


def _decode_clause(clause: str) -> Clause:
    kind, payload = clause[:1], clause[1:]
    if kind in _ACTION_LETTERS:
        return decode_action(clause)
    if kind == "T":
        try:
            return Clock(float(payload))
        except ValueError:
            raise ProtocolError(
                f"clause {clause!r}: {payload!r} is not a number of seconds."
            ) from None
    if kind == "P":
        seat = _integer(payload, clause)
        if seat not in (0, 1):
            raise ProtocolError(f"clause {clause!r}: the seat must be 0 or 1.")
        return Position(seat)
    if kind == "H":
        return HoleCards(_cards(payload, clause))
    if kind == "G":
        if len(payload) != 1 or payload not in RANKS:
            raise ProtocolError(f"clause {clause!r}: a bounty is one rank of {RANKS}.")
        return BountyRank(payload)
    if kind == "B":
        return Board(_cards(payload, clause))
    if kind == "U":
        return UpdatedHand(_cards(payload, clause))
    if kind == "N":
        parts = payload.split("_")
        if len(parts) != 3:
            raise ProtocolError(
                f"clause {clause!r}: an auction result is 'N<stack>,<stack>_<bid>,<bid>_<cards>'."
            )
        return AuctionResult(
            _pair(parts[0], clause), _pair(parts[1], clause), _cards(parts[2], clause)
        )
    if kind == "O":
        return OpponentHand(_cards(payload, clause))
    if kind == "D":
        return Delta(_integer(payload, clause))
    if kind == "Y":
        if len(payload) != 2 or payload[0] not in _TEXT_FLAG or payload[1] not in _TEXT_FLAG:
            raise ProtocolError(f"clause {clause!r}: bounty hits are two of '1', '0', '#'.")
        return BountyHits(_TEXT_FLAG[payload[0]], _TEXT_FLAG[payload[1]])
    if kind == "Q" and not payload:
        return Quit()
    raise ProtocolError(f"unknown clause {clause!r}.")


def decode_message(line: str, rules: Rules | None = None) -> list[Clause]:
    """The clauses of one engine-to-bot line (surrounding white space is ignored);
    ``rules``: the match's, for the letters whose meaning depends on the game."""
    text = line.strip()
    if not text:
        raise ProtocolError("empty message: the engine closed the connection or sent a blank line.")
    if _is_toss(rules):
        return [_decode_toss_clause(clause) for clause in text.split(" ")]
    # The clauses every hand repeats (a check, a call, a seat) are made once; the others
    # go through _decode_clause.  This runs for every message a bot receives.
    common = _COMMON_CLAUSES
    return [common.get(clause) or _decode_clause(clause) for clause in text.split(" ")]


_ACTION_LETTERS = frozenset("FCKRA")
_FOLD, _CALL, _CHECK = FoldAction(), CallAction(), CheckAction()
#: What the one-letter actions and the seats decode to, made once (clauses are immutable;
#: outside Toss Hold'em, whose letters differ).
_COMMON_CLAUSES: dict[str, Clause] = {
    "F": _FOLD,
    "C": _CALL,
    "K": _CHECK,
    "P0": Position(0),
    "P1": Position(1),
}


def decode_action(text: str, rules: Rules | None = None) -> Action:
    """A bot's reply as an action; :class:`ProtocolError` says why a reply is misformatted.

    With Toss Hold'em ``rules`` the last letter is ``D<index>`` (a discard), not ``A``."""
    reply = text.strip()
    if reply == "K":
        return _CHECK
    if reply == "C":
        return _CALL
    if reply == "F":
        return _FOLD
    kind = reply[:1]
    if kind == "R":
        return RaiseAction(_integer(reply[1:], reply))
    toss = _is_toss(rules)
    if kind == "D" and toss:
        return DiscardAction(_integer(reply[1:], reply))
    if kind == "A" and not toss:
        return BidAction(_integer(reply[1:], reply))
    last = "D<index>" if toss else "A<amount>"
    if not reply:
        raise ProtocolError(f"empty reply; send one action per line: F, C, K, R<amount> or {last}.")
    shown = reply if len(reply) <= 40 else reply[:40] + "..."
    raise ProtocolError(f"{shown!r} is not an action; send one of F, C, K, R<amount> or {last}.")
