"""In-process hands per second, optionally side by side with another checkout of the kit.

    python benchmarks/in_process.py [--hands N] [--rounds R] [--baseline PATH]
    python benchmarks/in_process.py --instructions [--hands N] [--baseline PATH]

Plays in-process matches of built-in bots (no sockets, no logs): no-limit hold'em with random
bots (what bot authors feel in ``harness.play`` and the template's tests), and the 3-player
limit game.  Each match is timed in wall time and in CPU time (``time.process_time``): on a
shared machine the CPU time moves much less with the load.  With ``--baseline PATH`` (a
checkout of an older commit, for example a git worktree), each round runs the baseline and
this checkout one after the other in fresh processes, and the report gives each side's
median, the ratio of medians and the range of the rounds' ratios: the machine is shared and
noisy, so only interleaved figures compare.  The load average is printed with each round.

``--instructions`` counts instead the instructions per hand under valgrind's callgrind
(needs ``valgrind``): a match of N hands less a match of 1 hand, over N - 1,
``PYTHONHASHSEED=0``, so start-up and imports cancel.  The count does not depend on the load.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))  # (where targets.py is, however this file is run)
from targets import TARGETS  # noqa: E402

#: The case and measure the kit's in-process target is about (``targets.py``).
TARGETED = ("nlhe random", "wall")

# The code of one run is handed to older checkouts too (--baseline): it imports today's
# module paths, and the flat paths of the checkouts from before local_runner was grouped.
_ONE_RUN = """
import json, sys, time
try:
    from local_runner.bots.builtin import make_builtin
    from local_runner.engine.match import Match
    from local_runner.engine.seats import InProcessSeat
except ImportError:
    from local_runner.builtin_bots import make_builtin
    from local_runner.match import Match
    from local_runner.seats import InProcessSeat
from sdk.rules import Rules
variant, bot, hands = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    rules = Rules.for_variant(variant).replace(num_rounds=hands)
except Exception:
    print(json.dumps(None)); sys.exit(0)
count = getattr(rules, "seats", 2)  # older checkouts have no seats field
seats = [InProcessSeat(f"p{i}", make_builtin(bot, i), rules) for i in range(count)]
start, cpu = time.perf_counter(), time.process_time()
Match(seats, rules, seed=1).play()
cpu, wall = time.process_time() - cpu, time.perf_counter() - start
print(json.dumps([hands / wall, hands / cpu]))
"""

#: callgrind's closing line: the instructions the process executed.
_COLLECTED = re.compile(r"Collected : (\d+)")

CASES = (
    ("nlhe", "random"),
    ("nlhe", "checkcall"),
    ("toss", "random"),
    ("toss", "checkcall"),
    ("acpc-3pl", "random"),
)


def run_once(tree: Path, variant: str, bot: str, hands: int) -> list[float] | None:
    """Hands per second of wall time and of CPU time of one in-process match, in a fresh
    process using ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _ONE_RUN, variant, bot, str(hands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    value: list[float] | None = json.loads(out.stdout)
    return value


def instructions(tree: Path, variant: str, bot: str, hands: int) -> int | None:
    """Instructions executed by a match of ``hands`` hands, less those of a 1-hand match (a
    match has at least one), in fresh processes under callgrind using ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    counts = []
    for count in (hands, 1):
        out = subprocess.run(
            [*valgrind, sys.executable, "-c", _ONE_RUN, variant, bot, str(count)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=tree,
        )
        if json.loads(out.stdout) is None:
            return None
        found = _COLLECTED.search(out.stderr)
        if found is None:
            raise RuntimeError(f"callgrind printed no count: {out.stderr[-500:]}")
        counts.append(int(found.group(1)))
    return counts[0] - counts[1]


def count_instructions(trees: dict[str, Path], hands: int, cases: list[tuple[str, str]]) -> None:
    """Print the instructions per hand of every case on every tree, and the ratios."""
    print(f"in-process instructions per hand (callgrind, {hands} hands less 1, over {hands - 1})")
    for variant, bot in cases:
        row: dict[str, object] = {"case": f"{variant} {bot}"}
        per_hand = {}
        for label, tree in trees.items():
            total = instructions(tree, variant, bot, hands)
            if total is not None:
                per_hand[label] = total / (hands - 1)
                row[label] = round(per_hand[label])
        if "baseline" in per_hand and "this" in per_hand:
            row["ratio"] = round(per_hand["this"] / per_hand["baseline"], 3)
        print("  " + ", ".join(f"{key} {value}" for key, value in row.items()), flush=True)


def main() -> None:
    """Measure, interleaved, and print a table (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions per hand (callgrind)"
    )
    parser.add_argument("--only", help="the cases whose name ('nlhe random') contains this")
    args = parser.parse_args()
    cases = [case for case in CASES if args.only is None or args.only in " ".join(case)]
    trees = {"this": ROOT}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), "this": ROOT}
    if args.instructions:
        count_instructions(trees, args.hands, cases)
        return
    # case -> measure ("wall", "cpu") -> side -> values
    results: dict[str, dict[str, dict[str, list[float]]]] = {}
    loads = []
    for round_number in range(1, args.rounds + 1):
        loads.append(os.getloadavg()[0])
        print(f"round {round_number}: load {loads[-1]:.2f}", file=sys.stderr)
        for variant, bot in cases:
            for label, tree in trees.items():
                value = run_once(tree, variant, bot, args.hands)
                if value is None:
                    continue
                measures = results.setdefault(f"{variant} {bot}", {})
                for measure, figure in zip(("wall", "cpu"), value, strict=True):
                    measures.setdefault(measure, {}).setdefault(label, []).append(figure)
    report = []
    for case, measures in results.items():
        for measure, sides in measures.items():
            row: dict[str, object] = {"case": case, "per s of": measure}
            for label, values in sides.items():
                row[label] = round(statistics.median(values))
            if "baseline" in sides and "this" in sides:
                ratios = [
                    now / before
                    for before, now in zip(sides["baseline"], sides["this"], strict=True)
                ]
                row["ratio"] = round(
                    statistics.median(sides["this"]) / statistics.median(sides["baseline"]), 3
                )
                row["round ratios"] = f"{min(ratios):.2f}-{max(ratios):.2f}"
            if (case, measure) == TARGETED and "this" in sides:  # a report, not a gate
                row["goal"] = TARGETS["in process"].against_goal(statistics.median(sides["this"]))
            report.append(row)
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    print(
        f"in-process hands/s, median of {args.rounds} interleaved rounds, {stamp} UTC, "
        f"{os.cpu_count()} cores, 1-minute load {min(loads):.2f}-{max(loads):.2f} at the "
        f"rounds' starts, {os.getloadavg()[0]:.2f} now"
    )
    for row in report:
        print("  " + ", ".join(f"{key} {value}" for key, value in row.items()))
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
