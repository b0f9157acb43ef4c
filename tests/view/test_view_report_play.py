"""The HTML report in a real headless Chromium, and a person playing in a pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from local_runner.runs.reader import open_run
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from local_runner.view.report import match_data, match_report
from sdk.rules import Rules
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # matches with bot processes, a terminal and a browser


CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium binary (CI installs Debian's chromium in .ci/run)"
)


def play(out: Path, variant: str = "nlhe", rounds: int = 120, seed: int = 4) -> Path:
    rules = Rules.for_variant(variant).replace(num_rounds=rounds)
    bots = ["builtin:random", "builtin:raise", "builtin:checkcall"][: rules.seats]
    run_scrimmage([BotSpec.parse(bot) for bot in bots], ScrimmageConfig(rules, seed), out)
    return out


def chromium(tmp_path: Path, url: str, *extra: str) -> str:
    assert CHROMIUM is not None
    profile = tmp_path / "profile"
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=8000",
        *extra,
        url,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return result.stdout


def _attribute(dom: str, element_id: str, name: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*\b{name}="([^"]*)"', dom)
    if match is None:
        match = re.search(rf'\b{name}="([^"]*)"[^>]*id="{element_id}"', dom)
    assert match is not None, f"no {element_id} with {name} in the page"
    return match.group(1)


def test_report_data_counts_every_hand(tmp_path: Path) -> None:
    run = open_run(play(tmp_path / "run", "bounty", 60))
    data = match_data(run)
    assert data["rounds"] == len(data["hands"]) == 60
    assert [p["bankroll"] for p in data["players"]] == [
        p["bankroll"] for p in run.summary["players"]
    ]
    stats = data["players"][1]
    # Counted again from the raw file: hands in which `raise` raised preflop by itself.
    raised = 0
    for line in (run.directory / "hands.jsonl").read_text().splitlines():
        hand = json.loads(line)
        seat = hand["players"].index("raise")
        raised += any(
            a["seat"] == seat and a["street"] == 0 and a["action"][0] == "R" and not a["forced"]
            for a in hand["actions"]
        )
    assert stats["hands"] == 60 and stats["pfr"] == round(raised / 60, 4) and raised > 30


@pytest.mark.browser
@needs_chromium
@pytest.mark.parametrize("variant", ["nlhe", "auction", "acpc-3pl"])
def test_report_loads_in_chromium_and_shows_the_chosen_hand(tmp_path: Path, variant: str) -> None:
    run_dir = play(tmp_path / "run", variant)
    page = match_report(run_dir)
    run = open_run(run_dir)
    chosen = max(run.hands(), key=lambda h: (len(h.board), abs(h.deltas[0])))
    dom = chromium(tmp_path, page.as_uri() + f"#hand={chosen.number}", "--dump-dom")
    assert 'data-ready="1"' in dom, dom[:2000]
    assert "<title>ERROR" not in dom
    assert re.search(r'id="errors">\s*</div>', dom)
    assert re.search(r'id="hand-count">120 hands<', dom)
    assert _attribute(dom, "viewer-board", "data-board") == " ".join(chosen.board)
    assert _attribute(dom, "viewer-payoff", "data-payoff") == " ".join(map(str, chosen.deltas))
    assert dom.count('<tr data-hand="') == 120


@pytest.mark.browser
@needs_chromium
def test_report_screenshot_is_not_blank(tmp_path: Path) -> None:
    Image = pytest.importorskip("PIL.Image", reason="Pillow comes with the plot extra")
    page = match_report(play(tmp_path / "run"))
    shot = tmp_path / "shot.png"
    chromium(tmp_path, page.as_uri() + "#hand=1", "--window-size=1000,1400", f"--screenshot={shot}")
    image = Image.open(shot).convert("L")
    pixels = image.tobytes()
    dark = sum(1 for p in pixels if p < 160) / len(pixels)
    # Text, tables, cards and the chart: a blank (or error-only) page has almost no ink.
    assert dark > 0.01, f"only {dark:.4f} of the page is drawn"


@pytest.mark.browser
@needs_chromium
def test_tournament_report_links_every_match(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "tournament",
            "builtin:random",
            "builtin:raise",
            "builtin:checkcall",
            "--rounds",
            "30",
            "--seed",
            "3",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "report", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr
    dom = chromium(tmp_path, (out / "report.html").as_uri(), "--dump-dom")
    assert 'data-ready="1"' in dom and "<title>ERROR" not in dom
    matches = json.loads((out / "results.json").read_text())["matches"]
    listed = dom[dom.index('id="matches"') :]  # the list of matches (the cross table links too)
    links = re.findall(r'<a href="(matches/[^"]+/report.html)"', listed)
    assert len(links) == len(matches) > 0
    assert all((out / link).is_file() for link in links)
    assert dom.count("<tr>") >= 3  # the standings have a row per bot


@pytest.mark.browser
@needs_chromium
def test_three_seat_tournament_report_shows_each_group(tmp_path: Path) -> None:
    out = tmp_path / "t3"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "tournament",
            "builtin:random",
            "builtin:raise",
            "builtin:checkcall",
            "builtin:chump",
            "--variant",
            "acpc-3pl",
            "--rounds",
            "30",
            "--seed",
            "3",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "report", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr
    dom = chromium(tmp_path, (out / "report.html").as_uri(), "--dump-dom")
    assert 'data-ready="1"' in dom and "<title>ERROR" not in dom
    table = dom[dom.index('id="group-table"') :]
    table = table[: table.index("</table>")]
    groups = json.loads((out / "results.json").read_text())["groups"]
    assert len(groups) == 4  # four entrants: every group of three
    assert table.count("<tr>") == len(groups) + 1  # a header and a row per group
    assert 'id="cross-table"' not in dom  # no pairs three-handed


# -- a person at the keyboard ------------------------------------------------------------


class Terminal:
    """A `pokerbots` process in a pseudo-terminal, read and typed into like a person would."""

    def __init__(self, *args: str) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the real command line
            os.chdir(ROOT)
            os.execv(sys.executable, [sys.executable, "-m", "local_runner.cli", *args])
        self.pid, self.fd, self.text = pid, fd, ""

    def expect(self, pattern: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            left = deadline - time.monotonic()
            assert left > 0, f"{pattern!r} never came; the screen says:\n{self.text[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                assert chunk, f"the program ended before {pattern!r}:\n{self.text[-2000:]}"
                self.text += chunk.decode(errors="replace")
        return self.text

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode())

    def wait(self) -> int:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.2)
                if ready:
                    self.text += os.read(self.fd, 4096).decode(errors="replace")
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        raise AssertionError("the program did not end")


def test_a_person_plays_a_bot_and_bad_input_is_asked_again(tmp_path: Path) -> None:
    term = Terminal(
        "play", "builtin:checkcall", "--rounds", "2", "--seed", "1", "--out", str(tmp_path)
    )
    term.expect(r"your cards: \S\S \S\S")
    term.expect(r"you may: fold \(f\), call 1 \(c\), raise to 4-400 \(r N\)\r?\n> ")
    term.type("hello\r")
    term.expect(r"type f \(fold\), c \(call\)")
    term.type("r 1\r")
    term.expect(r"1 is out of bounds: choose from 4 to 400")
    term.type("r 10\r")
    term.expect(r"checkcall calls 8")
    for _ in range(3):  # flop, turn, river: check
        term.expect(r"you may: check \(k\)[^\n]*\n> $")
        term.type("k\r")
    text = term.expect(r"showdown on .*: you \S\S \S\S, checkcall \S\S \S\S")
    term.expect(r"== hand 2 · you are the big blind")
    term.expect(r"\n> $")
    term.type("f\r")  # the big blind may not fold to a check... asked again
    term.expect(r"fold is not legal now")
    term.type("k\r")
    for _ in range(3):
        term.expect(r"you may: check \(k\)[^\n]*\n> $")
        term.type("k\r")
    text = term.expect(r"2 hands played: you [+-]\d+, checkcall [+-]\d+")
    assert term.wait() == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    you = summary["players"][0]
    assert you["name"] == "you" and not any(you["faults"].values())
    assert you["time_used"] == 0.0  # no clock for a person
    assert "Traceback" not in text


def test_ctrl_c_ends_the_match_with_its_logs(tmp_path: Path) -> None:
    term = Terminal(
        "play",
        "builtin:raise",
        "--variant",
        "bounty",
        "--rounds",
        "5",
        "--seed",
        "2",
        "--out",
        str(tmp_path),
    )
    term.expect(r"your bounty rank: [2-9TJQKA]")
    term.expect(r"\n> $")
    term.type("f\r" if "fold (f)" in term.text.splitlines()[-2] else "k\r")
    term.expect(r"== hand 2")
    term.expect(r"\n> $")
    term.type("\x03")  # Ctrl-C
    text = term.expect(r"1 hands played")
    assert term.wait() == 130
    assert "Traceback" not in text
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["interrupted"] is True and summary["rounds"] == 1
    assert len((tmp_path / "hands.jsonl").read_text().splitlines()) == 1


def test_replay_keys_in_a_terminal(tmp_path: Path) -> None:
    run_dir = play(tmp_path / "run", rounds=5)
    term = Terminal("replay", str(run_dir))
    term.expect(r"hand 1 \(1 of 5 selected\) · step 1 of \d+")
    term.type("e")  # the end of the hand
    term.expect(r"== result: ")
    term.type("]")  # the next hand
    term.expect(r"hand 2 \(2 of 5 selected\) · step 1 of")
    term.type("g")  # go to a hand: a typed number, in line mode
    term.expect(r"go to hand: $")
    term.type("4\r")
    term.expect(r"hand 4 \(4 of 5 selected\) · step 1 of")
    term.type("nn")  # typed ahead of the drawing: neither is lost (every hand has 3+ steps)
    term.expect(r"hand 4 \(4 of 5 selected\) · step 3 of")
    term.type("q")
    assert term.wait() == 0


@pytest.mark.parametrize(
    ("variant", "event"),
    [
        ("swap", r"your cards were swapped: \S\S \S\S -> \S\S \S\S"),
        ("auction", r"auction: you bid 50, checkcall bid \d+; checkcall won a third card"),
        ("bounty", r"you hit the bounty"),
    ],
)
def test_the_person_is_told_the_variant_events(tmp_path: Path, variant: str, event: str) -> None:
    from local_runner.view.human import human_seat_factory

    screen: list[str] = []

    def answer(prompt: str) -> str:
        choices = next(line for line in reversed(screen) if "you may:" in line)
        return "a 50" if "bid" in choices else "c" if "call" in choices else "k"

    rules = Rules.for_variant(variant).replace(num_rounds=40)
    me = BotSpec("you", seat=human_seat_factory("checkcall", answer, screen.append))
    result = run_scrimmage(
        [me, BotSpec.parse("builtin:checkcall")], ScrimmageConfig(rules=rules, seed=6), tmp_path
    )
    text = "\n".join(screen)
    assert re.search(event, text), text[-3000:]
    assert re.search(r"showdown on .*: you \S\S \S\S.*, checkcall \S\S \S\S", text)
    assert result.players[0].fault_counts == {} and result.players[0].time_used == 0.0
    assert text.count("== hand ") == 40
    if variant == "bounty":
        assert re.search(r"your bounty rank: [2-9TJQKA]", text)


def test_clock_per_street_comes_from_recorded_reply_times(tmp_path: Path) -> None:
    run_dir = play(tmp_path / "run", rounds=30)
    # The runner records each reply's time in hands.jsonl; the report sums them per street.
    recorded = match_data(open_run(run_dir))["players"][0]["clock_per_street"]
    assert recorded is not None and recorded and all(v >= 0 for v in recorded.values())
    path = run_dir / "hands.jsonl"
    hands = [json.loads(line) for line in path.read_text().splitlines()]
    expected: dict[int, float] = {}
    for hand in hands:
        for action in hand["actions"]:
            action["seconds"] = 0.25
            if hand["players"][action["seat"]] == "random":
                expected[action["street"]] = expected.get(action["street"], 0) + 0.25
    path.write_text("".join(json.dumps(h) + "\n" for h in hands))
    clock = match_data(open_run(run_dir))["players"][0]["clock_per_street"]
    names = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
    assert clock == {names[street]: seconds for street, seconds in sorted(expected.items())}
