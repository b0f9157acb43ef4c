"""Starting-hand classes: the 169 kinds of two hole cards, named like ``AKs``.

Before the flop only the ranks of two hole cards matter, and whether they share
a suit, so the 1,326 possible pairs of cards fall into 169 classes:

* 13 pairs (``AA`` ... ``22``), 6 card pairs each;
* 78 suited hands (``AKs`` ... ``32s``), 4 card pairs each;
* 78 offsuit hands (``AKo`` ... ``32o``), 12 card pairs each.

A class name puts the higher rank first.  :data:`HAND_CLASSES` lists them in a
fixed order (highest first rank, then highest second rank; pair, suited, offsuit),
which is the row order of the kit's preflop tables.  Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .rules import RANKS, SUITS

__all__ = [
    "ALL_CARDS",
    "ALL_COMBOS",
    "HAND_CLASSES",
    "class_combos",
    "class_index",
    "class_size",
    "hand_class",
]

#: The 52 cards, as the wire writes them (``"2c"`` ... ``"As"``), lowest rank first.
ALL_CARDS: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

#: The 1,326 pairs of hole cards, each in :data:`ALL_CARDS` order.
ALL_COMBOS: tuple[tuple[str, str], ...] = tuple(combinations(ALL_CARDS, 2))


def _all_classes() -> tuple[str, ...]:
    names = []
    for high in reversed(RANKS):
        for low in reversed(RANKS[: RANKS.index(high) + 1]):
            if low == high:
                names.append(high + low)
            else:
                names.extend((high + low + "s", high + low + "o"))
    return tuple(names)


#: The 169 class names, strongest-looking first (``AA``, ``AKs``, ``AKo``, ... ``22``).
HAND_CLASSES: tuple[str, ...] = _all_classes()

_INDEX = {name: i for i, name in enumerate(HAND_CLASSES)}


def _check_card(card: str) -> None:
    if not isinstance(card, str) or len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(
            f"{card!r} is not a card; write cards as rank then suit, like 'Ah' or 'Tc' "
            f"(ranks {RANKS}, suits {SUITS})."
        )


def hand_class(cards: Sequence[str]) -> str:
    """The class name of two hole cards: ``hand_class(("Kd", "Ad")) == "AKs"``."""
    if len(cards) != 2:
        raise ValueError(f"A starting-hand class needs exactly two cards, not {list(cards)!r}.")
    first, second = cards
    _check_card(first)
    _check_card(second)
    if first == second:
        raise ValueError(f"The two hole cards must differ, not {first!r} twice.")
    high, low = sorted((first, second), key=lambda card: RANKS.index(card[0]), reverse=True)
    if high[0] == low[0]:
        return high[0] + low[0]
    return high[0] + low[0] + ("s" if high[1] == low[1] else "o")


def class_index(name_or_cards: str | Sequence[str]) -> int:
    """The position (0-168) of a class in :data:`HAND_CLASSES`, from its name or two cards."""
    name = name_or_cards if isinstance(name_or_cards, str) else hand_class(name_or_cards)
    try:
        return _INDEX[name]
    except KeyError:
        raise ValueError(
            f"{name!r} is not a starting-hand class; write a pair like 'QQ', or two ranks "
            "(higher first) and 's' for suited or 'o' for offsuit, like 'AKs' or 'T9o'."
        ) from None


def class_size(name: str) -> int:
    """How many card pairs a class has: 6 for a pair, 4 suited, 12 offsuit."""
    class_index(name)
    return 6 if len(name) == 2 else 4 if name[2] == "s" else 12


def class_combos(name: str) -> list[tuple[str, str]]:
    """Every pair of cards in class ``name``, each in :data:`ALL_CARDS` order."""
    class_index(name)
    high, low = name[0], name[1]
    if high == low:
        return [(low + a, high + b) for a, b in combinations(SUITS, 2)]
    suited = name[2] == "s"
    return [(low + b, high + a) for a in SUITS for b in SUITS if (a == b) == suited]
