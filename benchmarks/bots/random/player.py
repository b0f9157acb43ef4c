"""Benchmark bot: the kit's built-in random bot, as a separate process."""

from local_runner.bots.builtin import RandomBot
from sdk import parse_args, run_bot

if __name__ == "__main__":
    run_bot(RandomBot(), parse_args())
