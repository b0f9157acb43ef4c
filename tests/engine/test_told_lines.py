"""Messages that ask for no reply (the ACPC final state of a hand) wait for the seat's next
message: every one still arrives, in order, and the last before the end of the match."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from local_runner.engine import socket_seat
from local_runner.engine.socket_seat import SocketSeat
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.protocol import Clock
from sdk.rules import Rules
from tests.conftest import MakeBot
from tests.engine.test_acpc_seat import acpc_bot


def _pair() -> tuple[socket.socket, socket.socket]:
    """The runner's end and the bot's end of a loopback TCP connection."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        bot = socket.create_connection(listener.getsockname())
        runner, _ = listener.accept()
    bot.settimeout(5.0)
    return runner, bot


def _nothing_waiting(sock: socket.socket) -> bool:
    """Whether nothing has arrived (loopback delivers a write at once)."""
    try:
        sock.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK)
    except (BlockingIOError, TimeoutError):  # the latter where the socket has a timeout
        return True
    return False


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        assert chunk, f"the connection closed after {data!r}"
        data += chunk
    return data


def test_a_told_message_goes_with_the_next_message_in_order() -> None:
    runner, bot = _pair()
    seat = SocketSeat("bot", runner)
    told = seat.codec.encode([Clock(1.0)])
    asked = seat.codec.encode([Clock(2.0)])
    seat.tell([Clock(1.0)], 1)
    assert _nothing_waiting(bot)  # not written yet: the bot has nothing to do with it
    seat.send([Clock(2.0)], 2, ack=False)
    assert _read_exactly(bot, len(told) + len(asked)) == told + asked
    seat.close()
    bot.close()


def test_what_was_told_is_written_before_the_end_of_the_match() -> None:
    runner, bot = _pair()
    seat = SocketSeat("bot", runner)
    first, second = seat.codec.encode([Clock(1.0)]), seat.codec.encode([Clock(3.0)])
    seat.tell([Clock(1.0)], 1)
    seat.tell([Clock(3.0)], 2)
    seat.quit()
    quit_line = seat.codec.quit_line
    expected = first + second + quit_line
    assert _read_exactly(bot, len(expected)) == expected
    seat.close()
    assert bot.recv(1) == b""  # and then the end
    bot.close()


def test_a_seat_long_without_a_question_gets_its_told_lines_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(socket_seat, "_TOLD_BYTES", 20)
    runner, bot = _pair()
    seat = SocketSeat("bot", runner)
    line = seat.codec.encode([Clock(1.0)])
    count = 20 // len(line) + 1  # just over the bound
    for hand in range(count):
        seat.tell([Clock(1.0)], hand)
    assert _read_exactly(bot, count * len(line)) == line * count
    seat.close()
    bot.close()


# A bot on the ACPC wire that counts, from the final states it is shown, the hands it saw
# end and its bankroll, and prints both with each hand's end (its log keeps them).
COUNTING_BOT = """
    from sdk.actions import CallAction, CheckAction
    from sdk.bot import Bot
    from sdk.runner import parse_args, run_bot

    class Counting(Bot):
        ended = 0

        def handle_round_over(self, game_state, terminal_state, active):
            self.ended += 1
            hand, bankroll = game_state.round_num, game_state.bankroll
            print(f"ended {self.ended} round {hand} bankroll {bankroll}", flush=True)

        def get_action(self, game_state, round_state, active):
            legal = round_state.legal_actions()
            return CheckAction() if CheckAction in legal else CallAction()

    run_bot(Counting(), parse_args(), protocol="acpc")
"""


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["acpc-2pn", "acpc-3pl"])
def test_an_acpc_bot_sees_the_end_of_every_hand_the_last_one_included(
    make_bot: MakeBot, tmp_path: Path, variant: str
) -> None:
    rules = Rules.for_variant(variant).replace(num_rounds=60)
    bot = acpc_bot(make_bot, "counting", COUNTING_BOT)
    others = ["builtin:raise", "builtin:checkcall"][: rules.seats - 1]
    specs = [BotSpec.parse(str(bot)), *map(BotSpec.parse, others)]
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=7), tmp_path / "out")
    log = (tmp_path / "out" / "counting.log").read_text(encoding="utf-8")
    ends = [line.split() for line in log.splitlines() if line.startswith("ended ")]
    assert result.hands_played == 60
    assert result.players[0].fault_counts == {}, log[-2000:]
    # Every hand's final state came, in order, the last one before the connection closed;
    # the bot's own bankroll, summed from them, is the match's.
    assert [int(end[1]) for end in ends] == list(range(1, 61)), log[-2000:]
    assert [int(end[3]) for end in ends] == list(range(1, 61))
    assert int(ends[-1][5]) == result.players[0].bankroll
