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

In a limit game (:meth:`EquityBot.limit_action`) every bet has the one legal size: it
bets or raises when its equity beats the share of the pot a bet called by everyone needs
(:func:`.field.fair_share`) by a margin, calls by pot odds, and stops raising when the cap
takes the raise out of the legal actions.  With more than one opponent in the hand its
equity is against that many random hands at once (:func:`.field.field_equity`).
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

from .betting import fixed_raise, is_limit, pot_odds, pot_raise
from .budget import Budget, reflex
from .field import fair_share, field_equity, opponents_in_hand
from .ranges import WeightedRange, sampled_equity
from .toss import best_discard, toss_equity

__all__ = ["EquityBot"]

#: Opponent hands (each with one random runout) per equity estimate: about +-0.02.
SAMPLES = 500
#: How much equity above the pot odds turns a call into a raise.
RAISE_MARGIN = 0.25
#: Equity against a random hand above which the bot bets when checked to.
BET_EQUITY = 0.62
#: Limit games: the equity above the fair share (one half heads-up) for a bet when checked
#: to, and for a raise when facing a bet (a bettor's hands are better than random ones).
LIMIT_BET_MARGIN = 0.08
LIMIT_RAISE_MARGIN = 0.15
#: Joint deals per estimate against two or more random hands (a Python loop).
FIELD_SAMPLES = 200


class EquityBot(Bot):
    """Calls or raises by pot odds, with equity against a uniformly random hand."""

    def __init__(
        self, seed: int | None = None, samples: int = SAMPLES, budget: Budget | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        # The clock-aware budget (:mod:`.budget`): full ``samples`` while they fit the
        # clock, fewer when it runs short; ``spent`` is this decision's share.
        self.budget = budget or Budget(samples=samples, min_samples=50, frugal_samples=50)
        self.spent = samples
        self.uniform = WeightedRange()
        # Limit games: (hand, board, opponents) and the equity measured for them.
        self._cached: tuple[tuple[tuple[str, ...], tuple[str, ...], int], float] | None = None

    def equity(self, round_state: RoundState, active: int) -> float:
        """Our equity against a random hand, by one Monte Carlo run of ``samples`` hands;
        against as many random hands as there are opponents still in the hand."""
        opponents = len(opponents_in_hand(round_state, active))
        if is_limit(round_state):
            # Against random hands the equity changes only with the cards and the number of
            # opponents, and a limit raise war asks several times a street: measure once.
            key = (round_state.hands[active], round_state.board, opponents)
            if self._cached is None or self._cached[0] != key:
                self._cached = (key, self._measure(round_state, active, opponents))
            return self._cached[1]
        return self._measure(round_state, active, opponents)

    def _measure(self, round_state: RoundState, active: int, opponents: int) -> float:
        if opponents > 1:
            hand, board = round_state.hands[active], round_state.board
            field = [self.uniform] * opponents
            return field_equity(hand, board, field, FIELD_SAMPLES, self.rng)
        if round_state.rules.discard:
            return toss_equity(
                round_state.hands[active], round_state.board, self.uniform, self.spent, self.rng
            )
        return sampled_equity(
            round_state.hands[active], round_state.board, self.uniform, self.spent, self.rng
        )

    def bid(self, round_state: RoundState, equity: float) -> BidAction:
        """Auction: offer a share of the pot that grows with equity (a third card helps more
        the closer the hand is to winning), within the legal bounds."""
        low, high = round_state.bid_bounds()
        amount = int(round_state.pot * max(0.0, equity - 0.3))
        return BidAction(max(low, min(high, amount)))

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Pot odds against the equity of our hand versus a random hand."""
        spend = self.budget.spend(game_state, round_state)
        if spend.reflex:  # no time to think at all (see budget.reflex)
            return reflex(round_state)
        self.spent = spend.samples
        legal = round_state.legal_actions()
        if len(legal) == 1 and CheckAction in legal:
            return CheckAction()
        if DiscardAction in legal:
            hand, board = round_state.hands[active], round_state.board
            return best_discard(hand, board, self.uniform, self.spent, self.rng)
        equity = self.equity(round_state, active)
        if BidAction in legal:
            return self.bid(round_state, equity)
        if is_limit(round_state):
            return self.limit_action(round_state, active, equity)
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

    def limit_action(self, round_state: RoundState, active: int, equity: float) -> Action:
        """Fixed-limit play: bet or raise the one legal size when the equity is well above
        the fair share, call by pot odds, fold below them; the cap is the legal actions'."""
        legal = round_state.legal_actions()
        share = fair_share(len(round_state.in_hand))
        can_raise = RaiseAction in legal
        if round_state.continue_cost > 0:
            if equity < pot_odds(round_state):
                return FoldAction()
            if can_raise and equity > share + LIMIT_RAISE_MARGIN:
                return fixed_raise(round_state)
            return CallAction()
        if can_raise and equity > share + LIMIT_BET_MARGIN:
            return fixed_raise(round_state)
        return CheckAction()
