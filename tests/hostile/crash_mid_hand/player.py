"""Hostile bot: plays check/call, then kills itself with SIGKILL on the flop of hand 4."""

import os
import signal

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        if game_state.round_num == 4 and round_state.street == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
