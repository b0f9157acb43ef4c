"""Bots that speak the ACPC wire, hosted by the kit's runner (heads-up ACPC games).

The runner starts an ACPC bot as the ACPC server does (``./startme.sh HOST PORT``, or a
``commands.json`` with ``"protocol": "acpc"``), reads its version line, sends it a
``MATCHSTATE`` line for the start of every hand and after every action, and reads the
replies that echo the state they answer.  These tests use a kit bot speaking the ACPC wire
through ``run_bot(..., protocol="acpc")``; ``test_the_real_example_player_plays_in_the_kit``
runs the ACPC server's own example player where a build of it is named by
``POKERBOTS_ACPC_DEALER``.  Three-handed tables and mixed wires are in
``test_acpc_tables.py``; the lines themselves, against the real dealer's, in
``test_acpc_view.py``.
"""

from __future__ import annotations

import json
import os
import stat
import textwrap
from pathlib import Path

import pytest

from local_runner.engine.faults import FaultKind
from local_runner.programs.bot_program import BotDirectoryError, BotProgram
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.rules import Rules
from tests.acpc_checks import STALE_ECHO
from tests.conftest import MakeBot

pytestmark = pytest.mark.slow  # bot processes over sockets


ACPC_BOT = """
    from local_runner.bots.builtin import make_builtin
    from sdk.runner import parse_args, run_bot

    run_bot(make_builtin("random", 5), parse_args(), protocol="acpc")
"""


def acpc_bot(make_bot: MakeBot, name: str, source: str, startme: bool = True) -> Path:
    """A bot directory whose player.py speaks the ACPC wire."""
    directory = make_bot(name, source, startme=startme)
    if not startme:
        commands = json.loads((directory / "commands.json").read_text(encoding="utf-8"))
        commands["protocol"] = "acpc"
        (directory / "commands.json").write_text(json.dumps(commands), encoding="utf-8")
    return directory


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-2pn"])
@pytest.mark.parametrize("startme", [True, False])
def test_a_bot_on_the_acpc_wire_plays_a_heads_up_acpc_game_without_a_fault(
    make_bot: MakeBot, tmp_path: Path, variant: str, startme: bool
) -> None:
    bot = acpc_bot(make_bot, "acpcbot", ACPC_BOT, startme=startme)
    rules = Rules.for_variant(variant).replace(num_rounds=200)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:raise")]
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=3), tmp_path / "out")
    player = result.players[0]
    log = (tmp_path / "out" / "acpcbot.log").read_text(encoding="utf-8")
    assert result.hands_played == 200
    assert player.fault_counts == {}, log[-2000:]
    assert player.decisions > 150 and player.defaulted == 0
    assert sum(p.bankroll for p in result.players) == 0


def test_a_reply_to_an_old_state_is_misformatted_and_played_by_default(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    bot = acpc_bot(make_bot, "stale", STALE_ECHO)
    rules = Rules.for_variant("acpc-2pl").replace(num_rounds=5)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:raise")]
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=3), tmp_path / "out")
    faults = result.players[0].fault_counts
    assert faults.get(FaultKind.MISFORMATTED, 0) > 0
    detail = result.players[0].first_faults[0].detail
    assert "echoes" in detail and "answer only the latest state" in detail


def test_the_protocol_key_of_commands_json_is_checked(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "commands.json").write_text(
        json.dumps({"build": [], "run": ["python3", "p.py"], "protocol": "smoke-signals"})
    )
    with pytest.raises(BotDirectoryError, match='use "mit"'):
        BotProgram.from_directory(bot)
    (bot / "commands.json").write_text(
        json.dumps({"build": [], "run": ["python3", "p.py"], "protocol": "acpc"})
    )
    assert BotProgram.from_directory(bot).protocol == "acpc"


@pytest.mark.live
@pytest.mark.skipif(
    not os.environ.get("POKERBOTS_ACPC_DEALER"),
    reason="set POKERBOTS_ACPC_DEALER to the folder of a built ACPC dealer and example_player",
)
@pytest.mark.parametrize(
    ("variant", "game"),
    [
        ("acpc-2pl", "holdem.limit.2p.reverse_blinds.game"),
        ("nolimit-server", "holdem.nolimit.2p.reverse_blinds.game"),
    ],
)
def test_the_real_example_player_plays_in_the_kit(tmp_path: Path, variant: str, game: str) -> None:
    build = Path(os.environ["POKERBOTS_ACPC_DEALER"])
    bot = tmp_path / "example_player"
    bot.mkdir()
    startme = bot / "startme.sh"
    startme.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        exec "{build / "example_player"}" "{build / game}" "$1" "$2"
    """),
        encoding="utf-8",
    )
    startme.chmod(startme.stat().st_mode | stat.S_IXUSR)
    if variant == "acpc-2pl":
        config = ScrimmageConfig(rules=Rules.for_variant(variant).replace(num_rounds=500), seed=1)
    else:
        config = ScrimmageConfig(seed=1).with_overrides(game=build / game, rounds=500)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:random")]
    result = run_scrimmage(specs, config, tmp_path / "out")
    assert result.hands_played == 500
    assert result.players[0].fault_counts == {} and result.players[0].decisions > 300


MIT_WIRE_BOT = """
    from local_runner.bots.builtin import make_builtin
    from sdk.runner import parse_args, run_bot

    run_bot(make_builtin("raise", 5), parse_args())
"""


def test_an_mit_wire_bot_plays_an_acpc_game_where_the_board_runs_out(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    # Heads-up no-limit with the ACPC rules: an all-in seat is skipped and the board runs
    # out; the MIT wire then sends the whole board after the last action.
    bot = make_bot("mitbot", MIT_WIRE_BOT)
    rules = Rules.for_variant("acpc-2pn").replace(num_rounds=300)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:raise")]
    out = tmp_path / "out"
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=2), out)
    assert result.players[0].fault_counts == {}, (out / "mitbot.log").read_text()[-2000:]
    hands = [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]
    run_outs = [
        h
        for h in hands
        if h["showdown"] and len(h["board"]) == 5 and all(a["street"] == 0 for a in h["actions"])
    ]
    assert run_outs, "no all-in before the flop in 300 hands of raise against raise"


def test_an_acpc_wire_bot_is_refused_in_a_game_the_acpc_wire_cannot_carry(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    from local_runner.tables.scrimmage import UsageError

    bot = acpc_bot(make_bot, "acpcbot", ACPC_BOT, startme=False)  # "protocol": "acpc"
    rules = Rules.for_variant("auction").replace(num_rounds=5)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:raise")]
    with pytest.raises(UsageError, match="no words for swaps, auctions"):
        run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=3), tmp_path / "out")
    assert not (tmp_path / "out").exists()
