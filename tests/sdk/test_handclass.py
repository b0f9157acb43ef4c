"""Starting-hand classes (sdk.handclass), the action history (sdk.history) and the
opponent statistics tracker (sdk.opponent_stats)."""

from __future__ import annotations

from collections import Counter

import pytest

from local_runner.engine.records import ActionEvent, HandRecord
from local_runner.harness import play
from sdk.actions import Action, BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.bot import Bot
from sdk.handclass import ALL_COMBOS, HAND_CLASSES, class_combos, class_size, hand_class
from sdk.history import actions_of
from sdk.opponent_stats import OpponentStats
from sdk.states import GameState, RoundState, TerminalState


def test_169_classes_cover_the_1326_pairs_once() -> None:
    assert len(HAND_CLASSES) == len(set(HAND_CLASSES)) == 169
    counts = Counter(hand_class(pair) for pair in ALL_COMBOS)
    assert len(ALL_COMBOS) == 1326
    assert counts == {name: class_size(name) for name in HAND_CLASSES}
    for name in HAND_CLASSES:
        assert sorted(hand_class(pair) for pair in class_combos(name)) == [name] * class_size(name)


def test_class_names() -> None:
    assert hand_class(("Kd", "Ad")) == "AKs"
    assert hand_class(("2c", "7h")) == "72o"
    assert hand_class(("Ts", "Th")) == "TT"
    assert HAND_CLASSES[:3] == ("AA", "AKs", "AKo")


@pytest.mark.parametrize("cards", [("Ah",), ("Ah", "Ah"), ("Ax", "Kd"), ("1h", "Kd")])
def test_bad_cards_are_named(cards: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match=r"card|two"):
        hand_class(cards)


def test_bad_class_name_says_how_to_write_one() -> None:
    with pytest.raises(ValueError, match="AKs"):
        class_combos("KAs")


class _Recorder(Bot):
    """Checks or calls, sometimes raises; keeps each hand's history as sdk.history reads it."""

    def __init__(self) -> None:
        self.histories: list[list[tuple[int, Action]]] = []
        self.turn = 0

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        self.turn += 1
        legal = round_state.legal_actions()
        if RaiseAction in legal and self.turn % 3 == 0:
            return RaiseAction(round_state.raise_bounds()[0])
        return CheckAction() if CheckAction in legal else CallAction()

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        self.histories.append([(p.seat, p.action) for p in actions_of(terminal_state)])


def _comparable(action: Action) -> Action | type[BidAction]:
    """Bids compare by kind: the client may not have seen the opponent's amount yet."""
    return BidAction if isinstance(action, BidAction) else action


@pytest.mark.parametrize("variant", ["nlhe", "swap", "auction", "bounty"])
def test_history_matches_the_engines_record(variant: str) -> None:
    bot = _Recorder()
    records: list[HandRecord] = []
    play(bot, opponent="random", rounds=150, seed=3, variant=variant, on_hand=records.append)
    assert len(bot.histories) == len(records) == 150
    for record, seen in zip(records, bot.histories, strict=True):
        # The engine's seats are per hand: the bot is slot 0, dealer on odd hands.
        engine = [
            (event.seat, _comparable(event.action))
            for event in record.events
            if isinstance(event, ActionEvent)
        ]
        assert [(seat, _comparable(action)) for seat, action in seen] == engine, record.number


def test_stats_of_a_folding_opponent() -> None:
    class Folder(Bot):
        def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
            legal = round_state.legal_actions()
            return FoldAction() if FoldAction in legal else CheckAction()

    class Watcher(_Recorder):
        def __init__(self) -> None:
            super().__init__()
            self.stats = OpponentStats()

        def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
            legal = round_state.legal_actions()
            if RaiseAction in legal:
                return RaiseAction(round_state.raise_bounds()[0])
            return CheckAction() if CheckAction in legal else CallAction()

        def handle_round_over(
            self, game_state: GameState, terminal_state: TerminalState, active: int
        ) -> None:
            self.stats.observe_hand(terminal_state, 1 - active)

    watcher = Watcher()
    play(watcher, opponent=Folder(), rounds=100)
    stats = watcher.stats
    assert stats.hands == 100
    assert stats.vpip.hits == stats.pfr.hits == 0
    assert stats.fold_to_bet.chances > 0 and stats.fold_to_bet.value == 1.0
    assert stats.showdown.value == 0.0
    assert 0.0 < stats.fold_to_bet.estimate(prior=0.5) < 1.0
