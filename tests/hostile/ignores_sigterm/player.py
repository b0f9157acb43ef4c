"""Hostile bot: ignores SIGTERM, plays a normal match, then does not exit after the match."""

import signal
import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


signal.signal(signal.SIGTERM, signal.SIG_IGN)
run_bot(Player(), parse_args())
while True:
    time.sleep(3600)
