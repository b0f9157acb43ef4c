"""How long export, replay and report take on long matches, and how big the report is.

    python benchmarks/view.py [--quick]

Plays a 1 000- and a 10 000-hand no-limit match of two built-in bots (random
against raise) in-process, then times each step on its logs: PHH export, ACPC
export, the plain-text replay of every hand, and the HTML report (whose size is
printed).  A report, never a gate.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

from local_runner import BotSpec, ScrimmageConfig, play_table

# The replay, export and report steps are timed one by one, below the public face.
from local_runner.runs.reader import open_run
from local_runner.view.acpc import write_acpc_log
from local_runner.view.phh import write_phhs
from local_runner.view.replay import HandFilter, plain_replay, select_hands
from local_runner.view.report import match_report
from sdk.rules import Rules


def measure(hands: int, work: Path) -> dict[str, float]:
    """Seconds per step, and the report's size in KiB, for a match of ``hands`` hands."""
    out = work / f"run-{hands}"
    config = ScrimmageConfig(rules=Rules.for_variant("nlhe").replace(num_rounds=hands), seed=7)
    play_table([BotSpec.parse("builtin:random"), BotSpec.parse("builtin:raise")], config, out)
    run = open_run(out)
    figures: dict[str, float] = {}
    start = time.perf_counter()
    write_phhs(run, work / "hands.phhs")
    figures["export phh (s)"] = time.perf_counter() - start
    start = time.perf_counter()
    write_acpc_log(run, work / "hands.log")
    figures["export acpc (s)"] = time.perf_counter() - start
    start = time.perf_counter()
    sink = io.StringIO()
    plain_replay(run, select_hands(run, HandFilter()), None, lambda line: sink.write(line))
    figures["replay all, text (s)"] = time.perf_counter() - start
    start = time.perf_counter()
    page = match_report(out)
    figures["report (s)"] = time.perf_counter() - start
    figures["report size (KiB)"] = page.stat().st_size / 1024
    return figures


def main() -> None:
    """Print the figures as a table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="1 000 hands only")
    args = parser.parse_args()
    sizes = [1000] if args.quick else [1000, 10000]
    with tempfile.TemporaryDirectory() as tmp:
        results = {n: measure(n, Path(tmp)) for n in sizes}
    keys = list(next(iter(results.values())))
    print("| step | " + " | ".join(f"{n:,} hands".replace(",", " ") for n in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    for key in keys:
        print(f"| {key} | " + " | ".join(f"{results[n][key]:.2f}" for n in sizes) + " |")


if __name__ == "__main__":
    main()
