"""More than one opponent (3-player games): who is still in, what each did, equity
against all of them at once.

Heads-up the bots read the hand with :func:`sdk.history.actions_of` and keep one
opponent range.  At a larger table each opponent still in the hand gets its own
:class:`~.ranges.WeightedRange`, and the bots need:

* :func:`opponents_in_hand`: the seats that have not folded, other than ours;
* :func:`seat_actions`: every action of the hand with its seat, read from the chain of
  round states with the state machine's N-seat fields (``actor``, ``folded``), since
  ``actions_of`` reads a heads-up chain;
* :class:`JointDeals` and :func:`field_equity`: our share of the pot against every
  opponent's range together (we must beat all of them), one Monte Carlo run over joint
  deals (one pair per opponent drawn from its weights, one runout) rather than a
  simulation per range hand, reweighted as the ranges change;
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
from .ranges import NUM_COMBOS, WeightedRange, board_ranks

__all__ = ["JointDeals", "fair_share", "field_equity", "opponents_in_hand", "seat_actions"]

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


class JointDeals:
    """A Monte Carlo sample of the whole field: joint deals, and our pot share in each.

    Each deal draws one pair per opponent from its range's weights at the time of drawing
    (all at once, from the weights, not a simulation per range hand), skips a deal whose
    pairs collide with each other, and runs the board out once (on the river it only
    looks each pair's value up, :func:`.ranges.board_ranks`).  Later on the same street
    the ranges change by Bayes' rule; :meth:`equity` then weighs each deal by how much more
    or less likely its pairs have become (importance weights), so one sample serves every
    decision of a street, and a what-if range (the hands that would call a bet) costs a
    pass over the deals rather than a new simulation.
    """

    __slots__ = ("base", "pairs", "shares")

    def __init__(
        self,
        hand: Sequence[str],
        board: Sequence[str],
        ranges: Sequence[WeightedRange],
        samples: int,
        rng: random.Random,
    ) -> None:
        seen = mask_of([*hand, *board])
        #: Per opponent, the weights the pairs were drawn from (pairs using a seen card: 0).
        self.base: list[list[float]] = []
        draws = []
        for opponent in ranges:
            weights = zip(opponent.weights, COMBO_MASK, strict=True)
            live = [0.0 if mask & seen else w for w, mask in weights]
            if sum(live) <= 0.0:
                live = [0.0 if mask & seen else 1.0 for mask in COMBO_MASK]
            self.base.append(live)
            draws.append(rng.choices(_INDICES, weights=live, k=samples))
        #: Per kept deal, each opponent's pair, and our share of the pot in it.
        self.pairs: list[tuple[int, ...]] = []
        self.shares: list[float] = []
        river = len(board) == 5
        ranks = board_ranks(tuple(board)) if river else ()
        deck = [(EVAL7[c], CARD_BIT[c]) for c in ALL_CARDS if not CARD_BIT[c] & seen]
        known = [*to_eval7(hand), *to_eval7(board)]
        shared = to_eval7(board)
        missing = 5 - len(board)
        extra = missing + 2 * len(ranges)  # enough cards to skip the opponents' ones
        ours = evaluate(known) if river else 0
        for pairs in zip(*draws, strict=True):
            used = 0
            for i in pairs:
                if COMBO_MASK[i] & used:
                    break
                used |= COMBO_MASK[i]
            else:
                if river:
                    theirs = [ranks[i] for i in pairs]
                else:
                    runout = [c for c, bit in rng.sample(deck, extra) if not bit & used][:missing]
                    ours = evaluate([*known, *runout])
                    theirs = [evaluate([*EVAL7_COMBOS[i], *shared, *runout]) for i in pairs]
                self.pairs.append(pairs)
                self.shares.append(_share(ours, theirs))

    def equity(
        self,
        ranges: Sequence[WeightedRange],
        factors: Sequence[Sequence[float]] | None = None,
    ) -> float:
        """Our pot share against ``ranges`` (the same opponents, in the same order, as drawn),
        each pair's weight optionally multiplied by ``factors`` (per opponent, per pair)."""
        won = total = 0.0
        base = self.base
        for pairs, share in zip(self.pairs, self.shares, strict=True):
            weight = 1.0
            for k, i in enumerate(pairs):
                weight *= ranges[k].weights[i] / base[k][i]
                if factors is not None:
                    weight *= factors[k][i]
            total += weight
            won += weight * share
        return won / total if total > 0.0 else fair_share(len(ranges) + 1)

    def effective_size(self, ranges: Sequence[WeightedRange]) -> float:
        """How many equally weighted deals the sample is worth against ``ranges`` now (it
        shrinks as Bayes' rule moves the ranges away from what was drawn)."""
        total = square = 0.0
        for pairs in self.pairs:
            weight = 1.0
            for k, i in enumerate(pairs):
                weight *= ranges[k].weights[i] / self.base[k][i]
            total += weight
            square += weight * weight
        return total * total / square if square > 0.0 else 0.0


def _share(ours: int, theirs: Sequence[int]) -> float:
    """Our share of the pot: all of it above every opponent, split with those who tie."""
    best = max(theirs)
    if ours > best:
        return 1.0
    if ours < best:
        return 0.0
    return 1.0 / (1 + sum(1 for value in theirs if value == ours))


def field_equity(
    hand: Sequence[str],
    board: Sequence[str],
    ranges: Sequence[WeightedRange],
    samples: int,
    rng: random.Random,
) -> float:
    """Our share of the pot at showdown against every range in ``ranges`` together: one
    :class:`JointDeals` sample of ``samples`` deals."""
    return JointDeals(hand, board, ranges, samples, rng).equity(ranges)
