"""Hostile bot: like double_fork, but the daemon also clears its environment and leaves the
bot's directory (exec /bin/sleep with an empty environment from /), so neither the runner's
token nor the working directory can identify it."""

import os
import time

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


def escape(clean):
    """Double fork: the grandchild leaves the session and is orphaned at once."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.closerange(3, 65536)
            with open("grandchild.pid.tmp", "w") as file:
                file.write(str(os.getpid()))
            os.rename("grandchild.pid.tmp", "grandchild.pid")
            if clean:
                os.chdir("/")
                os.execve("/bin/sleep", ["sleep", "3600"], {})
            time.sleep(3600)
        os._exit(0)
    os.waitpid(-1, 0)
    while not os.path.exists("grandchild.pid"):  # so that the test knows whom to look for
        time.sleep(0.01)


class Player(Bot):
    def handle_new_round(self, game_state, round_state, active):
        if game_state.round_num == 2:
            escape(clean=True)

    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
