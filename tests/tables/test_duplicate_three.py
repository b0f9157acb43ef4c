"""Three-player duplicate matches: the six seatings of the ACPC 2009 rules."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_runner.bots.builtin import make_builtin
from local_runner.engine.seating import duplicate_orders, slots_in_seats
from local_runner.engine.seats import InProcessSeat, Seat
from local_runner.results.stats import Moments
from local_runner.runs.layout import LEG_DIRECTORIES
from local_runner.runs.summary import summary_content
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, UsageError
from local_runner.tables.table import play_table
from sdk import Bot
from sdk.rules import Rules
from tests.conftest import ROOT, MakeBot
from tests.engine.test_acpc_seat import acpc_bot

pytestmark = pytest.mark.slow  # bot processes and the CLI


#: A deterministic bot process on the ACPC wire (a 3-seat table's wire).
ACPC_CHECKCALL = """
    from local_runner.bots.builtin import make_builtin
    from sdk.runner import parse_args, run_bot

    run_bot(make_builtin("checkcall", 5), parse_args(), protocol="acpc")
"""


def config(rounds: int, seed: int = 11) -> ScrimmageConfig:
    rules = Rules.for_variant("acpc-3pl").replace(num_rounds=rounds)
    return ScrimmageConfig(rules=rules, seed=seed)


def hands(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- the seating invariant ---------------------------------------------------------


@given(st.integers(min_value=1, max_value=10**9))
def test_every_bot_holds_every_seat_of_every_deal_twice_once_per_relative_order(
    hand: int,
) -> None:
    orders = duplicate_orders(3)
    assert len(orders) == len(set(orders)) == 6
    for bot in range(3):
        for seat in range(3):
            # In each leg, the bot in each seat of this deal: who holds `seat`, and the
            # other two in seat order after it (the relative order of the others).
            holders = []
            for order in orders:
                seated = [order[slot] for slot in slots_in_seats(hand, 3)]
                if seated[seat] == bot:
                    holders.append((seated[(seat + 1) % 3], seated[(seat + 2) % 3]))
            assert len(holders) == 2, (hand, bot, seat)
            assert set(holders) == {
                tuple(b for b in range(3) if b != bot),
                tuple(b for b in reversed(range(3)) if b != bot),
            }


@given(st.integers(min_value=1, max_value=10**9))
def test_heads_up_every_bot_holds_every_seat_of_every_deal_once(hand: int) -> None:
    orders = duplicate_orders(2)
    for bot in range(2):
        for seat in range(2):
            legs = [o for o in orders if o[slots_in_seats(hand, 2)[seat]] == bot]
            assert len(legs) == 1


def test_the_legs_follow_the_acpc_text() -> None:
    # Leg 1 seats the bots in order; each next leg rotates them one seat to the left (the
    # bot in seat s moves to seat s - 1), three times; then the other relative order.
    orders = duplicate_orders(3)
    for leg in (1, 2, 4, 5):
        previous = orders[leg - 1]
        assert orders[leg] == tuple(previous[(seat + 1) % 3] for seat in range(3))
    assert orders[3] == (0, 2, 1)
    with pytest.raises(ValueError, match="2 or 3 seats"):
        duplicate_orders(4)


# -- a match ---------------------------------------------------------------------------


def test_the_same_deals_go_to_the_same_seats_in_all_six_legs(tmp_path: Path) -> None:
    specs = [BotSpec.parse(f"builtin:{name}") for name in ("random", "raise", "equity")]
    result = play_table(specs, config(30), tmp_path, True)
    assert result.names == ("random", "raise", "equity") and result.samples == 30
    legs = [hands(tmp_path / directory / "hands.jsonl") for directory in LEG_DIRECTORIES]
    assert [len(leg) for leg in legs] == [30] * 6
    held: Counter[tuple[int, int, str]] = Counter()
    for number in range(30):
        deals = [leg[number] for leg in legs]
        for deal in deals[1:]:
            assert deal["hole_cards"] == deals[0]["hole_cards"]
            shorter = min(len(deal["board"]), len(deals[0]["board"]))  # a fold ends it early
            assert deal["board"][:shorter] == deals[0]["board"][:shorter]
        for leg, (deal, order) in enumerate(zip(deals, result.orders, strict=True)):
            expected = [result.names[order[slot]] for slot in slots_in_seats(number + 1, 3)]
            assert deal["players"] == expected, (leg, number)
            for seat, name in enumerate(deal["players"]):
                held[(number, seat, name)] += 1
    assert set(held.values()) == {2} and len(held) == 30 * 3 * 3
    # The result per deal is the sum over the legs, from each bot's seat in each leg.
    for bot, name in enumerate(result.names):
        per_deal = [
            sum(leg[n]["deltas"][leg[n]["players"].index(name)] for leg in legs) for n in range(30)
        ]
        assert result.moments[bot] == Moments.of(per_deal)
        assert sum(per_deal) == result.bankrolls[bot]


def test_a_deterministic_bot_in_every_seat_sums_to_exactly_zero_per_deal(tmp_path: Path) -> None:
    specs = [BotSpec.parse("builtin:checkcall") for _ in range(3)]
    result = play_table(specs, config(120, seed=4), tmp_path, True)
    assert result.names == ("checkcall-1", "checkcall-2", "checkcall-3")
    assert result.hands_played == 720 and result.bankrolls == (0, 0, 0)
    for bot in range(3):
        assert result.moments[bot] == Moments(120, 0, 0)  # every deal sums to 0
    assert any(result.player(0, bot).bankroll != 0 for bot in range(3))  # a leg alone is not


class Diary(Bot):
    """Remembers every hand it was dealt into: a restarted bot starts with an empty diary."""

    def __init__(self) -> None:
        self.hands: list[int] = []
        self.inner = make_builtin("checkcall", 0)

    def handle_new_round(self, game_state: Any, round_state: Any, active: int) -> None:
        self.hands.append(game_state.round_num)

    def handle_round_over(self, game_state: Any, terminal_state: Any, active: int) -> None:
        pass

    def get_action(self, game_state: Any, round_state: Any, active: int) -> Any:
        return self.inner.get_action(game_state, round_state, active)


def test_every_bot_is_restarted_between_legs(tmp_path: Path) -> None:
    made: dict[str, list[Diary]] = {}

    def spec(name: str) -> BotSpec:
        def seat(seat_name: str, rules: Rules) -> Seat:
            bot = Diary()
            made.setdefault(seat_name, []).append(bot)
            return InProcessSeat(seat_name, bot, rules)

        return BotSpec(name=name, seat=seat)

    play_table([spec("a"), spec("b"), spec("c")], config(12), tmp_path, True)
    assert sorted(made) == ["a", "b", "c"]
    for bots in made.values():
        assert len(bots) == 6 and len({id(bot) for bot in bots}) == 6
        assert all(bot.hands == list(range(1, 13)) for bot in bots)  # no memory of a leg


def test_bot_processes_over_sockets_are_restarted_in_every_leg_and_sum_to_zero(
    make_bot: MakeBot, tmp_path: Path
) -> None:
    bots = [acpc_bot(make_bot, f"cc{i}", ACPC_CHECKCALL, startme=i == 0) for i in range(3)]
    out = tmp_path / "out"
    result = play_table([BotSpec.parse(str(bot)) for bot in bots], config(60), out, True)
    assert result.samples == 60 and result.bankrolls == (0, 0, 0)
    assert all(result.moments[bot] == Moments(60, 0, 0) for bot in range(3))
    for directory in LEG_DIRECTORIES:
        summary = json.loads((out / directory / "summary.json").read_text())
        assert all(sum(p["faults"].values()) == 0 for p in summary["players"]), summary
        for name in ("cc0", "cc1", "cc2"):  # each leg started its own processes, with a log
            log = (out / directory / f"{name}.log").read_text()
            assert log.count("python3 for this bot") == 1


def test_the_summary_gives_each_bot_an_interval_over_deals(tmp_path: Path) -> None:
    specs = [BotSpec.parse(f"builtin:{name}") for name in ("random", "checkcall", "raise")]
    result = play_table(specs, config(80, seed=9), tmp_path, True)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary == json.loads(json.dumps(summary_content(result.to_dict())))
    assert summary["groups"] == 80 and summary["rounds"] == 480
    assert summary["rounds_scheduled"] == 480 and "pairs" not in summary
    assert [leg["directory"] for leg in summary["legs"]] == list(LEG_DIRECTORIES)
    assert summary["legs"][1]["players"] == ["checkcall", "raise", "random"]
    stats = summary["statistics"]
    assert stats["sample"] == "deal group"
    for bot, player in enumerate(stats["players"]):
        expected = result.moments[bot].summary(config(1).rules.big_blind, 6)
        assert player["samples"] == 80 and player["hands"] == 480
        assert player["chips"] == result.bankrolls[bot] == sum(summary["players"][bot]["legs"])
        assert player["mbb_per_hand"]["low"] == pytest.approx(expected.mbb_per_hand.low, abs=1e-4)
        assert player["mbb_per_hand"]["high"] == pytest.approx(expected.mbb_per_hand.high, abs=1e-4)


def test_a_table_short_of_a_bot_is_refused_with_a_sentence(tmp_path: Path) -> None:
    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:raise")]
    with pytest.raises(UsageError, match="acpc-3pl seats 3 bots, but 2 were given"):
        play_table(specs, config(10), tmp_path, True)
    with pytest.raises(UsageError, match="needs two bots, not 3"):
        play_table([*specs, specs[0]], ScrimmageConfig(rules=Rules(), seed=1), tmp_path, True)


# -- the command line ---------------------------------------------------------------------


def pokerbots(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_cli_three_bot_duplicate_prints_legs_intervals_and_a_verdict(tmp_path: Path) -> None:
    args = [
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "builtin:equity",
        "--variant",
        "acpc-3pl",
        "--duplicate",
        "--rounds",
        "60",
        "--seed",
        "3",
    ]
    run = pokerbots(*args, "--out", str(tmp_path / "table"))
    assert run.returncode == 0, run.stderr
    for text in (
        "Legs: the same deals in every seating",
        "leg-6",
        "60 deals in 6 seatings",
        "over 60 deals of 6 hands",
        "Verdict: ",
    ):
        assert text in run.stdout, run.stdout
    data = pokerbots(*args, "--out", str(tmp_path / "json"), "--json")
    assert data.returncode == 0, data.stderr
    summary = json.loads(data.stdout)
    assert [p["name"] for p in summary["players"]] == ["random", "raise", "equity"]
    assert all(len(p["legs"]) == 6 for p in summary["players"])
    # The same seed gives the same match.
    table_summary = json.loads((tmp_path / "table" / "summary.json").read_text())
    assert [p["legs"] for p in table_summary["players"]] == [p["legs"] for p in summary["players"]]


def test_cli_three_seat_duplicate_errors_are_sentences(tmp_path: Path) -> None:
    cases = [
        (
            ("builtin:random", "builtin:raise", "--variant", "acpc-3pl", "--duplicate"),
            "seats 3 bots in every seating, but 2 were given; name 3",
        ),
        (
            (
                "builtin:random",
                "builtin:raise",
                "builtin:raise",
                "builtin:raise",
                "--variant",
                "acpc-3pl",
                "--duplicate",
            ),
            "This game seats 3 bots; 4 were given.",
        ),
        (
            ("builtin:random", "builtin:raise", "builtin:raise", "--duplicate"),
            "This game seats 2 bots; 3 were given. Choose a game for more with --variant",
        ),
    ]
    for args, message in cases:
        run = pokerbots("scrimmage", *args, "--rounds", "5", "--out", str(tmp_path / "x"))
        assert run.returncode == 2, run.stderr
        assert message in run.stderr and "Traceback" not in run.stderr, run.stderr
