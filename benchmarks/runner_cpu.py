"""The runner's own CPU per hand on the MIT wire, and how long the end of a match takes.

    python benchmarks/runner_cpu.py [--hands 1000] [--rounds 5] [--baseline DIR] [--pin]
                                    [--busy N] [--json]

Plays ``--hands`` hands between two of the kit's ``skeleton/`` bots (two bot processes over
loopback TCP, the MIT wire, logs written), the way ``pokerbots scrimmage skeleton skeleton``
does, in a fresh interpreter per round, and reports for the runner process alone (the bots
excluded; ``getrusage(RUSAGE_SELF)`` around ``play_table``):

* ``cpu/hand``: the runner's CPU (user + system, all its threads) per hand, start-up of the
  bots and their stopping included;
* ``match h/s``: hands per second of the match itself (the engine's wall clock);
* ``stop``: seconds from the last hand to ``play_table`` returning (``Q``, the bots' exit,
  the process scans).

With ``--baseline DIR`` (another checkout of the kit, e.g. ``git archive <commit> | tar -x -C
DIR``) the two are run interleaved, round by round, each with its own ``skeleton/``, and the
medians are compared: compare only figures of one run.  ``--pin`` runs everything (runner and
bots) on CPU 0 with ``taskset``; ``--busy N`` starts N busy loops beside it (pinned to CPU 0
too with ``--pin``).  The 1-minute load average is printed before and after each round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))  # (where targets.py is, however this file is run)
from targets import TARGETS  # noqa: E402

_PROBE = r"""
import json, resource, sys, tempfile, time
from pathlib import Path
import local_runner as kit
root, hands = Path(sys.argv[1]), int(sys.argv[2])
rules = kit.Rules.for_variant("nlhe").replace(num_rounds=hands)
specs = [kit.BotSpec.parse(str(root / "skeleton")), kit.BotSpec.parse(str(root / "skeleton"))]
config = kit.ScrimmageConfig(rules=rules, seed=1)
with tempfile.TemporaryDirectory() as out:
    before = resource.getrusage(resource.RUSAGE_SELF)
    began = time.perf_counter()
    marks = []  # the time and the CPU at the first and the last hand
    def seen(record):
        del marks[1:]
        usage = resource.getrusage(resource.RUSAGE_SELF)
        marks.append((time.perf_counter(), usage.ru_utime + usage.ru_stime))
    result = kit.play_table(specs, config, Path(out), on_hand=seen)
    ended = time.perf_counter()
    total = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_SELF)
wall = result.wall_seconds
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(json.dumps({"cpu": cpu, "user": after.ru_utime - before.ru_utime,
                  "system": after.ru_stime - before.ru_stime, "total": total, "match": wall,
                  "start": marks[0][0] - began, "stop": ended - marks[-1][0],
                  "hands_cpu": (marks[-1][1] - marks[0][1]) / (hands - 1),
                  "switches": (after.ru_nvcsw - before.ru_nvcsw)
                              + (after.ru_nivcsw - before.ru_nivcsw)}))
"""


def one_round(root: Path, hands: int, pin: bool) -> dict[str, float]:
    """One match in a fresh interpreter with ``root`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "-c", _PROBE, str(root), str(hands)]
    if pin:
        command = ["taskset", "-c", "0", *command]
    output = subprocess.run(
        command, env=env, check=True, capture_output=True, text=True, cwd=root
    ).stdout
    figures: dict[str, float] = json.loads(output.strip().splitlines()[-1])
    return figures


def start_busy(count: int, pin: bool) -> list[subprocess.Popen[bytes]]:
    """``count`` busy loops (on CPU 0 with ``pin``)."""
    loop = [sys.executable, "-c", "while True: pass"]
    if pin:
        loop = ["taskset", "-c", "0", *loop]
    return [subprocess.Popen(loop) for _ in range(count)]


def main() -> None:
    """Interleave the rounds, print the medians (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout of the kit")
    parser.add_argument("--pin", action="store_true", help="everything on CPU 0 (taskset)")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the match")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.pin and shutil.which("taskset") is None:
        sys.exit("--pin needs taskset (util-linux)")
    checkouts = {"this": ROOT}
    if args.baseline is not None:
        checkouts = {"baseline": args.baseline.resolve(), "this": ROOT}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    loads: list[tuple[float, float]] = []
    busy = start_busy(args.busy, args.pin)
    try:
        for index in range(args.rounds):
            for name, root in checkouts.items():
                load = os.getloadavg()[0]
                runs[name].append(one_round(root, args.hands, args.pin))
                loads.append((load, os.getloadavg()[0]))
                if not args.json:
                    row = runs[name][-1]
                    per_hand = row["cpu"] / args.hands * 1e6
                    print(
                        f"round {index + 1} {name:8} cpu/hand {per_hand:6.0f} us"
                        f" (hands only {row['hands_cpu'] * 1e6:4.0f})"
                        f"  match {args.hands / row['match']:6.0f} h/s  start {row['start']:5.2f} s"
                        f"  stop {row['stop']:5.3f} s  load {load:.2f}",
                        flush=True,
                    )
    finally:
        for process in busy:
            process.kill()
            process.wait()
    summary = {}
    target = TARGETS["runner CPU"]
    for name, rows in runs.items():
        cpu_per_hand = statistics.median(r["cpu"] for r in rows) / args.hands * 1e6
        summary[name] = {
            "cpu_us_per_hand": round(cpu_per_hand),
            # The whole figure, start and stop included: the one the target is set for.
            "goal": target.against_goal(cpu_per_hand)
            if target.judges(args.hands)
            else target.not_judged(args.hands),
            "hands_only_cpu_us_per_hand": round(
                statistics.median(r["hands_cpu"] for r in rows) * 1e6
            ),
            "user_us_per_hand": round(
                statistics.median(r["user"] for r in rows) / args.hands * 1e6
            ),
            "system_us_per_hand": round(
                statistics.median(r["system"] for r in rows) / args.hands * 1e6
            ),
            "match_hands_per_s": round(args.hands / statistics.median(r["match"] for r in rows)),
            "play_table_s": round(statistics.median(r["total"] for r in rows), 3),
            "before_first_hand_s": round(statistics.median(r["start"] for r in rows), 3),
            "after_last_hand_s": round(statistics.median(r["stop"] for r in rows), 3),
            "context_switches": round(statistics.median(r["switches"] for r in rows)),
        }
    load_range = [round(min(x for pair in loads for x in pair), 2)]
    load_range.append(round(max(x for pair in loads for x in pair), 2))
    report = {
        "hands": args.hands,
        "rounds": args.rounds,
        "pinned": args.pin,
        "busy_loops": args.busy,
        "load_average_1min": load_range,
        "cpus": os.cpu_count(),
        "medians": summary,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"medians of {args.rounds} rounds, {args.hands} hands, load {load_range[0]}-"
        f"{load_range[1]}{', pinned to CPU 0' if args.pin else ''}"
        f"{f', {args.busy} busy loop(s)' if args.busy else ''}:"
    )
    for name, row in summary.items():
        print(
            f"  {name:8} cpu/hand {row['cpu_us_per_hand']:5} us, goal {row['goal']} (user "
            f"{row['user_us_per_hand']}, system {row['system_us_per_hand']}; hands only "
            f"{row['hands_only_cpu_us_per_hand']} us)  match {row['match_hands_per_s']} h/s"
        )
        print(
            f"  {'':8} play_table {row['play_table_s']} s, before the first hand "
            f"{row['before_first_hand_s']} s, after the last {row['after_last_hand_s']} s"
        )


if __name__ == "__main__":
    main()
