"""Every kind of report in a real headless Chromium, at a desktop's and a phone's width.

Each page is opened as it is written (a file, no network) and, for the checks the DOM can
answer, as a copy with a small probe script that writes computed styles into the DOM
(``data-computed``) once the page has drawn itself: the colour a reader sees for each
legend entry must be the colour of its line.  The screenshots are kept: under pytest's
tmp path, and also copied to ``$POKERBOTS_REPORT_SHOTS`` when that is set, so that a
person can look at them (their paths are printed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from local_runner.view.report import duplicate_data, match_report
from tests.conftest import ROOT
from tests.view.test_view_report_play import chromium, needs_chromium, play

pytestmark = [pytest.mark.slow, pytest.mark.browser, needs_chromium]

WIDTHS = {"desktop": (1280, 2400), "phone": (390, 3200)}

PROBE = """<script>
(function probe() {
  if (!document.body.getAttribute("data-ready")) { setTimeout(probe, 20); return; }
  Array.prototype.forEach.call(document.querySelectorAll("[data-series]"), function (n) {
    var style = getComputedStyle(n), svg = n.namespaceURI === "http://www.w3.org/2000/svg";
    var colour = n.tagName === "path" ? style.stroke : svg ? style.fill : style.color;
    n.setAttribute("data-computed", colour);
  });
  var root = document.documentElement;
  document.body.setAttribute("data-widths", root.scrollWidth + " " + root.clientWidth);
  document.body.setAttribute("data-probed", "1");
})();
</script>
</body>"""


class _Elements(HTMLParser):
    """Every start tag of a page with its attributes, in order."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.title = ""
        self._in_title = False
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def find(self, cls: str | None = None, **wanted: str) -> list[dict[str, str]]:
        """The elements of class ``cls`` (if given) whose attributes have the values wanted."""
        return [
            a
            for _, a in self.tags
            if (cls is None or cls in a.get("class", "").split())
            and all(a.get(k) == v for k, v in wanted.items())
        ]


def _probed_dom(tmp_path: Path, page: Path, fragment: str = "") -> _Elements:
    """The DOM of ``page`` once drawn, with computed colours, in a narrow window: the page
    itself must not be wider than the window (wide tables scroll inside their own box).
    (Headless Chromium lays out ``--dump-dom`` at least 500 pixels wide, screenshots not.)"""
    probe = page.with_name("probe-" + page.name)
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE, 1), "utf-8")
    width, height = WIDTHS["phone"]
    dom = chromium(
        tmp_path, probe.as_uri() + fragment, f"--window-size={width},{height}", "--dump-dom"
    )
    probe.unlink()
    assert 'data-probed="1"' in dom and "<title>ERROR" not in dom, dom[:3000]
    elements = _Elements(dom)
    (body,) = [a for tag, a in elements.tags if tag == "body"]
    scroll, client = map(int, body["data-widths"].split())
    assert scroll <= client, f"the page is {scroll} pixels wide in a window of {client}"
    return elements


def _legend_matches_lines(dom: _Elements, charts: int, series: int) -> None:
    """Each legend entry is written in the colour of its line; each bot has its own colour,
    the same in every chart of the page."""
    items = [(a["data-bot"], a["data-computed"]) for a in dom.find(cls="legend-item")]
    lines = [(a["data-bot"], a["data-computed"]) for a in dom.find(cls="series")]
    assert len(items) == len(lines) == charts * series, (items, lines)
    assert items == lines  # the legend says which line is which bot
    colours = dict(lines)
    assert len(set(colours.values())) == len(colours) == series  # one colour per bot
    assert set(lines) == set(colours.items())  # a bot keeps its colour in every chart


def _screenshots(tmp_path: Path, page: Path, name: str, fragment: str = "") -> list[Path]:
    """Desktop and phone screenshots of ``page``; kept, and their paths printed."""
    Image = pytest.importorskip("PIL.Image", reason="Pillow comes with the plot extra")
    keep = os.environ.get("POKERBOTS_REPORT_SHOTS")
    shots = []
    for width_name, (width, height) in WIDTHS.items():
        shot = tmp_path / f"{name}-{width_name}.png"
        chromium(
            tmp_path,
            page.as_uri() + fragment,
            "--hide-scrollbars",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
        )
        image = Image.open(shot).convert("L")
        assert image.size == (width, height)
        pixels = image.tobytes()
        dark = sum(1 for p in pixels if p < 160) / len(pixels)
        assert dark > 0.01, f"{shot}: only {dark:.4f} of the page is drawn"
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shot = Path(shutil.copy(shot, Path(keep) / shot.name))
        print(f"screenshot: {shot}")
        shots.append(shot)
    return shots


def test_match_report(tmp_path: Path) -> None:
    page = match_report(play(tmp_path / "run", "auction", 200))
    dom = _probed_dom(tmp_path, page)
    _legend_matches_lines(dom, 1, 2)
    assert len(dom.find(cls="band")) == 2  # each bot's interval drawn on the chart
    assert len(dom.find(cls="player-stats")) == 2
    assert dom.find(cls="variant-stats")
    _screenshots(tmp_path, page, "match", "#hand=3")


def test_three_seat_report(tmp_path: Path) -> None:
    page = match_report(play(tmp_path / "run", "acpc-3pl", 150))
    dom = _probed_dom(tmp_path, page)
    _legend_matches_lines(dom, 1, 3)
    assert len(dom.find(cls="position-table")) == 3
    _screenshots(tmp_path, page, "three-seat", "#hand=2")


def test_duplicate_report_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "dup"
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "scrimmage",
            "builtin:random",
            "builtin:raise",
            "--variant",
            "toss",
            "--rounds",
            "80",
            "--seed",
            "2",
            "--duplicate",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert played.returncode == 0, played.stderr
    report = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "report", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr + report.stdout
    page = out / "report.html"
    data = duplicate_data(out)
    summary = json.loads((out / "summary.json").read_text())
    assert data["deals"] == summary["pairs"] == 80 and len(data["legs"]) == 2
    assert [p["bankroll"] for p in data["players"]] == [p["bankroll"] for p in summary["players"]]
    assert data["statistics"] == summary["statistics"]  # the pair interval, not recomputed
    assert sum(p["hands"] for p in data["players"]) == 2 * 160  # every leg counted
    dom = _probed_dom(tmp_path, page, "#leg=2&hand=5")
    _legend_matches_lines(dom, 2, 2)  # the deal-summed chart and the chosen leg's
    assert [a.get("data-leg") for a in dom.find(cls="on")] == ["2"]
    _screenshots(tmp_path, page, "duplicate", "#leg=2&hand=5")


def test_tournament_report(tmp_path: Path) -> None:
    out = tmp_path / "t"
    played = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "tournament",
            "builtin:random",
            "builtin:raise",
            "builtin:checkcall",
            "builtin:equity",
            "--rounds",
            "80",
            "--seed",
            "3",
            "--duplicate",
            "--workers",
            "2",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert played.returncode == 0, played.stderr
    report = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "report", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert report.returncode == 0, report.stderr
    page = out / "report.html"
    results = json.loads((out / "results.json").read_text())
    dom = _probed_dom(tmp_path, page)
    order = [r["bot"] for r in results["rankings"]["bankroll"]]
    cross = [a for a in dom.find(cls="cell")]
    # The cross table in rank order, row by row.
    assert [a["data-row"] for a in cross[:: len(order) - 1]] == order
    for cell in cross:
        m = results["cross_table"][cell["data-row"]][cell["data-col"]]["statistics"]
        m = m["mbb_per_hand"]
        excludes_zero = (m["low"] is not None and m["low"] > 0) or (
            m["high"] is not None and m["high"] < 0
        )
        assert cell["data-significant"] == ("1" if excludes_zero else "0")
    # Each match is a click away, a duplicate match as one page.
    links = [a["href"] for _, a in dom.tags if a.get("href", "").startswith("matches/")]
    assert {link.split("/")[1] for link in links} == {m["id"] for m in results["matches"]}
    assert all((out / link).is_file() for link in links)
    assert len(dom.find(id="runoff")) == 1 and len(dom.find(id="standings")) == 1
    _screenshots(tmp_path, page, "tournament")
    linked = out / links[0]
    _legend_matches_lines(_probed_dom(tmp_path, linked), 2, 2)


def test_a_bot_name_is_only_ever_text(tmp_path: Path) -> None:
    run = play(tmp_path / "run", "nlhe", 40)
    hostile = "<img src=x onerror=\"document.title='pwned'\">&amp;"
    for name in ("summary.json", "hands.jsonl"):
        path = run / name
        path.write_text(path.read_text().replace('"random"', json.dumps(hostile)))
    page = match_report(run)
    dom = _probed_dom(tmp_path, page, "#hand=1")
    assert dom.title.strip() != "pwned"  # the title shows the name, as text
    assert hostile in dom.title
    assert not [a for tag, a in dom.tags if tag == "img"]
    assert next(a["data-bot"] for a in dom.find(cls="legend-item")) == hostile
