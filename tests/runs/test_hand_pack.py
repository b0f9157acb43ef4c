"""A hand packed for the log writer process and unpacked there is the engine's record: every
event, every action's state, in every game (only ``terminal`` is left out)."""

from __future__ import annotations

import dataclasses
import marshal
from typing import Any

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.records import ActionEvent, FaultEvent, HandRecord
from local_runner.engine.seats import InProcessSeat
from local_runner.runs.hand_pack import pack_hand, unpack_hand
from sdk.actions import Action, RaiseAction
from sdk.games import VARIANTS
from sdk.rules import Rules
from sdk.states import GameState, RoundState


def _play(rules: Rules, bots: list[Any], seed: int) -> list[HandRecord]:
    """``bots`` (built-in bots, or wrappers that pass for one) play ``rules``."""
    seats = [InProcessSeat(f"p{i}", bot, rules) for i, bot in enumerate(bots)]
    records: list[HandRecord] = []
    Match(seats, rules, seed=seed, on_hand=records.append).play()
    return records


def _round_trip(record: HandRecord, rules: Rules) -> HandRecord:
    return unpack_hand(marshal.loads(marshal.dumps(pack_hand(record))), rules)


def _assert_same(records: list[HandRecord], rules: Rules) -> None:
    for record in records:
        again = _round_trip(record, rules)
        assert again.terminal is None
        assert again == dataclasses.replace(record, terminal=None), f"hand {record.number}"
        for ours, theirs in zip(again.events, record.events, strict=True):
            if type(theirs) is ActionEvent:
                assert type(ours) is ActionEvent
                assert type(ours.action) is type(theirs.action)
                assert isinstance(ours.state, RoundState) and ours.state == theirs.state


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("bot", ["random", "raise", "checkcall"])
def test_every_game_comes_back_as_the_engine_recorded_it(variant: str, bot: str) -> None:
    rules = Rules.for_variant(variant).replace(num_rounds=120)
    records = _play(rules, [make_builtin(bot, seat) for seat in range(rules.seats)], seed=7)
    _assert_same(records, rules)
    # The games' own events were played again, not only plain betting.
    kinds = {type(event).__name__ for record in records for event in record.events}
    assert "ActionEvent" in kinds and "StreetEvent" in kinds
    if variant == "swap":
        assert "SwapEvent" in kinds
    if variant == "auction":
        assert "AuctionEvent" in kinds


class _Illegal:
    """A bot that raises to one chip more than it may, every time it can raise."""

    def __init__(self, seat: int) -> None:
        self.inner = make_builtin("random", seat)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def get_action(self, game: GameState, state: RoundState, seat: int) -> Action:
        action = self.inner.get_action(game, state, seat)
        if isinstance(action, RaiseAction):
            return RaiseAction(10**6)
        return action


def test_faults_come_back_in_their_place() -> None:
    rules = Rules.for_variant("nlhe").replace(num_rounds=60)
    records = _play(rules, [_Illegal(0), make_builtin("random", 1)], seed=3)
    faults = [e for r in records for e in r.events if type(e) is FaultEvent]
    assert faults, "the bot was never caught raising too much"
    _assert_same(records, rules)
