"""Duplicate matches and the statistics every scrimmage reports."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from local_runner.engine.records import HandRecord
from local_runner.results.standings import (
    MatchStats,
    Moments,
    ci_sentence,
    slot_deltas,
    statistics_dict,
)
from local_runner.results.stats import mean_ci, summarize, summarize_duplicate
from local_runner.runs.summary import summary_content
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from local_runner.tables.table import play_table
from sdk.rules import Rules
from tests.conftest import ROOT, MakeBot

pytestmark = pytest.mark.slow  # bot processes and the CLI

CALLER = """
from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

run_bot(Player(), parse_args())
"""


def config(rounds: int, seed: int = 17, variant: str = "nlhe") -> ScrimmageConfig:
    return ScrimmageConfig(rules=Rules.for_variant(variant).replace(num_rounds=rounds), seed=seed)


def hands(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def deltas_of(records: list[dict], name: str) -> list[int]:
    return [hand["deltas"][hand["players"].index(name)] for hand in records]


# -- duplicate symmetry ---------------------------------------------------------


@pytest.mark.parametrize("variant", ["nlhe", "swap", "auction", "bounty"])
def test_a_deterministic_bot_against_itself_sums_to_exactly_zero(
    tmp_path: Path, variant: str
) -> None:
    specs = [BotSpec.parse("builtin:checkcall"), BotSpec.parse("builtin:checkcall")]
    result = play_table(specs, config(200, variant=variant), tmp_path, True)
    assert result.names == ("checkcall-1", "checkcall-2")
    assert result.samples == 200 and result.hands_played == 400
    assert result.moments[0] == result.moments[1] == Moments(200, 0, 0)  # every pair sums to 0
    assert result.bankrolls == (0, 0)
    assert result.player(0, 0).bankroll == -result.player(1, 0).bankroll
    summaries = result.summaries()
    assert summaries is not None
    interval = summaries[0].mbb_per_hand
    assert (interval.mean, interval.low, interval.high) == (0.0, 0.0, 0.0)
    assert summaries[0].verdict(*result.names).startswith("not yet distinguishable")


def test_a_deterministic_directory_bot_against_itself_sums_to_zero_over_real_processes(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    first, second = make_bot("alpha", CALLER), make_bot("beta", CALLER, startme=True)
    out = tmp_path / "out"
    result = play_table(
        [BotSpec.parse(str(first)), BotSpec.parse(str(second))], config(150), out, True
    )
    assert result.bankrolls == (0, 0)
    assert result.moments[0] == Moments(150, 0, 0)  # every pair sums to 0
    assert result.player(0, 0).bankroll == -result.player(1, 0).bankroll != 0
    # Both bots were started twice, once per half, each half with its own logs.
    for half in ("half-1", "half-2"):
        assert (out / half / "alpha.log").is_file() and (out / half / "beta.log").is_file()
        assert (out / half / "summary.json").is_file()


def test_the_second_half_replays_the_cards_with_the_seats_swapped(tmp_path: Path) -> None:
    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:raise")]
    play_table(specs, config(60, variant="swap"), tmp_path, True)
    first = hands(tmp_path / "half-1" / "hands.jsonl")
    second = hands(tmp_path / "half-2" / "hands.jsonl")
    assert len(first) == len(second) == 60
    for a, b in zip(first, second, strict=True):
        assert a["hole_cards"] == b["hole_cards"]
        shorter = min(len(a["board"]), len(b["board"]))  # a fold ends the board early
        assert a["board"][:shorter] == b["board"][:shorter]
        assert a["players"] == b["players"][::-1]  # the other bot sits in each seat


def test_the_combined_summary_matches_the_logs_and_the_stats_module(tmp_path: Path) -> None:
    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:raise")]
    result = play_table(specs, config(300, seed=5), tmp_path, True)
    first = deltas_of(hands(tmp_path / "half-1" / "hands.jsonl"), "random")
    second = deltas_of(hands(tmp_path / "half-2" / "hands.jsonl"), "random")
    expected = summarize_duplicate(first, second, big_blind=2)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary == json.loads(json.dumps(summary_content(result.to_dict())))
    assert summary["duplicate"] is True and summary["pairs"] == 300 and summary["rounds"] == 600
    random_bot = summary["players"][0]
    assert random_bot["name"] == "random"
    assert random_bot["bankroll"] == sum(first) + sum(second) == sum(random_bot["halves"])
    stats = summary["statistics"]
    assert stats["sample"] == "hand pair"
    assert stats["players"][0]["samples"] == 300 and stats["players"][0]["hands"] == 600
    mbb = stats["players"][0]["mbb_per_hand"]
    assert mbb["mean"] == pytest.approx(expected.mbb_per_hand.mean, abs=1e-4)
    assert mbb["low"] == pytest.approx(expected.mbb_per_hand.low, abs=1e-4)
    assert mbb["high"] == pytest.approx(expected.mbb_per_hand.high, abs=1e-4)
    assert stats["verdict"] == expected.verdict("random", "raise")
    assert stats["verdict"] == "raise is ahead of random: 95% CI excludes zero"
    halves = summary["halves"]
    assert [h["players"] for h in halves] == [["random", "raise"], ["raise", "random"]]


def test_the_observer_sees_every_hand_of_both_halves(tmp_path: Path) -> None:
    seen: list[int] = []

    def observe(record: HandRecord) -> None:
        seen.append(record.number)

    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:checkcall")]
    play_table(specs, config(25), tmp_path, True, on_hand=observe)
    assert seen == list(range(1, 26)) * 2


# -- statistics of a plain match --------------------------------------------------


def test_match_stats_agree_with_summarize_on_the_logged_deltas(tmp_path: Path) -> None:
    stats = MatchStats()
    result = run_scrimmage(
        [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:checkcall")],
        config(400, seed=3),
        tmp_path,
        on_hand=stats,
    )
    logged = deltas_of(hands(tmp_path / "hands.jsonl"), "random")
    summaries = stats.summaries(big_blind=2)
    assert summaries is not None
    expected = summarize(logged, big_blind=2)
    assert summaries[0].total_chips == expected.total_chips == result.players[0].bankroll
    for ours, theirs in (
        (summaries[0].chips_per_hand, expected.chips_per_hand),
        (summaries[0].mbb_per_hand, expected.mbb_per_hand),
    ):
        assert ours.n == theirs.n == 400
        assert ours.mean == pytest.approx(theirs.mean, rel=1e-12)
        assert ours.low == pytest.approx(theirs.low, rel=1e-9)
        assert ours.high == pytest.approx(theirs.high, rel=1e-9)
    # Zero-sum: the opponent's interval is the mirror image.
    assert summaries[1].mbb_per_hand.low == pytest.approx(-summaries[0].mbb_per_hand.high)


def test_slot_deltas_follow_the_first_player_between_seats() -> None:
    odd = HandRecord(1, ("A", "B"), (0, 0), ((), ()), (None, None), deltas=(5, -5))
    even = HandRecord(2, ("B", "A"), (5, -5), ((), ()), (None, None), deltas=(7, -7))
    assert slot_deltas(odd) == (5, -5)
    assert slot_deltas(even) == (-7, 7)


def test_moments_give_the_textbook_interval() -> None:
    # mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764451: 3 -/+ 1.9632432 (as in the stats doctest).
    interval = Moments.of([1, 2, 3, 4, 5]).interval()
    assert interval.mean == 3.0
    assert round(interval.low, 6) == 1.036757 and round(interval.high, 6) == 4.963243
    assert interval.stderr == pytest.approx(math.sqrt(2.5 / 5))
    single = Moments.of([7]).interval()
    assert single.low == -math.inf and single.high == math.inf


def test_moments_merge_exactly_and_agree_with_mean_ci() -> None:
    rng = random.Random(4)
    samples = [rng.randint(-400, 400) for _ in range(1000)]
    merged = Moments.of(samples[:313]).merged(Moments.of(samples[313:]))
    assert merged == Moments.of(samples) == Moments.of(reversed(samples))
    ours, reference = merged.interval(0.99), mean_ci(samples, 0.99)
    assert ours.mean == pytest.approx(reference.mean, rel=1e-12)
    assert ours.low == pytest.approx(reference.low, rel=1e-9)
    assert ours.high == pytest.approx(reference.high, rel=1e-9)
    pair = merged.summary(big_blind=2, hands_per_sample=2)
    assert pair.hands == 2000
    assert pair.chips_per_hand.mean == pytest.approx(reference.mean / 2)
    assert pair.mbb_per_hand.mean == pytest.approx(reference.mean / 2 * 500)


def test_statistics_json_has_no_infinities_and_the_sentences_read_well() -> None:
    one = Moments.of([40]).summary(2)
    data = statistics_dict(("A", "B"), (one, Moments.of([-40]).summary(2)))
    assert data["players"][0]["mbb_per_hand"] == {"mean": 20000.0, "low": None, "high": None}
    json.dumps(data, allow_nan=False)
    assert data["verdict"] == "not yet distinguishable: the 95% CI includes zero"
    # mean 12 chips, s = 2, t(0.975, 2) = 4.3026527: 12 -/+ 4.9683 chips, times 500 for mbb.
    line = ci_sentence("A", Moments.of([10, 12, 14]).summary(2))
    assert line == "A: +36 chips, +6000.0 mbb/hand (95% CI +3515.9 to +8484.1, over 3 hands)"


# -- the command line -------------------------------------------------------------


def pokerbots(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_cli_duplicate_json_reports_both_halves_and_the_pairs(tmp_path: Path) -> None:
    run = pokerbots(
        "scrimmage",
        "builtin:checkcall",
        "builtin:checkcall",
        "--duplicate",
        "--rounds",
        "80",
        "--seed",
        "2",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["duplicate"] is True and summary["pairs"] == 80
    assert [p["bankroll"] for p in summary["players"]] == [0, 0]
    assert summary["statistics"]["verdict"].startswith("not yet distinguishable")
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    assert (tmp_path / "half-1" / "gamelog.txt").is_file()
    assert (tmp_path / "half-2" / "gamelog.txt").is_file()


def test_cli_duplicate_table_shows_halves_pairs_and_a_verdict(tmp_path: Path) -> None:
    run = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--duplicate",
        "--rounds",
        "200",
        "--seed",
        "2",
        "--out",
        str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    assert "half-1" in run.stdout and "half-2" in run.stdout and "hand pairs" in run.stdout
    assert "Verdict: raise is ahead of random: 95% CI excludes zero." in run.stdout


def test_cli_scrimmage_reports_an_interval_and_a_verdict(tmp_path: Path) -> None:
    run = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--rounds",
        "200",
        "--seed",
        "8",
        "--out",
        str(tmp_path / "table"),
    )
    assert run.returncode == 0, run.stderr
    assert "95% CI" in run.stdout and "Verdict: raise is ahead of random" in run.stdout
    run = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--rounds",
        "200",
        "--seed",
        "8",
        "--out",
        str(tmp_path / "json"),
        "--json",
    )
    summary = json.loads(run.stdout)
    logged = deltas_of(hands(tmp_path / "json" / "hands.jsonl"), "raise")
    expected = summarize(logged, big_blind=2)
    raise_stats = summary["statistics"]["players"][1]
    assert raise_stats["name"] == "raise" and raise_stats["chips"] == expected.total_chips
    assert raise_stats["mbb_per_hand"]["low"] == pytest.approx(expected.mbb_per_hand.low, abs=1e-4)
    written = json.loads((tmp_path / "json" / "summary.json").read_text())
    assert written["statistics"] == summary["statistics"]


def test_cli_plot_writes_a_bankroll_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    run = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--duplicate",
        "--plot",
        "--rounds",
        "50",
        "--seed",
        "1",
        "--out",
        str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "bankroll.png").read_bytes().startswith(b"\x89PNG")
