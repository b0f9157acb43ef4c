"""End to end: real bot processes over real sockets, including bots that misbehave."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from local_runner.engine.faults import FaultKind
from local_runner.runs.summary import summary_content
from local_runner.tables.config import RunnerSettings, ScrimmageConfig
from local_runner.tables.spec import BotSpec
from local_runner.tables.table import play_table
from sdk.rules import Rules
from tests.conftest import MakeBot

pytestmark = pytest.mark.slow  # bot processes over sockets

CALLER = """
from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

run_bot(Player(), parse_args())
"""


def scrimmage(
    tmp_path: Path, bots: list[Path | str], rounds: int, **runner: float
) -> tuple[dict, Path]:
    out = tmp_path / "out"
    config = ScrimmageConfig(
        rules=Rules().replace(num_rounds=rounds),
        seed=11,
        runner=RunnerSettings(**runner),
    )
    specs = [BotSpec.parse(str(bot)) for bot in bots]
    result = play_table(specs, config, out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary == json.loads(json.dumps(summary_content(result.to_dict())))
    return summary, out


def faults(summary: dict, player: int) -> dict[str, int]:
    return {kind: n for kind, n in summary["players"][player]["faults"].items() if n}


def test_two_subprocess_bots_play_a_full_match(make_bot: MakeBot, tmp_path: Path) -> None:
    first = make_bot("first", CALLER)
    second = make_bot("second", CALLER, startme=True)
    summary, out = scrimmage(tmp_path, [first, second], rounds=200)
    assert summary["rounds"] == 200
    assert summary["variant"] == "nlhe"
    bankrolls = [player["bankroll"] for player in summary["players"]]
    assert sum(bankrolls) == 0
    assert faults(summary, 0) == {} and faults(summary, 1) == {}
    hands = [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]
    assert [hand["hand"] for hand in hands] == list(range(1, 201))
    assert sum(hand["deltas"][hand["players"].index("first")] for hand in hands) == bankrolls[0]
    gamelog = (out / "gamelog.txt").read_text()
    assert gamelog.startswith("6.9630 MIT Pokerbots - first vs second")
    assert f"Final, first ({bankrolls[0]}), second ({bankrolls[1]})" in gamelog
    assert (out / "first.log").exists() and (out / "second.log").exists()


def test_a_bot_that_crashes_mid_match_is_recorded_and_the_match_ends(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    crasher = make_bot(
        "crasher",
        """
        import os
        from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

        class Player(Bot):
            def handle_new_round(self, game_state, round_state, active):
                if game_state.round_num == 5:
                    os._exit(3)
            def get_action(self, game_state, round_state, active):
                return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

        run_bot(Player(), parse_args())
        """,
    )
    summary, _ = scrimmage(tmp_path, [crasher, "builtin:checkcall"], rounds=40)
    assert summary["rounds"] == 40
    assert faults(summary, 0) == {"crash": 1}
    detail = summary["players"][0]["fault_details"][0]
    assert detail["kind"] == "crash" and detail["hand"] == 5 and "exit code 3" in detail["detail"]
    # The crashed bot folds every hand it cannot check after that, so it loses chips.
    assert summary["players"][0]["bankroll"] < 0


def test_a_bot_that_hangs_past_the_reply_timeout_once_keeps_playing(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    sleeper = make_bot(
        "sleeper",
        """
        import time
        from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

        class Player(Bot):
            def get_action(self, game_state, round_state, active):
                if game_state.round_num == 3 and round_state.street == 0:
                    time.sleep(1.5)
                return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

        run_bot(Player(), parse_args())
        """,
    )
    summary, _ = scrimmage(tmp_path, [sleeper, "builtin:checkcall"], rounds=30, reply_timeout=0.5)
    assert summary["rounds"] == 30
    assert faults(summary, 0) == {"timeout": 1}
    assert summary["players"][0]["fault_details"][0]["hand"] == 3


def test_garbage_and_illegal_replies_are_recorded_and_replaced_by_a_default(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    rude = make_bot(
        "rude",
        """
        import socket, sys
        from sdk.runner import parse_args
        args = parse_args()
        sock = socket.create_connection((args.host, args.port))
        reader = sock.makefile("rb")
        count = 0
        for line in reader:
            if line.startswith(b"Q"):
                break
            count += 1
            clauses = line.split()
            ends_hand = any(c.startswith(b"D") for c in clauses)
            if ends_hand:
                reply = b"K"
            elif count % 3 == 0:
                reply = b"hello there"
            elif count % 3 == 1:
                reply = b"R100000"
            else:
                reply = b"K"
            sock.sendall(reply + b"\\n")
        """,
    )
    summary, out = scrimmage(tmp_path, [rude, "builtin:checkcall"], rounds=30)
    counts = faults(summary, 0)
    assert summary["rounds"] == 30
    assert counts.get("misformatted", 0) > 0 and counts.get("illegal", 0) > 0
    assert set(counts) <= {"misformatted", "illegal"}
    gamelog = (out / "gamelog.txt").read_text()
    assert "rude attempted illegal Raise with amount 100000" in gamelog
    assert "rude response misformatted" in gamelog
    assert faults(summary, 1) == {}


def test_a_bot_that_never_connects_stops_the_match_before_its_first_hand(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    silent = make_bot("silent", "import time\ntime.sleep(30)\n")
    summary, _ = scrimmage(tmp_path, [silent, "builtin:checkcall"], rounds=10, connect_timeout=0.5)
    assert summary["rounds"] == 0
    assert faults(summary, 0) == {"never_connected": 1}
    assert summary["players"][0]["start_failure"] == "never_connected: did not connect within 0.5 s"
    assert summary["players"][1]["start_failure"] is None


def test_a_failing_build_is_reported_not_ignored(tmp_path: Path) -> None:
    bot = tmp_path / "broken"
    bot.mkdir()
    (bot / "commands.json").write_text('{"build": ["false"], "run": ["true"]}')
    summary, _ = scrimmage(tmp_path, [bot, "builtin:random"], rounds=5)
    assert faults(summary, 0) == {"build_failed": 1}
    assert FaultKind.BUILD_FAILED.value in summary["players"][0]["fault_details"][0]["kind"]
