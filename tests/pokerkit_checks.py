"""What the differential tests against PokerKit share: the steps PokerKit plays by itself,
so a test drives only the decisions (and deals the kit's cards)."""

from __future__ import annotations

import pytest

pokerkit = pytest.importorskip("pokerkit")  # a test module importing this skips without it

#: Blinds, bet collection, showing, killing and pushing the pot happen without a test's
#: call; dealing and every decision are left to the test.
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)
