"""The 1,326 hole-card pairs as the bots index them, with evaluator cards and bit masks.

A weighted range is a list of 1,326 floats; position ``i`` is the pair
``COMBOS[i]`` (:data:`sdk.handclass.ALL_COMBOS`).  Each card is also one bit of an
integer, so "does this pair use a card already seen" is one ``&``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sdk.handclass import ALL_CARDS, ALL_COMBOS, class_index

from .evaluator import Card

__all__ = [
    "CARD_BIT",
    "COMBOS",
    "COMBO_CLASS",
    "COMBO_INDEX",
    "COMBO_MASK",
    "EVAL7",
    "EVAL7_COMBOS",
    "mask_of",
    "to_eval7",
]

#: The pairs, as card strings.
COMBOS = ALL_COMBOS

#: A card's bit.
CARD_BIT: dict[str, int] = {card: 1 << i for i, card in enumerate(ALL_CARDS)}

#: A card string's evaluator card (made once: building cards is the slow part of a call).
EVAL7: dict[str, Any] = {card: Card(card) for card in ALL_CARDS}

#: Each pair's evaluator cards.
EVAL7_COMBOS: tuple[tuple[Any, Any], ...] = tuple((EVAL7[a], EVAL7[b]) for a, b in COMBOS)

#: Each pair's two bits.
COMBO_MASK: tuple[int, ...] = tuple(CARD_BIT[a] | CARD_BIT[b] for a, b in COMBOS)

#: Each pair's starting-hand class (its row in the preflop tables).
COMBO_CLASS: tuple[int, ...] = tuple(class_index(pair) for pair in COMBOS)

#: The position of a pair, either card order.
COMBO_INDEX: dict[tuple[str, str], int] = {}
for _i, (_a, _b) in enumerate(COMBOS):
    COMBO_INDEX[(_a, _b)] = COMBO_INDEX[(_b, _a)] = _i


def mask_of(cards: Iterable[str]) -> int:
    """The bits of some cards."""
    mask = 0
    for card in cards:
        mask |= CARD_BIT[card]
    return mask


def to_eval7(cards: Iterable[str]) -> list[Any]:
    """Evaluator cards (eval7's or pkrbot's) for card strings."""
    return [EVAL7[card] for card in cards]
