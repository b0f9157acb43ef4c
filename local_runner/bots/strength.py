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
from functools import cache, lru_cache

from .cards import COMBO_CLASS, COMBO_MASK, EVAL7_COMBOS, mask_of, to_eval7
from .evaluator import evaluate
from .preflop import equity_vs_random

__all__ = ["NUM_BUCKETS", "buckets", "percentiles", "values"]

#: Strength buckets (equal shares of the pairs): 0 weakest ... NUM_BUCKETS - 1 strongest.
NUM_BUCKETS = 5


@cache
def _preflop_values() -> tuple[float, ...]:
    table = equity_vs_random()
    return tuple(table[c] for c in COMBO_CLASS)


@lru_cache(maxsize=16)
def values(board: tuple[str, ...]) -> tuple[float, ...]:
    """Every pair's strength value on ``board`` (higher is stronger); -1 if impossible.

    Before the flop, its class's equity against a random hand; after, its eval7 value.
    """
    if not board:
        return _preflop_values()
    dead = mask_of(board)
    cards = to_eval7(board)
    return tuple(
        -1.0 if mask & dead else float(evaluate([a, b, *cards]))
        for (a, b), mask in zip(EVAL7_COMBOS, COMBO_MASK, strict=True)
    )


@lru_cache(maxsize=16)
def _sorted_live(board: tuple[str, ...]) -> list[float]:
    return sorted(v for v in values(board) if v >= 0)


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
