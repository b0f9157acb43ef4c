"""Play the real MIT skeletons in the kit, and a kit bot on the real MIT engines.

The MIT engines and skeletons are public (``mitpokerbots/engine``, ``engine-2020``,
``engine-2022``, ``engine-2024``, ``engine-2025``, ``engine-2026``) but not part of this
repository; point this script at a checkout (or a bare git copy) of each::

    python scripts/mit_conformance.py --engine base=../engine --engine 2025=../engine-2025 \\
        [--hands 1000] [--loaded] [--record tests/conformance]

For each year it runs three checks and prints one JSON line per check:

* ``skeleton-in-kit``: the year's unchanged ``python_skeleton`` (its own I/O, its own
  player) plays its variant in the kit against ``builtin:random``: the number of faults,
  decisions asked and decisions played by default must be 0, N and 0.
* ``ported-in-kit``: the same ``player.py`` with ``skeleton.`` renamed to ``sdk.``, running on
  the kit's SDK: no fault, no traceback in its log.
* ``kit-on-engine``: the kit's starter bot for that variant (``pokerbots new``) plays the
  year's ``python_skeleton`` on the year's own ``engine.py``: no ``attempted illegal`` and no
  ``misformatted`` line for the kit bot in the engine's gamelog.  The 2020 engine calls
  ``eval7.hand_type``, a name only eval7 0.1.2 has (later releases call it ``handtype``); it
  is run through a two-line prelude that gives the name back, its files untouched (and it
  needs numpy, for its prior's geometric draws).

In Permuted Hold'em (2020) the kit-on-engine check also ranks every showdown of the engine's
gamelog the kit's way, under the order of the card values the gamelog's header shows, and
must find the same winner (and map every card as the bracketed cards show).

``--loaded`` pins everything to one CPU next to a busy loop, which makes scheduling races
(such as two lines arriving together) likely.  ``--record DIR`` also writes the first hands
of each kit-on-engine exchange, and of each skeleton-in-kit exchange, as transcripts
(``<-`` engine to bot, ``->`` bot to engine) that ``tests/test_mit_conformance.py`` replays
without a network, and for 2020 the first hands of the engine's gamelog
(``mit-2020-gamelog.txt``), whose showdowns ``tests/engine/test_permuted.py`` ranks again.
Exit status 0 only when every check passed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_runner.engine.dealer import showdown_ranks  # noqa: E402
from local_runner.submission.new import create_bot  # noqa: E402
from local_runner.tables.config import ScrimmageConfig  # noqa: E402
from local_runner.tables.scrimmage import BotSpec, run_scrimmage  # noqa: E402
from sdk.games import SEASONS  # noqa: E402
from sdk.rules import Rules  # noqa: E402
from sdk.variants.permuted import true_cards  # noqa: E402

#: The variant each MIT year plays (each season's declaration; the base engine plays nlhe).
YEARS = {"base": "nlhe", **{season[4:]: name for season, name in SEASONS.items()}}
#: What runs before a year's engine.py, where the engine needs it to run on today's eval7.
PRELUDES = {
    "2020": "import eval7\n"
    "if not hasattr(eval7, 'hand_type'):\n"
    "    eval7.hand_type = eval7.handtype  # the 0.1.2 name the 2020 engine calls\n",
}
RELAY = ROOT / "scripts" / "wire_relay.py"
RECORDED_HANDS = 30


def main(argv: list[str] | None = None) -> int:
    """Run the checks the arguments ask for; 0 when all passed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="YEAR=PATH",
        help=f"an MIT engine checkout; YEAR is one of {', '.join(YEARS)}",
    )
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--loaded", action="store_true", help="pin to one CPU next to a busy loop")
    parser.add_argument("--record", type=Path, help="write transcripts into this directory")
    args = parser.parse_args(argv)
    engines = dict(item.split("=", 1) for item in args.engine)
    unknown = sorted(set(engines) - set(YEARS))
    if unknown or not engines:
        parser.error(f"give --engine YEAR=PATH with YEAR among {', '.join(YEARS)}")
    ok = True
    with _load(args.loaded), tempfile.TemporaryDirectory(prefix="mit-conformance-") as scratch:
        for year, source in engines.items():
            work = Path(scratch) / year
            engine = export(Path(source), work / "engine")
            for check in (skeleton_in_kit, ported_in_kit, kit_on_engine):
                report = check(engine, year, args, work)
                report.update(year=year, check=check.__name__.replace("_", "-"), loaded=args.loaded)
                print(json.dumps(report), flush=True)
                ok = ok and bool(report["passed"])
    return 0 if ok else 1


def export(source: Path, destination: Path) -> Path:
    """A plain copy of an engine repository: from a work tree, or ``git archive`` of a git
    dir (a bare repository, or a checkout's ``.git`` when its files are not checked out)."""
    destination.mkdir(parents=True)
    if (source / ".git").is_dir() and not (source / "engine.py").is_file():
        source = source / ".git"
    if (source / "engine.py").is_file():
        shutil.copytree(
            source, destination, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git")
        )
        return destination
    archive = subprocess.run(
        ["git", f"--git-dir={source}", "archive", "HEAD"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(destination, filter="data")
    return destination


def skeleton_in_kit(
    engine: Path, year: str, args: argparse.Namespace, work: Path
) -> dict[str, object]:
    """The unchanged MIT Python skeleton plays its variant in the kit."""
    bot = work / "mit_skeleton"
    shutil.copytree(engine / "python_skeleton", bot)
    record = args.record / f"kit-{year}-skeleton.txt" if args.record else None
    return _play_in_kit(bot, year, args, work / "skeleton-out", record)


def ported_in_kit(
    engine: Path, year: str, args: argparse.Namespace, work: Path
) -> dict[str, object]:
    """The stock player.py, ``skeleton.`` renamed to ``sdk.``, runs on the kit's SDK."""
    bot = work / "ported"
    bot.mkdir()
    source = (engine / "python_skeleton" / "player.py").read_text(encoding="utf-8")
    (bot / "player.py").write_text(re.sub(r"\bskeleton\.", "sdk.", source), encoding="utf-8")
    shutil.copytree(ROOT / "sdk", bot / "sdk", ignore=shutil.ignore_patterns("__pycache__"))
    (bot / "commands.json").write_text(
        json.dumps({"build": [], "run": ["python3", "player.py"]}), encoding="utf-8"
    )
    return _play_in_kit(bot, year, args, work / "ported-out", None)


def _play_in_kit(
    bot: Path, year: str, args: argparse.Namespace, out: Path, record: Path | None
) -> dict[str, object]:
    wire = out.with_suffix(".wire")
    if record is not None:
        _wrap_in_relay(bot, wire)
    rules = Rules.for_variant(YEARS[year]).replace(num_rounds=args.hands)
    config = ScrimmageConfig(rules=rules, seed=args.seed).with_overrides(python="kit")
    result = run_scrimmage([BotSpec.parse(str(bot)), BotSpec.parse("builtin:random")], config, out)
    player = result.players[0]
    log = (out / f"{bot.name}.log").read_text(encoding="utf-8", errors="replace")
    if record is not None:
        _write_transcript(
            wire,
            record,
            f"kit engine -> MIT {year} python_skeleton "
            f"({YEARS[year]}, seed {args.seed}, opponent builtin:random)",
        )
    faults = {kind.value: count for kind, count in player.fault_counts.items()}
    return {
        "passed": not faults
        and player.defaulted == 0
        and "Traceback" not in log
        and result.hands_played == args.hands,
        "hands": result.hands_played,
        "faults": faults,
        "decisions": player.decisions,
        "defaulted": player.defaulted,
        "traceback": "Traceback" in log,
    }


def kit_on_engine(
    engine: Path, year: str, args: argparse.Namespace, work: Path
) -> dict[str, object]:
    """The kit's starter bot plays the MIT python_skeleton on the year's engine."""
    kit_bot = engine / "kitbot"
    create_bot(kit_bot, {"variant": YEARS[year], "bot_name": "kitbot"})
    wire = work / "engine.wire"
    if args.record is not None:
        _wrap_in_relay(kit_bot, wire)
    with (engine / "config.py").open("a", encoding="utf-8") as config:
        config.write(
            '\nPLAYER_1_NAME = "kit"\nPLAYER_1_PATH = "./kitbot"\n'
            'PLAYER_2_NAME = "mit"\nPLAYER_2_PATH = "./python_skeleton"\n'
            f"NUM_ROUNDS = {args.hands}\n"
        )
    # The engine runs `python3`; give it this interpreter (which has eval7) first.
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    }
    prelude = PRELUDES.get(year)
    launch = ["engine.py"]
    if prelude is not None:  # the engine's own file, run as __main__ after the prelude
        run = "import runpy\nrunpy.run_path('engine.py', run_name='__main__')\n"
        launch = ["-c", prelude + run]
    subprocess.run(
        [sys.executable, *launch],
        cwd=engine,
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
        timeout=1800,
    )
    gamelog = (engine / "gamelog.txt").read_text(encoding="utf-8", errors="replace")
    if args.record is not None:
        _write_transcript(
            wire,
            args.record / f"mit-{year}-engine.txt",
            f"MIT {year} engine.py -> kit starter bot ({YEARS[year]}, "
            "opponent: the year's python_skeleton)",
        )
    rounds = len(re.findall(r"^Round #\d+", gamelog, flags=re.MULTILINE))
    bad = [
        line
        for line in gamelog.splitlines()
        if line.startswith("kit ") and ("illegal" in line or "misformatted" in line)
    ]
    report: dict[str, object] = {
        "passed": not bad and rounds == args.hands,
        "hands": rounds,
        "illegal_or_misformatted": bad[:5],
        "count": len(bad),
    }
    if Rules.for_variant(YEARS[year]).permutation is not None:
        showdowns, disagreements = permuted_showdowns(gamelog)
        report.update(showdowns=showdowns, showdowns_ranked_otherwise=disagreements[:5])
        report["passed"] = bool(report["passed"]) and showdowns > 0 and not disagreements
        if args.record is not None:  # the header and the first hands, replayed by a test
            first = gamelog.split("\nRound #")[: RECORDED_HANDS + 1]
            target = args.record / f"mit-{year}-gamelog.txt"
            target.write_text("\nRound #".join(first).rstrip("\n") + "\n", encoding="ascii")
    return report


def permuted_showdowns(gamelog: str) -> tuple[int, list[str]]:
    """Permuted Hold'em: the kit's ranking of every showdown of a real 2020 gamelog, under
    the order of the card values the gamelog's header shows, against the engine's awards;
    and every dealt, street and shows line's bracketed cards against the kit's mapping.
    Returns the showdowns checked and the hands where the kit disagrees."""
    lines = gamelog.splitlines()
    values = lines[3].strip("[]").replace(" ", "")
    disagreements: list[str] = []
    showdowns = 0
    for block in gamelog.split("\nRound #")[1:]:
        number = block.split(",", 1)[0]
        shown: dict[str, tuple[str, ...]] = {}
        awarded: dict[str, int] = {}
        board: tuple[str, ...] = ()
        for line in block.splitlines():
            cards = re.match(r"(\S+) (dealt|shows) (.+?) \[(.+)\]$", line)
            street = re.match(r"(Flop|Turn|River) (.+?) \[(.+)\],", line)
            if cards:
                printed, true = tuple(cards.group(3).split()), tuple(cards.group(4).split())
                if cards.group(2) == "shows":
                    shown[cards.group(1)] = printed
            elif street:
                printed, true = tuple(street.group(2).split()), tuple(street.group(3).split())
                board = printed
            else:
                award = re.match(r"(\S+) awarded (-?\d+)$", line)
                if award:
                    awarded[award.group(1)] = int(award.group(2))
                continue
            if true_cards(printed, values) != true:
                disagreements.append(f"hand {number}: {line!r} maps otherwise")
        if len(shown) != 2:
            continue
        showdowns += 1
        names = list(shown)
        first, second = showdown_ranks(tuple(shown.values()), board, (False, False), values)
        assert first is not None and second is not None  # nobody folded at a showdown
        ours = (first > second) - (first < second)
        theirs = (awarded[names[0]] > 0) - (awarded[names[0]] < 0)
        if ours != theirs:
            disagreements.append(f"hand {number}: {names} {dict(awarded)}")
    return showdowns, disagreements


def _wrap_in_relay(bot: Path, wire: Path) -> None:
    """Make ``bot``'s run command go through the recording relay."""
    commands_path = bot / "commands.json"
    commands = json.loads(commands_path.read_text(encoding="utf-8"))
    relay = [sys.executable, str(RELAY), str(wire), "--"]
    commands["run"] = relay + list(commands["run"])
    commands_path.write_text(json.dumps(commands), encoding="utf-8")


def _write_transcript(wire: Path, target: Path, title: str) -> None:
    """The first :data:`RECORDED_HANDS` hands of a relay log, with a header."""
    lines, hands = [], 0
    for line in wire.read_text(encoding="ascii", errors="replace").splitlines():
        if line.startswith("<- ") and re.search(r"(^| )H[2-9TJQKA]", line[3:]):
            hands += 1
            if hands > RECORDED_HANDS:
                break
        lines.append(line)
    target.parent.mkdir(parents=True, exist_ok=True)
    header = [
        f"# {title}",
        "# recorded by scripts/mit_conformance.py --record; '<-' engine to bot, '->' bot to engine",
    ]
    target.write_text("\n".join(header + lines) + "\n", encoding="ascii")


@contextlib.contextmanager
def _load(loaded: bool) -> Iterator[None]:
    """With ``loaded``: this process and its children on CPU 0, next to a busy loop."""
    if not loaded:
        yield
        return
    previous = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {0})
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()
        os.sched_setaffinity(0, previous)


if __name__ == "__main__":
    sys.exit(main())
