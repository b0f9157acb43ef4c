"""The masked view (``local_runner.engine.masked_view``) shows a bot what the wire shows it.

A bot that opts in (``Bot.masked_view``) is handed masked copies of the engine's own states
instead of the states the SDK client rebuilds from MIT messages.  Here the same seeded bots
play the same match both ways, in every registered game, and every callback's arguments
(game state, round state down its whole history, seat) must be equal; and nothing a
masked bot is handed reaches another seat's hidden cards, bounty rank or sealed bid.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from local_runner.bots.builtin import RandomBot, make_builtin
from local_runner.engine.faults import FaultKind
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import HandRecord
from local_runner.engine.seats import InProcessSeat
from sdk.actions import HIDDEN_BID, HIDDEN_RANK, Action, RaiseAction
from sdk.bot import Bot
from sdk.games import GAMES
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState

Seen = tuple[str, GameState, Any, int]


class Recorder(Bot):
    """A seeded random bot that keeps every callback's arguments."""

    def __init__(self, seed: int, masked: bool) -> None:
        self.masked_view = masked
        self.inner = RandomBot(seed)
        self.seen: list[Seen] = []

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Keep the arguments."""
        self.seen.append(("new", game_state, round_state, active))

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Keep the arguments."""
        self.seen.append(("over", game_state, terminal_state, active))

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """The random bot's action; keep the arguments."""
        self.seen.append(("act", game_state, round_state, active))
        return self.inner.get_action(game_state, round_state, active)


def play_both_ways(
    rules: Rules, seed: int, masked: bool
) -> tuple[list[Recorder], list[HandRecord]]:
    """A match of recording bots, every seat masked or every seat fed MIT messages."""
    bots = [Recorder(seed * 10 + slot, masked) for slot in range(rules.seats)]
    seats = [InProcessSeat(f"p{slot}", bot, rules) for slot, bot in enumerate(bots)]
    assert all(seat.masked is masked for seat in seats)
    records: list[HandRecord] = []
    # The game clock is not charged, so that the clock each callback is shown (which the
    # bots' own timing would change from run to run) is the same both ways.
    unclocked = MatchSettings(enforce_clock=False)
    Match(seats, rules, seed, unclocked, on_hand=records.append).play()
    return bots, records


def history(state: RoundState | None) -> list[RoundState]:
    """A state and every state before it."""
    states = []
    while state is not None:
        states.append(state)
        state = state.previous_state
    return states


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_the_masked_view_equals_the_clients_in_every_game(game: str, seed: int) -> None:
    rules = Rules.for_variant(game).replace(num_rounds=40)
    wire, _ = play_both_ways(rules, seed, masked=False)
    masked, _ = play_both_ways(rules, seed, masked=True)
    for by_wire, by_mask in zip(wire, masked, strict=True):
        assert len(by_wire.seen) == len(by_mask.seen)
        assert any(kind == "act" for kind, *_ in by_wire.seen)
        for seen_wire, seen_mask in zip(by_wire.seen, by_mask.seen, strict=True):
            # Compared piece by piece first, for a readable failure.
            assert seen_mask[0] == seen_wire[0]
            assert seen_mask[1] == seen_wire[1]
            assert seen_mask[3] == seen_wire[3]
            state_wire, state_mask = seen_wire[2], seen_mask[2]
            if isinstance(state_wire, TerminalState):
                assert state_mask[0] == state_wire[0]
                assert state_mask[2:] == state_wire[2:]
                state_wire, state_mask = state_wire.previous_state, state_mask.previous_state
            assert history(state_mask) == history(state_wire)
            assert seen_mask == seen_wire


def reachable(root: object) -> list[object]:
    """The tuples reachable from ``root`` through tuples (states are tuples; the rules
    object, shared and frozen, holds no cards of a hand and is not followed)."""
    found: list[object] = []
    todo, seen = [root], set()
    while todo:
        item = todo.pop()
        if id(item) in seen or not isinstance(item, tuple):
            continue
        seen.add(id(item))
        found.append(item)
        todo.extend(item)
    return found


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_nothing_handed_to_a_masked_bot_reaches_what_its_seat_may_not_see(
    game: str, seed: int
) -> None:
    rules = Rules.for_variant(game).replace(num_rounds=40)
    bots, records = play_both_ways(rules, seed, masked=True)
    engine_states = set()  # every state the engine made (kept alive by the records)
    for record in records:
        assert record.terminal is not None
        for state in history(record.terminal.previous_state):
            engine_states.add(id(state))
        for event in record.events:
            for state in history(getattr(event, "state", None)):
                engine_states.add(id(state))
    showdowns = 0
    for bot in bots:
        for kind, _, handed, seat in bot.seen:
            objects = reachable(handed)
            assert not any(id(item) in engine_states for item in objects)
            revealed = None  # the terminal's last state after a heads-up showdown: the O clause
            if kind == "over" and rules.seats == 2 and handed.folder is None:
                revealed = handed.previous_state
                showdowns += 1
            for item in objects:
                if not isinstance(item, RoundState) or item is revealed:
                    continue
                others = [index for index in range(rules.seats) if index != seat]
                assert all(item.hands[other] == () for other in others)
                if rules.bounty is not None:
                    assert all(item.bounties[other] == HIDDEN_RANK for other in others)
                if rules.auction and item.bids[seat] is None:
                    assert all(item.bids[other] in (None, HIDDEN_BID) for other in others)
    # Heads-up, an example must also have shown the showdown's revealed cards (the O
    # clause's path). A 40-hand match of these random bots has no showdown for about 1 seed
    # in 100 in heads-up limit (4 of seeds 0-399): such an example is not counted, and
    # hypothesis draws another, rather than failing a run by chance.
    assume(showdowns > 0 or rules.seats > 2)


def test_the_built_in_bots_opt_in_and_a_users_bot_does_not() -> None:
    rules = Rules.for_variant("nlhe")
    for name in ("random", "checkcall", "raise", "chump"):
        assert InProcessSeat("b", make_builtin(name, 1), rules).masked
    assert not InProcessSeat("u", Recorder(1, masked=False), rules).masked
    assert Bot.masked_view is False


class Faulty(Recorder):
    """Raises in every fifth ``get_action`` and answers an illegal raise in every seventh."""

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """The random bot's action, an error or an illegal raise now and then."""
        action = super().get_action(game_state, round_state, active)
        calls = sum(kind == "act" for kind, *_ in self.seen)
        if calls % 5 == 0:
            raise ValueError(f"call {calls}")
        if calls % 7 == 0:
            return RaiseAction(10**6)
        return action


def test_a_masked_bots_errors_and_illegal_moves_are_counted_as_the_clients() -> None:
    rules = Rules.for_variant("nlhe").replace(num_rounds=60)

    def result(masked: bool) -> list[tuple[int, int, dict[FaultKind, int]]]:
        bots = [Faulty(slot, masked) for slot in range(2)]
        seats = [InProcessSeat(f"p{slot}", bot, rules) for slot, bot in enumerate(bots)]
        played = Match(seats, rules, 3, MatchSettings(enforce_clock=False)).play()
        return [(p.bankroll, p.decisions, p.fault_counts) for p in played.players]

    counted = result(True)
    assert counted == result(False)
    assert all(
        faults.get(FaultKind.BOT_ERROR) and faults.get(FaultKind.ILLEGAL) for *_, faults in counted
    )
