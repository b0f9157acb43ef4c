"""Toss Hold'em (MIT 2026): the rules from worked examples, the 2026 wire, the engine's defaults.

The worked hands are constructed here from the rules as ``reference/mit-engines.md`` section
2.6 describes the 2026 engine: three hole cards; two board cards; the big blind discards (the
small blind acknowledges with ``K``), then the small blind (the big blind acknowledges);
betting on four board cards, a turn and a river: six board cards, best five of eight.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from local_runner.engine import dealer
from local_runner.engine.dealer import _holes, deal_hand, showdown_winner
from local_runner.engine.faults import FaultKind
from local_runner.runs.gamelog import format_hand
from sdk.actions import CallAction, CheckAction, DiscardAction, FoldAction, RaiseAction
from sdk.bot import Bot
from sdk.client import BotClient
from sdk.games import MIT_VARIANTS
from sdk.protocol import (
    Board,
    Clock,
    Delta,
    HoleCards,
    OpponentHand,
    Position,
    ProtocolError,
    RoundStart,
    decode_action,
    decode_message,
    encode_action,
    encode_message,
)
from sdk.rules import Rules, RulesError
from sdk.states import GameState, RoundState, TerminalState
from tests.golden.transcripts import play

TOSS = Rules.for_variant("toss")
NLHE = Rules.for_variant("nlhe")
K, C = CheckAction(), CallAction()


def test_the_preset_is_the_2026_game() -> None:
    assert "toss" in MIT_VARIANTS
    assert TOSS.discard and TOSS.fold_always_legal
    assert TOSS.game_clock == 60.0 and TOSS.seats == 2 and TOSS.limit is None
    assert (TOSS.starting_stack, TOSS.small_blind, TOSS.big_blind) == (400, 1, 2)
    assert not NLHE.discard


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"seats": 3}, "heads-up"),
        ({"discard": "yes"}, "true or false"),
        ({"variant": "custom", "discard": True, "auction": True}, "without swaps or an auction"),
        ({"variant": "custom", "discard": True, "all_in_checks": False}, "all_in_checks"),
        ({"discard": False}, "are not 'toss'"),
        ({"variant": "nlhe", "discard": True}, "are not 'nlhe'"),
    ],
)
def test_bad_discard_rules_are_refused_with_a_sentence(
    changes: dict[str, object], words: str
) -> None:
    with pytest.raises(RulesError, match=words):
        TOSS.replace(**changes)


def walk(state: RoundState | TerminalState, *actions: object) -> RoundState:
    """Apply ``actions`` (each an action, or a board tuple to deal); return the last state."""
    for item in actions:
        assert isinstance(state, RoundState)
        if isinstance(item, tuple):
            state = state.with_board(item)
        else:
            assert state.is_legal(item), (item, state.legal_actions())  # type: ignore[arg-type]
            state = state.proceed(item)  # type: ignore[arg-type]
    assert isinstance(state, RoundState)
    return state


def test_the_constructed_2026_hand_step_by_step() -> None:
    # P0 = Tc6dQs, P1 = 8sQd8c (the section 2.6 exchange): SB calls, BB checks.
    start = RoundState.new_hand(TOSS, [("Tc", "6d", "Qs"), ("8s", "Qd", "8c")])
    flop = walk(start, C, K)
    assert (flop.street, flop.actor, flop.button, flop.board) == (2, 1, 1, ())
    flop = walk(flop, ("2d", "Ts"))
    assert flop.legal_actions() == {DiscardAction}
    assert flop.discard_indices() == (0, 1, 2)
    ack = walk(flop, DiscardAction(0))  # the big blind discards 8s
    assert ack.board == ("2d", "Ts", "8s") and ack.hands[1] == ("Qd", "8c")
    assert (ack.street, ack.actor, ack.button) == (2, 0, 0)
    assert ack.legal_actions() == {CheckAction} and ack.discard_indices() == ()
    second = walk(ack, K)
    assert (second.street, second.actor, second.button) == (3, 0, 0)
    assert second.legal_actions() == {DiscardAction}
    ack2 = walk(second, DiscardAction(0))  # the small blind discards Tc
    assert ack2.board == ("2d", "Ts", "8s", "Tc") and ack2.hands[0] == ("6d", "Qs")
    assert ack2.legal_actions() == {CheckAction}
    betting = walk(ack2, K)
    assert (betting.street, betting.actor, betting.button) == (4, 1, 1)
    assert betting.legal_actions() == {CheckAction, RaiseAction, FoldAction}
    assert betting.raise_bounds() == (2, 398)
    turn = walk(betting, RaiseAction(8), C)
    assert (turn.street, turn.actor) == (5, 1)
    assert turn.board_with_deal(("2d", "Ts", "4c", "Ah")) == ("2d", "Ts", "8s", "Tc", "4c")
    river = walk(turn, ("2d", "Ts", "8s", "Tc", "4c"), K, K, ("2d", "Ts", "8s", "Tc", "4c", "Ah"))
    assert river.street == 6
    end = river.proceed(K).proceed(K)  # type: ignore[union-attr]
    assert isinstance(end, TerminalState) and end.folder is None
    last = end.previous_state
    assert last.street == 6 and len(last.board) == 6
    # 8c Qd with 8s Tc Ts 2d on the board: eights and tens; Qs 6d: tens with a queen.
    assert showdown_winner(last.hands, last.board) == 1
    assert last.settle(1).deltas == (-10, 10)


def test_the_best_five_of_eight_can_use_both_discards() -> None:
    # The small blind keeps As Ks; the big blind discards Qs and the small blind Js:
    # with Ts on the river the small blind has a royal flush made of both discards.
    hands = (("As", "Ks", "Js"), ("Qs", "2c", "2d"))
    state = walk(
        RoundState.new_hand(TOSS, hands),
        C,
        K,
        ("Ts", "3h"),
        DiscardAction(0),
        K,
        DiscardAction(2),
        K,
    )
    assert state.board == ("Ts", "3h", "Qs", "Js")
    assert showdown_winner(state.hands, (*state.board, "7h", "2h")) == 0
    # Without a discard the five board cards (and three hole cards) would be another game.
    assert state.hands == (("As", "Ks"), ("2c", "2d"))


def test_a_fold_is_always_legal_when_betting_but_never_on_a_discard_turn() -> None:
    state = walk(
        RoundState.new_hand(TOSS, [("2c", "3c", "4c"), ("5c", "6c", "7c")]), RaiseAction(400), C
    )
    assert state.street == 2 and state.legal_actions() == {DiscardAction}
    assert not state.is_legal(FoldAction()) and state.default_action() == FoldAction()
    state = walk(state, ("Ah", "Kh"), DiscardAction(1), K, DiscardAction(2), K)
    assert state.stacks == (0, 0)
    assert state.legal_actions() == {CheckAction, FoldAction}  # all in: check, or fold


def test_a_fold_for_a_missed_discard_ends_the_hand_as_a_fold() -> None:
    state = walk(
        RoundState.new_hand(TOSS, [("2c", "3c", "4c"), ("5c", "6c", "7c")]), RaiseAction(6), C
    )
    end = state.proceed(state.default_action())
    assert isinstance(end, TerminalState)
    assert end.folder == 1 and end.deltas == (6, -6)


def test_the_dealer_deals_three_hole_cards_and_four_board_cards() -> None:
    deal = deal_hand(TOSS, 7, 1)
    assert [len(hole) for hole in deal.holes] == [3, 3] and len(deal.board) == 4
    assert len(set(deal.holes[0] + deal.holes[1] + deal.board)) == 10
    other = deal_hand(NLHE, 7, 1)
    assert [len(hole) for hole in other.holes] == [2, 2] and len(other.board) == 5


def dealt_in_order(deck: list[str], seats: int, count: int) -> tuple[tuple[str, ...], ...]:
    """Hole cards the plain way: seat ``s`` gets the deck's cards ``s*count`` to ``(s+1)*count``."""
    return tuple(tuple(deck[s * count : (s + 1) * count]) for s in range(seats))


@pytest.mark.parametrize(("seats", "count"), [(2, 2), (2, 3), (3, 2), (6, 2), (3, 3)])
def test_hole_cards_go_count_to_a_seat_in_seat_order(seats: int, count: int) -> None:
    # The heads-up hold'em shortcut in `_holes` and its general way both deal the deck's
    # first cards `count` to a seat, seat 0 first.
    deck = [f"{rank}c" for rank in "23456789TJQKA"] + [f"{rank}d" for rank in "23456789"]
    assert _holes(deck, seats, count) == dealt_in_order(deck, seats, count)


def test_the_same_deals_come_with_the_heads_up_dealing_shortcut_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wanted = [
        (rules, seed, hand) for rules in (NLHE, TOSS) for seed in (1, 7) for hand in range(1, 51)
    ]
    fast = [deal_hand(*args) for args in wanted]
    monkeypatch.setattr(dealer, "_holes", dealt_in_order)
    assert [deal_hand(*args) for args in wanted] == fast


# -- the wire ----------------------------------------------------------------------------


def test_the_2026_letters_depend_on_the_rules() -> None:
    line = "T59.990 P1 H8s,Qd,8c G C K B2d,Ts D0 O6d,Qs A-18"
    clauses = decode_message(line, TOSS)
    assert clauses == [
        Clock(59.99),
        Position(1),
        HoleCards(("8s", "Qd", "8c")),
        RoundStart(),
        C,
        K,
        Board(("2d", "Ts")),
        DiscardAction(0),
        OpponentHand(("6d", "Qs")),
        Delta(-18),
    ]
    assert encode_message(clauses, TOSS) == line
    assert decode_message("D0", NLHE) == [Delta(0)]  # the delta up to 2025
    assert decode_action("D2", TOSS) == DiscardAction(2)
    assert encode_action(DiscardAction(2)) == "D2"
    with pytest.raises(ProtocolError, match=r"D<index>"):
        decode_action("A5", TOSS)  # no bids in 2026
    with pytest.raises(ProtocolError, match=r"A<amount>"):
        decode_action("D1", NLHE)
    with pytest.raises(ProtocolError, match="carries nothing"):
        decode_message("GK", TOSS)


class Discarding(Bot):
    """Discards hole card ``index``; otherwise checks, else calls."""

    def __init__(self, index: int = 0) -> None:
        self.index = index
        self.seen: list[RoundState] = []

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> object:
        self.seen.append(round_state)
        legal = round_state.legal_actions()
        if DiscardAction in legal:
            return DiscardAction(self.index)
        return K if CheckAction in legal else C


def test_the_client_follows_the_real_engines_2026_exchange() -> None:
    # The section 2.6 exchange as the MIT 2026 engine sends it, acknowledgements included.
    p0, p1 = BotClient(Discarding(), TOSS), BotClient(Discarding(), TOSS)
    steps = [
        (p0, "T60.000 P0 HTc,6d,Qs G", "C"),
        (p1, "T60.000 P1 H8s,Qd,8c G C", "K"),
        (p1, "T59.990 K B2d,Ts", "D0"),
        (p0, "T59.995 C K B2d,Ts D0", "K"),
        (p0, "T59.994 K B2d,Ts,8s", "D0"),
        (p1, "T59.985 D0 K B2d,Ts,8s D0", "K"),
        (p1, "T59.980 K B2d,Ts,8s,Tc", "K"),
    ]
    for client, line, reply in steps:
        answer = client.handle(decode_message(line, TOSS))
        assert answer is not None and encode_action(answer) == reply, line
    mine = p1.round_state
    assert isinstance(mine, RoundState)
    assert mine.street == 4 and mine.board == ("2d", "Ts", "8s", "Tc")
    assert mine.hands[1] == ("Qd", "8c")
    # P0 has not yet had its own discard echoed back (the client replays the echo, as the
    # skeleton does): it still stands where it was asked.
    theirs = p0.round_state
    assert isinstance(theirs, RoundState)
    assert (theirs.street, theirs.board, theirs.hands[0]) == (
        3,
        ("2d", "Ts", "8s"),
        ("Tc", "6d", "Qs"),
    )
    p0.handle(decode_message("T59.970 D0 K B2d,Ts,8s,Tc K", TOSS))
    theirs = p0.round_state
    assert isinstance(theirs, RoundState) and theirs.hands[0] == ("6d", "Qs")
    assert theirs.street == 4 and theirs.actor == 0


def test_a_bad_discard_index_is_an_illegal_fault_and_a_fold() -> None:
    from local_runner.engine.match import Match, MatchSettings
    from local_runner.engine.seats import InProcessSeat

    seats = [
        InProcessSeat("bad", Discarding(index=5), TOSS),
        InProcessSeat("good", Discarding(), TOSS),
    ]
    result = Match(seats, TOSS, seed=1, settings=MatchSettings(enforce_clock=False)).play(4)
    bad, good = result.players
    assert bad.fault_counts == {FaultKind.ILLEGAL: 4}
    assert "attempted illegal Discard of index 5" in bad.first_faults[0].detail
    assert not good.fault_counts
    # Both limp, so each hand the bad discard folds a pot of 2 each, from either seat.
    assert (bad.bankroll, good.bankroll) == (-8, 8)


def test_the_gamelog_uses_the_2026_wording() -> None:
    played = play(TOSS, 3, 1)
    lines = format_hand(played.records[0], TOSS)
    text = "\n".join(lines)
    assert "B discards " in text and "A discards " in text
    labels = [
        line.split(" [")[0]
        for line in lines
        if " [" in line
        and "," in line
        and line.split(" [")[0] in {"Flop", "Discard 1", "Discard 2", "Turn", "River"}
    ]
    assert labels == ["Flop", "Discard 1", "Discard 2", "Turn", "River"]
    assert sum(line.startswith("Current stacks: ") for line in lines) == 5


@pytest.mark.parametrize("name", ["equity", "range"])
@pytest.mark.parametrize(
    "hand, board, expected",
    [
        (("As", "Ad", "2c"), ("Kh", "7d"), 2),  # keep the aces
        (("2d", "Ts", "9s"), ("8s", "7s", "Kh"), 0),  # keep the suited connectors
        (("Qh", "7c", "Jh"), ("Th", "9h"), 1),  # keep the straight-flush draw
    ],
)
def test_the_reference_bots_keep_the_two_cards_with_the_best_equity(
    name: str, hand: tuple[str, ...], board: tuple[str, ...], expected: int
) -> None:
    from local_runner.bots.builtin import make_builtin

    street = len(board)
    seat = 1 if street == 2 else 0
    state = RoundState.new_hand(TOSS, [hand, ()] if seat == 0 else [(), hand])
    state = walk(state, C, K, board[:2])
    if street == 3:
        state = walk(state, DiscardAction(0)).with_board(board)
        state = walk(state, K)
    assert state.actor == seat and state.legal_actions() == {DiscardAction}
    # The choice is a Monte Carlo estimate, so a close call can go the other way for one
    # seed: most seeds must keep the better pair.
    kept = 0
    for seed in range(1, 8):
        bot = make_builtin(name, seed)
        bot.handle_new_round(GameState(0, 60.0, 1), state, seat)
        kept += bot.get_action(GameState(0, 60.0, 1), state, seat) == DiscardAction(expected)
    assert kept >= 6


def test_a_toss_run_replays_with_its_discards_and_street_names(tmp_path: Path) -> None:
    from local_runner.runs.reader import open_run
    from local_runner.tables.config import ScrimmageConfig
    from local_runner.tables.scrimmage import BotSpec, run_scrimmage
    from local_runner.view.replay import hand_lines
    from local_runner.view.report import match_data

    config = ScrimmageConfig(rules=TOSS.replace(num_rounds=40), seed=4)
    out = tmp_path / "run"
    run_scrimmage([BotSpec.parse("builtin:checkcall"), BotSpec.parse("builtin:raise")], config, out)
    run = open_run(out)
    text = "\n".join(line for hand in run.hands() for line in hand_lines(run, hand))
    assert "discards " in text and "-- discard 1: -" in text and "-- river: " in text
    assert match_data(run)  # the report's data builds from a toss run
    from local_runner.runs.errors import RunError
    from local_runner.view.phh import write_phhs

    with pytest.raises(RunError, match="PHH has no form for three hole cards"):
        write_phhs(run, tmp_path / "hands.phhs")


def test_a_person_discards_by_typing_d_and_the_cards_position() -> None:
    from local_runner.view.human import parse_answer

    state = walk(RoundState.new_hand(TOSS, [(), ("8s", "Qd", "8c")]), C, K, ("2d", "Ts"))
    assert parse_answer("d 1", state) == DiscardAction(1)
    assert parse_answer("discard 0", state) == DiscardAction(0)
    assert "0 (8s), 1 (Qd), 2 (8c)" in str(parse_answer("d 3", state))
    assert "discard a card (d N)" in str(parse_answer("k", state))


def test_repair_on_a_discard_street_is_the_2026_default_whatever_on_illegal_says() -> None:
    for rules in (TOSS, TOSS.replace(variant="custom", on_illegal="call")):
        state = walk(RoundState.new_hand(rules, [("2c", "3c", "4c"), ("5c", "6c", "7c")]), C, K)
        assert state.repair(DiscardAction(7)) == FoldAction()
        assert state.repair(CallAction()) == FoldAction()
        assert state.repair(DiscardAction(1)) == DiscardAction(1)
        ack = walk(state, DiscardAction(1))
        assert ack.repair(FoldAction()) == CheckAction()
