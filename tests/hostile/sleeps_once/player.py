"""Hostile bot: sleeps 1.2 s (past the 1 s reply timeout) once, preflop in hand 3."""

import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        if game_state.round_num == 3 and round_state.street == 0:
            time.sleep(1.2)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
