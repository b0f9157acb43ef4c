"""The reference bots' game-clock use: seconds per 1000 hands, and decision times per street.

    python benchmarks/bot_clock.py [--bot range] [--opponent raise] [--hands 1000]
                                   [--variants nlhe,swap,auction,bounty] [--json]

Plays ``--hands`` hands of the bot against ``builtin:raise`` (it raises whenever it
may, so it forces the most decisions per hand; in a 3-seat game against two of them) in
each variant, in this process,
through the real engine and the SDK client, as a scrimmage would.  Reports:

* ``clock s/1000h``: the game clock the bot used (the engine's measure: from
  sending a request to the reply, client parsing included), scaled to 1000 hands.
  The issue's target is under 10 s (a third of MIT's 30 s clock of 2022-2024);
* ``cpu s/1000h``: the processor time of the bot's ``get_action`` calls alone, which
  a busy machine inflates less than the wall-clock figures;
* the median and 99th percentile time of one ``get_action`` call, per street of the
  game (auction bids count on the street they are asked on);
* ``share``: the clock used as a share of the game's clock (the goal: under a third, in
  every game, also on a loaded machine);
* ``budget``: how the bot's clock-aware budget (``local_runner/bots/budget.py``) spent
  its decisions: at full effort, at fewer samples, frugal, reflex (percent of decisions);
* faults (there must be none) and the bot's result.

The budget follows the clock the engine charges, so on a busy machine the clock used
stays under the plan (0.3 of the clock, ``Budget.share``) and the ``budget`` column shows the work
given up for it.  To measure a loaded machine, pin this process next to busy loops:

    python benchmarks/bot_clock.py --pin 0 --busy 2

pins this process to CPU 0 and starts two busy loops pinned there too (stopped at the end),
as ``taskset -c 0`` next to two ``yes >/dev/null`` loops would.  The 1-minute load average
is printed before and after: quote it with the figures.

``--evaluator pkrbot`` loads the bots with eval7 hidden, so they use pkrbot (and
their Python Monte Carlo loop), as a bot would on MIT's 2026 image.

Wall-clock figures depend on the machine and its load: compare within one run, and
read ``docs/reference-bots.md`` for the figures measured on the reference machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat
from sdk.actions import Action
from sdk.bot import Bot
from sdk.games import VARIANTS, find_game, street_named
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState


class Timed(Bot):
    """A bot whose ``get_action`` calls are timed and filed by street."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        # By street name, in the order first met (sdk.games: a game's own streets, Toss
        # Hold'em's discard streets and River of Blood's runs included).
        self.times: dict[str, list[float]] = {}
        self.cpu = 0.0

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Delegate."""
        self.bot.handle_new_round(game_state, round_state, active)

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Delegate."""
        self.bot.handle_round_over(game_state, terminal_state, active)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Delegate, timing the call."""
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot.get_action(game_state, round_state, active)
        elapsed = time.perf_counter() - start
        name = street_named(round_state.rules, round_state.street).name
        self.times.setdefault(name, []).append(elapsed)
        self.cpu += time.process_time() - cpu
        return action


def use_pkrbot() -> None:
    """Load the bots with eval7 hidden, so they use pkrbot; the engine keeps eval7."""
    saved = sys.modules.pop("eval7", None)
    sys.modules["eval7"] = None  # type: ignore[assignment]  # makes `import eval7` fail
    try:
        from local_runner.bots import evaluator

        if evaluator.NAME != "pkrbot":
            raise SystemExit("The bots were loaded already; run --evaluator pkrbot on its own.")
    finally:
        del sys.modules["eval7"]
        if saved is not None:
            sys.modules["eval7"] = saved


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(bot: str, opponent: str, variant: str, hands: int, seed: int) -> dict[str, object]:
    """Play one match and return its clock figures."""
    # The game's clock for this many hands, in proportion (its competition's clock_for).
    clock = find_game(variant).competition.clock_for(hands)
    rules = Rules.for_variant(variant).replace(num_rounds=hands, game_clock=clock)
    timed = Timed(make_builtin(bot, seed))
    seats = [InProcessSeat(bot, timed, rules)] + [
        # A 3-seat game seats the opponent twice (two independent copies).
        InProcessSeat(f"{opponent}-{slot}", make_builtin(opponent, seed + slot), rules)
        for slot in range(1, rules.seats)
    ]
    result = Match(seats, rules, seed=seed).play()
    player = result.players[0]
    budget = getattr(timed.bot, "budget", None)
    tally = list(budget.tally) if budget is not None else [0, 0, 0, 0]
    asked = max(1, sum(tally))
    per_street: dict[str, dict[str, float]] = {}
    for street, times in timed.times.items():
        if times:
            per_street[street] = {
                "decisions": len(times),
                "median_ms": round(statistics.median(times) * 1000, 3),
                "p99_ms": round(percentile(times, 0.99) * 1000, 3),
            }
    return {
        "variant": variant,
        "bot": bot,
        "opponent": opponent,
        "hands": result.hands_played,
        "clock_s_per_1000_hands": round(player.time_used * 1000 / result.hands_played, 3),
        "cpu_s_per_1000_hands": round(timed.cpu * 1000 / result.hands_played, 3),
        "clock_limit_s": rules.game_clock * 1000 / rules.num_rounds,
        "clock_share": round(player.time_used / rules.game_clock, 4),
        "budget_percent": {
            "full": round(100 * tally[0] / asked, 1),
            "fewer": round(100 * tally[1] / asked, 1),
            "frugal": round(100 * tally[2] / asked, 1),
            "reflex": round(100 * tally[3] / asked, 1),
        },
        "decisions": player.decisions,
        "faults": {kind.value: n for kind, n in player.fault_counts.items()},
        "bankroll": player.bankroll,
        "streets": per_street,
    }


def busy_loops(cpu: int, count: int) -> list[subprocess.Popen[bytes]]:
    """Pin this process to ``cpu`` and start ``count`` busy loops pinned there too."""
    os.sched_setaffinity(0, {cpu})  # children inherit the affinity
    loop = [sys.executable, "-c", "while True: pass"]
    return [subprocess.Popen(loop) for _ in range(count)]


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> int:
    """Measure each variant and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="range")
    parser.add_argument("--opponent", default="raise")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--evaluator",
        choices=("eval7", "pkrbot"),
        default="eval7",
        help="the bots' hand evaluator (pkrbot: as on MIT's 2026 image, where eval7 is absent)",
    )
    parser.add_argument("--pin", type=int, help="run pinned to this CPU")
    parser.add_argument(
        "--busy", type=int, default=0, help="busy loops pinned next to it (needs --pin)"
    )
    args = parser.parse_args(argv)
    if args.evaluator == "pkrbot":
        use_pkrbot()
    loops = busy_loops(args.pin, args.busy) if args.pin is not None else []
    load = os.getloadavg()[0]
    try:
        rows = [
            measure(args.bot, args.opponent, variant, args.hands, args.seed)
            for variant in args.variants.split(",")
        ]
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    if args.json:
        out(json.dumps(rows, indent=2))
        return 0
    where = f"pinned to CPU {args.pin} next to {args.busy} busy loops" if loops else "unpinned"
    if args.pin is not None and not loops:
        where = f"pinned to CPU {args.pin}"
    out(
        f"{args.bot} against builtin:{args.opponent}, {args.hands} hands per variant, "
        f"evaluator {args.evaluator}, {where}; 1-minute load {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    out(
        f"{'variant':8} {'clock s/1000h':>13} {'share':>5} {'cpu s/1000h':>11} {'faults':>6}  "
        f"{'budget full/fewer/frugal/reflex %':>33}  per street: median / p99 ms (decisions)"
    )
    for row in rows:
        streets = row["streets"]
        assert isinstance(streets, dict)
        cells = "  ".join(
            f"{name} {s['median_ms']:.2f}/{s['p99_ms']:.2f} ({s['decisions']})"
            for name, s in streets.items()
        )
        faults = sum(row["faults"].values())  # type: ignore[attr-defined]
        spent = row["budget_percent"]
        assert isinstance(spent, dict)
        tally = "/".join(f"{spent[mode]:.0f}" for mode in ("full", "fewer", "frugal", "reflex"))
        out(
            f"{row['variant']:8} {row['clock_s_per_1000_hands']:>13.2f} "
            f"{row['clock_share']:>5.2f} {row['cpu_s_per_1000_hands']:>11.2f} {faults:>6}  "
            f"{tally:>33}  {cells}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
