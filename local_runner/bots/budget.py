"""The budget-aware mode: spend less per decision as the game clock runs down.

The seed bot lost on the server because it ran out of time.  :class:`Budget`
compares the clock left per hand still to play with what a hand normally costs,
and scales the Monte Carlo work down in proportion; when even that is too much
it switches to *frugal* play: no range updates, no learning, and one short
simulation (or a table lookup) per decision, a fraction of a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass

from sdk.states import GameState, RoundState

__all__ = ["Budget", "Spend"]


@dataclass(frozen=True, slots=True)
class Spend:
    """How much work one decision may do."""

    samples: int
    """Opponent hands per Monte Carlo run (flop and turn)."""
    frugal: bool
    """True when time is short: no range updates, one short simulation per decision."""


@dataclass(frozen=True, slots=True)
class Budget:
    """The clock policy.

    ``hand_seconds`` is what a hand costs at full effort (generous: the benchmark
    measures about a third of it against the busiest opponent); while the clock
    left per remaining hand is at least that, decisions use ``samples``.  Below
    it the samples shrink in proportion, and under ``frugal_share`` of it the bot
    turns frugal (``frugal_samples`` per simulation, no range updates).
    """

    samples: int = 400
    min_samples: int = 40
    frugal_samples: int = 30
    hand_seconds: float = 0.012
    frugal_share: float = 0.1

    def spend(self, game_state: GameState, round_state: RoundState) -> Spend:
        """The work allowed for a decision now."""
        hands_left = max(1, round_state.rules.num_rounds - game_state.round_num + 1)
        share = game_state.game_clock / hands_left / self.hand_seconds
        if share >= 1.0:
            return Spend(self.samples, False)
        if share < self.frugal_share:
            return Spend(self.frugal_samples, True)
        return Spend(max(self.min_samples, int(self.samples * share)), False)
