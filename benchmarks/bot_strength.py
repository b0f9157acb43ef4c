"""The reference ladder's strength: duplicate matches between every two rungs, per game.

    python benchmarks/bot_strength.py [--pairs 10000] [--variants nlhe,swap,auction,bounty,toss]
                                      [--bots random,checkcall,equity,range] [--seed 1]
                                      [--chunk 100000] [--jobs 2] [--json FILE]
    python benchmarks/bot_strength.py --variants acpc-3pl --pairs 3000   # 3-seat lineups

Heads-up games: for each two bots of the ladder (lower rung first), a duplicate match of
``--pairs`` hand pairs in this process: the seeded deals once with the higher rung as the
first player, then again with the seats swapped and both bots new (so each bot gets the
other's cards).  A match longer than ``--chunk`` pairs is played as several duplicate
matches of at most ``--chunk`` pairs with consecutive seeds (fresh bots, other deals), and
their hand pairs pooled: the pairs are independent either way, and the pieces run in
parallel and keep the engine's per-decision records small.  The game clock is the
variant's, scaled to the match length (30 s per 1000 hands stays 30 s per 1000 hands),
times ``--clock-factor`` (1 by default: more only to keep a loaded machine's slow wall
clock from pushing a bot into its frugal mode; say so when reporting).
Reports the higher rung's result in milli-big-blinds per hand with a 95% interval over
hand pairs (the kit's :func:`local_runner.results.stats.summarize_duplicate`), and whether the
interval excludes zero.  The issue asks for at least 10,000 pairs per pairing.

Three-seat games (``acpc-3pl``): for each three bots of the ladder, ``--pairs`` deals are
each played three times, the bots rotated through the seats (every bot holds every seat's
cards once), in-process 3-seat matches; a bot's sample for a deal is its mean result over
the three rotations, and its interval is over deals.  (This is the benchmark's own
rotation, not the runner's duplicate mode.)

A bot is a built-in name, or ``NAME@SAMPLES`` / ``NAME@frugal`` / ``NAME@reflex`` for
``equity`` and ``range`` held to a fixed budget (every decision at that many Monte Carlo
samples, frugal, or by the reflex table lookup), whatever the clock: the play the
clock-aware budget falls back to on a busy machine, reproducibly (``--bots
range@frugal,range --clock-factor 20``: the strength cost of the smaller budget, the full
bot kept clear of its clock).

``--card-blind`` adds, for each heads-up pairing, the same result with every showdown
counted as 0.  Between two bots that never look at their cards (``random``, ``checkcall``)
the actions say nothing about the cards, the two hands are dealt alike, and so a showdown
is worth 0 on average: this estimate has the same expectation as the plain one and a far
smaller variance, because the showdowns of random's huge all-in pots are the noise.  It
is *not* sound for any bot that reads its cards, nor in Auction Hold'em, where the third
card makes the two hands unequal.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from itertools import combinations
from pathlib import Path
from typing import Any

from local_runner.bots.budget import Budget, Spend
from local_runner.bots.builtin import make_builtin
from local_runner.bots.equity import EquityBot
from local_runner.bots.range_bot import RangeBot
from local_runner.engine.match import Match
from local_runner.engine.records import HandRecord
from local_runner.engine.seats import InProcessSeat
from local_runner.results.standings import slot_deltas
from local_runner.results.stats import RunningStats, Summary, summarize_duplicate
from sdk.bot import Bot
from sdk.games import VARIANTS
from sdk.rules import Rules
from sdk.states import GameState, RoundState

LADDER = ("random", "checkcall", "equity", "range")
#: Seeds of consecutive chunks of one pairing are this far apart (any two chunks deal
#: different cards; the first chunk keeps ``--seed``, so short runs reproduce older ones).
CHUNK_SEED_STEP = 7919

#: One piece of work: (variant, bots in rung order, pairs or deals, seed).
Job = tuple[str, tuple[str, ...], int, int]


#: Multiplies every match's game clock (``--clock-factor``); set once per worker process.
CLOCK_FACTOR = 1.0


def scaled_rules(variant: str, hands: int) -> Rules:
    """The variant's rules for a match of ``hands`` hands, with the clock scaled to match
    (and multiplied by :data:`CLOCK_FACTOR`)."""
    base = Rules.for_variant(variant)
    per_hand = base.game_clock / base.num_rounds
    return base.replace(num_rounds=hands, game_clock=per_hand * hands * CLOCK_FACTOR)


def _set_clock_factor(factor: float) -> None:
    global CLOCK_FACTOR
    CLOCK_FACTOR = factor


Hands = list[tuple[tuple[int, ...], bool]]


class FixedBudget(Budget):
    """A budget that ignores the clock: every decision gets ``fixed``."""

    def __init__(self, fixed: Spend) -> None:
        super().__init__()
        self.fixed = fixed

    def spend(self, game_state: GameState, round_state: RoundState) -> Spend:
        """Always the same work."""
        return self.fixed


def make_bot(name: str, seed: int) -> Bot:
    """A built-in bot, or ``equity``/``range`` at a fixed budget (``range@40``,
    ``range@frugal``)."""
    base, _, level = name.partition("@")
    if not level:
        return make_builtin(name, seed)
    if level == "reflex":
        spend = Spend(0, True, True)
        return (RangeBot if base == "range" else EquityBot)(seed, budget=FixedBudget(spend))
    frugal = level == "frugal"
    spend = Spend(30 if frugal else int(level), frugal)
    if base == "range":
        return RangeBot(seed, budget=FixedBudget(spend))
    if base == "equity":
        return EquityBot(seed, budget=FixedBudget(Spend(50 if frugal else int(level), frugal)))
    raise ValueError(f"Only equity and range take a fixed budget, not {base!r}.")


def play(bots: list[str], rules: Rules, seed: int) -> tuple[Hands, dict[str, int]]:
    """One match of ``bots`` in slot order: each hand's deltas per slot and whether it
    reached a showdown, and any faults."""
    seats = [
        InProcessSeat(f"{name}-{slot}", make_bot(name, seed + slot), rules)
        for slot, name in enumerate(bots)
    ]
    deltas: Hands = []

    def observe(record: HandRecord) -> None:
        deltas.append((slot_deltas(record), record.showdown))

    result = Match(seats, rules, seed, on_hand=observe).play()
    faults = {
        f"{player.name}:{kind.value}": count
        for player in result.players
        for kind, count in player.fault_counts.items()
    }
    return deltas, faults


def _merge(faults: dict[str, int], more: dict[str, int]) -> None:
    for key, count in more.items():
        faults[key] = faults.get(key, 0) + count


def duplicate_chunk(job: Job) -> dict[str, Any]:
    """A heads-up duplicate match: the higher rung's per-hand results in each half."""
    variant, (low, high), pairs, seed = job
    rules = scaled_rules(variant, pairs)
    start = time.perf_counter()
    first, faults = play([high, low], rules, seed)
    # Second half: the seats swapped; the low rung's deltas negate to the high rung's.
    second, more = play([low, high], rules, seed)
    _merge(faults, more)
    return {
        "first": [d[0] for d, _ in first],
        "second": [-d[0] for d, _ in second],
        # The same with every showdown counted as 0 (see ``--card-blind``).
        "first_folds": [0 if shown else d[0] for d, shown in first],
        "second_folds": [0 if shown else -d[0] for d, shown in second],
        "faults": faults,
        "seconds": time.perf_counter() - start,
    }


def rotation_chunk(job: Job) -> dict[str, Any]:
    """A 3-seat lineup: the same deals three times, the bots rotated through the slots.

    Returns, per bot, its mean result per deal over the three rotations.
    """
    variant, lineup, deals, seed = job
    rules = scaled_rules(variant, deals)
    size = len(lineup)
    start = time.perf_counter()
    totals = {name: [0] * deals for name in lineup}
    faults: dict[str, int] = {}
    for shift in range(size):
        order = [lineup[(slot + shift) % size] for slot in range(size)]
        deltas, more = play(order, rules, seed)
        _merge(faults, more)
        for hand, (row, _) in enumerate(deltas):
            for slot, name in enumerate(order):
                totals[name][hand] += row[slot]
    return {"totals": totals, "faults": faults, "seconds": time.perf_counter() - start}


def _interval(summary: Summary) -> dict[str, Any]:
    mbb = summary.mbb_per_hand
    return {
        "mbb_per_hand": round(mbb.mean, 1),
        "low": round(mbb.low, 1),
        "high": round(mbb.high, 1),
        "excludes_zero": mbb.low > 0 or mbb.high < 0,
    }


def heads_up_row(
    variant: str, low: str, high: str, pieces: list[dict[str, Any]], seed: int
) -> dict[str, Any]:
    """The pooled result of a pairing's chunks: the higher rung's mbb/hand and interval."""
    first = [d for piece in pieces for d in piece["first"]]
    second = [d for piece in pieces for d in piece["second"]]
    faults: dict[str, int] = {}
    for piece in pieces:
        _merge(faults, piece["faults"])
    big_blind = Rules.for_variant(variant).big_blind
    summary = summarize_duplicate(first, second, big_blind)
    folds = summarize_duplicate(
        [d for piece in pieces for d in piece["first_folds"]],
        [d for piece in pieces for d in piece["second_folds"]],
        big_blind,
    )
    return {
        "variant": variant,
        "higher": high,
        "lower": low,
        "pairs": len(first),
        "seed": seed,
        "chunks": len(pieces),
        **_interval(summary),
        "showdowns_as_zero": _interval(folds),
        "faults": faults,
        "seconds": round(sum(piece["seconds"] for piece in pieces), 1),
    }


def lineup_rows(
    variant: str, lineup: tuple[str, ...], pieces: list[dict[str, Any]], seed: int
) -> list[dict[str, Any]]:
    """Each bot's pooled result in a 3-seat lineup: mbb/hand over deals (rotations averaged)."""
    faults: dict[str, int] = {}
    for piece in pieces:
        _merge(faults, piece["faults"])
    big_blind = Rules.for_variant(variant).big_blind
    size = len(lineup)
    rows = []
    for name in lineup:
        # A deal's sample is the sum over the rotations: ``size`` hands (per_sample).
        samples = [total for piece in pieces for total in piece["totals"][name]]
        stats = RunningStats(samples)
        summary = Summary.from_stats(stats, sum(samples), big_blind, 0.95, size)
        rows.append(
            {
                "variant": variant,
                "lineup": list(lineup),
                "bot": name,
                "deals": len(samples),
                "hands": len(samples) * size,
                "seed": seed,
                **_interval(summary),
                "faults": faults,
                "seconds": round(sum(piece["seconds"] for piece in pieces), 1),
            }
        )
    return rows


def plan(variants: list[str], bots: list[str], pairs: int, chunk: int, seed: int) -> list[Job]:
    """Every chunk of every pairing (heads-up) or lineup (3 seats), the slowest first."""
    jobs: list[Job] = []
    for variant in variants:
        seats = Rules.for_variant(variant).seats
        for group in combinations(bots, seats):
            left, k = pairs, 0
            while left > 0:
                size = min(chunk, left)
                jobs.append((variant, group, size, seed + CHUNK_SEED_STEP * k))
                left -= size
                k += 1
    # The slowest matches (those with the upper rungs) first, so the pool ends together.
    jobs.sort(key=lambda job: -sum(bots.index(name) for name in job[1]) * job[2])
    return jobs


def run_job(job: Job) -> dict[str, Any]:
    """A chunk of a heads-up pairing or of a 3-seat lineup."""
    if len(job[1]) == 2:
        return duplicate_chunk(job)
    return rotation_chunk(job)


def main(argv: list[str] | None = None) -> int:
    """Run the pairings and print a table (and write JSON if asked)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000, help="hand pairs (3 seats: deals)")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--bots", default=",".join(LADDER), help="lowest rung first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=100_000, help="most pairs in one match")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--clock-factor",
        type=float,
        default=1.0,
        help="multiply the game clock: on a loaded machine the wall clock runs slower than "
        "the bots, and a bot short of clock plays its frugal mode (report the factor used)",
    )
    parser.add_argument(
        "--card-blind",
        action="store_true",
        help="also print each pairing's result with every showdown counted as 0 (sound only "
        "for two bots that never look at their cards, where a showdown is worth 0 on average)",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--progress", type=Path, help="append each result here (JSON lines) as it finishes"
    )
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    jobs = plan(args.variants.split(","), bots, args.pairs, args.chunk, args.seed)
    pieces: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}
    expected: dict[tuple[str, tuple[str, ...]], int] = {}
    for job in jobs:
        expected[(job[0], job[1])] = expected.get((job[0], job[1]), 0) + 1
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=args.jobs, initializer=_set_clock_factor, initargs=(args.clock_factor,)
    ) as pool:
        futures = {pool.submit(run_job, job): job for job in jobs}
        for future in as_completed(futures):
            variant, group, _, _ = futures[future]
            done = pieces.setdefault((variant, group), [])
            done.append(future.result())
            if len(done) < expected[(variant, group)]:
                continue
            if len(group) == 2:
                new = [heads_up_row(variant, group[0], group[1], done, args.seed)]
            else:
                new = lineup_rows(variant, group, done, args.seed)
            rows.extend(new)
            if args.progress is not None:
                with args.progress.open("a", encoding="utf-8") as handle:
                    for row in new:
                        handle.write(json.dumps(row) + "\n")
    wall = time.perf_counter() - start
    order = {name: i for i, name in enumerate(VARIANTS)}
    rows.sort(key=lambda row: (order[row["variant"]], row.get("higher", ""), row.get("lower", "")))
    print(
        f"{args.pairs} hand pairs (3 seats: deals x 3 rotations) per pairing; mbb/hand, 95% CI"
        + (f"; game clock x {args.clock_factor:g}" if args.clock_factor != 1.0 else "")
    )
    for row in rows:
        tail = f"  faults: {row['faults']}" if row["faults"] else ""
        interval = f"{row['mbb_per_hand']:>9.1f}  [{row['low']:.1f}, {row['high']:.1f}]"
        if "bot" in row:
            lineup = ",".join(row["lineup"])
            print(f"{row['variant']:8} {lineup:26} {row['bot']:>9} {interval}{tail}")
            continue
        verdict = "beats" if row["low"] > 0 else "loses to" if row["high"] < 0 else "ties"
        print(
            f"{row['variant']:8} {row['higher']:>9} {verdict:8} {row['lower']:<9} {interval}"
            f"  ({row['seconds']:.0f} s){tail}"
        )
        if args.card_blind:
            zero = row["showdowns_as_zero"]
            print(
                f"{'':8} {'showdowns as 0:':>28} {zero['mbb_per_hand']:>9.1f}  "
                f"[{zero['low']:.1f}, {zero['high']:.1f}]"
            )
    print(f"wall time {wall:.0f} s")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
