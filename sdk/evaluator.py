"""A standard-library hand evaluator: the best five-card poker hand among five or more cards.

:func:`evaluate` returns an integer rank, higher is better, equal for hands of equal
value.  The number is the one ``eval7.evaluate`` returns for the same cards (the tests
hold the two equal on 200,000 random hands, ``benchmarks/evaluator.py`` on a million), so
ranks from a bot and from the engine can be compared directly::

    >>> royal = evaluate(["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"])
    >>> royal > evaluate(["As", "Ad", "Ac", "Ah", "Kc"])
    True
    >>> hand_category(evaluate(["2c", "2d", "3h", "3s", "4d", "4h", "Ac"]))
    'Two Pair'

The rank packs the hand's category and the ranks that decide ties, from 0 (deuce) to 12
(ace), four bits each: ``category << 24 | first << 16 | second << 12 | ... | fifth``.

How it is fast without a compiled extension: every card maps to one integer, and the
sum of a hand's integers holds at once the count of each rank (3 bits per rank), the
count of each suit (4 bits per suit) and the set of cards (one bit per card).  The value
of a hand without a flush depends only on the rank counts, so it is looked up in a table
keyed by them; a flush is looked up by the suited cards' ranks.  The tables fill
lazily, one entry the first time a combination is seen (at most 49,205 rank
combinations for seven cards), so importing costs about a millisecond.

More than eight cards (River of Blood Hold'em's long boards) take a slower path that
counts each suit, because two suits can then both hold five cards.  It keeps eval7's
answer there too, flaws included: eval7 looks at the suits in the order spades, clubs,
diamonds, hearts and scores only the first with five or more cards, so a heart flush can
lose to a lower diamond one (the MIT 2023 engine ranks showdowns so; the rules would not).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .rules import RANKS, SUITS

__all__ = ["CATEGORIES", "evaluate", "hand_category"]

#: Category names, indexed by ``rank >> 24``; the names eval7's ``handtype`` uses.
CATEGORIES: tuple[str, ...] = (
    "High Card",
    "Pair",
    "Two Pair",
    "Trips",
    "Straight",
    "Flush",
    "Full House",
    "Quads",
    "Straight Flush",
)
_HIGH_CARD, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH = (
    range(9)
)

# Layout of a card's integer (and of a hand's sum): rank counts, suit counts, card set.
_RANK_BITS = 3  # a rank appears at most 4 times
_SUIT_SHIFT = _RANK_BITS * len(RANKS)  # 39
_SUIT_BITS = 4  # a suit appears at most 8 times in 8 cards
_CARD_SHIFT = _SUIT_SHIFT + _SUIT_BITS * len(SUITS)  # 55
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_ALL_RANKS = (1 << len(RANKS)) - 1
# Adding 3 to every suit count sets that field's top bit exactly when the count is 5 or more.
_SUIT_PLUS_3 = sum(3 << (_SUIT_SHIFT + _SUIT_BITS * s) for s in range(len(SUITS)))
_SUIT_TOP_BITS = sum(8 << (_SUIT_SHIFT + _SUIT_BITS * s) for s in range(len(SUITS)))
_FIRST_TOP_BIT_LENGTH = _SUIT_SHIFT + _SUIT_BITS  # bit_length when suit 0 has the flush
#: The order in which eval7 looks for a flush suit: spades, clubs, diamonds, hearts.
_EVAL7_SUIT_ORDER = tuple(SUITS.index(suit) for suit in "scdh")
#: The lowest bit of every rank's count field: where a rank held shows in the counts' bits.
_FIELD_LOW_BITS = sum(1 << (_RANK_BITS * r) for r in range(len(RANKS)))
_WHEEL = (1 << 12) | 0b1111  # A-2-3-4-5: the ace plays low

_CARD_VALUES: dict[str, int] = {
    rank + suit: (1 << (_RANK_BITS * r))
    | (1 << (_SUIT_SHIFT + _SUIT_BITS * s))
    | (1 << (_CARD_SHIFT + len(RANKS) * s + r))
    for r, rank in enumerate(RANKS)
    for s, suit in enumerate(SUITS)
}

# Lazily filled: rank counts -> rank of the best hand without a flush; suited ranks -> flush rank.
_PLAIN: dict[int, int] = {}
_SUITED: dict[int, int] = {}


def evaluate(cards: Collection[str]) -> int:
    """The rank of the best five-card hand among ``cards`` (a list, tuple or set of five or
    more cards).

    Higher is better and equal ranks tie; the number equals ``eval7.evaluate`` on the
    same cards (past eight cards, its choice of flush suit too: see the module's notes).
    Raises :class:`ValueError` for an unknown card, a repeated card or fewer than five.
    """
    try:
        total = sum(map(_CARD_VALUES.__getitem__, cards))
        count = len(cards)
    except (KeyError, TypeError):
        raise ValueError(_problem(cards)) from None
    if count < 5 or (total >> _CARD_SHIFT).bit_count() != count:
        # Distinct cards add without carries, so the card set has one bit per card.
        raise ValueError(_problem(cards))
    if count > 8:
        return _evaluate_many(total)
    counts = total & _RANK_MASK
    rank = _PLAIN.get(counts) or _plain_rank(counts)
    flush = (total + _SUIT_PLUS_3) & _SUIT_TOP_BITS
    if flush:
        suit = (flush.bit_length() - _FIRST_TOP_BIT_LENGTH) // _SUIT_BITS
        suited = (total >> (_CARD_SHIFT + len(RANKS) * suit)) & _ALL_RANKS
        flush_rank = _SUITED.get(suited) or _suited_rank(suited)
        # With 8 cards a flush can come with quads or a full house, which beat it.
        if flush_rank > rank:
            return flush_rank
    return rank


def _evaluate_many(total: int) -> int:
    """:func:`evaluate` for more than eight cards (``total`` is their sum), where the suit
    counts could overflow the sum's trick: the first suit in eval7's order with five cards
    or more is the flush."""
    counts = total & _RANK_MASK
    rank = _PLAIN.get(counts) or _plain_rank(counts)
    for suit in _EVAL7_SUIT_ORDER:
        suited = (total >> (_CARD_SHIFT + len(RANKS) * suit)) & _ALL_RANKS
        if suited.bit_count() >= 5:
            flush_rank = _SUITED.get(suited) or _suited_rank(suited)
            return flush_rank if flush_rank > rank else rank
    return rank


def hand_category(rank: int) -> str:
    """The name of a rank's category, for example ``"Full House"`` (eval7's ``handtype`` names)."""
    category = rank >> 24
    if not 0 <= category < len(CATEGORIES) or rank < 0:
        raise ValueError(f"{rank} is not a hand rank from sdk.evaluator.evaluate.")
    return CATEGORIES[category]


def _problem(cards: object) -> str:
    """The sentence saying what is wrong with the cards given to :func:`evaluate`."""
    if isinstance(cards, str):
        return f"evaluate() takes a list of cards like ['Ah', 'Kd', ...], not the string {cards!r}."
    if not isinstance(cards, Collection):
        return (
            "evaluate() takes a list of cards like ['Ah', 'Kd', ...], not a "
            f"{type(cards).__name__}."
        )
    items = list(cards)
    unknown = [card for card in items if not isinstance(card, str) or card not in _CARD_VALUES]
    if unknown:
        return (
            f"{unknown[0]!r} is not a card: write a rank of {RANKS} followed by a suit "
            f"of {SUITS}, like 'Ah'."
        )
    if len(items) < 5:
        return f"evaluate() needs at least 5 cards to pick the best five from, not {len(items)}."
    repeated = sorted({card for card in items if items.count(card) > 1})
    return f"the card {repeated[0]} appears more than once in {items}."


def _straight_top(present: int) -> int:
    """The top rank of the highest straight among the rank bits ``present``, or -1."""
    # Bit r of `runs` is set when ranks r down to r - 4 are all present.
    runs = present & present << 1 & present << 2 & present << 3 & present << 4
    if runs:
        return runs.bit_length() - 1
    return 3 if present & _WHEEL == _WHEEL else -1  # A-2-3-4-5: the five is the top


def _pack(category: int, ranks: Sequence[int]) -> int:
    """``category`` and up to five deciding ranks, four bits each, first rank highest."""
    value = category << 4  # the category's nibble, then an empty one, then the ranks'
    for rank in ranks:
        value = value << 4 | rank
    return value << 4 * (5 - len(ranks))


def _plain_rank(counts: int) -> int:
    """Rank of the best hand without a flush for these rank counts; remembered in ``_PLAIN``.

    It runs once for each new combination of ranks (a short match sees mostly new ones), so
    it visits only the ranks present, highest first, found from the counts' bits.
    """
    fields = (counts | counts >> 1 | counts >> 2) & _FIELD_LOW_BITS  # a bit per rank held
    held: list[int] = []  # the ranks held, highest first
    pairs: list[int] = []
    quads = trips = second_trips = -1
    present = 0
    while fields:
        low_bit = fields.bit_length() - 1
        fields ^= 1 << low_bit
        rank = low_bit // _RANK_BITS
        held.append(rank)
        present |= 1 << rank
        count = (counts >> low_bit) & 7
        if count == 2:
            pairs.append(rank)
        elif count == 3:
            if trips < 0:
                trips = rank
            elif second_trips < 0:
                second_trips = rank
        elif count == 4 and quads < 0:
            quads = rank
    straight = _straight_top(present)
    if quads >= 0:
        kicker = next(r for r in held if r != quads)
        value = _pack(_QUADS, (quads, kicker))
    elif trips >= 0 and (second_trips >= 0 or pairs):
        # The pair of a full house: the best of a second trips and the top pair.
        pair = max(second_trips, pairs[0]) if pairs else second_trips
        value = _pack(_FULL_HOUSE, (trips, pair))
    elif straight >= 0:
        value = _pack(_STRAIGHT, (straight,))
    elif trips >= 0:
        first, second = [r for r in held if r != trips][:2]
        value = _pack(_TRIPS, (trips, first, second))
    elif len(pairs) > 1:
        high, low = pairs[0], pairs[1]
        kicker = next(r for r in held if r != high and r != low)
        value = _pack(_TWO_PAIR, (high, low, kicker))
    elif pairs:
        first, second, third = [r for r in held if r != pairs[0]][:3]
        value = _pack(_PAIR, (pairs[0], first, second, third))
    else:
        value = _pack(_HIGH_CARD, held[:5])
    _PLAIN[counts] = value
    return value


def _suited_rank(suited: int) -> int:
    """Rank of the best flush or straight flush among five or more suited ranks."""
    straight = _straight_top(suited)
    if straight >= 0:
        value = _pack(_STRAIGHT_FLUSH, [straight])
    else:
        top = [r for r in range(len(RANKS) - 1, -1, -1) if suited >> r & 1][:5]
        value = _pack(_FLUSH, top)
    _SUITED[suited] = value
    return value
