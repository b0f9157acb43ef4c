"""sdk.evaluator against eval7: a million-hand differential check and hands per second.

    python benchmarks/evaluator.py [--hands N] [--cards 7] [--seed S] [--json]

Deals ``--hands`` random hands of ``--cards`` cards (default 10**6 seven-card hands) and
checks that ``sdk.evaluator.evaluate`` gives exactly ``eval7.evaluate``'s number for every
one (exit status 1 and the first differing hands otherwise).  Then it times, on the same
hands, best of three passes of a plain loop with one call per hand:

* ``sdk cold``: the first pass after import, while the lazy tables fill;
* ``sdk warm``: later passes;
* ``eval7 native``: eval7 on its own ``Card`` objects, converted before timing;
* ``eval7 from strings``: eval7 including the conversion from ``"Ah"`` strings, which is
  what a bot holding the SDK's card strings pays.

Also printed: the import time of ``sdk.evaluator`` alone (not the ``sdk`` package it sits
in) and the number of table entries filled by the end.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable

import eval7

from sdk.rules import RANKS, SUITS

DECK = [rank + suit for rank in RANKS for suit in SUITS]


def per_second(function: Callable[[], object], hands: int, passes: int = 3) -> list[float]:
    """Hands per second of each of ``passes`` runs of ``function`` over ``hands`` hands."""
    rates = []
    for _ in range(passes):
        start = time.perf_counter()
        function()
        rates.append(hands / (time.perf_counter() - start))
    return rates


def import_seconds() -> float:
    """Seconds sdk.evaluator alone takes to import (self time in -X importtime, a new process)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import sdk.evaluator"],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in result.stderr.splitlines():
        if line.rstrip().endswith("sdk.evaluator"):
            return int(line.split("|")[0].split()[-1]) / 1e6
    raise RuntimeError("sdk.evaluator is missing from -X importtime's output")


def main() -> int:
    """Run the differential check, then the timings; print a table or JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--cards", type=int, default=7, choices=(5, 6, 7, 8))
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    seconds_to_import = import_seconds()
    from sdk import evaluator as module  # imported here so the cold pass starts empty

    rng = random.Random(args.seed)
    hands = [rng.sample(DECK, args.cards) for _ in range(args.hands)]
    native = {card: eval7.Card(card) for card in DECK}
    eval7_hands = [[native[card] for card in hand] for hand in hands]

    evaluate, eval7_evaluate = module.evaluate, eval7.evaluate
    start = time.perf_counter()
    ours = [evaluate(hand) for hand in hands]
    cold = args.hands / (time.perf_counter() - start)
    theirs = [eval7_evaluate(hand) for hand in eval7_hands]
    differing = [hands[i] for i in range(args.hands) if ours[i] != theirs[i]]

    warm = per_second(lambda: [evaluate(hand) for hand in hands], args.hands)
    eval7_native = per_second(lambda: [eval7_evaluate(hand) for hand in eval7_hands], args.hands)
    eval7_strings = per_second(
        lambda: [eval7_evaluate([native[card] for card in hand]) for hand in hands], args.hands
    )
    report = {
        "hands": args.hands,
        "cards": args.cards,
        "differing": len(differing),
        "sdk_cold_per_s": round(cold),
        "sdk_warm_per_s": round(max(warm)),
        "eval7_native_per_s": round(max(eval7_native)),
        "eval7_from_strings_per_s": round(max(eval7_strings)),
        "import_s": seconds_to_import,
        "table_entries": len(module._PLAIN) + len(module._SUITED),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{args.hands:,} random {args.cards}-card hands, {len(differing)} differ from eval7")
        for key in ("sdk_cold_per_s", "sdk_warm_per_s", "eval7_native_per_s"):
            print(f"  {key:26} {report[key]:>12,}")
        print(f"  {'eval7_from_strings_per_s':26} {report['eval7_from_strings_per_s']:>12,}")
        print(f"  import sdk.evaluator        {seconds_to_import * 1000:9.2f} ms")
        print(f"  table entries filled       {report['table_entries']:>12,}")
    if differing:
        print(f"first differing hands: {differing[:5]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
