"""How strong each of the 1,326 pairs is on a board, as a percentile and a bucket.

The likelihood model (:mod:`.likelihood`) asks "how likely is this action from a
hand this strong?", so every pair needs a strength on the current board:

* before the flop, the percentile of its class's equity against a random hand
  (the shipped table);
* after it, the percentile of its made hand's eval7 value among the pairs still
  possible (draws count as their current high card: a deliberate simplification
  that keeps this one pass of eval7 per street).

Strengths are grouped into :data:`NUM_BUCKETS` equal-sized buckets; both tables
are cached per board, so a hand pays for each street once.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from functools import cache, lru_cache

from sdk.rules import RANKS, SUITS

from .cards import CARD_BIT, COMBO_CLASS, COMBO_MASK, COMBOS, EVAL7_COMBOS, mask_of, to_eval7
from .evaluator import evaluate
from .preflop import equity_vs_random

__all__ = ["NUM_BUCKETS", "buckets", "percentiles", "values"]

#: Strength buckets (equal shares of the pairs): 0 weakest ... NUM_BUCKETS - 1 strongest.
NUM_BUCKETS = 5


@cache
def _preflop_values() -> tuple[float, ...]:
    table = equity_vs_random()
    return tuple(table[c] for c in COMBO_CLASS)


#: A suit decides a pair's value only where the board holds this many cards of it (two
#: hole cards of that suit then complete a five-card flush); elsewhere only ranks count.
_FLUSH_BOARD_CARDS = 3
#: Card keys run below this (a rank, times one more than the suits), so a pair's key is
#: its higher card's key times it plus the lower's.
_KEY_SPAN = len(RANKS) * (len(SUITS) + 1)


def _card_key(card: str, flush_suit: str | None) -> int:
    """A hole card as its value sees it: its rank, and its suit only if that suit can flush."""
    flagged = card[1] == flush_suit
    return RANKS.index(card[0]) * (len(SUITS) + 1) + (SUITS.index(card[1]) + 1 if flagged else 0)


@cache
def _pair_keys(flush_suit: str | None) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
    """Each pair's key (two pairs with one key have one value on a board whose only
    flushing suit is ``flush_suit``), and the pairs of each key, in pair order."""
    keys = []
    for first, second in COMBOS:
        a, b = _card_key(first, flush_suit), _card_key(second, flush_suit)
        keys.append(a * _KEY_SPAN + b if a >= b else b * _KEY_SPAN + a)
    groups: dict[int, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return tuple(keys), {key: tuple(pairs) for key, pairs in groups.items()}


@cache
def _pairs_with(card: str) -> tuple[int, ...]:
    """The pairs that hold ``card``."""
    bit = CARD_BIT[card]
    return tuple(i for i, mask in enumerate(COMBO_MASK) if mask & bit)


@lru_cache(maxsize=16)
def values(board: tuple[str, ...]) -> tuple[float, ...]:
    """Every pair's strength value on ``board`` (higher is stronger); -1 if impossible.

    Before the flop, its class's equity against a random hand; after, its eval7 value.
    Pairs of the same ranks whose suits cannot make a flush on this board have one value,
    so eval7 is asked once per such class of pairs (about 170 calls on a board with no
    flushing suit, 340 with one, against 1,081 live pairs); a longer board (River of
    Blood's runs) with two flushing suits asks for every pair.
    """
    if not board:
        return _preflop_values()
    dead = mask_of(board)
    cards = to_eval7(board)
    counts = Counter(card[1] for card in board)
    flushing = [suit for suit, n in counts.items() if n >= _FLUSH_BOARD_CARDS]
    if len(flushing) > 1:
        return tuple(
            -1.0 if mask & dead else float(evaluate([a, b, *cards]))
            for (a, b), mask in zip(EVAL7_COMBOS, COMBO_MASK, strict=True)
        )
    keys, groups = _pair_keys(flushing[0] if flushing else None)
    table = [-1.0] * (_KEY_SPAN * _KEY_SPAN)
    for key, pairs in groups.items():
        for i in pairs:
            if not COMBO_MASK[i] & dead:
                a, b = EVAL7_COMBOS[i]
                table[key] = float(evaluate([a, b, *cards]))
                break
    result = list(map(table.__getitem__, keys))
    for card in board:
        for i in _pairs_with(card):
            result[i] = -1.0
    return tuple(result)


@lru_cache(maxsize=16)
def _sorted_live(board: tuple[str, ...]) -> list[float]:
    # Sorting all and cutting off the impossible pairs' -1s is twice as fast as filtering.
    ordered = sorted(values(board))
    return ordered[bisect_right(ordered, -1.0) :]


@lru_cache(maxsize=16)
def percentiles(board: tuple[str, ...]) -> tuple[float, ...]:
    """Every pair's strength percentile (0 weakest, 1 strongest) on ``board``; -1 if impossible.

    Tied pairs share the middle of their run.
    """
    ordered = _sorted_live(board)
    top = max(len(ordered) - 1, 1)
    return tuple(
        -1.0 if v < 0 else (bisect_left(ordered, v) + bisect_right(ordered, v) - 1) / 2 / top
        for v in values(board)
    )


@lru_cache(maxsize=16)
def buckets(board: tuple[str, ...]) -> tuple[int, ...]:
    """Every pair's strength bucket on ``board`` (impossible pairs get bucket 0).

    The bucket edges are the strength quantiles of the live pairs, so the buckets
    hold about equal shares (tied pairs stay together).
    """
    ordered = _sorted_live(board)
    edges = [ordered[len(ordered) * k // NUM_BUCKETS] for k in range(1, NUM_BUCKETS)]
    # Far fewer distinct values than pairs: place each value once, then look pairs up.
    bucket_of = {v: bisect_right(edges, v) for v in set(ordered)}
    bucket_of[-1.0] = 0
    return tuple(map(bucket_of.__getitem__, values(board)))
