"""`pokerbots play` shows a street's line before anything is done in that street."""

from __future__ import annotations

from pathlib import Path

import pytest

from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from local_runner.view.human import HumanSeat, human_seat_factory
from local_runner.view.timeline import street_name
from sdk.actions import Action
from sdk.rules import Rules
from sdk.states import RoundState


@pytest.mark.parametrize("variant", ["nlhe", "auction"])
def test_the_opponents_first_action_on_a_street_follows_the_streets_line(
    variant: str, tmp_path: Path
) -> None:
    rules = Rules.for_variant(variant).replace(num_rounds=40)
    screen: list[str] = []
    opponent_first: list[tuple[int, str]] = []  # (line index, street) of each action told

    def answer(prompt: str) -> str:
        choices = next(line for line in reversed(screen) if "you may:" in line)
        return "a 50" if "bid" in choices else "c" if "call" in choices else "k"

    factory = human_seat_factory("checkcall", answer, screen.append)

    def make(name: str, rules: Rules) -> HumanSeat:
        seat = factory(name, rules)
        person = seat.client.human
        narrate = person.narrate

        def spy(seat_: int, mine: int, action: Action, state: RoundState) -> None:
            narrate(seat_, mine, action, state)
            if seat_ != mine:  # the action's line is the last one written
                opponent_first.append((len(screen) - 1, street_name(state.street, rules)))

        person.narrate = spy  # type: ignore[method-assign]
        return seat

    result = run_scrimmage(
        [BotSpec("you", seat=make), BotSpec.parse("builtin:checkcall")],
        ScrimmageConfig(rules=rules, seed=6),
        tmp_path,
    )
    assert result.hands_played == 40
    postflop = [(index, street) for index, street in opponent_first if street != "preflop"]
    assert postflop, "the opponent never acted after the flop"
    for index, street in postflop:
        hand_start = max(i for i, line in enumerate(screen[:index]) if line.startswith("== hand"))
        shown = screen[hand_start:index]
        assert any(line.startswith(f"  {street} · board ") for line in shown), "\n".join(
            screen[hand_start : index + 1]
        )
    # Acting first after the flop, the big blind's action comes right after the street's line.
    assert any(screen[index - 1].startswith(f"  {street} · board ") for index, street in postflop)
