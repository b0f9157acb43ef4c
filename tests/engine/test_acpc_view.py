"""The ACPC view (``local_runner/engine/acpc_view.py``) against the real ACPC dealer's own lines.

The oracle is the recorded real-dealer matches in ``tests/acpc/`` (heads-up limit and
no-limit, three-player limit): the kit's engine plays each recorded match again, with the
dealer's cards (from its log) and every seat answering with the recorded player's replies,
and every line the ACPC view makes for every seat must be the line the dealer sent that
player, byte for byte, in the same order; every hand must end with the dealer's values.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from local_runner.engine import match as match_module
from local_runner.engine.acpc_view import AcpcView
from local_runner.engine.dealer import Deal
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import ActionEvent, HandRecord, StreetEvent
from local_runner.engine.seat_view import Message, SeatView
from local_runner.engine.seats import Reply, Seat
from sdk.acpc import parse_log_state, position_of_seat, strip_line_ending
from sdk.actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState
from tests.acpc_checks import Golden, load

RECORDINGS = Path(__file__).resolve().parents[1] / "acpc"
Cards = tuple[str, ...]
DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


class ReplayingAcpcSeat(Seat):
    """A seat with an ACPC view that checks each line it is sent against one recorded
    player's and answers with that player's recorded replies."""

    def __init__(self, name: str, rules: Rules, lines: list[tuple[str, str]]) -> None:
        self.name = name
        self.view = AcpcView(rules)
        assert lines[0][0] == "->" and lines[0][1].startswith("VERSION:")
        self.expected = deque((arrow, strip_line_ending(line)) for arrow, line in lines[1:])
        self.replies: deque[Reply] = deque()
        self.lines_checked = 0

    def make_view(self, rules: Rules) -> SeatView:
        return self.view

    @property
    def alive(self) -> bool:
        return True

    @property
    def outstanding(self) -> int:
        return len(self.replies)

    def _check(self, lines: Message) -> None:
        for line in lines:
            arrow, recorded = self.expected.popleft()
            assert (arrow, line) == ("<-", recorded), f"{self.name}: sent {line}"
            self.lines_checked += 1

    def send(self, message: Message, hand: int, ack: bool) -> None:
        assert not ack, "the ACPC wire has no end-of-hand acknowledgement"
        assert not self.replies, "a question while the last one is unanswered"
        self._check(message)
        arrow, reply = self.expected.popleft()
        assert arrow == "->", f"{self.name}: the recording has no reply to {message[-1]}"
        self.replies.append(Reply(hand, self.view.read(reply), 0.0, False, reply))

    def tell(self, message: Message, hand: int) -> None:
        self._check(message)

    def receive(self, budget: float) -> Reply:
        return self.replies.popleft()

    def quit(self) -> None:
        assert not self.expected, f"{self.name}: {len(self.expected)} recorded lines never sent"


def recorded_deals(golden: Golden, count: int) -> dict[int, Deal]:
    """The dealer's cards per hand (from 1), by the kit's seats; unseen board cards filled."""
    deals = {}
    for line in golden.log.split("\n"):
        if not line.startswith("STATE"):
            continue
        state = parse_log_state(line, golden.game)
        holes = tuple(state.holes[position_of_seat(seat, count)] for seat in range(count))
        board = [card for cards in state.board for card in cards]
        spare = [card for card in DECK if card not in board and not any(card in h for h in holes)]
        deals[state.hand_number + 1] = Deal(holes, (*board, *spare)[:5])
    return deals


def recorded_values(golden: Golden, count: int) -> dict[int, tuple[Decimal, ...]]:
    """The dealer's values of each hand (from 1) by the kit's seats."""
    values = {}
    for line in golden.log.split("\n"):
        if line.startswith("STATE"):
            state = parse_log_state(line, golden.game)
            values[state.hand_number + 1] = tuple(
                state.values[position_of_seat(seat, count)] for seat in range(count)
            )
    return values


@pytest.fixture
def dealt_as_recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, Deal]]:
    """The engine deals the cards put in the returned mapping (hand number -> deal)."""
    deals: dict[int, Deal] = {}
    monkeypatch.setattr(match_module, "deal_hand", lambda rules, seed, hand: deals[hand])
    yield deals


@pytest.mark.parametrize("label", ["acpc-3pl", "acpc-2pl", "acpc-2pn", "nolimit-2p-server"])
def test_the_engine_and_the_acpc_view_send_what_the_real_dealer_sent(
    label: str, dealt_as_recorded: dict[int, Deal]
) -> None:
    golden = load(RECORDINGS / label)
    count = len(golden.names)
    if count != len(golden.seats):
        pytest.skip(f"{label} recorded {len(golden.seats)} of its {count} players")
    rules = golden.game.to_rules()
    deals = recorded_deals(golden, count)
    dealt_as_recorded.update(deals)
    # The dealer seats its player p at position p in hand 0, the kit its slot k at seat k:
    # so the kit's slot k is the dealer's player k - 1 (position = seat - 1).
    order = [(slot - 1) % count for slot in range(count)]
    seats = [ReplayingAcpcSeat(golden.names[p], rules, golden.seats[p]) for p in order]
    records: list[HandRecord] = []
    match = Match(seats, rules, 0, MatchSettings(enforce_clock=False), on_hand=records.append)
    result = match.play(len(deals))
    assert result.hands_played == len(deals) == 30
    assert all(player.fault_counts == {} for player in result.players)
    assert sum(seat.lines_checked for seat in seats) > 30 * count * 4
    values = recorded_values(golden, count)
    for record in records:
        dealer = values[record.number]
        for delta, value in zip(record.deltas, dealer, strict=True):
            assert abs(Decimal(delta) - value) < 1, (record.number, record.deltas, dealer)


def step(
    record: HandRecord, state: RoundState, actions: list[Action], board: Cards
) -> RoundState | TerminalState:
    """Play ``actions`` as the engine does: each one an event, then the street it opens."""
    result: RoundState | TerminalState = state
    for action in actions:
        assert isinstance(result, RoundState)
        before = result
        record.events.append(ActionEvent(before.actor, action, before))
        result = before.proceed(action)
        if isinstance(result, RoundState) and result.street != before.street:
            result = result.with_board(result.board_with_deal(board))
            record.events.append(StreetEvent(result.street, result.board, ()))
    return result


def test_three_seats_see_every_action_and_the_hands_that_did_not_fold() -> None:
    rules = Rules.for_variant("acpc-3pl")
    holes = (("Ah", "Kd"), ("7c", "7s"), ("2d", "2h"))  # by seat: button, small, big blind
    board = ("2c", "3d", "4h", "9s", "Jc")
    record = HandRecord(1, ("a", "b", "c"), (0, 0, 0), holes, (None, None, None))
    views = [AcpcView(rules) for _ in range(3)]
    state = RoundState.new_hand(rules, holes)
    assert views[1].question(record, 1, state, 0.0) == ["MATCHSTATE:0:0::7c7s||"]
    after = step(record, state, [FoldAction(), CallAction(), CheckAction(), RaiseAction(10)], board)
    assert isinstance(after, RoundState) and after.actor == 2
    assert views[2].question(record, 2, after, 0.0) == [
        "MATCHSTATE:1:0::|2d2h|",
        "MATCHSTATE:1:0:f:|2d2h|",
        "MATCHSTATE:1:0:fc:|2d2h|",
        "MATCHSTATE:1:0:fcc/:|2d2h|/2c3d4h",
        "MATCHSTATE:1:0:fcc/r:|2d2h|/2c3d4h",
    ]
    end = step(record, after, [CallAction()] + [CheckAction()] * 4, board)
    assert isinstance(end, TerminalState)
    record.final_hands, record.board, record.showdown = holes, board, True
    lines, answered = views[0].hand_end(record, 0, 0.0)  # the button, which folded first
    assert not answered
    assert len(lines) == 10  # the start, then after each of the nine actions
    assert lines[0] == "MATCHSTATE:2:0::||AhKd"
    # The final state shows the two hands that went to the showdown, and the button's own.
    assert lines[-1] == "MATCHSTATE:2:0:fcc/rc/cc/cc:7c7s|2d2h|AhKd/2c3d4h/9s/Jc"
    # The small blind sees the same showdown, but not the cards the button folded.
    assert views[1].hand_end(record, 1, 0.0)[0][-1] == (
        "MATCHSTATE:0:0:fcc/rc/cc/cc:7c7s|2d2h|/2c3d4h/9s/Jc"
    )


def test_a_board_that_runs_out_gives_one_final_state_with_empty_rounds() -> None:
    rules = Rules.for_variant("acpc-2pn")
    holes = (("Ah", "Kd"), ("7c", "7s"))
    board = ("2c", "3d", "4h", "9s", "Jc")
    record = HandRecord(1, ("a", "b"), (0, 0), holes, (None, None))
    view = AcpcView(rules)
    end = step(record, RoundState.new_hand(rules, holes), [RaiseAction(400), CallAction()], board)
    assert isinstance(end, TerminalState)
    for street in (3, 4, 5):  # the engine deals the rest of the board, street by street
        record.events.append(StreetEvent(street, board[:street], ()))
    record.final_hands, record.board, record.showdown = holes, board, True
    lines, _ = view.hand_end(record, 1, 0.0)  # the big blind: position 0
    assert lines == [
        "MATCHSTATE:0:0::7c7s|",
        "MATCHSTATE:0:0:r400:7c7s|",
        "MATCHSTATE:0:0:r400c///:7c7s|AhKd/2c3d4h/9s/Jc",
    ]


def test_a_reply_is_read_against_the_latest_state_only() -> None:
    rules = Rules.for_variant("acpc-2pn")
    holes = (("Ah", "Kd"), ("7c", "7s"))
    record = HandRecord(1, ("a", "b"), (0, 0), holes, (None, None))
    view = AcpcView(rules)
    state = RoundState.new_hand(rules, holes)
    (line,) = view.question(record, 0, state, 0.0)  # the button acts first heads-up
    assert line == "MATCHSTATE:1:0::|AhKd"
    assert view.read(f"{line}:r6") == RaiseAction(6)
    assert view.read(f"{line}:c") == CallAction()
    with pytest.raises(ValueError, match="answer only the latest state"):
        view.read("MATCHSTATE:1:0:c:|AhKd:c")


def test_a_first_line_that_is_not_the_version_is_a_fault_with_a_sentence() -> None:
    from local_runner.engine.acpc_seat import AcpcCodec

    codec = AcpcCodec(AcpcView(Rules.for_variant("acpc-2pl")))
    assert codec.admit(b"# a comment\r\n") is False
    assert codec.admit(b"MATCHSTATE:1:0::|AhKd:c\r\n") is True  # read as a reply...
    with pytest.raises(ValueError, match="not the protocol version"):
        codec.decode("MATCHSTATE:1:0::|AhKd:c")  # ...which is a fault that says why
    other = AcpcCodec(AcpcView(Rules.for_variant("acpc-2pl")))
    assert other.admit(b"VERSION:3.0.0\n") is False
    with pytest.raises(ValueError, match=r"speaks VERSION:2\.0\.0"):
        other.decode("anything")


def test_after_the_version_lines_are_admitted_on_their_bytes_and_never_raise() -> None:
    from local_runner.engine.acpc_seat import AcpcCodec

    codec = AcpcCodec(AcpcView(Rules.for_variant("acpc-2pl")))
    assert codec.admit(b"VERSION:2.0.0\r\n") is False
    for aside in (b"# a comment\r\n", b"; another\n", b"\r\n", b"\n", b""):
        assert codec.admit(aside) is False
    assert codec.admit(b"MATCHSTATE:1:0::|AhKd:c\r\n") is True
    # A stray carriage return inside the line is the reply's problem (read as a misformatted
    # reply by the seat), not an exception out of the socket's read loop.
    assert codec.admit(b"MATCHSTATE:1:0:\r:|AhKd:c\r\n") is True
