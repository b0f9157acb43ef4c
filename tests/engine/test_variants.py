"""Swap, Auction and Bounty Hold'em through the engine: the written rules, the MIT wire.

Hands are played by scripted in-process bots (``golden.transcripts.ScriptedBot``)
on seeds found by searching the dealer (``deal_hand``) for the situation a test
needs; each test then checks the engine's record, the messages each seat
received, and what each bot's client showed it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from local_runner.bots.builtin import make_builtin
from local_runner.engine.dealer import Deal, bounty_ranks, deal_hand, showdown_winner
from local_runner.engine.faults import FaultKind
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import ActionEvent, AuctionEvent, HandRecord, SwapEvent
from local_runner.engine.seats import InProcessSeat
from sdk.actions import HIDDEN_BID, HIDDEN_RANK, Action, BidAction, CheckAction, FoldAction
from sdk.bot import Bot
from sdk.protocol import Clause
from sdk.rules import BountyRules, Rules, SwapRules
from sdk.states import GameState, RoundState, TerminalState
from tests.golden.transcripts import (
    SCENARIOS,
    A,
    C,
    F,
    K,
    Played,
    R,
    RecordingSeat,
    Scenario,
    ScriptedBot,
    golden_path,
    play,
    transcript,
)

AUCTION = Rules.for_variant("auction")
SWAP = Rules.for_variant("swap")
BOUNTY = Rules.for_variant("bounty")


def first_seed(predicate: Callable[[int], bool]) -> int:
    """The smallest seed from 1 for which ``predicate`` holds (searched, so never stale)."""
    return next(seed for seed in range(1, 200_000) if predicate(seed))


def assert_no_faults(played: Played) -> None:
    for player in played.result.players:
        assert player.fault_counts == {}, player.first_faults


def auction_events(record: HandRecord) -> list[AuctionEvent]:
    return [event for event in record.events if isinstance(event, AuctionEvent)]


def with_card(deal: Deal, seat: int) -> tuple[str, ...]:
    return deal.holes[seat] + (deal.auction_cards[seat],)


# -- Auction Hold'em -----------------------------------------------------------


def test_unequal_bids_the_higher_bid_wins_and_pays_the_lower_bid() -> None:
    deal = deal_hand(AUCTION, 2, 1)
    # A is the dealer (seat 0): raises to 6, B calls; B bids 12 first, A bids 20.
    played = play(AUCTION, 2, 1, ({1: [R(6), A(20), R(20)]}, {1: [C, A(12), K, F]}))
    assert_no_faults(played)
    a, b = played.bots

    # Sealed bids: the big blind bids first and sees no bid; the dealer sees it as -1.
    b_bidding, a_bidding = b.asked[1][1], a.asked[1][1]
    assert b_bidding.auction and b_bidding.bids == (None, None)
    assert a_bidding.auction and a_bidding.bids == (None, HIDDEN_BID)
    assert a_bidding.legal_actions() == {BidAction}
    assert a_bidding.bid_bounds() == (0, 394) and b_bidding.bid_bounds() == (0, 394)
    a_bid_message = played.messages(0, 1)[1]
    flop = ",".join(deal.board[:3])
    assert a_bid_message.endswith(f" B{flop} A-1") and "A12" not in a_bid_message

    # After the N clause both clients show the bids and the stacks: A paid B's 12.
    b_after, a_after = b.asked[1][2], a.asked[1][2]
    for state in (a_after, b_after):
        assert (state.street, state.auction) == (3, False)
        assert state.bids == (20, 12)
        assert state.stacks == (382, 394)
    assert b_after.active == 1  # the big blind opens the flop betting after the auction
    assert a_after.hands[0] == with_card(deal, 0)
    assert b_after.hands[1] == deal.holes[1]
    assert b.asked[1][2].hands[0] == ()  # the opponent's new card stays hidden

    record = played.records[0]
    assert auction_events(record) == [
        AuctionEvent((20, 12), (0,), (with_card(deal, 0), deal.holes[1]), (382, 394))
    ]
    assert record.deltas == (6, -6)  # B folds: A wins B's 6; its 12 auction chips come back


@pytest.mark.parametrize("bid", [0, 7, 398])
def test_tied_bids_both_pay_their_bid_and_both_get_a_card(bid: int) -> None:
    deal = deal_hand(AUCTION, 2, 1)
    played = play(AUCTION, 2, 1, ({1: [C, A(bid)]}, {1: [K, A(bid)]}))
    assert_no_faults(played)
    a, b = played.bots
    record = played.records[0]
    hands = (with_card(deal, 0), with_card(deal, 1))
    left = 398 - bid
    assert auction_events(record) == [AuctionEvent((bid, bid), (0, 1), hands, (left, left))]
    assert record.final_hands == hands and record.showdown
    winner = showdown_winner(hands, deal.board)
    won = 0 if winner is None else 2 + bid
    assert record.deltas == ((won, -won) if winner == 0 else (-won, won))
    # Both terminal states show the opponent's three cards (the O clause).
    assert a.ended[1].previous_state.hands[1] == hands[1]
    assert b.ended[1].previous_state.hands[0] == hands[0]
    if bid == 398:
        # Both all in after the auction: nobody is asked again (limp or check, then the bid).
        assert len(a.asked[1]) == 2 and len(b.asked[1]) == 2
        assert a.ended[1].previous_state.stacks == (0, 0)
    else:
        flop = b.asked[1][2]
        assert flop.stacks == (left, left) and flop.bids == (bid, bid)
        assert flop.hands[1] == hands[1]


def test_an_all_in_bid_wins_the_card_for_the_lower_bid() -> None:
    deal = deal_hand(AUCTION, 2, 1)
    played = play(AUCTION, 2, 1, ({1: [C, A(398)]}, {1: [K, A(50)]}))
    assert_no_faults(played)
    a, b = played.bots
    assert a.asked[1][1].bid_bounds() == (0, 398)
    record = played.records[0]
    hands = (with_card(deal, 0), deal.holes[1])
    assert auction_events(record) == [AuctionEvent((398, 50), (0,), hands, (348, 398))]
    flop = b.asked[1][2]
    assert flop.stacks == (348, 398) and flop.bids == (398, 50)


def test_players_all_in_before_the_flop_bid_zero_unasked_and_both_get_a_card() -> None:
    deal = deal_hand(AUCTION, 2, 1)
    played = play(AUCTION, 2, 1, ({1: [R(400)]}, {1: [C]}))
    assert_no_faults(played)
    a, b = played.bots
    assert len(a.asked[1]) == 1 and len(b.asked[1]) == 1  # no bid, no check was asked for
    record = played.records[0]
    hands = (with_card(deal, 0), with_card(deal, 1))
    assert auction_events(record) == [AuctionEvent((0, 0), (0, 1), hands, (0, 0))]
    bids = [
        (e.seat, e.action, e.forced)
        for e in record.events
        if isinstance(e, ActionEvent) and isinstance(e.action, BidAction)
    ]
    assert bids == [(1, BidAction(0), True), (0, BidAction(0), True)]
    # The forced bids reach each seat with its terminal message, the first one sealed.
    flop = ",".join(deal.board[:3])
    a_end, b_end = played.messages(0, 1)[-1], played.messages(1, 1)[-1]
    assert f"C B{flop} A-1 A0 P0 N0,0_0,0_{','.join(hands[0])} B{flop} K K" in a_end
    assert f"C B{flop} A0 A0 P1 N0,0_0,0_{','.join(hands[1])} B{flop} K K" in b_end


def test_the_auction_card_decides_a_three_card_showdown() -> None:
    def third_card_turns_it(seed: int) -> bool:
        deal = deal_hand(AUCTION, seed, 1)
        return (
            showdown_winner(deal.holes, deal.board) == 1
            and showdown_winner((with_card(deal, 0), deal.holes[1]), deal.board) == 0
        )

    seed = first_seed(third_card_turns_it)
    deal = deal_hand(AUCTION, seed, 1)
    # A limps and wins the auction (10 against 5, so it pays 5); both check down.
    played = play(AUCTION, seed, 1, ({1: [C, A(10)]}, {1: [K, A(5)]}))
    assert_no_faults(played)
    record = played.records[0]
    assert record.showdown and record.final_hands == (with_card(deal, 0), deal.holes[1])
    # With two cards A would have lost its 7 chips; with the third it wins B's 2.
    assert record.deltas == (2, -2)
    a, b = played.bots
    assert a.ended[1].deltas == (2, -2) and b.ended[1].deltas == (2, -2)
    assert b.ended[1].previous_state.hands[0] == with_card(deal, 0)
    assert played.messages(1, 1)[-1].endswith(f"O{','.join(with_card(deal, 0))} D-2")


def test_a_showdown_tie_after_an_auction_leaves_bankrolls_unchanged() -> None:
    # Written rules: "In the case of a tie, players' bankrolls do not change", even
    # though the auction winner put in more (the 2024 engine would split the
    # difference: floor((393 - 398) / 2) = -3 for seat 0).
    def tie_with_three_cards(seed: int) -> bool:
        deal = deal_hand(AUCTION, seed, 1)
        return showdown_winner((with_card(deal, 0), deal.holes[1]), deal.board) is None

    seed = first_seed(tie_with_three_cards)
    played = play(AUCTION, seed, 1, ({1: [C, A(10)]}, {1: [K, A(5)]}))
    assert_no_faults(played)
    record = played.records[0]
    assert record.showdown and auction_events(record)[0].stacks == (393, 398)
    assert record.deltas == (0, 0)


# -- Swap Hold'em --------------------------------------------------------------


def within_four_sigma(count: int, trials: int, probability: float) -> bool:
    expected = trials * probability
    return abs(count - expected) <= 4 * math.sqrt(trials * probability * (1 - probability))


@pytest.mark.parametrize(
    "rules", [SWAP, SWAP.replace(swap=SwapRules(0.3, 0.2))], ids=["default", "0.3-0.2"]
)
def test_swap_frequencies_per_street_match_the_probabilities(rules: Rules) -> None:
    deals = 20_000
    swapped = [0, 0]  # replaced hole cards at the flop, at the turn
    both = [0, 0]  # seats with both hole cards replaced on that street
    for hand in range(1, deals + 1):
        deal = deal_hand(rules, 99, hand)
        assert len(deal.swaps) == 2
        for street, plans in enumerate(deal.swaps):
            for plan in plans:
                swapped[street] += sum(card is not None for card in plan)
                both[street] += all(card is not None for card in plan)
        used = [*deal.holes[0], *deal.holes[1], *deal.board]
        used += [card for plans in deal.swaps for plan in plans for card in plan if card]
        assert len(set(used)) == len(used)
    assert rules.swap is not None
    for street, probability in enumerate((rules.swap.flop, rules.swap.turn)):
        assert within_four_sigma(swapped[street], 4 * deals, probability)
        assert within_four_sigma(both[street], 2 * deals, probability**2)


def test_swap_probability_one_replaces_every_card_on_the_flop_and_again_on_the_turn() -> None:
    rules = SWAP.replace(swap=SwapRules(1.0, 1.0))
    played = play(rules, 5, 1)
    assert_no_faults(played)
    record = played.records[0]
    swaps = [e for e in record.events if isinstance(e, SwapEvent)]
    assert [e.seat for e in swaps] == [0, 1, 0, 1]
    for event in swaps:
        assert not set(event.old) & set(event.new)
    a, _ = played.bots
    first, flop, turn = a.started[1].hands[0], a.asked[1][1].hands[0], a.asked[1][2].hands[0]
    assert len({*first, *flop, *turn}) == 6
    assert a.asked[1][1].hand_changed(0)


def test_no_swap_ever_with_probability_zero() -> None:
    rules = SWAP.replace(swap=SwapRules(0.0, 0.0))
    for hand in range(1, 500):
        assert deal_hand(rules, 3, hand).swaps == (((None, None),) * 2,) * 2


def test_a_swap_shows_in_the_client_view_and_u_follows_b_on_flop_and_turn() -> None:
    def dealer_first_card_swapped_on_the_flop_only(seed: int) -> bool:
        flop, turn = deal_hand(SWAP, seed, 1).swaps
        return flop[0][0] is not None and flop[0][1] is None and turn[0] == (None, None)

    seed = first_seed(dealer_first_card_swapped_on_the_flop_only)
    deal = deal_hand(SWAP, seed, 1)
    flop_plan = deal.swaps[0]
    new = (flop_plan[0][0], deal.holes[0][1])
    played = play(SWAP, seed, 1)  # both check or call down to a showdown
    assert_no_faults(played)
    a, b = played.bots
    assert not a.asked[1][0].hand_changed(0)  # preflop
    flop_state = a.asked[1][1]
    assert flop_state.street == 3 and flop_state.hands[0] == new
    assert flop_state.hand_changed(0)
    assert b.asked[1][1].street == 3
    assert b.asked[1][1].hand_changed(1) == (flop_plan[1] != (None, None))
    assert b.asked[1][1].hands[0] == ()  # the opponent's swap is not announced
    for slot in (0, 1):
        messages = " ".join(played.messages(slot, 1)).split(" ")
        boards = [i for i, clause in enumerate(messages) if clause.startswith("B")]
        assert len(boards) == 3
        flop_at, turn_at, river_at = boards
        assert messages[flop_at + 1].startswith("U") and messages[turn_at + 1].startswith("U")
        assert not messages[river_at + 1].startswith("U")
        assert sum(clause.startswith("U") for clause in messages) == 2
    assert f"U{new[0]},{new[1]}" in played.messages(0, 1)[1]
    # At the showdown B sees A's hand as it is now.
    assert b.ended[1].previous_state.hands[0] == played.records[0].final_hands[0] == new


class Watched(Bot):
    """A built-in bot whose client view at each hand's end is kept."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.final: dict[int, tuple[int, tuple[str, ...], bool]] = {}

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        return self.inner.get_action(game_state, round_state, active)

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        last = terminal_state.previous_state
        self.final[game_state.round_num] = (active, last.hands[active], last.hand_changed(active))


RULE_SETS = {
    "swap": SWAP,
    "swap-often": SWAP.replace(swap=SwapRules(0.5, 0.5)),
    "auction": AUCTION,
    "swap+auction": Rules(variant="custom", swap=SwapRules(0.5, 0.5), auction=True),
}
BOT_NAMES = ["checkcall", "random", "raise"]


def play_builtins(
    rules: Rules, seed: int, names: tuple[str, str], hands: int
) -> tuple[list[HandRecord], tuple[Watched, Watched]]:
    bots = (Watched(make_builtin(names[0], seed)), Watched(make_builtin(names[1], seed + 1)))
    seats = [InProcessSeat(name, bot, rules) for name, bot in zip("AB", bots, strict=True)]
    records: list[HandRecord] = []
    match = Match(seats, rules, seed, MatchSettings(enforce_clock=False), on_hand=records.append)
    result = match.play(hands)
    assert all(player.fault_counts == {} for player in result.players)
    return records, bots


# A failing example is a seed, rules and two bot names: shrinking it further only costs time.
NO_SHRINKING = (Phase.explicit, Phase.reuse, Phase.generate)
matches = given(
    seed=st.integers(0, 2**31 - 1),
    rules_name=st.sampled_from(sorted(RULE_SETS)),
    names=st.tuples(st.sampled_from(BOT_NAMES), st.sampled_from(BOT_NAMES)),
)


@settings(max_examples=40, deadline=None, phases=NO_SHRINKING)
@matches
def test_no_card_appears_twice_after_swaps_and_auction_cards(
    seed: int, rules_name: str, names: tuple[str, str]
) -> None:
    records, _ = play_builtins(RULE_SETS[rules_name], seed, names, hands=15)
    for record in records:
        ever = [*record.dealt[0], *record.dealt[1], *record.board]
        for event in record.events:
            if isinstance(event, SwapEvent):
                ever += [card for card in event.new if card not in event.old]
            elif isinstance(event, AuctionEvent):
                ever += [event.hands[seat][-1] for seat in event.winners]
        assert len(set(ever)) == len(ever), record
        shown = [*record.final_hands[0], *record.final_hands[1], *record.board]
        assert len(set(shown)) == len(shown), record


@settings(max_examples=40, deadline=None, phases=NO_SHRINKING)
@matches
def test_final_hands_are_the_deal_changed_only_by_swaps_and_auction_cards(
    seed: int, rules_name: str, names: tuple[str, str]
) -> None:
    records, bots = play_builtins(RULE_SETS[rules_name], seed, names, hands=15)
    for record in records:
        hands = list(record.dealt)
        for event in record.events:
            if isinstance(event, SwapEvent):
                assert event.old == hands[event.seat]
                # A swap replaces cards one for one: a hand never shrinks or grows.
                assert len(event.new) == len(event.old), event
                hands[event.seat] = event.new
            elif isinstance(event, AuctionEvent):
                for seat in (0, 1):
                    extra = 1 if seat in event.winners else 0
                    assert event.hands[seat][: len(hands[seat])] == hands[seat]
                    assert len(event.hands[seat]) == len(hands[seat]) + extra
                hands = list(event.hands)
        assert tuple(hands) == record.final_hands, record
        # Each client saw its own final hand, and knows whether it changed.
        for bot in bots:
            seat, hand, changed = bot.final[record.number]
            assert hand == record.final_hands[seat]
            assert changed == (set(hand) != set(record.dealt[seat]))


def test_swap_and_auction_together_keep_the_auction_card_through_the_turn() -> None:
    # Combined rules are allowed; the auction card must survive the turn's swap step.
    rules = Rules(variant="custom", swap=SwapRules(), auction=True)
    deal = deal_hand(rules, 5, 1)
    played = play(rules, 5, 1, ({1: [C, A(5)]}, {1: [K, A(3)]}))
    assert_no_faults(played)
    record = played.records[0]
    won = auction_events(record)[0].hands[0]
    assert len(won) == 3 and won[2] == deal.auction_cards[0]
    assert len(record.final_hands[0]) == 3, record.final_hands
    turn = f"B{','.join(deal.board[:4])}"
    (turn_message,) = [m for m in played.messages(0, 1) if turn in m.split(" ")]
    assert f"{turn} U{','.join(won)}" in turn_message, turn_message


# -- Bounty Hold'em ------------------------------------------------------------


def hits(rank: str, cards: tuple[str, ...]) -> bool:
    return any(card[0] == rank for card in cards)


@pytest.mark.parametrize("period", [25, 3])
def test_bounty_ranks_are_redrawn_every_period_and_follow_the_player(period: int) -> None:
    rules = BOUNTY.replace(bounty=BountyRules(period=period))
    hands = 2 * period + 2
    played = play(rules, 8, hands)
    assert_no_faults(played)
    for slot, bot in enumerate(played.bots):
        ranks = [bot.started[n].bounties[bot.seats[n]] for n in range(1, hands + 1)]
        # The rank belongs to the player, whichever seat it has in the hand.
        assert ranks == [bounty_ranks(8, (n - 1) // period)[slot] for n in range(1, hands + 1)]
        for start in range(0, hands, period):
            assert len(set(ranks[start : start + period])) == 1
        # The opponent's rank is never shown.
        assert all(bot.started[n].bounties[1 - bot.seats[n]] == HIDDEN_RANK for n in bot.started)
    periods = [bounty_ranks(8, p) for p in range(3)]
    assert len(set(periods)) > 1  # this seed does redraw something


def test_every_hand_opens_with_t_p_h_g() -> None:
    played = play(BOUNTY, 8, 30, ({n: [F] for n in range(1, 31, 4)}, {}))
    assert_no_faults(played)
    for slot in (0, 1):
        for hand in range(1, 31):
            seat = slot if hand % 2 == 1 else 1 - slot
            rank = bounty_ranks(8, (hand - 1) // 25)[slot]
            deal = deal_hand(BOUNTY, 8, hand)
            first = played.messages(slot, hand)[0].split(" ")
            assert first[:4] == [
                "T60.000",
                f"P{seat}",
                "H" + ",".join(deal.holes[seat]),
                f"G{rank}",
            ]
    # When the dealer folds at once, the big blind's only message is its terminal one,
    # and it opens the same way.
    for hand in range(1, 31, 4):
        (only,) = played.messages(1, hand)
        assert only.split(" ")[1:3] == ["P1", "H" + ",".join(deal_hand(BOUNTY, 8, hand).holes[1])]
        assert " F D1 Y" in only or " F D12 Y" in only


def bounty_deal(seed: int, hand: int = 1) -> tuple[Deal, tuple[str, str]]:
    return deal_hand(BOUNTY, seed, hand), bounty_ranks(seed, (hand - 1) // 25)


def test_a_dealer_hit_rounds_down_and_the_loser_flag_is_masked_even_when_it_hit() -> None:
    # The constructed 2.5 exchange: both hit by the flop; A (dealer) wins B's 5 with its
    # bounty: 1.5 * 5 + 10 = 17.5, rounded down for the dealer (the 2025 engine: 18).
    def both_hit_by_the_flop(seed: int) -> bool:
        deal, ranks = bounty_deal(seed)
        flop = deal.board[:3]
        return all(hits(ranks[seat], deal.holes[seat] + flop) for seat in (0, 1))

    seed = first_seed(both_hit_by_the_flop)
    played = play(BOUNTY, seed, 1, ({1: [R(5), R(10)]}, {1: [C, K, F]}))
    assert_no_faults(played)
    assert played.records[0].deltas == (17, -17)
    assert played.records[0].bounty_hits == (True, True)
    assert played.messages(0, 1)[-1] == "T60.000 R10 F D17 Y1#"
    assert played.messages(1, 1)[-1] == "T60.000 F D-17 Y#1"
    a, b = played.bots
    assert a.ended[1].bounty_hits == (True, None)
    assert b.ended[1].bounty_hits == (True, None)  # B hit too, but as the loser it is masked
    assert a.ended[1].deltas == b.ended[1].deltas == (17, -17)


def test_a_big_blind_hit_rounds_up_when_the_dealer_folds() -> None:
    seed = first_seed(lambda s: hits(bounty_deal(s)[1][1], bounty_deal(s)[0].holes[1]))
    played = play(BOUNTY, seed, 1, ({1: [F]}, {}))
    assert_no_faults(played)
    assert played.records[0].deltas == (-12, 12)  # 1.5 * 1 + 10 = 11.5, up for the big blind
    assert played.messages(1, 1)[-1].endswith(" F D12 Y1#")
    assert played.messages(0, 1)[-1] == "T60.000 F D-12 Y#1"
    a, b = played.bots
    assert a.ended[1].bounty_hits == (None, True) and b.ended[1].bounty_hits == (None, True)


def test_only_the_board_dealt_so_far_counts_for_a_bounty() -> None:
    def hits_on_the_turn_only(seed: int) -> bool:
        deal, ranks = bounty_deal(seed)
        return not hits(ranks[0], deal.holes[0] + deal.board[:3]) and hits(
            ranks[0], deal.board[3:4]
        )

    seed = first_seed(hits_on_the_turn_only)
    # A limps, bets the flop and B folds there: the turn card was never dealt.
    played = play(BOUNTY, seed, 1, ({1: [C, R(4)]}, {1: [K, K, F]}))
    assert_no_faults(played)
    assert played.records[0].deltas == (2, -2)
    assert played.messages(0, 1)[-1].endswith(" F D2 Y0#")
    assert played.bots[0].ended[1].bounty_hits == (False, None)


def test_a_chop_with_one_hit_pays_a_quarter_plus_ten_and_masks_the_other_flag() -> None:
    def chop_only_dealer_hits(seed: int) -> bool:
        deal, ranks = bounty_deal(seed)
        return (
            showdown_winner(deal.holes, deal.board) is None
            and hits(ranks[0], deal.holes[0] + deal.board)
            and not hits(ranks[1], deal.holes[1] + deal.board)
        )

    seed = first_seed(chop_only_dealer_hits)
    played = play(BOUNTY, seed, 1, ({1: [R(8)]}, {1: [C]}))  # 8 each, checked down
    assert_no_faults(played)
    assert played.records[0].deltas == (12, -12)  # 8 / 4 + 10
    assert played.messages(0, 1)[-1].endswith(" D12 Y1#")
    assert played.messages(1, 1)[-1].endswith(" D-12 Y#1")
    assert played.bots[1].ended[1].bounty_hits == (True, None)


def test_a_zero_delta_shows_both_flags() -> None:
    def chop_both_or_neither(seed: int) -> bool:
        deal, ranks = bounty_deal(seed)
        both = [hits(ranks[seat], deal.holes[seat] + deal.board) for seat in (0, 1)]
        return showdown_winner(deal.holes, deal.board) is None and both[0] == both[1]

    seed = first_seed(chop_both_or_neither)
    played = play(BOUNTY, seed, 1)
    assert_no_faults(played)
    record = played.records[0]
    assert record.deltas == (0, 0)
    flag = "1" if record.bounty_hits[0] else "0"
    assert played.messages(0, 1)[-1].endswith(f" D0 Y{flag}{flag}")
    assert played.messages(1, 1)[-1].endswith(f" D0 Y{flag}{flag}")
    for bot in played.bots:
        hit = bot.ended[1].bounty_hits
        assert hit == (record.bounty_hits[0], record.bounty_hits[1]) and None not in hit


def test_the_client_tells_hit_from_no_hit_from_masked() -> None:
    played = play(BOUNTY, 49, 3, SCENARIOS[3].scripts)
    a, b = played.bots
    assert [a.ended[n].bounty_hits for n in (1, 2, 3)] == [
        (True, None),  # A won with its bounty; B's flag is masked
        (None, False),  # A (now the big blind) won without one; B masked
        (True, None),  # a chop only A hit: A wins, B masked
    ]
    assert [b.ended[n].bounty_hits for n in (1, 2, 3)] == [
        a.ended[n].bounty_hits for n in (1, 2, 3)
    ]


def test_bounty_fold_with_a_free_check_is_legal_and_ends_the_hand() -> None:
    # The 2025 engine always allows a fold, and real 2025 bots rely on it.
    played = play(BOUNTY, 3, 1, ({1: [C]}, {1: [F]}))
    assert_no_faults(played)
    record = played.records[0]
    action = next(e for e in record.events if isinstance(e, ActionEvent) and e.seat == 1)
    assert action.action == F and not action.forced
    assert not record.showdown
    # The big blind folded its 2 chips with a check free; the dealer wins them (no bounty
    # hit without a board... unless its rank is among its hole cards: the payoff rules say).
    assert record.deltas[1] < 0 and sum(record.deltas) == 0
    assert played.messages(0, 1)[1].startswith("T60.000 C F D")


@pytest.mark.parametrize("variant", ["nlhe", "swap", "auction"])
def test_other_variants_keep_fold_with_a_free_check_illegal_and_played_as_a_check(
    variant: str,
) -> None:
    rules = Rules.for_variant(variant)
    played = play(rules, 3, 1, ({1: [C]}, {1: [F]}))
    b_result = played.result.players[1]
    assert b_result.fault_counts == {FaultKind.ILLEGAL: 1}
    assert "attempted illegal Fold" in b_result.first_faults[0].detail
    record = played.records[0]
    action = next(e for e in record.events if isinstance(e, ActionEvent) and e.seat == 1)
    assert action.action == K and action.forced


def test_bounty_asks_an_all_in_seat_which_may_fold() -> None:
    # The 2025 engine asks an all-in seat on every street (check or fold); so does the kit.
    state = RoundState.new_hand(BOUNTY).proceed(R(400)).proceed(C)
    assert isinstance(state, RoundState) and state.street == 3
    assert state.legal_actions() == {CheckAction, FoldAction}
    nlhe = RoundState.new_hand(Rules.for_variant("nlhe")).proceed(R(400)).proceed(C)
    assert isinstance(nlhe, RoundState) and nlhe.legal_actions() == {CheckAction}


class LateAfterHandOne(RecordingSeat):
    """A seat whose bot still owes a late reply when hand 1 ends (as after a timeout).

    The engine then holds back the end of hand 1 and delivers it at the start of
    hand 2's first message: ``T.. F D-1 Y#0 P1 H.. G..``.
    """

    owes_reply = False

    @property
    def busy(self) -> bool:
        owes, self.owes_reply = self.owes_reply, False
        return owes

    def send(self, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        super().send(clauses, hand, ack)
        self.owes_reply = hand == 1 and not ack


def test_a_hand_end_delivered_with_the_next_opening_is_reported_with_its_own_seat() -> None:
    # A (the dealer, seat 0) folds hand 1 and is busy when it ends; in hand 2 it is seat 1.
    lines: list[str] = []
    a, b = ScriptedBot({1: [F]}), ScriptedBot()
    seats = [
        LateAfterHandOne("A", a, BOUNTY, 0, lines),
        RecordingSeat("B", b, BOUNTY, 1, lines),
    ]
    Match(seats, BOUNTY, 3, MatchSettings(enforce_clock=False)).play(2)
    first_of_hand_two = seats[0].messages[1][2]
    assert " F D-1 Y#0 P1 H" in first_of_hand_two  # the end of hand 1, then hand 2
    assert a.ended[1].deltas == (-1, 1) and a.bankrolls[1] == -1
    assert a.seats == {1: 0, 2: 1}
    # handle_round_over must get the seat A had in hand 1 (0), or deltas[active] and
    # bounty_hits[active] describe the opponent.
    assert a.seats_at_end == {1: 0, 2: 1}
    assert a.ended[1].deltas[a.seats_at_end[1]] == -1


# -- golden transcripts ----------------------------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.variant for s in SCENARIOS])
def test_golden_transcript(scenario: Scenario) -> None:
    expected = golden_path(scenario.variant).read_text(encoding="utf-8")
    assert transcript(scenario) == expected, (
        "The engine's messages changed; if that is intended, run "
        "`python tests/golden/regenerate.py` and review the diff."
    )


def test_the_random_bot_never_folds_when_it_could_check_even_in_bounty() -> None:
    bot = make_builtin("random", 3)
    rules = Rules.for_variant("bounty")
    state = RoundState.new_hand(rules).proceed(C)  # the big blind has a free check
    assert isinstance(state, RoundState) and FoldAction in state.legal_actions()
    game = GameState(0, 60.0, 1)
    assert all(not isinstance(bot.get_action(game, state, 1), FoldAction) for _ in range(300))
