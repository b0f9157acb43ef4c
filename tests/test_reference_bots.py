"""The reference bots of local_runner.bots: legal play in every variant, the shipped
preflop tables, weighted ranges and Bayes updates, the budget-aware mode."""

from __future__ import annotations

import random

import pytest

from local_runner.bots.equity import EquityBot
from local_runner.bots.preflop import equity_vs_random, matrix
from local_runner.bots.ranges import WeightedRange, equity, preflop_equity, river_equity
from local_runner.builtin_bots import BUILTIN_BOTS, make_builtin
from local_runner.harness import decide, play, spot
from sdk.actions import FoldAction, RaiseAction
from sdk.handclass import HAND_CLASSES, class_index
from sdk.rules import VARIANTS

# -- the preflop tables -------------------------------------------------------


def test_preflop_table_aa_best_and_the_worst_hands_at_the_bottom() -> None:
    table = equity_vs_random()
    assert len(table) == 169
    order = sorted(range(169), key=table.__getitem__)
    assert HAND_CLASSES[order[-1]] == "AA"
    # Heads-up, 32o is the weakest class; the folklore's "worst hand", 72o, is close.
    assert HAND_CLASSES[order[0]] == "32o"
    assert class_index("72o") in order[:6]
    assert 0.84 < table[class_index("AA")] < 0.86
    assert 0.34 < table[class_index("72o")] < 0.36


def test_preflop_matrix_is_antisymmetric_and_plausible() -> None:
    m = matrix()
    for a in range(169):
        assert m[a][a] == 0.5
        for b in range(a + 1, 169):
            assert abs(m[a][b] + m[b][a] - 1.0) < 2e-4
    assert 0.80 < m[class_index("AA")][class_index("KK")] < 0.83


def test_table_equity_against_a_uniform_range_matches_the_vs_random_column() -> None:
    uniform = WeightedRange()
    for hand in (("Ah", "As"), ("2c", "7d"), ("Th", "9h")):
        expected = equity_vs_random()[class_index(hand)]
        assert abs(preflop_equity(hand, uniform) - expected) < 0.005


# -- ranges -------------------------------------------------------------------


def test_bayes_update_keeps_a_distribution_and_zeroes_dead_cards() -> None:
    rng = random.Random(1)
    opponent = WeightedRange()
    opponent.remove_cards(["Ah", "Kd"])
    for _ in range(5):
        opponent.update([rng.random() for _ in range(1326)], ["Ah", "Kd"])
        assert abs(sum(opponent.weights) - 1.0) < 1e-9
        assert min(opponent.weights) >= 0.0
    from local_runner.bots.cards import COMBOS

    for weight, pair in zip(opponent.weights, COMBOS, strict=True):
        if "Ah" in pair or "Kd" in pair:
            assert weight == 0.0


def test_impossible_evidence_falls_back_to_uniform_over_live_pairs() -> None:
    opponent = WeightedRange()
    opponent.update([0.0] * 1326, ["Ah"])
    live = [w for w in opponent.weights if w > 0]
    assert len(live) == 1326 - 51 and abs(sum(live) - 1.0) < 1e-9


def test_river_equity_is_exact_against_a_single_hand() -> None:
    from local_runner.bots.cards import COMBO_INDEX

    board = ["2c", "7d", "Th", "Js", "3h"]
    weights = [0.0] * 1326
    weights[COMBO_INDEX[("Qc", "Qd")]] = 1.0
    opponent = WeightedRange(weights)
    assert river_equity(["Ac", "Ad"], board, opponent) == 1.0
    assert river_equity(["8c", "8d"], board, opponent) == 0.0
    assert river_equity(["Qh", "Qs"], board, opponent) == 0.5


def test_sampled_equity_is_unbiased_against_a_uniform_range() -> None:
    # eval7's own Monte Carlo takes opponent hands in order; drawn ones must not be biased.
    rng = random.Random(2)
    estimates = [
        equity(["Ah", "Kh"], ["2c", "7d", "Th"], WeightedRange(), 300, rng) for _ in range(20)
    ]
    assert abs(sum(estimates) / len(estimates) - 0.565) < 0.02


# -- the bots -----------------------------------------------------------------

LADDER = ["equity"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", LADDER)
@pytest.mark.parametrize("opponent", ["random", "raise"])
def test_reference_bot_plays_legally_in_every_variant(
    name: str, variant: str, opponent: str
) -> None:
    result = play(make_builtin(name, 7), opponent=opponent, rounds=300, seed=5, variant=variant)
    assert result.hands_played == 300
    assert result.players[0].fault_counts == {}


def test_builtins_are_registered() -> None:
    for name in LADDER:
        assert name in BUILTIN_BOTS


def test_equity_bot_folds_trash_to_a_big_bet_and_keeps_aces() -> None:
    trash = spot(hand=("2c", "7d"), board=("Ah", "Kh", "Qs"), seat=0, pips=(0, 300))
    assert isinstance(decide(EquityBot(1), trash), FoldAction)
    aces = spot(hand=("As", "Ad"), board=("Ah", "7c", "2s"), seat=1, pips=(0, 0), street=3)
    assert isinstance(decide(EquityBot(1), aces), RaiseAction)
