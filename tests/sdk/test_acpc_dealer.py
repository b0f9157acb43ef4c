"""Live: the real ACPC dealer and example_player, read with the kit's codec.

Runs only when ``POKERBOTS_ACPC_DEALER`` names a folder holding the ACPC server's ``dealer``,
``example_player`` and ``*.game`` files, built from the University of Alberta
``project_acpc_server`` v1.0.42; skipped otherwise.  Everything runs on loopback.
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from sdk.acpc import (
    VERSION_LINE,
    AcpcActionError,
    AcpcEchoError,
    encode_line,
    format_reply,
    is_comment,
    parse_match_state,
    parse_reply,
    strip_line_ending,
)
from sdk.gamedef import parse_gamedef
from tests.acpc_checks import check_all, live_match

FOLDER = os.environ.get("POKERBOTS_ACPC_DEALER")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.live,
    pytest.mark.skipif(
        not FOLDER,
        reason="set POKERBOTS_ACPC_DEALER to the folder of a built ACPC dealer and example_player",
    ),
]


@pytest.mark.parametrize("label", ["acpc-2pl", "acpc-3pl", "nolimit-2p-server", "acpc-2pn"])
def test_real_dealer_match_reads_with_the_codec(label: str, tmp_path: Path) -> None:
    golden = live_match(Path(str(FOLDER)), label, 6, 11, tmp_path)
    hands = check_all(golden)
    assert sorted(hands) == list(range(6))


def test_dealer_and_codec_agree_on_bad_replies(tmp_path: Path) -> None:
    """A stale echo and an unreadable action: the dealer warns exactly where the codec
    raises AcpcEchoError and AcpcActionError, and the match goes on."""
    folder = Path(str(FOLDER))
    game_file = "holdem.limit.2p.reverse_blinds.game"
    game = parse_gamedef((folder / game_file).read_text())
    dealer = subprocess.Popen(
        [
            str(folder / "dealer"),
            "bad",
            str(folder / game_file),
            "2",
            "3",
            "kit",
            "chump",
            "--start_timeout",
            "20000",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert dealer.stdout is not None
    ports = [int(word) for word in dealer.stdout.readline().split()]
    chump = subprocess.Popen(
        [str(folder / "example_player"), str(folder / game_file), "127.0.0.1", str(ports[1])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sent: list[str] = []
    with socket.create_connection(("127.0.0.1", ports[0]), timeout=20) as sock:
        sock.sendall(encode_line(VERSION_LINE))
        reader = sock.makefile("r", encoding="ascii", newline="")
        previous: str | None = None
        turns = 0
        for raw in reader:
            if is_comment(raw):
                continue
            line = strip_line_ending(raw)
            state = parse_match_state(line, game)
            acting = _acting(state, game)
            if acting and turns == 0 and previous is not None:
                stale = format_reply(previous, "c")
                with pytest.raises(AcpcEchoError):
                    parse_reply(stale, state, game)
                garbled = f"{line}:x"
                with pytest.raises(AcpcActionError):
                    parse_reply(garbled, state, game)
                sent += [stale, garbled]
                sock.sendall(encode_line(stale) + encode_line(garbled))
                turns += 1
            elif acting:
                sock.sendall(encode_line(format_reply(line, "c")))
            previous = line
    assert dealer.wait(timeout=30) == 0 and chump.wait(timeout=10) == 0
    stderr = dealer.stderr.read() if dealer.stderr else ""
    dealer.stdout.close()
    warnings = [line for line in stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    assert sent, "the kit's seat never had a turn after its first state"
    assert warnings == [
        "WARNING: ignoring un-requested response",
        # An unknown letter is read as an invalid action, not as a bad format: same outcome.
        "WARNING: invalid action, changed to call",
    ]


def _acting(state: object, game: object) -> bool:
    """Whether the viewer is to act, for this test's simple client: it only ever calls, and so
    does its replay of the betting, which needs the order of play of heads-up limit."""
    from sdk.acpc import MatchState, first_to_act
    from sdk.gamedef import GameDef

    assert isinstance(state, MatchState) and isinstance(game, GameDef)
    actions = state.betting[-1]
    if any(action.kind == "f" for round_ in state.betting for action in round_):
        return False
    final_round = len(state.betting) == game.num_rounds
    closed = len(actions) >= 2 and actions[-1].kind == "c"
    if final_round and closed:
        return False  # the hand is over (showdown)
    actor = (first_to_act(game, state.round) + len(actions)) % 2
    return actor == state.position
