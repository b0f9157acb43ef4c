"""A weighted opponent range over all 1,326 hole-card pairs, and equity against it.

The seed write-up kept a *set* of hands that only shrank, and ran a Monte Carlo
simulation for every hand in it after every action.  Here a range is a
probability for every pair (:class:`WeightedRange`), updated by Bayes' rule
(multiply by a likelihood, renormalise), and equity against it costs one cheap
evaluation whatever the range:

* before the flop, a weighted average of one row of the shipped class-against-class
  table (:func:`preflop_equity`): no simulation;
* on the river, every pair's hand rank is computed once per board and cached, so
  equity is a weighted count of the pairs we beat (:func:`river_equity`): exact;
* on the flop and turn, one Monte Carlo run in eval7's compiled loop whose
  opponent hands are drawn from the weights (:func:`sampled_equity`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from operator import mul

from sdk.handclass import ALL_CARDS

from .cards import (
    CARD_BIT,
    COMBO_CLASS,
    COMBO_INDEX,
    COMBO_MASK,
    EVAL7,
    EVAL7_COMBOS,
    mask_of,
    to_eval7,
)
from .evaluator import COMPILED_MONTE_CARLO, evaluate, monte_carlo
from .preflop import matrix
from .strength import values

__all__ = [
    "NUM_COMBOS",
    "WeightedRange",
    "board_ranks",
    "equity",
    "preflop_equity",
    "river_equity",
    "sampled_equity",
]

NUM_COMBOS = len(COMBO_MASK)
_INDICES = range(NUM_COMBOS)


class WeightedRange:
    """A probability for each of the 1,326 pairs the opponent may hold.

    ``weights[i]`` belongs to pair ``cards.COMBOS[i]``.  The weights always sum
    to one over the pairs still possible (pairs using a card we can see are 0).
    """

    __slots__ = ("_dead", "weights")

    def __init__(self, weights: Sequence[float] | None = None) -> None:
        self._dead = 0  # the cards already removed, as bits
        if weights is None:
            self.weights = [1.0 / NUM_COMBOS] * NUM_COMBOS
            return
        if len(weights) != NUM_COMBOS:
            raise ValueError(f"A range needs {NUM_COMBOS} weights, not {len(weights)}.")
        if any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError("Range weights must be >= 0 and not all 0.")
        total = sum(weights)
        self.weights = [w / total for w in weights]

    @classmethod
    def scaled(cls, base: WeightedRange, factors: Sequence[float]) -> WeightedRange:
        """A new range: ``base`` with each weight multiplied by a factor (>= 0), renormalised."""
        result = cls.__new__(cls)
        result._dead = base._dead
        if len(factors) != NUM_COMBOS:
            raise ValueError(f"A range needs {NUM_COMBOS} factors, not {len(factors)}.")
        result.weights = list(map(mul, base.weights, factors))
        result._normalise(base._dead)
        return result

    def remove_cards(self, cards: Sequence[str]) -> None:
        """Set to 0 every pair that uses one of ``cards`` (ours or the board's), renormalise."""
        new = mask_of(cards) & ~self._dead
        if not new:
            return  # nothing new is seen: the range is unchanged
        self._dead |= new
        self.weights = [
            0.0 if mask & new else w for w, mask in zip(self.weights, COMBO_MASK, strict=True)
        ]
        self._normalise(self._dead)

    def update(self, likelihood: Sequence[float], dead_cards: Sequence[str] = ()) -> None:
        """Bayes' rule: multiply each pair's weight by P(observed action | pair), renormalise.

        If the evidence rules out every pair (a likelihood of 0 everywhere the range
        has weight), the range falls back to uniform over the live pairs rather than
        dividing by zero: the model was wrong, so forget it.
        """
        if len(likelihood) != NUM_COMBOS:
            raise ValueError(f"A likelihood needs {NUM_COMBOS} values, not {len(likelihood)}.")
        self.weights = list(map(mul, self.weights, likelihood))
        self._normalise(self._dead | mask_of(dead_cards))

    def blend_uniform(self, share: float, dead_cards: Sequence[str] = ()) -> None:
        """Mix in ``share`` of a uniform range over the live pairs (cards may have changed)."""
        dead = self._dead | mask_of(dead_cards)
        live = [not (mask & dead) for mask in COMBO_MASK]
        count = sum(live)
        flat = share / count if count else 0.0
        self.weights = [
            (1.0 - share) * w + (flat if ok else 0.0)
            for w, ok in zip(self.weights, live, strict=True)
        ]
        self._normalise(dead)

    def _normalise(self, dead: int) -> None:
        total = sum(self.weights)
        if total > 0.0:
            scale = 1.0 / total
            self.weights = list(map(scale.__mul__, self.weights))
            return
        live = [not (mask & dead) for mask in COMBO_MASK]
        count = sum(live)
        self.weights = [1.0 / count if ok else 0.0 for ok in live]

    def class_weights(self, dead_cards: Sequence[str] = ()) -> list[float]:
        """The weight of each of the 169 classes, leaving out pairs that use ``dead_cards``."""
        dead = mask_of(dead_cards)
        totals = [0.0] * 169
        for w, mask, cls in zip(self.weights, COMBO_MASK, COMBO_CLASS, strict=True):
            if w and not mask & dead:
                totals[cls] += w
        return totals


@lru_cache(maxsize=169)
def _class_row_per_pair(hero_class: int) -> tuple[float, ...]:
    """The table row of a class, spread out to the 1,326 pairs (cached per class)."""
    row = matrix()[hero_class]
    return tuple(row[c] for c in COMBO_CLASS)


def preflop_equity(hand: Sequence[str], opponent: WeightedRange) -> float:
    """Equity of two hole cards against ``opponent`` before the flop, from the shipped table.

    A weighted average of the table row over the opponent's pairs, leaving out the
    pairs that use one of our cards (two C-speed passes, no simulation).
    """
    row = _class_row_per_pair(COMBO_CLASS[COMBO_INDEX[(hand[0], hand[1])]])
    weights = opponent.weights
    total = sum(weights)
    value = sum(map(mul, weights, row))
    for i in _blocked(hand[0], hand[1]):
        total -= weights[i]
        value -= weights[i] * row[i]
    return value / total if total > 1e-12 else 0.5


@lru_cache(maxsize=1326)
def _blocked(first: str, second: str) -> tuple[int, ...]:
    """The pairs that share a card with ``first`` or ``second``."""
    dead = mask_of((first, second))
    return tuple(i for i, mask in enumerate(COMBO_MASK) if mask & dead)


def board_ranks(board: tuple[str, ...]) -> tuple[float, ...]:
    """Every pair's eval7 hand value on a complete board (-1 for pairs using a board card).

    The strength table's values (:func:`.strength.values`, cached per board): a river's
    strength buckets and its exact equity read the one eval7 pass.
    """
    return values(board)


def river_equity(hand: Sequence[str], board: Sequence[str], opponent: WeightedRange) -> float:
    """Exact equity on a complete board: the weighted share of pairs we beat (ties half)."""
    ranks = board_ranks(tuple(board))
    mine = evaluate(to_eval7([*hand, *board]))
    dead = mask_of(hand)
    won = total = 0.0
    for w, rank, mask in zip(opponent.weights, ranks, COMBO_MASK, strict=True):
        if w and rank >= 0 and not mask & dead:
            total += w
            if mine > rank:
                won += w
            elif mine == rank:
                won += 0.5 * w
    return won / total if total > 0.0 else 0.5


def sampled_equity(
    hand: Sequence[str],
    board: Sequence[str],
    opponent: WeightedRange,
    samples: int,
    rng: random.Random,
    full_board: int = 5,
) -> float:
    """Equity by one Monte Carlo run: ``samples`` opponent pairs drawn by weight, one runout each.

    eval7's compiled loop takes the opponent hands in order (it ignores weights), so
    the weighting is done here by drawing the list it is given.  ``full_board`` is the
    board's size at showdown (Toss Hold'em: six, which only the Python loop deals).
    """
    dead = mask_of([*hand, *board])
    if dead & ~opponent._dead:
        live = [
            0.0 if mask & dead else w for w, mask in zip(opponent.weights, COMBO_MASK, strict=True)
        ]
    else:  # the range has already dropped these cards' pairs
        live = opponent.weights
    if samples < 1 or sum(live) <= 0.0:
        return 0.5
    drawn = rng.choices(_INDICES, weights=live, k=samples)
    # River of Blood's runs put more than five cards on the board: the Python loop.
    if len(hand) != 2 or not COMPILED_MONTE_CARLO or full_board != 5 or len(board) > 5:
        return _sampled_equity_any(hand, board, drawn, rng, full_board)
    options = [(EVAL7_COMBOS[i], 1.0) for i in drawn]
    return monte_carlo(to_eval7(hand), options, to_eval7(board), samples, rng)


def _sampled_equity_any(
    hand: Sequence[str],
    board: Sequence[str],
    drawn: list[int],
    rng: random.Random,
    full_board: int = 5,
) -> float:
    """The same Monte Carlo run in Python: for pkrbot, for hands of other than two cards,
    and for boards of other than five cards.

    eval7's compiled loop assumes two hole cards (a three-card Auction hand comes
    out about 0.1 too low) and five board cards, so the others pay for a slower loop.
    """
    seen = mask_of([*hand, *board])
    deck = [(EVAL7[card], CARD_BIT[card]) for card in ALL_CARDS if not CARD_BIT[card] & seen]
    known = [*to_eval7(hand), *to_eval7(board)]
    shared = to_eval7(board)
    missing = max(0, full_board - len(board))  # a run's board is already past full
    sample = rng.sample
    won = 0.0
    for i in drawn:
        theirs = COMBO_MASK[i]
        # Two extra cards cover the (at most two) that the opponent's pair holds.
        runout = [card for card, bit in sample(deck, missing + 2) if not bit & theirs][:missing]
        ours = evaluate([*known, *runout])
        their = evaluate([*EVAL7_COMBOS[i], *shared, *runout])
        won += 1.0 if ours > their else 0.5 if ours == their else 0.0
    return won / len(drawn)


def equity(
    hand: Sequence[str],
    board: Sequence[str],
    opponent: WeightedRange,
    samples: int,
    rng: random.Random,
) -> float:
    """Equity against a weighted range by the cheapest sound method for the street.

    Two hole cards before the flop use the table; a complete board (or, in River of Blood,
    a longer one: the runs to come are not counted) is exact; otherwise
    (and for a three-card Auction hand before the river) one sampled Monte Carlo run.
    """
    if not board and len(hand) == 2:
        return preflop_equity(hand, opponent)
    if len(board) >= 5:  # River of Blood's runs: as exact for the cards seen so far
        return river_equity(hand, board, opponent)
    return sampled_equity(hand, board, opponent, samples, rng)
