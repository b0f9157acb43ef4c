"""The hand evaluator the bots use: eval7, or pkrbot where eval7 cannot be installed.

MIT's 2026 image (Python 3.13) has no eval7 wheel and ships ``pkrbot`` instead, whose
``Card`` and ``evaluate`` behave like eval7's (higher is better; five to eight cards).
Everything else here is a small wrapper so that the rest of the bots never ask which
one they got.  eval7 also has a compiled Monte Carlo loop; with pkrbot, whose
``evaluate`` is itself fast, :func:`local_runner.bots.ranges.sampled_equity` runs its
Python loop instead.
"""

from __future__ import annotations

import importlib
import random
import threading
from types import ModuleType
from typing import Any

__all__ = ["COMPILED_MONTE_CARLO", "Card", "NAME", "evaluate", "monte_carlo"]


def _load() -> ModuleType:
    for name in ("eval7", "pkrbot"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise ImportError(
        "The reference bots need a hand evaluator: `pip install eval7`, or `pip install pkrbot` "
        "where eval7 has no wheel (Python 3.13)."
    )


_MODULE = _load()

#: Which evaluator was found: ``"eval7"`` or ``"pkrbot"``.
NAME: str = _MODULE.__name__
#: The evaluator's card class (built from a string like ``"Ah"``).
Card: Any = _MODULE.Card
#: ``evaluate(cards)``: the value of the best five-card hand among 5 to 8 cards.
evaluate: Any = _MODULE.evaluate
#: True when eval7's compiled Monte Carlo loop is there (see :func:`monte_carlo`).
COMPILED_MONTE_CARLO: bool = hasattr(_MODULE, "py_hand_vs_range_monte_carlo")
_XORSHIFT: Any = importlib.import_module("eval7.xorshift_rand") if COMPILED_MONTE_CARLO else None
_RUNOUTS = threading.Lock()  # held while eval7's one generator is seeded and dealt from


def monte_carlo(
    hand: list[Any], options: list[Any], board: list[Any], runs: int, rng: random.Random
) -> float:
    """eval7's compiled loop: equity of a two-card ``hand`` against ``options`` in turn, its
    runouts dealt from eval7's own generator seeded from ``rng`` (so a seeded bot plays the
    same match twice).

    That generator is one per process: the seed and the loop run under one lock, or two
    bots in threads (a tournament's thread pool) would deal from each other's seeds.
    """
    with _RUNOUTS:
        _XORSHIFT.seed(rng.getrandbits(62))
        return float(_MODULE.py_hand_vs_range_monte_carlo(hand, options, board, runs))
