"""The wire codec (sdk.protocol) and the bot client (sdk.client) on MIT-style exchanges.

The exchanges are the constructed ones of mit-engines.md §2.1, §2.2, §2.4 and
§2.5: each engine line goes to a fresh BotClient per player, whose scripted
bot answers with the table's reply column.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from sdk.client import BotClient
from sdk.protocol import (
    VALID_CARDS,
    AuctionResult,
    Board,
    BountyHits,
    BountyRank,
    Clause,
    Clock,
    Delta,
    HoleCards,
    OpponentHand,
    Position,
    ProtocolError,
    Quit,
    UpdatedHand,
    decode_action,
    decode_message,
    encode_action,
    encode_message,
)
from sdk.rules import RANKS, Rules
from sdk.states import GameState, RoundState, TerminalState

# -- strategies -------------------------------------------------------------

cards = st.sampled_from(sorted(VALID_CARDS))
card_lists = st.lists(cards, max_size=5).map(tuple)
# Whole numbers the codec must carry (it refuses more than 18 digits).
wholes = st.integers(-(10**18) + 1, 10**18 - 1)
# Clock values with at most 3 decimals, which is all the T clause carries.
clock_values = st.integers(-(10**6), 10**9).map(lambda n: n / 1000)
flags = st.sampled_from([True, False, None])

actions: st.SearchStrategy[Action] = st.one_of(
    st.just(FoldAction()),
    st.just(CallAction()),
    st.just(CheckAction()),
    st.builds(RaiseAction, wholes),
    st.builds(BidAction, wholes),
)

clauses: st.SearchStrategy[Clause] = st.one_of(
    st.builds(Clock, clock_values),
    st.builds(Position, st.sampled_from([0, 1])),
    st.builds(HoleCards, card_lists),
    st.builds(BountyRank, st.sampled_from(RANKS)),
    st.builds(Board, card_lists),
    st.builds(UpdatedHand, card_lists),
    st.builds(AuctionResult, st.tuples(wholes, wholes), st.tuples(wholes, wholes), card_lists),
    st.builds(OpponentHand, card_lists),
    st.builds(Delta, wholes),
    st.builds(BountyHits, flags, flags),
    st.just(Quit()),
    actions,
)

ONE_OF_EACH: list[Clause] = [
    Clock(29.985),
    Position(1),
    HoleCards(("Ah", "Kd")),
    BountyRank("T"),
    Board(("2h", "9d", "Qs")),
    UpdatedHand(("7c", "Jd")),
    AuctionResult((382, 394), (20, 12), ("Ah", "Kd", "5c")),
    OpponentHand(("7c", "7s")),
    Delta(-6),
    BountyHits(True, None),
    Quit(),
    FoldAction(),
    CallAction(),
    CheckAction(),
    RaiseAction(20),
    BidAction(12),
]


# -- round trips ------------------------------------------------------------


@given(st.lists(clauses, min_size=1, max_size=12))
def test_messages_round_trip(message: list[Clause]) -> None:
    assert decode_message(encode_message(message)) == message


@given(actions)
def test_actions_round_trip(action: Action) -> None:
    assert decode_action(encode_action(action)) == action


def test_every_clause_type_round_trips_in_one_message() -> None:
    text = encode_message(ONE_OF_EACH)
    assert text == (
        "T29.985 P1 HAh,Kd GT B2h,9d,Qs U7c,Jd N382,394_20,12_Ah,Kd,5c O7c,7s D-6 Y1# Q "
        "F C K R20 A12"
    )
    assert decode_message(text) == ONE_OF_EACH


def test_clock_is_written_with_three_decimals() -> None:
    assert encode_message([Clock(30)]) == "T30.000"
    assert decode_message("T30.000") == [Clock(30.0)]


def test_surrounding_white_space_is_ignored() -> None:
    assert decode_message("  T1.000 K\r\n") == [Clock(1.0), CheckAction()]
    assert decode_action(" R6\n") == RaiseAction(6)


def test_largest_accepted_amount_has_18_digits() -> None:
    assert decode_action("R" + "9" * 18) == RaiseAction(10**18 - 1)
    assert decode_message("D-" + "9" * 18) == [Delta(-(10**18) + 1)]


# -- malformed input --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("X", "not an action"),
        ("k", "not an action"),
        ("f", "not an action"),
        ("R", "not a whole number"),
        ("R1.5", "not a whole number"),
        ("R\u0665", "not a whole number"),
        ("A\u0661\u0662", "not a whole number"),
        ("R" + "9" * 19, "not a whole number"),
        ("Rx", "not a whole number"),
        ("R 5", "not a whole number"),
        ("A", "not a whole number"),
        ("", "empty reply"),
        ("   \n", "empty reply"),
    ],
)
def test_malformed_replies_raise_a_helpful_protocol_error(text: str, hint: str) -> None:
    with pytest.raises(ProtocolError, match=hint) as caught:
        decode_action(text)
    assert isinstance(caught.value, ValueError)
    if text.strip():
        assert repr(text.strip()) in str(caught.value), "the message must quote the reply"


def test_a_very_long_bad_reply_is_shortened_in_the_message() -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_action("x" * 500)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        ("T30.000 X5", "unknown clause 'X5'"),
        ("T30.000 k", "unknown clause 'k'"),
        ("HXx,Ah", "'Xx'.*not a card"),
        ("HAh,Kd,", "'' in clause .* not a card"),
        ("B2h,9d,qs", "'qs'.*not a card"),
        ("O10h,Ks", "'10h'.*not a card"),
        ("R", "not a whole number"),
        ("T30.000 R1.5", "not a whole number"),
        ("T30.000 R\u0665", "not a whole number"),
        ("D" + "1" * 19, "not a whole number"),
        ("D", "not a whole number"),
        ("P2", "seat must be 0 or 1"),
        ("Pa", "not a whole number"),
        ("GX", "bounty is one rank"),
        ("GKK", "bounty is one rank"),
        ("Y2#", "bounty hits"),
        ("Y1", "bounty hits"),
        ("N382,394_20,12", "auction result"),
        ("N382_20,12_Ah,Kd", "two comma-separated numbers"),
        ("Tsoon", "not a number of seconds"),
        ("Q5", "unknown clause"),
        ("T30.000  K", "unknown clause ''"),
        ("", "empty message"),
        ("\n", "empty message"),
    ],
)
def test_malformed_messages_raise_a_helpful_protocol_error(line: str, hint: str) -> None:
    with pytest.raises(ProtocolError, match=hint):
        decode_message(line)


def test_encoding_a_non_clause_is_a_type_error() -> None:
    from sdk.protocol import encode_clause

    with pytest.raises(TypeError):
        encode_clause("K")  # type: ignore[arg-type]


# -- the MIT constructed exchanges ------------------------------------------

# (seat the line goes to, engine line, the bot's reply)
EXCHANGE_2_1 = [
    (0, "T30.000 P0 HAh,Kd", "R6"),
    (1, "T30.000 P1 H7c,7s R6", "C"),
    (1, "T29.990 C B2h,9d,Qs", "K"),
    (0, "T29.995 R6 C B2h,9d,Qs K", "R8"),
    (1, "T29.985 K R8", "F"),
    (0, "T29.993 R8 F D6", "K"),
    (1, "T29.980 F D-6", "K"),
]

EXCHANGE_2_2 = [
    (0, "T30.000 P0 HAh,Kd", "C"),
    (1, "T30.000 P1 H7c,7s C", "K"),
    (1, "T29.990 K B2h,9d,Qs U7c,Jd", "K"),
    (0, "T29.995 C K B2h,9d,Qs UAh,Kd K", "R4"),
    (1, "T29.985 K R4", "C"),
    (1, "T29.980 C B2h,9d,Qs,3c U7c,Jd", "K"),
    (0, "T29.990 R4 C B2h,9d,Qs,3c UAh,Kd K", "K"),
    (1, "T29.975 K K B2h,9d,Qs,3c,8s", "K"),
    (0, "T29.985 K B2h,9d,Qs,3c,8s K", "K"),
    (0, "T29.980 K O7c,Jd D6", "K"),
    (1, "T29.970 K K OAh,Kd D-6", "K"),
]

EXCHANGE_2_4 = [
    (0, "T30.000 P0 HAh,Kd", "R6"),
    (1, "T30.000 P1 H7c,7s R6", "C"),
    (1, "T29.990 C B2h,9d,Qs", "A12"),
    (0, "T29.995 R6 C B2h,9d,Qs A12", "A20"),
    (1, "T29.985 A12 A20 P1 N382,394_20,12_7c,7s B2h,9d,Qs", "K"),
    (0, "T29.990 A20 P0 N382,394_20,12_Ah,Kd,5c B2h,9d,Qs K", "R20"),
    (1, "T29.980 K R20", "F"),
    (0, "T29.985 R20 F D6", "K"),
    (1, "T29.975 F D-6", "K"),
]

EXCHANGE_2_5 = [
    (0, "T60.000 P0 HAh,Kd GK", "R5"),
    (1, "T60.000 P1 H7c,7s G2 R5", "C"),
    (1, "T59.990 C B2h,9d,Qs", "K"),
    (0, "T59.995 R5 C B2h,9d,Qs K", "R10"),
    (1, "T59.985 K R10", "F"),
    (0, "T59.990 R10 F D18 Y1#", "K"),
    (1, "T59.980 F D-18 Y#1", "K"),
]

ALL_EXCHANGES = {
    "2.1": EXCHANGE_2_1,
    "2.2": EXCHANGE_2_2,
    "2.4": EXCHANGE_2_4,
    "2.5": EXCHANGE_2_5,
}


@dataclass
class ScriptedBot(Bot):
    """Answers with the given actions in order and records what the client showed it."""

    replies: list[Action]
    asked: list[RoundState] = field(default_factory=list)
    clocks: list[float] = field(default_factory=list)
    new_rounds: list[tuple[RoundState, int]] = field(default_factory=list)
    rounds_over: list[tuple[GameState, TerminalState, int]] = field(default_factory=list)

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        self.new_rounds.append((round_state, active))

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        self.rounds_over.append((game_state, terminal_state, active))

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        assert active == round_state.active, "asked to act when it is not this seat's turn"
        self.asked.append(round_state)
        self.clocks.append(game_state.game_clock)
        return self.replies.pop(0)


@dataclass
class Table:
    bots: tuple[ScriptedBot, ScriptedBot]
    clients: tuple[BotClient, BotClient]


def ends_the_hand(line: str) -> bool:
    """Whether ``line`` is an end-of-hand message (it carries the delta), answered by the client."""
    return any(isinstance(clause, Delta) for clause in decode_message(line))


def replay(exchange: list[tuple[int, str, str]], rules: Rules) -> Table:
    """Feed each engine line to its player's client; every reply must be the table's."""
    bots = tuple(
        ScriptedBot(
            [
                decode_action(reply)
                for seat, line, reply in exchange
                if seat == player and not ends_the_hand(line)
            ]
        )
        for player in (0, 1)
    )
    clients = (BotClient(bots[0], rules), BotClient(bots[1], rules))
    for seat, line, reply in exchange:
        answer = clients[seat].handle(decode_message(line))
        assert answer == decode_action(reply), f"{line!r} answered {answer!r}, not {reply!r}"
    for client in clients:
        assert client.handle(decode_message("Q")) is None
    for bot in bots:
        assert bot.replies == [], "the bot was asked fewer times than the table says"
    return Table((bots[0], bots[1]), clients)


@pytest.mark.parametrize("name", sorted(ALL_EXCHANGES))
def test_exchange_lines_decode(name: str) -> None:
    for _seat, line, reply in ALL_EXCHANGES[name]:
        decoded = decode_message(line)
        assert isinstance(decoded[0], Clock)
        assert encode_message(decoded) == line
        assert encode_action(decode_action(reply)) == reply


def check_seat_and_end(
    table: Table, hands: tuple[tuple[str, ...], tuple[str, ...]], deltas: tuple[int, int]
) -> None:
    """Each client knows its seat and cards, and reports the hand's deltas at its end."""
    for player in (0, 1):
        bot, client = table.bots[player], table.clients[player]
        assert client.seat == player
        assert len(bot.new_rounds) == 1
        first_state, seat = bot.new_rounds[0]
        assert seat == player
        assert first_state.hands[player] == hands[player]
        assert first_state.hands[1 - player] == ()
        assert len(bot.rounds_over) == 1
        game_state, end, seat = bot.rounds_over[0]
        assert seat == player
        assert end.deltas == deltas
        assert game_state.bankroll == deltas[player]
        assert client.game_state.round_num == 2


def test_exchange_2_1_base_engine(capsys: pytest.CaptureFixture[str]) -> None:
    table = replay(EXCHANGE_2_1, Rules.for_variant("nlhe"))
    check_seat_and_end(table, (("Ah", "Kd"), ("7c", "7s")), (6, -6))
    sb, bb = table.bots
    assert sb.clocks == [30.0, 29.995]
    assert [s.street for s in sb.asked] == [0, 3]
    assert sb.asked[0].pips == (1, 2)
    assert sb.asked[1].board == ("2h", "9d", "Qs")
    assert sb.asked[1].stacks == (394, 394)
    assert sb.asked[1].legal_actions() == {CheckAction, RaiseAction}
    assert bb.asked[0].legal_actions() == {FoldAction, CallAction, RaiseAction}
    assert bb.asked[0].pips == (6, 2)
    assert bb.asked[2].pips == (8, 0)
    assert bb.asked[2].legal_actions() == {FoldAction, CallAction, RaiseAction}
    end = sb.rounds_over[0][1]
    assert end.folder == 1
    assert end.previous_state.board == ("2h", "9d", "Qs")
    assert capsys.readouterr().err == ""


def test_next_hand_swaps_seats_and_a_preflop_fold_reaches_the_big_blind_once() -> None:
    """After §2.1's hand, the players swap seats; the new dealer folds at once, so the new
    big blind's only message of the hand is its opening plus the fold and the delta."""
    # (player, engine line, reply): player 1 (B) is now the dealer.
    second_hand = [
        (1, "T29.970 P0 HQc,Jh", "F"),
        (1, "T29.965 F D-1", "K"),
        (0, "T29.960 P1 H5c,5d F D1", "K"),
    ]
    bots = (
        ScriptedBot([RaiseAction(6), RaiseAction(8)]),
        ScriptedBot([CallAction(), CheckAction(), FoldAction(), FoldAction()]),
    )
    rules = Rules.for_variant("nlhe")
    clients = (BotClient(bots[0], rules), BotClient(bots[1], rules))
    for player, line, reply in EXCHANGE_2_1 + second_hand:
        assert clients[player].handle(decode_message(line)) == decode_action(reply)
    a, b = clients
    assert (a.seat, b.seat) == (1, 0)
    assert a.game_state.bankroll == 7
    assert b.game_state.bankroll == -7
    assert a.game_state.round_num == 3
    assert len(bots[0].new_rounds) == 2
    new_state, seat = bots[0].new_rounds[1]
    assert seat == 1
    assert new_state.hands == ((), ("5c", "5d"))
    game_state, end, seat = bots[0].rounds_over[1]
    assert seat == 1
    assert end.deltas == (-1, 1)
    assert end.folder == 0
    assert game_state.bankroll == 7
    assert len(bots[0].asked) == 2, "the big blind is never asked to act after a preflop fold"


def test_exchange_2_2_swap(capsys: pytest.CaptureFixture[str]) -> None:
    table = replay(EXCHANGE_2_2, Rules.for_variant("swap"))
    check_seat_and_end(table, (("Ah", "Kd"), ("7c", "7s")), (6, -6))
    sb, bb = table.bots
    assert sb.asked[0].stacks == (199, 198)
    swapped = bb.asked[1]
    assert swapped.street == 3
    assert swapped.hands[1] == ("7c", "Jd")
    assert swapped.hand_changed(1)
    assert not sb.asked[1].hand_changed(0)
    assert sb.asked[1].hands[0] == ("Ah", "Kd")
    river = sb.asked[-1]
    assert river.street == 5
    assert river.board == ("2h", "9d", "Qs", "3c", "8s")
    assert river.stacks == (194, 194)
    end = sb.rounds_over[0][1]
    assert end.folder is None
    assert end.previous_state.hands == (("Ah", "Kd"), ("7c", "Jd"))
    bb_end = bb.rounds_over[0][1]
    assert bb_end.previous_state.hands == (("Ah", "Kd"), ("7c", "Jd"))
    assert capsys.readouterr().err == ""


def test_exchange_2_4_auction_keeps_the_big_blinds_bid_sealed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = replay(EXCHANGE_2_4, Rules.for_variant("auction"))
    check_seat_and_end(table, (("Ah", "Kd"), ("7c", "7s")), (6, -6))
    sb, bb = table.bots

    bb_bid = bb.asked[1]
    assert bb_bid.auction
    assert bb_bid.legal_actions() == {BidAction}
    assert bb_bid.bids == (None, None)
    assert bb_bid.bid_bounds() == (0, 394)

    sb_bid = sb.asked[1]
    assert sb_bid.auction
    assert sb_bid.legal_actions() == {BidAction}
    assert sb_bid.bids == (None, -1), "the dealer must not see the big blind's bid of 12"
    assert 12 not in sb_bid.bids

    sb_after = sb.asked[2]
    assert not sb_after.auction
    assert sb_after.bids == (20, 12)
    assert sb_after.stacks == (382, 394)
    assert sb_after.hands[0] == ("Ah", "Kd", "5c")
    assert sb_after.board == ("2h", "9d", "Qs")
    assert sb_after.raise_bounds() == (2, 382)
    bb_after = bb.asked[2]
    assert bb_after.bids == (20, 12)
    assert bb_after.stacks == (382, 394)
    assert bb_after.hands[1] == ("7c", "7s")
    assert bb_after.active == 1
    assert sb.rounds_over[0][1].bids == (20, 12)
    assert capsys.readouterr().err == ""


def test_exchange_2_5_bounty(capsys: pytest.CaptureFixture[str]) -> None:
    table = replay(EXCHANGE_2_5, Rules.for_variant("bounty"))
    check_seat_and_end(table, (("Ah", "Kd"), ("7c", "7s")), (18, -18))
    sb, bb = table.bots
    assert sb.clocks[0] == 60.0
    assert sb.new_rounds[0][0].bounties == ("K", HIDDEN_RANK)
    assert bb.new_rounds[0][0].bounties == (HIDDEN_RANK, "2")
    sb_end = sb.rounds_over[0][1]
    bb_end = bb.rounds_over[0][1]
    assert sb_end.bounty_hits == (True, None)
    assert bb_end.bounty_hits == (True, None)
    assert sb_end.folder == 1
    assert capsys.readouterr().err == ""


def test_bounty_hit_flags_decode_with_hash_as_none() -> None:
    assert decode_message("Y1#") == [BountyHits(True, None)]
    assert decode_message("Y#0") == [BountyHits(None, False)]
    assert decode_message("Y00") == [BountyHits(False, False)]
    assert decode_message("Y11") == [BountyHits(True, True)]


def test_client_answers_quit_with_nothing() -> None:
    client = BotClient(ScriptedBot([]), Rules.for_variant("nlhe"))
    assert client.handle([Quit()]) is None
