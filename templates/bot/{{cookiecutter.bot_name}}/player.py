"""A starter bot: rates its cards, bets strong hands, calls fair prices, folds weak hands to bets.

Edit ``get_action``: it receives the game state and the round state and must return one
of ``round_state.legal_actions()`` (raises, bids and discards within their bounds).  Check your
changes with ``python -m pytest`` and play a match with ``pokerbots scrimmage .``.

The engine starts the bot as ``python3 player.py [HOST] PORT`` (see commands.json and
startme.sh; an ACPC bot adds ``--protocol acpc``); everything it needs is in this folder:
the SDK is vendored in ``sdk/``.
"""

from __future__ import annotations

from itertools import combinations

from sdk.actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.evaluator import evaluate
from sdk.runner import parse_args, run_bot
from sdk.states import GameState, RoundState, TerminalState

#: The game this bot is written for (nlhe, swap, auction, bounty, toss, or an ACPC game:
#: acpc-2pl, acpc-2pn, acpc-3pl).  The runner's rules, or an ACPC game file given with
#: --game, take precedence; the bot plays every variant.
VARIANT = {{ cookiecutter.variant|tojson }}

RANKS = "23456789TJQKA"


def preflop_strength(cards: tuple[str, ...]) -> float:
    """A rough 0..1 strength of two hole cards: pairs, high, suited cards score higher."""
    high, low = sorted((RANKS.index(card[0]) for card in cards[:2]), reverse=True)
    if high == low:
        return 0.5 + high / 24
    score = (high + low) / 24
    if cards[0][1] == cards[1][1]:
        score += 0.05
    return min(score, 1.0)


def best_pair_strength(cards: tuple[str, ...]) -> float:
    """Toss Hold'em: three hole cards preflop; rate the best two of them."""
    return max(preflop_strength(pair) for pair in combinations(cards, 2))


def made_hand_strength(hand: tuple[str, ...], board: tuple[str, ...]) -> float:
    """A rough 0..1 strength of the best five-card hand: its category (pair, ...) over 8.

    ``sdk.evaluator.evaluate`` ranks five or more cards with eval7's numbers, in the
    standard library (a bot may ``import eval7`` instead: the same numbers, a slower start).
    """
    cards = hand + board
    if len(cards) < 5:  # Toss Hold'em's first discard sees four cards: no straight or flush
        return few_cards_category(cards) / 8
    return (evaluate(cards) >> 24) / 8


def few_cards_category(cards: tuple[str, ...]) -> int:
    """The category of fewer than five cards, as eval7 numbers it: 0 high card, 1 pair,
    2 two pair, 3 three of a kind, 7 four of a kind."""
    counts = sorted((sum(card[0] == rank for card in cards) for rank in RANKS), reverse=True)
    if counts[0] >= 3:
        return 7 if counts[0] == 4 else 3
    return counts[0] - 1 + (counts[1] == 2)


def choose_discard(hand: tuple[str, ...], board: tuple[str, ...]) -> DiscardAction:
    """Toss Hold'em: discard the card whose loss leaves the strongest two (made hand with
    the board first, then the two cards' preflop strength)."""

    def kept(index: int) -> float:
        rest = hand[:index] + hand[index + 1 :]
        return made_hand_strength(rest, board) + preflop_strength(rest) / 10

    return DiscardAction(max(range(len(hand)), key=kept))


def hits_bounty(rank: str | None, hand: tuple[str, ...], board: tuple[str, ...]) -> bool:
    """Bounty Hold'em: whether the bounty ``rank`` is among the hole cards or the board."""
    return rank is not None and any(card[0] == rank for card in hand + board)


def limit_action(round_state: RoundState, strength: float) -> Action:
    """Limit games (the ACPC's): a bet is one fixed step against a pot that keeps growing,
    so folding is rarely right.  Raise strong hands, call with fair ones (most two cards
    before the flop, a pair or better after it), fold only the rest, and only to a bet."""
    legal = round_state.legal_actions()
    preflop = round_state.street == 0
    if RaiseAction in legal and strength >= (0.5 if preflop else 0.25):
        return RaiseAction(round_state.raise_bounds()[0])  # the one size a limit raise has
    if CheckAction in legal:
        return CheckAction()
    return CallAction() if strength >= (0.2 if preflop else 0.125) else FoldAction()


class Player(Bot):
    """The starter bot; the engine calls the three methods below."""

    def __init__(self) -> None:
        self.hands_won = 0

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Called when a hand starts; your cards are ``round_state.hands[active]``."""

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Called when a hand ends; ``terminal_state.deltas[active]`` is what you won."""
        if terminal_state.deltas[active] > 0:
            self.hands_won += 1

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Bet strong hands, call fair prices, fold weak hands to bets; bid a little."""
        legal = round_state.legal_actions()
        if BidAction in legal:  # Auction Hold'em: bid a quarter of the pot for a third card
            low, high = round_state.bid_bounds()
            return BidAction(min(high, max(low, round_state.pot // 4)))
        hand, board = round_state.hands[active], round_state.board
        if DiscardAction in legal:  # Toss Hold'em: one hole card goes face up onto the board
            return choose_discard(hand, board)
        if round_state.street == 0:
            strength = best_pair_strength(hand)
        else:
            strength = made_hand_strength(hand, board)
        if hits_bounty(round_state.bounties[active], hand, board):
            strength += 0.1  # Bounty Hold'em: a won hand pays more
        if round_state.rules.limit is not None:
            return limit_action(round_state, strength)
        if RaiseAction in legal and strength >= 0.7:
            low, high = round_state.raise_bounds()
            return RaiseAction(min(high, max(low, round_state.pot)))
        if CheckAction in legal:
            return CheckAction()
        cost = round_state.continue_cost
        if strength >= cost / (round_state.pot + cost) + 0.2:
            return CallAction()
        return FoldAction()


if __name__ == "__main__":
    run_bot(Player(), parse_args(), variant=VARIANT)
