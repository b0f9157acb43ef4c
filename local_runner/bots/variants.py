"""The range bot's variant adjustments: each a small named function of the rules.

* Swap Hold'em: :func:`swap_keep_chance`, :func:`swap_adjusted_equity` (a hand that may
  still be swapped is worth less than it looks, a bad one more) and
  :func:`swap_range_blur` (after a swap chance the opponent's range is partly random).
* Auction Hold'em: :func:`third_card_gain` and :func:`auction_bid` (bid what a third
  card is worth), :func:`auction_adjusted_equity` (who holds three cards now).
* Bounty Hold'em: :func:`bounty_chance`, :func:`opponent_bounty_chance` and
  :func:`showdown_stakes` (what a won or lost showdown is worth, bounties included):
  the bounty-adjusted pot odds.

Fixed bet sizes (limit games) and several opponents would be further functions here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

from sdk.games import swap_chance
from sdk.handclass import ALL_CARDS
from sdk.rules import RANKS, Rules

from .ranges import WeightedRange, equity

__all__ = [
    "auction_adjusted_equity",
    "auction_bid",
    "bounty_chance",
    "opponent_bounty_chance",
    "showdown_stakes",
    "swap_adjusted_equity",
    "swap_keep_chance",
    "swap_range_blur",
    "third_card_gain",
]

# -- Swap Hold'em ---------------------------------------------------------------


def swap_keep_chance(rules: Rules, street: int) -> float:
    """The chance that neither of one player's two hole cards is swapped from ``street`` on.

    Swaps happen as the flop and the turn are dealt, so on the preflop both chances
    are ahead, on the flop only the turn's, and none from the turn on.
    """
    if rules.swap is None:
        return 1.0
    keep = 1.0
    if street < 3:
        keep *= (1.0 - rules.swap.flop) ** 2
    if street < 4:
        keep *= (1.0 - rules.swap.turn) ** 2
    return keep


def swap_adjusted_equity(equity: float, rules: Rules, street: int) -> float:
    """Equity pulled toward one half by the chance that either hand still changes.

    A swapped card makes the hand partly random, so what our cards say now counts
    only with the chance that both hands stay as they are.
    """
    keep = swap_keep_chance(rules, street) ** 2
    return 0.5 + (equity - 0.5) * keep


def swap_range_blur(rules: Rules, street: int) -> float:
    """The share of the opponent's range to replace by a uniform one as ``street`` is dealt.

    It is the chance that at least one of its cards was swapped just now (the flop's
    or the turn's swap probability); 0 outside Swap Hold'em and on other streets.
    """
    p = swap_chance(rules, street)
    return 1.0 - (1.0 - p) ** 2


# -- Auction Hold'em --------------------------------------------------------------

#: Third cards tried when valuing the auction, and opponent hands per try.
AUCTION_TRIES = 4
AUCTION_SAMPLES = 60


def third_card_gain(
    hand: Sequence[str],
    board: Sequence[str],
    opponent: WeightedRange,
    base: float,
    rng: random.Random,
    samples: int = AUCTION_SAMPLES,
) -> float:
    """How much equity a third hole card adds on average (over a few random third cards)."""
    used = {*hand, *board}
    unseen = [card for card in ALL_CARDS if card not in used]
    total = 0.0
    for card in rng.sample(unseen, AUCTION_TRIES):
        total += equity([*hand, card], board, opponent, samples, rng)
    return max(0.0, total / AUCTION_TRIES - base)


#: The share of the smaller stack expected to join the pot by the showdown (auction value).
AUCTION_STACK_SHARE = 0.25


def auction_bid(gain: float, pot: int, stack: int, other_stack: int) -> int:
    """The bid: what winning the card is worth in chips, in a second-price auction.

    Winning moves our equity up by ``gain``; losing lets the opponent gain about as
    much, so the card swings about twice ``gain`` of the final pot, guessed as the
    pot now plus :data:`AUCTION_STACK_SHARE` of the smaller stack from each player.
    Bidding one's true value is the best play in a second-price auction, whatever
    the other bids.
    """
    final_pot = pot + 2 * AUCTION_STACK_SHARE * min(stack, other_stack)
    return max(0, min(stack, int(2 * gain * final_pot)))


def auction_adjusted_equity(equity: float, gain: float, mine: int, theirs: int) -> float:
    """Equity corrected for three-card hands after the auction.

    The range and the table describe two-card hands: add ``gain`` when we hold three
    cards (already in ``equity`` if it was computed with them: pass ``mine=2`` then)
    and take it off when the opponent does.
    """
    adjusted = equity + gain * ((mine == 3) - (theirs == 3))
    return min(1.0, max(0.0, adjusted))


# -- Bounty Hold'em ----------------------------------------------------------------


def bounty_chance(rank: str | None, hand: Sequence[str], board: Sequence[str]) -> float:
    """The chance our bounty rank is among our cards or the board by the showdown."""
    if rank is None:
        return 0.0
    seen = [*hand, *board]
    if any(card[0] == rank for card in seen):
        return 1.0
    to_come = 5 - len(board)
    unseen = 52 - len(seen)
    others = unseen - 4  # no card of the rank is seen yet: all four are unseen
    return 1.0 - comb(others, to_come) / comb(unseen, to_come)


def opponent_bounty_chance(board: Sequence[str]) -> float:
    """A rough chance that the opponent's (unknown, uniformly drawn) bounty rank hits.

    It hits if the rank is on the board (distinct ranks seen, plus about one new
    rank per card to come) or in its two hole cards (about two more ranks).
    """
    distinct = len({card[0] for card in board})
    covered = distinct + 0.85 * (5 - len(board)) + 1.8
    return min(1.0, covered / len(RANKS))


def showdown_stakes(
    rules: Rules, won: int, lost: int, hit: float, opponent_hit: float
) -> tuple[float, float]:
    """What winning and losing are worth, in chips, with the bounties' chances.

    ``won`` is the opponent's contribution, ``lost`` ours.  In Bounty Hold'em a
    winner who hits its bounty gets ``ratio * won + constant``; the result is the
    pot odds' two sides with that expectation in them (ties are ignored).
    """
    if rules.bounty is None:
        return float(won), float(lost)
    ratio, constant = rules.bounty.ratio, rules.bounty.constant
    win = (1.0 - hit) * won + hit * (ratio * won + constant)
    lose = (1.0 - opponent_hit) * lost + opponent_hit * (ratio * lost + constant)
    return win, lose
