"""Hostile bot: at the start of hand 3, forks three children that sleep forever, then exits 7.

The children close every inherited descriptor (the connection too), as daemons do, so the
runner sees the connection close when the parent exits.
"""

import os
import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def handle_new_round(self, game_state, round_state, active):
        if game_state.round_num == 3:
            for index in range(3):
                if os.fork() == 0:
                    os.closerange(3, 65536)
                    with open(f"child-{index}.pid.tmp", "w") as file:
                        file.write(str(os.getpid()))
                    os.rename(f"child-{index}.pid.tmp", f"child-{index}.pid")
                    time.sleep(3600)
                    os._exit(0)
            while not all(os.path.exists(f"child-{index}.pid") for index in range(3)):
                time.sleep(0.01)
            os._exit(7)

    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
