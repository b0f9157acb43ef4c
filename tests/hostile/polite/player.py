"""Not hostile: a check/call bot, the subprocess opponent for hostile bots.

It thinks for POLITE_DELAY seconds (default 0) a decision, to make a match last.
"""

import os
import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

DELAY = float(os.environ.get("POLITE_DELAY", "0"))


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        time.sleep(DELAY)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
