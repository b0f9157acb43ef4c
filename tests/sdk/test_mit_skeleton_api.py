"""A bot written against the MIT skeleton's API runs on the SDK after ``skeleton.`` -> ``sdk.``.

The stock ``player.py`` of each MIT year (base, 2022, 2024, 2025, 2026) reads these fields; this
bot, in the kit's own words, reads them the same way (the 2025 stock bot joins the
opponent's bounty rank into a string, so the hidden rank must be a string there too).
``scripts/mit_conformance.py`` runs the real stock players (the ``ported-in-kit`` check).
"""

from __future__ import annotations

import pytest

from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.seats import InProcessSeat
from sdk.actions import BidAction, CallAction, CheckAction, DiscardAction, FoldAction, RaiseAction
from sdk.bot import Bot
from sdk.games import MIT_VARIANTS, streets_of
from sdk.rules import Rules
from sdk.states import (
    BIG_BLIND,
    NUM_ROUNDS,
    SMALL_BLIND,
    STARTING_STACK,
    GameState,
    RoundState,
    TerminalState,
)


class SkeletonStyleBot(Bot):
    """Reads what the stock MIT players read, the way they read it."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        assert NUM_ROUNDS > 0 and STARTING_STACK > BIG_BLIND > SMALL_BLIND > 0

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        self.lines.append(f"{game_state.bankroll} {game_state.game_clock} {game_state.round_num}")
        self.lines.append(" ".join(round_state.hands[active]))

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        previous_state = terminal_state.previous_state
        my_delta = terminal_state.deltas[active]
        opponent_cards = previous_state.hands[1 - active]  # [] unless shown at showdown
        self.lines.append(f"{my_delta} {opponent_cards}")
        if previous_state.bounties[active] is not None:  # the 2025 stock player's lines
            my_bounty_hit = terminal_state.bounty_hits[active]
            opponent_bounty_hit = terminal_state.bounty_hits[1 - active]
            bounty_rank = previous_state.bounties[active]
            opponent_bounty_rank = previous_state.bounties[1 - active]
            if my_bounty_hit:
                self.lines.append("I hit my bounty of " + bounty_rank + "!")
            if opponent_bounty_hit:
                self.lines.append("Opponent hit their bounty of " + opponent_bounty_rank + "!")
            self.lines.append("ranks " + bounty_rank + " " + opponent_bounty_rank)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> object:
        legal_actions = round_state.legal_actions()
        street = round_state.street
        my_cards = round_state.hands[active]
        board_cards = round_state.deck[:street]
        my_pip, opp_pip = round_state.pips[active], round_state.pips[1 - active]
        my_stack, opp_stack = round_state.stacks[active], round_state.stacks[1 - active]
        continue_cost = opp_pip - my_pip
        my_contribution = STARTING_STACK - my_stack
        opp_contribution = STARTING_STACK - opp_stack
        # Five board cards at most (six in Toss Hold'em), or up to 31 with River of Blood's runs.
        most = (
            31 if streets_of(round_state.rules)[-1].more else 6 if round_state.rules.discard else 5
        )
        assert len(my_cards) >= 2 and len(board_cards) <= most
        assert len(round_state.board) <= most  # the 2026 stock player reads ``board``
        assert continue_cost >= 0 and my_contribution >= 0 and opp_contribution >= 0
        if round_state.rules.auction:
            _my_bid, _opp_bid = round_state.bids[active], round_state.bids[1 - active]
        if BidAction in legal_actions:
            return BidAction(int(0.25 * my_stack))
        if DiscardAction in legal_actions:  # the 2026 stock player's discard
            return DiscardAction(0)
        if RaiseAction in legal_actions:
            min_raise, max_raise = round_state.raise_bounds()
            assert min_raise <= max_raise
            if game_state.round_num % 3 == 0:
                return RaiseAction(min_raise)
        if CheckAction in legal_actions:
            return CheckAction()
        if game_state.round_num % 7 == 0:
            return FoldAction()
        return CallAction()


@pytest.mark.parametrize("variant", MIT_VARIANTS)
def test_a_skeleton_style_bot_plays_every_variant_with_no_crash_and_no_fault(variant: str) -> None:
    rules = Rules.for_variant(variant)
    bots = [SkeletonStyleBot(), SkeletonStyleBot()]
    seats = [InProcessSeat(name, bot, rules) for name, bot in zip("AB", bots, strict=True)]
    result = Match(seats, rules, 11, MatchSettings(enforce_clock=False)).play(300)
    assert result.hands_played == 300
    for player, seat in zip(result.players, seats, strict=True):
        assert seat.alive, seat.last_error
        assert player.fault_counts == {}
    if variant == "bounty":
        lines = bots[0].lines + bots[1].lines
        assert any(line.startswith("Opponent hit their bounty of -1") for line in lines)
        assert all(line.split()[2] == "-1" for line in lines if line.startswith("ranks "))
