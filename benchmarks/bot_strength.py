"""The reference ladder's strength: duplicate matches between every two rungs, per variant.

    python benchmarks/bot_strength.py [--pairs 10000] [--variants nlhe,swap,auction,bounty]
                                      [--bots random,checkcall,equity,range] [--seed 1]
                                      [--jobs 2] [--json FILE]

For each variant and each two bots of the ladder (lower rung first), plays a
duplicate match of ``--pairs`` hand pairs in this process: the seeded deals once
with the higher rung as the first player, then again with the seats swapped and
both bots new (so each bot gets the other's cards).  The game clock is the
variant's, scaled to the match length (30 s per 1000 hands stays 30 s per 1000
hands).  Reports the higher rung's result in milli-big-blinds per hand with a
95% interval over hand pairs (the kit's
:func:`local_runner.stats.summarize_duplicate`), and whether the interval
excludes zero.  The issue asks for at least 10,000 pairs per pairing; matches
run ``--jobs`` at a time in worker processes.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from itertools import combinations
from pathlib import Path
from typing import Any

from local_runner.builtin_bots import make_builtin
from local_runner.match import Match
from local_runner.records import HandRecord
from local_runner.seats import InProcessSeat
from local_runner.standings import slot_deltas
from local_runner.stats import summarize_duplicate
from sdk.rules import VARIANTS, Rules

LADDER = ("random", "checkcall", "equity", "range")


def half(first: str, second: str, rules: Rules, seed: int) -> tuple[list[int], dict[str, int]]:
    """One half: ``first`` is the match's first player; its per-hand deltas, and any faults."""
    seats = [
        InProcessSeat(f"{first}-a", make_builtin(first, seed), rules),
        InProcessSeat(f"{second}-b", make_builtin(second, seed + 1), rules),
    ]
    deltas: list[int] = []

    def observe(record: HandRecord) -> None:
        deltas.append(slot_deltas(record)[0])

    result = Match(seats, rules, seed, on_hand=observe).play()
    faults = {
        f"{player.name}:{kind.value}": count
        for player in result.players
        for kind, count in player.fault_counts.items()
    }
    return deltas, faults


def duplicate(job: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """A duplicate match of ``high`` against ``low``; ``high``'s result per hand."""
    variant, high, low, pairs, seed = job
    base = Rules.for_variant(variant)
    # The competition clock is per 1000 hands: scale it to the match's length.
    rules = base.replace(num_rounds=pairs, game_clock=base.game_clock * pairs / 1000)
    start = time.perf_counter()
    first, faults = half(high, low, rules, seed)
    # Second half: the seats swapped; the low rung's deltas negate to the high rung's.
    second_half, more = half(low, high, rules, seed)
    second = [-d for d in second_half]
    for key, count in more.items():
        faults[key] = faults.get(key, 0) + count
    summary = summarize_duplicate(first, second, rules.big_blind)
    mbb = summary.mbb_per_hand
    return {
        "variant": variant,
        "higher": high,
        "lower": low,
        "pairs": pairs,
        "seed": seed,
        "mbb_per_hand": round(mbb.mean, 1),
        "low": round(mbb.low, 1),
        "high": round(mbb.high, 1),
        "excludes_zero": mbb.low > 0 or mbb.high < 0,
        "faults": faults,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the pairings and print a table (and write JSON if asked)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--bots", default=",".join(LADDER), help="lowest rung first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--progress", type=Path, help="append each result here (JSON lines) as it finishes"
    )
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    jobs = [
        (variant, high, low, args.pairs, args.seed)
        for variant in args.variants.split(",")
        for low, high in combinations(bots, 2)
    ]
    # The slowest matches (those with the range bot) first, so the pool ends together.
    jobs.sort(key=lambda job: -(bots.index(job[1]) + bots.index(job[2])))
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for future in as_completed([pool.submit(duplicate, job) for job in jobs]):
            rows.append(future.result())
            if args.progress is not None:
                with args.progress.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps(rows[-1]) + "\n")
    rows.sort(key=lambda row: (VARIANTS.index(row["variant"]), row["higher"], row["lower"]))
    print(f"duplicate matches, {args.pairs} hand pairs each; the higher rung's mbb/hand, 95% CI")
    for row in rows:
        verdict = "beats" if row["low"] > 0 else "loses to" if row["high"] < 0 else "ties"
        print(
            f"{row['variant']:8} {row['higher']:>9} {verdict:8} {row['lower']:<9} "
            f"{row['mbb_per_hand']:>9.1f}  [{row['low']:.1f}, {row['high']:.1f}]  "
            f"({row['seconds']:.0f} s){'  faults: ' + str(row['faults']) if row['faults'] else ''}"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
