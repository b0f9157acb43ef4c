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
from sdk.games import VARIANTS, streets_of
from sdk.rules import Rules

#: The spots below are heads-up: a game of three players is checked in its heads-up form.
SPOT_VARIANT = "acpc-2pl" if Rules.for_variant(VARIANT).seats > 2 else VARIANT
SPOT_RULES = Rules.for_variant(SPOT_VARIANT)
#: Hole cards before the flop: three in Toss Hold'em (one is tossed later), else two.
DEALT = 3 if SPOT_RULES.discard else 2
#: The first street after the flop on which players bet (Toss Hold'em: after the tosses).
BETTING = next(s.board for s in streets_of(SPOT_RULES) if s.board >= 3 and "bet" in s.asks)


@pytest.mark.parametrize("variant", VARIANTS)
def test_never_faults_against_a_random_opponent(variant: str) -> None:
    result = play(Player(), opponent="random", rounds=300, seed=1, variant=variant)
    assert result.hands_played == 300
    assert result.players[0].fault_counts == {}, result.players[0].first_faults


def test_does_not_fold_aces_facing_a_raise() -> None:
    rules = SPOT_RULES
    raised = rules.big_blind * (2 if rules.limit else 3)  # a limit raise: one big bet more
    aces = ("Ah", "As", "Kd")[:DEALT]
    state = spot(hand=aces, seat=1, pips=(raised, rules.big_blind), variant=SPOT_VARIANT)
    action = decide(Player(), state)
    assert state.is_legal(action)
    assert not isinstance(action, FoldAction)


def test_checks_a_weak_hand_rather_than_folding_it() -> None:
    board = ("Ah", "Kd", "Qs", "Jh", "9c")[:BETTING]
    state = spot(hand=("7c", "2d"), board=board, seat=1, variant=SPOT_VARIANT)
    assert isinstance(decide(Player(), state), CheckAction)


def test_bids_within_bounds_in_the_auction() -> None:
    state = spot(
        hand=("9c", "9d"), board=("Ah", "Kd", "5s"), seat=0, variant="auction", auction=True
    )
    action = decide(Player(), state)
    assert isinstance(action, BidAction)
    assert state.is_legal(action)
