"""Tournament scaling: 1 against 2 workers, the local pool against Dask, and 30 bots.

    python benchmarks/tournament_scaling.py [--quick] [--repeats N] [--rounds R] [--json]
    python benchmarks/tournament_scaling.py --bots 30 [--quick] [--rounds R] [--json]
    python benchmarks/tournament_scaling.py --three-seat [--quick] [--repeats N] [--rounds R]

The default measures a round robin of four directory bots (two check/call bots and two
random bots from ``benchmarks/bots``, each a real process), 2 matches per pair, three ways
in turn within each repetition: a local process pool of 1 worker, one of 2, and a Dask
``LocalCluster`` of 2 single-threaded worker processes (with the bots shipped as archives,
as ``--scheduler`` does).  A pool's time includes starting it and every bot process, as a
real tournament does; Dask's does not include starting the cluster, which a course does
once for the whole tournament (``dask scheduler``, ``dask worker``), and is printed apart.
The order of the three rotates between repetitions, the figures are medians, and the
1-minute load average is printed with each run, so a noisy shared machine shows; compare
the ratios, not the absolute times, across machines.

``--bots 30`` plays a round robin of 30 directory bots (one match per pair: 435 matches)
through the command line, on a local pool of 2 workers, and measures the peak memory of
the tournament's process, of each pool worker and of the bots (their peak resident set
size, read from ``/proc``, so Linux only).  It interrupts the tournament as Ctrl-C would
(SIGINT to its process group) once a third of the matches are recorded, then resumes it,
and reports how long the resume took to record its first match, its total time, and
whether any match was played twice.

``--three-seat`` measures a tournament of the 3-seat game instead (``acpc-3pl``): four
built-in entrants (random, raise, checkcall, chump), every group of three playing one
duplicate match (six legs), on a local process pool of 2 workers and on a Dask
``LocalCluster`` of 2 single-threaded worker processes, alternating; each wall time
includes starting the pool or the cluster.  The 1-minute load average is printed before
and after each measurement.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from local_runner import ScrimmageConfig, open_executor, plan_tournament, run_tournament
from sdk.rules import Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (where targets.py is, however run)
from targets import TARGETS, Target

BOTS = Path(__file__).resolve().parent / "bots"
ENTRANTS = [BOTS / "checkcall", BOTS / "random", BOTS / "checkcall", BOTS / "random"]
#: The target of each speed ratio this benchmark reports.
RATIO_TARGETS = {"pool_2_over_1": TARGETS["two workers"], "dask_2_over_pool_2": TARGETS["dask"]}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _plan(rounds: int, matches: int) -> Any:
    config = ScrimmageConfig(rules=Rules().replace(num_rounds=rounds), seed=2024)
    return plan_tournament([str(bot) for bot in ENTRANTS], config, matches_per_pair=matches)


def run_once(workers: int, rounds: int, matches: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and hands played for one round robin on ``workers``.

    The CPU seconds are those of the pool's workers and the bots (all reaped at
    the end): if they stay level while the wall time does not halve, the
    machine had no free core, rather than the runner an overhead.
    """
    plan = _plan(rounds, matches)
    with tempfile.TemporaryDirectory() as out:
        cpu = _children_cpu()
        start = time.perf_counter()
        with open_executor(workers) as pool:
            result = run_tournament(plan, Path(out), pool)
        seconds = time.perf_counter() - start
        cpu = _children_cpu() - cpu
    if result.failures or not result.complete:
        raise RuntimeError(f"The benchmark tournament did not finish: {result.failures}.")
    return seconds, cpu, sum(match.hands for match in result.matches)


@contextmanager
def dask_cluster(workers: int) -> Iterator[tuple[Any, float]]:
    """A Dask client on a LocalCluster of ``workers`` single-threaded processes, and the
    seconds it took to start."""
    # An optional extra (pip install -e '.[cluster]'), and untyped.
    distributed: Any = importlib.import_module("distributed")
    start = time.perf_counter()
    with (
        distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client, time.perf_counter() - start


def run_dask_once(client: Any, rounds: int, matches: int) -> tuple[float, int]:
    """Wall seconds and hands of one round robin on the cluster of ``client``, the bots
    shipped to its workers as archives (as ``pokerbots tournament --scheduler`` does)."""
    plan = _plan(rounds, matches)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        result = run_tournament(plan, Path(out), client.get_executor(pure=False), ship_bots=True)
        seconds = time.perf_counter() - start
    if result.failures or not result.complete:
        raise RuntimeError(f"The benchmark tournament did not finish: {result.failures}.")
    return seconds, sum(match.hands for match in result.matches)


THREE_SEAT_ENTRANTS = ["builtin:random", "builtin:raise", "builtin:checkcall", "builtin:chump"]


def run_three_seat_once(executor: str, rounds: int) -> tuple[float, int, tuple[float, float]]:
    """Wall seconds and hands of one 3-seat duplicate tournament on ``executor`` (``pool`` or
    ``dask``), with the 1-minute load average before and after."""
    config = ScrimmageConfig(
        rules=Rules.for_variant("acpc-3pl").replace(num_rounds=rounds), seed=2024
    )
    plan = plan_tournament(THREE_SEAT_ENTRANTS, config, matches_per_pair=1, duplicate=True)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        if executor == "pool":
            with open_executor(2) as pool:
                result = run_tournament(plan, Path(out), pool)
        else:
            import distributed  # an optional extra: pip install -e '.[cluster]'

            with (
                distributed.LocalCluster(
                    n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
                ) as cluster,
                distributed.Client(cluster) as client,
            ):
                result = run_tournament(plan, Path(out), client.get_executor(pure=False))
        seconds = time.perf_counter() - start
    if result.failures or not result.complete:
        raise RuntimeError(f"The benchmark tournament did not finish: {result.failures}.")
    return seconds, sum(match.hands for match in result.matches), (load, os.getloadavg()[0])


def main_three_seat(repeats: int, rounds: int, as_json: bool) -> None:
    """Measure the 3-seat tournament on the pool and on Dask, then print a report."""
    times: dict[str, list[float]] = {"pool": [], "dask": []}
    loads: dict[str, list[tuple[float, float]]] = {"pool": [], "dask": []}
    hands = 0
    for repeat in range(repeats):
        order = ("pool", "dask") if repeat % 2 == 0 else ("dask", "pool")
        for executor in order:
            seconds, hands, load = run_three_seat_once(executor, rounds)
            times[executor].append(seconds)
            loads[executor].append(load)
    medians = {name: statistics.median(values) for name, values in times.items()}
    report = {
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "game": "acpc-3pl",
        "bots": THREE_SEAT_ENTRANTS,
        "matches": 4,
        "legs_per_match": 6,
        "hands": hands,
        "repeats": repeats,
        "median_seconds": {name: round(value, 3) for name, value in medians.items()},
        "hands_per_second": {name: round(hands / value) for name, value in medians.items()},
        "load_average_1min": {
            name: [[round(a, 2), round(b, 2)] for a, b in value] for name, value in loads.items()
        },
        "all_seconds": {name: [round(t, 3) for t in value] for name, value in times.items()},
    }
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"acpc-3pl tournament: 4 built-in bots, 4 groups of three, one duplicate match each "
        f"(6 legs of {rounds} hands), {hands} hands, 2 workers, medians of {repeats}"
    )
    print(f"{'executor':>9} {'seconds':>9} {'hands/s':>9}  load before-after")
    for name in ("pool", "dask"):
        spans = ", ".join(f"{a:.2f}-{b:.2f}" for a, b in loads[name])
        print(f"{name:>9} {medians[name]:>9.2f} {hands / medians[name]:>9.0f}  {spans}")


def _machine(load_before: float) -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def main_scaling(repeats: int, rounds: int, with_dask: bool, as_json: bool) -> None:
    """Measure 1 and 2 pool workers and Dask(2), in turn, then print a report (or JSON)."""
    load_before = os.getloadavg()[0]
    names = ["pool-1", "pool-2", *(["dask-2"] if with_dask else [])]
    times: dict[str, list[float]] = {name: [] for name in names}
    loads: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {"pool-1": [], "pool-2": []}
    hands = 0
    with contextlib.ExitStack() as stack:
        client, cluster_start = stack.enter_context(dask_cluster(2)) if with_dask else (None, 0)
        for repeat in range(repeats):
            order = names[repeat % len(names) :] + names[: repeat % len(names)]
            for name in order:  # the order rotates, so that drift affects each alike
                loads[name].append(os.getloadavg()[0])
                if name == "dask-2":
                    seconds, hands = run_dask_once(client, rounds, matches=2)
                else:
                    seconds, cpu_seconds, hands = run_once(int(name[-1]), rounds, matches=2)
                    cpu[name].append(cpu_seconds)
                times[name].append(seconds)
    medians = {name: statistics.median(values) for name, values in times.items()}
    ratios = {"pool_2_over_1": medians["pool-1"] / medians["pool-2"]}
    if with_dask:
        ratios["dask_2_over_pool_2"] = medians["pool-2"] / medians["dask-2"]
    report = {
        "machine": _machine(load_before),
        "bots": [bot.name for bot in ENTRANTS],
        "matches": 12,
        "hands": hands,
        "repeats": repeats,
        "median_seconds": {name: round(value, 3) for name, value in medians.items()},
        "speed_ratios": {name: round(value, 3) for name, value in ratios.items()},
        # Each ratio against its target (targets.py): a report, never a gate.
        "goals": {
            name: _judge(RATIO_TARGETS[name], ratio, rounds) for name, ratio in ratios.items()
        },
        "hands_per_second": {name: round(hands / value) for name, value in medians.items()},
        "median_cpu_seconds": {name: round(statistics.median(v), 3) for name, v in cpu.items()},
        "load_average_1min_at_start": {
            name: [round(load, 2) for load in values] for name, values in loads.items()
        },
        "dask_cluster_start_seconds": round(cluster_start, 3) if with_dask else None,
        "all_seconds": {name: [round(t, 3) for t in values] for name, values in times.items()},
    }
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"4-bot round robin, 12 matches, {hands} hands, medians of {repeats} "
        f"({os.cpu_count()} CPUs, Python {platform.python_version()}; load average "
        f"{load_before:.2f} before and {os.getloadavg()[0]:.2f} after: other work skews this)"
    )
    print(f"{'executor':>8} {'seconds':>9} {'hands/s':>9} {'CPU s':>8}  load at each start")
    for name in names:
        spent = f"{statistics.median(cpu[name]):>8.2f}" if name in cpu else f"{'-':>8}"
        starts = ", ".join(f"{load:.2f}" for load in loads[name])
        print(f"{name:>8} {medians[name]:>9.2f} {hands / medians[name]:>9.0f} {spent}  {starts}")
    print(
        f"pool: 2 workers {ratios['pool_2_over_1']:.2f}x as fast as 1 (target "
        f"{report['goals']['pool_2_over_1']}; it is set for an otherwise idle machine)"
    )
    if with_dask:
        print(
            f"Dask, 2 workers: {ratios['dask_2_over_pool_2']:.2f}x as fast as the pool of 2 "
            f"(target {report['goals']['dask_2_over_pool_2']}; the cluster took "
            f"{cluster_start:.2f} s to start, once, not counted)"
        )


def _judge(target: Target, ratio: float, rounds: int) -> str:
    """``ratio`` against ``target``, if matches of ``rounds`` hands are what it is set for."""
    return target.against_goal(ratio) if target.judges(rounds) else target.not_judged(rounds)


# -- 30 bots: memory and resume -------------------------------------------------------


def _proc_status(pid: int) -> dict[str, int] | None:
    """VmRSS and VmHWM (peak resident set) of ``pid`` in bytes, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) * 1024
    return found if len(found) == 2 else None


def _children(pid: int) -> list[int]:
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return [int(c) for task in tasks for c in (task / "children").read_text().split()]
    except OSError:
        return []


class MemorySampler:
    """Samples a process tree every 0.2 s: the peak of the root (the tournament), of each
    direct child (a pool worker) and of any deeper process (a bot), the peak of the
    tree's total resident set, and the root's own CPU time (a few tenths low at most)."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.peaks: dict[str, int] = {"tournament": 0, "worker": 0, "bot": 0, "tree_total": 0}
        self.cpu_seconds = 0.0  # the root's own, as last seen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = Path(f"/proc/{self.root}/stat").read_text().rsplit(")", 1)[1].split()
                ticks = int(fields[11]) + int(fields[12])  # utime and stime
                self.cpu_seconds = ticks / os.sysconf("SC_CLK_TCK")
            total = 0
            layer, kind = [self.root], "tournament"
            while layer:
                following = []
                for pid in layer:
                    status = _proc_status(pid)
                    if status is not None:
                        total += status["VmRSS"]
                        self.peaks[kind] = max(self.peaks[kind], status["VmHWM"])
                    following += _children(pid)
                layer, kind = following, ("worker" if kind == "tournament" else "bot")
            self.peaks["tree_total"] = max(self.peaks["tree_total"], total)

    def stop(self) -> dict[str, int]:
        """Stop sampling; the peaks in bytes."""
        self._stop.set()
        self._thread.join()
        return self.peaks


def _recorded(out: Path) -> list[str]:
    try:
        lines = (out / "matches.jsonl").read_text().splitlines()
    except FileNotFoundError:
        return []
    return [json.loads(line)["id"] for line in lines if line.endswith("}")]


def _cli(arguments: list[str], errors: Path) -> subprocess.Popen[bytes]:
    """``pokerbots tournament ARGUMENTS`` in a session of its own (so that SIGINT to its
    group is Ctrl-C in a terminal), its standard error into the file ``errors``."""
    command = [sys.executable, "-m", "local_runner.cli", "tournament", *arguments]
    with errors.open("ab") as sink:
        return subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=sink, start_new_session=True
        )


def main_many(bots: int, rounds: int, as_json: bool) -> None:
    """A round robin of ``bots`` directory bots through the command line: peak memory, then
    an interrupt after a third of the matches, and the resume."""
    load_before = os.getloadavg()[0]
    entrants = [str(ENTRANTS[i % len(ENTRANTS)]) for i in range(bots)]
    total = bots * (bots - 1) // 2
    common = ["--rounds", str(rounds), "--matches", "1", "--seed", "7", "--workers", "2"]
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "tournament"
        errors = Path(scratch) / "stderr.txt"
        first = _cli([*entrants, *common, "--out", str(out)], errors)
        sampler = MemorySampler(first.pid)
        started = time.perf_counter()
        while len(_recorded(out)) < total // 3 and first.poll() is None:
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGINT)
        first.wait()
        stopped = time.perf_counter()
        peaks = sampler.stop()
        first_cpu = sampler.cpu_seconds
        before = _recorded(out)
        resume_started = time.perf_counter()
        second = _cli(["--resume", "--out", str(out), "--workers", "2"], errors)
        sampler = MemorySampler(second.pid)
        first_new = None
        while second.poll() is None:
            if first_new is None and len(_recorded(out)) > len(before):
                first_new = time.perf_counter() - resume_started
            time.sleep(0.05)
        resumed = time.perf_counter() - resume_started
        resume_peaks = sampler.stop()
        after = _recorded(out)
        results = json.loads((out / "results.json").read_text())
        logs = sum(f.stat().st_size for f in (out / "matches").rglob("*") if f.is_file())
        messages = errors.read_text(errors="replace")
    if first.returncode != 130 or second.returncode != 0 or not results["complete"]:
        raise RuntimeError(
            f"The tournament was not interrupted and resumed as planned (exit {first.returncode}, "
            f"then {second.returncode}): {messages}"
        )
    mib = {name: round(value / 2**20, 1) for name, value in peaks.items()}
    report = {
        "machine": _machine(load_before),
        "bots": bots,
        "matches": total,
        "hands_per_match": rounds,
        "first_run": {
            "exit_status": first.returncode,
            "recorded": len(before),
            "seconds_until_stopped": round(stopped - started, 2),
            "tournament_process_cpu_seconds": round(first_cpu, 2),
        },
        "peak_memory_mib": mib,
        "resume": {
            "exit_status": second.returncode,
            "seconds_to_first_new_match": None if first_new is None else round(first_new, 2),
            "seconds": round(resumed, 2),
            "matches_played": len(after) - len(before),
            "replayed": len(after) - len(set(after)),
            "kept_the_first_run": after[: len(before)] == before,
            "peak_memory_mib": {k: round(v / 2**20, 1) for k, v in resume_peaks.items()},
            "tournament_process_cpu_seconds": round(sampler.cpu_seconds, 2),
        },
        "logs_bytes_per_match": round(logs / total),
    }
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{bots}-bot round robin: {total} matches of {rounds} hands, 2 workers, through the "
        f"command line (load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after)"
    )
    print(
        f"peak memory (MiB): tournament {mib['tournament']}, largest worker {mib['worker']}, "
        f"largest bot {mib['bot']}, whole tree at once {mib['tree_total']}"
    )
    print(
        f"Ctrl-C after {stopped - started:.1f} s: exit {first.returncode}, "
        f"{len(before)} of {total} matches recorded; the tournament's own process used "
        f"{first_cpu:.1f} CPU s"
    )
    print(
        f"resume: first new match after {first_new or 0:.2f} s, done in {resumed:.1f} s, "
        f"{len(after) - len(before)} matches played, {len(after) - len(set(after))} replayed, "
        f"exit {second.returncode}"
    )
    print(f"logs: {logs / total / 1024:.0f} KiB per match")


def main() -> None:
    """Measure, then print a small report (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and one repeat (CI)")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--rounds", type=int, help="hands per match (default 500; 100 with --bots)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask cluster")
    parser.add_argument("--bots", type=int, help="memory and resume of a round robin of N bots")
    parser.add_argument(
        "--three-seat",
        action="store_true",
        help="an acpc-3pl duplicate tournament on the pool and on Dask",
    )
    args = parser.parse_args()
    if args.bots:
        main_many(args.bots, args.rounds or (20 if args.quick else 100), args.json)
        return
    repeats, rounds = (1, 150) if args.quick else (args.repeats, args.rounds or 500)
    if args.three_seat:
        main_three_seat(repeats, rounds, args.json)
        return
    with_dask = not args.no_dask and importlib.util.find_spec("distributed") is not None
    main_scaling(repeats, rounds, with_dask, args.json)


if __name__ == "__main__":
    main()
