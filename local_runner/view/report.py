"""The match report: one self-contained HTML file (no network, no CDN).

:func:`match_report` replays every hand of a run once and packs what the page
shows into one JSON document: the result with its intervals, the bankroll
series, per-bot statistics, and every hand with its steps.  The document is
gzip-compressed and base64-encoded into the page, which the browser unpacks
with ``DecompressionStream`` (Chromium 80+, Firefox 113+, Safari 16.4+), so a
10,000-hand report stays small enough to e-mail.  The page itself is
``report_template.html`` (package data): it puts bot-controlled text into the
page only as text, never as HTML.

:func:`tournament_report` writes a report for each match of a tournament and
a page with the standings and cross table that links to them.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..runs.errors import RunError
from ..runs.layout import (
    MATCHES_DIRECTORY,
    PLAN_FILE,
    REPORT_FILE,
    RESULTS_FILE,
    leg_folders,
)
from ..runs.reader import Run, open_run
from .playerstats import PlayerStats
from .timeline import timeline, walk

__all__ = [
    "is_tournament",
    "match_data",
    "match_report",
    "render_page",
    "tournament_report",
]

_MAX_CHART_POINTS = 2000
_KINDS = {
    "deal": "d",
    "action": "a",
    "street": "s",
    "swap": "w",
    "auction": "u",
    "fault": "f",
    "showdown": "o",
    "result": "r",
}


def match_data(run: Run) -> dict[str, Any]:
    """Everything the match page shows, as JSON-ready data."""
    names = list(run.names)
    stats = {name: PlayerStats(name) for name in names}
    totals = dict.fromkeys(names, 0)
    series: list[list[int]] = []
    hands: list[list[Any]] = []
    for hand in run.hands():
        w = walk(hand, run.rules)
        for player in stats.values():
            player.add(w)
        for name, delta in zip(hand.players, hand.deltas, strict=True):
            totals[name] = totals.get(name, 0) + delta
        series.append([totals[n] for n in names])
        steps = [[_KINDS[s.kind], s.text, s.pot, len(s.board)] for s in timeline(w)]
        hands.append(
            [
                hand.number,
                [names.index(p) if p in names else -1 for p in hand.players],
                [list(h) for h in hand.hole_cards],
                [list(h) for h in w.last.hands],
                list(w.last.board),
                list(hand.deltas),
                hand.showdown,
                sorted({f.kind for f in hand.faults}),
                steps,
            ]
        )
    stride = max(1, len(series) // _MAX_CHART_POINTS)
    chart = [
        [i + 1, *row] for i, row in enumerate(series) if i % stride == 0 or i == len(series) - 1
    ]
    summary = run.summary
    players = summary.get("players", [])
    return {
        "kind": "match",
        "title": run.directory.name,
        "variant": run.variant,
        "seed": run.seed,
        "rules": run.rules.to_dict(),
        "names": names,
        "rounds": len(hands),
        "interrupted": bool(summary.get("interrupted")),
        "statistics": summary.get("statistics"),
        "players": [
            {
                **stats[name].to_dict(),
                "bankroll": totals[name],
                "time_used": players[i].get("time_used") if i < len(players) else None,
                "faults": players[i].get("faults", {}) if i < len(players) else {},
            }
            for i, name in enumerate(names)
        ],
        "chart": chart,
        "hands": hands,
    }


def _template() -> str:
    return (
        resources.files("local_runner.view")
        .joinpath("report_template.html")
        .read_text(encoding="utf-8")
    )


def render_page(data: dict[str, Any], title: str) -> str:
    """The HTML page for ``data`` (compressed into the page) with ``title``."""
    packed = gzip.compress(json.dumps(data, separators=(",", ":")).encode("utf-8"), 9, mtime=0)
    payload = base64.b64encode(packed).decode("ascii")
    page = _template()
    page = page.replace("{{TITLE}}", html.escape(title))
    return page.replace("{{DATA}}", payload)


def match_report(run_dir: Path, out: Path | None = None) -> Path:
    """Write the report of the run in ``run_dir`` (to ``out``, default RUN/report.html)."""
    run = open_run(run_dir)
    path = out or run.directory / REPORT_FILE
    data = match_data(run)
    names = " vs ".join(run.names)
    _write(path, render_page(data, f"{names} · {run.variant} · {data['rounds']} hands"))
    return path


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise RunError(f"Cannot write {path}: {error.strerror or error}.") from None


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RunError(
            f"{path} is missing; the tournament has not finished a match yet, or "
            "this is not a tournament directory."
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise RunError(f"{path} cannot be read ({error}); it is damaged.") from None


def tournament_report(directory: Path, out: Path | None = None) -> tuple[Path, list[str]]:
    """Write a report for each match of a tournament and a page linking them.

    Returns the page and the sentences for matches whose logs could not be read
    (those are listed, not linked).
    """
    results = _load_json(directory / RESULTS_FILE)
    if not isinstance(results, dict) or "rankings" not in results:
        raise RunError(
            f"{directory / RESULTS_FILE} has no rankings; it was written by an "
            "older version of the kit."
        )
    page = out or directory / REPORT_FILE
    matches = []
    problems = []
    for match in results.get("matches", []):
        if not isinstance(match, dict):
            continue
        match_id = str(match.get("id", "?"))
        run_dir = directory / MATCHES_DIRECTORY / match_id
        halves = leg_folders(run_dir) or [run_dir]  # duplicate legs, if any
        links = []
        for half in halves:
            try:
                report = match_report(half)
            except RunError as error:
                problems.append(f"match {match_id}: {error}")
                continue
            links.append(
                str(report.relative_to(page.parent))
                if report.is_relative_to(page.parent)
                else report.as_uri()
            )
        matches.append(
            {
                "id": match_id,
                "players": match.get("players"),
                "chips": match.get("chips"),
                "hands": match.get("hands"),
                "links": links,
            }
        )
    data = {
        "kind": "tournament",
        "title": directory.name,
        "variant": results.get("variant"),
        "rankings": results.get("rankings"),
        "cross_table": results.get("cross_table"),
        "groups": results.get("groups"),  # a 3-seat tournament: a table per group, not pairs
        "bots": results.get("bots"),
        "matches": matches,
        "problems": problems,
    }
    _write(page, render_page(data, f"tournament {directory.name}"))
    return page, problems


def is_tournament(directory: Path) -> bool:
    """Whether ``directory`` is a tournament's output directory."""
    return (directory / PLAN_FILE).is_file() or (directory / RESULTS_FILE).is_file()
