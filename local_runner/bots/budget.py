"""The clock-aware budget: each decision's work is paced by the game clock actually left.

The seed bot lost on the server because it ran out of time, and a bot that spends a fixed
amount of work per decision uses three or four times its idle clock on a busy machine.
:class:`Budget` plans like a competition bot: of the clock it saw at its first decision it
means to use at most :attr:`Budget.share` (0.3: the rest is the safety reserve, and a
third of the clock the goal), and spreads what is left of that plan over the hands still
to play. What a decision costs is *measured*, from the game clock itself: the clock the
engine reports falls, between two decisions, by exactly what it charged for the first
(wall time from the engine's request to the reply, transport and parsing included, which
is what runs out), so a loaded or pinned machine is seen as it is, not through the bot's
processor time.

From those charges it keeps a running estimate of what a decision costs at full effort
(:attr:`Budget.unit`) and of the decisions a hand asks, and each decision gets the
largest Monte Carlo sample that fits its share of the plan; under :attr:`Budget.min_samples`
the bot turns *frugal* (no range updates after the flop, no learning, one short simulation
or a table lookup: a fraction of a millisecond), and when even a frugal decision's measured
charge does not fit, it answers by :func:`reflex` (a table lookup and the pot odds, as cheap
as a calling station), so it does not run out of clock however slow the machine.

While full effort fits (an idle machine, or any generous clock) every decision uses exactly
:attr:`Budget.samples`, so a seeded bot plays the same match twice; once the clock binds,
how much work a decision does depends on the timing of the decisions before it, and so do
its random draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from sdk.actions import Action, BidAction, CallAction, CheckAction, DiscardAction, FoldAction
from sdk.handclass import class_index
from sdk.rules import RANKS
from sdk.states import GameState, RoundState

from .betting import pot_odds
from .preflop import equity_vs_random

__all__ = ["Budget", "Spend", "reflex"]

#: How many hands' worth the prior decisions per hand weighs against the ones counted.
PRIOR_HANDS = 5


@dataclass(frozen=True, slots=True)
class Spend:
    """How much work one decision may do."""

    samples: int
    """Opponent hands per Monte Carlo run (flop and turn)."""
    frugal: bool
    """True when time is short: no range updates, one short simulation per decision."""
    reflex: bool = False
    """True when even that is too dear: :func:`reflex`'s table lookup, no simulation."""


@dataclass(slots=True)
class Budget:
    """The clock policy of one bot for one match (it keeps what it measured: one per bot).

    ``samples`` is the full effort; ``share`` the part of the clock seen first that the bot
    plans to use (the rest is reserve); ``fixed_share`` the part of a full decision's cost
    that does not shrink with the samples (the range update, the river's exact count, the
    transport), and ``frugal_cost`` what a frugal decision costs next to a full one: both
    rough, measured on the reference machine, and only used to convert a measured cost
    between effort levels (the plan itself is kept from the real charges).
    ``prior_seconds`` is the cost assumed for a full decision until one is measured.
    """

    samples: int = 400
    min_samples: int = 40
    frugal_samples: int = 30
    share: float = 0.3
    fixed_share: float = 0.8
    frugal_cost: float = 0.25
    reflex_cost: float = 0.05
    prior_seconds: float = 0.002
    prior_decisions: float = 4.0
    smoothing: float = 0.03
    stall_cap: float = 2.0
    unit: float = field(default=0.0, init=False)
    """The running estimate of a full-effort decision's charge, in seconds."""
    frugal_seconds: float = field(default=0.0, init=False)
    """The running estimate of a frugal decision's charge."""
    reflex_seconds: float = field(default=0.0, init=False)
    """The running estimate of a reflex decision's charge."""
    decisions_per_hand: float = field(default=0.0, init=False)
    """The running estimate of the decisions a hand asks of this bot."""
    tally: list[int] = field(default_factory=lambda: [0, 0, 0, 0], init=False)
    """Decisions so far at full effort, at fewer samples, frugal and reflex (for benchmarks)."""
    _plan: float | None = field(default=None, init=False)
    _last_clock: float | None = field(default=None, init=False)
    _last: Spend | None = field(default=None, init=False)
    _first_hand: int = field(default=0, init=False)
    _decisions: int = field(default=0, init=False)

    def spend(self, game_state: GameState, round_state: RoundState) -> Spend:
        """The work allowed for a decision now (and the last decision's charge, noted)."""
        clock = game_state.game_clock
        self._observe(clock, game_state.round_num)
        hands_left = max(1, round_state.rules.num_rounds - game_state.round_num + 1)
        if self._plan is None:
            # The clock we may still spend: the plan's share of what we first saw.
            self._plan = (1.0 - self.share) * clock
        allowance = (clock - self._plan) / hands_left / self.decisions_per_hand
        self._decisions += 1
        spend = self.fit(allowance)
        self.tally[
            3 if spend.reflex else 2 if spend.frugal else int(spend.samples < self.samples)
        ] += 1
        self._last, self._last_clock = spend, clock
        return spend

    def fit(self, allowance: float) -> Spend:
        """The most work whose expected charge fits ``allowance`` seconds."""
        if allowance >= self.unit:  # (the estimates are never 0: see _observe)
            return Spend(self.samples, False)
        effort = (allowance / self.unit - self.fixed_share) / (1.0 - self.fixed_share)
        samples = int(self.samples * effort)
        if samples >= self.min_samples:
            return Spend(samples, False)
        if allowance >= self.frugal_seconds:
            return Spend(self.frugal_samples, True)
        return Spend(0, True, True)

    def cost_factor(self, spend: Spend) -> float:
        """A decision's expected cost at ``spend``, as a share of a full-effort one."""
        if spend.reflex:
            return self.reflex_cost
        if spend.frugal:
            return self.frugal_cost
        effort = spend.samples / self.samples
        return self.fixed_share + (1.0 - self.fixed_share) * effort

    def _observe(self, clock: float, hand: int) -> None:
        """Fold the charge of the last decision (the clock's fall since) into the estimate
        of its mode's cost."""
        if self._last is None or self._last_clock is None or clock > self._last_clock:
            # The first decision, or a new match for the same bot: start afresh, with
            # each mode's cost the prior in proportion.
            self.unit = self.prior_seconds
            self.frugal_seconds = self.prior_seconds * self.frugal_cost
            self.reflex_seconds = self.prior_seconds * self.reflex_cost
            self._plan, self._first_hand, self._decisions = None, hand, 0
        else:
            charge = self._last_clock - clock
            # One stall (a collection, a page-in) moves an estimate, but only so far; and
            # a clock that is not charged (a test's) leaves a tiny positive cost, not 0.
            if self._last.reflex:
                self.reflex_seconds = self._average(self.reflex_seconds, charge)
            elif self._last.frugal:
                self.frugal_seconds = self._average(self.frugal_seconds, charge)
            else:
                self.unit = self._average(self.unit, charge / self.cost_factor(self._last))
        # Decisions per hand *played* (hands the bot is never asked in count too), with
        # the prior weighing as PRIOR_HANDS hands.
        hands = hand - self._first_hand + 1 + PRIOR_HANDS
        self.decisions_per_hand = (self._decisions + self.prior_decisions * PRIOR_HANDS) / hands

    def _average(self, estimate: float, charge: float) -> float:
        """The running average moved toward ``charge`` (capped at ``stall_cap`` times it)."""
        charge = min(charge, self.stall_cap * estimate)
        return max(1e-7, estimate + self.smoothing * (charge - estimate))


@cache
def _class_equity() -> tuple[float, ...]:
    return equity_vs_random()


def reflex(round_state: RoundState) -> Action:
    """A decision with no time for thought, as cheap as a calling station's: check when free;
    otherwise call when the equity of the best two hole cards' class against a random hand
    (the shipped table) beats the pot odds, else fold; bid the least; toss the card whose
    rank is lowest."""
    legal = round_state.legal_actions()
    hand = round_state.hands[round_state.actor]
    if DiscardAction in legal:
        ranks = [RANKS.index(card[0]) for card in hand]
        return DiscardAction(ranks.index(min(ranks)))
    if BidAction in legal:
        return BidAction(round_state.bid_bounds()[0])
    if CheckAction in legal:
        return CheckAction()
    pair = sorted(hand, key=lambda card: RANKS.index(card[0]))[-2:]
    if FoldAction not in legal or _class_equity()[class_index(pair)] >= pot_odds(round_state):
        return CallAction()
    return FoldAction()
