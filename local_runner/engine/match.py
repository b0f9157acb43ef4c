"""The reference engine: plays the hands of a match between its seats.

For every hand the dealer fixes the cards from (seed, hand number); the engine
then steps the SDK's :class:`~sdk.states.RoundState` (the same state machine a
bot's client steps), asks the seat to act for each decision, and settles the
hand with the SDK's payoff rules.  The engine knows no wire: it keeps the
hand's events in its :class:`~local_runner.engine.records.HandRecord`, and each seat's
view (:mod:`local_runner.engine.seat_view`: MIT clauses or ACPC lines) turns them into
that seat's messages when the seat must act and when the hand ends.

A seat never has more than one unanswered message: the MIT skeletons read and
write through one buffered text file (``sock.makefile('rw')``), and CPython
drops what such a file has read ahead when it writes, so a second line sent
before the first is answered can be lost for good.  Within that rule the
engine avoids waiting where it can: a decision with only one legal move (a
check when someone is all-in, a bid of 0 with an empty stack) is played
without a round trip, its events riding along with the next message; and the
end-of-hand acknowledgement of a seat is collected only when that seat is next
asked something, so the seats' acknowledgements travel at the same time and
the others may act meanwhile (each reply is still timed from when the bot
could start on it).  A protocol whose hand end asks for no answer (ACPC) is
told it without a reply being owed (a socket seat writes it with the seat's next
message: :meth:`~local_runner.engine.socket_seat.SocketSeat.tell`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sdk.actions import Action, CheckAction, DiscardAction
from sdk.games import swap_streets
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState
from sdk.variants.permuted import draw_values

from .dealer import Deal, bounty_ranks, deal_hand, showdown_ranks
from .faults import Fault, FaultKind
from .interrupts import counting
from .records import (
    ActionEvent,
    AuctionEvent,
    FaultEvent,
    HandRecord,
    MatchResult,
    PlayerResult,
    StreetEvent,
    SwapEvent,
)
from .seat_view import SeatView
from .seating import seat_of, slots_in_seats
from .seats import Reply, Seat

__all__ = ["Match", "MatchSettings"]

#: How many fault details a player result keeps (the counts are always complete).
MAX_FAULT_DETAILS = 50

_FIRST_ERROR = re.compile(r"hand (\d+): get_action raised (.*?)(; sent .*)?$")

#: Records made per action are built with ``tuple.__new__``, cheaper than a named tuple's
#: own constructor.
_new = tuple.__new__


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """The engine's own parameters (the game's are in :class:`sdk.rules.Rules`)."""

    reply_timeout: float = 10.0
    """Seconds a single reply may take before it is a timeout (the MIT engine's hidden 10 s)."""
    enforce_clock: bool = True
    """Charge reply times to the game clock and stop asking a bot whose clock ran out."""
    record_reply_times: bool = False
    """Keep every decision's reply time in ``PlayerResult.reply_times`` (for validation)."""


@dataclass(slots=True)
class _Player:
    """A player's running state during the match."""

    slot: int
    """0 for the first player of the match (the dealer in hand 1), 1 for the second, ..."""
    seat: Seat
    view: SeatView
    """The seat's messages from the hands' events (made by the seat: its protocol's)."""
    clock: float
    result: PlayerResult
    out_of_time: bool = False
    hand_faults: list[Fault] = field(default_factory=list)
    """Faults noted since the last hand record was written."""

    @property
    def gone(self) -> bool:
        """Never asked again: out of time, crashed or disconnected."""
        return self.out_of_time or not self.seat.alive

    @property
    def reachable(self) -> bool:
        """Can be asked now: not gone, and not still owing a reply that timed out."""
        return not self.out_of_time and self.seat.alive and not self.seat.busy


HandObserver = Callable[[HandRecord], None]


class Match:
    """A match between ``rules.seats`` seats; the first seat is the dealer in hand 1."""

    def __init__(
        self,
        seats: Sequence[Seat],
        rules: Rules,
        seed: int,
        settings: MatchSettings = MatchSettings(),
        on_hand: HandObserver | None = None,
    ) -> None:
        if len(seats) != rules.seats:
            raise ValueError(
                f"These rules seat {rules.seats} players, but {len(seats)} seats were given."
            )
        self.rules = rules
        self._swap_streets = swap_streets(rules)  # the deal holds a swap plan for each
        self.seed = seed
        self.settings = settings
        self.on_hand = on_hand
        self.players = tuple(
            _Player(slot, seat, seat.make_view(rules), rules.game_clock, PlayerResult(seat.name))
            for slot, seat in enumerate(seats)
        )
        self.values = None if rules.permutation is None else draw_values(seed, rules.permutation)
        """Permuted Hold'em: the match's secret order of the card values (else None)."""
        self.hands_played = 0
        self.interrupted = False
        self._stopped = False
        # Per rotation of the seats (slots_in_seats): the players and their names in seat
        # order, made once per match rather than once per hand.
        self._seatings: dict[tuple[int, ...], tuple[tuple[_Player, ...], tuple[str, ...]]] = {}
        self._no_bounties: tuple[str | None, ...] = (None,) * rules.seats

    # -- the match ---------------------------------------------------------

    def play(self, rounds: int | None = None) -> MatchResult:
        """Play ``rounds`` hands (default: the rules' ``num_rounds``) and end the match."""
        start = time.perf_counter()
        total = self.rules.num_rounds if rounds is None else rounds
        try:
            for number in range(self.hands_played + 1, total + 1):
                if self._stopped:
                    break
                self.play_hand(number)
        except KeyboardInterrupt:
            # Ctrl-C: the hand in progress is dropped; everything before it stands.
            self._stopped = self.interrupted = True
        finally:
            self.finish(collect=not self.interrupted)
        return self.result(time.perf_counter() - start)

    def stop(self) -> None:
        """Ask :meth:`play` to end after the current hand."""
        self._stopped = True

    def result(self, wall_seconds: float = 0.0) -> MatchResult:
        """The result so far."""
        return MatchResult(
            self.rules,
            self.seed,
            self.hands_played,
            tuple(player.result for player in self.players),
            self.interrupted,
            wall_seconds,
        )

    def finish(self, collect: bool = True) -> None:
        """Collect outstanding replies (unless ``collect`` is False), then send ``Q``."""
        for player in self.players:
            if collect:
                self._collect(player)
            count, first = player.seat.bot_errors()
            if count:
                self.note_bot_errors(player.slot, count, first or "")
            self._flush_faults(player, None)
        for player in self.players:
            if player.seat.alive:
                player.seat.quit()

    # -- one hand ----------------------------------------------------------

    def play_hand(self, number: int) -> HandRecord:
        """Play hand ``number`` (from 1) and return its record."""
        rules = self.rules
        deal = deal_hand(rules, self.seed, number)
        slots = slots_in_seats(number, rules.seats)
        seating = self._seatings.get(slots)
        if seating is None:  # the players and names in seat order: one per rotation
            players = tuple([self.players[slot] for slot in slots])
            names = tuple([player.result.name for player in players])
            seating = self._seatings[slots] = (players, names)
        by_seat, names = seating
        bounties = self._no_bounties
        if rules.bounty is not None:
            slot_ranks = bounty_ranks(self.seed, (number - 1) // rules.bounty.period)
            bounties = tuple([slot_ranks[slot] for slot in slots])
        # A list comprehension rather than a generator: this runs once per hand, every match.
        bankrolls = tuple([player.result.bankroll for player in by_seat])
        record = HandRecord(number, names, bankrolls, deal.holes, bounties)
        record.values = self.values
        state: RoundState | TerminalState = RoundState.new_hand(rules, deal.holes, bounties)
        events = record.events
        while isinstance(state, RoundState):
            active = state.actor
            player = by_seat[active]
            action, forced, seconds = self._decide(player, active, state, record)
            if player.hand_faults:  # as the MIT engines log it: the fault, then its default
                self._flush_faults(player, record)
            events.append(_new(ActionEvent, (active, action, state, forced, seconds)))
            before = state
            state = state.proceed(action)
            if isinstance(state, RoundState):
                if before.auction and not state.auction:
                    state = self._resolve_auction(state, deal, record)
                if state.street != before.street:
                    state = self._deal_street(state, deal, record)
        self._settle(state, record, by_seat, deal)
        # The hand counts: all of it, or (Ctrl-C before this) none of it (engine.interrupts).
        counting.active = True
        try:
            deltas = record.deltas
            for seat, player in enumerate(by_seat):
                player.result.bankroll += deltas[seat]
            self.hands_played = number
            if self.on_hand is not None:
                self.on_hand(record)
        finally:
            counting.active = False
            if counting.pending:  # a Ctrl-C came while the hand was being counted
                counting.pending = False
                raise KeyboardInterrupt
        return record

    def _decide(
        self, player: _Player, seat: int, state: RoundState, record: HandRecord
    ) -> tuple[Action, bool, float | None]:
        """The action of the seat to act, whether the runner played it, and the reply's time
        (None when the bot was not asked)."""
        legal = state.legal_actions()
        only = state.only_move(legal) if len(legal) == 1 else None  # most decisions: a choice
        if only is not None:
            # The only legal move: play it without a round trip; the history
            # travels with this player's next message.
            return only, True, None
        bot = player.seat
        if bot.outstanding:  # the last hand's K first: one unanswered message per seat
            self._collect(player)
        # `reachable`, spelled out: this runs once per decision, the engine's innermost loop.
        if player.out_of_time or not bot.alive or bot.busy:
            player.result.defaulted += 1  # the view keeps the history for the next message
            return state.default_action(), True, None
        hand = record.number
        bot.send(player.view.question(record, seat, state, player.clock), hand, False)
        reply = self._receive(player)
        player.result.decisions += 1
        if self.settings.record_reply_times and (
            reply.action is not None or reply.fault is FaultKind.TIMEOUT
        ):  # a reply the bot did not give (crash, default after a timeout) has no time
            player.result.reply_times.append(reply.elapsed)
        action = reply.action
        if action is None:
            return state.default_action(), True, reply.elapsed
        if not state.is_legal(action, legal):
            self._fault(player, FaultKind.ILLEGAL, hand, f"attempted illegal {_describe(action)}")
            # check-fold (MIT) or the closest legal action (ACPC)
            return state.repair(action), True, reply.elapsed
        return action, False, reply.elapsed

    def _collect(self, player: _Player) -> None:
        """Wait for ``player``'s outstanding reply (an end-of-hand ``K``) before it is sent more.

        The one-outstanding-message rule of the MIT wire: a second line sent before the
        first is answered may be lost by a bot that reads and writes through one buffered
        text file, as every MIT Python skeleton does.
        """
        while player.seat.outstanding and player.reachable:
            self._receive(player)

    def _receive(self, player: _Player) -> Reply:
        """The reply to ``player``'s one outstanding message, charged to its clock.

        An end-of-hand acknowledgement is checked here (it must be ``K``).
        """
        settings, seat = self.settings, player.seat
        budget = settings.reply_timeout
        clock_bound = settings.enforce_clock and player.clock < budget
        if clock_bound:
            budget = max(player.clock, 0.0)
        reply = seat.receive(budget)
        if clock_bound and reply.fault is FaultKind.TIMEOUT:
            # Say that the game clock ran out, not just that one reply was slow.
            detail = (
                f"ran out of time: its game clock had {budget:.3f} s of "
                f"{self.rules.game_clock:g} s left when hand {reply.hand} asked it"
            )
            reply = reply._replace(detail=detail)
        player.result.time_used += reply.elapsed
        extra = seat.take_unrequested()
        if extra:
            self._fault(
                player,
                FaultKind.MISFORMATTED,
                reply.hand,
                f"sent {extra} line(s) no message asked for (one reply per message)",
            )
        if reply.fault is not None:
            self._fault(player, reply.fault, reply.hand, reply.detail)
        if settings.enforce_clock:
            player.clock -= reply.elapsed
            if player.clock <= 0.0 and not player.out_of_time:
                player.out_of_time = True
                player.result.clock_ran_out_hand = reply.hand
                if reply.fault is None:
                    # The reply came after the clock ran out: it does not count.
                    detail = (
                        f"ran out of time: its {self.rules.game_clock:g} s game clock ran out "
                        f"during its reply in hand {reply.hand}"
                    )
                    self._fault(player, FaultKind.TIMEOUT, reply.hand, detail)
                    reply = Reply(reply.hand, None, reply.elapsed, reply.is_ack, reply.text)
        if reply.is_ack and reply.action is not None and type(reply.action) is not CheckAction:
            self._fault(
                player,
                FaultKind.ILLEGAL,
                reply.hand,
                f"answered the end of the hand with {reply.text or reply.action!r}, not K",
            )
        return reply

    def _deal_street(self, state: RoundState, deal: Deal, record: HandRecord) -> RoundState:
        board = state.board_with_deal(deal.board)
        state = state.with_board(board)
        record.events.append(_new(StreetEvent, (state.street, board, state.stacks)))
        if deal.swaps and state.street in self._swap_streets:
            plan = deal.swaps[self._swap_streets.index(state.street)]
            for seat in (0, 1):
                old = state.hands[seat]
                # The plan covers the two dealt hole cards; an auction card stays.
                swaps = zip(old, plan[seat], strict=False)  # stops after the planned cards
                new = (*(card if swap is None else swap for card, swap in swaps), *old[2:])
                if new != old:
                    state = state.with_hand(seat, new)
                    record.events.append(SwapEvent(seat, old, new))
        return state

    def _resolve_auction(self, state: RoundState, deal: Deal, record: HandRecord) -> RoundState:
        b0, b1 = state.bids
        assert b0 is not None and b1 is not None
        winners = state.auction_winners  # decided by the state machine, nowhere else
        for seat in winners:
            state = state.with_hand(seat, state.hands[seat] + (deal.auction_cards[seat],))
        record.events.append(AuctionEvent((b0, b1), winners, state.hands, state.stacks))
        return state

    def _settle(
        self,
        terminal: TerminalState,
        record: HandRecord,
        by_seat: Sequence[_Player],
        deal: Deal,
    ) -> None:
        last = terminal.previous_state
        showdown = terminal.folder is None
        if showdown:
            if len(last.board) < 5:  # ACPC: fewer than two seats could bet; the board runs out
                for street in range(max(len(last.board) + 1, 3), 6):
                    board = deal.board[:street]
                    record.events.append(StreetEvent(street, board, last.stacks))
                last = last.with_board(deal.board)
            # Ranks for any table size; heads-up, settle_ranks is settle (bounty included).
            ranks = showdown_ranks(last.hands, last.board, last.folded, self.values)
            terminal = last.settle_ranks(ranks)
        deltas = terminal.deltas
        record.final_hands = last.hands
        record.board = last.board
        record.deltas = deltas
        record.showdown = showdown
        record.bounty_hits = terminal.bounty_hits
        record.terminal = terminal
        for seat, player in enumerate(by_seat):  # (the bankrolls: when the hand counts)
            bot = player.seat
            if bot.outstanding:  # a seat not asked this hand still owes the last K
                self._collect(player)
            if player.reachable:
                message, answered = player.view.hand_end(record, seat, player.clock)
                if answered:
                    bot.send(message, record.number, True)
                else:
                    bot.tell(message, record.number)
            elif not player.gone:
                # A busy bot gets this hand's end with its next message.
                player.view.hold(record, seat)
            if player.hand_faults:  # (a call saved per seat and hand: the hot path)
                self._flush_faults(player, record)

    # -- faults ------------------------------------------------------------

    def note_fault(self, slot: int, kind: FaultKind, detail: str, timed_out: bool = False) -> None:
        """Record a fault that happened outside the hands (a failed build, no connection);
        ``timed_out`` when a time limit ran out (see :class:`Fault`)."""
        self._fault(self.players[slot], kind, self.hands_played, detail, timed_out=timed_out)

    def note_bot_errors(self, slot: int, count: int, first: str, complete: bool = True) -> None:
        """Record ``count`` exceptions the bot's own code raised (the SDK played the default
        for each); ``first`` is the first one's line (``hand N: get_action raised ...``).
        ``complete`` is False when the count is only a lower bound (its log was full)."""
        match = _FIRST_ERROR.match(first)
        hand, what = (int(match.group(1)), match.group(2)) if match else (0, first)
        times = f"{count} time(s)" if complete else f"at least {count} time(s) (its log was full)"
        detail = f"{times}, the default action played each time; the first: {what}"
        self._fault(self.players[slot], FaultKind.BOT_ERROR, hand, detail, count)

    def _fault(
        self,
        player: _Player,
        kind: FaultKind,
        hand: int,
        detail: str,
        count: int = 1,
        timed_out: bool = False,
    ) -> None:
        fault = Fault(kind, hand, detail, timed_out)
        counts = player.result.fault_counts
        counts[kind] = counts.get(kind, 0) + count
        if len(player.result.first_faults) < MAX_FAULT_DETAILS:
            player.result.first_faults.append(fault)
        player.hand_faults.append(fault)

    def _flush_faults(self, player: _Player, record: HandRecord | None) -> None:
        """Attach the faults noted since they were last attached to ``record``: a decision's
        just before the action it led to, the others at the end of the hand."""
        if not player.hand_faults or record is None:
            player.hand_faults.clear()
            return
        seat = seat_of(player.slot, record.number, self.rules.seats)
        record.events.extend(FaultEvent(seat, fault) for fault in player.hand_faults)
        player.hand_faults.clear()


def _describe(action: Action) -> str:
    if isinstance(action, DiscardAction):
        return f"Discard of index {action.index}"
    name = type(action).__name__.removesuffix("Action")
    amount = getattr(action, "amount", None)
    if amount is None:
        return name
    return f"{name} with amount {amount}"
