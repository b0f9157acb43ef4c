"""The bot's side of the protocol, independent of transport.

:class:`BotClient` takes the clauses of each engine message, rebuilds the hand
with the shared state machine (:class:`sdk.states.RoundState`), calls the bot,
and returns the one action to send back.  The socket runner feeds it decoded
lines; the local runner's in-process seats feed it clause objects directly.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from .actions import (
    HIDDEN_BID,
    HIDDEN_RANK,
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from .bot import Bot
from .protocol import (
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
    ProtocolError,
    Quit,
    RoundStart,
    UpdatedHand,
)
from .rules import Rules
from .states import GameState, RoundState, State, TerminalState

__all__ = ["ERROR_PREFIX", "BotCaller", "BotClient", "WARNING_PREFIX", "warn"]

#: How every warning the client writes to stderr starts (the validator looks for it).
WARNING_PREFIX = "pokerbots sdk: "
#: How the line starts that the client writes each time the bot's own ``get_action`` raised
#: (the runner counts these lines and reports them as ``bot_error`` faults).
ERROR_PREFIX = WARNING_PREFIX + "error: "
#: Full tracebacks written for the first few errors only; later ones get their one line, so
#: a bot that fails on every decision cannot fill its log with repeats.
_FULL_TRACEBACKS = 3

_ACK = CheckAction()
#: Named tuples made per message are built with ``tuple.__new__``: a named tuple's own
#: constructor costs over twice as much, and this runs for every message of every hand.
_new = tuple.__new__
_ACTION_TYPES = (FoldAction, CallAction, CheckAction, RaiseAction, BidAction, DiscardAction)
_OPENING = frozenset({Clock, Position, HoleCards, BountyRank, RoundStart})


def warn(message: str) -> None:
    """Write one SDK warning line to stderr (the bot's log)."""
    print(WARNING_PREFIX + message, file=sys.stderr)


def _print_error(line: str) -> None:
    """Write one bot-error line to stderr, where the runner counts it."""
    print(ERROR_PREFIX + line, file=sys.stderr, flush=True)


class BotCaller:
    """How every client asks the bot for an action, whatever the wire.

    :meth:`call_get_action` calls ``bot.get_action``; when it raises, the error is counted,
    its line written (after :data:`ERROR_PREFIX`) and the state's default action is played;
    when it returns something that is not an action, a warning is written and the default
    action played.  :class:`BotClient` (MIT wire) and :class:`sdk.acpc_client.AcpcClient`
    (ACPC wire) share it, so a bot's faults are counted the same way on both.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.errors = 0
        """How many times ``get_action`` raised (each answered with the default action)."""
        self.first_error: str | None = None
        """The first error's line, as written to stderr (after :data:`ERROR_PREFIX`)."""
        self.on_error: Callable[[str], None] = _print_error
        """Called with each error's line; writes it to stderr unless replaced."""

    def call_get_action(
        self, game_state: GameState, state: RoundState, seat: int, hand: int
    ) -> Action:
        """The bot's action for ``state``, or the default action if it raised or returned
        something else; ``hand`` numbers the hand in the error line."""
        try:
            action = self.bot.get_action(game_state, state, seat)
        except Exception as error:
            fallback = state.default_action()
            self.errors += 1
            if self.errors <= _FULL_TRACEBACKS and self.on_error is _print_error:
                traceback.print_exc()
            last_line = traceback.format_exception_only(error)[-1].strip()
            line = f"hand {hand}: get_action raised {last_line}; sent {fallback} instead"
            if self.first_error is None:
                self.first_error = line
            self.on_error(line)
            return fallback
        if not isinstance(action, _ACTION_TYPES):
            fallback = state.default_action()
            warn(
                f"get_action returned {action!r}, which is not an action; "
                f"sending {fallback} instead.",
            )
            return fallback
        return action


class BotClient(BotCaller):
    """Turns engine messages into bot callbacks and replies."""

    def __init__(self, bot: Bot, rules: Rules) -> None:
        super().__init__(bot)
        self.rules = rules
        self.game_state = GameState(0, rules.game_clock, 1)
        self.round_state: State | None = None
        self.seat = 0
        self._new_round_pending = False
        self._hand_over = False
        # Dispatch by clause type: this runs for every clause of every message.
        self._handlers: dict[type, Callable[[Any], None]] = {
            Clock: self._on_clock,
            Position: self._on_position,
            HoleCards: self._on_hole_cards,
            BountyRank: self._on_bounty_rank,
            RoundStart: self._on_round_start,
            Board: self._on_board,
            UpdatedHand: self._on_updated_hand,
            AuctionResult: self._on_auction_result,
            OpponentHand: self._on_opponent_hand,
            Delta: self._on_delta,
            BountyHits: self._on_bounty_hits,
        }
        for action_type in _ACTION_TYPES:
            self._handlers[action_type] = self._apply_action

    def handle(self, clauses: Sequence[Clause]) -> Action | None:
        """Apply one engine message; return the reply, or None when the match is over."""
        handlers = self._handlers
        for clause in clauses:
            kind = type(clause)
            if self._hand_over:
                if kind in _OPENING:
                    # The previous hand ended in this same message (the engine held it back
                    # while this bot was late): close it, with the seat it was played from.
                    self._finish_round()
            elif self._new_round_pending and kind not in _OPENING:
                self._start_round()
            if kind is Quit:
                return None
            try:
                handler = handlers[kind]
            except KeyError:
                raise ProtocolError(f"{clause!r} is not a protocol clause.") from None
            handler(clause)
        if self._new_round_pending:
            self._start_round()
        if self._hand_over:
            self._finish_round()
            return _ACK
        state = self.round_state
        if type(state) is not RoundState:  # the client makes its own states
            raise ProtocolError("the engine asked for an action outside a hand.")
        # Ask the bot (spelled out here: one call fewer per decision).
        seat = self.seat
        if state.actor != seat:
            warn(
                f"the engine asked seat {seat} to act, but by this client's "
                f"count seat {state.actor} is to act; the history may be out of sync.",
            )
        game = self.game_state
        return self.call_get_action(game, state, seat, game.round_num)

    def _finish_round(self) -> None:
        self._hand_over = False
        state = self.round_state
        assert isinstance(state, TerminalState)
        self.bot.handle_round_over(self.game_state, state, self.seat)
        game = self.game_state
        self.game_state = _new(GameState, (game.bankroll, game.game_clock, game.round_num + 1))

    def _start_round(self) -> None:
        self._new_round_pending = False
        assert isinstance(self.round_state, RoundState)
        self.bot.handle_new_round(self.game_state, self.round_state, self.seat)

    def _apply_action(self, action: Action) -> None:
        state = self.round_state
        # `type(...) is`: the client makes its own states, and this runs for every action.
        if type(state) is not RoundState:
            raise ProtocolError(f"action {action!r} arrived outside a hand.")
        if type(action) is BidAction and state.actor != self.seat and state.bids[self.seat] is None:
            # Bids are sealed: never show an opponent's bid before our own is in,
            # even when an engine (MIT 2024) leaks it.
            action = BidAction(HIDDEN_BID)
        self.round_state = state.proceed(action)

    def _on_clock(self, clause: Clock) -> None:
        game = self.game_state
        self.game_state = _new(GameState, (game.bankroll, clause.seconds, game.round_num))

    def _on_position(self, clause: Position) -> None:
        self.seat = clause.seat

    def _on_hole_cards(self, clause: HoleCards) -> None:
        cards, seat, seats = clause.cards, self.seat, self.rules.seats
        hands: tuple[tuple[str, ...], ...]
        if seats == 2 and (seat == 0 or seat == 1):  # heads-up, spelled out: once a hand
            hands = (cards, ()) if seat == 0 else ((), cards)
        else:
            unknown: list[tuple[str, ...]] = [()] * seats
            unknown[seat] = cards
            hands = tuple(unknown)
        self.round_state = RoundState.new_hand(self.rules, hands)
        self._new_round_pending = True

    def _on_bounty_rank(self, clause: BountyRank) -> None:
        # The opponent's rank is never sent: HIDDEN_RANK, as the MIT skeleton fills it.
        bounties = (clause.rank, HIDDEN_RANK) if self.seat == 0 else (HIDDEN_RANK, clause.rank)
        self.round_state = self._require_round(clause)._replace(bounties=bounties)

    def _on_round_start(self, clause: RoundStart) -> None:
        """``G`` with no payload (MIT 2026): the hand began with ``H``; nothing to record."""
        self._require_round(clause)

    def _on_board(self, clause: Board) -> None:
        state = self.round_state
        if isinstance(state, TerminalState):
            # The board ran out after the betting ended (ACPC games: nobody could bet).
            last = state.previous_state.with_board(clause.cards)
            self.round_state = state._replace(previous_state=last)
            return
        self.round_state = self._require_round(clause).with_board(clause.cards)

    def _on_updated_hand(self, clause: UpdatedHand) -> None:
        self.round_state = self._require_round(clause).with_hand(self.seat, clause.cards)

    def _on_auction_result(self, clause: AuctionResult) -> None:
        state = self._require_round(clause).with_auction_result(clause.stacks, clause.bids)
        self.round_state = state.with_hand(self.seat, clause.cards)

    def _on_opponent_hand(self, clause: OpponentHand) -> None:
        state = self.round_state
        if isinstance(state, (RoundState, TerminalState)):
            self.round_state = state.with_hand(1 - self.seat, clause.cards)

    def _on_delta(self, clause: Delta) -> None:
        terminal = self._require_terminal(clause)
        amount = clause.amount
        # Heads-up the opponent's delta is the opposite of ours; at a larger table only
        # our own is known (the others are 0 here).
        seats = self.rules.seats
        if seats == 2:
            deltas: tuple[int, ...] = (amount, -amount) if self.seat == 0 else (-amount, amount)
        else:
            deltas = tuple(amount if seat == self.seat else 0 for seat in range(seats))
        self.round_state = _new(
            TerminalState, (deltas, terminal.previous_state, terminal.bounty_hits, terminal.folder)
        )
        game = self.game_state
        self.game_state = _new(GameState, (game.bankroll + amount, game.game_clock, game.round_num))
        self._hand_over = True

    def _on_bounty_hits(self, clause: BountyHits) -> None:
        terminal = self._require_terminal(clause)
        mine, theirs = clause.mine, clause.opponent
        hits = (mine, theirs) if self.seat == 0 else (theirs, mine)
        self.round_state = terminal._replace(bounty_hits=hits)

    def _require_round(self, clause: Clause) -> RoundState:
        if not isinstance(self.round_state, RoundState):
            raise ProtocolError(f"{clause!r} arrived outside a hand.")
        return self.round_state

    def _require_terminal(self, clause: Clause) -> TerminalState:
        state = self.round_state
        if isinstance(state, TerminalState):
            return state
        if isinstance(state, RoundState):
            # The engine ended the hand where this client's count did not: trust the engine.
            warn(
                "the engine ended the hand before this client expected; "
                "taking the engine's result.",
            )
            return TerminalState((0, 0), state)
        raise ProtocolError(f"{clause!r} arrived outside a hand.")
