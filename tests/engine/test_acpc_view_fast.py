"""The ACPC view's incremental lines equal the full encoder's, on random hands of every seat count.

:class:`~local_runner.engine.acpc_view.AcpcView` builds each ``MATCHSTATE`` line from text kept
per hand and seat (the engine's state is trusted).  :class:`FullView` below is the view as it
was before: a :class:`~sdk.acpc.MatchState` made, validated and written by
:func:`~sdk.acpc.format_match_state` for every line.  The engine plays random hands (folds,
raises of every size, all-ins that run the board out, showdowns) with 2 to 10 seats, limit and
no-limit, and every seat's lines from both views must be the same, byte for byte, each one a
valid state by the full parser; every reply is read back to the action that was sent.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from local_runner.engine.acpc_view import AcpcView
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import ActionEvent, Event, HandRecord, StreetEvent
from local_runner.engine.seat_view import Message, SeatView
from local_runner.engine.seats import Reply, Seat
from sdk.acpc import (
    AcpcAction,
    MatchState,
    action_to_wire,
    board_rounds,
    format_match_state,
    parse_match_state,
    position_of_seat,
    seat_of_position,
)
from sdk.actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import Rules
from sdk.states import RoundState

Cards = tuple[str, ...]


class FullView:
    """The ACPC view before incremental lines: every line a full, validated MatchState."""

    def __init__(self) -> None:
        self._record: HandRecord | None = None
        self._cursor = 0
        self._seat = 0
        self._lines: list[str] = []
        self._betting: list[tuple[AcpcAction, ...]] = []
        self._rounds: tuple[Cards, ...] = ((),)
        self._holes: list[Cards] = []
        self._shown: tuple[Cards, ...] = ()
        self._folded: list[bool] = []
        self._dirty = False

    def question(self, record: HandRecord, seat: int) -> list[str]:
        self._catch_up(record, seat)
        self._flush()
        lines, self._lines = self._lines, []
        return lines

    def hand_end(self, record: HandRecord, seat: int) -> list[str]:
        self._catch_up(record, seat)
        if record.showdown:
            for other, folded in enumerate(self._folded):
                if not folded:
                    self._holes[other] = record.final_hands[other]
            self._show()
        self._flush()
        self._record = None
        lines, self._lines = self._lines, []
        return lines

    def _catch_up(self, record: HandRecord, seat: int) -> None:
        if record is not self._record:
            count = len(record.players)
            self._record, self._cursor, self._seat = record, 0, seat
            self._betting, self._rounds = [()], ((),)
            self._holes = [()] * count
            self._holes[seat] = record.dealt[seat]
            self._show()
            self._folded = [False] * count
            self._dirty = True
        events: Sequence[Event] = record.events
        for event in events[self._cursor :]:
            if isinstance(event, ActionEvent):
                self._flush()
                self._betting[-1] += (action_to_wire(event.state, event.action),)
                if isinstance(event.action, FoldAction):
                    self._folded[event.seat] = True
                self._dirty = True
            elif isinstance(event, StreetEvent):
                self._rounds = board_rounds(event.board)
                while len(self._betting) < len(self._rounds):
                    self._betting.append(())
        self._cursor = len(events)

    def _show(self) -> None:
        count = len(self._holes)
        self._shown = tuple(self._holes[seat_of_position(p, count)] for p in range(count))

    def _flush(self) -> None:
        if not self._dirty or self._record is None:
            return
        state = MatchState(
            position_of_seat(self._seat, len(self._shown)),
            self._record.number - 1,
            tuple(self._betting),
            self._shown,
            self._rounds,
        )
        self._lines.append(format_match_state(state))
        self._dirty = False


class TwinView:
    """The seat's view: the incremental view's lines, checked against the full view's."""

    def __init__(self, rules: Rules) -> None:
        self.fast = AcpcView(rules)
        self.full = FullView()
        self.state: RoundState | None = None
        self.lines_checked = 0

    def _same(self, fast: list[str], full: list[str]) -> list[str]:
        assert fast == full
        for line in fast:
            parse_match_state(line)  # each one a state by the full, validating parser
        self.lines_checked += len(fast)
        return fast

    def question(self, record: HandRecord, seat: int, state: RoundState, clock: float) -> Message:
        self.state = state
        return self._same(
            self.fast.question(record, seat, state, clock), self.full.question(record, seat)
        )

    def hand_end(self, record: HandRecord, seat: int, clock: float) -> tuple[Message, bool]:
        lines, answered = self.fast.hand_end(record, seat, clock)
        return self._same(lines, self.full.hand_end(record, seat)), answered

    def hold(self, record: HandRecord, seat: int) -> None:
        raise AssertionError("the match of this test never holds lines")


class RandomAcpcSeat(Seat):
    """Answers every question with a random legal action, written and read as on the wire."""

    def __init__(self, name: str, rules: Rules, rng: random.Random) -> None:
        self.name = name
        self.view = TwinView(rules)
        self.rng = rng
        self.replies: deque[Reply] = deque()

    def make_view(self, rules: Rules) -> SeatView:
        return self.view

    @property
    def alive(self) -> bool:
        return True

    @property
    def outstanding(self) -> int:
        return len(self.replies)

    def _choose(self, state: RoundState) -> Action:
        rng, legal = self.rng, state.legal_actions()
        if RaiseAction in legal and rng.random() < 0.4:
            low, high = state.raise_bounds()
            # All-ins often, so that boards run out; otherwise any size.
            return RaiseAction(high if rng.random() < 0.3 else rng.randint(low, high))
        if FoldAction in legal and rng.random() < 0.25:
            return FoldAction()
        return CallAction() if CallAction in legal else CheckAction()

    def send(self, message: Message, hand: int, ack: bool) -> None:
        state = self.view.state
        assert state is not None and not ack
        action = self._choose(state)
        text = f"{message[-1]}:{action_to_wire(state, action).token}"
        read = self.view.fast.read(text)
        assert read == action, (text, read, action)
        self.replies.append(Reply(hand, read, 0.0, False, text))

    def tell(self, message: Message, hand: int) -> None:
        pass  # the hand's end: its lines were checked as the view made them

    def receive(self, budget: float) -> Reply:
        return self.replies.popleft()

    def quit(self) -> None:
        pass


def rules_for(seats: int, limit: bool) -> Rules:
    """Hold'em with ``seats`` seats, the ACPC hooks, limit or no-limit."""
    base = Rules.for_variant("acpc-2pl" if limit else "acpc-2pn")
    if seats == 2:
        return base
    if seats == 3 and limit:
        return Rules.for_variant("acpc-3pl")
    return base.replace(variant="custom", seats=seats)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 10),
    limit=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    hands=st.integers(1, 6),
)
def test_incremental_lines_equal_the_full_encoder_on_random_hands(
    seats: int, limit: bool, seed: int, hands: int
) -> None:
    rules = rules_for(seats, limit)
    rng = random.Random(seed)
    players = [RandomAcpcSeat(f"p{n}", rules, rng) for n in range(seats)]
    match = Match(players, rules, seed, MatchSettings(enforce_clock=False))
    result = match.play(hands)
    assert result.hands_played == hands
    assert all(player.fault_counts == {} for player in result.players)
    # Every seat saw at least its first and final state of every hand.
    assert all(p.view.lines_checked >= 2 * hands for p in players)


def test_the_random_hands_reach_showdowns_folds_and_boards_that_run_out() -> None:
    """The property above is not vacuous: its hands have all three endings."""
    endings = set()
    for seed in range(40):
        rules = rules_for(3, False)
        rng = random.Random(seed)
        players = [RandomAcpcSeat(f"p{n}", rules, rng) for n in range(3)]
        records: list[HandRecord] = []
        Match(players, rules, seed, MatchSettings(enforce_clock=False), records.append).play(3)
        for record in records:
            last = [e for e in record.events if isinstance(e, ActionEvent)][-1]
            streets = [e for e in record.events if isinstance(e, StreetEvent)]
            ran_out = len(streets) >= 2 and record.events[-1] is streets[-1]
            endings.add("runout" if ran_out else "showdown" if record.showdown else "fold")
            assert record.showdown or isinstance(last.action, FoldAction)
    assert endings == {"showdown", "fold", "runout"}
