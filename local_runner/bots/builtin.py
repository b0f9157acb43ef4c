"""Reference opponents, played in-process: ``builtin:NAME`` on the command line.

Each is a plain :class:`sdk.Bot`; they are fast, deterministic given their seed,
and handle every variant (bids and discards included).  ``equity`` and ``range``, the upper
rungs of the reference ladder, live in :mod:`local_runner.bots`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from mypy_extensions import mypyc_attr

from sdk.actions import (
    Action,
    ActionType,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.rules import RANKS
from sdk.states import GameState, RoundState

__all__ = ["BUILTIN_BOTS", "CheckCallBot", "ChumpBot", "RaiseBot", "RandomBot", "make_builtin"]


def _lowest_card(round_state: RoundState) -> DiscardAction:
    """Discard the lowest-ranked hole card (Toss Hold'em); the first of equal ranks."""
    hand = round_state.hands[round_state.actor]
    ranks = [RANKS.index(card[0]) for card in hand]
    return DiscardAction(ranks.index(min(ranks)))


# Subclassed outside the compiled engine: bot authors' tests extend the built-in bots.
@mypyc_attr(allow_interpreted_subclasses=True)
class CheckCallBot(Bot):
    """The calling station: checks when it can, calls otherwise, never folds or raises.

    In an auction it bids its whole stack.  A calling station pays any price to see the
    next card, and in a sealed second-price auction the bid is exactly the most one will
    pay (the winner pays the other's bid), so "call any price" is a bid of everything.
    (It used to bid 0, which is a bot that never pays; against ``random``, which bids a
    uniform share of its stack, that handed the third card away every hand.)  Like the
    rest of its play the bid is card-blind.  In Toss Hold'em it discards its first card.
    """

    masked_view = True  # the kit's own bots rely on the states' values only

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Check, else call; bid the whole stack in an auction; discard the first hole card."""
        legal = round_state.legal_actions()
        if CheckAction in legal:  # a check is never offered beside a bid or a discard
            return _CHECK
        if BidAction in legal:
            return BidAction(round_state.bid_bounds()[1])
        if DiscardAction in legal:
            return DiscardAction(0)
        return _CALL


_FOLD: frozenset[ActionType] = frozenset({FoldAction})
# The actions without a field, made once: a frozen dataclass costs a call to build, and the
# built-in bots answer most decisions with one of these (actions are immutable values).
_CHECK, _CALL, _FOLD_ACTION = CheckAction(), CallAction(), FoldAction()


@cache
def _in_name_order(legal: frozenset[ActionType]) -> tuple[ActionType, ...]:
    """The action types the random bot picks from, in a fixed order so that a seeded bot is
    reproducible: the legal ones, less a fold when a check is free (it never folds then)."""
    if FoldAction in legal and CheckAction in legal:
        legal = legal - _FOLD
    return tuple(sorted(legal, key=lambda cls: cls.__name__))


class RandomBot(Bot):
    """Picks a legal action type uniformly, then a uniform legal amount.

    Folds only when facing a bet, like the MIT reference random bot.
    """

    masked_view = True  # the kit's own bots rely on the states' values only

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """A uniformly random legal action."""
        rng = self.rng
        legal = round_state.legal_actions()
        if BidAction in legal:
            low, high = round_state.bid_bounds()
            return BidAction(rng.randint(low, high))
        if DiscardAction in legal:
            return DiscardAction(rng.choice(round_state.discard_indices()))
        # A free check: never fold (Bounty Hold'em would allow it); _in_name_order drops it.
        kind = rng.choice(_in_name_order(legal))
        if kind is RaiseAction:
            low, high = round_state.raise_bounds()
            return RaiseAction(rng.randrange(low, high + 1))  # randint(low, high), one call fewer
        if kind is FoldAction:
            return _FOLD_ACTION
        return _CALL if kind is CallAction else _CHECK


class RaiseBot(Bot):
    """Raises the minimum whenever it may, otherwise calls or checks; bids a tenth of its
    stack; discards its lowest card."""

    masked_view = True  # the kit's own bots rely on the states' values only

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """A min-raise when legal, else check or call."""
        legal = round_state.legal_actions()
        if BidAction in legal:
            return BidAction(round_state.bid_bounds()[1] // 10)
        if DiscardAction in legal:
            return _lowest_card(round_state)
        if RaiseAction in legal:
            return RaiseAction(round_state.raise_bounds()[0])
        return CheckAction() if CheckAction in legal else CallAction()


class ChumpBot(Bot):
    """The ACPC server's example player, the "chump" its submission check plays against.

    Facing a bet it folds with weight 6, calls with 47 and raises with 47 (weights over
    the legal actions only: no fold when a check is free); a no-limit raise is to a
    uniformly random legal amount.  Bids 0 in an auction.
    """

    masked_view = True  # the kit's own bots rely on the states' values only

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """A weighted random action, as the ACPC example player chooses."""
        legal = round_state.legal_actions()
        if BidAction in legal:
            return BidAction(0)
        passive: Action = CallAction() if CallAction in legal else CheckAction()
        choices: list[tuple[float, Action | None]] = [(0.47, passive)]
        if FoldAction in legal and round_state.continue_cost > 0:
            choices.append((0.06, FoldAction()))
        if RaiseAction in legal:
            choices.append((0.47, None))  # the amount is drawn below
        chosen = self.rng.choices([c for _, c in choices], [w for w, _ in choices])[0]
        if chosen is None:
            low, high = round_state.raise_bounds()
            return RaiseAction(self.rng.randint(low, high))
        return chosen


def _equity(seed: int) -> Bot:
    from .equity import EquityBot  # eval7 and the tables load only when asked for

    return EquityBot(seed)


def _range(seed: int) -> Bot:
    from .range_bot import RangeBot

    return RangeBot(seed)


BUILTIN_BOTS: dict[str, Callable[[int], Bot]] = {
    "checkcall": lambda seed: CheckCallBot(),
    "random": lambda seed: RandomBot(seed),
    "chump": lambda seed: ChumpBot(seed),
    "raise": lambda seed: RaiseBot(),
    "equity": _equity,
    "range": _range,
}


def make_builtin(name: str, seed: int) -> Bot:
    """A new built-in bot called ``name`` (one of :data:`BUILTIN_BOTS`)."""
    try:
        factory = BUILTIN_BOTS[name]
    except KeyError:
        raise ValueError(
            f"There is no built-in bot called {name!r}; "
            f"choose one of: {', '.join('builtin:' + n for n in BUILTIN_BOTS)}."
        ) from None
    return factory(seed)
