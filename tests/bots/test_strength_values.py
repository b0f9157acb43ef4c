"""The strength table asks eval7 once per class of pairs with one value: it must still give
every pair exactly the value eval7 gives it (flushing boards and River of Blood's long
boards included)."""

from __future__ import annotations

import random

import pytest

from local_runner.bots.cards import COMBO_MASK, EVAL7_COMBOS, mask_of, to_eval7
from local_runner.bots.evaluator import evaluate
from local_runner.bots.ranges import board_ranks
from local_runner.bots.strength import values
from sdk.handclass import ALL_CARDS
from sdk.rules import SUITS


def _every_pair(board: tuple[str, ...]) -> tuple[float, ...]:
    """Each pair's value, one eval7 call per pair (-1 for pairs using a board card)."""
    dead, cards = mask_of(board), to_eval7(board)
    return tuple(
        -1.0 if mask & dead else float(evaluate([a, b, *cards]))
        for (a, b), mask in zip(EVAL7_COMBOS, COMBO_MASK, strict=True)
    )


def _boards(seed: int, count: int) -> list[tuple[str, ...]]:
    """Random boards of three to seven cards, a third of them heavy in one suit."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        size = rng.choice((3, 4, 5, 6, 7))
        if rng.random() < 1 / 3:
            suit = rng.choice(SUITS)
            same = rng.sample([c for c in ALL_CARDS if c[1] == suit], min(size, 4))
            rest = rng.sample([c for c in ALL_CARDS if c[1] != suit], size - len(same))
            boards.append(tuple(same + rest))
        else:
            boards.append(tuple(rng.sample(ALL_CARDS, size)))
    return boards


@pytest.mark.parametrize("seed", range(4))
def test_strength_values_are_eval7s_for_every_pair(seed: int) -> None:
    for board in _boards(seed, 100):
        assert values.__wrapped__(board) == _every_pair(board), board


def test_a_river_s_exact_ranks_are_the_strength_values() -> None:
    board = ("2c", "7c", "Tc", "Kd", "Ah")
    assert board_ranks(board) == _every_pair(board)
