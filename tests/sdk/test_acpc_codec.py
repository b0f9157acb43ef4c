"""The ACPC codec (``sdk.acpc``) against real dealer recordings, PokerKit, and bad input.

The recordings in ``tests/acpc/`` are real ``dealer`` + ``example_player`` matches (see its
README and ``scripts/acpc_record.py``); no dealer is needed to run these tests.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdk.acpc import (
    CALL,
    FOLD,
    MAX_LINE_BYTES,
    RAISE,
    VERSION_LINE,
    AcpcAction,
    AcpcActionError,
    AcpcEchoError,
    AcpcProtocolError,
    LogState,
    MatchState,
    echo_matches,
    encode_line,
    first_to_act,
    format_log_state,
    format_match_state,
    format_reply,
    is_comment,
    parse_action,
    parse_log_state,
    parse_match_state,
    parse_reply,
    parse_version,
    position_of_seat,
    position_of_slot,
    seat_of_position,
    slot_of_position,
    strip_line_ending,
    to_hand_total,
    to_street_raise,
    version_supported,
)
from sdk.gamedef import ACPC_GAMES
from sdk.protocol import ProtocolError
from tests.acpc_checks import Golden, check_all, check_log, check_order_and_blinds, check_wire, load

GOLDEN = Path(__file__).resolve().parents[1] / "acpc"
LABELS = ("acpc-2pl", "acpc-3pl", "nolimit-2p-server", "acpc-2pn")
NO_LIMIT = ("nolimit-2p-server", "acpc-2pn")


@pytest.fixture(scope="module", params=LABELS)
def golden(request: pytest.FixtureRequest) -> Golden:
    return load(GOLDEN / request.param)


def test_recordings_hold_the_three_2009_games() -> None:
    assert load(GOLDEN / "acpc-2pl").game == ACPC_GAMES["acpc-2pl"]
    assert load(GOLDEN / "acpc-3pl").game == ACPC_GAMES["acpc-3pl"]
    assert load(GOLDEN / "acpc-2pn").game == ACPC_GAMES["acpc-2pn"]
    server = load(GOLDEN / "nolimit-2p-server").game
    assert (server.betting, server.blind, server.stack) == ("nolimit", (100, 50), (20000, 20000))


def test_every_recorded_line_round_trips_and_every_echo_matches(golden: Golden) -> None:
    hands = check_wire(golden)
    assert len(hands) == 30
    lines = sum(len(seat) for seat in golden.seats)
    assert lines > 30 * len(golden.seats) * 3  # the checks saw a real match, not a stub


def test_relay_dealer_trace_log_and_score_agree(golden: Golden) -> None:
    hands = check_all(golden)
    results = check_log(golden, hands)
    assert [hand for hand, _ in results] == list(range(30))


def test_blinds_by_position_and_first_to_act_match_the_dealer(golden: Golden) -> None:
    hands = check_wire(golden)
    # Hands won by folds are paid by the blinds by position and the bets: some must exist.
    assert check_order_and_blinds(golden, hands) >= 1


def test_recorded_no_limit_raises_are_hand_totals() -> None:
    """A raise's total minus the raiser's chips before the street is a street amount."""
    seen = 0
    for label in NO_LIMIT:
        golden = load(GOLDEN / label)
        game = golden.game
        for hand in check_wire(golden).values():
            from tests.acpc_checks import replay

            state = next(iter(hand.final.values()))
            spent = replay(game, state, hand.actors)
            turn = 0
            for number, actions in enumerate(state.betting):
                for action in actions:
                    actor = hand.actors[turn]
                    turn += 1
                    if action.kind != "r":
                        continue
                    assert action.amount is not None
                    before = spent.at_start[number][actor]
                    street = to_street_raise(action.amount, before)
                    assert to_hand_total(street, before) == action.amount
                    assert 0 < street <= game.stack[actor] - before
                    if number > 0:
                        seen += 1
    assert seen >= 10  # raises after preflop, where the two counts differ


@pytest.mark.parametrize("label", NO_LIMIT)
def test_street_raises_agree_with_pokerkit(label: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    from tests.acpc_checks import replay

    golden = load(GOLDEN / label)
    game = golden.game
    big, small = game.blind
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    variant = pokerkit.NoLimitTexasHoldem(automations, False, 0, (small, big), big)
    histories = list(
        pokerkit.HandHistory.from_acpc_protocol(
            variant, game.stack[0], golden.log, error_status=True
        )
    )
    hands = check_wire(golden)
    assert len(histories) == len(hands) == 30
    compared = 0
    for number, history in enumerate(histories):
        theirs = [int(action.split()[-1]) for action in history.actions if " cbr " in action]
        hand = hands[number]
        state = next(iter(hand.final.values()))
        spent = replay(game, state, hand.actors)
        ours = []
        turn = 0
        for round_number, actions in enumerate(state.betting):
            for action in actions:
                actor = hand.actors[turn]
                turn += 1
                if action.kind == "r":
                    assert action.amount is not None
                    ours.append(to_street_raise(action.amount, spent.at_start[round_number][actor]))
        assert ours == theirs, f"hand {number}"
        compared += len(ours)
    assert compared >= 20


# --- positions ----------------------------------------------------------------------------------


def test_positions_seats_and_slots() -> None:
    # Heads-up: position 0 is the big blind (seat 1), position 1 the button (seat 0).
    assert [seat_of_position(p, 2) for p in (0, 1)] == [1, 0]
    # Three-handed: position 0 small blind (seat 1), 1 big blind (seat 2), 2 button (seat 0).
    assert [seat_of_position(p, 3) for p in (0, 1, 2)] == [1, 2, 0]
    for players in range(2, 11):
        for position in range(players):
            assert position_of_seat(seat_of_position(position, players), players) == position
            for hand in range(3 * players):
                slot = slot_of_position(position, hand, players)
                assert position_of_slot(slot, hand, players) == position
                assert slot_of_position(position, hand, players, fixed=True) == position
    # The first player given to the dealer holds position 0 in hand 0, then rotates.
    assert [slot_of_position(0, hand, 3) for hand in range(4)] == [0, 1, 2, 0]
    with pytest.raises(ValueError, match="position 2 is not 0 to 1"):
        seat_of_position(2, 2)
    with pytest.raises(ValueError, match="2 to 10 players"):
        slot_of_position(0, 0, 11)


def test_first_to_act_reads_first_player() -> None:
    two, three = ACPC_GAMES["acpc-2pl"], ACPC_GAMES["acpc-3pl"]
    assert [first_to_act(two, r) for r in range(4)] == [1, 0, 0, 0]
    assert [first_to_act(three, r) for r in range(4)] == [2, 0, 0, 0]
    with pytest.raises(ValueError, match="round 4"):
        first_to_act(two, 4)


# --- raise conversion -----------------------------------------------------------------------


def test_raise_conversion() -> None:
    # Blinds 1/2: preflop raise to 6 is 6 either way; on the flop after 6 each, a bet of
    # 10 on the street is r16 on the wire.
    assert to_street_raise(6, 0) == 6
    assert to_street_raise(16, 6) == 10
    assert to_hand_total(10, 6) == 16
    with pytest.raises(ValueError, match="not above the 6 chips"):
        to_street_raise(6, 6)
    with pytest.raises(ValueError, match="not a raise"):
        to_hand_total(0, 6)
    with pytest.raises(ValueError, match="0 or more"):
        to_street_raise(5, -1)


@given(st.integers(0, 10**9), st.integers(1, 10**9))
def test_raise_conversion_is_an_inverse_pair(before: int, street: int) -> None:
    total = to_hand_total(street, before)
    assert to_street_raise(total, before) == street


# --- round trips ------------------------------------------------------------------------------

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@st.composite
def match_states(draw: st.DrawFn, no_limit: bool | None = None) -> MatchState:
    players = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 4))
    limit = draw(st.booleans()) if no_limit is None else not no_limit
    raise_action = (
        st.just(RAISE) if limit else st.builds(AcpcAction, st.just("r"), st.integers(0, 10**7))
    )
    action = st.one_of(st.just(FOLD), st.just(CALL), raise_action)
    betting = tuple(tuple(draw(st.lists(action, max_size=8))) for _ in range(rounds))
    cards = draw(st.permutations(DECK))
    holes = tuple(
        tuple(cards[2 * p : 2 * p + 2]) if draw(st.booleans()) else () for p in range(players)
    )
    used = 2 * players
    board: list[tuple[str, ...]] = [()]
    for size in (3, 1, 1)[: rounds - 1]:
        board.append(tuple(cards[used : used + size]))
        used += size
    position = draw(st.integers(0, players - 1))
    return MatchState(position, draw(st.integers(0, 10**6)), betting, holes, tuple(board))


@given(match_states())
def test_match_state_round_trips(state: MatchState) -> None:
    line = format_match_state(state)
    assert parse_match_state(line) == state
    assert parse_match_state(line + "\r\n") == state
    assert parse_match_state(line + "\n") == state
    assert format_match_state(parse_match_state(line)) == line


@given(match_states(no_limit=True), st.integers(1, 10**6))
def test_reply_round_trips(state: MatchState, total: int) -> None:
    line = format_match_state(state)
    for action in (FOLD, CALL, AcpcAction("r", total)):
        reply = parse_reply(format_reply(line + "\r\n", action) + "\r\n", state)
        assert (reply.echo, reply.state, reply.action) == (line, state, action)


@given(match_states(), st.lists(st.decimals(-(10**6), 10**6, places=2), min_size=10, max_size=10))
def test_log_state_round_trips(state: MatchState, values: list[Decimal]) -> None:
    count = state.num_players
    log = LogState(
        state.hand_number,
        state.betting,
        state.holes,
        state.board,
        tuple(values[:count]),
        tuple(f"p{n}" for n in range(count)),
    )
    line = format_log_state(log)
    assert format_log_state(parse_log_state(line)) == line
    assert [v.normalize() for v in parse_log_state(line).values] == [
        v.normalize() for v in values[:count]
    ]


# --- lines, version, comments ----------------------------------------------------------------


def test_lines_version_and_comments() -> None:
    assert strip_line_ending("MATCHSTATE:0:0::AhKd|\r\n") == "MATCHSTATE:0:0::AhKd|"
    assert strip_line_ending("x\n") == "x" and strip_line_ending("x") == "x"
    assert encode_line(VERSION_LINE) == b"VERSION:2.0.0\r\n"
    assert parse_version("VERSION:2.0.0\n") == (2, 0, 0)
    assert version_supported((2, 0, 7)) and not version_supported((3, 0, 0))
    assert not version_supported((2, 1, 0))
    assert is_comment("# hello") and is_comment(";x") and not is_comment("MATCHSTATE")
    assert len(encode_line("x" * (MAX_LINE_BYTES - 2))) == MAX_LINE_BYTES
    with pytest.raises(AcpcProtocolError, match="4095"):
        encode_line("x" * (MAX_LINE_BYTES - 1))
    with pytest.raises(AcpcProtocolError, match="at most 4095 bytes"):
        strip_line_ending("x" * MAX_LINE_BYTES + "\n")
    assert strip_line_ending("x" * (MAX_LINE_BYTES - 2) + "\r\n") == "x" * (MAX_LINE_BYTES - 2)
    with pytest.raises(AcpcProtocolError, match="Write it with dots"):
        parse_version("VERSION:2:0:0")
    with pytest.raises(AcpcProtocolError, match="the first line must be the version"):
        parse_version("MATCHSTATE:0:0::AhKd|")
    with pytest.raises(AcpcProtocolError, match="line break before its end"):
        strip_line_ending("a\rb\n")
    with pytest.raises(AcpcProtocolError, match="not ASCII"):
        encode_line("caf\u00e9")


# --- bad input ----------------------------------------------------------------------------


LIMIT_2P = ACPC_GAMES["acpc-2pl"]
NOLIMIT_2P = ACPC_GAMES["acpc-2pn"]


@pytest.mark.parametrize(
    ("line", "game", "message"),
    [
        ("MATCHSTATE:0:0:cr:AhKd|", None, None),  # valid: the control case
        ("MATCHSTAT:0:0::AhKd|", None, "five fields"),
        ("MATCHSTATE:0:0::AhKd|:x", None, "five fields"),
        ("MATCHSTATE:x:0::AhKd|", None, "position 'x'"),
        ("MATCHSTATE:0:-1::AhKd|", None, "hand number '-1'"),
        ("MATCHSTATE:2:0::AhKd|", None, "position 2 is not one of the 2 positions"),
        ("MATCHSTATE:0:0:cx:AhKd|", None, "'x' where an action"),
        ("MATCHSTATE:0:0:c5:AhKd|", None, "only a raise has one"),
        ("MATCHSTATE:0:0:c300:AhKd|", None, "only a raise has one"),
        ("MATCHSTATE:0:0:r300r:AhKd|", None, "mixes raises"),
        ("MATCHSTATE:0:0:r0300:AhKd|", None, "without leading zeros"),
        ("MATCHSTATE:0:0:c-5:AhKd|", None, "'-5' where an action"),
        ("MATCHSTATE:0:0:r300:AhKd|", LIMIT_2P, "limit raise has no amount"),
        ("MATCHSTATE:0:0:r:AhKd|", NOLIMIT_2P, "needs the total"),
        ("MATCHSTATE:0:0:cc/:AhKd|", None, "have 1 round"),
        ("MATCHSTATE:0:0:cc/:AhKd|/AsK", None, "not cards"),
        ("MATCHSTATE:0:0::AhKx|", None, "not cards"),
        ("MATCHSTATE:0:0::ahKd|", None, "not cards"),
        ("MATCHSTATE:0:0::AhAh|", None, "dealt twice"),
        ("MATCHSTATE:0:0::AhKd", None, "2 to 10 positions"),
        ("MATCHSTATE:0:0::AhKd||", LIMIT_2P, "3 position(s)"),
        ("MATCHSTATE:0:0::Ah|", LIMIT_2P, "1 hole card(s)"),
        ("MATCHSTATE:0:0:cc/:AhKd|/AsKsQsJs", LIMIT_2P, "4 board card(s)"),
    ],
)
def test_bad_match_states(line: str, game: object, message: str | None) -> None:
    if message is None:
        assert format_match_state(parse_match_state(line, game)) == line  # type: ignore[arg-type]
        return
    with pytest.raises(AcpcProtocolError) as caught:
        parse_match_state(line, game)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, ProtocolError)


def test_bad_replies_are_told_apart() -> None:
    state = parse_match_state("MATCHSTATE:1:4:c:|Td4d")
    line = "MATCHSTATE:1:4:c:|Td4d"
    assert parse_reply(line + ":r", state).action == RAISE
    # The dealer's aliases: k and K call, b and B raise, capitals too.
    assert [parse_action(token).token for token in "fFcCkKrRbB"] == list("ffccccrrrr")
    with pytest.raises(AcpcEchoError, match="answer only the latest state"):
        parse_reply("MATCHSTATE:1:4::|Td4d:c", state)
    with pytest.raises(AcpcEchoError):
        parse_reply("MATCHSTATE:1:4:c:|Td4c:c", state)
    with pytest.raises(AcpcActionError, match="not an ACPC action"):
        parse_reply(line + ":x", state)
    with pytest.raises(AcpcActionError, match="not an ACPC action"):
        parse_reply(line + ":r 300", state)
    with pytest.raises(AcpcActionError, match="needs the total"):
        parse_reply(line + ":r", state, NOLIMIT_2P)
    with pytest.raises(AcpcProtocolError, match="not '<the MATCHSTATE line"):
        parse_reply(line, state)
    with pytest.raises(AcpcProtocolError, match="echo the state line exactly"):
        parse_reply("MATCHSTATE:1:4:c:c", state)
    with pytest.raises(AcpcProtocolError, match="not cards"):
        parse_reply("MATCHSTATE:1:4:c:|Td4:c", state)
    # Another position's cards are not part of the echo check (the dealer's rule).
    shown = parse_match_state("MATCHSTATE:1:4:c:AhKd|Td4d")
    assert echo_matches(shown, state) and not echo_matches(
        state, parse_match_state("MATCHSTATE:1:4:cc:|Td4d")
    )
    with pytest.raises(AcpcProtocolError, match="not an ACPC action"):
        format_reply(line, "z")
    with pytest.raises(AcpcProtocolError, match="five fields"):
        format_reply("VERSION:2.0.0", "c")


def test_bad_values_in_dataclasses() -> None:
    with pytest.raises(AcpcProtocolError, match="only a raise carries an amount"):
        AcpcAction("c", 5)
    with pytest.raises(AcpcProtocolError, match="'f', 'c' or 'r'"):
        AcpcAction("x")  # type: ignore[arg-type]
    with pytest.raises(AcpcProtocolError, match="one board entry per round"):
        MatchState(0, 0, ((), ()), (("Ah", "Kd"), ()), ((),))
    with pytest.raises(AcpcProtocolError, match="not a number as the dealer writes it"):
        parse_log_state("STATE:0:f:AhKd|2c2d:5.0|-5:a|b")
    with pytest.raises(AcpcProtocolError, match="one value and one name per player"):
        parse_log_state("STATE:0:f:AhKd|2c2d:5|-5|0:a|b")


# --- untrusted text ---------------------------------------------------------------------------

RECORDED = [
    line for label in LABELS for seat in load(GOLDEN / label).seats for _, line in seat[:40]
]


@given(st.sampled_from(RECORDED), st.data())
def test_any_edit_of_a_recorded_line_parses_or_says_why(line: str, data: st.DataObject) -> None:
    """A bot's reply is untrusted: whatever it sends, the codec answers with a value or an
    AcpcProtocolError whose message is a sentence, never another exception."""
    edits = data.draw(st.lists(st.tuples(st.integers(0, len(line)), st.text(max_size=3))))
    for at, text in edits:
        line = line[:at] + text + line[at + 1 :]
    readers = [
        *(
            partial(reader, game=game)
            for reader in (parse_match_state, parse_reply)
            for game in (None, LIMIT_2P, NOLIMIT_2P)
        ),
        parse_version,
        parse_action,
        parse_log_state,
    ]
    for reader in readers:
        try:
            value = reader(line)
        except AcpcProtocolError as error:
            message = str(error)
            assert message.endswith((".", ".'")) and len(message) > 20, message
        else:
            assert value is not None
