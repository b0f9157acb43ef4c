"""One conformance suite over every registered game (sdk.games.GAMES), as OpenSpiel runs one
API test over every game: a game added to the registry is covered without editing this file.

For each game: a table plays in process and writes its run; the run reads back, every hand
replays on the state machine to the chips recorded, and the chips add up to the result; the
report renders; each export the game allows is written and each it does not is refused with
a sentence; ``spot`` builds a state on every street; a bot from ``pokerbots new`` for the
game plays a socket match over every wire the game speaks, passes its own tests and
validates for its game without being told which; an ``equity`` and a ``range`` strategy bot
(``pokerbots new --strategy``) ship their tables, package within the season's upload limits
and validate (build and start within the competition's limits); the
game's page in docs/variants/ exists, and its strategy hook plays 300 hands without a fault.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import local_runner as kit
from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.seats import InProcessSeat
from local_runner.runs.errors import RunError
from local_runner.runs.reader import open_run
from local_runner.submission.new import create_bot
from local_runner.submission.package import package_bot
from local_runner.validation.checks import Status
from local_runner.validation.profiles import mit_season
from local_runner.view.acpc import ACPC_VARIANTS, write_acpc_log
from local_runner.view.phh import write_phhs
from local_runner.view.report import match_report
from local_runner.view.timeline import walk
from sdk.games import ACPC, GAMES, MIT, Game

NAMES = sorted(GAMES)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "variants"


def _table(game: Game, out: Path, rounds: int = 60) -> kit.TableResult:
    bots = ["builtin:random", "builtin:checkcall", "builtin:raise"][: game.rules.seats]
    config = kit.ScrimmageConfig(rules=game.rules.replace(num_rounds=rounds), seed=11)
    return kit.play_table([kit.BotSpec.parse(bot) for bot in bots], config, out)


@pytest.mark.parametrize("name", NAMES)
def test_a_table_writes_a_run_that_reads_back_and_replays_to_its_chips(
    name: str, tmp_path: Path
) -> None:
    game = GAMES[name]
    result = _table(game, tmp_path / "run")
    assert result.hands_played == 60 and result.rules.variant == name
    run = open_run(tmp_path / "run")
    totals = dict.fromkeys(run.names, 0)
    hands = 0
    for hand in run.hands():
        walked = walk(hand, run.rules)  # a RunError if the record does not replay
        assert tuple(walked.terminal.deltas) == hand.deltas
        for player, delta in zip(hand.players, hand.deltas, strict=True):
            totals[player] += delta
        hands += 1
    assert hands == 60
    assert tuple(totals[n] for n in result.names) == result.bankrolls
    assert sum(result.bankrolls) == 0


@pytest.mark.parametrize("name", NAMES)
def test_the_report_and_the_exports_the_game_allows(name: str, tmp_path: Path) -> None:
    game = GAMES[name]
    _table(game, tmp_path / "run", rounds=20)
    run = open_run(tmp_path / "run")
    page = match_report(tmp_path / "run")
    assert page.stat().st_size > 10_000 and name in page.read_text(encoding="utf-8")
    if game.rules.discard or game.streets[-1].more:  # discards, or runs: no PHH form
        with pytest.raises(RunError, match="PHH has no form"):
            write_phhs(run, tmp_path / "x.phhs")
    else:
        assert write_phhs(run, tmp_path / "hands.phhs") == 20
    if name in ACPC_VARIANTS:
        assert write_acpc_log(run, tmp_path / "dealer.log") == 20
    else:
        with pytest.raises(RunError, match="ACPC logs can only hold hold'em"):
            write_acpc_log(run, tmp_path / "dealer.log")


@pytest.mark.parametrize("name", NAMES)
def test_spot_builds_a_state_on_every_street(name: str) -> None:
    game = GAMES[name]
    if game.rules.seats != 2:
        with pytest.raises(kit.HarnessError, match="spot builds heads-up states"):
            kit.spot(variant=name)
        return
    board = ("2c", "7d", "9h", "Jc", "Qd", "4s")
    for street in game.streets:
        # The big blind: first to act after the flop, and the first to toss a card.
        dealt = 3 if game.rules.discard and street.board <= 2 else 2
        hand = ("As", "Kh", "8c")[:dealt]
        state = kit.spot(hand=hand, board=board[: street.board], seat=1, variant=name)
        assert (state.street, state.actor, state.hands[1]) == (street.board, 1, hand)
        assert state.legal_actions(), (name, street)
        if "discard" in street.asks and street.board == 2:
            assert state.discard_indices() == (0, 1, 2)


def _over(wire: str, bot: Path) -> Path:
    """The new bot, made to speak ``wire`` (a game's second wire: the MIT one in the
    heads-up ACPC games)."""
    commands = bot / "commands.json"
    data = json.loads(commands.read_text(encoding="utf-8"))
    run = data["run"]
    if "--protocol" in run:
        index = run.index("--protocol")
        del run[index : index + 2]
    if wire == ACPC:
        run += ["--protocol", ACPC]
    data["protocol"] = wire
    commands.write_text(json.dumps(data), encoding="utf-8")
    return bot


@pytest.mark.slow  # bot processes over real sockets
@pytest.mark.parametrize(
    ("name", "wire"), [(name, wire) for name in NAMES for wire in GAMES[name].wires]
)
def test_a_new_bot_plays_over_every_wire_the_game_speaks(
    name: str, wire: str, tmp_path: Path
) -> None:
    game = GAMES[name]
    bot = _over(wire, create_bot(tmp_path / "bot", {"variant": name}))
    others = ["builtin:random", "builtin:checkcall"][: game.rules.seats - 1]
    specs = [kit.BotSpec.parse(str(bot)), *(kit.BotSpec.parse(o) for o in others)]
    config = kit.ScrimmageConfig(rules=game.rules.replace(num_rounds=40), seed=3)
    result = kit.play_table(specs, config, tmp_path / "run")
    assert result.hands_played == 40
    assert result.players[0].fault_counts == {}, result.players[0].first_faults
    assert result.players[0].decisions > 0
    assert wire in (MIT, ACPC)


@pytest.mark.slow  # a new bot's own test suite, in a process of its own
@pytest.mark.parametrize("name", NAMES)
def test_a_new_bot_passes_its_own_tests(name: str, tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "bot", {"variant": name})
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0"],
        cwd=bot,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and " failed" not in run.stdout


#: Real team details: the ACPC profile refuses the template's placeholders (MIT warns).
TEAM = {
    "team_name": "Conformance",
    "leader_name": "Grace Hopper",
    "leader_email": "grace.hopper@yale.edu",
    "members": "Grace Hopper <grace.hopper@yale.edu>",
}


@pytest.mark.slow  # validate builds, starts and plays the bot, as its server would
@pytest.mark.parametrize("name", NAMES)
def test_a_new_bot_validates_for_its_game_without_being_told_it(name: str, tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "bot", {"variant": name, **TEAM})
    report = kit.validate(bot, kit.ValidateOptions(hands=20))
    assert report.ok, report.to_json()
    assert report.stats["variant"] == name  # read from the README's Variant line


@pytest.mark.slow  # validate builds, starts and plays the bot, as its server would
@pytest.mark.parametrize(("name", "strategy"), [(n, s) for n in NAMES for s in ("equity", "range")])
def test_a_strategy_bot_ships_its_tables_stays_within_the_limits_and_validates(
    name: str, strategy: str, tmp_path: Path
) -> None:
    game = GAMES[name]
    bot = create_bot(tmp_path / "bot", {"variant": name, **TEAM}, strategy=strategy)
    # The precomputed tables the strategy reads, shipped with it (nothing is computed at
    # start, where the competition's connect limit runs).
    shipped = {table.name for table in (bot / "refbots" / "data").glob("*.csv")}
    assert {"preflop_matrix.csv", "preflop_equity.csv"} <= shipped
    if game.competition.profile == MIT:
        # The upload: the zip `pokerbots package` writes, within the season's limits.
        season = mit_season(name)
        archive = package_bot(bot, tmp_path / "bot.zip")
        assert archive.stat().st_size <= season.max_upload_bytes
        unzipped = sum(path.stat().st_size for path in bot.rglob("*") if path.is_file())
        assert unzipped <= season.max_unzipped_bytes
    report = kit.validate(bot, kit.ValidateOptions(hands=20))
    assert report.ok, report.to_json()
    statuses = {check.name: check.status for check in report.checks}
    # The build and start limits are the game's competition's (sdk.games' declaration).
    assert statuses["build"] is Status.PASS and statuses["connect"] is Status.PASS
    assert report.stats["variant"] == name


@pytest.mark.parametrize("name", NAMES)
def test_the_games_docs_page_exists_and_its_example_plays_without_a_fault(name: str) -> None:
    game = GAMES[name]
    page = DOCS / game.docs_page
    text = page.read_text(encoding="utf-8")
    assert f"`{name}`" in text or name.startswith("acpc-"), f"{page} never names {name}"
    found = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    if found is None:  # the ACPC page shows no strategy hook; its bots speak the ACPC wire
        assert game.native_wire == ACPC
        return
    namespace: dict[str, Any] = {}
    exec(compile(found.group(1), str(page), "exec"), namespace)
    rules = game.rules
    seats = [
        InProcessSeat("example", namespace["Player"](), rules),
        InProcessSeat("random", make_builtin("random", 1), rules),
    ]
    result = Match(seats, rules, 1, MatchSettings(enforce_clock=False)).play(300)
    assert result.players[0].fault_counts == {}, result.players[0].first_faults
    assert seats[0].alive
