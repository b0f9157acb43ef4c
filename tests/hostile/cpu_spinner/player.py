"""Hostile bot: spins the CPU forever preflop in hand 2, until the CPU-time limit kills it."""

from sdk import Bot, CallAction, CheckAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        if game_state.round_num == 2:
            while True:
                pass
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


run_bot(Player(), parse_args())
