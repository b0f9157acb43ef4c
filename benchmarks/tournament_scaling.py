"""Tournament scaling: wall time of a 4-bot round robin on 2 workers against 1, side by side.

    python benchmarks/tournament_scaling.py [--quick] [--repeats N] [--rounds R] [--json]
    python benchmarks/tournament_scaling.py --three-seat [--quick] [--repeats N] [--rounds R]

Four directory bots (two check/call bots and two random bots from
``benchmarks/bots``, each a real process) play a round robin, 2 matches per pair,
on a local process pool of 1 and of 2 workers.  Each wall time includes starting
the pool and every bot process, as a real tournament does.  The two
configurations alternate within each repetition, and the figures are medians,
so a noisy shared machine affects both alike; compare the ratio, not the
absolute times, across machines.

``--three-seat`` measures a tournament of the 3-seat game instead (``acpc-3pl``): four
built-in entrants (random, raise, checkcall, chump), every group of three playing one
duplicate match (six legs), on a local process pool of 2 workers and on a Dask
``LocalCluster`` of 2 single-threaded worker processes, alternating; each wall time
includes starting the pool or the cluster.  The 1-minute load average is printed before
and after each measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import tempfile
import time
from pathlib import Path

from local_runner import ScrimmageConfig, open_executor, plan_tournament, run_tournament
from sdk.rules import Rules

BOTS = Path(__file__).resolve().parent / "bots"
ENTRANTS = [BOTS / "checkcall", BOTS / "random", BOTS / "checkcall", BOTS / "random"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(workers: int, rounds: int, matches: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and hands played for one round robin on ``workers``.

    The CPU seconds are those of the pool's workers and the bots (all reaped at
    the end): if they stay level while the wall time does not halve, the
    machine had no free core, rather than the runner an overhead.
    """
    config = ScrimmageConfig(rules=Rules().replace(num_rounds=rounds), seed=2024)
    plan = plan_tournament([str(bot) for bot in ENTRANTS], config, matches_per_pair=matches)
    with tempfile.TemporaryDirectory() as out:
        cpu = _children_cpu()
        start = time.perf_counter()
        with open_executor(workers) as pool:
            result = run_tournament(plan, Path(out), pool)
        seconds = time.perf_counter() - start
        cpu = _children_cpu() - cpu
    if result.failures or not result.complete:
        raise RuntimeError(f"The benchmark tournament did not finish: {result.failures}.")
    return seconds, cpu, sum(match.hands for match in result.matches)


THREE_SEAT_ENTRANTS = ["builtin:random", "builtin:raise", "builtin:checkcall", "builtin:chump"]


def run_three_seat_once(executor: str, rounds: int) -> tuple[float, int, tuple[float, float]]:
    """Wall seconds and hands of one 3-seat duplicate tournament on ``executor`` (``pool`` or
    ``dask``), with the 1-minute load average before and after."""
    config = ScrimmageConfig(
        rules=Rules.for_variant("acpc-3pl").replace(num_rounds=rounds), seed=2024
    )
    plan = plan_tournament(THREE_SEAT_ENTRANTS, config, matches_per_pair=1, duplicate=True)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        if executor == "pool":
            with open_executor(2) as pool:
                result = run_tournament(plan, Path(out), pool)
        else:
            import distributed  # an optional extra: pip install -e '.[cluster]'

            with (
                distributed.LocalCluster(
                    n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
                ) as cluster,
                distributed.Client(cluster) as client,
            ):
                result = run_tournament(plan, Path(out), client.get_executor(pure=False))
        seconds = time.perf_counter() - start
    if result.failures or not result.complete:
        raise RuntimeError(f"The benchmark tournament did not finish: {result.failures}.")
    return seconds, sum(match.hands for match in result.matches), (load, os.getloadavg()[0])


def main_three_seat(repeats: int, rounds: int, as_json: bool) -> None:
    """Measure the 3-seat tournament on the pool and on Dask, then print a report."""
    times: dict[str, list[float]] = {"pool": [], "dask": []}
    loads: dict[str, list[tuple[float, float]]] = {"pool": [], "dask": []}
    hands = 0
    for repeat in range(repeats):
        order = ("pool", "dask") if repeat % 2 == 0 else ("dask", "pool")
        for executor in order:
            seconds, hands, load = run_three_seat_once(executor, rounds)
            times[executor].append(seconds)
            loads[executor].append(load)
    medians = {name: statistics.median(values) for name, values in times.items()}
    report = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "game": "acpc-3pl",
        "bots": THREE_SEAT_ENTRANTS,
        "matches": 4,
        "legs_per_match": 6,
        "hands": hands,
        "repeats": repeats,
        "median_seconds": {name: round(value, 3) for name, value in medians.items()},
        "hands_per_second": {name: round(hands / value) for name, value in medians.items()},
        "load_average_1min": {
            name: [[round(a, 2), round(b, 2)] for a, b in value] for name, value in loads.items()
        },
        "all_seconds": {name: [round(t, 3) for t in value] for name, value in times.items()},
    }
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"acpc-3pl tournament: 4 built-in bots, 4 groups of three, one duplicate match each "
        f"(6 legs of {rounds} hands), {hands} hands, 2 workers, medians of {repeats}"
    )
    print(f"{'executor':>9} {'seconds':>9} {'hands/s':>9}  load before-after")
    for name in ("pool", "dask"):
        spans = ", ".join(f"{a:.2f}-{b:.2f}" for a, b in loads[name])
        print(f"{name:>9} {medians[name]:>9.2f} {hands / medians[name]:>9.0f}  {spans}")


def main() -> None:
    """Measure, then print a small report (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and one repeat (CI)")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--rounds", type=int, default=500, help="hands per match (default 500)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--three-seat",
        action="store_true",
        help="an acpc-3pl duplicate tournament on the pool and on Dask",
    )
    args = parser.parse_args()
    repeats, rounds = (1, 150) if args.quick else (args.repeats, args.rounds)
    if args.three_seat:
        main_three_seat(repeats, rounds, args.json)
        return
    load_before = os.getloadavg()[0]
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    hands = 0
    for repeat in range(repeats):
        order = (1, 2) if repeat % 2 == 0 else (2, 1)  # alternate, so drift affects both
        for workers in order:
            seconds, cpu_seconds, hands = run_once(workers, rounds, matches=2)
            times[workers].append(seconds)
            cpu[workers].append(cpu_seconds)
    one, two = statistics.median(times[1]), statistics.median(times[2])
    cpu_one, cpu_two = statistics.median(cpu[1]), statistics.median(cpu[2])
    report = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        },
        "bots": [bot.name for bot in ENTRANTS],
        "matches": 12,
        "hands": hands,
        "repeats": repeats,
        "median_seconds": {"1_worker": round(one, 3), "2_workers": round(two, 3)},
        "speedup_2_over_1": round(one / two, 3),
        "hands_per_second": {"1_worker": round(hands / one), "2_workers": round(hands / two)},
        "median_cpu_seconds": {"1_worker": round(cpu_one, 3), "2_workers": round(cpu_two, 3)},
        "all_seconds": {str(k): [round(t, 3) for t in v] for k, v in times.items()},
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"4-bot round robin, 12 matches, {hands} hands, medians of {repeats} "
        f"({os.cpu_count()} CPUs, Python {platform.python_version()}, load average "
        f"{load_before:.2f} before and {os.getloadavg()[0]:.2f} after: other work skews this)"
    )
    print(f"{'workers':>8} {'seconds':>9} {'hands/s':>9} {'CPU s':>8}")
    for workers, seconds, cpu_seconds in ((1, one, cpu_one), (2, two, cpu_two)):
        print(f"{workers:>8} {seconds:>9.2f} {hands / seconds:>9.0f} {cpu_seconds:>8.2f}")
    print(f"speed-up with 2 workers: {one / two:.2f}x")


if __name__ == "__main__":
    main()
