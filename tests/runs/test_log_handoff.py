"""The hands' logs written by a child process: the same bytes as written by the runner, a
failed child's batch written by the runner instead, and an error still raised."""

from __future__ import annotations

import os
import signal
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
def test_the_child_writes_the_same_bytes_as_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    rules, records = _records(variant, 400)
    expected = _inline(tmp_path, rules, records)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)  # a child whenever one is done
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    handoff = LogHandoff(logs.logs, _cpus())
    for start in (0, 100, 200):
        for record in records[start : start + 100]:
            handoff.on_hand(record)
        handoff.hand_off()
        handoff.wait()
    for record in records[300:]:
        handoff.on_hand(record)
    handoff.finish()
    assert handoff.children >= 3
    assert handoff.written_here <= 100  # the children wrote the rest
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


@pytest.mark.parametrize("pidfd", [True, False])
@pytest.mark.parametrize("how", ["raises", "killed", "hangs"])
def test_a_failed_childs_batch_is_cut_back_and_written_by_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, pidfd: bool
) -> None:
    rules, records = _records("acpc-2pn", 200)
    expected = _inline(tmp_path, rules, records)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)
    monkeypatch.setattr(log_handoff, "CHILD_PATIENCE", 0.3)  # a hung child is ended then
    if not pidfd:  # where there is no process descriptor: the wait polls
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    start = time.monotonic()
    logs = _Logs(tmp_path / "handed", rules, records[0].players)
    failing = [_FailingInChild(log, how) for log in logs.logs]
    handoff = LogHandoff(failing, ())
    for record in records:
        handoff.on_hand(record)
    handoff.finish()
    assert handoff.children >= 1 and handoff.written_here > 0
    assert logs.close() == expected
    assert time.monotonic() - start < 20  # a hung child was not waited for its minute


def test_an_error_in_the_lines_still_raises_in_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, records = _records("acpc-2pn", 20)
    monkeypatch.setattr(log_handoff, "BATCH_SECONDS", 0.0)
    logs = _Logs(tmp_path / "handed", rules, records[0].players)

    def broken(record: HandRecord) -> None:
        raise ValueError(f"no line for hand {record.number}")

    monkeypatch.setattr(logs.writer, "write_hand", broken)
    handoff = LogHandoff(logs.logs, ())
    with pytest.raises(ValueError, match="no line for hand 1"):
        for record in records:
            handoff.on_hand(record)
        handoff.finish()
