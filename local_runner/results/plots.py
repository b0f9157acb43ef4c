"""PNG charts: a match's bankrolls over its hands, and a tournament's cross table as a heat map.

matplotlib is an optional extra (in the kit's checkout: ``pip install -e '.[plot]'``);
without it these functions raise :class:`PlotUnavailable` with the command to run.  Figures are
drawn with matplotlib's object API on the Agg canvas: no window, no global state.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sdk.errors import KitError

from ..install import install_command
from ..runs.hands import read_hands
from ..runs.layout import BANKROLL_PNG, HALF_DIRECTORIES, HANDS_FILE, LEG_DIRECTORIES
from .standings import Standings

__all__ = ["PlotUnavailable", "plot_cross_table", "plot_match_bankroll", "require_plotting"]


class PlotUnavailable(KitError, RuntimeError):
    """matplotlib is not installed; the message says how to install it."""


def _missing() -> PlotUnavailable:
    """The error for a missing matplotlib, with the command that installs it."""
    return PlotUnavailable(
        f"Plots need matplotlib, which is not installed: {install_command('plot')}"
    )


def require_plotting() -> None:
    """Raise :class:`PlotUnavailable` unless matplotlib is installed, importing nothing: a
    command asked for charts checks this before it plays, not after."""
    if importlib.util.find_spec("matplotlib") is None:
        raise _missing()


def _figure(width: float, height: float) -> Any:
    """A new matplotlib Figure (typed loosely: matplotlib is optional here)."""
    try:
        figure_module: Any = importlib.import_module("matplotlib.figure")
    except ImportError:
        raise _missing() from None
    return figure_module.Figure(figsize=(width, height), layout="constrained")


def _cumulative(hands_file: Path) -> dict[str, list[int]]:
    """Each player's bankroll after every hand of ``hands.jsonl`` (from 0)."""
    series: dict[str, list[int]] = {}
    for hand in read_hands(hands_file):
        for name, delta in zip(hand.players, hand.deltas, strict=True):
            running = series.setdefault(name, [0])
            running.append(running[-1] + delta)
    return series


def plot_match_bankroll(match_dir: Path, out: Path | None = None) -> Path:
    """Chart each bot's bankroll over the hands of the match logged in ``match_dir``.

    A duplicate match (``half-1``/``half-2`` subdirectories) gets a line per bot
    and half, and each bot's running total over hand pairs; a three-handed one
    (``leg-1`` to ``leg-6``), each bot's running total over the deals, summed over the
    legs.  Returns the PNG's path (default ``match_dir/bankroll.png``).
    """
    legs = [match_dir / name / HANDS_FILE for name in LEG_DIRECTORIES]
    if legs[0].is_file():
        return _plot_legs([f for f in legs if f.is_file()], out or match_dir / BANKROLL_PNG)
    figure = _figure(8, 4.5)
    halves = [match_dir / name / HANDS_FILE for name in HALF_DIRECTORIES]
    files = [f for f in halves if f.is_file()] or [match_dir / HANDS_FILE]
    if not files[0].is_file():
        raise FileNotFoundError(
            f"There is no {HANDS_FILE} in {match_dir}; pass a scrimmage's output directory."
        )
    axes = figure.add_subplot()
    series = [_cumulative(f) for f in files]
    colors = {name: f"C{index}" for index, name in enumerate(series[0])}
    if len(series) == 1:
        for name, values in series[0].items():
            axes.plot(range(len(values)), values, label=name, color=colors[name])
        axes.set_title(f"Bankroll over {len(next(iter(series[0].values()))) - 1} hands")
    else:
        for half, (by_name, style) in enumerate(zip(series, (":", "--"), strict=False), start=1):
            for name, values in by_name.items():
                axes.plot(
                    range(len(values)),
                    values,
                    style,
                    label=f"{name}, half {half}",
                    color=colors.get(name),
                    linewidth=1.0,
                )
        for name in series[0]:
            first, second = series[0][name], series[1].get(name, [0])
            n = min(len(first), len(second))
            axes.plot(
                range(n),
                [a + b for a, b in zip(first[:n], second[:n], strict=True)],
                label=f"{name}, both halves",
                color=colors[name],
                linewidth=2.2,
            )
        axes.set_title("Duplicate match: bankroll per half, and over hand pairs")
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("hand")
    axes.set_ylabel("chips")
    axes.legend(loc="best", fontsize="small")
    target = out or match_dir / BANKROLL_PNG
    figure.savefig(target, dpi=110)
    return target


def _plot_legs(files: Sequence[Path], target: Path) -> Path:
    """A three-handed duplicate match: each bot's bankroll over the deals, all legs summed."""
    figure = _figure(8, 4.5)
    axes = figure.add_subplot()
    series = [_cumulative(f) for f in files]
    for index, name in enumerate(series[0]):
        legs = [by_name.get(name, [0]) for by_name in series]
        n = min(len(values) for values in legs)
        totals = [sum(values[i] for values in legs) for i in range(n)]
        axes.plot(range(n), totals, label=name, color=f"C{index}", linewidth=2.0)
    axes.set_title(f"Duplicate match: bankroll over the deals, summed over {len(files)} seatings")
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("deal")
    axes.set_ylabel("chips")
    axes.legend(loc="best", fontsize="small")
    figure.savefig(target, dpi=110)
    return target


def plot_cross_table(standings: Standings, out: Path, bots: Sequence[str] | None = None) -> Path:
    """Draw the cross table as a heat map of mbb/hand (row bot against column bot).

    Each cell shows the mean and its 95% interval; cells whose interval excludes
    zero are marked with a star.  Returns ``out``.
    """
    names = list(bots) if bots is not None else sorted(standings.cross)
    size = len(names)
    values = [[math.nan] * size for _ in range(size)]
    labels = [[""] * size for _ in range(size)]
    for r, row in enumerate(names):
        for c, col in enumerate(names):
            pair = standings.cross.get(row, {}).get(col)
            if pair is None or pair.summary is None:
                continue
            mbb = pair.summary.mbb_per_hand
            values[r][c] = mbb.mean
            star = "*" if mbb.excludes_zero() else ""
            spread = f"\n±{(mbb.high - mbb.low) / 2:.0f}" if math.isfinite(mbb.high) else ""
            labels[r][c] = f"{mbb.mean:+.0f}{star}{spread}"
    finite = [abs(v) for row in values for v in row if not math.isnan(v)]
    limit = max(finite, default=1.0) or 1.0
    figure = _figure(1.6 + 1.3 * size, 1.2 + 1.1 * size)
    axes = figure.add_subplot()
    image = axes.imshow(values, cmap="RdBu", vmin=-limit, vmax=limit)
    axes.set_xticks(range(size), labels=names, rotation=30, ha="right")
    axes.set_yticks(range(size), labels=names)
    for r in range(size):
        for c in range(size):
            if labels[r][c]:
                dark = abs(values[r][c]) > 0.6 * limit  # white text on deep colours
                axes.text(
                    c,
                    r,
                    labels[r][c],
                    ha="center",
                    va="center",
                    fontsize="small",
                    color="white" if dark else "black",
                )
    axes.set_xlabel("opponent")
    axes.set_title(
        "mbb/hand of row bot against column bot (* = 95% CI excludes zero)", fontsize="medium"
    )
    figure.colorbar(image, ax=axes, label="mbb/hand")
    figure.savefig(out, dpi=110)
    return out
