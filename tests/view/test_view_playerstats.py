"""The report's per-bot statistics on hands made by hand, counted by hand."""

from __future__ import annotations

from typing import Any

import pytest

from local_runner.runs.hands import parse_hand
from local_runner.view.playerstats import PlayerStats
from local_runner.view.timeline import walk
from sdk.rules import Rules


def _hand(
    number: int,
    players: list[str],
    hole: list[list[str]],
    board: list[str],
    actions: list[tuple[int, int, str]],
    deltas: list[int],
    showdown: bool,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "hand": number,
        "players": players,
        "bankrolls_before": [0, 0],
        "hole_cards": hole,
        "final_hands": extra.pop("final_hands", hole),
        "board": board,
        "bounties": None,
        "actions": [
            {"seat": seat, "street": street, "action": code, "forced": False}
            for seat, street, code in actions
        ],
        "swaps": [],
        "auction": extra.pop("auction", None),
        "showdown": showdown,
        "deltas": deltas,
        "bounty_hits": None,
        "faults": [],
    }


def _stats(
    rules: Rules, hands: list[dict[str, Any]], names: tuple[str, ...]
) -> list[dict[str, Any]]:
    players = [PlayerStats(name) for name in names]
    for number, obj in enumerate(hands, start=1):
        w = walk(parse_hand(obj, line=number), rules)
        for player in players:
            player.add(w)
    return [player.to_dict() for player in players]


# Three hands of no-limit hold'em (blinds 1 and 2), A and B taking turns on the button.
#  1. A (button) raises to 6, B calls; flop: B checks, A bets 10, B folds.   A +6
#  2. B (button) limps, A checks; flop: A checks, B bets 4, A calls; turn: both check;
#     river: A bets 10, B calls; A's aces win the showdown.                    A +16
#  3. A (button) folds the small blind.                                         A -1
THREE_HANDS = [
    _hand(
        1,
        ["A", "B"],
        [["As", "Kd"], ["3c", "4d"]],
        ["2c", "7d", "9h"],
        [(0, 0, "R6"), (1, 0, "C"), (1, 3, "K"), (0, 3, "R10"), (1, 3, "F")],
        [6, -6],
        False,
    ),
    _hand(
        2,
        ["B", "A"],
        [["2s", "3s"], ["Ah", "Ad"]],
        ["Kc", "8d", "7h", "5c", "Jd"],
        [
            (0, 0, "C"),
            (1, 0, "K"),
            (1, 3, "K"),
            (0, 3, "R4"),
            (1, 3, "C"),
            (1, 4, "K"),
            (0, 4, "K"),
            (1, 5, "R10"),
            (0, 5, "C"),
        ],
        [-16, 16],
        True,
    ),
    _hand(3, ["A", "B"], [["7s", "2d"], ["Qh", "Jh"]], [], [(0, 0, "F")], [-1, 1], False),
]


def test_the_numbers_poker_players_read_counted_by_hand() -> None:
    a, b = _stats(Rules.for_variant("nlhe"), THREE_HANDS, ("A", "B"))
    # VPIP: A raised in hand 1, checked its big blind in 2, folded in 3; B called, limped, sat.
    assert (a["vpip"], a["pfr"], b["vpip"], b["pfr"]) == (0.3333, 0.3333, 0.6667, 0.0)
    # After preflop A bet twice (flop of 1, river of 2) and called once (flop of 2); B bet
    # once and called once.
    assert (a["aggression"], b["aggression"]) == (2.0, 1.0)
    # Both saw the flop in hands 1 and 2, went to showdown in 2, which A won.
    assert (a["saw_flop"], a["wtsd"], a["wsd"]) == (0.6667, 0.5, 1.0)
    assert (b["saw_flop"], b["wtsd"], b["wsd"]) == (0.6667, 0.5, 0.0)
    assert a["streets"]["preflop"] == {
        "bets_raises": 1,
        "calls": 0,
        "checks": 1,
        "folds": 1,
        "faced_bet": 2,
        "aggression": None,
        "fold_to_bet": 0.5,
    }  # the raise and the fold faced the big blind; the check faced nothing
    assert a["streets"]["flop"] == {
        "bets_raises": 1,
        "calls": 1,
        "checks": 1,
        "folds": 0,
        "faced_bet": 1,
        "aggression": 1.0,
        "fold_to_bet": 0.0,
    }
    assert b["streets"]["flop"]["fold_to_bet"] == 1.0  # B folded to A's bet in hand 1
    assert b["streets"]["river"] == {
        "bets_raises": 0,
        "calls": 1,
        "checks": 0,
        "folds": 0,
        "faced_bet": 1,
        "aggression": 0.0,
        "fold_to_bet": 0.0,
    }
    assert list(a["positions"]) == ["button", "big blind"]
    button = a["positions"]["button"]  # hands 1 and 3: +6 and -1, 2.5 chips = 1250 mbb a hand
    assert (button["hands"], button["vpip"], button["pfr"]) == (2, 0.5, 0.5)
    assert button["result"]["mbb_per_hand"]["mean"] == 1250.0
    big = a["positions"]["big blind"]  # one hand: no interval yet
    assert big["result"]["chips"] == 16 and big["result"]["mbb_per_hand"]["low"] is None
    assert a["bids"] is None and a["discards"] is None and a["swapped_cards"] is None


def test_a_forced_action_is_not_a_choice() -> None:
    hands = [dict(h) for h in THREE_HANDS]
    hands[0] = dict(hands[0], actions=[dict(x) for x in hands[0]["actions"]])
    hands[0]["actions"][0]["forced"] = True  # the runner raised for A (say, after a fault)
    a, _ = _stats(Rules.for_variant("nlhe"), hands, ("A", "B"))
    assert (a["vpip"], a["pfr"]) == (0.0, 0.0)
    assert a["streets"]["preflop"]["bets_raises"] == 0


def test_bids_where_the_game_asks_for_them() -> None:
    # Auction Hold'em: preflop to 60 each (a pot of 120), then X bids 57 and Y 34; X wins
    # the auction's card, Y bets 2 and X folds.
    hand = _hand(
        1,
        ["X", "Y"],
        [["As", "6s"], ["Qd", "9s"]],
        ["5c", "8s", "Kh"],
        [
            (0, 0, "C"),
            (1, 0, "R4"),
            (0, 0, "R32"),
            (1, 0, "R60"),
            (0, 0, "C"),
            (1, 3, "A34"),
            (0, 3, "A57"),
            (1, 3, "R2"),
            (0, 3, "F"),
        ],
        [-94, 94],
        False,
        final_hands=[["As", "6s", "6d"], ["Qd", "9s"]],
        auction={"bids": [57, 34], "winners": [0]},
    )
    x, y = _stats(Rules.for_variant("auction"), [hand], ("X", "Y"))
    assert x["bids"] == {
        "count": 1,
        "mean": 57.0,
        "mean_pot_share": 0.475,
        "zero": 0,
        "auctions": 1,
        "auctions_won": 1,
    }
    assert y["bids"] == {
        "count": 1,
        "mean": 34.0,
        "mean_pot_share": 0.2833,
        "zero": 0,
        "auctions": 1,
        "auctions_won": 0,
    }
    # A bid is not a bet: the flop's betting has Y's bet and X's fold only.
    assert x["streets"]["flop"]["folds"] == 1 and y["streets"]["flop"]["bets_raises"] == 1


def test_discards_where_the_game_asks_for_them() -> None:
    # Toss Hold'em: after preflop the big blind discards, then the button; P throws its
    # king (not its lowest card), Q its deuce (its lowest).
    hand = _hand(
        1,
        ["P", "Q"],
        [["Ks", "5s", "3h"], ["4d", "Tc", "2s"]],
        ["Qc", "3c", "2s", "Ks"],
        [
            (0, 0, "C"),
            (1, 0, "K"),
            (1, 2, "D2"),
            (0, 2, "K"),
            (0, 3, "D0"),
            (1, 3, "K"),
            (1, 4, "K"),
            (0, 4, "R277"),
            (1, 4, "F"),
        ],
        [2, -2],
        False,
        final_hands=[["5s", "3h"], ["4d", "Tc"]],
    )
    hand["actions"][3]["forced"] = hand["actions"][5]["forced"] = True  # the acknowledgements
    p, q = _stats(Rules.for_variant("toss"), [hand], ("P", "Q"))
    assert p["discards"] == {"count": 1, "lowest": 0.0}
    assert q["discards"] == {"count": 1, "lowest": 1.0}
    assert p["bids"] is None


@pytest.mark.parametrize("variant", ["nlhe", "acpc-3pl"])
def test_positions_are_named_from_the_blinds(variant: str) -> None:
    rules = Rules.for_variant(variant)
    names = ("A", "B", "C")[: rules.seats]
    # Everybody folds to the big blind (the last seat to post); nothing else happens.
    folds = [(seat, 0, "F") for seat in ([0] if rules.seats == 2 else [0, 1])]
    deltas = [-1, 1] if rules.seats == 2 else [0, -rules.small_blind, rules.small_blind]
    hole = [["2c", "3d"], ["4h", "5s"], ["6c", "7d"]][: rules.seats]
    hand = _hand(1, list(names), hole, [], folds, deltas, False)
    hand["bankrolls_before"] = [0] * rules.seats
    stats = _stats(rules, [hand], names)
    where = [next(iter(s["positions"])) for s in stats]
    expected = (
        ["button", "big blind"] if rules.seats == 2 else ["button", "small blind", "big blind"]
    )
    assert where == expected


def test_clock_of_a_repeating_street_adds_up_under_its_name() -> None:
    # River of Blood Hold'em deals runs after the river (boards of 6, 7, ...): one street.
    stats = PlayerStats("A", clock={0: 0.5, 6: 1.0, 7: 2.0}, rules=Rules.for_variant("blood"))
    assert stats.to_dict()["clock_per_street"] == {"preflop": 0.5, "run": 3.0}
