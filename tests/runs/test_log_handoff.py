"""The hands' logs written by a writer process: the same bytes as written by the runner, what
a failed writer did not confirm written by the runner instead, and an error still raised."""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.records import HandRecord
from local_runner.engine.seats import InProcessSeat
from local_runner.runs import log_handoff
from local_runner.runs.dealer_log import DealerLogWriter
from local_runner.runs.log_handoff import HandLog, LogHandoff
from local_runner.runs.writer import MatchLogWriter
from sdk.rules import Rules

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the hand-off forks (POSIX)")

FILES = ("gamelog.txt", "hands.jsonl", "dealer.log")


def _records(variant: str, hands: int) -> tuple[Rules, list[HandRecord]]:
    rules = Rules.for_variant(variant).replace(num_rounds=hands)
    seats = [InProcessSeat(f"p{i}", make_builtin("random", i), rules) for i in range(rules.seats)]
    records: list[HandRecord] = []
    Match(seats, rules, seed=11, on_hand=records.append).play()
    return rules, records


def _cpus() -> set[int]:
    return os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()


class _Logs:
    """The two writers of a scrimmage of an ACPC game, open in ``folder``."""

    def __init__(self, folder: Path, rules: Rules, names: tuple[str, ...]) -> None:
        folder.mkdir()
        self.folder = folder
        self.writer = MatchLogWriter(folder, rules, names, 11)
        self.dealer = DealerLogWriter(folder, rules, names, 11, "test")
        self.logs: list[HandLog] = [self.writer, self.dealer]

    def close(self) -> dict[str, bytes]:
        self.dealer.close()  # its SCORE line: the totals tallied in this process
        self.writer._close_files()
        return {name: (self.folder / name).read_bytes() for name in FILES}


def _inline(tmp_path: Path, rules: Rules, records: list[HandRecord]) -> dict[str, bytes]:
    logs = _Logs(tmp_path / "inline", rules, records[0].players)
    for record in records:
        logs.writer.on_hand(record)
        logs.dealer.on_hand(record)
    return logs.close()


@pytest.mark.parametrize("variant", ["acpc-2pn", "acpc-3pl"])
def test_the_writer_writes_the_same_bytes_as_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    rules, records = _records(variant, 400)
    expected = _inline(tmp_path, rules, records)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)  # a batch with every hand
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    handoff = LogHandoff(logs.logs, _cpus(), rules)
    for record in records:
        handoff.on_hand(record)
    handoff.hand_off()
    handoff.finish()
    assert handoff.batches == 400
    assert handoff.written_here == 0  # the writer wrote every hand
    assert logs.close() == expected


def test_without_a_writer_the_runner_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, records = _records("acpc-2pn", 50)
    expected = _inline(tmp_path, rules, records)

    def no_fork() -> int:
        raise OSError("no process to spare")

    monkeypatch.setattr(os, "fork", no_fork)
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    handoff = LogHandoff(logs.logs, (), rules)
    for record in records:
        handoff.on_hand(record)
    handoff.finish()
    assert handoff.written_here == 50 and handoff.batches == 0
    assert logs.close() == expected


class _FailingInChild:
    """A log whose writing fails in any process but the one that made it."""

    def __init__(self, log: HandLog, how: str) -> None:
        self.log, self.how, self.parent = log, how, os.getpid()

    def tally(self, record: HandRecord) -> None:
        self.log.tally(record)

    def files(self) -> Sequence[IO[Any]]:
        return self.log.files()

    def write_hand(self, record: HandRecord) -> None:
        self.log.write_hand(record)
        for file in self.log.files():
            file.flush()  # half the batch written already, to be cut back
        if os.getpid() != self.parent and record.number % 50 == 0:
            if self.how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if self.how == "hangs":
                time.sleep(60)
            raise OSError("the disk is full")


@pytest.mark.parametrize(
    ("how", "hands", "pidfd"),
    [
        ("raises", 200, True),
        ("killed", 200, True),
        ("hangs", 200, True),
        ("hangs", 200, False),  # where there is no process descriptor: the wait polls
        ("hangs", 3000, True),  # more than its pipe holds: the runner waits for room, not more
    ],
)
def test_what_a_failed_writer_did_not_confirm_is_cut_back_and_written_by_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, hands: int, pidfd: bool
) -> None:
    rules, records = _records("acpc-2pn", hands)
    expected = _inline(tmp_path, rules, records)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)
    monkeypatch.setattr(log_handoff, "CHILD_PATIENCE", 0.3)  # a hung writer is ended then
    if not pidfd:
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    start = time.monotonic()
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    failing = [_FailingInChild(log, how) for log in logs.logs]
    handoff = LogHandoff(failing, (), rules)
    for record in records:
        handoff.on_hand(record)
    handoff.hand_off()
    handoff.finish()
    # The writer confirmed the first 49 hands; the runner wrote the rest, the 50th among them.
    assert handoff.written_here == hands - 49
    assert logs.close() == expected
    assert time.monotonic() - start < 20  # a hung writer was not waited for its minute


def test_a_writer_killed_mid_match_leaves_the_rest_to_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, records = _records("acpc-2pn", 300)
    expected = _inline(tmp_path, rules, records)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    handoff = LogHandoff(logs.logs, (), rules)
    for record in records[:100]:
        handoff.on_hand(record)
    writer = handoff._pid
    assert writer is not None
    os.kill(writer, signal.SIGKILL)
    os.waitid(os.P_PID, writer, os.WEXITED | os.WNOWAIT)  # gone (not reaped: the runner does)
    for record in records[100:]:
        handoff.on_hand(record)  # a broken pipe: the runner takes over at once
    assert handoff._pid is None and handoff.written_here >= 200
    handoff.finish()
    assert logs.close() == expected
    with pytest.raises(ChildProcessError):
        os.waitpid(writer, os.WNOHANG)  # reaped, not left a zombie


def test_the_writer_keeps_no_other_descriptor_open(tmp_path: Path) -> None:
    """A bot's connection, open in the runner when the writer starts, ends when the runner
    closes it: the writer does not hold it open."""
    rules, records = _records("acpc-2pn", 5)
    runner_end, bot_end = socket.socketpair()
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    handoff = LogHandoff(logs.logs, (), rules)
    try:
        runner_end.close()
        bot_end.settimeout(5)
        assert bot_end.recv(1) == b""  # the end of the connection, with the writer alive
        assert handoff._pid is not None and os.waitpid(handoff._pid, os.WNOHANG) == (0, 0)
    finally:
        bot_end.close()
        for record in records:
            handoff.on_hand(record)
        handoff.finish()
    assert handoff.written_here == 0


def test_an_error_in_the_lines_still_raises_in_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, records = _records("acpc-2pn", 20)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)
    logs = _Logs(tmp_path / "handed", rules, records[0].players)

    def broken(record: HandRecord) -> None:
        raise ValueError(f"no line for hand {record.number}")

    monkeypatch.setattr(logs.writer, "write_hand", broken)
    handoff = LogHandoff(logs.logs, (), rules)
    with pytest.raises(ValueError, match="no line for hand 1"):
        for record in records:
            handoff.on_hand(record)
        handoff.finish()


def test_a_writer_reaped_elsewhere_counts_by_what_it_confirmed(tmp_path: Path) -> None:
    rules, records = _records("acpc-2pn", 60)
    expected = _inline(tmp_path, rules, records)
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    handoff = LogHandoff(logs.logs, (), rules)
    for record in records:
        handoff.on_hand(record)
    handoff.hand_off()
    writer = handoff._pid
    assert writer is not None
    os.waitpid(writer, 0)  # someone else's wait for any child got there first
    handoff.finish()
    assert logs.close() == expected
