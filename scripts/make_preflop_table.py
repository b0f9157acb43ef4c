"""Generate the preflop equity tables the reference bots ship with.

    python scripts/make_preflop_table.py [--iterations N] [--out DIR]

Writes two CSV files into ``local_runner/bots/data`` (or ``--out``):

* ``preflop_matrix.csv``: a 169 x 169 table; row ``A``, column ``B`` is the all-in
  equity of a hand of class ``A`` against a hand of class ``B`` (ties count half),
  averaged over every pair of card pairs that do not share a card.
* ``preflop_equity.csv``: each class's equity against a uniformly random hand,
  derived exactly from the matrix (weighted by how many pairs of each class can
  face it), and the number of card pairs in the class.

Each matrix cell above the diagonal is a Monte Carlo run of eval7 (``--iterations``
boards, 24,000 by default: a standard error of about 0.003); the cell below is one
minus it and the diagonal is one half, both exact by symmetry.  The run is seeded,
so the output is reproducible.  It takes about a minute on one core of the
2-core reference machine (``docs/reference-bots.md`` has the measured time).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import eval7

from sdk.handclass import HAND_CLASSES, class_combos, class_size

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "local_runner" / "bots" / "data"


def cell(hero: str, villain: str, iterations: int) -> tuple[float, int]:
    """Equity of ``hero`` (one representative pair) against all pairs of ``villain`` it allows.

    Every pair of a class is the same up to renaming suits, and renaming suits maps
    the villain class onto itself, so one representative hero pair is exact in
    expectation.  eval7 cycles through the villain pairs in order, so the number of
    boards is rounded up to a multiple of their count (each gets the same share).
    Returns the equity and how many villain pairs the hero pair allows.
    """
    hand = [eval7.Card(card) for card in class_combos(hero)[0]]
    used = {str(card) for card in hand}
    options = [
        ((eval7.Card(a), eval7.Card(b)), 1.0)
        for a, b in class_combos(villain)
        if a not in used and b not in used
    ]
    runs = -(-iterations // len(options)) * len(options)
    return eval7.py_hand_vs_range_monte_carlo(hand, options, [], runs), len(options)


def build(iterations: int) -> tuple[list[list[float]], list[list[int]]]:
    """The equity matrix and, per cell, how many villain pairs face a hero pair."""
    n = len(HAND_CLASSES)
    matrix = [[0.5] * n for _ in range(n)]
    allowed = [[0] * n for _ in range(n)]
    for i, hero in enumerate(HAND_CLASSES):
        for j in range(i, n):
            villain = HAND_CLASSES[j]
            equity, count = cell(hero, villain, iterations)
            if i != j:
                matrix[i][j], matrix[j][i] = equity, 1.0 - equity
            allowed[i][j] = count
            # The count from the other side: how many hero-class pairs a villain pair allows.
            allowed[j][i] = cell(villain, hero, 1)[1] if i != j else count
    return matrix, allowed


def write(out: Path, matrix: list[list[float]], allowed: list[list[int]]) -> None:
    """Write both CSV files."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "preflop_matrix.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["class", *HAND_CLASSES])
        for name, row in zip(HAND_CLASSES, matrix, strict=True):
            writer.writerow([name, *(f"{value:.4f}" for value in row)])
    with (out / "preflop_equity.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["class", "equity_vs_random", "combos"])
        for i, name in enumerate(HAND_CLASSES):
            total = sum(allowed[i])
            equity = sum(m * k for m, k in zip(matrix[i], allowed[i], strict=True)) / total
            writer.writerow([name, f"{equity:.4f}", class_size(name)])


def main(argv: list[str] | None = None) -> int:
    """Generate the tables; print how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=24_000, help="boards per matrix cell")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1.")
    start = time.perf_counter()
    matrix, allowed = build(args.iterations)
    write(args.out, matrix, allowed)
    print(f"wrote {args.out} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
