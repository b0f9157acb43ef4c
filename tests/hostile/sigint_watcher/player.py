"""Not hostile: a slow check/call bot that records its progress and any SIGINT it receives.

The interrupt tests use it: bots run in sessions of their own, so a Ctrl-C sent to the
runner (or to the runner's whole process group, as a terminal does) must never reach them.
"""

import signal
import time
from pathlib import Path

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


def note_sigint(signum, frame):
    Path("got-sigint").write_text("SIGINT reached the bot\n")


class Player(Bot):
    def handle_round_over(self, game_state, terminal_state, active):
        Path("progress.tmp").write_text(str(game_state.round_num))
        Path("progress.tmp").replace("progress")

    def get_action(self, game_state, round_state, active):
        time.sleep(0.005)
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


signal.signal(signal.SIGINT, note_sigint)
run_bot(Player(), parse_args())
