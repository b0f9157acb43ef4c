"""Hostile bot: plays check/call (5 ms a decision) while a thread floods stdout nonstop."""

import os
import threading
import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


def flood():
    chunk = b"flood " * (1 << 17)
    while True:
        os.write(1, chunk)


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        time.sleep(0.005)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


threading.Thread(target=flood, daemon=True).start()
run_bot(Player(), parse_args())
