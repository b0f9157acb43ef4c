"""sdk.pots and sdk.evaluator against PokerKit 0.7.7's pots and payoffs, 2 to 6 seats.

PokerKit plays random no-limit hands (blinds 1/2, random short stacks so that all-ins and
side pots are common, random folds, calls and raises).  Some boards are chosen so that
several hands tie: a royal flush on the board, or a straight that better hole cards can
beat.  At the end the test takes each seat's contribution and folds from the hand, ranks
the hands still in with sdk.evaluator, and compares the payoffs:

* **Exact shares.** Each hand is played a second time with every amount multiplied by
  60, so every split among at most 6 winners is whole; PokerKit's payoffs there, divided
  by 60, must equal ``exact_pot_deltas`` of the first run.
* **Whole chips.** PokerKit gives a pot's odd chips all to its first winner in the order
  that starts left of the button, sdk.pots one each in the same order; so whole-chip
  payoffs must be equal whenever no pot has two or more odd chips, and the test counts
  the hands where they may differ.

Mapping: PokerKit's player ``i`` is our seat ``(i + 1) % n`` (its player 0 is the first
seat after the button, the big blind heads-up), which is also ACPC's position.
"""

from __future__ import annotations

import random
import warnings
from fractions import Fraction
from typing import Any

import pytest

from sdk.evaluator import evaluate
from sdk.pots import chip_shares, exact_pot_deltas, pot_deltas, side_pots
from sdk.rules import RANKS, SUITS

pokerkit = pytest.importorskip("pokerkit")

DECK = [rank + suit for rank in RANKS for suit in SUITS]
SCALE = 60  # every split among 1..6 winners of a multiple of 60 is whole
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PULLING,
)
# Boards that make ties likely: every hand plays the board, or most do.
TIE_BOARDS = (["Ts", "Js", "Qs", "Ks", "As"], ["5c", "6d", "7h", "8s", "9c"])


class Outcome:
    """What one PokerKit hand gives: by our seat, contributions, folds, ranks and payoffs."""

    def __init__(self, seats: int) -> None:
        self.contributions = [0] * seats
        self.folded = [False] * seats
        self.ranks: list[int | None] = [None] * seats
        self.payoffs = [0] * seats


def deal(seed: int, seats: int) -> tuple[list[list[str]], list[str], list[str]]:
    """Hole cards by PokerKit player, the board, and three burn cards."""
    rng = random.Random(seed)
    kind = rng.random()
    board = TIE_BOARDS[0] if kind < 0.2 else TIE_BOARDS[1] if kind < 0.35 else []
    rest = [card for card in DECK if card not in board]
    rng.shuffle(rest)
    holes = [rest[2 * i : 2 * i + 2] for i in range(seats)]
    rest = rest[2 * seats :]
    board = board or rest[:5]
    burns = [card for card in rest if card not in board][:3]
    return holes, board, burns


def play(seed: int, seats: int, stacks: list[int], unit: int) -> Outcome:
    """One PokerKit hand with amounts times ``unit``; the random choices depend on ``seed`` only."""
    rng = random.Random(seed * 7919 + 1)
    holes, board, burns = deal(seed, seats)
    state: Any = pokerkit.NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        True,
        0,
        (unit, 2 * unit),
        2 * unit,
        [stack * unit for stack in stacks],
        seats,
        mode=pokerkit.Mode.TOURNAMENT,
    )
    for hole in holes:
        state.deal_hole("".join(hole))
    chunks = [board[:3], board[3:4], board[4:5]]
    outcome = Outcome(seats)
    while not state.can_push_chips():
        if state.can_burn_card():
            state.burn_card(burns.pop())
        elif state.can_deal_board():
            state.deal_board("".join(chunks.pop(0)))
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)  # always show: a muck would look like a fold
        elif state.actor_index is not None:
            player = state.actor_index
            roll = rng.random()
            if roll < 0.15 and state.can_fold():
                state.fold()
                outcome.folded[(player + 1) % seats] = True
            elif roll < 0.55 and state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount // unit
                high = state.max_completion_betting_or_raising_to_amount // unit
                amount = rng.choice([low, high, rng.randint(low, high)])
                state.complete_bet_or_raise_to(amount * unit)
            else:
                state.check_or_call()
        else:
            raise AssertionError(f"PokerKit stopped with nothing to do: {state}")
    in_hand = sum(1 for out in outcome.folded if not out)
    for player in range(seats):
        seat = (player + 1) % seats
        outcome.contributions[seat] = state.starting_stacks[player] - state.stacks[player]
        if in_hand > 1 and not outcome.folded[seat]:
            outcome.ranks[seat] = evaluate([*holes[player], *board])
    while state.can_push_chips():
        state.push_chips()
    for player in range(seats):
        outcome.payoffs[(player + 1) % seats] = state.payoffs[player]
    return outcome


def test_payoffs_equal_pokerkit() -> None:
    counts = {"hands": 0, "showdowns": 0, "side pots": 0, "split pots": 0, "odd chips": 0}
    may_differ = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PokerKit warns when it burns chips or bends a rule
        for seed in range(1_000):
            rng = random.Random(seed)
            seats = 2 + seed % 5
            stacks = [rng.choice([rng.randint(1, 12), rng.randint(1, 150)]) for _ in range(seats)]
            whole = play(seed, seats, stacks, 1)
            scaled = play(seed, seats, stacks, SCALE)
            assert scaled.contributions == [c * SCALE for c in whole.contributions], seed
            assert scaled.folded == whole.folded, seed

            args = (whole.contributions, whole.folded, whole.ranks)
            exact = exact_pot_deltas(*args)
            assert [Fraction(p, SCALE) for p in scaled.payoffs] == list(exact), (seed, args)

            pots = side_pots(whole.contributions, whole.folded)
            shares = chip_shares(*args)
            odd = [
                pot.amount % len(winners)
                for pot, winners in _pot_winners(pots, whole.ranks)
                if len(winners) > 1
            ]
            if any(chips >= 2 for chips in odd):
                may_differ += 1
                assert sum(shares) == sum(whole.contributions)
            else:
                assert list(pot_deltas(*args)) == whole.payoffs, (seed, args)
            counts["hands"] += 1
            counts["showdowns"] += whole.folded.count(False) > 1
            counts["side pots"] += len(pots) > 1
            counts["split pots"] += bool(odd)
            counts["odd chips"] += any(odd)
    # The random hands must reach the cases the test is about.
    assert counts["showdowns"] > 500, counts
    assert counts["side pots"] > 300, counts
    assert counts["split pots"] > 150, counts
    assert counts["odd chips"] > 30, counts
    assert may_differ < counts["odd chips"], (may_differ, counts)


def _pot_winners(pots: Any, ranks: list[int | None]) -> list[tuple[Any, list[int]]]:
    """Each pot with its winning seats (the best rank among its eligible seats)."""
    result = []
    for pot in pots:
        known = {seat: ranks[seat] for seat in pot.eligible}
        if len(known) == 1 or None in known.values():
            result.append((pot, list(known)))
            continue
        best = max(rank for rank in known.values() if rank is not None)
        result.append((pot, [seat for seat, rank in known.items() if rank == best]))
    return result
