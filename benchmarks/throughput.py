"""Hands per second and runner memory, measured side by side in one run.

    python benchmarks/throughput.py [--quick] [--repeats N] [--json]

(a) two subprocess bots over sockets, (b) two in-process bots, for each
variant; and the runner's peak memory over 1 000 and 10 000 in-process hands
with logs written.  Each figure is the median of ``--repeats`` runs; the
machine is shared and noisy, so compare ratios within one run.  Every row says
the 1-minute load average before and after it was measured: on 2 cores a load
above 2 means other work was competing for them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import local_runner as kit

# The in-process figure measures the engine itself, below the public face: a Match of two
# built-in bots with no logs and no result objects.
from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat
from sdk.games import VARIANTS

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"


def in_process(variant: str, bot: str, hands: int) -> float:
    """Hands per second of two built-in bots in this process (no logs)."""
    rules = kit.Rules.for_variant(variant).replace(num_rounds=hands)
    seats = [
        InProcessSeat(f"p{seed}", make_builtin(bot, seed), rules) for seed in range(rules.seats)
    ]
    start = time.perf_counter()
    Match(seats, rules, seed=1).play()
    return hands / (time.perf_counter() - start)


def over_sockets(variant: str, bot: str, hands: int) -> float:
    """Hands per second of two bot processes over TCP, logs written, start-up excluded."""
    rules = kit.Rules.for_variant(variant).replace(num_rounds=hands)
    specs = [kit.BotSpec.parse(str(BOTS / bot)), kit.BotSpec.parse(str(BOTS / bot))]
    with tempfile.TemporaryDirectory() as out:
        result = kit.play_table(specs, kit.ScrimmageConfig(rules=rules, seed=1), Path(out))
    return hands / result.wall_seconds


_MEMORY_PROBE = """
import resource, sys, tempfile
from pathlib import Path
import local_runner as kit
rules = kit.Rules().replace(num_rounds=int(sys.argv[1]))
specs = [kit.BotSpec.parse("builtin:random"), kit.BotSpec.parse("builtin:random")]
with tempfile.TemporaryDirectory() as out:
    kit.play_table(specs, kit.ScrimmageConfig(rules=rules, seed=1), Path(out))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_memory_mib(hands: int) -> float:
    """The runner's peak resident memory (MiB) for a logged in-process match of ``hands``."""
    output = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(hands)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return int(output.split()[-1]) / 1024


def median_of(repeats: int, measure: object, *args: object) -> float:
    """The median of ``repeats`` calls of ``measure(*args)``."""
    assert callable(measure)
    return statistics.median(measure(*args) for _ in range(repeats))


def main() -> None:
    """Run every measurement and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and repeats (for CI)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    socket_hands, local_hands = (500, 2000) if args.quick else (2000, 20000)
    rows = []
    for variant in VARIANTS:
        for bot in ("checkcall", "random"):
            load_before = os.getloadavg()[0]
            # Bot processes speak the MIT wire, which seats two: a 3-seat game is in-process.
            heads_up = kit.Rules.for_variant(variant).seats == 2
            sockets = (
                median_of(repeats, over_sockets, variant, bot, socket_hands) if heads_up else None
            )
            local = median_of(repeats, in_process, variant, bot, local_hands)
            rows.append(
                {
                    "variant": variant,
                    "bots": bot,
                    "sockets_hands_per_s": None if sockets is None else round(sockets),
                    "in_process_hands_per_s": round(local),
                    "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
                }
            )
    memory_load = os.getloadavg()[0]
    memory = {hands: round(peak_memory_mib(hands), 1) for hands in (1000, 10000)}
    machine = {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
    }
    if args.json:
        report = {
            "machine": machine,
            "throughput": rows,
            "peak_memory_mib": memory,
            "memory_load_average_1min": [round(memory_load, 2), round(os.getloadavg()[0], 2)],
        }
        print(json.dumps(report, indent=2))
        return
    print(
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}; load: the 1-minute load "
        "average before and after each row (other work skews the figures)"
    )
    print(f"{'variant':8} {'bots':10} {'sockets h/s':>12} {'in-process h/s':>15} {'load':>11}")
    for row in rows:
        before, after = row["load_average_1min"]
        sockets_text = "-" if row["sockets_hands_per_s"] is None else row["sockets_hands_per_s"]
        print(
            f"{row['variant']:8} {row['bots']:10} {sockets_text:>12} "
            f"{row['in_process_hands_per_s']:>15} {before:>5.2f}-{after:<5.2f}"
        )
    print(
        f"runner peak memory: {memory[1000]} MiB at 1 000 hands, {memory[10000]} MiB at 10 000 "
        f"(load {memory_load:.2f}-{os.getloadavg()[0]:.2f})"
    )
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB)")


if __name__ == "__main__":
    main()
