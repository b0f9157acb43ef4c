"""The shipped preflop tables (made by ``scripts/make_preflop_table.py``).

* :func:`equity_vs_random`: each of the 169 classes' equity against a random hand;
* :func:`matrix`: class-against-class equity, so the equity of a hand against a
  *weighted* range before the flop is a weighted average of one row: no
  simulation at all.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

from sdk.handclass import HAND_CLASSES

__all__ = ["DATA", "equity_vs_random", "matrix"]

#: The directory of the tables (next to this module, so a copied bot finds them too).
DATA = Path(__file__).resolve().parent / "data"


def _rows(name: str) -> list[list[str]]:
    path = DATA / name
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            return list(csv.reader(handle))
    except FileNotFoundError:
        raise FileNotFoundError(
            f"The preflop table {path} is missing; regenerate it with "
            "`python scripts/make_preflop_table.py`."
        ) from None


@cache
def equity_vs_random() -> tuple[float, ...]:
    """Per class (in :data:`sdk.handclass.HAND_CLASSES` order): equity against a random hand."""
    rows = _rows("preflop_equity.csv")[1:]
    if [row[0] for row in rows] != list(HAND_CLASSES):
        raise ValueError(f"{DATA / 'preflop_equity.csv'} does not list the 169 classes in order.")
    return tuple(float(row[1]) for row in rows)


@cache
def matrix() -> tuple[tuple[float, ...], ...]:
    """``matrix()[a][b]``: equity of class ``a`` against class ``b`` (ties count half)."""
    rows = _rows("preflop_matrix.csv")
    if rows[0][1:] != list(HAND_CLASSES) or [row[0] for row in rows[1:]] != list(HAND_CLASSES):
        raise ValueError(f"{DATA / 'preflop_matrix.csv'} does not list the 169 classes in order.")
    return tuple(tuple(float(value) for value in row[1:]) for row in rows[1:])
