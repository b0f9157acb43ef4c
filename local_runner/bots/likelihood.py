"""P(action | hand strength): the opponent model behind the range bot's Bayes updates.

An opponent action is one of three kinds (:class:`Kind`): it *folds*, plays
*passively* (checks or calls) or *aggressively* (bets or raises).  The model gives
the probability of each kind for a hand in each strength bucket
(:mod:`.strength`), separately in four situations (:class:`Situation`): before
or after the flop, facing a bet or not.

It starts from a prior that says what most players do (strong hands raise, weak
ones fold) and learns from showdowns: when the opponent shows its cards, each of
its actions in that hand is counted against the bucket its hand was in then.
Folded hands are never shown, so the fold rate per bucket keeps the prior's shape,
scaled to the opponent's observed fold-to-bet rate (:mod:`sdk.opponent_stats`).

Likewise the share of bets and raises among the hands that play on keeps the prior's
shape (stronger hands raise more) but is calibrated to how often this opponent is
aggressive in that situation, counted over *every* hand (:meth:`LikelihoodModel.observe`):
against a bot that raises almost always, a raise says almost nothing about its hand; the
prior alone would read every such raise as strength and fold to it.
"""

from __future__ import annotations

import math
from enum import IntEnum
from typing import NamedTuple

from sdk.actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.opponent_stats import OpponentStats

from .strength import NUM_BUCKETS

__all__ = ["Kind", "LikelihoodModel", "Situation", "kind_of"]


class Kind(IntEnum):
    """What an action says about a hand."""

    FOLD = 0
    PASSIVE = 1
    AGGRESSIVE = 2


class Situation(NamedTuple):
    """Where an action was taken: the flop or later, and whether a bet was faced."""

    postflop: bool
    facing_bet: bool


def kind_of(action: Action) -> Kind | None:
    """The kind of a betting action (None for an auction bid)."""
    if isinstance(action, FoldAction):
        return Kind.FOLD
    if isinstance(action, (CheckAction, CallAction)):
        return Kind.PASSIVE
    if isinstance(action, RaiseAction):
        return Kind.AGGRESSIVE
    return None


#: The prior, per bucket (weakest first): P(aggressive) when not facing a bet ...
_PRIOR_BET = (0.10, 0.15, 0.25, 0.45, 0.70)
#: ... and P(fold), P(raise) when facing one (the rest calls).
_PRIOR_FOLD = (0.60, 0.40, 0.20, 0.08, 0.02)
_PRIOR_RAISE = (0.05, 0.05, 0.10, 0.20, 0.40)
_PRIOR_FOLD_MEAN = sum(_PRIOR_FOLD) / NUM_BUCKETS
#: How many showdown observations the prior is worth, per bucket and situation.
PRIOR_STRENGTH = 8.0
#: How many observed actions the prior's aggression rate is worth, per situation.
FREQUENCY_STRENGTH = 20.0


def _prior(situation: Situation, bucket: int) -> tuple[float, float, float]:
    """(fold, passive, aggressive) probabilities of the prior."""
    if situation.facing_bet:
        fold, aggressive = _PRIOR_FOLD[bucket], _PRIOR_RAISE[bucket]
        return (fold, 1.0 - fold - aggressive, aggressive)
    return (0.0, 1.0 - _PRIOR_BET[bucket], _PRIOR_BET[bucket])


class LikelihoodModel:
    """P(kind | bucket, situation): a prior plus counts from the opponent's showdowns."""

    def __init__(self) -> None:
        # counts[situation][bucket][kind]: actions seen in shown-down hands.
        self.counts: dict[Situation, list[list[int]]] = {
            Situation(post, facing): [[0, 0, 0] for _ in range(NUM_BUCKETS)]
            for post in (False, True)
            for facing in (False, True)
        }
        # frequency[situation][kind]: every action of the opponent, shown down or not.
        self.frequency: dict[Situation, list[int]] = {
            situation: [0, 0, 0] for situation in self.counts
        }
        self._shares: dict[Situation, tuple[tuple[int, int], list[float]]] = {}

    def observe(self, situation: Situation, kind: Kind) -> None:
        """Count one action of the opponent, whatever its hand (for its aggression rate)."""
        self.frequency[situation][kind] += 1

    def learn(self, situation: Situation, bucket: int, kind: Kind) -> None:
        """Count one action of a hand the opponent later showed."""
        self.counts[situation][bucket][kind] += 1

    def fold_probabilities(self, situation: Situation, stats: OpponentStats) -> list[float]:
        """P(fold | bucket): the prior's shape, scaled to the observed fold-to-bet rate."""
        if not situation.facing_bet:
            return [0.0] * NUM_BUCKETS
        rate = stats.fold_to_bet.estimate(prior=_PRIOR_FOLD_MEAN, strength=20.0)
        scale = rate / _PRIOR_FOLD_MEAN
        return [min(0.95, max(0.005, f * scale)) for f in _PRIOR_FOLD]

    def table(self, situation: Situation, kind: Kind, stats: OpponentStats) -> list[float]:
        """P(kind | bucket) for each bucket, weakest first."""
        folds = self.fold_probabilities(situation, stats)
        if kind is Kind.FOLD:
            return folds
        aggressive = self.aggressive_shares(situation)
        result = []
        for bucket in range(NUM_BUCKETS):
            counts = self.counts[situation][bucket]
            # Among the hands that did not fold: the calibrated prior share blended with
            # what was shown.
            prior_share = aggressive[bucket] if kind is Kind.AGGRESSIVE else 1 - aggressive[bucket]
            seen = counts[Kind.PASSIVE] + counts[Kind.AGGRESSIVE]
            share = (PRIOR_STRENGTH * prior_share + counts[kind]) / (PRIOR_STRENGTH + seen)
            result.append((1.0 - folds[bucket]) * share)
        return result

    def aggressive_shares(self, situation: Situation) -> list[float]:
        """P(bet or raise | bucket, did not fold): the prior's shares, shifted in log-odds
        until their mean is the opponent's observed aggression rate in ``situation``
        (shrunk toward the prior's by :data:`FREQUENCY_STRENGTH` actions)."""
        seen = self.frequency[situation]
        key = (seen[Kind.PASSIVE], seen[Kind.AGGRESSIVE])
        cached = self._shares.get(situation)
        if cached is not None and cached[0] == key:
            return cached[1]
        prior = []
        for bucket in range(NUM_BUCKETS):
            _, passive, aggressive = _prior(situation, bucket)
            prior.append(aggressive / (passive + aggressive))
        mean = sum(prior) / NUM_BUCKETS
        rate = (FREQUENCY_STRENGTH * mean + key[1]) / (FREQUENCY_STRENGTH + key[0] + key[1])
        shares = _shift_to_mean([math.log(p / (1.0 - p)) for p in prior], rate)
        self._shares[situation] = (key, shares)
        return shares


def _shift_to_mean(logits: list[float], target: float) -> list[float]:
    """``sigmoid(logit + c)`` for each logit, with the one ``c`` whose mean is ``target``
    (bisection: the mean grows with ``c``)."""
    low, high = -20.0, 20.0
    for _ in range(40):
        middle = (low + high) / 2
        mean = sum(1.0 / (1.0 + math.exp(-(x + middle))) for x in logits) / len(logits)
        low, high = (middle, high) if mean < target else (low, middle)
    shift = (low + high) / 2
    return [1.0 / (1.0 + math.exp(-(x + shift))) for x in logits]
