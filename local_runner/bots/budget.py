"""The clock-aware budget: each decision's work is paced by the game clock actually left.

The seed bot lost on the server because it ran out of time, and a bot that spends a fixed
amount of work per decision uses three or four times its idle clock on a busy machine.
:class:`Budget` plans like a competition bot: of the clock it saw at its first decision it
means to use at most :attr:`Budget.share` (a quarter: the rest is the safety reserve), and
spreads what is left of that plan over the hands still to play.  What a decision costs is
*measured*, from the game clock itself: the clock the engine reports falls, between two
decisions, by exactly what it charged for the first (wall time from the engine's request
to the reply, transport and parsing included, which is what runs out), so a loaded or
pinned machine is seen as it is, not through the bot's processor time.

From those charges it keeps a running estimate of what a decision costs at full effort
(:attr:`Budget.unit`) and of the decisions a hand asks, and each decision gets the
largest Monte Carlo sample that fits its share of the plan; under :attr:`Budget.min_samples`
the bot turns *frugal* (no range updates, no learning, one short simulation or a table
lookup: a fraction of a millisecond).  While full effort fits (an idle machine, or any
generous clock) every decision uses exactly :attr:`Budget.samples`, so a seeded bot plays
the same match twice; once the clock binds, how much work a decision does depends on the
timing of the decisions before it, and so do its random draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sdk.states import GameState, RoundState

__all__ = ["Budget", "Spend"]

#: How many hands' worth the prior decisions per hand weighs against the ones counted.
PRIOR_HANDS = 5


@dataclass(frozen=True, slots=True)
class Spend:
    """How much work one decision may do."""

    samples: int
    """Opponent hands per Monte Carlo run (flop and turn)."""
    frugal: bool
    """True when time is short: no range updates, one short simulation per decision."""


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
    share: float = 0.25
    fixed_share: float = 0.8
    frugal_cost: float = 0.25
    prior_seconds: float = 0.002
    prior_decisions: float = 4.0
    smoothing: float = 0.1
    unit: float = field(default=0.0, init=False)
    """The running estimate of a full-effort decision's charge, in seconds."""
    decisions_per_hand: float = field(default=0.0, init=False)
    """The running estimate of the decisions a hand asks of this bot."""
    tally: list[int] = field(default_factory=lambda: [0, 0, 0], init=False)
    """Decisions so far at full effort, at fewer samples, and frugal (for benchmarks)."""
    _plan: float | None = field(default=None, init=False)
    _last_clock: float | None = field(default=None, init=False)
    _last_factor: float = field(default=1.0, init=False)
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
        self.tally[2 if spend.frugal else 0 if spend.samples == self.samples else 1] += 1
        self._last_factor = self.cost_factor(spend)
        self._last_clock = clock
        return spend

    def fit(self, allowance: float) -> Spend:
        """The most work whose expected charge fits ``allowance`` seconds."""
        if allowance >= self.unit:  # (``unit`` is never 0: see _observe)
            return Spend(self.samples, False)
        effort = (allowance / self.unit - self.fixed_share) / (1.0 - self.fixed_share)
        samples = int(self.samples * effort)
        if samples < self.min_samples:
            return Spend(self.frugal_samples, True)
        return Spend(samples, False)

    def cost_factor(self, spend: Spend) -> float:
        """A decision's expected cost at ``spend``, as a share of a full-effort one."""
        if spend.frugal:
            return self.frugal_cost
        effort = spend.samples / self.samples
        return self.fixed_share + (1.0 - self.fixed_share) * effort

    def _observe(self, clock: float, hand: int) -> None:
        """Fold the charge of the last decision (the clock's fall since) into the estimates."""
        if self._last_clock is None or clock > self._last_clock:
            # The first decision, or a new match for the same bot: start afresh.
            self.unit = self.prior_seconds
            self._plan, self._first_hand, self._decisions = None, hand, 0
        else:
            full = (self._last_clock - clock) / self._last_factor
            # One stall (a collection, a page-in) moves the estimate, but only so far; and
            # a clock that is not charged (a test's) leaves a tiny positive cost, not 0.
            full = min(full, 8.0 * self.unit)
            self.unit = max(1e-7, self.unit + self.smoothing * (full - self.unit))
        # Decisions per hand *played* (hands the bot is never asked in count too), with
        # the prior weighing as PRIOR_HANDS hands.
        hands = hand - self._first_hand + 1 + PRIOR_HANDS
        self.decisions_per_hand = (self._decisions + self.prior_decisions * PRIOR_HANDS) / hands
