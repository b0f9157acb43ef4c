"""Benchmark bot: checks when it can, calls otherwise (the cheapest legal play)."""

from sdk import (
    Action,
    BidAction,
    Bot,
    CallAction,
    CheckAction,
    GameState,
    RoundState,
    parse_args,
    run_bot,
)


class Player(Bot):
    """Check, else call; bid 0."""

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """The cheapest legal action."""
        legal = round_state.legal_actions()
        if BidAction in legal:
            return BidAction(0)
        return CheckAction() if CheckAction in legal else CallAction()


if __name__ == "__main__":
    run_bot(Player(), parse_args())
