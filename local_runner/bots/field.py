"""More than one opponent (3-player games): who is still in, what each did, equity
against all of them at once.

Heads-up the bots read the hand with :func:`sdk.history.actions_of` and keep one
opponent range.  At a larger table each opponent still in the hand gets its own
:class:`~.ranges.WeightedRange`, and the bots need:

* :func:`opponents_in_hand`: the seats that have not folded, other than ours;
* :func:`seat_actions`: every action of the hand with its seat, read from the chain of
  round states with the state machine's N-seat fields (``actor``, ``folded``), since
  ``actions_of`` reads a heads-up chain;
* :func:`field_equity`: our share of the pot against every opponent's range together
  (we must beat all of them), one Monte Carlo run over joint deals (one pair per
  opponent drawn from its weights, one runout) rather than a simulation per range hand;
  exact per opponent on the river;
* :func:`fair_share`: the equity at which a bet that everyone calls breaks even.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

from sdk.actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.handclass import ALL_CARDS
from sdk.history import PastAction
from sdk.states import RoundState, TerminalState

from .cards import CARD_BIT, COMBO_MASK, EVAL7, EVAL7_COMBOS, mask_of, to_eval7
from .evaluator import evaluate
from .ranges import NUM_COMBOS, WeightedRange, river_equity

__all__ = ["fair_share", "field_equity", "opponents_in_hand", "seat_actions"]

_INDICES = range(NUM_COMBOS)


def opponents_in_hand(state: RoundState, me: int) -> tuple[int, ...]:
    """The seats other than ``me`` that have not folded."""
    return tuple(seat for seat in state.in_hand if seat != me)


def fair_share(players: int) -> float:
    """The equity at which a bet called by everyone still in breaks even: one over the
    number of players (heads-up one half).  A value bet needs more than this against the
    hands that call."""
    return 1.0 / max(1, players)


def _closing(state: RoundState) -> bool:
    """Whether ``state`` only records that its actor's call or fold closed the street.

    The state machine leaves such a state (same street, same actor as the state before
    it) between the closing action and the next street; nobody acts in it.
    """
    before = state.previous_state
    return before is not None and before.actor == state.actor and before.street == state.street


def _action_between(before: RoundState, after: RoundState) -> Action:
    """What ``before.actor`` did to turn ``before`` into ``after`` (no auction, no discard)."""
    seat = before.actor
    if after.folded[seat] and not before.folded[seat]:
        return FoldAction()
    if after.street == before.street and after.pips[seat] > max(before.pips):
        return RaiseAction(after.pips[seat])
    if after.street == before.street and after.pips[seat] > before.pips[seat]:
        return CallAction()
    return CheckAction()


def seat_actions(state: RoundState | TerminalState) -> list[PastAction]:
    """Every betting action of the hand that led to ``state``, oldest first, any table size.

    Reads the state chain as :func:`sdk.history.actions_of` does, but takes the seat from
    ``actor`` and folds from ``folded``, so it holds for three seats and more.  The last
    action of a finished hand (a fold, or the check or call that closed the river) is
    included for a :class:`~sdk.states.TerminalState`.
    """
    last = state.previous_state if isinstance(state, TerminalState) else state
    chain = [last]
    while chain[-1].previous_state is not None:
        previous = chain[-1].previous_state
        assert previous is not None
        chain.append(previous)
    chain.reverse()
    found: list[PastAction] = []
    for before, after in pairwise(chain):
        if _closing(before):
            continue  # the action was read from the state before it
        found.append(PastAction(before.actor, _action_between(before, after), before))
    if isinstance(state, TerminalState):
        if state.folder is not None:
            found.append(PastAction(state.folder, FoldAction(), last))
        elif not _closing(last):
            # A check closed the river (a closing call leaves its own state, read above).
            found.append(PastAction(last.actor, CheckAction(), last))
    return found


def field_equity(
    hand: Sequence[str],
    board: Sequence[str],
    ranges: Sequence[WeightedRange],
    samples: int,
    rng: random.Random,
) -> float:
    """Our share of the pot at showdown against every range in ``ranges`` together.

    One opponent: the usual heads-up equity is not this function's job (the callers use
    :func:`.ranges.equity`).  On the river, the product of the exact equities against each
    range (the opponents' hands treated as independent: they block each other's cards a
    little).  Before it, one Monte Carlo run of ``samples`` joint deals: for each, one pair
    per opponent drawn by its weights (all drawn at once, from cumulative weights) and one
    runout; a deal whose pairs collide is skipped.  Ties share the pot.
    """
    if len(board) == 5:
        share = 1.0
        for opponent in ranges:
            share *= river_equity(hand, board, opponent)
        return share
    seen = mask_of([*hand, *board])
    draws = []
    for opponent in ranges:
        weights = zip(opponent.weights, COMBO_MASK, strict=True)
        live = [0.0 if mask & seen else w for w, mask in weights]
        if sum(live) <= 0.0:
            return fair_share(len(ranges) + 1)
        draws.append(rng.choices(_INDICES, weights=live, k=samples))
    deck = [(EVAL7[card], CARD_BIT[card]) for card in ALL_CARDS if not CARD_BIT[card] & seen]
    known = [*to_eval7(hand), *to_eval7(board)]
    shared = to_eval7(board)
    missing = 5 - len(board)
    extra = missing + 2 * len(ranges)  # enough cards to skip the opponents' ones
    won = 0.0
    played = 0
    for pairs in zip(*draws, strict=True):
        used = 0
        for i in pairs:
            if COMBO_MASK[i] & used:
                break
            used |= COMBO_MASK[i]
        else:
            runout = [card for card, bit in rng.sample(deck, extra) if not bit & used][:missing]
            ours = evaluate([*known, *runout])
            best = max(evaluate([*EVAL7_COMBOS[i], *shared, *runout]) for i in pairs)
            played += 1
            if ours > best:
                won += 1.0
            elif ours == best:
                # Split with every opponent that ties us.
                tied = sum(
                    1 for i in pairs if evaluate([*EVAL7_COMBOS[i], *shared, *runout]) == ours
                )
                won += 1.0 / (tied + 1)
    return won / played if played else fair_share(len(ranges) + 1)
