"""Match logs: the MIT ``gamelog.txt``, one JSON line per hand, and ``summary.json``.

:class:`MatchLogWriter` is the engine's ``on_hand`` observer: it appends each
finished hand to the open files, so its memory stays flat however long the
match.  ``gamelog.txt`` follows the line grammar of the MIT engine of the
variant (``reference/mit-engines.md``, sections 1.10 and 2.2-2.5), so
scrimmage-style parsers read it unchanged.  Where those notes leave the line
order open, it follows the MIT engine sources:

* Bounty: ``Bounties reset ...`` comes right after the ``Round`` line and names
  the players in seat order, ``X hits their bounty`` and ``Winning counts at the
  end of the round: , X (..), Y (..)`` come after the ``awarded`` lines.
* Auction: the ``won the auction`` lines come before the repeated flop line;
  ``Players submitted bids ...`` ends the hand.

Unlike the MIT engine the gamelog ends with a newline, the header says
``6.9630`` for every variant (2022 said ``6.176``), and the unreliable
``bets EV`` diagnostics are not written.  A writer left without :meth:`close`
(an exception in the match) leaves the gamelog without its ``Final`` line.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from sdk.actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.protocol import encode_action
from sdk.rules import Rules
from sdk.states import RoundState

from ..engine.faults import Fault, FaultKind
from ..engine.records import (
    ActionEvent,
    AuctionEvent,
    HandRecord,
    MatchResult,
    StreetEvent,
    SwapEvent,
)
from ..engine.seating import slots_in_seats

__all__ = [
    "GAMELOG_FILE",
    "HANDS_FILE",
    "SUMMARY_FILE",
    "MatchLogWriter",
    "format_fault",
    "format_hand",
    "hand_to_json",
]

GAMELOG_FILE = "gamelog.txt"
HANDS_FILE = "hands.jsonl"
SUMMARY_FILE = "summary.json"

_BUFFER_BYTES = 1 << 16
_STREET_NAMES = {3: "Flop", 4: "Turn", 5: "River"}
#: The MIT 2026 engine's labels (Toss Hold'em): a street is named by the street before it.
_TOSS_STREET_NAMES = {2: "Flop", 3: "Discard 1", 4: "Discard 2", 5: "Turn", 6: "River"}
_PLAIN_ACTIONS: dict[type, str] = {FoldAction: "folds", CallAction: "calls", CheckAction: "checks"}
_JSON = json.JSONEncoder(separators=(",", ":"), check_circular=False)

# Details that already read as the MIT engine's fault lines do.
_MIT_FAULT_PREFIXES = (
    "attempted illegal ",
    "response misformatted",
    "ran out of time",
    "disconnected",
)
# How each fault kind reads after the player's name otherwise.
_FAULT_WORDS = {
    FaultKind.ILLEGAL: "attempted illegal action",
    FaultKind.MISFORMATTED: "response misformatted",
    FaultKind.DISCONNECTED: "disconnected",
    FaultKind.TIMEOUT: "timed out",
    FaultKind.CRASH: "crashed",
    FaultKind.BUILD_FAILED: "build failed",
    FaultKind.NEVER_CONNECTED: "never connected",
    FaultKind.BOT_ERROR: "raised an exception in get_action",
    FaultKind.LEFTOVER_PROCESSES: "left processes behind",
}


def format_fault(name: str, fault: Fault) -> str:
    """The gamelog line of a fault, in MIT wording where there is one.

    >>> format_fault("A", Fault(FaultKind.TIMEOUT, 3, "ran out of time"))
    'A ran out of time'
    >>> format_fault("B", Fault(FaultKind.CRASH, 3, "exited (signal 9 (SIGKILL))"))
    'B crashed: exited (signal 9 (SIGKILL))'
    """
    detail = fault.detail
    if detail.startswith(_MIT_FAULT_PREFIXES):
        return f"{name} {detail}"
    words = _FAULT_WORDS[fault.kind]
    return f"{name} {words}: {detail}" if detail else f"{name} {words}"


def _action_line(name: str, action: Action, state: RoundState) -> str:
    if isinstance(action, RaiseAction):
        pips = state.pips
        verb = " bets " if pips[0] == 0 and pips[1] == 0 else " raises to "
        return name + verb + str(action.amount)
    if isinstance(action, BidAction):
        return f"{name} bids {action.amount}"
    if isinstance(action, DiscardAction):
        hand = state.hands[state.actor]
        return f"{name} discards {hand[action.index]}"
    return f"{name} {_PLAIN_ACTIONS[type(action)]}"


def _street_line(
    names: tuple[str, ...],
    street: int,
    board: tuple[str, ...],
    stacks: tuple[int, ...],
    start: int,
    toss: bool = False,
) -> str:
    """A new street: its board, and what each seat has put in (its starting stack less its
    stack now)."""
    chips = ", ".join(
        f"{name} ({start - stack})" for name, stack in zip(names, stacks, strict=True)
    )
    label = (_TOSS_STREET_NAMES if toss else _STREET_NAMES)[street]
    return f"{label} [{' '.join(board)}], {chips}"


def format_hand(record: HandRecord, rules: Rules) -> list[str]:
    """The gamelog lines of one hand, from its ``Round #`` line on.

    The blank line that precedes each hand in the file is not included.  Pure:
    the same record and rules always give the same lines.
    """
    names = record.players
    seats = range(len(names))
    bounty = rules.bounty
    chips = ", ".join(f"{n} ({b})" for n, b in zip(names, record.bankrolls_before, strict=True))
    lines = [f"Round #{record.number}, {chips}"]
    if bounty is not None and (record.number - 1) % bounty.period == 0:
        (n0, n1), (r0, r1) = names, record.bounties
        lines.append(f"Bounties reset to {r0} for player {n0} and {r1} for player {n1}")
    small_seat, big_seat = (0, 1) if len(names) == 2 else (1, 2)
    lines += (
        f"{names[small_seat]} posts the blind of {rules.small_blind}",
        f"{names[big_seat]} posts the blind of {rules.big_blind}",
        *(f"{names[seat]} dealt [{' '.join(record.dealt[seat])}]" for seat in seats),
    )
    show_hands = rules.swap is not None
    hands = list(record.dealt)
    swapped = [False] * len(names)
    folded = [False] * len(names)
    hands_due = False  # a Flop/Turn line waits for its swaps before the hand lines
    board: tuple[str, ...] = ()
    bids: tuple[int, int] | None = None
    append = lines.append

    def append_hands() -> None:
        for seat in seats:
            append(f"{names[seat]}'s hand: [{' '.join(hands[seat])}]")

    for event in record.events:
        if hands_due and not isinstance(event, SwapEvent):
            append_hands()
            hands_due = False
        if isinstance(event, ActionEvent):
            append(_action_line(names[event.seat], event.action, event.state))
            folded[event.seat] = folded[event.seat] or isinstance(event.action, FoldAction)
        elif isinstance(event, StreetEvent):
            board = event.board
            append(
                _street_line(
                    names, event.street, board, event.stacks, rules.starting_stack, rules.discard
                )
            )
            if bounty is not None or rules.discard:
                append(f"Current stacks: {event.stacks[0]}, {event.stacks[1]}")
            hands_due = show_hands and event.street in (3, 4)
        elif isinstance(event, SwapEvent):
            hands[event.seat] = event.new
            swapped[event.seat] = True
        elif isinstance(event, AuctionEvent):
            bids = event.bids
            for seat in event.winners:
                append(f"{names[seat]} won the auction and was dealt [{event.hands[seat][-1]}]")
            s0, s1 = event.stacks
            append(_street_line(names, 3, board, event.stacks, rules.starting_stack))
            if bounty is not None:
                append(f"Current stacks: {s0}, {s1}")
        else:
            append(format_fault(names[event.seat], event.fault))
    if hands_due:
        append_hands()
    if record.showdown:
        for seat in seats:
            if not folded[seat]:
                append(f"{names[seat]} shows [{' '.join(record.final_hands[seat])}]")
    for seat in seats:
        tag = " (swapped)" if swapped[seat] else ""
        append(f"{names[seat]}{tag} awarded {record.deltas[seat]}")
    if rules.auction:
        if bids is None:
            append("Players did not reach flop. No auction occured.")
        else:
            append(f"Players submitted bids of {bids[0]} and {bids[1]}")
    if bounty is not None:
        for seat in (0, 1):
            if record.bounty_hits[seat]:
                append(f"{names[seat]} hits their bounty")
        (n0, n1), (b0, b1) = names, record.bankrolls_before
        e0, e1 = b0 + record.deltas[0], b1 + record.deltas[1]
        append(f"Winning counts at the end of the round: , {n0} ({e0}), {n1} ({e1})")
    return lines


def hand_to_json(record: HandRecord) -> dict[str, object]:
    """The ``hands.jsonl`` object of one hand (sequences are tuples: JSON arrays).

    Every key is always present: ``bounties`` and ``bounty_hits`` are None
    outside Bounty Hold'em, ``auction`` is None when no auction took place, and
    ``swaps`` is empty when no card was swapped.  Per-seat lists are in seat order.
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
    return {
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


class MatchLogWriter:
    """Streams a match's logs into an output directory as hands finish.

    Memory stays flat in the number of hands: each hand is one ``write`` to
    each of ``gamelog.txt`` and ``hands.jsonl`` (buffered, never flushed per
    hand).  Pass :meth:`on_hand` as the engine's observer, then call
    :meth:`close` with the match result::

        with MatchLogWriter(out, rules, ("A", "B"), seed) as logs:
            result = Match(seats, rules, seed, on_hand=logs.on_hand).play()
            logs.close(result)
    """

    def __init__(
        self, out_dir: Path | str, rules: Rules, player_names: tuple[str, ...], seed: int
    ) -> None:
        """Create ``out_dir`` if needed, open both logs and write the gamelog header."""
        self.out_dir = Path(out_dir)
        self.rules = rules
        self.player_names = player_names
        self.seed = seed
        self.closed = False
        self.out_dir.mkdir(parents=True, exist_ok=True)
        with ExitStack() as opened:  # both files open, or neither
            self._gamelog = opened.enter_context(self._open(GAMELOG_FILE))
            self._hands = opened.enter_context(self._open(HANDS_FILE))
            self._files = opened.pop_all()
        self._gamelog.write(f"6.9630 MIT Pokerbots - {' vs '.join(player_names)}")

    def on_hand(self, record: HandRecord) -> None:
        """Append the finished hand ``record`` to ``gamelog.txt`` and ``hands.jsonl``."""
        self._gamelog.write("\n\n" + "\n".join(format_hand(record, self.rules)))
        self._hands.write(_JSON.encode(hand_to_json(record)) + "\n")

    def close(self, result: MatchResult, summary_extra: dict[str, Any] | None = None) -> None:
        """Write the ``Final`` line, close the logs and write ``summary.json``.

        ``summary.json`` is ``result.to_dict()`` updated with ``summary_extra``.
        The ``Final`` line lists the players in the seat order after the last
        hand, as the MIT engine does: the first player first when an even number
        of hands was played.  Calling it again does nothing.
        """
        if self.closed:
            return
        try:
            order = slots_in_seats(result.hands_played + 1, len(result.players))
            final = ", ".join(
                f"{result.players[slot].name} ({result.players[slot].bankroll})" for slot in order
            )
            self._gamelog.write(f"\n\nFinal, {final}\n")
        finally:
            self._close_files()
        summary = result.to_dict()
        if summary_extra:
            summary.update(summary_extra)
        (self.out_dir / SUMMARY_FILE).write_text(
            json.dumps(summary, indent=2) + "\n", encoding="utf-8"
        )

    def _open(self, name: str) -> TextIO:
        return open(
            self.out_dir / name, "w", encoding="utf-8", newline="\n", buffering=_BUFFER_BYTES
        )

    def _close_files(self) -> None:
        self.closed = True
        self._files.close()

    def __enter__(self) -> MatchLogWriter:
        """The writer itself."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the files if :meth:`close` was not called (no ``Final`` line, no summary)."""
        if not self.closed:
            self._close_files()
