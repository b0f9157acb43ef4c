"""A starter bot: plays its made hand, sizes bets by strength, and never breaks the rules.

Edit ``get_action``: it receives the game state and the round state and
returns one of ``round_state.legal_actions()``.
"""

from __future__ import annotations

import eval7

from sdk.actions import Action, BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.bot import Bot
from sdk.runner import parse_args, run_bot
from sdk.states import GameState, RoundState, TerminalState

VARIANT = "nlhe"
RANKS = "23456789TJQKA"


def preflop_strength(cards: tuple[str, ...]) -> float:
    """A rough 0..1 strength of two hole cards: pairs and high, suited, connected cards score higher."""
    high, low = sorted((RANKS.index(card[0]) for card in cards[:2]), reverse=True)
    score = (high + low) / 24
    if high == low:
        score = 0.5 + high / 24
    elif cards[0][1] == cards[1][1]:
        score += 0.05
    return min(score, 1.0)


def made_hand_strength(hand: tuple[str, ...], board: tuple[str, ...]) -> float:
    """A rough 0..1 strength of the best five-card hand: its category (pair, two pair, ...) over 8."""
    value = eval7.evaluate([eval7.Card(card) for card in hand + board])
    return (value >> 24) / 8


class Player(Bot):
    """The starter bot."""

    def __init__(self) -> None:
        self.hands_won = 0

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Called at the start of every hand."""

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Called at the end of every hand; ``terminal_state.deltas[active]`` is this hand's result."""
        if terminal_state.deltas[active] > 0:
            self.hands_won += 1

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Bet strong hands, call fair prices, fold weak hands to bets."""
        legal = round_state.legal_actions()
        if BidAction in legal:  # Auction Hold'em: bid a little for the third card
            low, high = round_state.bid_bounds()
            return BidAction(min(high, max(low, round_state.pot // 4)))
        hand = round_state.hands[active]
        if round_state.street == 0:
            strength = preflop_strength(hand)
        else:
            strength = made_hand_strength(hand, round_state.board)
        cost = round_state.continue_cost
        if RaiseAction in legal and strength >= 0.7:
            low, high = round_state.raise_bounds()
            return RaiseAction(min(high, max(low, round_state.pot)))
        if CheckAction in legal:
            return CheckAction()
        pot_odds = cost / (round_state.pot + cost)
        if strength >= pot_odds + 0.2:
            return CallAction()
        return FoldAction()


if __name__ == "__main__":
    run_bot(Player(), parse_args(), variant=VARIANT)
