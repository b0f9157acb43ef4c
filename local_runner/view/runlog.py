"""Reading a run's files without trusting them.

A run directory holds ``summary.json`` and ``hands.jsonl`` as a scrimmage writes
them (``docs/runner-outputs.md``).  Either file may be missing, cut off by a
crash or a full disk, edited by hand, or written by an older version of the
kit; every such problem becomes a :class:`RunError` whose message names the
file, the line and what to do, never a traceback.

Hands are read lazily (:meth:`Run.hands`), one line at a time, so memory stays
flat however long the match.  Per-seat fields are tuples of any length: the
reader takes the number of seats from each record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from sdk.actions import Action
from sdk.errors import KitError
from sdk.protocol import ProtocolError, decode_action
from sdk.rules import Rules, RulesError

__all__ = [
    "HANDS_FILE",
    "SUMMARY_FILE",
    "AuctionRecord",
    "Cards",
    "FaultRecord",
    "Hand",
    "HandAction",
    "Run",
    "RunError",
    "SwapRecord",
    "open_run",
]

SUMMARY_FILE = "summary.json"
HANDS_FILE = "hands.jsonl"

Cards = tuple[str, ...]

_CARD = re.compile(r"[2-9TJQKA][cdhs]\Z")
_RERUN = "re-run the match with this version of the kit to get files it can read"


class RunError(KitError, ValueError):
    """A run that cannot be read; the message says which file, where, and what to do."""


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
    """Index in the hand's actions of the decision it came with, when the record says so."""


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
                f"(or newer) version of the kit; {_RERUN}."
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


def parse_hand(obj: Any, where: _Where) -> Hand:
    """Check one decoded ``hands.jsonl`` object and build its :class:`Hand`."""
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
    )


@dataclass(frozen=True)
class Run:
    """A finished (or interrupted) match's directory, its summary checked."""

    directory: Path
    summary: dict[str, Any]
    rules: Rules
    seed: int
    names: tuple[str, ...]
    """The players in the order they were named (``summary.json``)."""

    @property
    def hands_path(self) -> Path:
        """Where the hands are."""
        return self.directory / HANDS_FILE

    @property
    def variant(self) -> str:
        """The variant played."""
        return self.rules.variant

    def hands(self) -> Iterator[Hand]:
        """Every hand in the order played, checked one line at a time.

        Raises :class:`RunError` at the first line that is cut off, is not JSON,
        lacks a field, or does not follow the hand before it.
        """
        path = self.hands_path
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
                    hand = parse_hand(obj, where)
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

    def hand(self, number: int) -> Hand:
        """Hand ``number`` (from 1); :class:`RunError` if the run has no such hand."""
        if number < 1:
            raise RunError(f"Hands are numbered from 1; there is no hand {number}.")
        for hand in self.hands():
            if hand.number == number:
                return hand
        raise RunError(f"{self.directory} has no hand {number}; it has {self.hand_count()} hands.")

    def hand_count(self) -> int:
        """How many hands ``hands.jsonl`` holds (lines; not checked)."""
        try:
            with self.hands_path.open("rb") as stream:
                return sum(1 for _ in stream)
        except OSError:
            return 0


def _load_summary(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RunError(
            f"{path} is missing: the match did not finish writing its logs (it was killed), or "
            f"{path.parent} is not a run directory (pass the directory a scrimmage wrote, "
            "with summary.json and hands.jsonl)."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise RunError(f"Cannot read {path}: {error}.") from None
    try:
        summary = json.loads(text)
    except json.JSONDecodeError as error:
        raise RunError(
            f"{path} is not valid JSON ({error.msg} at line {error.lineno}); "
            "it is damaged or was cut off."
        ) from None
    if not isinstance(summary, dict):
        raise RunError(f"{path} should hold a JSON object.")
    return summary


def open_run(directory: Path | str) -> Run:
    """Open a run directory written by a scrimmage (or one match of a tournament).

    Checks ``summary.json`` (the rules, the seed, the players) and that
    ``hands.jsonl`` exists; the hands themselves are checked as they are read.
    A duplicate scrimmage's directory names its halves in the error.
    """
    path = Path(directory)
    if not path.is_dir():
        raise RunError(
            f"{path} is not a directory; pass the directory a scrimmage wrote "
            "(runs/scrimmage-<time>/ by default, or its --out)."
        )
    if not (path / HANDS_FILE).is_file():
        legs = [*path.glob("half-*"), *path.glob("leg-*")]  # heads-up halves, or 3-seat legs
        halves = sorted(p.name for p in legs if (p / HANDS_FILE).is_file())
        if halves:
            part = "half" if halves[0].startswith("half-") else "leg"
            raise RunError(
                f"{path} is a duplicate scrimmage: each {part} is its own run; pass "
                f"{path / halves[0]} (or {', '.join(halves[1:])})."
            )
        if (path / "tournament.json").is_file():
            raise RunError(
                f"{path} is a tournament: pass one of its matches "
                f"({path / 'matches'}/<id>/), or use `pokerbots report` on it."
            )
        raise RunError(
            f"{path} has no {HANDS_FILE}: it is not a run directory written by "
            "`pokerbots scrimmage` (or the match never started)."
        )
    summary_path = path / SUMMARY_FILE
    summary = _load_summary(summary_path)
    for key in ("rules", "seed", "players"):
        if key not in summary:
            raise RunError(
                f"{summary_path} has no {key!r}: it was written by an older version "
                f"of the kit; {_RERUN}."
            )
    try:
        rules = Rules.from_dict(summary["rules"])
    except (RulesError, TypeError) as error:
        raise RunError(f"{summary_path}: its rules cannot be used: {error}") from None
    seed = summary["seed"]
    players = summary["players"]
    if type(seed) is not int:
        raise RunError(f"{summary_path}: the seed should be a whole number, not {seed!r}.")
    if (
        not isinstance(players, list)
        or len(players) < 2
        or not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in players)
    ):
        raise RunError(f"{summary_path}: 'players' should list at least two players with names.")
    return Run(path, summary, rules, seed, tuple(p["name"] for p in players))
