"""Tournaments end to end: plans and seeds, executors, resume, rankings, CLI and plots."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from local_runner.cli import tournament as cli
from local_runner.results.rankings import bankroll_ranking
from local_runner.results.standings import Moments
from local_runner.runs.layout import MATCHES_FILE, PLAN_FILE, RESULTS_FILE
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.executors import BotBundle, local_pool, send_once
from local_runner.tables.tournament import (
    TournamentError,
    TournamentPlan,
    TournamentProgress,
    TournamentResult,
    make_jobs,
    match_seed,
    plan_tournament,
    play_job,
    run_tournament,
)
from sdk.rules import Rules
from tests.conftest import ROOT, MakeBot

pytestmark = pytest.mark.slow  # process pools, a dask cluster and the CLI

BUILTINS = ["builtin:random", "builtin:raise", "builtin:checkcall"]

CALLER = """
from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

run_bot(Player(), parse_args())
"""


def config(rounds: int, seed: int = 21) -> ScrimmageConfig:
    return ScrimmageConfig(rules=Rules().replace(num_rounds=rounds), seed=seed)


def table(result: TournamentResult) -> dict[str, Any]:
    """What must not depend on the executor: rankings, cross table, and every match's chips."""
    return {
        **result.standings.to_dict(),
        "matches": [(m.match_id, m.players, m.seed, m.chips, m.moments) for m in result.matches],
    }


def jsonl_ids(out: Path) -> list[str]:
    return [json.loads(line)["id"] for line in (out / MATCHES_FILE).read_text().splitlines()]


# -- the plan ---------------------------------------------------------------------


def test_match_seeds_derive_from_the_master_seed_and_differ_per_match() -> None:
    plan = plan_tournament(BUILTINS, config(10, seed=99), matches_per_pair=3)
    seeds = [m.seed for m in plan.matches()]
    assert len(seeds) == 9 and len(set(seeds)) == 9
    assert seeds == [m.seed for m in plan_tournament(BUILTINS, config(10, 99), 3).matches()]
    assert seeds != [m.seed for m in plan_tournament(BUILTINS, config(10, 98), 3).matches()]
    assert seeds[0] == match_seed(99, 0, 1, 0) and 0 <= seeds[0] < 2**31


def test_the_plan_names_bots_apart_and_alternates_the_first_player() -> None:
    plan = plan_tournament(["builtin:random", "builtin:raise", "builtin:random"], config(10), 2)
    assert plan.names == ["random-1", "raise", "random-3"]
    matches = plan.matches()
    assert [m.match_id for m in matches[:2]] == ["1-2-001", "1-2-002"]
    assert [m.players for m in matches[:2]] == [("random-1", "raise"), ("raise", "random-1")]
    with pytest.raises(ValueError, match="at least two bots"):
        plan_tournament(["builtin:random"], config(10))


# -- running on executors --------------------------------------------------------


def test_a_round_robin_on_the_local_pool_is_consistent_end_to_end(tmp_path: Path) -> None:
    plan = plan_tournament(BUILTINS, config(300), matches_per_pair=2)
    seen: list[int] = []
    last: list[TournamentProgress] = []

    def on_match(match: Any, progress: TournamentProgress) -> None:
        seen.append(progress.matches)
        assert progress.total == 6
        last[:] = [progress]

    with local_pool(2) as pool:
        result = run_tournament(plan, tmp_path, pool, on_match=on_match)
    assert result.complete and not result.interrupted and not result.failures
    assert seen == [1, 2, 3, 4, 5, 6]
    assert last[0].standings() == result.standings  # asked for after the last match
    assert sorted(jsonl_ids(tmp_path)) == [m.match_id for m in plan.matches()]
    assert json.loads((tmp_path / RESULTS_FILE).read_text()) == json.loads(
        json.dumps(result.to_dict())
    )
    assert json.loads((tmp_path / PLAN_FILE).read_text()) == plan.to_dict()
    standings = result.standings
    # The bankroll ranking is the sum of each bot's chips over its matches.
    totals = {name: 0 for name in plan.names}
    for match in result.matches:
        assert match.hands == 300 and sum(match.chips) == 0
        for name, chips in zip(match.players, match.chips, strict=True):
            totals[name] += chips
        summary = json.loads((Path(match.log_dir) / "summary.json").read_text())
        assert [p["bankroll"] for p in summary["players"]] == list(match.chips)
    assert {e.bot: e.bankroll for e in standings.bankroll} == totals
    assert standings.bankroll == bankroll_ranking([m.outcome() for m in result.matches])
    assert [e.bot for e in standings.bankroll] == ["raise", "checkcall", "random"]
    # The cross table is antisymmetric, and each cell's interval pools its matches' hands.
    for row, cells in standings.cross.items():
        for col, pair in cells.items():
            mirror = standings.cross[col][row]
            assert pair.chips == -mirror.chips and pair.matches == mirror.matches == 2
            assert pair.summary is not None and pair.summary.hands == 600
            assert pair.summary.mbb_per_hand.mean == pytest.approx(
                -mirror.summary.mbb_per_hand.mean
            )
    pooled = Moments()
    for match in result.matches:
        if "raise" in match.players and "random" in match.players:
            pooled = pooled.merged(match.moments[match.players.index("raise")])
    expected = pooled.summary(big_blind=2).mbb_per_hand
    assert standings.cross["raise"]["random"].summary.mbb_per_hand == expected
    assert standings.cross["raise"]["random"].verdict == (
        "raise is ahead of random: 95% CI excludes zero"
    )


def test_the_same_master_seed_gives_the_same_table_on_any_executor(tmp_path: Path) -> None:
    plan = plan_tournament(BUILTINS, config(200), matches_per_pair=2, duplicate=True)
    with local_pool(2) as pool:
        pooled = run_tournament(plan, tmp_path / "pool", pool)
    with ThreadPoolExecutor(3) as threads:
        threaded = run_tournament(plan, tmp_path / "threads", threads)
    assert table(pooled) == table(threaded)
    assert all(m.duplicate and m.hands == 400 and m.moments[0].n == 200 for m in pooled.matches)
    assert (tmp_path / "pool" / "matches" / "1-2-001" / "half-2" / "hands.jsonl").is_file()


def test_a_dask_cluster_gives_the_same_table_as_the_local_pool(
    tmp_path: Path, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    distributed = pytest.importorskip("distributed")
    caller = make_bot("caller", CALLER)
    bots = ["builtin:random", str(caller), "builtin:raise"]
    plan = plan_tournament(bots, config(100), matches_per_pair=2, duplicate=True)
    with local_pool(2) as pool:
        local = run_tournament(plan, tmp_path / "local", pool)
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # where the workers unpack shipped bots
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor(pure=False)
        remote = run_tournament(plan, tmp_path / "dask", executor, ship_bots=True)
        # An archive goes to every worker once, and jobs refer to it.
        bundle = BotBundle.pack(caller)
        [sent] = send_once(executor, [bundle])
        assert isinstance(sent, distributed.Future)
        assert len(client.who_has([sent])[sent.key]) == 2
        assert client.gather(sent) == bundle
        # Interrupted on the cluster (Ctrl-C in the parent), then resumed on it.
        calls: list[str] = []

        def interrupt_once(match: Any, progress: TournamentProgress) -> None:
            calls.append(match.match_id)
            if len(calls) == 2:
                raise KeyboardInterrupt

        out = tmp_path / "dask-interrupted"
        first = run_tournament(plan, out, executor, ship_bots=True, on_match=interrupt_once)
        recorded = jsonl_ids(out)
        resumed = run_tournament(plan, out, executor, resume=True, ship_bots=True)
    # Matches that ended while the interrupt was handled are kept and reported too (this
    # plan is short, so that may be all of them); a resume plays the rest, none twice.
    assert first.interrupted and recorded == calls
    ids = jsonl_ids(out)
    assert ids[: len(recorded)] == recorded
    assert resumed.complete and len(ids) == len(set(ids)) == len(plan.matches())
    assert table(resumed) == table(local)
    assert not remote.failures and remote.complete
    assert table(remote) == table(local)
    assert list(tmp_path.glob("pokerbots-bots/*/caller/player.py"))  # it was shipped


def test_other_executors_get_the_archives_themselves(tmp_path: Path, make_bot: MakeBot) -> None:
    bundle = BotBundle.pack(make_bot("caller", CALLER))
    with ThreadPoolExecutor(1) as threads:
        [sent] = send_once(threads, [bundle])
        assert sent is bundle and send_once(threads, []) == []


# -- interruption and resume --------------------------------------------------------


def test_an_interrupted_run_resumes_to_the_uninterrupted_table(tmp_path: Path) -> None:
    plan = plan_tournament(BUILTINS, config(200), matches_per_pair=3)
    with ThreadPoolExecutor(2) as threads:
        reference = run_tournament(plan, tmp_path / "reference", threads)
    out = tmp_path / "interrupted"
    calls = []

    def interrupt_once(match: Any, standings: Any) -> None:
        calls.append(match.match_id)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with ThreadPoolExecutor(1) as threads:
        first = run_tournament(plan, out, threads, on_match=interrupt_once)
    assert first.interrupted and not first.complete
    recorded = jsonl_ids(out)
    assert recorded == calls and 2 <= len(recorded) < 9
    with ThreadPoolExecutor(2) as threads:
        resumed = run_tournament(plan, out, threads, resume=True)
    assert resumed.complete and not resumed.interrupted
    ids = jsonl_ids(out)
    assert ids[: len(recorded)] == recorded and len(ids) == len(set(ids)) == 9
    assert table(resumed) == table(reference)


def test_resume_refuses_another_tournament_and_a_new_run_refuses_a_used_directory(
    tmp_path: Path,
) -> None:
    plan = plan_tournament(BUILTINS[:2], config(20), matches_per_pair=1)
    with ThreadPoolExecutor(1) as threads:
        run_tournament(plan, tmp_path, threads)
        with pytest.raises(TournamentError, match="already holds a tournament"):
            run_tournament(plan, tmp_path, threads)
        other = plan_tournament(BUILTINS[:2], config(20, seed=5), matches_per_pair=1)
        with pytest.raises(TournamentError, match="differs in: master_seed, matches"):
            run_tournament(other, tmp_path, threads, resume=True)
        again = run_tournament(plan, tmp_path, threads, resume=True)
    assert again.complete and jsonl_ids(tmp_path) == ["1-2-001"]


def test_a_torn_last_line_from_a_killed_run_is_cut_off_and_replayed(tmp_path: Path) -> None:
    plan = plan_tournament(BUILTINS, config(50), matches_per_pair=1)
    with ThreadPoolExecutor(1) as threads:
        run_tournament(plan, tmp_path, threads)
    log = tmp_path / MATCHES_FILE
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:2]) + lines[2][:25])  # killed in the middle of a write
    with ThreadPoolExecutor(1) as threads:
        resumed = run_tournament(plan, tmp_path, threads, resume=True)
    assert resumed.complete
    assert log.read_text().splitlines(keepends=True)[:2] == lines[:2]
    assert sorted(jsonl_ids(tmp_path)) == ["1-2-001", "1-3-001", "2-3-001"]


class FailOne(Executor):
    """Runs jobs in threads, except one, which fails as a lost worker would."""

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.inner = ThreadPoolExecutor(2)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if args[0].match_id == self.match_id:
            future: Future[Any] = Future()
            future.set_exception(RuntimeError("the worker was lost"))
            return future
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait, cancel_futures=cancel_futures)


def test_a_failing_match_is_reported_and_the_others_still_play(tmp_path: Path) -> None:
    plan = plan_tournament(BUILTINS, config(50), matches_per_pair=1)
    executor = FailOne("1-3-001")
    result = run_tournament(plan, tmp_path, executor)
    executor.shutdown()
    assert [(f.match_id, f.message) for f in result.failures] == [
        ("1-3-001", "RuntimeError: the worker was lost")
    ]
    assert len(result.matches) == 2 and not result.complete
    with ThreadPoolExecutor(1) as threads:
        assert run_tournament(plan, tmp_path, threads, resume=True).complete


# -- shipping bots to workers without the files ------------------------------------


def test_a_bundle_carries_a_bot_directory_to_a_machine_without_it(
    tmp_path: Path, make_bot: MakeBot
) -> None:
    bot = make_bot("shipped", CALLER, startme=True)
    (bot / "__pycache__").mkdir()
    (bot / "__pycache__" / "junk.pyc").write_bytes(b"junk")
    bundle = BotBundle.pack(bot)
    unpacked = bundle.unpack(tmp_path / "worker")
    assert (
        unpacked.name == "shipped"
        and (unpacked / "player.py").read_text() == (bot / "player.py").read_text()
    )
    assert (unpacked / "sdk").is_dir() and not (unpacked / "sdk").is_symlink()
    assert (unpacked / "sdk" / "bot.py").is_file()
    assert os.access(unpacked / "startme.sh", os.X_OK)
    assert not (unpacked / "__pycache__").exists()
    assert bundle.unpack(tmp_path / "worker") == unpacked  # unpacked once

    plan = plan_tournament([str(bot), "builtin:checkcall"], config(30), matches_per_pair=1)
    [job] = make_jobs(plan, tmp_path / "out", ship_bots=True)
    assert job.bundles[0] is not None and job.bundles[1] is None
    original = bot.rename(tmp_path / "moved")  # the worker does not have the directory
    summary = play_job(job)
    assert summary.hands == 30 and summary.faults == ({}, {})
    assert not summary.interrupted and original.is_dir()
    # The archives may also come apart from the job (sent to the workers once).
    light = replace(job, bundles=(None, None), out_dir=str(tmp_path / "out-2"))
    apart = play_job(light, job.bundles)
    assert (apart.chips, apart.hands, apart.faults) == (summary.chips, 30, ({}, {}))
    missing = play_job(replace(light, out_dir=str(tmp_path / "out-3")))
    assert missing.forfeits[0] is not None  # without them, the directory is missing


# -- the command line -----------------------------------------------------------------


def pokerbots(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, **options)


def test_cli_json_gives_rankings_and_matches_and_plot_writes_charts(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    run = pokerbots(
        "tournament",
        *BUILTINS,
        "--rounds",
        "100",
        "--matches",
        "1",
        "--seed",
        "3",
        "--workers",
        "2",
        "--out",
        str(tmp_path),
        "--json",
        "--plot",
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert set(data["rankings"]) == {"bankroll", "instant_runoff"}
    assert data["rankings"]["bankroll"][0]["bot"] == "raise"
    assert sorted(m["id"] for m in data["matches"]) == ["1-2-001", "1-3-001", "2-3-001"]
    assert data["complete"] is True and data["master_seed"] == 3
    assert (tmp_path / "cross-table.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "matches" / "1-2-001" / "bankroll.png").is_file()


def test_cli_table_output_and_usage_errors(tmp_path: Path) -> None:
    run = pokerbots(
        "tournament",
        *BUILTINS,
        "--rounds",
        "60",
        "--matches",
        "1",
        "--seed",
        "3",
        "--workers",
        "1",
        "--out",
        str(tmp_path / "t"),
    )
    assert run.returncode == 0, run.stderr
    for text in ("Total bankroll", "Bankroll instant run-off", "Cross table", "95% CI"):
        assert text in run.stdout
    cases = [
        (("tournament", "builtin:random"), "at least two bots"),
        (("tournament", "--resume"), "--resume needs --out"),
        (("tournament", "--resume", "--out", str(tmp_path / "none")), "no tournament to resume"),
        (("tournament", *BUILTINS, "--out", str(tmp_path / "t")), "already holds a tournament"),
        (
            ("tournament", *BUILTINS, "--resume", "--out", str(tmp_path / "t"), "--rounds", "61"),
            # The clock follows the hands, so it differs with them.
            "differs in: rules.game_clock, rules.num_rounds",
        ),
    ]
    for args, message in cases:
        failed = pokerbots(*args)
        assert failed.returncode == 2, (args, failed.stderr)
        assert message in failed.stderr and "Traceback" not in failed.stderr, failed.stderr


def test_a_killed_cli_tournament_resumes_without_replaying_a_finished_match(
    tmp_path: Path,
) -> None:
    out = tmp_path / "killed"
    args = [
        "tournament",
        *BUILTINS,
        "--rounds",
        "1500",
        "--matches",
        "4",
        "--seed",
        "12",
        "--workers",
        "1",
        "--out",
        str(out),
    ]
    command = [sys.executable, "-m", "local_runner.cli", *args]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    log = out / MATCHES_FILE
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if log.exists() and log.read_bytes().count(b"\n") >= 2:
                break
            time.sleep(0.02)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the runner and its workers, at once
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    before = log.read_text().splitlines()
    assert 2 <= len(before) < 12, "the run should have been killed part way"
    finished = [json.loads(line)["id"] for line in before]

    def stamps() -> dict[str, int]:
        return {i: (out / "matches" / i / "summary.json").stat().st_mtime_ns for i in finished}

    written = stamps()

    resumed = pokerbots("tournament", "--resume", "--out", str(out), "--json")
    assert resumed.returncode == 0, resumed.stderr
    after = log.read_text().splitlines()
    assert after[: len(before)] == before  # recorded matches stay as they were
    ids = [json.loads(line)["id"] for line in after]
    assert len(ids) == len(set(ids)) == 12  # each match exactly once: none was replayed
    assert stamps() == written  # and their logs were not rewritten

    reference = pokerbots(*args[:-1], str(tmp_path / "reference"), "--json")
    assert reference.returncode == 0, reference.stderr
    resumed_data, reference_data = json.loads(resumed.stdout), json.loads(reference.stdout)
    for key in ("rankings", "cross_table", "bots"):
        assert resumed_data[key] == reference_data[key]
    chips = {m["id"]: m["chips"] for m in reference_data["matches"]}
    assert {m["id"]: m["chips"] for m in resumed_data["matches"]} == chips


def test_plots_explain_how_to_install_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from local_runner.results import plots

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if not installed
    with pytest.raises(plots.PlotUnavailable, match=r"-m pip install -e .*\[plot\]'$"):
        plots.plot_match_bankroll(ROOT / "tests")


def test_a_bot_that_fails_to_build_forfeits_its_matches_and_the_tournament_goes_on(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "player.py").write_text("", encoding="utf-8")
    (broken / "commands.json").write_text(
        json.dumps({"build": ["sh", "-c", "echo no compiler >&2; exit 1"], "run": ["true"]}),
        encoding="utf-8",
    )
    plan = plan_tournament([str(broken), "builtin:random", "builtin:raise"], config(40))
    with ThreadPoolExecutor(2) as threads:
        result = run_tournament(plan, tmp_path / "out", threads)
    assert len(result.matches) == 6  # three pairs, two matches each
    forfeits = [m for m in result.matches if any(reason for reason in m.forfeits)]
    assert len(forfeits) == 4
    for match in forfeits:
        slot = match.players.index("broken")
        assert match.forfeits[slot] is not None
        assert match.forfeits[slot].startswith("build_failed: build exited with status 1")
        assert match.hands == 40 and match.chips[slot] < 0  # every decision a default
    played = next(m for m in result.matches if "broken" not in m.players)
    assert played.forfeits == (None, None)
    lines = (tmp_path / "out" / MATCHES_FILE).read_text().splitlines()
    assert sum('"build_failed: ' in line for line in lines) == 4


def test_the_plan_keeps_where_its_clock_came_from() -> None:
    """A resumed tournament keeps the clock it was planned with: an explicit one is not
    scaled again, and a plan from before the clock followed the hands keeps its own."""
    config = ScrimmageConfig(seed=5).with_overrides(rounds=40, game_clock=3.0)
    plan = plan_tournament(["builtin:random", "builtin:raise"], config, 1)
    data = plan.to_dict()
    assert data["clock_source"] == "explicit" and data["rules"]["game_clock"] == 3.0
    again = TournamentPlan.from_dict(json.loads(json.dumps(data))).config
    assert (
        again.clock_source == "explicit" and again.with_overrides(rounds=80).rules.game_clock == 3
    )
    del data["clock_source"]  # an older tournament.json
    old = TournamentPlan.from_dict(data).config
    assert old.clock_source == "explicit" and old.rules.game_clock == 3.0
    fresh = ScrimmageConfig(seed=5).with_overrides(rounds=40)
    stored = TournamentPlan.from_dict(plan_tournament(["builtin:random"] * 2, fresh, 1).to_dict())
    assert stored.config.clock_source == "scaled" and stored.config.rules.game_clock == 1.2


def test_the_live_display_draws_the_standings_now_and_then_not_after_every_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    compute = TournamentProgress.standings

    def counted(progress: TournamentProgress) -> Any:
        drawn.append(progress.matches)
        return compute(progress)

    monkeypatch.setattr(TournamentProgress, "standings", counted)
    monkeypatch.setattr(cli, "STANDINGS_EVERY", 3600.0)  # once, for this short run
    plan = plan_tournament(BUILTINS, config(20), matches_per_pair=2)
    args = argparse.Namespace(json=False, scheduler=None, resume=False)
    screen = Console(file=io.StringIO(), force_terminal=True, width=100)
    with ThreadPoolExecutor(2) as threads:
        result = cli._play(plan, tmp_path, threads, args, screen)
    assert result.complete and len(result.matches) == 6
    assert drawn == [1]  # the first match's standings, then none within the hour


def test_a_bot_packed_twice_has_one_digest(
    tmp_path: Path, make_bot: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # gzip stamps the time of packing into its header; two packs a few seconds apart (the
    # clock is moved on here) must still be the same archive, so workers unpack it once.
    bot = make_bot("caller", CALLER)
    first = BotBundle.pack(bot)
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 3600)
    second = BotBundle.pack(bot)
    assert second.digest == first.digest and second.data == first.data
    unpacked = second.unpack(tmp_path / "cache")
    assert (unpacked / "player.py").read_bytes() == (bot / "player.py").read_bytes()
