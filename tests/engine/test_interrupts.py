"""Ctrl-C (or SIGTERM) during a match keeps every hand before the one in progress, whole: a
hand is in the logs, the bankrolls and the count of hands played, or in none of them."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.engine.interrupts import counting, interrupt
from local_runner.engine.match import Match
from local_runner.engine.records import HandRecord
from local_runner.engine.seats import InProcessSeat
from sdk.rules import Rules
from sdk.states import GameState, TerminalState


@pytest.fixture
def kit_handler() -> Iterator[None]:
    """SIGINT handled as the kit's commands handle it."""
    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        counting.active = counting.pending = False


def _match(hands: int, bots: list[Any] | None = None) -> tuple[Match, list[HandRecord]]:
    """A match of ``bots`` (built-in bots, or wrappers that pass for one), and the records
    its observer saw."""
    rules = Rules.for_variant("nlhe").replace(num_rounds=hands)
    bots = bots or [make_builtin("random", seat) for seat in (0, 1)]
    seats = [InProcessSeat(f"p{i}", bot, rules) for i, bot in enumerate(bots)]
    seen: list[HandRecord] = []
    return Match(seats, rules, seed=4, on_hand=seen.append), seen


def _assert_whole(match: Match, seen: list[HandRecord], hands: int) -> None:
    result = match.result()
    assert result.interrupted and result.hands_played == hands == len(seen)
    for slot, player in enumerate(result.players):
        # Each bot's bankroll is the sum of its chips in the hands the observers saw.
        won = sum(r.deltas[r.players.index(player.name)] for r in seen)
        assert player.bankroll == won, slot
    assert sum(player.bankroll for player in result.players) == 0


def test_a_signal_while_a_hand_is_counted_comes_right_after_it(kit_handler: None) -> None:
    match, seen = _match(50)
    observers = match.on_hand
    assert observers is not None

    def observe(record: HandRecord) -> None:
        if record.number == 7:
            os.kill(os.getpid(), signal.SIGINT)  # handled in the middle of this function
            assert counting.pending  # held back, not raised
        observers(record)  # the logs' part: after the signal, still done

    match.on_hand = observe
    match.play()
    _assert_whole(match, seen, 7)


def test_without_the_kit_handler_ctrl_c_is_raised_at_once_as_before() -> None:
    match, seen = _match(50)
    observers = match.on_hand
    assert observers is not None

    def observe(record: HandRecord) -> None:
        if record.number == 7:
            raise KeyboardInterrupt  # Python's own handler: the hand is cut where it was
        observers(record)

    match.on_hand = observe
    match.play()
    assert match.result().interrupted and len(seen) == 6


class _StopsAtHandEnd:
    """A bot that takes Ctrl-C while the engine tells it how hand ``number`` ended."""

    def __init__(self, seat: int, number: int) -> None:
        self.inner, self.number = make_builtin("random", seat), number

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def handle_round_over(self, game: GameState, terminal: TerminalState, seat: int) -> None:
        if game.round_num == self.number:
            raise KeyboardInterrupt
        self.inner.handle_round_over(game, terminal, seat)


def test_ctrl_c_while_a_hand_ends_leaves_no_chips_of_it(kit_handler: None) -> None:
    match, seen = _match(50, [_StopsAtHandEnd(0, 9), make_builtin("random", 1)])
    match.play()
    _assert_whole(match, seen, 8)  # hand 9 dropped: in no bankroll, as in no log
