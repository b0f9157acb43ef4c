"""The bot's side of the protocol, independent of transport.

:class:`BotClient` takes the clauses of each engine message, rebuilds the hand
with the shared state machine (:class:`sdk.states.RoundState`), calls the bot,
and returns the one action to send back.  The socket runner feeds it decoded
lines; the local runner's in-process seats feed it clause objects directly.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

from .actions import HIDDEN_BID, Action, BidAction, CallAction, CheckAction, FoldAction, RaiseAction
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
    UpdatedHand,
)
from .rules import Rules
from .states import GameState, RoundState, State, TerminalState

__all__ = ["BotClient"]

_ACK = CheckAction()
_ACTION_TYPES = (FoldAction, CallAction, CheckAction, RaiseAction, BidAction)
_OPENING = (Clock, Position, HoleCards, BountyRank)


class BotClient:
    """Turns engine messages into bot callbacks and replies."""

    def __init__(self, bot: Bot, rules: Rules) -> None:
        self.bot = bot
        self.rules = rules
        self.game_state = GameState(0, rules.game_clock, 1)
        self.round_state: State | None = None
        self.seat = 0
        self._new_round_pending = False
        self._hand_over = False

    def handle(self, clauses: Sequence[Clause]) -> Action | None:
        """Apply one engine message; return the reply, or None when the match is over."""
        for clause in clauses:
            if self._new_round_pending and not isinstance(clause, _OPENING):
                self._start_round()
            if isinstance(clause, _ACTION_TYPES):
                self._apply_action(clause)
            elif isinstance(clause, Quit):
                return None
            else:
                self._apply_event(clause)
        if self._new_round_pending:
            self._start_round()
        state = self.round_state
        if self._hand_over:
            self._hand_over = False
            assert isinstance(state, TerminalState)
            self.bot.handle_round_over(self.game_state, state, self.seat)
            self.game_state = self.game_state._replace(round_num=self.game_state.round_num + 1)
            return _ACK
        if not isinstance(state, RoundState):
            raise ProtocolError("the engine asked for an action outside a hand.")
        return self._ask_bot(state)

    def _start_round(self) -> None:
        self._new_round_pending = False
        assert isinstance(self.round_state, RoundState)
        self.bot.handle_new_round(self.game_state, self.round_state, self.seat)

    def _ask_bot(self, state: RoundState) -> Action:
        if state.button % 2 != self.seat:
            print(
                f"pokerbots sdk: the engine asked seat {self.seat} to act, but by this client's "
                f"count seat {state.button % 2} is to act; the history may be out of sync.",
                file=sys.stderr,
            )
        try:
            action = self.bot.get_action(self.game_state, state, self.seat)
        except Exception:
            traceback.print_exc()
            fallback = state.default_action()
            print(f"pokerbots sdk: get_action raised; sending {fallback} instead.", file=sys.stderr)
            return fallback
        if not isinstance(action, _ACTION_TYPES):
            fallback = state.default_action()
            print(
                f"pokerbots sdk: get_action returned {action!r}, which is not an action; "
                f"sending {fallback} instead.",
                file=sys.stderr,
            )
            return fallback
        return action

    def _apply_action(self, action: Action) -> None:
        state = self.round_state
        if not isinstance(state, RoundState):
            raise ProtocolError(f"action {action!r} arrived outside a hand.")
        if (
            isinstance(action, BidAction)
            and state.button % 2 != self.seat
            and state.bids[self.seat] is None
        ):
            # Bids are sealed: never show an opponent's bid before our own is in,
            # even when an engine (MIT 2024) leaks it.
            action = BidAction(HIDDEN_BID)
        self.round_state = state.proceed(action)

    def _apply_event(self, clause: Clause) -> None:
        state = self.round_state
        seat = self.seat
        if isinstance(clause, Clock):
            self.game_state = self.game_state._replace(game_clock=clause.seconds)
        elif isinstance(clause, Position):
            self.seat = clause.seat
        elif isinstance(clause, HoleCards):
            hands = (clause.cards, ()) if seat == 0 else ((), clause.cards)
            self.round_state = RoundState.new_hand(self.rules, hands)
            self._new_round_pending = True
            self._hand_over = False
        elif isinstance(clause, BountyRank):
            round_state = self._require_round(clause)
            bounties = (clause.rank, None) if seat == 0 else (None, clause.rank)
            self.round_state = round_state._replace(bounties=bounties)
        elif isinstance(clause, Board):
            self.round_state = self._require_round(clause).with_board(clause.cards)
        elif isinstance(clause, UpdatedHand):
            self.round_state = self._require_round(clause).with_hand(seat, clause.cards)
        elif isinstance(clause, AuctionResult):
            round_state = self._require_round(clause).with_auction_result(
                clause.stacks, clause.bids
            )
            self.round_state = round_state.with_hand(seat, clause.cards)
        elif isinstance(clause, OpponentHand):
            if isinstance(state, (RoundState, TerminalState)):
                self.round_state = state.with_hand(1 - seat, clause.cards)
        elif isinstance(clause, Delta):
            terminal = self._require_terminal(clause)
            deltas = (
                (clause.amount, -clause.amount) if seat == 0 else (-clause.amount, clause.amount)
            )
            self.round_state = terminal._replace(deltas=deltas)
            self.game_state = self.game_state._replace(
                bankroll=self.game_state.bankroll + clause.amount
            )
            self._hand_over = True
        elif isinstance(clause, BountyHits):
            terminal = self._require_terminal(clause)
            hits = (clause.mine, clause.opponent) if seat == 0 else (clause.opponent, clause.mine)
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
            print(
                "pokerbots sdk: the engine ended the hand before this client expected; "
                "taking the engine's result.",
                file=sys.stderr,
            )
            return TerminalState((0, 0), state)
        raise ProtocolError(f"{clause!r} arrived outside a hand.")
