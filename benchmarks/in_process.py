"""In-process hands per second, optionally side by side with another checkout of the kit.

    python benchmarks/in_process.py [--hands N] [--rounds R] [--baseline PATH]

Plays in-process matches of built-in bots (no sockets, no logs): no-limit hold'em with random
bots (what bot authors feel in ``harness.play`` and the template's tests), and the 3-player
limit game.  With ``--baseline PATH`` (a checkout of an older commit, for example a git
worktree), each round runs the baseline and this checkout one after the other in fresh
processes, and the report gives each side's median and the ratio of medians: the machine is
shared and noisy, so only interleaved figures compare.  The load average is printed with
each round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

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
start = time.perf_counter()
Match(seats, rules, seed=1).play()
print(json.dumps(hands / (time.perf_counter() - start)))
"""

CASES = (
    ("nlhe", "random"),
    ("nlhe", "checkcall"),
    ("toss", "random"),
    ("toss", "checkcall"),
    ("acpc-3pl", "random"),
)


def run_once(tree: Path, variant: str, bot: str, hands: int) -> float | None:
    """Hands per second of one in-process match, in a fresh process using ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _ONE_RUN, variant, bot, str(hands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    value: float | None = json.loads(out.stdout)
    return value


def main() -> None:
    """Measure, interleaved, and print a table (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {"this": ROOT}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), "this": ROOT}
    results: dict[str, dict[str, list[float]]] = {}
    for round_number in range(1, args.rounds + 1):
        print(f"round {round_number}: load {os.getloadavg()[0]:.2f}", file=sys.stderr)
        for variant, bot in CASES:
            for label, tree in trees.items():
                value = run_once(tree, variant, bot, args.hands)
                if value is not None:
                    results.setdefault(f"{variant} {bot}", {}).setdefault(label, []).append(value)
    report = []
    for case, sides in results.items():
        row: dict[str, object] = {"case": case}
        for label, values in sides.items():
            row[label] = round(statistics.median(values))
        if "baseline" in sides and "this" in sides:
            row["ratio"] = round(
                statistics.median(sides["this"]) / statistics.median(sides["baseline"]), 3
            )
        report.append(row)
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    print(
        f"in-process hands/s, median of {args.rounds} interleaved rounds, {stamp} UTC, "
        f"{os.cpu_count()} cores, load now {os.getloadavg()[0]:.2f}"
    )
    for row in report:
        print("  " + ", ".join(f"{key} {value}" for key, value in row.items()))
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
