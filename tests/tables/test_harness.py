"""The bot authors' test harness: in-process matches, crafted spots, decisions."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from local_runner.bots.builtin import CheckCallBot, RaiseBot, RandomBot
from local_runner.engine.faults import FaultKind
from local_runner.engine.records import HandRecord
from local_runner.harness import HarnessError, decide, play, spot
from sdk.actions import (
    HIDDEN_RANK,
    Action,
    BidAction,
    CallAction,
    CheckAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.games import MIT_VARIANTS
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState


class Illegal(Bot):
    """Always raises to one chip more than anyone may."""

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        if BidAction in round_state.legal_actions():
            return BidAction(round_state.bid_bounds()[1] + 1)
        return RaiseAction(round_state.raise_bounds()[1] + 1)


class Broken(Bot):
    """Raises in get_action from hand 3 on."""

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        if game_state.round_num >= 3:
            raise ZeroDivisionError("a bug in the bot")
        return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()


class BrokenStart(CheckCallBot):
    """Raises when a hand starts."""

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        raise KeyError("no such key")


class Recorder(CheckCallBot):
    """Remembers the game and round states it was asked about."""

    def __init__(self) -> None:
        self.seen: list[tuple[GameState, RoundState, int]] = []

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        self.seen.append((game_state, round_state, active))
        return super().get_action(game_state, round_state, active)


# -- play ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", MIT_VARIANTS)
def test_play_runs_a_fault_free_match_of_every_variant_quickly(variant: str) -> None:
    start = time.perf_counter()
    result = play(RandomBot(3), opponent="random", rounds=300, seed=2, variant=variant)
    elapsed = time.perf_counter() - start
    assert result.hands_played == 300
    assert result.rules.variant == variant and result.rules.num_rounds == 300
    assert result.players[0].fault_counts == {} and result.players[1].fault_counts == {}
    assert result.players[0].bankroll + result.players[1].bankroll == 0
    assert result.players[0].decisions > 300
    # Not a benchmark (benchmarks/ measures speed): a generous bound that still proves in-process
    # play waits on nothing; a wait of even 30 ms per decision would take over 10 s here.
    assert elapsed < 10.0, f"300 in-process hands took {elapsed:.2f} s"


def test_play_is_deterministic_by_seed() -> None:
    first = play(RandomBot(1), "random", rounds=100, seed=7)
    second = play(RandomBot(1), "random", rounds=100, seed=7)
    other = play(RandomBot(1), "random", rounds=100, seed=8)
    assert first.players[0].bankroll == second.players[0].bankroll
    assert (first.players[0].bankroll, first.players[0].decisions) != (
        other.players[0].bankroll,
        other.players[0].decisions,
    )


def test_play_names_the_players_and_accepts_builtin_prefixes_and_bot_objects() -> None:
    result = play(CheckCallBot(), opponent="builtin:raise", rounds=20)
    assert [player.name for player in result.players] == ["CheckCallBot", "raise"]
    result = play(CheckCallBot(), opponent=CheckCallBot(), rounds=20)
    assert [player.name for player in result.players] == ["CheckCallBot-1", "CheckCallBot-2"]
    assert result.players[0].bankroll + result.players[1].bankroll == 0


def test_play_counts_illegal_actions_as_faults() -> None:
    result = play(Illegal(), rounds=30, variant="auction")
    assert result.players[0].fault_counts.get(FaultKind.ILLEGAL, 0) > 0
    assert result.players[1].fault_counts == {}
    assert "illegal" in result.players[0].first_faults[0].detail


def test_play_raises_a_bots_exception_with_its_traceback() -> None:
    with pytest.raises(ZeroDivisionError, match="a bug in the bot") as caught:
        play(Broken(), rounds=10)
    assert any(entry.name == "get_action" for entry in caught.traceback)


def test_play_can_treat_exceptions_as_a_server_would() -> None:
    result = play(Broken(), rounds=10, raise_errors=False)
    assert result.hands_played == 10
    # The SDK sent a default action instead, and each time is a bot_error fault.
    broken = result.players[0]
    errors = broken.fault_counts[FaultKind.BOT_ERROR]
    assert set(broken.fault_counts) == {FaultKind.BOT_ERROR}
    assert 0 < errors < broken.decisions  # it raises from hand 3 on only
    assert broken.first_faults[0].hand == 3
    assert "ZeroDivisionError: a bug in the bot" in broken.first_faults[0].detail
    crashed = play(BrokenStart(), rounds=10, raise_errors=False)
    assert crashed.players[0].fault_counts == {FaultKind.CRASH: 1}
    with pytest.raises(KeyError):
        play(BrokenStart(), rounds=10)


def test_play_reports_every_hand_to_on_hand() -> None:
    records: list[HandRecord] = []
    play(RaiseBot(), "random", rounds=25, variant="bounty", on_hand=records.append)
    assert [record.number for record in records] == list(range(1, 26))
    assert all(record.bounties[0] is not None for record in records)


def test_play_uses_given_rules_with_rounds_replaced() -> None:
    rules = Rules.for_variant("swap").replace(starting_stack=50, big_blind=4, small_blind=2)
    bot = Recorder()
    result = play(bot, rounds=15, rules=rules)
    assert result.rules == rules.replace(num_rounds=15)
    assert all(state.rules.starting_stack == 50 for _, state, _ in bot.seen)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponent": "nobody"}, "no built-in opponent 'nobody'"),
        ({"rounds": 0}, "at least 1"),
        ({"variant": "limit"}, "Unknown variant 'limit'"),
        ({"variant": "nlhe", "rules": Rules.for_variant("swap")}, "contradicts"),
    ],
)
def test_play_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        play(CheckCallBot(), **kwargs)  # type: ignore[arg-type]


def test_play_refuses_the_same_bot_object_twice() -> None:
    bot = CheckCallBot()
    with pytest.raises(HarnessError, match="second instance"):
        play(bot, opponent=bot)


# -- spot: equal to the states real play reaches -------------------------------------------


def _same_spot(built: RoundState, played: RoundState) -> None:
    """``built`` behaves as ``played`` does: same view, same options, same next states."""
    for field in ("street", "pips", "stacks", "board", "auction", "bounties", "rules"):
        assert getattr(built, field) == getattr(played, field), field
    assert built.active == played.active
    assert built.legal_actions() == played.legal_actions()
    assert built.continue_cost == played.continue_cost
    if RaiseAction in played.legal_actions():
        assert built.raise_bounds() == played.raise_bounds()
        low, high = played.raise_bounds()
        for amount in {low, high}:
            assert _summary(built.proceed(RaiseAction(amount))) == _summary(
                played.proceed(RaiseAction(amount))
            )
    if BidAction in played.legal_actions():
        assert built.bid_bounds() == played.bid_bounds()
    for action in (CheckAction(), CallAction(), FoldAction()):
        if type(action) in played.legal_actions():
            assert _summary(built.proceed(action)) == _summary(played.proceed(action))


def _summary(state: RoundState | TerminalState) -> tuple[object, ...]:
    if isinstance(state, TerminalState):
        return ("terminal", state.deltas, state.folder)
    return (state.street, state.active, state.pips, state.stacks, state.legal_actions())


def test_spot_defaults_to_the_dealer_opening_a_hand() -> None:
    built = spot()
    played = RoundState.new_hand(Rules(), (("Ah", "Kd"), ()))
    assert built.hands == (("Ah", "Kd"), ())
    _same_spot(built, played)


def test_spot_of_the_big_blind_facing_a_raise() -> None:
    built = spot(hand=("Ah", "As"), seat=1, pips=(6, 2))
    played = RoundState.new_hand(Rules()).proceed(RaiseAction(6))
    assert isinstance(played, RoundState)
    assert built.hands == ((), ("Ah", "As"))
    _same_spot(built, played)


def test_spot_of_the_dealer_facing_a_three_bet() -> None:
    played = RoundState.new_hand(Rules()).proceed(RaiseAction(6))
    assert isinstance(played, RoundState)
    played = played.proceed(RaiseAction(18))
    assert isinstance(played, RoundState)
    _same_spot(spot(seat=0, pips=(6, 18)), played)


def test_spot_after_the_flop_with_default_stacks_is_a_limped_pot() -> None:
    state = RoundState.new_hand(Rules()).proceed(CallAction())
    assert isinstance(state, RoundState)
    state = state.proceed(CheckAction())
    assert isinstance(state, RoundState)
    flop = ("2c", "7d", "Jh")
    played = state.with_board(flop)
    _same_spot(spot(hand=("Qs", "Qd"), board=flop, seat=1), played)
    checked = played.proceed(CheckAction())
    assert isinstance(checked, RoundState)
    _same_spot(spot(hand=("Qs", "Qd"), board=flop, seat=0), checked)
    bet = played.proceed(RaiseAction(4))
    assert isinstance(bet, RoundState)
    _same_spot(spot(board=flop, seat=0, pips=(0, 4), stacks=(398, 394)), bet)
    raised = checked.proceed(RaiseAction(3))
    assert isinstance(raised, RoundState)
    _same_spot(spot(board=flop, seat=1, pips=(3, 0), stacks=(395, 398)), raised)


def test_spot_of_the_auction_for_both_seats() -> None:
    rules = Rules.for_variant("auction")
    state = RoundState.new_hand(rules).proceed(CallAction())
    assert isinstance(state, RoundState)
    state = state.proceed(CheckAction())
    assert isinstance(state, RoundState) and state.auction
    flop = ("2c", "7d", "Jh")
    first = state.with_board(flop)
    built = spot(hand=("9c", "9d"), board=flop, seat=1, variant="auction", auction=True)
    _same_spot(built, first)
    assert built.legal_actions() == {BidAction}
    second = first.proceed(BidAction(-1))  # the dealer sees a sealed bid
    assert isinstance(second, RoundState)
    built = spot(hand=("9c", "9d"), board=flop, seat=0, variant="auction", auction=True)
    _same_spot(built, second)
    assert built.bids == second.bids == (None, -1)
    after = built.proceed(BidAction(5))
    assert isinstance(after, RoundState) and not after.auction and after.active == 1


def test_spot_carries_the_bounty_and_the_opponents_cards() -> None:
    state = spot(
        hand=("Qh", "3c"), seat=1, variant="bounty", bounty="Q", opponent_hand=("Ah", "Ad")
    )
    assert state.bounties == (HIDDEN_RANK, "Q") and state.pips == (2, 2)  # the dealer limped
    assert state.hands == (("Ah", "Ad"), ("Qh", "3c"))
    three = spot(hand=("Qh", "3c", "4d"), board=("2c", "7d", "Jh"), variant="auction", seat=1)
    assert len(three.hands[1]) == 3


@settings(max_examples=200, deadline=None)
@given(
    variant=st.sampled_from(["nlhe", "swap", "bounty"]),
    choices=st.lists(st.integers(min_value=0, max_value=99), min_size=0, max_size=12),
)
def test_spot_rebuilds_any_state_real_play_reaches(variant: str, choices: list[int]) -> None:
    rules = Rules.for_variant(variant)
    deck = ["Ah", "Kd", "7c", "7s", "2h", "9d", "Tc", "Js", "3c"]
    played: RoundState = RoundState.new_hand(rules, ((deck[0], deck[1]), (deck[2], deck[3])))
    for choice in choices:
        legal = sorted(played.legal_actions(), key=lambda kind: kind.__name__)
        kind = legal[choice % len(legal)]
        if kind is RaiseAction:
            low, high = played.raise_bounds()
            action: Action = RaiseAction(low + (high - low) * (choice % 3) // 2)
        else:
            simple: dict[object, Action] = {CheckAction: CheckAction(), CallAction: CallAction()}
            action = simple.get(kind, FoldAction())
        after = played.proceed(action)
        if isinstance(after, TerminalState):
            break
        played = after.with_board(tuple(deck[4 : 4 + after.street]))
    seat = played.active
    built = spot(
        hand=played.hands[seat],
        board=played.board,
        seat=seat,
        pips=played.pips,
        stacks=played.stacks,
        variant=variant,
        opponent_hand=played.hands[1 - seat],
    )
    assert built.hands == played.hands
    _same_spot(built, played)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hand": ("Ah", "Zz")}, "'Zz' in hand is not a card"),
        ({"hand": ("Ah", "Ah")}, "Ah appear more than once"),
        ({"hand": ("Ah",)}, "hand has 1 cards"),
        ({"hand": ()}, "hand is empty"),
        ({"board": ("2c", "3c")}, "street must be one of 0, 3, 4, 5 in nlhe"),
        ({"board": ("2c", "3c", "4c"), "street": 4}, "Street 4 has 4 board cards"),
        ({"seat": 2}, "seat must be 0"),
        ({"pips": (3, 2), "seat": 0}, "only face a bet"),
        ({"pips": (1, 2), "stacks": (300, 398)}, "No hand reaches"),
        ({"pips": (0, 2), "stacks": (400, 398), "seat": 0}, "No hand reaches"),
        ({"pips": (-1, 2)}, "two whole numbers"),
        ({"pips": (2, 600), "stacks": (398, 0), "seat": 0}, "No hand reaches"),
        ({"board": ("2c", "3c", "4c"), "stacks": (390, 398)}, "same chips on earlier streets"),
        ({"board": ("2c", "3c", "4c"), "stacks": (399, 399)}, "No hand reaches"),
        ({"bounty": "Q"}, "only exists in Bounty Hold'em"),
        ({"bounty": "Z", "variant": "bounty"}, "must be a rank"),
        ({"auction": True}, "no auction in 'nlhe'"),
        ({"auction": True, "variant": "auction"}, "on the flop before any bet"),
        ({"variant": "nlhe", "rules": Rules.for_variant("bounty")}, "contradicts"),
    ],
)
def test_spot_refuses_situations_no_hand_reaches(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(HarnessError, match=message):
        spot(**kwargs)  # type: ignore[arg-type]


# -- decide --------------------------------------------------------------------------------


def test_decide_asks_the_seat_to_act_with_a_fresh_game_state() -> None:
    bot = Recorder()
    state = spot(hand=("Ah", "As"), seat=1, pips=(6, 2), variant="bounty")
    action = decide(bot, state)
    assert action == CallAction() and state.is_legal(action)
    game_state, seen, active = bot.seen[0]
    assert seen is state and active == 1
    assert game_state == GameState(0, state.rules.game_clock, 1)
    decide(bot, state, GameState(-40, 12.5, 300))
    assert bot.seen[1][0] == GameState(-40, 12.5, 300)
