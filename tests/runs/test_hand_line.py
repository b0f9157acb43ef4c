"""``hand_line`` writes what the JSON encoder writes of ``hand_to_json``, byte for byte.

``hand_line`` spells most hands out by hand (it runs once per hand of every logged match);
``hand_to_json`` is the one statement of what a line holds.  These tests hold the two
equal on real matches of every variant family (faults, swaps, auctions, bounties and the
permuted order included) and on hand-made records at the edges (unasked decisions, names
to escape, a time that is not a plain number).
"""

from __future__ import annotations

import json

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import ActionEvent, HandRecord, StreetEvent
from local_runner.engine.seats import InProcessSeat
from local_runner.runs.hands import hand_line, hand_to_json
from sdk.actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import Rules
from sdk.states import RoundState

_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def _encoded(record: HandRecord) -> str:
    return _ENCODER.encode(hand_to_json(record)) + "\n"


@pytest.mark.parametrize(
    "variant", ["nlhe", "swap", "auction", "bounty", "toss", "blood", "permuted", "acpc-3pl"]
)
@pytest.mark.parametrize("bots", [("random", "checkcall"), ("raise", "chump")])
def test_a_real_match_writes_the_encoders_lines(variant: str, bots: tuple[str, str]) -> None:
    rules = Rules.for_variant(variant).replace(num_rounds=150)
    names = [bots[seat % 2] for seat in range(rules.seats)]
    seats = [
        InProcessSeat(f"{name}-{seat}", make_builtin(name, seat), rules)
        for seat, name in enumerate(names)
    ]
    records: list[HandRecord] = []
    settings = MatchSettings(reply_timeout=0.0002)  # some replies time out: faults too
    Match(seats, rules, seed=3, settings=settings, on_hand=records.append).play()
    assert len(records) == 150
    for record in records:
        assert hand_line(record) == _encoded(record)


def _record(players: tuple[str, str], seconds: object) -> HandRecord:
    rules = Rules.for_variant("nlhe")
    state = RoundState.new_hand(rules, (("Ah", "Kd"), ("2c", "3c")))
    record = HandRecord(7, players, (-5, 5), state.hands, (None, None))
    actions: tuple[Action, ...] = (CallAction(), CheckAction(), RaiseAction(40), FoldAction())
    for number, action in enumerate(actions):
        asked = seconds if number % 2 else None
        record.events.append(ActionEvent(state.actor, action, state, not asked, asked))  # type: ignore[arg-type]
        if number == 1:
            record.events.append(StreetEvent(3, ("2d", "7h", "Ts"), state.stacks))
        next_state = state.proceed(action)
        if isinstance(next_state, RoundState):
            state = next_state.with_board(("2d", "7h", "Ts")) if number == 1 else next_state
    record.final_hands, record.board, record.deltas = state.hands, ("2d", "7h", "Ts"), (-42, 42)
    return record


@pytest.mark.parametrize("players", [("A", "B"), ('say "hi"', "Zoë \\ \u2603")])
@pytest.mark.parametrize("seconds", [0.0012345678, 3, 1e-7, float("inf"), float("nan")])
def test_hand_made_records_write_the_encoders_lines(
    players: tuple[str, str], seconds: object
) -> None:
    record = _record(players, seconds)
    assert hand_line(record) == _encoded(record)
