"""ACPC tables over sockets: three seats, mixed wires, and the ACPC server's own player.

Real bot processes connect to the kit's runner over TCP: kit bots that speak the ACPC wire
through ``run_bot(..., protocol="acpc")`` (one from a ``commands.json`` with
``"protocol": "acpc"``, one from a ``startme.sh`` alone, as the ACPC server starts bots),
built-in bots in the runner's process, MIT-wire bots where the game seats two, and, where
``POKERBOTS_ACPC_DEALER`` names a build of the ACPC server, its ``example_player``.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from local_runner.engine.acpc_seat import AcpcSocketSeat
from local_runner.engine.seat_view import Message
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.rules import Rules
from tests.conftest import MakeBot
from tests.engine.test_acpc_seat import ACPC_BOT, acpc_bot

pytestmark = pytest.mark.slow  # bot processes over sockets


MIT_RANDOM = """
    from local_runner.bots.builtin import make_builtin
    from sdk.runner import parse_args, run_bot

    run_bot(make_builtin("random", 5), parse_args())
"""

MIT_RAISE = """
    from local_runner.bots.builtin import make_builtin
    from sdk.runner import parse_args, run_bot

    run_bot(make_builtin("raise", 7), parse_args())
"""


def hands_of(out: Path) -> list[dict[str, object]]:
    """The hands of a scrimmage's ``hands.jsonl``."""
    return [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]


def test_pokerbots_scrimmage_plays_three_acpc_bots_over_sockets_with_logs_stats_and_plots(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib", reason="the plot needs the kit's [plot] extra")
    listed = acpc_bot(make_bot, "listed", ACPC_BOT, startme=False)  # "protocol": "acpc"
    started = acpc_bot(make_bot, "started", ACPC_BOT, startme=True)  # startme.sh HOST PORT
    out = tmp_path / "out"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "scrimmage",
            str(listed),
            str(started),
            "builtin:chump",
            "--variant",
            "acpc-3pl",
            "--rounds",
            "300",
            "--seed",
            "4",
            "--out",
            str(out),
            "--plot",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["variant"] == "acpc-3pl" and summary["rounds"] == 300
    players = summary["players"]
    assert [p["name"] for p in players] == ["listed", "started", "chump"]
    assert all(sum(p["faults"].values()) == 0 for p in players), players
    assert all(p["decisions"] > 100 and p["decisions_defaulted"] == 0 for p in players[:2])
    assert sum(p["bankroll"] for p in players) == 0
    assert len(summary["statistics"]["players"]) == 3
    hands = hands_of(out)
    assert len(hands) == 300 and all(sum(h["deltas"]) == 0 for h in hands)  # type: ignore[arg-type]
    assert any(h["showdown"] for h in hands)
    for name in ("listed", "started"):
        assert (out / f"{name}.log").exists()
    assert (out / "gamelog.txt").read_text().startswith("6.9630 MIT Pokerbots - listed vs started")
    assert (out / "bankroll.png").stat().st_size > 1000
    assert "chump" in run.stdout and "mbb/hand" in run.stdout


def test_no_acpc_seat_is_sent_a_line_while_it_owes_a_reply(
    make_bot: MakeBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The ACPC dealer never writes to a seat that is to act before it answers; neither does
    # the kit (lines that ask for nothing travel with the next question or the hand's end).
    writes: list[tuple[str, int, int]] = []  # (bot, hand, replies owed) at every write
    send, tell = AcpcSocketSeat.send, AcpcSocketSeat.tell

    def watched_send(self: AcpcSocketSeat, message: Message, hand: int, ack: bool) -> None:
        writes.append((self.name, hand, self.outstanding))
        send(self, message, hand, ack)

    def watched_tell(self: AcpcSocketSeat, message: Message, hand: int) -> None:
        writes.append((self.name, hand, self.outstanding))
        tell(self, message, hand)

    monkeypatch.setattr(AcpcSocketSeat, "send", watched_send)
    monkeypatch.setattr(AcpcSocketSeat, "tell", watched_tell)
    bots = [acpc_bot(make_bot, name, ACPC_BOT) for name in ("a", "b", "c")]
    rules = Rules.for_variant("acpc-3pl").replace(num_rounds=200)
    result = run_scrimmage(
        [BotSpec.parse(str(b)) for b in bots],
        ScrimmageConfig(rules=rules, seed=5),
        tmp_path / "out",
    )
    assert all(p.fault_counts == {} for p in result.players)
    assert len(writes) > 200 * 3  # every seat is told every hand's end, at least
    assert [write for write in writes if write[2]] == []


def test_a_mixed_table_plays_the_same_hands_as_an_all_mit_table(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    # The same seeded bot on either wire makes the same decisions: the ACPC view and client
    # carry exactly what the MIT view and client carry, in heads-up no-limit (acpc-2pn).
    on_acpc = acpc_bot(make_bot, "random-acpc", ACPC_BOT)  # random, seed 5
    on_mit = make_bot("random-mit", MIT_RANDOM)
    raiser = make_bot("raiser", MIT_RAISE)
    rules = Rules.for_variant("acpc-2pn").replace(num_rounds=300)
    config = ScrimmageConfig(rules=rules, seed=6)
    results = {}
    for label, bot in (("mixed", on_acpc), ("mit", on_mit)):
        specs = [BotSpec.parse(str(bot)), BotSpec.parse(str(raiser))]
        out = tmp_path / label
        result = run_scrimmage(specs, config, out)
        assert all(p.fault_counts == {} for p in result.players), label
        results[label] = (result, hands_of(out))
    (mixed, mixed_hands), (mit, mit_hands) = results["mixed"], results["mit"]
    assert [p.bankroll for p in mixed.players] == [p.bankroll for p in mit.players]
    strip = [{k: v for k, v in h.items() if k not in ("actions", "players")} for h in mit_hands]
    assert [
        {k: v for k, v in h.items() if k not in ("actions", "players")} for h in mixed_hands
    ] == strip
    moves = [[(a["seat"], a["action"]) for a in h["actions"]] for h in mit_hands]  # type: ignore[attr-defined]
    assert [[(a["seat"], a["action"]) for a in h["actions"]] for h in mixed_hands] == moves  # type: ignore[attr-defined]
    assert mixed.players[0].decisions == mit.players[0].decisions > 200


@pytest.mark.live
@pytest.mark.skipif(
    not os.environ.get("POKERBOTS_ACPC_DEALER"),
    reason="set POKERBOTS_ACPC_DEALER to the folder of a built ACPC dealer and example_player",
)
def test_two_real_example_players_and_a_kit_bot_play_three_handed_in_the_kit(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    build = Path(os.environ["POKERBOTS_ACPC_DEALER"])
    players = []
    for name in ("example-1", "example-2"):
        bot = tmp_path / name
        bot.mkdir()
        startme = bot / "startme.sh"
        startme.write_text(
            textwrap.dedent(f"""\
            #!/bin/sh
            exec "{build / "example_player"}" "{build / "holdem.limit.3p.game"}" "$1" "$2"
        """),
            encoding="utf-8",
        )
        startme.chmod(startme.stat().st_mode | stat.S_IXUSR)
        players.append(bot)
    kit = acpc_bot(make_bot, "kit", ACPC_BOT)
    rules = Rules.for_variant("acpc-3pl").replace(num_rounds=600)
    specs = [BotSpec.parse(str(path)) for path in (*players, kit)]
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=2), tmp_path / "out")
    assert result.hands_played == 600
    for player in result.players:
        assert player.fault_counts == {}, (player.name, player.first_faults)
        assert player.decisions > 200 and player.defaulted == 0
    assert sum(p.bankroll for p in result.players) == 0
