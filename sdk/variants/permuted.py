"""Permuted Hold'em, MIT Pokerbots 2020: hold'em in which a secret order of the card values,
drawn once per match, decides every showdown.

The game is no-limit hold'em with 200 chips a hand; only the ranking of showdown hands
changes.  Once per match the engine draws, from the MIT prior, which true value each printed
rank plays as (suits stay), and ranks each hand by its cards' true values: a pair is still a
pair of the same printed cards, but which pair is higher, which five ranks make a straight
and which kicker plays all follow the drawn order.  Nothing about the order reaches the bots;
they learn it only from the showdowns they see.

:func:`draw_values` is the prior (the kit draws from the match's seed, so a run replays and
both halves of a duplicate match share the order); :func:`true_cards` maps cards to the
cards they play as.

>>> values = draw_values(7, PermutationRules())
>>> len(values), sorted(values) == sorted(RANKS)
(13, True)
>>> true_cards(("Ah", "2c"), "23456789TJQKA"), true_cards(("3s",), "2Q3456789TJKA")
(('Ah', '2c'), ('Qs',))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from ..declaration import HOLDEM_STREETS, MIT, Game, mit_competition
from ..rules import RANKS, PermutationRules, Rules

__all__ = ["GAME", "draw_values", "true_cards", "values_from_draws"]

#: 53 random bits per draw: a float in (0, 1] with every bit of a double's mantissa.
_BITS = 53


@lru_cache(maxsize=64)
def draw_values(seed: int, prior: PermutationRules) -> str:
    """The true value of each printed rank, ``2`` to ``A`` in order, for the match played
    with ``seed``: a permutation of :data:`~sdk.rules.RANKS` (``"247QJ63589TKA"``: the
    printed 3 plays as a 4).

    The MIT 2020 prior exactly: thirteen geometric(``p``) draws less one (the failures
    before the first success), put in order by :func:`values_from_draws`.  Each draw comes
    from BLAKE2b of (seed, rank), the same on every platform, by the geometric law's inverse
    distribution, ``P(s >= k) = (1 - p) ** k``.
    """
    import hashlib  # here, once per match: a bot that plays no permuted game never loads it

    failure = math.log1p(-prior.p) if prior.p < 1 else None
    draws = []
    for rank in range(13):
        key = f"pokerbots:{seed}:permutation:{rank}".encode()
        bits = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")
        uniform = ((bits >> (64 - _BITS)) + 1) / 2**_BITS  # in (0, 1]
        draws.append(0 if failure is None else int(math.log(uniform) / failure))
    return values_from_draws(draws)


def values_from_draws(draws: Sequence[int]) -> str:
    """The order the MIT 2020 prior makes of thirteen draws ``s`` (whole numbers >= 0): for
    the printed ranks from the 2 up, the ``(s mod m)``-th smallest (from 0) of the ``m``
    values not yet taken.

    >>> values_from_draws([0] * 13), values_from_draws([1, 0, 0, 1] + [0] * 9)
    ('23456789TJQKA', '32465789TJQKA')
    """
    pool = list(RANKS)  # the values still free, smallest first
    return "".join(pool.pop(draw % len(pool)) for draw in draws)


def true_cards(cards: Sequence[str], values: str) -> tuple[str, ...]:
    """``cards`` as they play under ``values`` (:func:`draw_values`): each rank replaced by
    its true value, the suit kept."""
    table = str.maketrans(RANKS, values)
    return tuple(card.translate(table) for card in cards)


#: 200 chips a hand, and the MIT 2020 prior of the value order.
RULES = Rules(variant="permuted", starting_stack=200, permutation=PermutationRules())

GAME = Game(
    "permuted",
    RULES,
    HOLDEM_STREETS,
    (MIT,),
    mit_competition("mit-2020", RULES),
    ("mit-2020",),
)
