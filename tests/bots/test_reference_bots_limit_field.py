"""The reference bots in the ACPC games: fixed bet sizes and raise caps in limit, and one
range per opponent with equity against the whole field at a 3-seat table."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from local_runner.bots.betting import bet_share, fixed_raise, is_limit, raise_options
from local_runner.bots.builtin import make_builtin
from local_runner.bots.equity import EquityBot
from local_runner.bots.field import (
    JointDeals,
    fair_share,
    field_equity,
    opponents_in_hand,
    seat_actions,
)
from local_runner.bots.range_bot import RangeBot, temperature
from local_runner.bots.ranges import WeightedRange
from local_runner.bots.strength import percentiles
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat
from local_runner.harness import decide, play, spot
from sdk.actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.games import VARIANTS
from sdk.history import actions_of
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState
from tests.modules import load_file

LIMIT = Rules.for_variant("acpc-2pl")
THREE = Rules.for_variant("acpc-3pl")


def _raised_to_cap(state: RoundState) -> RoundState:
    """Raise (everyone in turn) until the round's cap takes the raise away."""
    while RaiseAction in state.legal_actions():
        after = state.proceed(fixed_raise(state))
        assert isinstance(after, RoundState)
        state = after
    return state


# -- betting arithmetic -----------------------------------------------------------


def test_limit_raise_options_are_the_one_fixed_size() -> None:
    state = spot(hand=("Ah", "Kd"), seat=0, rules=LIMIT)  # the small blind, first to act
    options = raise_options(state)
    assert is_limit(state) and len(options) == 1
    action, share = options[0]
    low, high = state.raise_bounds()
    assert action.amount == low == high == 20  # 5 to call the big blind, 10 more
    assert share == pytest.approx(bet_share(state, action)) and 0 < share <= 1
    # No-limit compares two sizes; at the cap a limit game has none.
    assert len(raise_options(spot(hand=("Ah", "Kd"), seat=0))) == 2
    capped = _raised_to_cap(state)
    assert RaiseAction not in capped.legal_actions() and raise_options(capped) == []
    assert capped.raises == LIMIT.limit.max_raises[0]  # type: ignore[union-attr]


def test_fair_share_is_one_over_the_players() -> None:
    assert fair_share(2) == 0.5 and fair_share(3) == pytest.approx(1 / 3)


def test_limit_temperature_is_cooler_than_no_limit() -> None:
    limit_state = spot(hand=("Ah", "Kd"), seat=0, rules=LIMIT)
    no_limit = spot(hand=("Ah", "Kd"), seat=0)
    # In big blinds: a tenth of one (plus a little pot) in limit, one and more in no-limit.
    assert temperature(limit_state) / LIMIT.big_blind < 0.2
    assert temperature(no_limit) / no_limit.rules.big_blind >= 1.0


# -- the equity bot in limit ------------------------------------------------------


@pytest.mark.parametrize("bot_class", [EquityBot, RangeBot])
def test_a_strong_hand_raises_the_fixed_size_and_stops_at_the_cap(bot_class: type[Bot]) -> None:
    # The big blind holds aces facing the small blind's raise preflop.
    facing = spot(hand=("As", "Ad"), seat=1, pips=(20, 10), rules=LIMIT)
    raises = 0
    for seed in range(10):
        action = decide(bot_class(seed), facing)  # type: ignore[call-arg]
        assert facing.is_legal(action) and not isinstance(action, FoldAction)
        if isinstance(action, RaiseAction):
            raises += 1
            assert action.amount == facing.raise_bounds()[0] == 30
    assert raises >= 8
    # At the cap the same hand can only call.
    capped = _raised_to_cap(RoundState.new_hand(LIMIT, (("Kc", "Kd"), ("As", "Ad"))))
    mine = capped.actor
    hands = tuple(h if seat == mine else () for seat, h in enumerate(capped.hands))
    view = capped._replace(hands=hands)
    for seed in range(10):
        action = decide(bot_class(seed), view)  # type: ignore[call-arg]
        assert isinstance(action, CallAction), action


@pytest.mark.parametrize("bot_class", [EquityBot, RangeBot])
def test_trash_folds_to_a_river_bet_in_limit(bot_class: type[Bot]) -> None:
    board = ("Ah", "Kh", "Qs", "9c", "8d")
    trash = spot(hand=("2c", "3d"), board=board, seat=0, pips=(0, 20), rules=LIMIT)
    folds = sum(
        isinstance(decide(bot_class(seed), trash), FoldAction)  # type: ignore[call-arg]
        for seed in range(10)
    )
    assert folds >= 9


def test_the_nuts_bets_the_fixed_size_when_checked_to() -> None:
    board = ("Ah", "Kh", "Qh", "9c", "8d")
    nuts = spot(hand=("Jh", "Th"), board=board, seat=0, pips=(0, 0), rules=LIMIT)
    for bot_class in (EquityBot, RangeBot):
        bets = [decide(bot_class(seed), nuts) for seed in range(10)]
        assert all(nuts.is_legal(action) for action in bets)
        raises = [a for a in bets if isinstance(a, RaiseAction)]
        assert len(raises) >= 9 and {a.amount for a in raises} == {20}


class Checked(Bot):
    """A bot wrapper that checks every action of the bot it wraps: legal, and in a limit
    game every raise at the one legal size."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.raises = 0
        self.decisions = 0

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Delegate."""
        self.bot.handle_new_round(game_state, round_state, active)

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Delegate."""
        self.bot.handle_round_over(game_state, terminal_state, active)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Delegate and check."""
        action = self.bot.get_action(game_state, round_state, active)
        self.decisions += 1
        assert round_state.is_legal(action), (action, round_state)
        if isinstance(action, RaiseAction) and is_limit(round_state):
            low, high = round_state.raise_bounds()
            assert action.amount == low == high
            self.raises += 1
        return action


def _match(bots: Sequence[Bot], rules: Rules, hands: int, seed: int) -> list[dict[object, int]]:
    rules = rules.replace(num_rounds=hands)
    seats = [InProcessSeat(f"bot-{i}", bot, rules) for i, bot in enumerate(bots)]
    result = Match(seats, rules, seed).play()
    assert result.hands_played == hands
    return [dict(player.fault_counts) for player in result.players]


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-3pl"])
@pytest.mark.parametrize("name", ["equity", "range"])
def test_limit_bots_raise_only_the_fixed_size_against_the_raise_bot(
    variant: str, name: str
) -> None:
    rules = Rules.for_variant(variant)
    checked = Checked(make_builtin(name, 3))
    others = [make_builtin("raise", 4 + i) for i in range(rules.seats - 1)]
    faults = _match([checked, *others], rules, 60, seed=11)
    assert faults == [{}] * rules.seats
    assert checked.raises > 0 and checked.decisions > 100


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["random", "checkcall", "equity", "range"])
def test_every_rung_plays_every_game_without_a_fault(variant: str, name: str) -> None:
    rules = Rules.for_variant(variant)
    others = ["random", "checkcall", "range", "equity"][: rules.seats - 1]
    bots = [make_builtin(name, 1), *(make_builtin(other, 2 + i) for i, other in enumerate(others))]
    assert _match(bots, rules, 30, seed=3) == [{}] * rules.seats


# -- three seats: who acted, the field's equity, one range per opponent ----------


def _random_hand(rules: Rules, rng: random.Random) -> tuple[TerminalState, list[tuple[int, str]]]:
    state: RoundState | TerminalState = RoundState.new_hand(rules)
    taken: list[tuple[int, str]] = []
    board = ("2c", "3d", "4h", "5s", "6c")
    while isinstance(state, RoundState):
        legal = sorted(state.legal_actions(), key=lambda kind: kind.__name__)
        kind = rng.choice(legal)
        action: Action = fixed_raise(state) if kind is RaiseAction else kind()
        taken.append((state.actor, type(action).__name__))
        state = state.proceed(action)
        if isinstance(state, RoundState) and len(state.board) < state.street:
            state = state.with_board(board[: state.street])
    return state, taken


def test_seat_actions_reads_every_action_of_a_three_seat_hand() -> None:
    rng = random.Random(5)
    for _ in range(300):
        terminal, taken = _random_hand(THREE, rng)
        read = [(past.seat, type(past.action).__name__) for past in seat_actions(terminal)]
        assert read == taken


def test_seat_actions_agrees_with_the_heads_up_history() -> None:
    rng = random.Random(6)
    for _ in range(300):
        terminal, _ = _random_hand(LIMIT, rng)
        assert [(p.seat, p.action) for p in seat_actions(terminal)] == [
            (p.seat, p.action) for p in actions_of(terminal)
        ]


def test_field_equity_against_two_random_hands() -> None:
    rng = random.Random(1)
    uniform = WeightedRange()
    aces = field_equity(("As", "Ac"), (), [uniform, uniform], 2000, rng)
    trash = field_equity(("7c", "2d"), (), [uniform, uniform], 2000, rng)
    # Three-handed all in, aces win about 73%, seven-deuce about 20%.
    assert 0.69 < aces < 0.77 and 0.16 < trash < 0.25
    # On the river: the nut flush beats everything, a missed hand beats little.
    board = ("Ah", "Kh", "Qh", "9c", "8d")
    assert field_equity(("Jh", "Th"), board, [uniform, uniform], 300, rng) == 1.0
    assert field_equity(("2c", "3d"), board, [uniform, uniform], 300, rng) < 0.05


def test_joint_deals_reweight_to_a_narrower_range() -> None:
    rng = random.Random(2)
    board = ("Ah", "7c", "2s", "Td")
    uniform = WeightedRange()
    deals = JointDeals(("Kd", "Kc"), board, [uniform, uniform], 600, rng)
    wide = deals.equity([uniform, uniform])
    # Keep only the first opponent's pairs holding an ace: kings are then far behind it.
    aces = [1.0 if "A" in (a[0] + b[0]) else 0.0 for a, b in _combos()]
    narrow = deals.equity([uniform, uniform], [aces, [1.0] * len(aces)])
    assert narrow < wide - 0.3
    assert deals.effective_size([uniform, uniform]) == pytest.approx(len(deals.pairs))


def _combos() -> tuple[tuple[str, str], ...]:
    from local_runner.bots.cards import COMBOS

    return COMBOS


def _three_seat_view(hand: tuple[str, str], actions: Sequence[Action]) -> RoundState:
    """A 3-seat hand from seat 0's view (the button), after ``actions`` from the start."""
    state: RoundState | TerminalState = RoundState.new_hand(THREE, ((), (), ()))
    for action in actions:
        assert isinstance(state, RoundState)
        state = state.proceed(action)
    assert isinstance(state, RoundState)
    return state.with_hand(state.actor, hand)


def test_range_bot_keeps_one_range_per_opponent() -> None:
    # Preflop, the button acts first three-handed; say it called, the small blind raised
    # and the big blind called.  Back to the button.
    before = _three_seat_view(("Qs", "Qd"), [])
    assert before.actor == 0
    state = _three_seat_view(("Qs", "Qd"), [CallAction(), RaiseAction(20), CallAction()])
    assert state.actor == 0 and opponents_in_hand(state, 0) == (1, 2)
    bot = RangeBot(4)
    bot.handle_new_round(GameState(0, 100.0, 1), before, 0)
    action = bot.get_action(GameState(0, 100.0, 1), state, 0)
    assert state.is_legal(action)
    assert set(bot.ranges) == {1, 2}
    raiser, caller = (
        sum(w * p for w, p in zip(bot.ranges[s].weights, percentiles(()), strict=True) if w)
        for s in (1, 2)
    )
    assert raiser > caller  # the raise says more about strength than the call


def test_range_bot_in_three_seats_folds_trash_and_raises_the_nuts() -> None:
    river = ("Ah", "Kh", "Qh", "9c", "8d")

    def at_river(hand: tuple[str, str]) -> RoundState:
        state: RoundState | TerminalState = RoundState.new_hand(THREE, ((), (), ()))
        for action in (CallAction(), CallAction(), CheckAction()):  # a limped pot
            assert isinstance(state, RoundState)
            state = state.proceed(action)
        for street in (3, 4, 5):
            assert isinstance(state, RoundState) and state.street == street
            state = state.with_board(river[:street])
            checks = 3 if street < 5 else 1  # on the river: the first seat bets
            for _ in range(checks):
                assert isinstance(state, RoundState)
                state = state.proceed(CheckAction() if street < 5 else fixed_raise(state))
        assert isinstance(state, RoundState) and state.street == 5
        state = state.proceed(CallAction())  # the second seat calls the bet
        assert isinstance(state, RoundState) and state.continue_cost > 0
        return state.with_hand(state.actor, hand)

    trash, nuts = at_river(("2c", "3d")), at_river(("Jh", "Th"))
    folds = raises = 0
    for seed in range(10):
        bot = RangeBot(seed)
        folds += isinstance(bot.get_action(GameState(0, 100.0, 1), trash, trash.actor), FoldAction)
        bot = RangeBot(seed)
        action = bot.get_action(GameState(0, 100.0, 1), nuts, nuts.actor)
        assert nuts.is_legal(action)
        raises += isinstance(action, RaiseAction)
    assert folds >= 9 and raises >= 8


def test_equity_bot_uses_the_field_in_three_seats() -> None:
    # Three-handed, a middling pair is worth much less than heads-up: sixes have about 0.63
    # against one random hand and 0.42 against two (200 joint deals: about +-0.035).
    bot = EquityBot(1)
    three = _three_seat_view(("6s", "6d"), [])
    two = spot(hand=("6s", "6d"), seat=0, rules=LIMIT)
    assert 0.6 < bot.equity(two, 0) < 0.67
    assert 0.33 < bot.equity(three, three.actor) < 0.51


def test_harness_play_in_limit_is_reproducible() -> None:
    first, second = (
        play(RangeBot(3), opponent="equity", rounds=40, seed=2, variant="acpc-2pl")
        .players[0]
        .bankroll
        for _ in range(2)
    )
    assert first == second


# -- the bottom of the ladder and the benchmark ---------------------------------


def test_checkcall_bids_its_whole_stack_card_blind() -> None:
    for hand in (("As", "Ad"), ("7c", "2d")):
        state = spot(hand=hand, board=("2h", "7h", "Tc"), seat=1, variant="auction", auction=True)
        action = decide(make_builtin("checkcall", 1), state)
        assert action == BidAction(state.bid_bounds()[1]) and state.is_legal(action)


def _bot_strength() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bot_strength.py"
    return load_file("bot_strength", path)


def test_bot_strength_chunks_pool_and_count_showdowns_as_zero() -> None:
    bench = _bot_strength()
    jobs = bench.plan(["nlhe", "acpc-3pl"], ["random", "checkcall", "equity"], 250, 100, 1)
    heads_up = [job for job in jobs if job[0] == "nlhe"]
    # Three pairings, each in chunks of 100, 100 and 50 pairs with different seeds.
    assert len(heads_up) == 9 and sorted({job[2] for job in heads_up}) == [50, 100]
    assert len({job[3] for job in heads_up if job[1] == ("random", "checkcall")}) == 3
    lineups = [job[1] for job in jobs if job[0] == "acpc-3pl"]
    assert lineups == [("random", "checkcall", "equity")] * 3
    pieces = [bench.run_job(("nlhe", ("random", "checkcall"), 60, seed)) for seed in (1, 2)]
    row = bench.heads_up_row("nlhe", "random", "checkcall", pieces, 1)
    assert row["pairs"] == 120 and row["faults"] == {} and row["chunks"] == 2
    for piece in pieces:
        for plain, folds in zip(piece["first"], piece["first_folds"], strict=True):
            assert folds in (0, plain)  # a showdown counts 0, a fold its chips
    # Between two card-blind bots only random's folds as the small blind move money
    # without a showdown: checkcall never folds.
    assert row["showdowns_as_zero"]["mbb_per_hand"] >= 0
