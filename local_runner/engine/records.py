"""What a match produces: one record per hand and a result for the match.

The engine appends small named tuples (cheap to make: one per action) to a
hand's event list as the hand is played and formats nothing; the log writers
(:mod:`local_runner.runs`) turn records into text only when someone asked for logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sdk.actions import Action
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState

from .faults import Fault, FaultKind

__all__ = [
    "ActionEvent",
    "AuctionEvent",
    "Event",
    "FaultEvent",
    "HandRecord",
    "MatchResult",
    "PlayerResult",
    "StreetEvent",
    "SwapEvent",
]

Cards = tuple[str, ...]


class ActionEvent(NamedTuple):
    """``seat`` played ``action`` in ``state`` (the state before the action)."""

    seat: int
    action: Action
    state: RoundState
    forced: bool = False
    """True when the runner played it without asking (the only legal move, or a default)."""
    seconds: float | None = None
    """The reply's time charged to the bot's clock (None when the bot was not asked)."""


class StreetEvent(NamedTuple):
    """A street was dealt: the board so far, and each seat's stack (what it has put in is
    the starting stack less that: the logs show it)."""

    street: int
    board: Cards
    stacks: tuple[int, ...]


class SwapEvent(NamedTuple):
    """Swap Hold'em: ``seat``'s hole cards changed from ``old`` to ``new``."""

    seat: int
    old: Cards
    new: Cards


class AuctionEvent(NamedTuple):
    """Auction Hold'em: the bids, the winning seats, and each seat's hand afterwards."""

    bids: tuple[int, int]
    winners: tuple[int, ...]
    hands: tuple[Cards, ...]
    stacks: tuple[int, ...]


class FaultEvent(NamedTuple):
    """A fault by ``seat`` at this point of the hand."""

    seat: int
    fault: Fault


Event = ActionEvent | StreetEvent | SwapEvent | AuctionEvent | FaultEvent


@dataclass(slots=True)
class HandRecord:
    """Everything about one hand, in seat order (seat 0 = dealer)."""

    number: int
    players: tuple[str, ...]
    bankrolls_before: tuple[int, ...]
    dealt: tuple[Cards, ...]
    bounties: tuple[str | None, ...]
    events: list[Event] = field(default_factory=list)
    final_hands: tuple[Cards, ...] = ((), ())
    board: Cards = ()
    deltas: tuple[int, ...] = (0, 0)
    showdown: bool = False
    bounty_hits: tuple[bool | None, ...] = (None, None)
    values: str | None = None
    """Permuted Hold'em: the match's order of the card values, which ranked the showdown."""
    terminal: TerminalState | None = None
    """The hand's last state, as the engine settled it (what a masked in-process view shows
    its seat of the finished hand: :mod:`local_runner.engine.masked_view`)."""

    @property
    def faults(self) -> list[tuple[int, Fault]]:
        """The (seat, fault) pairs of this hand."""
        return [(e.seat, e.fault) for e in self.events if isinstance(e, FaultEvent)]


@dataclass(slots=True)
class PlayerResult:
    """One player's result over a match."""

    name: str
    bankroll: int = 0
    time_used: float = 0.0
    fault_counts: dict[FaultKind, int] = field(default_factory=dict)
    first_faults: list[Fault] = field(default_factory=list)
    decisions: int = 0
    """Decisions the bot was asked to make."""
    start_failure: str | None = None
    """Why the bot never played (its build failed, or it never connected); None if it did."""
    clock_ran_out_hand: int | None = None
    """The hand in which the bot's game clock ran out (None if it never did)."""
    output_dropped_bytes: int = 0
    """Bytes of the bot's output past the log limit: counted, not kept (a note, not a fault,
    as on the MIT engine, which truncates a bot's log the same way)."""
    defaulted: int = 0
    """Decisions played by default without asking the bot: it was still late with an earlier
    reply, out of game clock, crashed or disconnected (the only-legal-move shortcut excluded)."""
    reply_times: list[float] = field(default_factory=list)
    """Seconds per decision, kept only when the match settings ask for them."""
    peak_memory_bytes: int | None = None
    """The bot processes' largest resident memory (None for in-process bots)."""
    leftover_processes: list[int] = field(default_factory=list)
    """Pids of the bot's processes that survived SIGKILL (normally none)."""
    lingering_processes: list[str] = field(default_factory=list)
    """The bot's processes still running when its grace period after the match ran out
    (``'pid 123 (sleep 60)'``); the runner ended them."""

    def to_dict(self) -> dict[str, Any]:
        """The ``players`` entry of ``summary.json``."""
        return {
            "name": self.name,
            "bankroll": self.bankroll,
            "time_used": round(self.time_used, 6),
            "decisions": self.decisions,
            "decisions_defaulted": self.defaulted,
            "start_failure": self.start_failure,
            "clock_ran_out_hand": self.clock_ran_out_hand,
            "output_dropped_bytes": self.output_dropped_bytes,
            "peak_memory_bytes": self.peak_memory_bytes,
            "leftover_processes": self.leftover_processes,
            "lingering_processes": self.lingering_processes,
            "faults": {kind.value: self.fault_counts.get(kind, 0) for kind in FaultKind},
            "fault_details": [fault.to_dict() for fault in self.first_faults],
        }


@dataclass(slots=True)
class MatchResult:
    """The outcome of a match: players in the order they were given."""

    rules: Rules
    seed: int
    hands_played: int
    players: tuple[PlayerResult, ...]
    interrupted: bool = False
    wall_seconds: float = 0.0

    @property
    def not_started(self) -> list[PlayerResult]:
        """The players that failed to build or never connected."""
        return [player for player in self.players if player.start_failure is not None]

    def to_dict(self) -> dict[str, Any]:
        """The match's part of ``summary.json`` (the statistics are the table's)."""
        return {
            "variant": self.rules.variant,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "rounds": self.hands_played,
            "rounds_scheduled": self.rules.num_rounds,
            "interrupted": self.interrupted,
            "wall_seconds": round(self.wall_seconds, 3),
            "players": [player.to_dict() for player in self.players],
        }
