"""Deterministic dealing: every card of a hand comes from (match seed, hand number).

A hand's cards are drawn before any action, so they do not depend on what the
bots do, and the same seed deals the same cards to the same seats: playing a
seed twice with the players' seats exchanged is a duplicate match.

Cards are dealt by *seat* (seat 0 = dealer); bounties belong to player *slots*
(the first and second player of a match), so in the second half of a duplicate
match each bot inherits the bounties its opponent had.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from sdk.evaluator import evaluate
from sdk.games import streets_of, swap_chance, swap_streets
from sdk.rules import RANKS, SUITS, Rules
from sdk.states import TOSS_HOLE_CARDS
from sdk.variants.permuted import true_cards

try:  # hashlib's own BLAKE2b: importing hashlib itself also loads OpenSSL, 3 ms of every command
    from _blake2 import blake2b
except ImportError:  # an interpreter built without it
    from hashlib import blake2b

__all__ = ["Deal", "bounty_ranks", "deal_hand", "showdown_ranks", "showdown_winner"]

DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
Cards = tuple[str, ...]
# Replacement card per hole card (None = kept) for one seat on one swap street.
SwapPlan = tuple[str | None, ...]


class Deal(NamedTuple):
    """Everything random in one hand, fixed before the first action.

    (A named tuple: one is made per hand, and it is cheaper to make than a frozen dataclass.)
    """

    holes: tuple[Cards, ...]
    """Hole cards per seat."""
    board: Cards
    """The board cards, in dealing order: five (Toss Hold'em: four, as the discards make
    up the rest; River of Blood: the rest of the deck, of which its runs use a few)."""
    swaps: tuple[tuple[SwapPlan, SwapPlan], ...] = ()
    """Swap Hold'em: for the flop and the turn, per seat, the replacement of each hole card."""
    auction_cards: Cards = ()
    """Auction Hold'em: the third hole card each seat receives if it wins (or ties) the auction."""


def _entropy(seed: int, *labels: object) -> int:
    """512 random bits for one purpose of one match, from BLAKE2b of (seed, labels).

    Stable across runs, platforms and Python versions, and cheaper than seeding
    a Mersenne Twister per hand.  Each draw below takes ``x % n`` and goes on
    with ``x // n``; with 512 bits and at most ~370 consumed, the bias of every
    draw stays below 2**-140.
    """
    key = ":".join(["pokerbots", str(seed), *map(str, labels)]).encode()
    return int.from_bytes(blake2b(key, digest_size=64).digest(), "little")


_COIN = 2**32
_new = tuple.__new__


#: Per rules object (by identity, with the object kept alive): hole cards a seat gets, board
#: cards to deal, the swap chance of each swap street in order (flop, turn), and the radix
#: chunks of the shuffle (see :func:`_chunks`).
_Chunk = tuple[int, tuple[tuple[int, int], ...]]
_Dealt = tuple[int, int, tuple[float, ...], tuple[_Chunk, ...]]
_DEALT: dict[int, _Dealt] = {}
_DEALT_RULES: list[Rules] = []


def _dealt(rules: Rules) -> _Dealt:
    """How many hole cards each seat gets, how many board cards are dealt, the chance of a
    swap on each swap street, and the shuffle's radix chunks, from the game's declared
    streets: the board is the last street's, less the discards (Toss Hold'em: three hole
    cards and four dealt board cards); a game whose last street repeats (River of Blood)
    deals the whole deck, as its board may use any card left.  Kept per rules object: a
    hash of the rules costs more than a deal."""
    streets = streets_of(rules)
    holes = TOSS_HOLE_CARDS if rules.discard else 2
    if streets[-1].more is not None:
        board = 52 - holes * rules.seats
    else:
        board = streets[-1].board - sum("discard" in street.asks for street in streets)
    if len(_DEALT) >= 64:
        _DEALT.clear()
        _DEALT_RULES.clear()
    _DEALT_RULES.append(rules)  # keeps the id from being reused while the entry lives
    chances = tuple(swap_chance(rules, street) for street in swap_streets(rules))
    needed = holes * rules.seats + board
    needed += (8 if rules.swap is not None else 0) + (2 if rules.auction else 0)
    _DEALT[id(rules)] = entry = (holes, board, chances, _chunks(needed))
    return entry


def _chunks(needed: int) -> tuple[_Chunk, ...]:
    """The shuffle's draws ``0 .. needed - 1`` in chunks ``(product, draws)``: each draw is
    ``(i, 52 - i)``, the card it places and its radix; a chunk's draws take their offsets
    ``x % (52 - i)`` one after the other, and the product of their radices stays under 2**60.

    Taking ``x % product`` once and the chunk's offsets from that small remainder gives the
    same offsets as dividing the 512-bit ``x`` by each radix in turn (mixed-radix digits),
    and leaves ``x // product``, as the one-by-one division would; a division of the
    512-bit number costs several times one of a 64-bit number."""
    chunks: list[_Chunk] = []
    first = 0
    while first < needed:
        product, end = 1, first
        while end < needed and product * (52 - end) < 1 << 60:
            product *= 52 - end
            end += 1
        chunks.append((product, tuple((i, 52 - i) for i in range(first, end))))
        first = end
    return tuple(chunks)


def deal_hand(rules: Rules, seed: int, hand: int) -> Deal:
    """The cards of hand number ``hand`` (from 1) of a match played with ``seed``."""
    x = _entropy(seed, hand)
    swap = rules.swap
    seats = rules.seats
    hole_count, dealt, swap_chances, chunks = _DEALT.get(id(rules)) or _dealt(rules)
    holes_end = hole_count * seats
    deck = list(DECK)
    for product, draws in chunks:  # a partial Fisher-Yates shuffle
        x, rest = divmod(x, product)
        for i, radix in draws:
            j = i + rest % radix
            rest //= radix
            deck[i], deck[j] = deck[j], deck[i]
    holes = _holes(deck, seats, hole_count)
    next_card = holes_end + dealt
    board = tuple(deck[holes_end:next_card])
    swaps: tuple[tuple[SwapPlan, SwapPlan], ...] = ()
    auction_cards: Cards = ()
    if swap is not None:
        plans = []
        for probability in swap_chances:
            threshold = probability * _COIN
            per_seat = []
            for _seat in range(2):
                plan = []
                for i in range(2):
                    x, draw = divmod(x, _COIN)
                    plan.append(deck[next_card + i] if draw < threshold else None)
                per_seat.append(tuple(plan))
                next_card += 2
            plans.append((per_seat[0], per_seat[1]))
        swaps = tuple(plans)
    if rules.auction:
        auction_cards = (deck[next_card], deck[next_card + 1])
    return _new(Deal, (holes, board, swaps, auction_cards))


def _holes(deck: list[str], seats: int, count: int) -> tuple[Cards, ...]:
    """The first ``seats * count`` cards of ``deck``, ``count`` to a seat in seat order
    (heads-up hold'em first: spelled out, it costs a sixth of the general way)."""
    if seats == 2 and count == 2:
        return ((deck[0], deck[1]), (deck[2], deck[3]))
    cards = iter(deck[: seats * count])
    return tuple(zip(*[cards] * count, strict=True))  # each seat takes the next `count`


@lru_cache(maxsize=64)
def bounty_ranks(seed: int, period: int) -> tuple[str, str]:
    """The bounty ranks of the two player slots for bounty period ``period`` (from 0)."""
    x = _entropy(seed, "bounty", period)
    return (RANKS[x % 13], RANKS[(x // 13) % 13])


def showdown_ranks(
    hands: tuple[Cards, ...], board: Cards, folded: tuple[bool, ...], values: str | None = None
) -> tuple[int | None, ...]:
    """Each seat's rank of its best five cards (higher is better); None if it folded.

    The ranks are eval7's numbers, as every MIT engine ranks a showdown with eval7, computed
    by the SDK's own evaluator (:func:`sdk.evaluator.evaluate`, held equal to eval7 by its
    tests on every card count the games use): the runner then never imports eval7, a tenth
    of a second of every match's start.

    ``values``: Permuted Hold'em's order of the card values for the match (the true value of
    each printed rank, :func:`sdk.variants.permuted.draw_values`); the cards are ranked as
    the cards they play as, as the MIT 2020 engine ranks them."""
    if values is not None:
        table = _permuted_cards(values)
        board = tuple([table[card] for card in board])
        hands = tuple([tuple([table[card] for card in cards]) for cards in hands])
    ranks: list[int | None] = []  # a loop, not a generator: once per showdown, every match
    for cards, out in zip(hands, folded, strict=True):
        ranks.append(None if out else evaluate(board + cards))
    return tuple(ranks)


@lru_cache(maxsize=16)
def _permuted_cards(values: str) -> dict[str, str]:
    """Each printed card's true card under the value order ``values``."""
    return dict(zip(DECK, true_cards(DECK, values), strict=True))


def showdown_winner(hands: tuple[Cards, ...], board: Cards) -> int | None:
    """The seat with the better best-five hand (board plus hole cards: up to eight cards in
    all, as in Toss Hold'em), or None for a tie."""
    score0, score1 = showdown_ranks(hands[:2], board, (False, False))
    assert score0 is not None and score1 is not None
    if score0 == score1:
        return None
    return 0 if score0 > score1 else 1
