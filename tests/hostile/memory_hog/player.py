"""Hostile bot: at the start of hand 2, allocates memory until it cannot (MemoryError).

It allocates zeroed blocks (calloc), which take address space at once but physical memory
only when written, so that the address-space limit stops it within milliseconds.
"""

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def handle_new_round(self, game_state, round_state, active):
        if game_state.round_num == 2:
            hog = []
            while True:
                hog.append(bytes(64 << 20))

    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
