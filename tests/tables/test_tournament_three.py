"""Tournaments of a 3-seat game: every group of three, ACPC rankings, per-bot intervals."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from local_runner.engine.seating import duplicate_orders
from local_runner.results.match_summary import MatchSummary
from local_runner.results.rankings import bankroll_ranking, instant_runoff_ranking
from local_runner.results.stats import Moments
from local_runner.runs.layout import MATCHES_FILE, PLAN_FILE, RESULTS_FILE
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.executors import local_pool
from local_runner.tables.scrimmage import UsageError
from local_runner.tables.tournament import (
    TournamentPlan,
    TournamentResult,
    group_seed,
    plan_tournament,
    run_tournament,
)
from sdk.rules import Rules
from tests.conftest import ROOT, MakeBot
from tests.engine.test_acpc_seat import acpc_bot
from tests.tables.test_duplicate_three import ACPC_CHECKCALL

pytestmark = pytest.mark.slow  # process pools, a dask cluster and the CLI


FOUR = ["builtin:random", "builtin:raise", "builtin:checkcall", "builtin:equity"]


def config(rounds: int, seed: int = 8) -> ScrimmageConfig:
    rules = Rules.for_variant("acpc-3pl").replace(num_rounds=rounds)
    return ScrimmageConfig(rules=rules, seed=seed)


def table(result: TournamentResult) -> dict[str, Any]:
    """What must not depend on the executor: rankings, groups, and every match's chips."""
    return {
        **result.standings.to_dict(),
        "matches": [(m.match_id, m.players, m.seed, m.chips, m.moments) for m in result.matches],
    }


# -- the plan -----------------------------------------------------------------------------


def test_every_combination_of_three_plays_and_the_seating_rotates() -> None:
    plan = plan_tournament(FOUR, config(10), matches_per_pair=7)
    assert plan.table == 3 and plan.matches_per_group == 7
    matches = plan.matches()
    assert len(matches) == 4 * 7  # 4 choose 3 groups
    groups = [tuple(sorted(m.players)) for m in matches]
    expected = [tuple(sorted(c)) for c in itertools.combinations(plan.names, 3)]
    assert sorted(set(groups)) == sorted(expected)
    first = matches[:7]
    assert [m.match_id for m in first[:2]] == ["1-2-3-001", "1-2-3-002"]
    orders = duplicate_orders(3)
    names = plan.names[:3]
    assert [m.players for m in first] == [
        tuple(names[slot] for slot in orders[k % 6]) for k in range(7)
    ]
    seeds = [m.seed for m in matches]
    assert len(set(seeds)) == len(seeds) and seeds[0] == group_seed(8, (0, 1, 2), 0)


def test_the_plan_is_stored_as_format_2_and_read_back() -> None:
    plan = plan_tournament(FOUR, config(10), matches_per_pair=2, duplicate=True)
    data = plan.to_dict()
    assert data["format"] == 2 and data["table"] == 3 and data["matches_per_group"] == 2
    assert "matches_per_pair" not in data
    assert TournamentPlan.from_dict(json.loads(json.dumps(data))) == plan
    heads_up = plan_tournament(FOUR[:2], ScrimmageConfig(rules=Rules(), seed=1))
    assert heads_up.to_dict()["format"] == 1 and "table" not in heads_up.to_dict()


def test_too_few_entrants_is_a_sentence() -> None:
    with pytest.raises(
        UsageError,
        match=r"acpc-3pl needs at least 3 bots \(each match seats 3\); "
        r"2 were given",
    ):
        plan_tournament(FOUR[:2], config(10))
    with pytest.raises(UsageError, match="Each group of bots must play at least one match"):
        plan_tournament(FOUR, config(10), matches_per_pair=0)


def test_a_three_player_match_line_reads_back() -> None:
    summary = MatchSummary(
        "1-2-3-001",
        ("a", "b", "c"),
        5,
        True,
        (3, -1, -2),
        12,
        (Moments.of([3]), Moments.of([-1]), Moments.of([-2])),
        ({}, {"timeout": 1}, {}),
        forfeits=(None, None, "never_connected: did not connect"),
    )
    assert MatchSummary.from_dict(json.loads(json.dumps(summary.to_dict()))) == summary
    assert summary.hands_per_sample == 6
    line = summary.to_dict()
    line["chips"] = [1, 2]
    with pytest.raises(ValueError, match="do not all have 3 entries"):
        MatchSummary.from_dict(line)


# -- on executors -------------------------------------------------------------------------


def check_standings(result: TournamentResult) -> None:
    """Rankings, groups and intervals agree with the matches they come from."""
    standings = result.standings
    outcomes = [m.outcome() for m in result.matches]
    assert standings.bankroll == bankroll_ranking(outcomes, result.plan.names)
    assert standings.instant_runoff == instant_runoff_ranking(outcomes, result.plan.names, 3)
    assert standings.cross == {} and len(standings.groups) == 4
    per_sample = 6 if result.plan.duplicate else 1
    for name in result.plan.names:
        mine = [m for m in result.matches if name in m.players]
        pooled = Moments()
        for match in mine:
            pooled = pooled.merged(match.moments[match.players.index(name)])
        bot = standings.bots[name]
        assert bot.matches == len(mine) == 3 * result.plan.matches_per_group
        assert bot.chips == sum(m.chips[m.players.index(name)] for m in mine)
        assert bot.summary == pooled.summary(result.plan.config.rules.big_blind, per_sample)
    for group in standings.groups:
        assert sum(group.chips) == 0 and group.matches == result.plan.matches_per_group


def test_a_duplicate_three_seat_tournament_on_the_local_pool(tmp_path: Path) -> None:
    plan = plan_tournament(FOUR, config(40), matches_per_pair=1, duplicate=True)
    with local_pool(2) as pool:
        result = run_tournament(plan, tmp_path, pool)
    assert result.complete and not result.failures and len(result.matches) == 4
    for match in result.matches:
        assert match.hands == 240 and all(m.n == 40 for m in match.moments)
        assert sum(match.chips) == 0 and len(match.players) == 3
        assert (Path(match.log_dir) / "leg-6" / "hands.jsonl").is_file()
    check_standings(result)
    data = json.loads((tmp_path / RESULTS_FILE).read_text())
    assert "cross_table" not in data and data["table"] == 3 and data["matches_per_group"] == 1
    assert [len(g["players"]) for g in data["groups"]] == [3, 3, 3, 3]
    assert json.loads((tmp_path / PLAN_FILE).read_text()) == json.loads(json.dumps(plan.to_dict()))
    lines = [json.loads(line) for line in (tmp_path / MATCHES_FILE).read_text().splitlines()]
    assert all(len(line["chips"]) == len(line["moments"]) == 3 for line in lines)


def test_a_plain_three_seat_tournament_resumes_to_the_same_table(tmp_path: Path) -> None:
    plan = plan_tournament(FOUR, config(60), matches_per_pair=2)
    with ThreadPoolExecutor(2) as threads:
        reference = run_tournament(plan, tmp_path / "reference", threads)
    check_standings(reference)
    assert all(m.moments[0].n == 60 for m in reference.matches)
    calls: list[str] = []

    def interrupt_once(match: Any, standings: Any) -> None:
        calls.append(match.match_id)
        if len(calls) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "interrupted"
    with ThreadPoolExecutor(1) as threads:
        first = run_tournament(plan, out, threads, on_match=interrupt_once)
    assert first.interrupted and not first.complete
    with ThreadPoolExecutor(2) as threads:
        resumed = run_tournament(plan, out, threads, resume=True)
    assert resumed.complete and table(resumed) == table(reference)


def test_a_dask_cluster_gives_the_same_three_seat_table_as_the_local_pool(
    tmp_path: Path, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    # Two bot processes on the ACPC wire (one from a startme.sh, one from commands.json),
    # shipped to the workers as archives, and two built-in bots.
    listed = acpc_bot(make_bot, "listed", ACPC_CHECKCALL, startme=False)
    started = acpc_bot(make_bot, "started", ACPC_CHECKCALL.replace("checkcall", "raise"))
    entrants = [str(listed), str(started), "builtin:random", "builtin:chump"]
    plan = plan_tournament(entrants, config(30), matches_per_pair=1, duplicate=True)
    with local_pool(2) as pool:
        local = run_tournament(plan, tmp_path / "local", pool)
    assert all(not any(faults) for m in local.matches for faults in m.faults), local.matches
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where the workers unpack shipped bots
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = run_tournament(
            plan, tmp_path / "dask", client.get_executor(pure=False), ship_bots=True
        )
    assert not remote.failures and remote.complete
    assert table(remote) == table(local)
    check_standings(remote)
    assert list(tmp_path.glob("pokerbots-bots/*/listed/player.py"))  # it was shipped
    assert list(tmp_path.glob("pokerbots-bots/*/started/startme.sh"))


# -- the command line -----------------------------------------------------------------------


def pokerbots(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_cli_three_seat_tournament_tables_json_and_errors(tmp_path: Path) -> None:
    args = [
        "tournament",
        *FOUR,
        "--variant",
        "acpc-3pl",
        "--rounds",
        "20",
        "--matches",
        "1",
        "--duplicate",
        "--seed",
        "2",
        "--workers",
        "2",
    ]
    run = pokerbots(*args, "--out", str(tmp_path / "t"))
    assert run.returncode == 0, run.stderr
    for text in (
        "1 duplicate matches per group of three",
        "Total bankroll",
        "Bankroll instant run-off",
        "Groups: each bot's result at each table",
        "95% CI",
    ):
        assert text in run.stdout, run.stdout
    assert "Cross table" not in run.stdout
    resumed = pokerbots("tournament", "--resume", "--out", str(tmp_path / "t"), "--json")
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["complete"] and len(data["matches"]) == 4 and data["variant"] == "acpc-3pl"
    assert {e["bot"] for e in data["rankings"]["instant_runoff"]} == {
        "random",
        "raise",
        "checkcall",
        "equity",
    }
    failed = pokerbots(
        "tournament", *FOUR[:2], "--variant", "acpc-3pl", "--out", str(tmp_path / "two")
    )
    assert failed.returncode == 2
    assert "needs at least 3 bots (each match seats 3); 2 were given" in failed.stderr
    assert "Traceback" not in failed.stderr
