"""Three-player limit over sockets: the kit's runner beside the real ACPC dealer, one lineup.

    python benchmarks/acpc_3pl.py --dealer-dir BUILD [--hands 3000] [--rounds 5] [--json]

``BUILD`` is a folder with the ACPC server's ``dealer``, ``example_player`` and
``holdem.limit.3p.game`` (as ``POKERBOTS_ACPC_DEALER`` names it for the live tests).  The
lineup is the same on both sides: two ``example_player`` processes and one kit bot (the
built-in random bot through ``run_bot(..., protocol="acpc")``), all speaking the ACPC wire
over loopback TCP.

* Kit runner: ``play_table`` of ``acpc-3pl`` with the two example players wrapped in a
  two-line ``startme.sh`` and the kit bot's ``commands.json`` saying ``"protocol": "acpc"``;
  logs are written.  Hands/s is the hands over the match's own wall time
  (``summary.json``'s ``wall_seconds``: from the first hand, every bot connected).
* Real dealer: ``dealer`` with ``-q`` (its quietest: no trace of every line) and its log
  on, the same three players connected to its ports.  The dealer reports no time, so hands/s
  is the marginal rate between a short and a long match, ``(H - H0) / (t - t0)``: the
  players' start-up and connection, the same in both, cancel out.

Rounds are interleaved (kit, dealer, kit, ...) and each side's median is reported with the
load average: the machine is shared, so only figures from the same run compare.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_runner import BotSpec, ScrimmageConfig, play_table  # noqa: E402
from sdk.rules import Rules  # noqa: E402

GAME = "holdem.limit.3p.game"
KIT_BOT = """\
from local_runner.bots.builtin import make_builtin
from sdk.runner import parse_args, run_bot

run_bot(make_builtin("random", 5), parse_args(), protocol="acpc")
"""
SHORT = 300  # hands of the dealer's short match (its start-up measure)


def make_bots(build: Path, work: Path) -> tuple[Path, Path, Path]:
    """Two example players behind a startme.sh each, and the kit bot's directory."""
    players = []
    for name in ("example-1", "example-2"):
        folder = work / name
        folder.mkdir()
        startme = folder / "startme.sh"
        startme.write_text(
            f'#!/bin/sh\nexec "{build / "example_player"}" "{build / GAME}" "$1" "$2"\n',
            encoding="utf-8",
        )
        startme.chmod(0o755)
        players.append(folder)
    kit = work / "kit"
    kit.mkdir()
    (kit / "player.py").write_text(KIT_BOT, encoding="utf-8")
    commands = {"build": [], "run": [sys.executable, "player.py"], "protocol": "acpc"}
    (kit / "commands.json").write_text(json.dumps(commands), encoding="utf-8")
    return players[0], players[1], kit


def kit_runner(bots: tuple[Path, Path, Path], hands: int, seed: int, out: Path) -> float:
    """Hands/s of one acpc-3pl scrimmage in the kit's runner (logs written)."""
    rules = Rules.for_variant("acpc-3pl").replace(num_rounds=hands)
    specs = [BotSpec.parse(str(path)) for path in bots]
    result = play_table(specs, ScrimmageConfig(rules=rules, seed=seed), out)
    faults = [p.name for p in result.players if p.fault_counts or p.start_failure]
    if result.hands_played != hands or faults:
        raise SystemExit(f"the kit's match failed: {result.hands_played} hands, faults {faults}")
    return hands / result.wall_seconds


def dealer_seconds(build: Path, kit: Path, hands: int, seed: int, work: Path) -> float:
    """Wall seconds of one real-dealer match, from its start to the last process's exit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    dealer = subprocess.Popen(
        [
            str(build / "dealer"),
            "bench",
            str(build / GAME),
            str(hands),
            str(seed),
            "example-1",
            "example-2",
            "kit",
            "-q",
            "--start_timeout",
            "20000",
        ],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    if len(ports) != 3:
        dealer.kill()
        raise SystemExit(f"the dealer printed {ports!r}, not three ports")
    commands = [
        [str(build / "example_player"), str(build / GAME), "127.0.0.1", ports[0].decode()],
        [str(build / "example_player"), str(build / GAME), "127.0.0.1", ports[1].decode()],
        [
            sys.executable,
            str(kit / "player.py"),
            "--game",
            str(build / GAME),
            "127.0.0.1",
            ports[2].decode(),
        ],
    ]
    players = [
        subprocess.Popen(
            argv, cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for argv in commands
    ]
    dealer.stdout.read()
    if dealer.wait(timeout=600) != 0:
        raise SystemExit("the dealer failed")
    for player in players:
        player.wait(timeout=60)
    return time.perf_counter() - start


def real_dealer(build: Path, kit: Path, hands: int, seed: int, work: Path) -> float:
    """The dealer's marginal hands/s: a short and a long match, start-up cancelled."""
    short = dealer_seconds(build, kit, SHORT, seed, work)
    long = dealer_seconds(build, kit, hands, seed, work)
    return (hands - SHORT) / (long - short)


def main() -> None:
    """Measure, interleaved, and print both medians (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dealer-dir",
        type=Path,
        default=os.environ.get("POKERBOTS_ACPC_DEALER"),
        help="the folder of the built dealer (default: $POKERBOTS_ACPC_DEALER)",
    )
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.dealer_dir is None or not (Path(args.dealer_dir) / "dealer").exists():
        parser.error(
            "--dealer-dir must name a folder with the ACPC server's dealer, "
            "example_player and holdem.limit.3p.game."
        )
    if args.hands <= SHORT:
        parser.error(f"--hands must be more than {SHORT} (the dealer's short match).")
    build = Path(args.dealer_dir).resolve()
    kit_rates: list[float] = []
    dealer_rates: list[float] = []
    loads = []
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        bots = make_bots(build, work)
        for number in range(1, args.rounds + 1):
            loads.append(os.getloadavg()[0])
            kit_rates.append(kit_runner(bots, args.hands, number, work / f"kit-{number}"))
            dealer_rates.append(real_dealer(build, bots[2], args.hands, number, work))
            print(
                f"round {number}: load {loads[-1]:.2f}, kit runner {kit_rates[-1]:.0f} "
                f"hands/s, real dealer {dealer_rates[-1]:.0f} hands/s",
                file=sys.stderr,
            )
    report = {
        "hands": args.hands,
        "rounds": args.rounds,
        "kit_runner_hands_per_s": round(statistics.median(kit_rates)),
        "real_dealer_hands_per_s": round(statistics.median(dealer_rates)),
        "load_average": [round(load, 2) for load in loads],
        "cores": os.cpu_count(),
        "machine": f"{platform.machine()} {platform.processor() or platform.system()}",
        "python": platform.python_version(),
    }
    ratio = statistics.median(kit_rates) / statistics.median(dealer_rates)
    print(
        f"acpc-3pl over sockets, two example_player + one kit bot, {args.hands} hands, median "
        f"of {args.rounds} interleaved rounds, {os.cpu_count()} cores, load "
        f"{min(loads):.2f}-{max(loads):.2f}: kit runner {report['kit_runner_hands_per_s']} "
        f"hands/s, real dealer {report['real_dealer_hands_per_s']} hands/s "
        f"(kit/dealer {ratio:.2f})"
    )
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
