"""``builtin:equity``: Monte Carlo equity against a random hand, then pot odds.

The second rung of the reference ladder, and the simplest bot that looks at its
cards.  At every decision it estimates its equity (its share of the pot at
showdown) against a *uniformly random* opponent hand with eval7, then:

* facing a bet, it folds when the equity is below the pot odds (what a call
  costs as a share of the final pot), raises when the equity is well above them,
  and calls otherwise;
* with nothing to call, it bets when the equity is high and checks otherwise.

It never models the opponent, which is exactly what the ``range`` bot adds.  In Toss
Hold'em it discards the card that leaves the two with the best equity (:mod:`.toss`).
"""

from __future__ import annotations

import random

from sdk.actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.states import GameState, RoundState

from .betting import pot_odds, pot_raise
from .ranges import WeightedRange, sampled_equity
from .toss import best_discard, toss_equity

__all__ = ["EquityBot"]

#: Opponent hands (each with one random runout) per equity estimate: about +-0.02.
SAMPLES = 500
#: How much equity above the pot odds turns a call into a raise.
RAISE_MARGIN = 0.25
#: Equity against a random hand above which the bot bets when checked to.
BET_EQUITY = 0.62


class EquityBot(Bot):
    """Calls or raises by pot odds, with equity against a uniformly random hand."""

    def __init__(self, seed: int | None = None, samples: int = SAMPLES) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.uniform = WeightedRange()

    def equity(self, round_state: RoundState, active: int) -> float:
        """Our equity against a random hand, by one Monte Carlo run of ``samples`` hands."""
        if round_state.rules.discard:
            return toss_equity(
                round_state.hands[active], round_state.board, self.uniform, self.samples, self.rng
            )
        return sampled_equity(
            round_state.hands[active], round_state.board, self.uniform, self.samples, self.rng
        )

    def bid(self, round_state: RoundState, equity: float) -> BidAction:
        """Auction: offer a share of the pot that grows with equity (a third card helps more
        the closer the hand is to winning), within the legal bounds."""
        low, high = round_state.bid_bounds()
        amount = int(round_state.pot * max(0.0, equity - 0.3))
        return BidAction(max(low, min(high, amount)))

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Pot odds against the equity of our hand versus a random hand."""
        legal = round_state.legal_actions()
        if len(legal) == 1 and CheckAction in legal:
            return CheckAction()
        if DiscardAction in legal:
            hand, board = round_state.hands[active], round_state.board
            return best_discard(hand, board, self.uniform, self.samples, self.rng)
        equity = self.equity(round_state, active)
        if BidAction in legal:
            return self.bid(round_state, equity)
        if round_state.continue_cost > 0:
            needed = pot_odds(round_state)
            if equity < needed:
                return FoldAction()
            if RaiseAction in legal and equity > needed + RAISE_MARGIN:
                return pot_raise(round_state, 1.0)
            return CallAction()
        if RaiseAction in legal and equity > BET_EQUITY:
            return pot_raise(round_state, 0.75)
        return CheckAction()
