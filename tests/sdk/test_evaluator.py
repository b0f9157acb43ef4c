"""sdk.evaluator against eval7: the same rank number for the same cards, five or more cards.

eval7 is the engine's evaluator; the SDK's must agree with it exactly, or a bot would
settle a showdown differently from the engine.  Eight cards are also checked against the
best of eval7's five-card ranks, so eval7's own eight-card path is not the only oracle.
``benchmarks/evaluator.py`` runs the same comparison on a million hands.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import eval7
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.evaluator import CATEGORIES, evaluate, hand_category
from sdk.rules import RANKS, SUITS

DECK = [rank + suit for rank in RANKS for suit in SUITS]
EVAL7_CARDS = {card: eval7.Card(card) for card in DECK}


def eval7_rank(cards: list[str]) -> int:
    """eval7's rank for cards given as strings."""
    return int(eval7.evaluate([EVAL7_CARDS[card] for card in cards]))


def rank(hand: str) -> int:
    """sdk.evaluator's rank for space-separated cards."""
    return evaluate(hand.split())


@pytest.mark.parametrize(("size", "hands"), [(7, 200_000), (5, 20_000), (6, 20_000), (8, 20_000)])
def test_equal_to_eval7_on_random_hands(size: int, hands: int) -> None:
    rng = random.Random(size)
    differing = []
    for _ in range(hands):
        cards = rng.sample(DECK, size)
        if evaluate(cards) != eval7_rank(cards):
            differing.append(cards)
    assert differing == [], f"{len(differing)} hands differ from eval7, first {differing[:3]}"


def _rank_multisets(size: int) -> list[list[int]]:
    """Every way to hold ``size`` cards by rank alone (at most four of a rank), as ranks."""
    found: list[list[int]] = []

    def extend(rank: int, left: int, held: list[int]) -> None:
        if left == 0:
            found.append(held)
        elif rank < len(RANKS):
            for count in range(min(4, left), -1, -1):
                extend(rank + 1, left - count, held + [rank] * count)

    extend(0, size, [])
    return found


def test_every_hand_without_a_flush_equals_eval7() -> None:
    # A hand's value without a flush depends on its ranks alone: every combination of five to
    # eight cards' ranks is checked once, with suits dealt in turn (two cards of a rank never
    # share a suit, and no suit gets five cards).
    checked = 0
    differing = []
    for size in (5, 6, 7, 8):
        for ranks in _rank_multisets(size):
            cards = [RANKS[r] + SUITS[i % 4] for i, r in enumerate(ranks)]
            checked += 1
            if evaluate(cards) != eval7_rank(cards):
                differing.append(cards)
    assert checked == 193_830  # 6,175 + 18,395 + 49,205 + 120,055 rank combinations
    assert differing == [], f"{len(differing)} hands differ from eval7, first {differing[:3]}"


def test_eight_cards_are_the_best_five() -> None:
    rng = random.Random(8)
    for _ in range(2_000):
        cards = rng.sample(DECK, 8)
        best = max(eval7_rank(list(five)) for five in combinations(cards, 5))
        assert evaluate(cards) == best, cards


@settings(max_examples=2_000, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=9, max_size=52, unique=True))
def test_hypothesis_more_than_eight_cards_equal_to_eval7(cards: list[str]) -> None:
    # River of Blood boards reach 31 cards (33 with the hole cards); the MIT 2023 engine
    # ranks them with eval7, whose first flush suit wins even when a later one is better.
    assert evaluate(cards) == eval7_rank(cards)


def test_past_eight_cards_the_flush_suit_is_eval7s_first() -> None:
    # A diamond flush and a heart straight flush: eval7 (and so the MIT 2023 engine) sees
    # only the diamonds, which it looks at before the hearts.
    cards = ["2d", "5d", "8d", "9d", "Jd", "3h", "4h", "5h", "6h", "7h"]
    assert hand_category(evaluate(cards)) == "Flush" == eval7.handtype(eval7_rank(cards))
    assert evaluate(cards) == evaluate(["2d", "5d", "8d", "9d", "Jd"])
    red = [
        "2d",
        "3d",
        "4d",
        "5d",
        "7d",
        "Ah",
        "Kh",
        "Qh",
        "Jh",
        "9h",
    ]  # 7-high diamonds "beat" A-high hearts
    assert evaluate(red) == evaluate(["2d", "3d", "4d", "5d", "7d"]) == eval7_rank(red)


@settings(max_examples=2_000, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=8, unique=True))
def test_hypothesis_equal_to_eval7(cards: list[str]) -> None:
    assert evaluate(cards) == eval7_rank(cards)
    assert hand_category(evaluate(cards)) == eval7.handtype(eval7_rank(cards))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=8, unique=True))
def test_more_cards_never_rank_lower(cards: list[str]) -> None:
    assert evaluate(cards) >= evaluate(cards[:-1])


@pytest.mark.parametrize(
    ("hand", "category"),
    [
        ("Ac 2d 3h 4s 5c 9d Jh", "Straight"),  # the wheel: the ace plays low
        ("Ac 2c 3c 4c 5c Kd Kh", "Straight Flush"),  # the steel wheel
        ("Tc Jc Qc Kc Ac 9c 8c", "Straight Flush"),  # royal flush among seven suited
        ("Ac Ad Ah As Kc 2d 3h", "Quads"),
        ("2c 2d 3h 3s 4d 4h Ac", "Two Pair"),  # three pairs: the best two, the ace kicks
        ("2h 5h 7h 9h Jh Kh Ah", "Flush"),  # seven suited: the best five
        ("Ac Ad Ah Kc Kd Ks 2c", "Full House"),  # two trips: the lower makes the pair
        ("Ah Kh Qh Jh 9h As Ad Ac", "Quads"),  # eight cards: quads beat the flush
        ("2c 3d 4h 5s 6c 8d 9h", "Straight"),  # a six-high straight with a gap above
        ("2c 3d 4h 5s 7c 8d Th", "High Card"),
    ],
)
def test_boundary_hands(hand: str, category: str) -> None:
    assert hand_category(rank(hand)) == category
    assert rank(hand) == eval7_rank(hand.split())


def test_boundary_orderings() -> None:
    # The wheel is the lowest straight, and the lowest straight flush.
    assert rank("Ac 2d 3h 4s 5c") < rank("2c 3d 4h 5s 6c") < rank("Tc Jd Qh Ks Ac")
    assert rank("Ac 2c 3c 4c 5c") < rank("2d 3d 4d 5d 6d")
    assert rank("Ac 2c 3c 4c 5c") > rank("Ad Ah As Ac Kd")  # any straight flush beats quads
    # Quads: the kicker decides, and a higher kicker on the board plays for everyone.
    assert rank("9c 9d 9h 9s Ac") > rank("9c 9d 9h 9s Kc")
    assert rank("9c 9d 9h 9s Ac 2d 3d") == rank("9c 9d 9h 9s Ac Kd Qd")
    # Three pairs: the third pair's rank can be the kicker, beaten by a higher single card.
    assert rank("Kc Kd Qh Qs 5d 5h 2c") == rank("Kc Kd Qh Qs 5d 3h 2c")
    assert rank("Kc Kd Qh Qs 5d 5h 2c") < rank("Kc Kd Qh Qs 6d 5h 2c")
    # Six or seven suited cards: only the best five count.
    assert rank("Ah Kh 9h 7h 5h 3h 2h") == rank("Ah Kh 9h 7h 5h 4c 2d")
    assert rank("Ah Kh 9h 7h 6h 3h 2h") > rank("Ah Kh 9h 7h 5h 4h 2h")
    # A straight flush hidden in six suited cards beats the higher plain flush there.
    assert hand_category(rank("Ah 9h 8h 7h 6h 5h Kd")) == "Straight Flush"
    # Suits never matter otherwise.
    assert rank("Ac Kd Qh Js 9c") == rank("As Kh Qd Jc 9s")
    # Any sequence or set of cards will do.
    assert evaluate(("Ac", "Kd", "Qh", "Js", "9c")) == evaluate({"Ac", "Kd", "Qh", "Js", "9c"})


def test_categories_match_eval7_handtype() -> None:
    examples = [
        "2c 3d 4h 5s 7c",
        "2c 2d 4h 5s 7c",
        "2c 2d 4h 4s 7c",
        "2c 2d 2h 5s 7c",
        "2c 3d 4h 5s 6c",
        "2c 4c 6c 8c Tc",
        "2c 2d 2h 5s 5c",
        "2c 2d 2h 2s 7c",
        "2c 3c 4c 5c 6c",
    ]
    seen = [hand_category(rank(hand)) for hand in examples]
    assert seen == [eval7.handtype(eval7_rank(hand.split())) for hand in examples]
    assert tuple(seen) == CATEGORIES


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["Ah", "Kd", "Qh", "Js"], "at least 5 cards"),
        (DECK[:9] + DECK[8:9], "4c appears more than once"),
        (["Ah", "Kd", "Qh", "Js", "1c"], "'1c' is not a card"),
        (["Ah", "Kd", "Qh", "Js", "ah"], "'ah' is not a card"),
        (["Ah", "Kd", "Qh", "Js", "Ah"], "Ah appears more than once"),
        ("AhKdQhJsTs", "not the string"),
        ([1, 2, 3, 4, 5], "1 is not a card"),
        ([["Ah"], "Kd", "Qh", "Js", "Ts"], r"\['Ah'\] is not a card"),
        ((card for card in DECK[:7]), "not a generator"),
        (None, "not a NoneType"),
    ],
)
def test_bad_cards_are_refused_with_a_sentence(cards: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate(cards)


def test_hand_category_refuses_what_is_not_a_rank() -> None:
    with pytest.raises(ValueError, match="not a hand rank"):
        hand_category(9 << 24)
    with pytest.raises(ValueError, match="not a hand rank"):
        hand_category(-1)
