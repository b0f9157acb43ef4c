"""The kit beside the engines it replaces: the real MIT engines and the real ACPC dealer.

    python benchmarks/anchors.py [--engines base=PATH,2025=PATH | --mirrors DIR]
        [--dealer DIR] [--rounds 5] [--hands 1000] [--acpc-hands 3000] [--only WORDS] [--quick]
        [--cold] [--spread] [--also PYTHON] [--split]

Each case plays the same bots twice, once under an anchor and once under the kit's whole
command (``pokerbots scrimmage ...``), in interleaved rounds (the order alternates from
round to round), and reports medians:

* ``kit skeleton``: two copies of the kit's ``skeleton/`` on the MIT base engine
  (``python engine.py``) and in ``pokerbots scrimmage A B --rounds 1000``;
* ``MIT skeleton YEAR``: two copies of the year's unchanged ``python_skeleton`` on that
  year's ``engine.py`` and in ``pokerbots scrimmage A B --variant V`` (base and every season
  the kit declares);
* ``acpc-2pl``, ``acpc-2pn``, ``acpc-3pl``: the ACPC server's ``example_player`` (one per
  seat, each behind a two-line ``startme.sh``) under the real ``dealer`` and in
  ``pokerbots scrimmage --variant acpc-...``; both play the kit's declaration of the game,
  written out as a GAMEDEF file for the dealer and the players.

The kit runs as users run it: with its defaults, so the runner and the bots share one CPU
while they take turns (``[runner] share_cpu``, ``docs/configuration.md``).  ``--spread`` adds a
side to every case, the kit with ``share_cpu = false`` (every process free to run on
any CPU, as the anchors' are).  ``--also PYTHON`` adds another installation of the kit as a
side, the one that interpreter imports (a virtualenv's ``bin/python``, say one where the kit
was installed with its engine compiled, ``POKERBOTS_COMPILE=1 pip install .``), named by what
its ``pokerbots --version`` says of its engine.  Every side plays the same bots in the same
rounds, and a second table compares each with the kit.

Engines are extracted at run time from a checkout or a bare git copy (``git archive HEAD``);
nothing of MIT's is kept in this repository.  Without ``--engines``, they are looked up
under ``--mirrors`` (default ``$POKERBOTS_MIT_MIRRORS``, else ``../.mirror`` beside the
repository) as ``engine``, ``engine-YEAR`` or ``mitpokerbots+engine[-YEAR]``, each a
checkout, a bare repository, or a folder ``repo`` holding either.  The dealer is
``--dealer DIR``, else ``$POKERBOTS_ACPC_DEALER``, else ``../acpc``: a folder with the built
``dealer`` and ``example_player`` (``../shared/tools/build-acpc-dealer.sh`` builds them).
A case whose anchor is missing is skipped with a sentence saying what to set; the exit
status is 0 unless a match itself failed (CI prints this as a report, never a gate).

**The start and the hands apart.** ``--split`` also plays every case with one hand, in the
same rounds (a twin named "..., 1 hand"), and a third table gives each command's start (the
median one-hand command) and its time for each further hand (the median whole command less
that start, over the hands after the first), for the anchor, the kit and every side: a ratio
that misses its goal says there whether the start or the hands miss it.

**Goals.** Each case's median ratio is judged against the kit's target for it
(``targets.py``: at least 1.5 for two kit skeletons, 1.2 for two MIT skeletons, 1.0 in each
ACPC game), in a ``goal`` column of both tables: "met" or "not met" for that run alone.  A
case played with fewer hands than its goal is set for (``--quick``, ``--hands``) is shown
"not judged": the start weighs more in a short match.

**CPU.** For every measured command the benchmark waits for the top process to exit without
reaping it (``waitid(..., WNOWAIT)``), reads its ``/proc/PID/stat`` while it is a zombie,
then reaps it with ``wait4``.  ``utime + stime`` of that stat is the runner's own CPU, all
its threads, none of its children ("runner CPU"); ``cutime + cstime`` is the CPU of every
process the runner started and waited for: the bots (and the shells of their
``startme.sh``), and any helper the runner itself ran ("children").  Clock ticks are
1/100 s, so a figure is good to about 10 ms per match.  A process the runner did not reap
itself (a bot's own grandchild) is counted nowhere.  The ACPC dealer starts no process:
its players are started by this script, and their CPU is read from their own ``wait4``.
Both CPU figures are the whole command's, start-up included, divided by the hands.

**Bytecode caches.** A bot author runs the kit and the engine many times, with Python's
bytecode caches written after the first run; so every process may write and use them here,
and a round 0, not counted, warms them for the kit, the engines and the bots alike.
``--cold`` measures instead with no caches at all (``PYTHONDONTWRITEBYTECODE=1``, no round
0), as from a read-only checkout: every process then compiles what it imports, which costs
the kit, with more modules than an engine's one file, more.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "scripts"))

# How an MIT engine copy is made and started: the conformance script's, the one owner.
from mit_conformance import PRELUDES  # noqa: E402
from mit_conformance import export as extract  # noqa: E402

from sdk.gamedef import ACPC_GAMES  # noqa: E402
from sdk.games import SEASONS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (a test loads this file by path)
from targets import TARGETS, Target  # noqa: E402

#: The game each MIT engine plays, as the kit names it (base: no-limit hold'em).
YEARS: dict[str, str] = {"base": "nlhe", **{season[4:]: game for season, game in SEASONS.items()}}
#: What an engine imports that may be missing (eval7 unless named; the 2020 prior draws with
#: numpy; the 2026 engine uses pkrbot instead of eval7).
NEEDS = {"2020": ("eval7", "numpy"), "2026": ("pkrbot",)}
ACPC_VARIANTS = ("acpc-2pl", "acpc-2pn", "acpc-3pl")
TICK = os.sysconf("SC_CLK_TCK")
TIMEOUT = 900.0


@dataclass
class Run:
    """One measured command: wall seconds, CPU seconds, the 1-minute load around it."""

    wall: float
    runner_cpu: float
    children_cpu: float
    load_before: float
    load_after: float


@dataclass(frozen=True)
class KitSide:
    """A further way to run the kit beside the anchor and the kit itself: ``command`` is its
    ``pokerbots`` (as argv), ``extra`` what it adds to every scrimmage's arguments."""

    label: str
    command: tuple[str, ...]
    extra: tuple[str, ...] = ()


class KitRunner(Protocol):
    """Runs the kit's command once, for ``seed``, as ``side`` runs it (None: the kit itself)."""

    def __call__(self, seed: int, side: KitSide | None) -> Run: ...


@dataclass
class Case:
    """One row: a name, the hands, and how to run its anchor and the kit once (by seed)."""

    name: str
    hands: int
    anchor_name: str
    anchor: Callable[[int], Run]
    kit: KitRunner
    sides: tuple[KitSide, ...] = ()
    """The further sides (``--spread``, ``--also``), each played in every round."""
    target: Target | None = None
    """The goal for anchor time / kit time (``targets.py``), reported, never enforced."""
    anchor_runs: list[Run] = field(default_factory=list)
    kit_runs: list[Run] = field(default_factory=list)
    side_runs: dict[str, list[Run]] = field(default_factory=dict)


def _load() -> float:
    return os.getloadavg()[0]


def _stat_cpu(pid: int) -> tuple[float, float]:
    """Own (utime+stime) and reaped children's (cutime+cstime) CPU seconds of a process."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / TICK
    children = (int(fields[13]) + int(fields[14])) / TICK
    return own, children


def _finish(process: subprocess.Popen[bytes], timeout: float) -> tuple[float, float, int]:
    """Wait for a process to exit, read its CPU as a zombie, reap it; (own, children, rc)."""
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
    finally:
        timer.cancel()
    own, children = _stat_cpu(process.pid)
    _, status, _ = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return own, children, process.returncode


def run_command(argv: list[str], cwd: Path, env: dict[str, str], log: Path) -> Run:
    """Run one whole command, its output into ``log``; its wall time and CPU split."""
    before = _load()
    with log.open("wb") as output:
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=output
        )
        own, children, status = _finish(process, TIMEOUT)
        wall = time.perf_counter() - start
    if status != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise RuntimeError(f"{' '.join(argv)} exited {status} in {cwd}:\n{tail}")
    return Run(wall, own, children, before, _load())


def _env(cold: bool) -> dict[str, str]:
    """This interpreter's folder first on PATH: bots and engines run ``python3`` from it.

    With ``cold``, no process writes bytecode caches, so every one compiles what it imports
    from source (as from a read-only checkout); otherwise caches are written and used, as on
    a bot author's machine after the first run.
    """
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = {**os.environ, "PATH": path}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cold:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


# --- MIT engines -------------------------------------------------------------------------


def git_dir(source: Path) -> Path | None:
    """The git directory or work tree an engine copy is read from, or None."""
    for candidate in (source, source / "repo"):
        if (candidate / "engine.py").is_file():
            return candidate
        if (candidate / ".git").is_dir():
            return candidate / ".git"
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def find_engines(mirrors: Path | None) -> dict[str, Path]:
    """Engine copies under a mirrors folder, by year ('base' for mitpokerbots/engine)."""
    found: dict[str, Path] = {}
    if mirrors is None or not mirrors.is_dir():
        return found
    for year in [*YEARS, "2021"]:
        suffix = "" if year == "base" else f"-{year}"
        for name in (f"mitpokerbots+engine{suffix}", f"engine{suffix}"):
            source = git_dir(mirrors / name)
            if source is not None:
                found[year] = source
                break
    return found


def _copy_bot(source: Path, destination: Path) -> Path:
    shutil.copytree(
        source, destination, ignore=shutil.ignore_patterns("__pycache__", "tests", "*.log")
    )
    return destination


def mit_case(
    name: str,
    year: str,
    engine: Path,
    bot: Path,
    hands: int,
    work: Path,
    env: dict[str, str],
    sides: Sequence[KitSide] = (),
    target: Target | None = None,
) -> Case:
    """A case: two copies of ``bot`` on the year's engine, and in the kit's scrimmage (and
    as each of ``sides`` runs it), judged against ``target``."""
    _copy_bot(bot, engine / "bot_a")
    _copy_bot(bot, engine / "bot_b")
    with (engine / "config.py").open("a", encoding="utf-8") as config:
        config.write(
            '\nPLAYER_1_NAME = "A"\nPLAYER_1_PATH = "./bot_a"\n'
            'PLAYER_2_NAME = "B"\nPLAYER_2_PATH = "./bot_b"\n'
            f"NUM_ROUNDS = {hands}\n"
        )
    prelude = PRELUDES.get(year)
    launch = ["engine.py"]
    if prelude is not None:
        launch = [
            "-c",
            prelude + "import runpy\nrunpy.run_path('engine.py', run_name='__main__')\n",
        ]

    def anchor(seed: int) -> Run:
        # The engine deals from its own unseeded shuffle; the seed only names the round.
        run = run_command(
            [sys.executable, *launch], engine, env, work / f"{_slug(name)}-{seed}.mit.log"
        )
        gamelog = (engine / "gamelog.txt").read_text(encoding="utf-8", errors="replace")
        played = gamelog.count("\nRound #") + gamelog.startswith("Round #")
        if played != hands:
            raise RuntimeError(f"{name}: the MIT engine played {played} hands, not {hands}")
        return run

    def kit(seed: int, side: KitSide | None) -> Run:
        tag = "kit" if side is None else _slug(side.label)
        out = work / f"{_slug(name)}-{seed}-{tag}"
        log = work / f"{_slug(name)}-{seed}.{tag}.log"
        bots = [engine / "bot_a", engine / "bot_b"]
        return _kit_scrimmage(bots, YEARS[year], hands, seed, out, env, log, name, side)

    return Case(name, hands, f"MIT {year} engine", anchor, kit, tuple(sides), target)


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name)


def _pokerbots() -> list[str]:
    """The kit's command, as installed beside this interpreter (else run as a module)."""
    script = Path(sys.executable).parent / "pokerbots"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "local_runner.cli"]


def _kit_scrimmage(
    bots: Sequence[Path],
    variant: str,
    hands: int,
    seed: int,
    out: Path,
    env: dict[str, str],
    log: Path,
    label: str,
    side: KitSide | None = None,
) -> Run:
    """One whole ``pokerbots scrimmage`` of ``bots`` (run from ``out``'s folder), checked to
    have played every hand without a fault; as ``side`` runs it, if given."""
    command, extra = (tuple(_pokerbots()), ()) if side is None else (side.command, side.extra)
    argv = [*command, "scrimmage", *map(str, bots), "--variant", variant]
    argv += ["--rounds", str(hands), "--seed", str(seed), "--out", str(out), *extra]
    run = run_command(argv, out.parent, env, log)
    _check_kit(out, hands, label)
    return run


def spread_side(work: Path) -> KitSide:
    """The kit's command with ``share_cpu = false`` (a config file in ``work``): the side
    ``--spread`` adds to every case."""
    config = work / "spread.toml"
    config.write_text("[runner]\nshare_cpu = false\n", encoding="utf-8")
    return KitSide("share_cpu = false", tuple(_pokerbots()), ("--config", str(config)))


def other_kit_side(python: Path, env: dict[str, str]) -> KitSide:
    """The kit that ``python`` imports, named by its engine (``pokerbots --version``): the
    side ``--also`` adds.  Raises ValueError, saying why, when that interpreter has no kit."""
    command = (str(python), "-m", "local_runner.cli")
    try:
        done = subprocess.run(
            [*command, "--version"], env=env, capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise ValueError(f"--also {python}: cannot run it ({error})") from None
    said = done.stdout.splitlines()
    engine = next(
        (line.split(":", 1)[1].strip() for line in said if line.startswith("engine:")), ""
    )
    if done.returncode != 0 or not engine:
        answer = (done.stderr or done.stdout).strip()[-300:]
        raise ValueError(
            f"--also {python}: that interpreter does not run the kit ({' '.join(command)} "
            f"--version said: {answer}); give the python of a virtualenv where pokerbots-kit "
            "is installed"
        )
    return KitSide(f"also: {engine}", command)


def _check_kit(out: Path, hands: int, name: str) -> None:
    """The kit's match played every hand, without a fault."""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    played = summary.get("rounds")
    if played != hands:
        raise RuntimeError(f"{name}: the kit played {played} hands, not {hands} ({out})")
    for player in summary["players"]:
        faults = {kind: n for kind, n in player.get("faults", {}).items() if n}
        if faults or player.get("start_failure"):
            raise RuntimeError(f"{name}: {player['name']} faulted in the kit: {faults} ({out})")


# --- the ACPC dealer -----------------------------------------------------------------------


def example_players(variant: str, build: Path, folder: Path) -> tuple[Path, list[Path]]:
    """``variant``'s game definition file and one bot folder per seat in ``folder`` (made
    here), each a ``startme.sh`` that runs the ACPC ``example_player`` of ``build``."""
    folder.mkdir()
    game = ACPC_GAMES[variant]
    gamefile = folder / f"{variant}.game"
    gamefile.write_text(game.to_text(), encoding="ascii")
    players = []
    for seat in range(game.num_players):
        bot = folder / f"example-{seat + 1}"
        bot.mkdir()
        startme = bot / "startme.sh"
        startme.write_text(
            f'#!/bin/sh\nexec "{build / "example_player"}" "{gamefile}" "$1" "$2"\n',
            encoding="utf-8",
        )
        startme.chmod(0o755)
        players.append(bot)
    return gamefile, players


def acpc_case(
    variant: str,
    build: Path,
    hands: int,
    work: Path,
    env: dict[str, str],
    sides: Sequence[KitSide] = (),
) -> Case:
    """A case: the ACPC example_player in every seat, under the real dealer and the kit (and
    as each of ``sides`` runs it)."""
    folder = work / variant
    gamefile, players = example_players(variant, build, folder)
    seats = len(players)

    def anchor(seed: int) -> Run:
        return dealer_match(build, gamefile, seats, hands, seed, folder)

    def kit(seed: int, side: KitSide | None) -> Run:
        tag = "kit" if side is None else _slug(side.label)
        out, log = folder / f"{tag}-{seed}", folder / f"{tag}-{seed}.log"
        return _kit_scrimmage(players, variant, hands, seed, out, env, log, variant, side)

    return Case(variant, hands, "ACPC dealer", anchor, kit, tuple(sides), TARGETS["acpc"])


def dealer_match(build: Path, gamefile: Path, seats: int, hands: int, seed: int, cwd: Path) -> Run:
    """One match on the real dealer (``-q``, its log on): from its start to the last exit."""
    names = [f"example-{seat + 1}" for seat in range(seats)]
    argv = [str(build / "dealer"), f"bench-{seed}", str(gamefile), str(hands), str(seed), *names]
    before = _load()
    start = time.perf_counter()
    dealer = subprocess.Popen(
        [*argv, "-q", "--start_timeout", "20000"],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    if len(ports) != seats:
        dealer.kill()
        dealer.wait()
        raise RuntimeError(f"the dealer printed {ports!r}, not {seats} ports")
    players = [
        subprocess.Popen(
            [str(build / "example_player"), str(gamefile), "127.0.0.1", port.decode()],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    dealer.stdout.read()
    own, _, status = _finish(dealer, TIMEOUT)
    children = 0.0
    for player in players:
        _, _, usage = os.wait4(player.pid, 0)
        player.returncode = 0
        children += usage.ru_utime + usage.ru_stime
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"the dealer exited {status}")
    log = (cwd / f"bench-{seed}.log").read_text(encoding="ascii", errors="replace")
    played = sum(line.startswith("STATE:") for line in log.splitlines())
    if played != hands:
        raise RuntimeError(f"the dealer's log has {played} hands, not {hands}")
    return Run(wall, own, children, before, _load())


# --- the report ----------------------------------------------------------------------------


def _median(values: list[float]) -> float:
    return statistics.median(values)


def report(cases: list[Case]) -> None:
    """The table: medians, ratios anchor/kit with their spread, CPU per hand, the load."""
    print()
    print(
        "| case | hands | anchor | anchor s | kit s | anchor/kit (min-max) | goal "
        "| runner CPU µs/hand: anchor | kit | children CPU µs/hand: anchor | kit | load |"
    )
    print("|---|---:|---|---:|---:|---|---|---:|---:|---:|---:|---|")
    for case in cases:
        if not case.anchor_runs:
            continue
        ratios = [a.wall / k.wall for a, k in zip(case.anchor_runs, case.kit_runs, strict=True)]
        anchor = _median([r.wall for r in case.anchor_runs])
        kit = _median([r.wall for r in case.kit_runs])
        loads = [x for r in case.anchor_runs + case.kit_runs for x in (r.load_before, r.load_after)]

        def per_hand(runs: list[Run], attr: str, hands: int = case.hands) -> str:
            return f"{_median([getattr(r, attr) for r in runs]) / hands * 1e6:,.0f}"

        print(
            f"| {case.name} | {case.hands} | {case.anchor_name} | {anchor:.2f} | {kit:.2f} "
            f"| {anchor / kit:.2f} ({min(ratios):.2f}-{max(ratios):.2f}) "
            f"| {_goal(case, anchor / kit)} "
            f"| {per_hand(case.anchor_runs, 'runner_cpu')} "
            f"| {per_hand(case.kit_runs, 'runner_cpu')} "
            f"| {per_hand(case.anchor_runs, 'children_cpu')} "
            f"| {per_hand(case.kit_runs, 'children_cpu')} "
            f"| {min(loads):.2f}-{max(loads):.2f} |"
        )
    sided = [case for case in cases if case.side_runs and case.anchor_runs]
    if sided:
        print(
            "\n| case | side | kit s | side s | anchor/kit | anchor/side (min-max) | goal "
            "| side/kit | runner CPU µs/hand: kit | side |"
        )
        print("|---|---|---:|---:|---:|---|---|---:|---:|---:|")
    for case in sided:
        kit = _median([r.wall for r in case.kit_runs])
        anchor = _median([r.wall for r in case.anchor_runs])
        kit_cpu = _median([r.runner_cpu for r in case.kit_runs]) / case.hands * 1e6
        for label, runs in case.side_runs.items():
            side = _median([r.wall for r in runs])
            ratios = [a.wall / r.wall for a, r in zip(case.anchor_runs, runs, strict=True)]
            side_cpu = _median([r.runner_cpu for r in runs]) / case.hands * 1e6
            print(
                f"| {case.name} | {label} | {kit:.2f} | {side:.2f} | {anchor / kit:.2f} "
                f"| {anchor / side:.2f} ({min(ratios):.2f}-{max(ratios):.2f}) "
                f"| {_goal(case, anchor / side)} "
                f"| {side / kit:.2f} | {kit_cpu:,.0f} | {side_cpu:,.0f} |"
            )
    split_table(cases)
    print(
        "\nTimes are whole commands, medians of interleaved rounds; anchor/kit above 1 means "
        "the kit is faster. Runner CPU: the top process alone (the engine, the dealer, "
        "`pokerbots`), start-up included; children: the bots it started and reaped (for the "
        "dealer, the players this script started; for the kit, also the copy of the runner "
        "that writes its logs while a match shares a CPU). Goal: the kit's target for the "
        "median ratio (benchmarks/targets.py), judged on this run alone; a report, never a "
        "gate."
    )


def split_table(cases: list[Case]) -> None:
    """``--split``'s table: for each case with a one-hand twin, the start (the median one-hand
    command) and the time of each further hand (the median whole command less that start,
    over ``hands - 1``), of the anchor against the kit and against every side."""
    twins = {case.name: case for case in cases if case.name.endswith(ONE_HAND)}
    pairs = [
        (case, twins[case.name + ONE_HAND])
        for case in cases
        if case.name + ONE_HAND in twins and case.anchor_runs and case.hands > 1
    ]
    pairs = [(case, twin) for case, twin in pairs if twin.anchor_runs]
    if not pairs:
        return
    print(
        "\n| case | kit | start s: anchor | kit | anchor/kit "
        "| µs a hand after the first: anchor | kit | anchor/kit |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for case, twin in pairs:
        start = _median([r.wall for r in twin.anchor_runs])
        hand = (_median([r.wall for r in case.anchor_runs]) - start) / (case.hands - 1)
        kits = [("kit", case.kit_runs, twin.kit_runs)]
        kits += [
            (label, runs, twin.side_runs.get(label, [])) for label, runs in case.side_runs.items()
        ]
        for label, runs, short in kits:
            if not runs or not short:
                continue
            kit_start = _median([r.wall for r in short])
            kit_hand = (_median([r.wall for r in runs]) - kit_start) / (case.hands - 1)
            print(
                f"| {case.name} | {label} | {start:.3f} | {kit_start:.3f} "
                f"| {start / kit_start:.2f} | {hand * 1e6:,.0f} | {kit_hand * 1e6:,.0f} "
                f"| {_ratio(hand, kit_hand)} |"
            )


def _ratio(anchor: float, kit: float) -> str:
    """``anchor / kit``, or "-" when the kit's figure is not above zero (noise in a short run)."""
    return f"{anchor / kit:.2f}" if kit > 0 else "-"


def _goal(case: Case, ratio: float) -> str:
    """The case's goal and whether ``ratio`` meets it ("-" for a case without one)."""
    if case.target is None:
        return "-"
    if not case.target.judges(case.hands):
        return case.target.not_judged(case.hands)
    return case.target.against_goal(ratio)


def _engines_arg(text: str) -> dict[str, Path]:
    engines = {}
    for item in filter(None, text.split(",")):
        year, _, path = item.partition("=")
        if year not in YEARS and year != "2021":
            raise argparse.ArgumentTypeError(f"{year!r}: give YEAR=PATH, YEAR among {list(YEARS)}")
        engines[year] = Path(path)
    return engines


def main(argv: list[str] | None = None) -> int:
    """Build the cases the anchors allow, measure them interleaved, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engines", type=_engines_arg, help="YEAR=PATH,... (base, 2020, ...)")
    parser.add_argument("--mirrors", type=Path, help="a folder of fetched engine mirrors")
    parser.add_argument("--dealer", type=Path, help="a folder with the built dealer")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--hands", type=int, default=1000, help="hands of an MIT case")
    parser.add_argument("--acpc-hands", type=int, default=3000, help="hands of an ACPC case")
    parser.add_argument(
        "--only",
        type=lambda text: [part for part in text.split(",") if part],
        help="run only the cases whose name contains one of these words (comma-separated)",
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="no bytecode caches (every process compiles from source) and no warm-up round",
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="also run the kit with share_cpu = false (every CPU free), as another side",
    )
    parser.add_argument(
        "--also",
        type=Path,
        action="append",
        default=[],
        metavar="PYTHON",
        help="also run the kit that this interpreter imports (e.g. a virtualenv with the "
        "compiled engine), as another side; may be given more than once",
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="also play every case with one hand, and report the start and each further hand apart",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="for CI: one round, 300 MIT and 1000 ACPC hands, the base engine only",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.hands, args.acpc_hands = 1, 300, 1000
    env = _env(args.cold)
    caches = "no bytecode caches" if args.cold else "bytecode caches warmed by round 0"
    print(
        f"anchors: {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {args.rounds} interleaved "
        f"round(s), {caches}, 1-minute load {_load():.2f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="anchors-") as temporary:
        work = Path(temporary)
        try:
            args.sides = kit_sides(args, work, env)
        except ValueError as error:
            parser.error(str(error))
        cases = build_cases(args, work, env)
        if args.split:
            cases += one_hand_twins(args, work, env)
        if args.only:
            cases = [case for case in cases if any(word in case.name for word in args.only)]
        failed = measure(cases, args.rounds, warm_up=not args.cold)
        report(cases)
    return 1 if failed else 0


def kit_sides(args: argparse.Namespace, work: Path, env: dict[str, str]) -> list[KitSide]:
    """The further sides the arguments ask for (``--spread``, each ``--also``), each named
    once: a ValueError says which interpreter has no kit, or which two sides are the same."""
    sides = [spread_side(work)] if args.spread else []
    sides += [other_kit_side(python, env) for python in args.also]
    labels = [side.label for side in sides]
    for label in labels:
        if labels.count(label) > 1:
            raise ValueError(
                f"two sides would both be called {label!r}: give --also each installation once"
            )
    return sides


#: What ``--split`` adds to a case's name for its one-hand twin.
ONE_HAND = ", 1 hand"


def one_hand_twins(args: argparse.Namespace, work: Path, env: dict[str, str]) -> list[Case]:
    """Every case of :func:`build_cases` again, played with one hand (``--split``): each named
    as its case with :data:`ONE_HAND` after it, in a folder of its own."""
    single = argparse.Namespace(**{**vars(args), "hands": 1, "acpc_hands": 1})
    folder = work / "one-hand"
    folder.mkdir()
    twins = build_cases(single, folder, env, say=lambda _: None)  # (the skips are said once)
    for twin in twins:
        twin.name += ONE_HAND
    return twins


def build_cases(
    args: argparse.Namespace,
    work: Path,
    env: dict[str, str],
    say: Callable[[str], None] = print,
) -> list[Case]:
    """Every case whose anchor is here; a sentence for each that is not (to ``say``)."""
    cases: list[Case] = []
    mirrors = args.mirrors or os.environ.get("POKERBOTS_MIT_MIRRORS") or ROOT.parent / ".mirror"
    engines = args.engines if args.engines else find_engines(Path(mirrors))
    where = "--engines YEAR=PATH or --mirrors DIR (or $POKERBOTS_MIT_MIRRORS)"
    if "base" not in engines:
        say(f"skip kit skeleton and MIT skeleton base: no MIT base engine; set {where}.")
    for year in ["base", *(y for y in YEARS if y != "base"), "2021"]:
        if year not in engines:
            if year != "base":
                say(f"skip MIT skeleton {year}: no {year} engine; set {where}.")
            continue
        if year == "2021":
            say("skip MIT skeleton 2021: the kit declares no 2021 game to play it in.")
            continue
        missing = [
            name for name in NEEDS.get(year, ("eval7",)) if importlib.util.find_spec(name) is None
        ]
        if missing:
            say(f"skip MIT skeleton {year}: its engine needs {', '.join(missing)}; pip install it.")
            continue
        if args.quick and year != "base":
            say(f"skip MIT skeleton {year}: --quick runs the base engine only.")
            continue
        copies = work / f"mit-{year}"
        engine = extract(engines[year], copies / "skeleton")
        cases.append(
            mit_case(
                f"MIT skeleton {year}",
                year,
                engine,
                engine / "python_skeleton",
                args.hands,
                copies,
                env,
                args.sides,
                TARGETS["MIT skeleton"],
            )
        )
        if year == "base":
            engine = extract(engines[year], copies / "kit")
            cases.insert(
                0,
                mit_case(
                    "kit skeleton",
                    year,
                    engine,
                    ROOT / "skeleton",
                    args.hands,
                    copies,
                    env,
                    args.sides,
                    TARGETS["kit skeleton"],
                ),
            )
    dealer = args.dealer or os.environ.get("POKERBOTS_ACPC_DEALER") or ROOT.parent / "acpc"
    build = Path(dealer).resolve()
    if not ((build / "dealer").is_file() and (build / "example_player").is_file()):
        say(
            "skip acpc-2pl, acpc-2pn, acpc-3pl: no built ACPC dealer and example_player; set "
            "--dealer DIR or $POKERBOTS_ACPC_DEALER (bash ../shared/tools/build-acpc-dealer.sh "
            "builds them)."
        )
    else:
        for variant in ACPC_VARIANTS:
            cases.append(acpc_case(variant, build, args.acpc_hands, work, env, args.sides))
    return cases


def measure(cases: list[Case], rounds: int, warm_up: bool = True) -> bool:
    """Interleaved rounds over every case (anchor first in odd rounds); True if any failed.

    With ``warm_up``, a round 0 runs first and is not counted: it writes the bytecode caches
    (of the kit, the engines and the bots) that every later round uses, as a bot author's
    second run would.
    """
    failed = False
    for number in range(0 if warm_up else 1, rounds + 1):
        for case in list(cases):
            order: list[tuple[str, Callable[[int], Run]]] = [
                ("anchor", case.anchor),
                ("kit", partial(case.kit, side=None)),
            ]
            order += [(extra.label, partial(case.kit, side=extra)) for extra in case.sides]
            if number % 2 == 0:
                order.reverse()
            results: dict[str, Run] = {}
            try:
                for label, function in order:
                    results[label] = run = function(number)
                    print(
                        f"round {number} {case.name}, {label}: {run.wall:.2f} s, runner CPU "
                        f"{run.runner_cpu:.2f} s, children {run.children_cpu:.2f} s, load "
                        f"{run.load_before:.2f} -> {run.load_after:.2f}",
                        flush=True,
                    )
            except (RuntimeError, OSError, subprocess.SubprocessError) as error:
                print(f"FAILED {case.name} in round {number}: {error}", flush=True)
                cases.remove(case)
                failed = True
                continue
            if number == 0:
                continue
            case.anchor_runs.append(results["anchor"])
            case.kit_runs.append(results["kit"])
            for extra in case.sides:
                case.side_runs.setdefault(extra.label, []).append(results[extra.label])
    return failed


if __name__ == "__main__":
    sys.exit(main())
