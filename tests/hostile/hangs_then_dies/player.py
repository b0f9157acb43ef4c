"""Hostile bot: hangs 1.5 s preflop in hand 2 (past the reply timeout), then exits with 5.

The runner has stopped asking it by then (a late reply is owed), so it must notice the crash
without waiting on the bot.
"""

import os
import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        if game_state.round_num == 2:
            time.sleep(1.5)
            os._exit(5)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
