"""The reference bots against real bots: student bots of the MIT seasons, and ACPC agents.

    python benchmarks/real_bots.py [--mirrors DIR] [--dealer DIR] [--pairs 500] [--seed 1]
        [--refs equity,range] [--only WORDS] [--check 200] [--clock-factor 1] [--json FILE]

For each real bot this benchmark declares (:data:`REAL_BOTS`: a public repository, the
commit, the bot's folder in it and the game it was written for), and for each reference
bot (``--refs``), a duplicate match of ``--pairs`` hand pairs in the kit
(:func:`local_runner.tables.table.play_table` with ``duplicate=True``, the same as
``pokerbots scrimmage BOT builtin:range --duplicate``): the seeded deals once, then again
with the seats swapped and both bots restarted.  It prints the reference bot's result in
milli-big-blinds per hand with a 95% interval over hand pairs, and the faults of both.

Nothing of the real bots is kept in this repository.  Each is extracted at run time with
``git archive COMMIT PATH`` from a fetched copy of its repository under ``--mirrors``
(default ``$POKERBOTS_MIT_MIRRORS``, else ``../.mirror`` beside the repository), found as
``OWNER+NAME`` or ``NAME``, each a checkout, a bare repository, or a folder ``repo``
holding either.  A bot whose repository or commit is missing is skipped with a sentence.
The bots run as their ``commands.json`` says, over sockets, with this interpreter as their
``python3`` and ``python`` (it needs the packages they import: eval7, numpy, pkrbot,
and for bounty-cfr pandas and tqdm).  A match in which a bot could not import a package,
or forfeited, is reported as *void* with the package to install: its seat was played by
default, so its figure says nothing about the bot.

The ACPC agents play every ACPC game the kit declares (:data:`ACPC_AGENTS`), each seat
behind a two-line ``startme.sh`` (as ``benchmarks/anchors.py`` wraps ``example_player``):

* the ACPC server's ``example_player``, built in ``--dealer`` (default
  ``$POKERBOTS_ACPC_DEALER``, else ``../acpc``), playing the kit's declaration of the game
  written out as a GAMEDEF file;
* Open Pure CFR's ``pure_cfr_player`` (``rggibson/open-pure-cfr``), if ``--pure-cfr`` (default
  ``$POKERBOTS_PURE_CFR``, else ``../open-pure-cfr``) is a folder holding it, built, and a
  strategy it computed for each game, named ``VARIANT.player`` (``acpc-2pl.player``, ...)
  beside the binary files that ``.player`` file names.

In ``acpc-3pl`` a lineup is the reference bot and two seats of the agent, in the six
seatings of the ACPC duplicate (a sample is a deal played six times; ``--pairs`` deals).

``--check N`` plays instead each real bot alone against ``builtin:random`` for N hands (no
duplicate) and reports its faults and whether its log shows a Python traceback: the
check that it plays cleanly in the kit before its results mean anything.

The game clock is the game's, in proportion to the hands (30 s per 1000 hands stays 30 s per
1000 hands), times ``--clock-factor``: a loaded machine's wall clock runs slower than the
bots' processor time, and a real bot that runs out of its clock forfeits the rest of its
half (say so when reporting a factor other than 1).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local_runner.tables.config import ScrimmageConfig  # noqa: E402
from local_runner.tables.spec import BotSpec  # noqa: E402
from local_runner.tables.table import play_table  # noqa: E402
from sdk.gamedef import ACPC_GAMES  # noqa: E402
from sdk.games import SEASONS  # noqa: E402
from sdk.rules import Rules  # noqa: E402


@dataclass(frozen=True)
class RealBot:
    """A real bot in a public repository: where it is, and the game it was written for."""

    label: str
    repo: str
    """``owner/name`` on GitHub."""
    commit: str
    path: str
    """The bot's folder in the repository (the one holding ``commands.json``)."""
    season: str
    """The season it was written for (``mit-2025``), or the kit's variant name."""
    note: str = ""
    leave_out: tuple[str, ...] = ()
    """Files of the bot's folder it never reads, left out of the extraction (a fetched copy
    may lack files of 4 MiB and more)."""
    extras: tuple[str, ...] = ()
    """Repository folders whose files the repository's own build step copies into the bot's
    folder (its shared modules), extracted there the same way."""

    @property
    def variant(self) -> str:
        """The kit's name of the game it plays."""
        return SEASONS.get(self.season, self.season)


#: The real bots played: facts about public repositories (none of their code is kept here).
#: Each was picked as its repository's latest or most developed Python bot, and checked to
#: play its season's game in the kit without a fault (``--check``).
REAL_BOTS: tuple[RealBot, ...] = (
    RealBot(
        "swap-stat_bot",
        "mhivanov123/mit_pokerbots_2022",
        "d7792e97005ddabf993398db6286bfbd33020212",
        "players/stat_bot",
        "mit-2022",
        "eval7 Monte Carlo equity with precomputed preflop strengths; the repository's last bot",
    ),
    RealBot(
        "blood-minimax",
        "cooljoseph1/Pokerbots-2023",
        "30208543d8e173b3ac653eee398a1b87cbd89d81",
        "python_skeleton_minimax",
        "mit-2023",
        "eval7 equity, Kelly-criterion bet sizing and a minimax look-ahead; the repository's last",
        leave_out=("ai",),
    ),
    RealBot(
        "auction-v2",
        "nhkhiemSWE/MIT-pokerBot2024",
        "dbff44611f5795eecaaa9e1d1311098f7e0cc6a4",
        "bot_version_2",
        "mit-2024",
        "preflop table, eval7 Monte Carlo, bids by equity gain",
    ),
    RealBot(
        "bounty-cfr",
        "brian224code/Pokerbots-2025",
        "72eace16e6c2bf9242a60d0b4950fb233e7a1bca",
        "python_skeleton",
        "mit-2025",
        "a CFR strategy table over hand-strength buckets",
    ),
    RealBot(
        "bounty-woof4",
        "jesusCaraball0/pokerbots-2025",
        "939273341ae14f393d4cd3b48b4c04afc21cfc38",
        "GTO_approaches/woof 4",
        "mit-2025",
        "eval7 Monte Carlo equity, bounty-adjusted; the latest of the repository's bots",
    ),
    RealBot(
        "toss-camello",
        "fabianruiz3/pokerbots-2026",
        "eb214d7cd821313c40a9353ddebf6d80f5d74174",
        "Camello_3.1.0",
        "mit-2026",
        "pkrbot equity with precomputed preflop and two-card tables",
    ),
    RealBot(
        "permuted-fast",
        "gkanwar/pokerbots-2020",
        "51042e81ba2cb0201a31ec58d87f37dd6fc5a43c",
        "robots/not_broken_fast",
        "mit-2020",
        "no-limit with permuted card values: estimates the permutation from showdowns",
        extras=("lib",),
    ),
)

#: The ACPC games the ACPC agents play (every one the kit declares).
ACPC_AGENTS: tuple[str, ...] = tuple(ACPC_GAMES)

REFS = ("equity", "range")


# --- extracting real bots -------------------------------------------------------------------


def git_dir(source: Path) -> Path | None:
    """The git directory of a fetched copy (a bare repository, a checkout, or a ``repo``
    folder holding either), or None."""
    for candidate in (source, source / "repo"):
        if (candidate / ".git").is_dir():
            return candidate / ".git"
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def find_mirror(mirrors: Path, repo: str) -> Path | None:
    """The git directory of ``repo`` (``owner/name``) under ``mirrors``, or None."""
    owner, name = repo.split("/", 1)
    for folder in (f"{owner}+{name}", name):
        found = git_dir(mirrors / folder)
        if found is not None:
            return found
    return None


def extract(bot: RealBot, mirrors: Path, destination: Path) -> Path | str:
    """The bot's folder extracted with ``git archive`` into ``destination``, or a sentence
    saying why it cannot be."""
    source = find_mirror(mirrors, bot.repo)
    if source is None:
        return f"no copy of {bot.repo} under {mirrors} (fetch it as {bot.repo.replace('/', '+')})"
    for path in (bot.path, *bot.extras):
        left_out = [f":(exclude){bot.path}/{name}" for name in bot.leave_out]
        archive = subprocess.run(
            ["git", f"--git-dir={source}", "archive", bot.commit, "--", path, *left_out],
            capture_output=True,
        )
        if archive.returncode != 0:
            error = archive.stderr.decode().strip()
            return f"{bot.repo} has no {path} at {bot.commit[:12]} ({error})"
        destination.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(destination, filter="data")
    folder = destination / bot.path
    for extra in bot.extras:  # as the repository's build step places them: beside player.py
        for item in (destination / extra).iterdir():
            if not (folder / item.name).exists():  # the bot's own copy of a module wins
                shutil.move(str(item), folder / item.name)
    # Bytecode a repository committed was compiled by another interpreter: leave it out.
    for cache in list(folder.rglob("__pycache__")):
        shutil.rmtree(cache)
    return folder


def acpc_agent(variant: str, dealer: Path, folder: Path, seat: int) -> Path:
    """A bot folder whose ``startme.sh`` runs the ACPC example_player in ``variant``."""
    gamefile = folder / f"{variant}.game"
    if not gamefile.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        gamefile.write_text(ACPC_GAMES[variant].to_text(), encoding="ascii")
    command = f'exec "{dealer / "example_player"}" "{gamefile}" "$1" "$2"'
    return _startme(folder / f"example_player-{seat}", command)


def pure_cfr_agent(variant: str, pure_cfr: Path, folder: Path, seat: int) -> Path | None:
    """A bot folder whose ``startme.sh`` runs Open Pure CFR's ``pure_cfr_player`` with the
    strategy ``VARIANT.player`` in ``pure_cfr`` (None when that folder has none)."""
    strategy = pure_cfr / f"{variant}.player"
    if not ((pure_cfr / "pure_cfr_player").is_file() and strategy.is_file()):
        return None
    # The .player file names its binary files relative to the folder it was written in.
    command = f'cd "{pure_cfr}" && exec ./pure_cfr_player "{strategy.name}" "$1" "$2"'
    return _startme(folder / f"pure_cfr-{seat}", command)


def _startme(bot: Path, command: str) -> Path:
    bot.mkdir(parents=True, exist_ok=True)
    startme = bot / "startme.sh"
    startme.write_text(f"#!/bin/sh\n{command}\n", encoding="utf-8")
    startme.chmod(0o755)
    return bot


# --- playing --------------------------------------------------------------------------------


def config_for(variant: str, hands: int, seed: int, clock_factor: float) -> ScrimmageConfig:
    """The scrimmage settings: the game's clock in proportion to ``hands``, times the factor;
    this interpreter (the kit's) as the bots' ``python3``."""
    config = ScrimmageConfig(seed=seed).with_overrides(
        variant=variant, rounds=hands, seed=seed, python="kit"
    )
    base = Rules.for_variant(variant)
    clock = base.game_clock / base.num_rounds * hands * clock_factor
    return config.with_overrides(game_clock=clock)


def _tracebacks(out: Path) -> list[str]:
    """The bot logs under ``out`` that show a Python traceback."""
    return sorted(
        str(log.relative_to(out))
        for log in out.rglob("*.log")
        if "Traceback (most recent call last)" in log.read_text(errors="replace")
    )


#: What Python writes when an import fails: a real bot that needs a package the bots'
#: interpreter lacks (bounty-cfr needs pandas and tqdm) fails at its start, and the match
#: then plays its seat by default, so its result must not be read as the bot's.
_MISSING_MODULE = re.compile(r"No module named '([\w.]+)'")


def _missing_modules(out: Path) -> list[str]:
    """The modules the bot logs under ``out`` say could not be imported."""
    names = set()
    for log in out.rglob("*.log"):
        names.update(_MISSING_MODULE.findall(log.read_text(errors="replace")))
    return sorted(names)


def play(
    specs: list[BotSpec], ref: int, variant: str, hands: int, seed: int, out: Path, factor: float
) -> dict[str, Any]:
    """A duplicate match of ``specs``: bot ``ref``'s result with its interval, and the faults."""
    config = config_for(variant, hands, seed, factor)
    start = time.perf_counter()
    table = play_table(specs, config, out, duplicate=True, play_absent=True)
    summaries = table.summaries()
    row: dict[str, Any] = {
        "variant": variant,
        "bots": list(table.names),
        "ref": table.names[ref],
        "samples": table.samples,
        "sample": table.sample_name,
        "seed": seed,
        "clock": config.rules.game_clock,
        "seconds": round(time.perf_counter() - start, 1),
        "faults": {
            name: {kind.value: n for kind, n in table.fault_counts(bot).items() if n}
            for bot, name in enumerate(table.names)
        },
        "forfeits": {
            name: table.forfeit(bot)
            for bot, name in enumerate(table.names)
            if table.forfeit(bot) is not None
        },
        "tracebacks": _tracebacks(out),
        "missing_modules": _missing_modules(out),
        # Per bot, each leg's game clock used, and the hand where it ran out (None: never).
        "time_used": {
            name: [round(result.time_used, 1) for result in table.results_of(bot)]
            for bot, name in enumerate(table.names)
        },
        "clock_ran_out": {
            name: [result.clock_ran_out_hand for result in table.results_of(bot)]
            for bot, name in enumerate(table.names)
            if any(result.clock_ran_out_hand for result in table.results_of(bot))
        },
    }
    if summaries is not None:
        mbb = summaries[ref].mbb_per_hand
        row.update(mbb_per_hand=round(mbb.mean, 1), low=round(mbb.low, 1), high=round(mbb.high, 1))
    # In the row too, so that a --json reader sees a void match as void.
    row["verdict"] = _verdict(row)
    return row


def check(bot: Path, variant: str, hands: int, seed: int, out: Path) -> dict[str, Any]:
    """The real bot alone against ``builtin:random``: does it play every hand cleanly?"""
    config = config_for(variant, hands, seed, 1.0)
    table = play_table([BotSpec.parse(str(bot)), BotSpec.parse("builtin:random")], config, out)
    player = table.legs[0].players[0]
    return {
        "variant": variant,
        "hands": table.hands_played,
        "faults": {kind.value: n for kind, n in table.fault_counts(0).items() if n},
        "forfeit": table.forfeit(0),
        "defaulted": player.defaulted,
        "decisions": player.decisions,
        "tracebacks": _tracebacks(out),
        "missing_modules": _missing_modules(out),
    }


def _verdict(row: dict[str, Any]) -> str:
    if row.get("missing_modules"):
        names = " ".join(row["missing_modules"])
        return f"void: a bot could not import {names} (pip install {names} for the kit's python)"
    if row.get("forfeits"):
        return "void: a bot forfeited (see forfeits and its log)"
    if "low" not in row:
        return "no result"
    if row["low"] > 0:
        return "ahead"
    return "behind" if row["high"] < 0 else "not distinguishable"


def _print(label: str, row: dict[str, Any]) -> None:
    if "mbb_per_hand" in row:
        result = f"{row['mbb_per_hand']:>9.1f}  [{row['low']:.1f}, {row['high']:.1f}]"
    else:
        result = "no samples"
    trouble = {
        key: row[key]
        for key in ("faults", "forfeits", "tracebacks", "missing_modules", "clock_ran_out")
        if row.get(key)
    }
    if isinstance(trouble.get("faults"), dict):
        trouble["faults"] = {k: v for k, v in trouble["faults"].items() if v}
        if not trouble["faults"]:
            del trouble["faults"]
    print(
        f"{row['variant']:8} {row['ref']:>7} v {label:24} {result}  {_verdict(row)}"
        f"  ({row['samples']} {row['sample']}s, {row['seconds']:.0f} s)"
        + (f"  {json.dumps(trouble)}" if trouble else ""),
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    """Play the declared real bots against the reference bots and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, help="a folder of fetched repositories")
    parser.add_argument("--dealer", type=Path, help="the folder of the built ACPC dealer")
    parser.add_argument(
        "--pure-cfr",
        type=Path,
        help="a folder with Open Pure CFR's built pure_cfr_player and a strategy per game, "
        "named VARIANT.player (acpc-2pl.player, ...)",
    )
    parser.add_argument("--pairs", type=int, default=500, help="hand pairs (3 seats: deals)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--refs", default=",".join(REFS), help="reference bots to play")
    parser.add_argument(
        "--only", default="", help="comma-separated words: only the bots or games naming one"
    )
    parser.add_argument("--check", type=int, default=0, metavar="HANDS", help="check mode")
    parser.add_argument("--clock-factor", type=float, default=1.0)
    parser.add_argument("--keep", type=Path, help="write the match logs here (else a temp dir)")
    parser.add_argument("--json", type=Path, help="append each result here (JSON lines)")
    args = parser.parse_args(argv)
    mirrors = Path(
        args.mirrors or os.environ.get("POKERBOTS_MIT_MIRRORS") or ROOT.parent / ".mirror"
    )
    dealer = Path(
        args.dealer or os.environ.get("POKERBOTS_ACPC_DEALER") or ROOT.parent / "acpc"
    ).resolve()
    pure_cfr = Path(
        args.pure_cfr or os.environ.get("POKERBOTS_PURE_CFR") or ROOT.parent / "open-pure-cfr"
    ).resolve()
    words = [word for word in args.only.split(",") if word]
    refs = args.refs.split(",")

    def wanted(*names: str) -> bool:
        return not words or any(word in name for word in words for name in names)

    with tempfile.TemporaryDirectory(prefix="real-bots-") as scratch:
        work = args.keep or Path(scratch)
        rows: list[dict[str, Any]] = []
        for bot in REAL_BOTS:
            if not wanted(bot.label, bot.variant, bot.repo):
                continue
            folder = extract(bot, mirrors, work / "bots" / bot.label)
            if isinstance(folder, str):
                print(f"skip {bot.label}: {folder}.", flush=True)
                continue
            if args.check:
                report = check(
                    folder, bot.variant, args.check, args.seed, work / f"check-{bot.label}"
                )
                report.update(bot=bot.label, repo=bot.repo, commit=bot.commit)
                print(json.dumps(report), flush=True)
                rows.append(report)
                continue
            for ref in refs:
                specs = [BotSpec.parse(str(folder)), BotSpec.parse(f"builtin:{ref}")]
                out = work / f"{bot.label}-{ref}"
                row = play(specs, 1, bot.variant, args.pairs, args.seed, out, args.clock_factor)
                row.update(opponent=bot.label, repo=bot.repo, commit=bot.commit)
                _print(bot.label, row)
                rows.append(row)
                _append(args.json, row)
        if args.check:
            return 0
        for variant in ACPC_AGENTS:
            seats = ACPC_GAMES[variant].num_players
            for agent in ("example_player", "pure_cfr"):
                if not wanted(agent, variant):
                    continue
                for ref in refs:
                    folder = work / f"acpc-{variant}-{agent}-{ref}"
                    agents: list[Path | None] = [
                        acpc_agent(variant, dealer, folder, seat)
                        if agent == "example_player"
                        else pure_cfr_agent(variant, pure_cfr, folder, seat)
                        for seat in range(1, seats)
                    ]
                    missing = (
                        f"no built example_player in {dealer}; set --dealer DIR or "
                        "$POKERBOTS_ACPC_DEALER"
                        if agent == "example_player"
                        else f"no pure_cfr_player and {variant}.player in {pure_cfr}; set "
                        "--pure-cfr DIR or $POKERBOTS_PURE_CFR"
                    )
                    if agent == "example_player" and not (dealer / "example_player").is_file():
                        agents = [None]
                    if None in agents:
                        print(f"skip {agent} in {variant}: {missing}.", flush=True)
                        break
                    specs = [
                        BotSpec.parse(f"builtin:{ref}"),
                        *(BotSpec.parse(str(a)) for a in agents),
                    ]
                    row = play(
                        specs, 0, variant, args.pairs, args.seed, folder / "out", args.clock_factor
                    )
                    label = agent + (" x2" if seats > 2 else "")
                    row.update(opponent=label)
                    _print(label, row)
                    rows.append(row)
                    _append(args.json, row)
    return 0


def _append(path: Path | None, row: dict[str, Any]) -> None:
    if path is not None:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
