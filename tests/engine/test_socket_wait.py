"""SocketSeat waits in select (or, for a seat with a blocking wait, in recv itself) and sets TCP
options once, not per message."""

from __future__ import annotations

import socket
import sys
import threading
from typing import Any

import pytest

from local_runner.engine import socket_seat
from local_runner.engine.faults import FaultKind
from local_runner.engine.socket_seat import SocketSeat
from local_runner.tables.config import load_config
from sdk.protocol import Clock

QUICKACK = getattr(socket, "TCP_QUICKACK", None)


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


def test_a_reply_is_waited_for_without_polling_and_options_are_set_once() -> None:
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
    # One recv per reply (select said there was something), no spinning; no option set
    # again after the start (a whole line needs no quick ACK).
    assert runner.receives == replies
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


def test_a_timeout_still_comes_at_the_deadline() -> None:
    runner, bot = connected_pair()
    seat = SocketSeat("bot", runner)
    seat.send([Clock(1.0)], 1, ack=True)
    reply = seat.receive(0.05)
    assert reply.fault is FaultKind.TIMEOUT and reply.elapsed == 0.05
    assert runner.receives == 0  # nothing arrived: select timed out, no read was tried
    seat.close()
    bot.close()


class BlockingSeat(SocketSeat):
    """A seat that waits for its own reply in a blocking recv (as the ACPC seat does)."""

    blocking_wait = True


needs_blocking_wait = pytest.mark.skipif(
    not (sys.platform == "linux" and hasattr(socket, "MSG_DONTWAIT")),
    reason="the blocking wait is Linux-only",
)


@needs_blocking_wait
def test_a_blocking_wait_makes_one_recv_per_reply_and_no_select(monkeypatch: Any) -> None:
    runner, bot = connected_pair()
    seat = BlockingSeat("bot", runner)
    selects: list[Any] = []
    real_select = socket_seat.select.select

    def counting_select(*args: Any) -> Any:
        selects.append(args)
        return real_select(*args)

    monkeypatch.setattr(socket_seat.select, "select", counting_select)
    reader = bot.makefile("rb")
    replies = 20

    def answer() -> None:
        for number in range(replies):
            reader.readline()
            if number == replies - 1:  # the last one after the socket's receive timeout
                threading.Event().wait(socket_seat._BLOCKING_SLICE + 0.1)
            bot.sendall(b"K\n")

    answering = threading.Thread(target=answer)
    answering.start()
    for hand in range(replies):
        seat.send([Clock(1.0)], hand, ack=True)
        reply = seat.receive(5.0)
        assert reply.fault is None and reply.text == "K"
    answering.join()
    # One recv per reply, and for the last one those its receive timeouts ended (at least
    # one, more if the answering thread was slow to wake); select never ran.
    assert runner.receives > replies
    assert selects == []
    seat.close()
    bot.close()


@needs_blocking_wait
def test_a_blocking_wait_still_times_out_at_the_deadline_and_drops_the_late_reply() -> None:
    runner, bot = connected_pair()
    seat = BlockingSeat("bot", runner)
    budget = socket_seat._BLOCKING_SLICE + socket_seat._BLOCKING_MARGIN + 0.2
    seat.send([Clock(1.0)], 1, ack=True)
    reply = seat.receive(budget)
    assert reply.fault is FaultKind.TIMEOUT and reply.elapsed == budget
    bot.sendall(b"K\nK\n")  # the late reply, then the answer to the next message
    seat.send([Clock(1.0)], 2, ack=True)
    reply = seat.receive(5.0)
    assert reply.fault is None and reply.text == "K" and reply.hand == 2
    seat.close()
    bot.close()


def test_an_old_config_with_spin_wait_still_loads(tmp_path: Any) -> None:
    path = tmp_path / "match.toml"
    path.write_text("[runner]\nspin_wait = 0.0003\n")
    assert load_config(path).runner.spin_wait == 0.0003
