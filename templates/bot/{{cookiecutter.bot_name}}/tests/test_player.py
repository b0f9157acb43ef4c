"""Tests for the bot: run ``python -m pytest`` in the bot's folder.

They use the kit's in-process test harness (``local_runner``): ``play`` runs a
match in this process (no sockets, no files; a few hundred hands take well under a
second), ``spot`` builds the round state of a situation you choose, and ``decide`` asks
the bot what it would do there.  Add a test for every spot your strategy must get right.
"""

from __future__ import annotations

import pytest
from conftest import KIT_MISSING

pytest.importorskip("local_runner", reason=KIT_MISSING)

from player import VARIANT, Player

from local_runner import decide, play, spot
from sdk.actions import BidAction, CheckAction, FoldAction
from sdk.rules import VARIANTS, Rules

#: The spots below are heads-up: a game of three players is checked in its heads-up form.
SPOT_VARIANT = "acpc-2pl" if Rules.for_variant(VARIANT).seats > 2 else VARIANT


@pytest.mark.parametrize("variant", VARIANTS)
def test_never_faults_against_a_random_opponent(variant: str) -> None:
    result = play(Player(), opponent="random", rounds=300, seed=1, variant=variant)
    assert result.hands_played == 300
    assert result.players[0].fault_counts == {}, result.players[0].first_faults


def test_does_not_fold_aces_facing_a_raise() -> None:
    rules = Rules.for_variant(SPOT_VARIANT)
    raised = rules.big_blind * (2 if rules.limit else 3)  # a limit raise: one big bet more
    state = spot(hand=("Ah", "As"), seat=1, pips=(raised, rules.big_blind), variant=SPOT_VARIANT)
    action = decide(Player(), state)
    assert state.is_legal(action)
    assert not isinstance(action, FoldAction)


def test_checks_a_weak_hand_rather_than_folding_it() -> None:
    state = spot(hand=("7c", "2d"), board=("Ah", "Kd", "Qs"), seat=1, variant=SPOT_VARIANT)
    assert isinstance(decide(Player(), state), CheckAction)


def test_bids_within_bounds_in_the_auction() -> None:
    state = spot(
        hand=("9c", "9d"), board=("Ah", "Kd", "5s"), seat=0, variant="auction", auction=True
    )
    action = decide(Player(), state)
    assert isinstance(action, BidAction)
    assert state.is_legal(action)
