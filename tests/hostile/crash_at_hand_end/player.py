"""Hostile bot: exits with status 4 when it is told hand 3 is over (before acknowledging it)."""

import os

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def handle_round_over(self, game_state, terminal_state, active):
        if game_state.round_num == 3:
            os._exit(4)

    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
