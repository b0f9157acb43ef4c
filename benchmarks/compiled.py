"""The engine compiled by mypyc beside the pure-Python engine, in process.

    python benchmarks/compiled.py [--hands N] [--rounds R] [--only TEXT] [--keep DIR]

The kit is typed (``mypy --strict``), so mypyc, mypy's compiler, compiles its modules
unchanged.  This script copies the checkout's ``sdk/`` and ``local_runner/`` twice into a
scratch folder and compiles one set of modules in each copy, in place:

* ``engine``: the ``local_runner`` modules of :data:`local_runner.compiled.MODULES` (the
  engine, its log writers and the built-in bots), with the SDK left as Python;
* ``install``: every module of :data:`local_runner.compiled.MODULES`, those and the SDK's
  state machine, codecs, payoffs and evaluator: what a compiled install
  (``POKERBOTS_COMPILE=1 pip install .``) builds.

Then it plays ``benchmarks/in_process.py``'s matches (built-in bots, no sockets, no logs) on
this checkout and on both copies, in fresh processes, interleaved round by round, and prints
each side's median hands per second of CPU and of wall time, the ratios to pure Python with
the range of the rounds' ratios, and the load.  It needs mypy (the ``dev`` extra), a C
compiler and Python's headers; without them it says what is missing and stops.  The copies
are deleted at the end unless ``--keep DIR`` names where to leave them."""

from __future__ import annotations

import argparse
import os
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from local_runner.compiled import MODULES, missing_build_tools

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# in_process.py's cases and its one fresh-process run, read without putting benchmarks/ on
# the import path (tests load this file in their own process).
_IN_PROCESS = runpy.run_path(str(HERE / "in_process.py"))
CASES = _IN_PROCESS["CASES"]
run_once = _IN_PROCESS["run_once"]

#: The two copies: the engine alone, and what a compiled install builds (the engine and the
#: SDK's modules it runs per decision).
BUILDS = {
    "engine": tuple(module for module in MODULES if module.startswith("local_runner/")),
    "install": MODULES,
}


def build(copy: Path, modules: tuple[str, ...]) -> float:
    """Copy the kit's packages into ``copy`` and compile ``modules`` there in place; the
    seconds the compilation took."""
    for package in ("sdk", "local_runner"):
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy2(ROOT / "pyproject.toml", copy / "pyproject.toml")  # mypy's settings
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *modules],
        cwd=copy,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        raise SystemExit(f"mypyc failed in {copy}:\n" + "\n".join(tail))
    return time.perf_counter() - start


def main() -> None:
    """Build both copies, measure interleaved, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="the cases whose name ('nlhe random') contains this")
    parser.add_argument("--keep", type=Path, help="leave the compiled copies in this folder")
    args = parser.parse_args()
    problem = missing_build_tools()
    if problem is not None:
        print(f"compiled benchmark not run: {problem}")
        return
    cases = [case for case in CASES if args.only is None or args.only in " ".join(case)]
    scratch = args.keep or Path(tempfile.mkdtemp(prefix="pokerbots-compiled-"))
    try:
        trees = {"pure": ROOT}
        for name, modules in BUILDS.items():
            copy = scratch / name
            if copy.exists():
                shutil.rmtree(copy)
            seconds = build(copy, modules)
            print(f"{name}: {len(modules)} modules compiled in {seconds:.0f} s", file=sys.stderr)
            trees[name] = copy
        measure(trees, cases, args.hands, args.rounds)
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)


def measure(trees: dict[str, Path], cases: list[tuple[str, str]], hands: int, rounds: int) -> None:
    """Play every case on every tree, interleaved, and print medians and ratios to pure."""
    # case -> measure -> tree -> figures per round
    figures: dict[str, dict[str, dict[str, list[float]]]] = {}
    loads = []
    for number in range(1, rounds + 1):
        loads.append(os.getloadavg()[0])
        print(f"round {number}: load {loads[-1]:.2f}", file=sys.stderr)
        order = list(trees.items())
        if number % 2 == 0:  # the order turns from round to round
            order.reverse()
        for variant, bot in cases:
            for label, tree in order:
                value = run_once(tree, variant, bot, hands)
                if value is None:
                    continue
                wall, cpu = value
                by_measure = figures.setdefault(f"{variant} {bot}", {})
                for kind, figure in (("cpu", cpu), ("wall", wall)):
                    by_measure.setdefault(kind, {}).setdefault(label, []).append(figure)
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    print(
        f"in-process hands/s, pure Python against mypyc-compiled copies, medians of {rounds} "
        f"interleaved rounds, {stamp} UTC, {os.cpu_count()} cores, 1-minute load "
        f"{min(loads):.2f}-{max(loads):.2f} at the rounds' starts"
    )
    for case, by_measure in figures.items():
        for kind, sides in by_measure.items():
            pure = sides["pure"]
            parts = [f"{case}, per s of {kind}: pure {statistics.median(pure):,.0f}"]
            for label in BUILDS:
                values = sides.get(label)
                if not values:
                    continue
                ratios = [now / before for before, now in zip(pure, values, strict=True)]
                parts.append(
                    f"{label} {statistics.median(values):,.0f} "
                    f"({statistics.median(values) / statistics.median(pure):.2f}x, "
                    f"rounds {min(ratios):.2f}-{max(ratios):.2f})"
                )
            print("  " + ", ".join(parts))


if __name__ == "__main__":
    main()
