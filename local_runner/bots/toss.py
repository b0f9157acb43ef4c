"""Toss Hold'em for the reference bots: which card to discard, and equity on a six-card board.

A Toss Hold'em hand keeps two of its three hole cards; the third goes face up onto the
board, where it plays for both seats.  The bots rate each choice by the equity of the two
cards kept, with the discarded card added to the board, against the opponent's range
(its final two cards), and keep the best pair.  Before the flop a three-card hand is
rated by its best pair.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from sdk.actions import DiscardAction

from .ranges import WeightedRange, preflop_equity, sampled_equity

__all__ = ["TOSS_BOARD", "best_discard", "toss_equity"]

#: Board cards at a Toss Hold'em showdown: two dealt, two discarded, a turn and a river.
TOSS_BOARD = 6


def toss_equity(
    hand: Sequence[str],
    board: Sequence[str],
    opponent: WeightedRange,
    samples: int,
    rng: random.Random,
) -> float:
    """Equity against ``opponent``'s pairs, the board run out to six cards; a three-card
    hand before the flop counts as its best pair (it will keep two)."""
    if len(hand) == 3 and not board:
        return max(preflop_equity(pair, opponent) for pair in combinations(hand, 2))
    return sampled_equity(hand, board, opponent, samples, rng, TOSS_BOARD)


def best_discard(
    hand: Sequence[str],
    board: Sequence[str],
    opponent: WeightedRange,
    samples: int,
    rng: random.Random,
) -> DiscardAction:
    """The discard that keeps the two cards with the best equity (the discarded card joins
    the board, for both seats); ``samples`` are split between the three choices."""
    share = max(1, samples // len(hand))

    def kept_equity(index: int) -> float:
        kept = [card for position, card in enumerate(hand) if position != index]
        return sampled_equity(kept, [*board, hand[index]], opponent, share, rng, TOSS_BOARD)

    return DiscardAction(max(range(len(hand)), key=kept_equity))
