"""What each part of a hand's bookkeeping costs a whole scrimmage: switched off, one at a time.

    python benchmarks/runner_parts.py [--rounds 8] [--only WORDS] [--parts logs,stats,...]
        [--dealer DIR]
    python benchmarks/runner_parts.py --instructions [--hands N] [--only WORDS] [--parts ...]

A profile of the runner misses part of what the hands' logs cost: they are written by a
copy of the runner on another CPU (:mod:`local_runner.runs.log_handoff`), and what the runner
pays for that (packing each hand, a pipe, sharing the machine's caches with the writer) is
spread thin.  This diagnostic measures instead: the same ``pokerbots scrimmage`` runs
with one part of the runner's work replaced by nothing, in interleaved rounds, and the
difference of the medians is that part's cost.  A run with a part switched off is not a
correct match (no logs, no statistics, or every showdown a tie): it is a measurement, never
a way to play.

The parts (``--parts``; ``all`` is the unchanged command, always measured):

* ``logs``: no line of ``gamelog.txt``, ``hands.jsonl`` or ``dealer.log`` is made, kept or
  written (no hand packed or sent to the writer);
* ``nosend``: the hands are packed for the writer and dropped, never sent or written: what
  packing them costs, without the pipe and the writing;
* ``inline``: no writer: the lines are written by the runner itself as each hand ends;
* ``stats``: no per-hand moments for the intervals of ``summary.json``;
* ``curve``: no bankroll curve;
* ``showdown``: no hand is evaluated at a showdown (every one is a tie).

The cases: two copies of the kit's ``skeleton/`` bot (the MIT wire, ``nlhe``, 1000 hands),
and, where the ACPC dealer's build is found (``--dealer`` or ``$POKERBOTS_ACPC_DEALER``,
as for ``anchors.py``), two ACPC ``example_player`` bots in ``acpc-2pn`` (3000 hands).
Like ``anchors.py`` it runs a round 0 first, not counted, that writes the bytecode caches,
and prints the 1-minute load with every round.

``--instructions`` counts instead, under valgrind's callgrind (needs ``valgrind``), the
instructions the runner's main thread executes a hand: the command with ``200 + N`` hands
less the command with 200, over ``N`` (``--hands``, default 1000), so the start and the stop
cancel.  The count moves far less than wall time (repeat runs agree within about 1%: how
often the runner finds a reply already there still depends on timing), so a part's cost
shows even where it is smaller than the rounds' spread of wall time.  It leaves out what
the kernel does for the runner, how warm its caches are, the log writer's process and the
runner's other threads (whose work under valgrind, fifty times slower, follows the clock, not
the hands).  Under
callgrind the bots get no resource limits (valgrind refuses them in a new process) and a
game clock of an hour (the runner's slowness would count against their clocks); the bots run
natively.  The hands go to the log writer in one batch at the end of the match (normally
every 20 ms: the number of batches would follow the machine's speed, fifty times slower under
callgrind).  Bots that draw random numbers make the counts vary a little between runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TIMEOUT = 900.0

sys.path.insert(0, str(HERE))
# The anchors' own ways to make a command's environment and its bots: one owner.
from anchors import _copy_bot, _env, example_players  # noqa: E402

from local_runner.tables.config import Limits  # noqa: E402

#: The parts that can be switched off, each as the attributes it replaces by nothing:
#: (module, attribute path, replacement).  The driver refuses a path that no longer exists,
#: so a renamed function makes this benchmark fail instead of measuring nothing.
PARTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "logs": (
        ("local_runner.runs.log_handoff", "LogHandoff.on_hand", "lambda self, record: None"),
        ("local_runner.runs.writer", "MatchLogWriter.on_hand", "lambda self, record: None"),
        ("local_runner.runs.dealer_log", "DealerLogWriter.on_hand", "lambda self, record: None"),
    ),
    "nosend": (
        ("local_runner.runs.log_handoff", "LogHandoff._send", "lambda self: self._batch.clear()"),
    ),
    "inline": (("local_runner.runs.log_handoff", "LogHandoff._start", "lambda self: None"),),
    "stats": (
        ("local_runner.results.match_stats", "MatchStats.__call__", "lambda self, record: None"),
    ),
    "curve": (("local_runner.results.table", "BankrollCurve.add", "lambda self, deltas: None"),),
    "showdown": (
        (
            "local_runner.engine.match",
            "showdown_ranks",
            "lambda hands, board, folded, values=None: tuple(None if out else 0 for out in folded)",
        ),
    ),
}

#: Run as ``python -c DRIVER PARTS pokerbots-arguments...``: switch the parts off, then run
#: the ``pokerbots`` command as its entry point does.
DRIVER = """
import importlib, sys

PARTS = {parts!r}
for name in filter(None, sys.argv[1].split(",")):
    for module_name, path, replacement in PARTS[name]:
        owner = importlib.import_module(module_name)
        *outer, attribute = path.split(".")
        for step in outer:
            owner = getattr(owner, step)
        if not hasattr(owner, attribute):
            raise SystemExit(f"runner_parts: {{module_name}}.{{path}} no longer exists")
        setattr(owner, attribute, eval(replacement))
sys.argv = ["pokerbots", *sys.argv[2:]]
from local_runner.cli import run
run()
"""


@dataclass
class Case:
    """One scrimmage, measured with each part switched off in turn."""

    name: str
    arguments: list[str]
    """The ``pokerbots`` arguments, without ``--seed`` and ``--out``."""
    walls: dict[str, list[float]] = field(default_factory=dict)
    loads: list[float] = field(default_factory=list)


def run_once(case: Case, parts: str, seed: int, work: Path, env: dict[str, str]) -> float:
    """One whole command with ``parts`` switched off; its wall seconds."""
    out = work / f"{case.name.replace(' ', '-')}-{parts or 'all'}-{seed}"
    driver = DRIVER.format(parts=PARTS)
    argv = [sys.executable, "-c", driver, parts, *case.arguments]
    argv += ["--seed", str(seed), "--out", str(out)]
    start = time.perf_counter()
    done = subprocess.run(
        argv, cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{case.name} with {parts or 'nothing'} off:\n{done.stderr[-2000:]}")
    return wall


def kit_skeleton_case(work: Path) -> Case:
    """Two copies of the kit's starter bot over the MIT wire (its SDK copied in, as a bot
    author's project vendors it)."""
    bots = [str(_copy_bot(ROOT / "skeleton", work / name)) for name in ("skeleton-a", "skeleton-b")]
    return Case("kit skeleton", ["scrimmage", *bots, "--variant", "nlhe", "--rounds", "1000"])


def acpc_case(build: Path, work: Path) -> Case:
    """Two ACPC ``example_player`` bots in heads-up no-limit, started by a ``startme.sh``."""
    _, players = example_players("acpc-2pn", build, work / "acpc-2pn")
    bots = [str(bot) for bot in players]
    return Case("acpc-2pn", ["scrimmage", *bots, "--variant", "acpc-2pn", "--rounds", "3000"])


def measure(cases: Sequence[Case], parts: Sequence[str], rounds: int, work: Path) -> None:
    """Round 0 (not counted), then ``rounds`` interleaved rounds; the order alternates."""
    env = _env(cold=False)
    for number in range(rounds + 1):
        for case in cases:
            order = ["", *parts]
            if number % 2:
                order.reverse()
            load = os.getloadavg()[0]
            walls = {name: run_once(case, name, number, work, env) for name in order}
            print(
                f"round {number} {case.name}: "
                + ", ".join(f"{name or 'all'} {wall:.3f} s" for name, wall in walls.items())
                + f", load {load:.2f}",
                flush=True,
            )
            if number == 0:
                continue
            case.loads.append(load)
            for name, wall in walls.items():
                case.walls.setdefault(name, []).append(wall)


#: What a counted command changes besides the parts switched off, as (module, attribute,
#: replacement) like a part: the hands go to the log writer in one batch at the end, because
#: a batch every 20 ms of wall time would make the count follow the machine's speed.
_COUNTING = {"_one_batch": (("local_runner.runs.log_handoff", "BATCH_SECONDS", "1e9"),)}
#: The config file of a command under callgrind: every resource limit of the bots at 0 (none),
#: the keys read from the kit's own declaration of the ``[limits]`` section.
_NO_LIMITS = "[limits]\n" + "".join(f"{field.name} = 0\n" for field in fields(Limits))
#: The hands of the shorter command of an instruction count (its start and stop cancel).
_BASE_HANDS = 200


def with_rounds(arguments: Sequence[str], hands: int) -> list[str]:
    """``arguments`` with the value after ``--rounds`` replaced by ``hands``.

    >>> with_rounds(["scrimmage", "a", "--rounds", "1000"], 200)
    ['scrimmage', 'a', '--rounds', '200']
    """
    changed = list(arguments)
    changed[changed.index("--rounds") + 1] = str(hands)
    return changed


def main_thread_instructions(out_file: Path) -> int:
    """The instructions of one thread in a callgrind output file (its ``summary:`` line)."""
    for line in out_file.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise RuntimeError(f"{out_file} has no summary line: did callgrind finish?")


def count_once(case: Case, parts: str, hands: int, work: Path, env: dict[str, str]) -> int:
    """The instructions of the runner's main thread in one command of ``hands`` hands with
    ``parts`` switched off, under callgrind (one output file per thread)."""
    config = work / "no-limits.toml"
    config.write_text(_NO_LIMITS, encoding="utf-8")
    label = f"{case.name.replace(' ', '-')}-{parts or 'all'}-{hands}"
    prefix = work / f"callgrind-{label}"
    driver = DRIVER.format(parts={**PARTS, **_COUNTING})
    arguments = with_rounds(case.arguments, hands)
    argv = [
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        f"--callgrind-out-file={prefix}.%p",
        sys.executable,
        "-c",
        driver,
        ",".join(["_one_batch", *filter(None, parts.split(","))]),
        *arguments,
        *("--seed", "1", "--out", str(work / label), "--config", str(config)),
        *("--game-clock", "3600"),
    ]
    command = subprocess.Popen(
        argv,
        cwd=work,
        env={**env, "PYTHONHASHSEED": "0"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, errors = command.communicate(timeout=TIMEOUT * 4)  # (callgrind: fifty times slower)
    except subprocess.TimeoutExpired:
        command.kill()
        command.communicate()
        raise
    if command.returncode != 0:
        raise RuntimeError(
            f"{case.name} with {parts or 'nothing'} off, under callgrind:\n{errors[-2000:]}"
        )
    # The runner is the process valgrind started: its pid names the files; thread 1 is main.
    return main_thread_instructions(Path(f"{prefix}.{command.pid}-01"))


def count_instructions(cases: Sequence[Case], parts: Sequence[str], hands: int, work: Path) -> None:
    """Each case's instructions a hand with everything on and with each part switched off."""
    if shutil.which("valgrind") is None:
        raise SystemExit("runner_parts: --instructions needs valgrind (apt-get install valgrind)")
    env = _env(cold=False)
    print()
    print(
        "| case | part switched off | instructions a hand (the runner's main thread) | "
        "cost of the part | share of all |"
    )
    print("|---|---|---:|---:|---:|")
    for case in cases:
        counts = {}
        for name in ["", *parts]:
            short = count_once(case, name, _BASE_HANDS, work, env)
            long = count_once(case, name, _BASE_HANDS + hands, work, env)
            counts[name] = (long - short) / hands
        whole = counts[""]
        print(f"| {case.name} | (nothing: all) | {whole:,.0f} | | |", flush=True)
        for name in parts:
            cost = whole - counts[name]
            print(
                f"| {case.name} | {name} | {counts[name]:,.0f} | {cost:,.0f} | "
                f"{cost / whole:.1%} |",
                flush=True,
            )


def report(cases: Sequence[Case], parts: Sequence[str]) -> None:
    """Medians, and each part's cost: the median with everything less the median without it."""
    print()
    print("| case | part switched off | median s | cost of the part, ms | share of all | load |")
    print("|---|---|---:|---:|---:|---|")
    for case in cases:
        whole = statistics.median(case.walls[""])
        load = f"{min(case.loads):.2f}-{max(case.loads):.2f}"
        print(f"| {case.name} | (nothing: all) | {whole:.3f} | | | {load} |")
        for name in parts:
            median = statistics.median(case.walls[name])
            cost = whole - median
            print(
                f"| {case.name} | {name} | {median:.3f} | {cost * 1000:.0f} | "
                f"{cost / whole:.1%} | {load} |"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--only", default="", help="the cases whose name contains this")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"among {', '.join(PARTS)}")
    parser.add_argument("--dealer", type=Path, help="the ACPC dealer's build folder")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the runner's instructions a hand under callgrind instead of timing",
    )
    parser.add_argument(
        "--hands", type=int, default=1000, help="--instructions: the hands counted (1000)"
    )
    args = parser.parse_args(argv)
    parts = [name for name in args.parts.split(",") if name]
    unknown = [name for name in parts if name not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {unknown}: choose among {', '.join(PARTS)}")
    dealer = args.dealer or os.environ.get("POKERBOTS_ACPC_DEALER")
    with tempfile.TemporaryDirectory(prefix="runner-parts-") as folder:
        work = Path(folder)
        cases = [kit_skeleton_case(work)]
        build = Path(dealer) if dealer else None
        if build is not None and (build / "example_player").is_file():
            cases.append(acpc_case(build, work))
        else:
            print("acpc-2pn skipped: no ACPC build (give --dealer DIR or $POKERBOTS_ACPC_DEALER)")
        cases = [case for case in cases if args.only in case.name]
        print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs")
        if args.instructions:
            count_instructions(cases, parts, args.hands, work)
            return 0
        measure(cases, parts, args.rounds, work)
        report(cases, parts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
