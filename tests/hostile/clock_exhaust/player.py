"""Hostile bot: thinks 0.3 s per decision, within the reply timeout, until its clock runs out."""

import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        time.sleep(0.3)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
