"""SocketSeat waits without polling (one blocking ``recv`` when only one seat owes a reply,
``select`` otherwise) and sets socket options once, not per message."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from local_runner.engine import socket_seat
from local_runner.engine.faults import FaultKind
from local_runner.engine.socket_seat import SocketSeat
from local_runner.tables.config import load_config
from sdk.protocol import Clock

QUICKACK = getattr(socket, "TCP_QUICKACK", None)
BLOCKING_READS = not socket_seat._NONBLOCKING_ONLY  # Linux: a lone wait is the recv itself


class CountingSocket(socket.socket):
    """A TCP socket that counts its system calls of interest."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options: list[int] = []
        self.receives = 0

    def setsockopt(self, *args: Any) -> None:  # type: ignore[override]
        self.options.append(args[1])
        super().setsockopt(*args)

    def recv(self, *args: Any) -> bytes:  # type: ignore[override]
        self.receives += 1
        return super().recv(*args)


def connected_pair() -> tuple[CountingSocket, socket.socket]:
    """The runner's end (counting) and the bot's end of a loopback TCP connection."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        bot = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
    runner = CountingSocket(accepted.family, accepted.type, accepted.proto, accepted.detach())
    return runner, bot


def count_selects(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the seat's ``select`` calls (one entry per call: how many sockets it watched)."""
    calls: list[int] = []
    real = socket_seat.select.select

    def counting(read: Any, *args: Any) -> Any:
        calls.append(len(read))
        return real(read, *args)

    monkeypatch.setattr(socket_seat.select, "select", counting)
    return calls


def test_a_reply_is_waited_for_without_polling_and_options_are_set_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    selects = count_selects(monkeypatch)
    runner, bot = connected_pair()
    seat = SocketSeat("bot", runner, spin_wait=0.01)  # accepted, ignored
    options_at_start = list(runner.options)
    assert socket.TCP_NODELAY in options_at_start
    reader = bot.makefile("rb")
    replies = 50

    def answer() -> None:
        for _ in range(replies):
            reader.readline()
            bot.sendall(b"K\n")

    answering = threading.Thread(target=answer)
    answering.start()
    for hand in range(replies):
        seat.send([Clock(1.0)], hand, ack=True)
        reply = seat.receive(5.0)
        assert reply.fault is None and reply.text == "K"
    answering.join()
    # One recv per reply, no spinning; no TCP option set again after the start (a whole
    # line needs no quick ACK).  Nobody else owes a reply, so on Linux the wait is the recv
    # itself, bounded by SO_RCVTIMEO, set once for the whole run; elsewhere select said
    # there was something.
    assert runner.receives == replies
    if BLOCKING_READS:
        assert selects == []
        assert runner.options == [*options_at_start, socket.SO_RCVTIMEO]
    else:
        assert len(selects) == replies
        assert runner.options == options_at_start
    seat.close()
    bot.close()


@pytest.mark.skipif(QUICKACK is None, reason="TCP_QUICKACK is Linux-only")
def test_a_line_that_comes_in_pieces_is_acknowledged_at_once() -> None:
    runner, bot = connected_pair()
    seat = SocketSeat("bot", runner)
    before = runner.options.count(QUICKACK or 0)
    seat.send([Clock(1.0)], 1, ack=True)
    bot.sendall(b"C")  # the rest of the line waits in the bot (Nagle) for this piece's ACK
    received: list[Any] = []
    finish = threading.Timer(0.2, lambda: bot.sendall(b"K\n"))
    finish.start()
    received.append(seat.receive(5.0))
    finish.join()
    assert received[0].fault is FaultKind.MISFORMATTED and received[0].text == "CK"
    assert runner.options.count(QUICKACK or 0) == before + 1
    seat.close()
    bot.close()


@pytest.mark.skipif(not BLOCKING_READS, reason="blocking reads with SO_RCVTIMEO: Linux only")
def test_a_shrinking_budget_sets_the_read_timeout_seldom_and_a_timeout_still_comes() -> None:
    runner, bot = connected_pair()
    seat = SocketSeat("bot", runner)
    reader = bot.makefile("rb")
    # Budgets that shrink a little with every reply, as a game clock does near its end.
    budgets = [2.0 - 0.01 * n for n in range(100)]
    for hand, budget in enumerate(budgets):
        seat.send([Clock(budget)], hand, ack=True)
        reader.readline()
        bot.sendall(b"K\n")
        reply = seat.receive(budget)
        assert reply.fault is None and reply.text == "K"
    # Set when the bound would outlast a budget, to half of it: twice here, not per reply.
    assert runner.options.count(socket.SO_RCVTIMEO) == 2
    # No reply: the reads that the bound ends return nothing, and the timeout is reported
    # at the budget, as with select.
    seat.send([Clock(0.3)], 101, ack=True)
    reader.readline()
    reply = seat.receive(0.3)
    assert reply.fault is FaultKind.TIMEOUT and reply.elapsed == 0.3
    assert runner.receives > len(budgets)  # blocking reads that timed out
    seat.close()
    bot.close()


def test_a_peer_that_owes_a_reply_is_watched_with_select(monkeypatch: pytest.MonkeyPatch) -> None:
    selects = count_selects(monkeypatch)
    first_runner, first_bot = connected_pair()
    second_runner, second_bot = connected_pair()
    first, second = SocketSeat("a", first_runner), SocketSeat("b", second_runner)
    first.peers, second.peers = [second], [first]
    second.send([Clock(1.0)], 1, ack=True)  # b owes a K while a is asked
    first.send([Clock(1.0)], 1, ack=True)
    threading.Timer(0.1, lambda: first_bot.sendall(b"K\n")).start()
    second_bot.sendall(b"K\n")
    assert first.receive(5.0).text == "K"
    assert selects and all(count == 2 for count in selects)
    assert second.receive(5.0).text == "K"  # read while a was waited for
    for seat, bot in ((first, first_bot), (second, second_bot)):
        seat.close()
        bot.close()


def test_a_timeout_still_comes_at_the_deadline() -> None:
    runner, bot = connected_pair()
    seat = SocketSeat("bot", runner)
    seat.send([Clock(1.0)], 1, ack=True)
    reply = seat.receive(0.05)
    assert reply.fault is FaultKind.TIMEOUT and reply.elapsed == 0.05
    assert runner.receives == 0  # nothing arrived: select timed out, no read was tried
    seat.close()
    bot.close()


def test_an_old_config_with_spin_wait_still_loads(tmp_path: Any) -> None:
    path = tmp_path / "match.toml"
    path.write_text("[runner]\nspin_wait = 0.0003\n")
    assert load_config(path).runner.spin_wait == 0.0003


def test_a_repeated_reply_reads_the_same_and_a_bad_one_stays_bad() -> None:
    """Replies are remembered once decoded (the MIT wire); a misformatted one never is."""
    runner, bot = connected_pair()
    seat = SocketSeat("bot", runner)
    replies = []
    for hand, line in enumerate([b"R20\n", b"R20\n", b"R2x\n", b"R2x\n", b"K\n", b"K\n"]):
        seat.send([Clock(1.0)], hand, ack=False)
        bot.sendall(line)
        replies.append(seat.receive(5.0))
    assert [reply.text for reply in replies] == ["R20", "R20", "R2x", "R2x", "K", "K"]
    assert replies[0].action == replies[1].action and replies[0].fault is None
    assert replies[2].fault is FaultKind.MISFORMATTED and replies[3].fault is FaultKind.MISFORMATTED
    assert replies[3].action is None and replies[3].detail == replies[2].detail
    assert type(replies[5].action).__name__ == "CheckAction"
    seat.close()
    bot.close()
