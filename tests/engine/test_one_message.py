"""The MIT wire's one-outstanding-message rule: a seat is never sent a line while it owes a reply.

Every MIT Python skeleton reads and writes through one text file, ``sock.makefile('rw')``;
CPython's text file throws away what it has read ahead when it is written to, so a second
line that arrives before the first is answered is lost and the bot then waits forever.  The
MIT engines never send a seat a second message before its reply; neither may this engine.

The in-process checks are deterministic (they do not depend on scheduling): a seat wrapper
records every send made while the same seat still owes a reply.  The end-to-end checks run
bot processes whose I/O is the skeleton's own, over many seeds and every variant.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.engine.faults import FaultKind
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.seats import InProcessSeat, Reply, Seat
from local_runner.engine.socket_seat import SocketSeat
from local_runner.tables.config import RunnerSettings, ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.games import MIT_VARIANTS
from sdk.protocol import Clause
from sdk.rules import Rules
from tests.engine.test_mit_client import mit_bot

pytestmark = pytest.mark.slow  # client processes over sockets


class OneMessageSeat(Seat):
    """A seat that records each send made while it still owes a reply, then passes it on."""

    def __init__(self, inner: Seat) -> None:
        self.inner = inner
        self.name = inner.name
        self.sends = 0
        self.violations: list[tuple[int, int]] = []  # (hand, replies still owed)

    @property
    def alive(self) -> bool:
        return self.inner.alive

    @property
    def outstanding(self) -> int:
        return self.inner.outstanding

    @property
    def busy(self) -> bool:
        return self.inner.busy

    def send(self, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        self.sends += 1
        if self.inner.outstanding:
            self.violations.append((hand, self.inner.outstanding))
        self.inner.send(clauses, hand, ack)

    def receive(self, budget: float) -> Reply:
        return self.inner.receive(budget)

    def take_unrequested(self) -> int:
        return self.inner.take_unrequested()

    def quit(self) -> None:
        self.inner.quit()


PAIRS = [("random", "random"), ("raise", "checkcall"), ("checkcall", "random")]


@pytest.mark.parametrize("variant", MIT_VARIANTS)
@pytest.mark.parametrize("names", PAIRS)
def test_no_seat_is_sent_a_line_while_it_owes_a_reply_in_process(
    variant: str, names: tuple[str, str]
) -> None:
    rules = Rules.for_variant(variant)
    for seed in range(5):
        seats = [
            OneMessageSeat(InProcessSeat(name, make_builtin(bot, seed + i), rules))
            for i, (name, bot) in enumerate(zip("AB", names, strict=True))
        ]
        result = Match(seats, rules, seed, MatchSettings(enforce_clock=False)).play(200)
        assert result.hands_played == 200
        for seat in seats:
            # The check is not vacuous: every hand sends each seat at least its end-of-hand line.
            assert seat.sends >= 200
            assert seat.violations == [], (variant, names, seed, seat.name, seat.violations[:5])
        assert all(player.fault_counts == {} for player in result.players)


@pytest.fixture
def watched_socket_sends(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every send a SocketSeat makes while its bot still owes a reply: (bot, hand)."""
    violations: list[tuple[str, int]] = []
    original = SocketSeat.send

    def send(self: SocketSeat, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        if self.outstanding:
            violations.append((self.name, hand))
        original(self, clauses, hand, ack)

    monkeypatch.setattr(SocketSeat, "send", send)
    yield violations


@pytest.mark.parametrize("variant", MIT_VARIANTS)
def test_a_bot_with_the_mit_skeletons_io_plays_every_hand_over_many_seeds(
    tmp_path: Path, variant: str, watched_socket_sends: list[tuple[str, int]]
) -> None:
    # The independent MIT client reads and writes through one makefile('rw') file, as the
    # MIT skeletons do, and leaves Nagle's algorithm on as the Python skeleton does.
    bot = mit_bot(tmp_path / "mit", variant, nodelay=False)
    for seed in range(6):
        rules = Rules.for_variant(variant).replace(num_rounds=150)
        out = tmp_path / f"out{seed}"
        specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:random")]
        if seed % 2:
            specs.reverse()
        result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=seed), out)
        log = (out / "mit.log").read_text(encoding="utf-8", errors="replace")
        mit = next(p for p in result.players if p.name == "mit")
        assert result.hands_played == 150
        assert mit.fault_counts == {}, log[-2000:]
        assert mit.defaulted == 0
        stats = json.loads((bot / "stats.json").read_text(encoding="utf-8"))
        assert stats["hands"] == 150  # it saw the end of every hand
    assert watched_socket_sends == []


def test_a_late_reply_then_normal_play_loses_no_line_and_counts_the_defaults(
    tmp_path: Path, watched_socket_sends: list[tuple[str, int]]
) -> None:
    # The independent MIT client (the skeleton's I/O) sleeps 4 s before its 5th reply; the
    # reply timeout is 1.5 s.  Both margins are wide on purpose, for loaded machines: the
    # runner accepts a late line as on time when it reads the line before it checks the
    # deadline (a runner held off the CPU past the late reply's arrival, or a lazily collected
    # acknowledgement read on behalf of the other seat), so the late reply needs a 2.5 s stall
    # to pass for on time, and the opponent's 8 ms replies a 1.5 s one to look late.  The
    # opponent is a second client process, so the 600 hands last at least 4.8 s whatever the
    # machine and cannot outrun the late reply: at most 500 of its replies fit in the 4 s,
    # and every hand asks it at least once.  Its ~900 replies use about 7 s of its 30 s clock
    # on an idle machine, and about 20 s on a loaded one.
    late_bot = mit_bot(
        tmp_path / "late", "nlhe", nodelay=False, late_at=5, late_by=4.0, clock=300.0
    )
    other = mit_bot(tmp_path / "other", "nlhe", nodelay=False, delay=0.008, clock=300.0)
    rules = Rules.for_variant("nlhe").replace(num_rounds=600, game_clock=300.0)
    config = ScrimmageConfig(rules=rules, seed=3, runner=RunnerSettings(reply_timeout=1.5))
    out = tmp_path / "out"
    result = run_scrimmage([BotSpec.parse(str(late_bot)), BotSpec.parse(str(other))], config, out)
    late = result.players[0]
    assert result.hands_played == 600
    assert late.fault_counts == {FaultKind.TIMEOUT: 1}
    assert result.players[1].fault_counts == {}, result.players[1].first_faults
    # While the late reply was owed, the runner played for the bot without asking; once it
    # came, the bot was asked again and answered to the end, and saw every hand end.
    assert late.defaulted > 0
    assert late.decisions > 50
    stats = json.loads((late_bot / "stats.json").read_text(encoding="utf-8"))
    assert stats["hands"] == 600
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["players"][0]["decisions_defaulted"] == late.defaulted
    assert watched_socket_sends == []


def test_python_drops_read_ahead_on_write_which_is_why_the_rule_exists() -> None:
    # The mechanism, without the kit: two lines arrive together, the bot answers the first
    # through the same text file, and the second line is gone.
    a, b = socket.socketpair()
    try:
        channel = b.makefile("rw")
        a.sendall(b"T29.9 F D-7\nT29.9 P1 H9c,2c C\n")
        assert channel.readline() == "T29.9 F D-7\n"
        channel.write("K\n")
        channel.flush()
        b.settimeout(0.5)
        with pytest.raises((TimeoutError, OSError)):
            channel.readline()
    finally:
        a.close()
        b.close()
