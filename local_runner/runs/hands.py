"""``hands.jsonl``: one JSON object per hand, written and read side by side.

The writer's side is :func:`hand_to_json`, the one function that turns the engine's
:class:`~local_runner.engine.records.HandRecord` (events with full round states) into
what is written, and :func:`hand_line` its line.  The reader's side is
:func:`read_hands` and :func:`parse_hand`, which give back a :class:`Hand`: the one hand
type of everything that reads a run (replay, report, exports, timeline, statistics,
plots).  Per-seat fields are in seat order (0 = dealer) and of any length: the reader
takes the number of seats from each hand.

The reader trusts nothing: a line cut off by a crash or a full disk, edited by hand,
or written by another version of the kit becomes a :class:`~.errors.RunError` whose
message names the file, the line and what to do, never a traceback.  Hands are read
lazily, one line at a time, so memory stays flat however long the match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from sdk.actions import Action
from sdk.protocol import ProtocolError, decode_action, encode_action
from sdk.rules import RANKS, Rules

from ..engine.records import (
    ActionEvent,
    AuctionEvent,
    HandRecord,
    StreetEvent,
    SwapEvent,
)
from .errors import RERUN, RunError
from .layout import HANDS_FILE

__all__ = [
    "AuctionRecord",
    "Cards",
    "FaultRecord",
    "Hand",
    "HandAction",
    "SwapRecord",
    "hand_line",
    "hand_to_json",
    "parse_hand",
    "read_hands",
]

Cards = tuple[str, ...]

_CARD = re.compile(r"[2-9TJQKA][cdhs]\Z")
_JSON = json.JSONEncoder(separators=(",", ":"), check_circular=False)


# -- the writer's side ----------------------------------------------------------------


def hand_to_json(record: HandRecord) -> dict[str, object]:
    """The ``hands.jsonl`` object of one hand (sequences are tuples: JSON arrays).

    Every key is always present: ``bounties`` and ``bounty_hits`` are None
    outside Bounty Hold'em, ``auction`` is None when no auction took place, and
    ``swaps`` is empty when no card was swapped.  Per-seat lists are in seat order.
    One key is written only in its game: ``values``, Permuted Hold'em's order of the
    card values (the true value of each printed rank, 2 to A), which ranked the showdown.
    """
    names = record.players
    actions: list[dict[str, object]] = []
    swaps: list[dict[str, object]] = []
    faults: list[dict[str, object]] = []
    auction: dict[str, object] | None = None
    street = 0
    for event in record.events:
        if isinstance(event, ActionEvent):
            entry = {
                "seat": event.seat,
                "street": event.state.street,
                "action": encode_action(event.action),
                "forced": event.forced,
            }
            if event.seconds is not None:  # the reply's time, for clock use per street
                entry["seconds"] = round(event.seconds, 6)
            actions.append(entry)
        elif isinstance(event, StreetEvent):
            street = event.street
        elif isinstance(event, SwapEvent):
            swaps.append({"seat": event.seat, "street": street, "old": event.old, "new": event.new})
        elif isinstance(event, AuctionEvent):
            auction = {"bids": event.bids, "winners": event.winners}
        else:
            fault = event.fault
            faults.append(
                {
                    "seat": event.seat,
                    "player": names[event.seat],
                    "kind": fault.kind.value,
                    "detail": fault.detail,
                    "hand": fault.hand,
                }
            )
    has_bounty = any(rank is not None for rank in record.bounties)
    line: dict[str, object] = {
        "hand": record.number,
        "players": names,
        "bankrolls_before": record.bankrolls_before,
        "hole_cards": record.dealt,
        "final_hands": record.final_hands,
        "board": record.board,
        "bounties": record.bounties if has_bounty else None,
        "actions": actions,
        "swaps": swaps,
        "auction": auction,
        "showdown": record.showdown,
        "deltas": record.deltas,
        "bounty_hits": record.bounty_hits if has_bounty else None,
        "faults": faults,
    }
    if record.values is not None:
        line["values"] = record.values
    return line


def hand_line(record: HandRecord) -> str:
    """The ``hands.jsonl`` line of one hand, with its newline."""
    return _JSON.encode(hand_to_json(record)) + "\n"


# -- the reader's side ----------------------------------------------------------------


class HandAction(NamedTuple):
    """One action of a hand, as recorded."""

    seat: int
    street: int
    action: Action
    code: str
    """The action on the wire (``R20``, ``K``...)."""
    forced: bool
    seconds: float | None = None
    """The reply's time, when the record has it (an optional ``seconds`` field)."""


class SwapRecord(NamedTuple):
    """Swap Hold'em: a seat's hole cards changed when ``street`` was dealt."""

    seat: int
    street: int
    old: Cards
    new: Cards


class AuctionRecord(NamedTuple):
    """Auction Hold'em: each seat's bid and the winning seats."""

    bids: tuple[int, ...]
    winners: tuple[int, ...]


class FaultRecord(NamedTuple):
    """A fault recorded with a hand."""

    seat: int
    player: str
    kind: str
    detail: str
    hand: int
    """The hand the fault happened in (a late end-of-hand reply belongs to the hand before)."""
    at: int | None
    """Index in the hand's actions of the decision it came with, when the line says so (an
    optional ``at`` field, which the kit's writer does not write: the timeline places a
    fault by its hand, seat and kind)."""


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of ``hands.jsonl``, checked; per-seat tuples are in seat order (0 = dealer)."""

    number: int
    players: tuple[str, ...]
    bankrolls_before: tuple[int, ...]
    hole_cards: tuple[Cards, ...]
    final_hands: tuple[Cards, ...]
    board: Cards
    bounties: tuple[str | None, ...] | None
    actions: tuple[HandAction, ...]
    swaps: tuple[SwapRecord, ...]
    auction: AuctionRecord | None
    showdown: bool
    deltas: tuple[int, ...]
    bounty_hits: tuple[bool | None, ...] | None
    faults: tuple[FaultRecord, ...]
    values: str | None = None
    """Permuted Hold'em: the match's order of the card values (None in other games)."""

    @property
    def seats(self) -> int:
        """How many seats the hand was played with."""
        return len(self.players)


class _Where:
    """Says where in which file a value came from, for error messages."""

    def __init__(self, path: Path, line: int) -> None:
        self.path = path
        self.line = line

    def error(self, problem: str) -> RunError:
        return RunError(f"{self.path}, line {self.line}: {problem}")

    def get(self, obj: dict[str, Any], key: str) -> Any:
        if key not in obj:
            raise self.error(
                f"the hand has no {key!r} field, so it was written by an older "
                f"(or newer) version of the kit; {RERUN}."
            )
        return obj[key]

    def integer(self, value: Any, what: str) -> int:
        if type(value) is not int:
            raise self.error(f"{what} should be a whole number, not {value!r}.")
        return value

    def seq(self, value: Any, what: str, length: int | None = None) -> list[Any]:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            size = "" if length is None else f" of {length}"
            raise self.error(f"{what} should be a list{size}, not {_short(value)}.")
        return value

    def cards(self, value: Any, what: str) -> Cards:
        items = self.seq(value, what)
        for card in items:
            if not isinstance(card, str) or not _CARD.match(card):
                raise self.error(f"{what} holds {card!r}, which is not a card like 'Ah'.")
        return tuple(items)

    def seat(self, value: Any, seats: int, what: str) -> int:
        seat = self.integer(value, what)
        if not 0 <= seat < seats:
            raise self.error(f"{what} is seat {seat}, but the hand has {seats} seats.")
        return seat

    def string(self, value: Any, what: str) -> str:
        if not isinstance(value, str):
            raise self.error(f"{what} should be text, not {_short(value)}.")
        return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: Toss Hold'em's rules, to read its discards (``D<index>``) back from a hands log.
_TOSS = Rules.for_variant("toss")


def parse_hand(obj: Any, path: Path | str = HANDS_FILE, line: int = 1) -> Hand:
    """Check one decoded ``hands.jsonl`` object and build its :class:`Hand`.

    ``path`` and ``line`` say where it came from in a :class:`~.errors.RunError`.
    """
    return _parse(obj, _Where(Path(path), line))


def _parse(obj: Any, where: _Where) -> Hand:
    if not isinstance(obj, dict):
        raise where.error(f"a hand should be a JSON object, not {_short(obj)}.")
    get = where.get
    players = tuple(
        where.string(p, "a player name") for p in where.seq(get(obj, "players"), "players")
    )
    n = len(players)
    if n < 2:
        raise where.error(f"a hand needs at least two players, not {n}.")

    def per_seat(key: str) -> list[Any]:
        return where.seq(get(obj, key), key, n)

    bankrolls = tuple(where.integer(v, "bankrolls_before") for v in per_seat("bankrolls_before"))
    holes = tuple(where.cards(v, "hole_cards") for v in per_seat("hole_cards"))
    finals = tuple(where.cards(v, "final_hands") for v in per_seat("final_hands"))
    deltas = tuple(where.integer(v, "deltas") for v in per_seat("deltas"))
    board = where.cards(get(obj, "board"), "board")
    bounties_raw = get(obj, "bounties")
    bounties = (
        None
        if bounties_raw is None
        else tuple(
            None if b is None else where.string(b, "bounties")
            for b in where.seq(bounties_raw, "bounties", n)
        )
    )
    hits_raw = get(obj, "bounty_hits")
    hits = (
        None
        if hits_raw is None
        else tuple(None if h is None else bool(h) for h in where.seq(hits_raw, "bounty_hits", n))
    )
    actions = []
    for item in where.seq(get(obj, "actions"), "actions"):
        if not isinstance(item, dict):
            raise where.error(f"an action should be an object, not {_short(item)}.")
        code = where.string(get(item, "action"), "an action")
        try:
            # The log's action codes are unambiguous: "A" only bids, "D" only discards.
            action = decode_action(code, _TOSS if code[:1] == "D" else None)
        except ProtocolError as error:
            raise where.error(f"the action {code!r} cannot be read: {error}") from None
        seconds = item.get("seconds")
        if seconds is not None and (type(seconds) not in (int, float) or not seconds >= 0):
            raise where.error(f"an action's seconds should be a number >= 0, not {seconds!r}.")
        actions.append(
            HandAction(
                where.seat(get(item, "seat"), n, "an action's seat"),
                where.integer(get(item, "street"), "an action's street"),
                action,
                code,
                bool(get(item, "forced")),
                None if seconds is None else float(seconds),
            )
        )
    swaps = []
    for item in where.seq(get(obj, "swaps"), "swaps"):
        if not isinstance(item, dict):
            raise where.error(f"a swap should be an object, not {_short(item)}.")
        swaps.append(
            SwapRecord(
                where.seat(get(item, "seat"), n, "a swap's seat"),
                where.integer(get(item, "street"), "a swap's street"),
                where.cards(get(item, "old"), "a swap's old cards"),
                where.cards(get(item, "new"), "a swap's new cards"),
            )
        )
    auction_raw = get(obj, "auction")
    auction = None
    if auction_raw is not None:
        if not isinstance(auction_raw, dict):
            raise where.error(f"auction should be an object or null, not {_short(auction_raw)}.")
        auction = AuctionRecord(
            tuple(
                where.integer(b, "a bid") for b in where.seq(get(auction_raw, "bids"), "bids", n)
            ),
            tuple(
                where.seat(s, n, "an auction winner")
                for s in where.seq(get(auction_raw, "winners"), "winners")
            ),
        )
    faults = []
    for item in where.seq(get(obj, "faults"), "faults"):
        if not isinstance(item, dict):
            raise where.error(f"a fault should be an object, not {_short(item)}.")
        at = item.get("at")
        faults.append(
            FaultRecord(
                where.seat(get(item, "seat"), n, "a fault's seat"),
                where.string(get(item, "player"), "a fault's player"),
                where.string(get(item, "kind"), "a fault's kind"),
                where.string(get(item, "detail"), "a fault's detail"),
                where.integer(get(item, "hand"), "a fault's hand"),
                None if at is None else where.integer(at, "a fault's action index"),
            )
        )
    values = obj.get("values")
    if values is not None and (not isinstance(values, str) or sorted(values) != sorted(RANKS)):
        raise where.error(
            f"values should be the 13 ranks {RANKS} in some order, not {_short(values)}."
        )
    return Hand(
        number=where.integer(get(obj, "hand"), "hand"),
        players=players,
        bankrolls_before=bankrolls,
        hole_cards=holes,
        final_hands=finals,
        board=board,
        bounties=bounties,
        actions=tuple(actions),
        swaps=tuple(swaps),
        auction=auction,
        showdown=bool(get(obj, "showdown")),
        deltas=deltas,
        bounty_hits=hits,
        faults=tuple(faults),
        values=values,
    )


def read_hands(path: Path) -> Iterator[Hand]:
    """Every hand of the ``hands.jsonl`` at ``path`` in the order played, checked one
    line at a time.

    Raises :class:`~.errors.RunError` at the first line that is cut off, is not JSON,
    lacks a field, or does not follow the hand before it.
    """
    try:
        stream = path.open("r", encoding="utf-8", errors="strict", newline="\n")
    except OSError as error:
        raise RunError(f"Cannot read {path}: {error.strerror or error}.") from None
    expected = 1
    with stream:
        line_no = 0
        try:
            for line_no, line in enumerate(stream, 1):
                where = _Where(path, line_no)
                if not line.endswith("\n"):
                    raise where.error(
                        "the last line is cut off (the match was stopped while writing, or "
                        "the file was truncated); the hands before it are fine: remove the "
                        "line to read them."
                    )
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as error:
                    raise where.error(
                        f"not a JSON object ({error.msg}); the file is damaged "
                        "or is not a hands.jsonl."
                    ) from None
                hand = _parse(obj, where)
                if hand.number != expected:
                    raise where.error(
                        f"expected hand {expected}, found hand {hand.number}; "
                        "the file is damaged or was edited."
                    )
                expected += 1
                yield hand
        except UnicodeDecodeError:
            raise RunError(
                f"{path}, after line {line_no}: not UTF-8 text; the file is "
                "damaged or is not a hands.jsonl."
            ) from None
