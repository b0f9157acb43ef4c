"""Hostile bot: raises to a million chips at every decision."""

from sdk import Bot, RaiseAction, parse_args, run_bot


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        return RaiseAction(1_000_000)


run_bot(Player(), parse_args())
