"""The match report: one self-contained HTML file (no network, no CDN).

:func:`match_report` replays every hand of a run once and packs what the page
shows into one JSON document: the result with its intervals, the bankroll
series, per-bot statistics, and every hand with its steps.  The document is
gzip-compressed and base64-encoded into the page, which the browser unpacks
with ``DecompressionStream`` (Chromium 80+, Firefox 113+, Safari 16.4+), so a
10,000-hand report stays small enough to e-mail.  The page itself is
``report_template.html`` (package data): it puts bot-controlled text into the
page only as text, never as HTML.

:func:`duplicate_data` packs a duplicate match (its legs in ``half-1``/``half-2``, or
``leg-1`` to ``leg-6`` three-handed) into one page: the deal-summed result with the
interval of its ``summary.json``, the bankroll over deals, each bot's statistics over all
its hands, and every leg as a match's page has it.  :func:`match_report` writes it when
given the duplicate's folder.

:func:`tournament_report` writes a report for each match of a tournament and
a page that links to them, with both rankings, each bot's interval and the cross table
(or the groups of a 3-seat tournament) from ``results.json``: nothing is ranked or
estimated again here.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from sdk.games import streets_of
from sdk.rules import Rules

from ..runs.errors import RunError
from ..runs.layout import (
    HANDS_FILE,
    MATCHES_DIRECTORY,
    PLAN_FILE,
    REPORT_FILE,
    RESULTS_FILE,
    leg_runs,
)
from ..runs.reader import Run, open_run
from ..runs.summary import read_summary, summary_path
from .playerstats import PlayerStats, position_name
from .timeline import timeline, walk

__all__ = [
    "duplicate_data",
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


class _Played:
    """What one walk over a run's hands gives: the bankroll after each hand (in the run's
    order of names) and each hand packed for the page."""

    def __init__(self, run: Run, stats: list[dict[str, PlayerStats]]) -> None:
        names = list(run.names)
        totals = dict.fromkeys(names, 0)
        self.series: list[list[int]] = []
        self.hands: list[list[Any]] = []
        # Each seat's position, from the first hand: every record has the button in seat 0.
        self.positions: list[str] = []
        for hand in run.hands():
            w = walk(hand, run.rules)
            if not self.positions:
                self.positions = [position_name(w, seat)[1] for seat in range(hand.seats)]
            for group in stats:  # the leg's own counts, and a duplicate's pooled ones
                for player in group.values():
                    player.add(w)
            for name, delta in zip(hand.players, hand.deltas, strict=True):
                totals[name] = totals.get(name, 0) + delta
            self.series.append([totals[n] for n in names])
            steps = [[_KINDS[s.kind], s.text, s.pot, len(s.board)] for s in timeline(w)]
            self.hands.append(
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
        self.totals = totals


def _chart(series: list[list[int]]) -> list[list[int]]:
    """At most about ``_MAX_CHART_POINTS`` of ``series``, each led by its hand (or deal)
    number; the last point is always kept."""
    stride = max(1, len(series) // _MAX_CHART_POINTS)
    return [
        [i + 1, *row] for i, row in enumerate(series) if i % stride == 0 or i == len(series) - 1
    ]


def _players(
    names: list[str],
    stats: dict[str, PlayerStats],
    bankrolls: dict[str, int],
    summary_players: list[Any],
) -> list[dict[str, Any]]:
    """Each player's statistics for the page, with its bankroll, clock and faults."""
    rows = []
    for i, name in enumerate(names):
        recorded = summary_players[i] if i < len(summary_players) else {}
        recorded = recorded if isinstance(recorded, dict) else {}
        rows.append(
            {
                **stats[name].to_dict(),
                "bankroll": bankrolls[name],
                "time_used": recorded.get("time_used"),
                "faults": recorded.get("faults", {}),
            }
        )
    return rows


def _streets(rules: Rules) -> list[dict[str, Any]]:
    """The streets of ``rules``' game as its declaration has them (what each asks)."""
    return [
        {"name": street.name, "asks": list(street.asks), "swaps": street.swaps}
        for street in streets_of(rules)
    ]


def _match(
    run: Run, pooled: dict[str, PlayerStats] | None = None
) -> tuple[dict[str, Any], _Played]:
    names = list(run.names)
    stats = {name: PlayerStats(name) for name in names}
    played = _Played(run, [stats] if pooled is None else [stats, pooled])
    summary = run.summary
    data = {
        "kind": "match",
        "title": run.directory.name,
        "variant": run.variant,
        "seed": run.seed,
        "rules": run.rules.to_dict(),
        "streets": _streets(run.rules),
        "names": names,
        "positions": played.positions,
        "rounds": len(played.hands),
        "interrupted": bool(summary.get("interrupted")),
        "statistics": summary.get("statistics"),
        "players": _players(names, stats, played.totals, summary.get("players", [])),
        "chart": _chart(played.series),
        "hands": played.hands,
    }
    return data, played


def match_data(run: Run) -> dict[str, Any]:
    """Everything the match page shows, as JSON-ready data."""
    return _match(run)[0]


def duplicate_data(directory: Path) -> dict[str, Any]:
    """Everything a duplicate match's page shows: the deal-summed result with its interval
    (``summary.json``'s), the bankroll over deals, each bot's statistics over every leg,
    and each leg as a match's page shows it."""
    legs = leg_runs(directory)
    if not legs:
        raise RunError(f"{directory} holds no legs of a duplicate match.")
    summary = read_summary(summary_path(directory))
    runs = [open_run(leg) for leg in legs]
    names = [str(p.get("name")) for p in summary.get("players", []) if isinstance(p, dict)]
    if sorted(names) != sorted(runs[0].names):
        names = list(runs[0].names)
    pooled = {name: PlayerStats(name) for name in names}
    leg_pages = []
    deals: list[list[int]] | None = None
    for run in runs:
        data, played = _match(run, pooled)
        data["title"] = run.directory.name
        leg_pages.append(data)
        order = [list(run.names).index(name) for name in names]
        leg_series = [[row[i] for i in order] for row in played.series]
        if deals is None:
            deals = leg_series
        else:  # a deal counts once every leg has played it
            deals = [
                [a + b for a, b in zip(x, y, strict=True)]
                for x, y in zip(deals, leg_series, strict=False)
            ]
    # The combined summary's bankrolls (every hand of every leg); the chart's deals are
    # those every leg finished, which an interrupted match may cut short.
    summed = dict(zip(names, deals[-1] if deals else [0] * len(names), strict=True))
    recorded: dict[str, int] = {
        str(p.get("name")): p["bankroll"]
        for p in summary.get("players", [])
        if isinstance(p, dict) and isinstance(p.get("bankroll"), int)
    }
    bankrolls = {name: recorded.get(name, summed[name]) for name in names}
    statistics = summary.get("statistics")
    return {
        "kind": "duplicate",
        "title": directory.name,
        "variant": runs[0].variant,
        "seed": runs[0].seed,
        "rules": runs[0].rules.to_dict(),
        "streets": _streets(runs[0].rules),
        "names": names,
        "deals": len(deals or []),
        "rounds": sum(leg["rounds"] for leg in leg_pages),
        "interrupted": bool(summary.get("interrupted")),
        "statistics": statistics,
        "players": _players(names, pooled, bankrolls, summary.get("players", [])),
        "chart": _chart(deals or []),
        "legs": leg_pages,
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
    """Write the report of the run in ``run_dir`` (to ``out``, default RUN/report.html).

    A duplicate match's folder (its legs in ``half-1``/``half-2`` or ``leg-1`` to
    ``leg-6``) gets one page with the deal-summed result and every leg.
    """
    if not (run_dir / HANDS_FILE).is_file() and leg_runs(run_dir):
        path = out or run_dir / REPORT_FILE
        data = duplicate_data(run_dir)
        title = (
            f"{' vs '.join(data['names'])} · {data['variant']} · duplicate, {data['deals']} deals"
        )
        _write(path, render_page(data, title))
        return path
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
        try:
            report = match_report(run_dir)  # a duplicate match's folder gets one page
        except RunError as error:
            problems.append(f"match {match_id}: {error}")
            report = None
        links = []
        if report is not None:
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
        "duplicate": results.get("duplicate"),
        "matches": matches,
        "problems": problems,
    }
    _write(page, render_page(data, f"tournament {directory.name}"))
    return page, problems


def is_tournament(directory: Path) -> bool:
    """Whether ``directory`` is a tournament's output directory."""
    return (directory / PLAN_FILE).is_file() or (directory / RESULTS_FILE).is_file()
