"""The MIT view: the engine's events of a hand as one seat's MIT messages.

Every MIT message is the history since the seat's previous message, as clauses
(:mod:`sdk.protocol`), with the seat's game clock first; it is sent when the seat must act
and when the hand ends (that one is answered with ``K``).  What a seat may see is decided
here, once, as the MIT engines of each year decide it:

* a new hand opens with ``P`` (the seat) and ``H`` (its cards), then ``G`` (its bounty rank,
  Bounty Hold'em; empty in Toss Hold'em);
* every action (a discard too) is shown to every seat, except a sealed bid: the second
  bidder learns that a bid was made (``A-1``), not its amount, until the auction's ``N``
  shows both;
* ``B`` carries the whole board at each new street (once, when the board runs out to a
  showdown), followed in Swap Hold'em by ``U``, the seat's hand on the flop and the turn;
* after an auction, ``P``, ``N`` (stacks, bids, the seat's hand) and ``B``;
* at a heads-up showdown ``O``, the opponent's cards; then ``D`` (or Toss Hold'em's ``A``),
  the seat's delta, and in Bounty Hold'em ``Y``, the bounty hits with a loser's masked.

The view reads the hand's record from where it stopped the last time it was asked, so the
engine does no work per action for it (see :mod:`local_runner.engine.seat_view`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk.actions import HIDDEN_BID, BidAction
from sdk.games import swap_streets
from sdk.protocol import (
    AuctionResult,
    Board,
    BountyHits,
    BountyRank,
    Clause,
    Clock,
    Delta,
    HoleCards,
    OpponentHand,
    Position,
    RoundStart,
    UpdatedHand,
)
from sdk.rules import MAX_SEATS, Rules
from sdk.states import RoundState

from .records import ActionEvent, AuctionEvent, Event, HandRecord, StreetEvent, SwapEvent

__all__ = ["MitView"]

_HIDDEN_BID = BidAction(HIDDEN_BID)


class MitView:
    """One seat's MIT clauses, from the engine's records (see the module docstring)."""

    __slots__ = (
        "_board",
        "_bounty",
        "_cursor",
        "_hand",
        "_history",
        "_plain",
        "_record",
        "_swap_streets",
        "_toss",
        "_updates_due",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        """A view of matches played with ``rules`` (they say which clauses a game has)."""
        self.rules = rules
        self._plain = rules.swap is None and not rules.auction  # actions and boards only
        self._bounty = rules.bounty is not None
        self._toss = rules.discard
        self._swap_streets = swap_streets(rules)
        self._record: HandRecord | None = None
        self._cursor = 0  # events of the record already turned into clauses
        self._history: list[Clause] = [_CLOCK_SLOT]  # the next message: its clock's slot,
        # then the clauses not yet sent (a busy seat's backlog too)
        self._hand: tuple[str, ...] = ()  # the seat's cards now (Swap Hold'em's U)
        self._board: tuple[str, ...] = ()  # the board now (the auction's B)
        self._updates_due = False  # a swap street was dealt: U follows its swaps

    # The message is the history list itself, its first slot kept for the clock: this runs
    # for every message of every in-process match (docs/performance.md).

    def question(
        self, record: HandRecord, seat: int, state: RoundState | None, clock: float
    ) -> list[Clause]:
        """The clock and the history since the seat's last message: it must act.
        (``state`` is the state it acts in; the history alone makes the message.)"""
        if record is not self._record:
            self._open(record, seat)
        events = record.events
        history = self._history
        if self._plain:
            end = len(events)
            if self._cursor < end:
                for event in events[self._cursor : end]:
                    if type(event) is ActionEvent:
                        history.append(event.action)
                    elif type(event) is StreetEvent:
                        _append_board(history, event.board)
                self._cursor = end
        else:
            self._catch_up(events, seat)
        history[0] = Clock(clock if clock > 0.0 else 0.0)
        self._history = [_CLOCK_SLOT]
        return history

    def hand_end(self, record: HandRecord, seat: int, clock: float) -> tuple[list[Clause], bool]:
        """The clock, the rest of the hand and its result; answered with ``K``."""
        history = self.question(record, seat, None, clock)
        if record.showdown and len(record.players) == 2:
            history.append(OpponentHand(record.final_hands[1 - seat]))
        history.append(Delta(record.deltas[seat]))
        if self._bounty:
            history.append(_bounty_hits(record, seat))
        self._record = None  # the hand is over: the next record opens a new one
        return history, True

    def hold(self, record: HandRecord, seat: int) -> None:
        """Add the rest of the finished hand and its result to the history not yet sent."""
        message, _ = self.hand_end(record, seat, 0.0)
        message[0] = _CLOCK_SLOT  # the next message's clock goes here; the rest waits for it
        self._history = message

    def _open(self, record: HandRecord, seat: int) -> None:
        """A new hand: the seat, its cards, its bounty rank."""
        self._record = record
        self._cursor = 0
        hand = record.dealt[seat]
        if not self._plain:  # what _catch_up follows
            self._hand, self._board, self._updates_due = hand, (), False
        history = self._history
        history.append(_POSITIONS[seat])
        history.append(HoleCards(hand))
        if self._bounty:
            history.append(BountyRank(record.bounties[seat] or ""))
        elif self._toss:  # the MIT 2026 engine's empty G
            history.append(RoundStart())

    def _catch_up(self, events: Sequence[Event], seat: int) -> None:
        """Turn the events the seat has not seen yet into clauses, in a game with swaps or
        an auction (what a seat sees of them is its own)."""
        cursor, end = self._cursor, len(events)
        self._cursor = end
        history = self._history
        append = history.append
        for event in events[cursor:end]:
            if type(event) is ActionEvent:
                if self._updates_due:
                    self._update(history)
                action = event.action
                if (
                    type(action) is BidAction
                    and event.seat != seat
                    and event.state.bids[1 - event.seat] is None
                ):
                    append(_HIDDEN_BID)  # a sealed bid: that a bid was made, not its amount
                else:
                    append(action)
            elif type(event) is StreetEvent:
                if self._updates_due:
                    self._update(history)
                self._board = event.board
                _append_board(history, event.board)
                self._updates_due = event.street in self._swap_streets
            elif type(event) is SwapEvent:
                if event.seat == seat:
                    self._hand = event.new
            elif type(event) is AuctionEvent:
                if self._updates_due:
                    self._update(history)
                self._hand = event.hands[seat]
                stacks = event.stacks
                append(Position(seat))
                append(AuctionResult((stacks[0], stacks[1]), event.bids, self._hand))
                append(Board(self._board))
        if self._updates_due:
            self._update(history)

    def _update(self, history: list[Clause]) -> None:
        """Swap Hold'em's ``U``: the seat's hand once the street's swaps are done."""
        history.append(UpdatedHand(self._hand))
        self._updates_due = False


def _append_board(history: list[Clause], board: tuple[str, ...]) -> None:
    """Append ``B``; one right after another ``B`` replaces it, since ``B`` carries the whole
    board: so a board that runs out to a showdown is one ``B`` with all of it.

    The clause is shared with the other seats' views of the same street (the last one made
    is kept: the board tuple is the engine's, the same object for every seat)."""
    clause = _last_board[0]
    if clause.cards is not board:
        clause = _last_board[0] = Board(board)
    if type(history[-1]) is Board:
        history[-1] = clause
    else:
        history.append(clause)


#: The position clauses, made once (clauses are immutable).
_POSITIONS = tuple(Position(seat) for seat in range(MAX_SEATS))
_CLOCK_SLOT = Clock(0.0)  # replaced by the seat's clock when its message is sent
_last_board = [Board(())]  # one-entry memo of _append_board: reading or replacing it is atomic


def bounty_hits_shown(record: HandRecord, seat: int) -> tuple[bool | None, bool | None]:
    """The bounty hits a seat is shown at the end of a hand, its own then the opponent's,
    as the MIT 2025 engine shows them: a loser's flag is masked (also read by
    :class:`~local_runner.engine.masked_view.MaskedView`)."""
    hits = list(record.bounty_hits)
    if record.deltas[0] > 0:
        hits[1] = None
    elif record.deltas[1] > 0:
        hits[0] = None
    return hits[seat], hits[1 - seat]


def _bounty_hits(record: HandRecord, seat: int) -> BountyHits:
    """The ``Y`` clause."""
    return BountyHits(*bounty_hits_shown(record, seat))
