"""A table's result as a notebook shows it: one self-contained piece of HTML.

Jupyter and IPython call ``_repr_html_`` on the last value of a cell; :func:`table_html` is
what :meth:`~local_runner.results.table.TableResult._repr_html_` returns: the result table
(chips, mbb/hand and its interval per bot), the verdict, and the bankroll chart as inline
SVG whose legend shows each line's own colour.  No script and no external file, so it
renders the same in a notebook, a saved notebook and a browser.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .table import TableResult

__all__ = ["COLOURS", "bankroll_svg", "table_html"]

#: Line colours, one per bot (colour-blind safe, from the Okabe-Ito palette).
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7")

_WIDTH, _HEIGHT, _PAD = 560, 200, 44
_CELL = "padding:0.15em 0.8em"


def bankroll_svg(names: Sequence[str], series: Sequence[Sequence[tuple[int, int]]]) -> str:
    """An SVG chart of each bot's bankroll (``series[b]``: ``(hand, chips)`` points).

    The legend names each bot in its line's colour.

    >>> svg = bankroll_svg(["A", "B"], [[(0, 0), (2, 10)], [(0, 0), (2, -10)]])
    >>> svg.count("<polyline"), 'fill="#0072B2">A</text>' in svg
    (2, True)
    """
    hands = max((points[-1][0] for points in series if points), default=0) or 1
    values = [chips for points in series for _, chips in points] or [0]
    low, high = min(0, *values), max(0, *values)
    span = (high - low) or 1

    def x(hand: int) -> float:
        return _PAD + (_WIDTH - 2 * _PAD) * hand / hands

    def y(chips: int) -> float:
        return _HEIGHT - _PAD / 2 - (_HEIGHT - _PAD) * (chips - low) / span

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'role="img" aria-label="bankroll over hands" style="font:11px sans-serif">',
        f'<line x1="{_PAD}" x2="{_WIDTH - _PAD}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#bbb"/>',
        f'<text x="{_PAD - 4}" y="{y(high) + 4:.1f}" text-anchor="end" fill="#444">'
        f"{high:+d}</text>",
        f'<text x="{_PAD - 4}" y="{y(low) + 4:.1f}" text-anchor="end" fill="#444">{low:+d}</text>',
        f'<text x="{_WIDTH - _PAD}" y="{_HEIGHT - 4}" text-anchor="end" fill="#444">'
        f"hand {hands}</text>",
    ]
    for bot, (name, points) in enumerate(zip(names, series, strict=True)):
        colour = COLOURS[bot % len(COLOURS)]
        line = " ".join(f"{x(hand):.1f},{y(chips):.1f}" for hand, chips in points)
        parts.append(
            f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="1.5"/>'
        )
        legend_y = 14 + 14 * bot
        parts.append(
            f'<line x1="{_PAD + 6}" x2="{_PAD + 22}" y1="{legend_y - 4}" y2="{legend_y - 4}" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
        parts.append(f'<text x="{_PAD + 26}" y="{legend_y}" fill="{colour}">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def table_html(result: TableResult) -> str:
    """The HTML of a table's result: title, result table, verdict and bankroll chart."""
    rules = result.rules
    kind = f"duplicate, {result.samples} {result.sample_name}s" if result.duplicate else "match"
    title = f"{escape(rules.variant)} · {kind} · {result.hands_played} hands · seed {result.seed}"
    if result.interrupted:
        title += " · interrupted"
    summaries = result.summaries()
    rows = []
    for bot, name in enumerate(result.names):
        colour = COLOURS[bot % len(COLOURS)]
        if summaries is None:
            rate = interval = "-"
        else:
            mbb = summaries[bot].mbb_per_hand
            rate, interval = f"{mbb.mean:+.1f}", f"{mbb.low:+.1f} to {mbb.high:+.1f}"
        faults = sum(result.fault_counts(bot).values())
        cells = (f"{result.bankrolls[bot]:+d}", rate, interval, str(faults))
        rows.append(
            f'<tr><td style="{_CELL};color:{colour};font-weight:bold">{escape(name)}</td>'
            + "".join(f'<td style="{_CELL};text-align:right">{cell}</td>' for cell in cells)
            + "</tr>"
        )
    verdict = result.verdict()
    verdict_text = "No hands were played yet." if verdict is None else f"Verdict: {verdict}."
    chart = ""
    if result.curve is not None and result.curve.hands:
        chart = bankroll_svg(result.names, result.curve.series())
    confidence = "95% CI" if summaries is None else f"{summaries[0].confidence * 100:g}% CI"
    return (
        '<div class="pokerbots-result">'
        f"<p><strong>{title}</strong></p>"
        f'<table><thead><tr><th style="{_CELL};text-align:left">bot</th>'
        + "".join(
            f'<th style="{_CELL};text-align:right">{head}</th>'
            for head in ("chips", "mbb/hand", confidence, "faults")
        )
        + "</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<p>{escape(verdict_text)}</p>{chart}</div>"
    )
