"""FROZEN ORACLE: sdk/states.py as it was before the N-seat generalisation (issue 13), kept
unchanged so that tests can compare the new machine with it on random heads-up hands.
Do not edit.

Game and round state: the one betting state machine of the kit.

The engine steps :class:`RoundState` with full information (both hands, the
board as it is dealt); a bot's client steps the very same class with its partial
view (the opponent's cards unknown until showdown).  Cards never enter
``proceed``: the dealer (or, on the client side, the engine's messages) puts
them in with :meth:`RoundState.with_board`, :meth:`RoundState.with_hand` and
:meth:`RoundState.with_auction_result`.

Seats: seat 0 is the dealer (small blind), seat 1 the big blind.  ``button``
counts the actions of the current street (it starts at 0 preflop and at 1
later), and the seat to act is ``button % 2``.  Streets are numbered by the
number of board cards: 0, 3, 4, 5.

The module-level constants hold the current process's match parameters: those
the runner handed over in ``POKERBOTS_RULES``, else the no-limit defaults.
Prefer ``round_state.rules``, which is always right for the hand at hand.
"""

from __future__ import annotations

from typing import NamedTuple

from sdk.actions import (
    HIDDEN_BID,
    HIDDEN_RANK,
    Action,
    ActionType,
    BidAction,
    CallAction,
    CheckAction,
    FoldAction,
    RaiseAction,
)
from sdk.payoffs import bounty_hit, hand_deltas
from sdk.rules import Rules, default_rules

__all__ = [
    "BIG_BLIND",
    "GameState",
    "NUM_ROUNDS",
    "RoundState",
    "SMALL_BLIND",
    "STARTING_STACK",
    "State",
    "TerminalState",
]

_RULES = default_rules()
NUM_ROUNDS = _RULES.num_rounds
STARTING_STACK = _RULES.starting_stack
BIG_BLIND = _RULES.big_blind
SMALL_BLIND = _RULES.small_blind

_new_state = tuple.__new__

_BID_ONLY: frozenset[ActionType] = frozenset({BidAction})
_CHECK_ONLY: frozenset[ActionType] = frozenset({CheckAction})
_CHECK_RAISE: frozenset[ActionType] = frozenset({CheckAction, RaiseAction})
_CHECK_FOLD: frozenset[ActionType] = frozenset({CheckAction, FoldAction})
_CHECK_RAISE_FOLD: frozenset[ActionType] = frozenset({CheckAction, RaiseAction, FoldAction})
_FOLD_CALL: frozenset[ActionType] = frozenset({FoldAction, CallAction})
_FOLD_CALL_RAISE: frozenset[ActionType] = frozenset({FoldAction, CallAction, RaiseAction})

Cards = tuple[str, ...]


class GameState(NamedTuple):
    """The match as a bot sees it between hands."""

    bankroll: int
    """Chips won so far in the match (the sum of this bot's deltas)."""
    game_clock: float
    """Seconds of thinking time left for the rest of the match."""
    round_num: int
    """The number of the current hand, from 1."""


class TerminalState(NamedTuple):
    """A finished hand."""

    deltas: tuple[int, int]
    """Each seat's chip change.  At a showdown the dealer fills these in (on a
    bot's side, from the engine's ``D`` clause); until then they are (0, 0)."""
    previous_state: RoundState
    """The last round state before the hand ended."""
    bounty_hits: tuple[bool | None, bool | None] = (None, None)
    """Per seat: True (hit), False (no hit) or None (unknown or masked).  Bounty Hold'em only."""
    folder: int | None = None
    """The seat that folded, or None when the hand went to showdown."""

    @property
    def bids(self) -> tuple[int | None, int | None]:
        """The auction bids of the hand, per seat (Auction Hold'em)."""
        return self.previous_state.bids

    def with_hand(self, seat: int, cards: Cards) -> TerminalState:
        """This terminal state with ``seat``'s hole cards revealed (the ``O`` clause)."""
        return self._replace(previous_state=self.previous_state.with_hand(seat, cards))


class RoundState(NamedTuple):
    """One point of a hand: whose turn it is, the chips, the cards seen so far."""

    button: int
    """Actions so far this street (0 preflop, 1 at a later street's start); ``button % 2`` acts."""
    street: int
    """0 (preflop), 3 (flop), 4 (turn) or 5 (river): the number of board cards."""
    pips: tuple[int, int]
    """Chips each seat has put in on this street."""
    stacks: tuple[int, int]
    """Chips each seat has behind."""
    hands: tuple[Cards, Cards]
    """Each seat's current hole cards; () where unknown (the opponent's, to a bot)."""
    board: Cards
    """The board cards dealt so far."""
    previous_state: RoundState | None
    """The state before the last action (None at the start of the hand)."""
    rules: Rules
    """The rules of the match."""
    auction: bool = False
    """True while the auction for a third hole card is open (Auction Hold'em)."""
    bids: tuple[int | None, int | None] = (None, None)
    """Auction bids per seat: None before bidding, -1 for a sealed bid not revealed yet."""
    bounties: tuple[str | None, str | None] = (None, None)
    """Bounty rank per seat (Bounty Hold'em): to a bot, its own rank and
    :data:`~sdk.actions.HIDDEN_RANK` (``"-1"``) for the opponent's; None in other variants."""

    # -- construction ------------------------------------------------------

    @classmethod
    def new_hand(
        cls,
        rules: Rules,
        hands: tuple[Cards, Cards] = ((), ()),
        bounties: tuple[str | None, str | None] = (None, None),
    ) -> RoundState:
        """The state at the start of a hand: blinds posted, the dealer to act."""
        small, big, start = rules.small_blind, rules.big_blind, rules.starting_stack
        return cls(
            0,
            0,
            (small, big),
            (start - small, start - big),
            hands,
            (),
            None,
            rules,
            False,
            (None, None),
            bounties,
        )

    def with_board(self, board: Cards) -> RoundState:
        """This state with the board dealt so far (the engine's ``B`` clause)."""
        return _new_state(RoundState, (*self[:5], tuple(board), *self[6:]))

    def with_hand(self, seat: int, cards: Cards) -> RoundState:
        """This state with ``seat``'s hole cards set (a deal, a swap, or a reveal)."""
        hands = (tuple(cards), self.hands[1]) if seat == 0 else (self.hands[0], tuple(cards))
        return _new_state(RoundState, (*self[:4], hands, *self[5:]))

    def with_auction_result(
        self, stacks: tuple[int, int], bids: tuple[int | None, int | None]
    ) -> RoundState:
        """This state with the stacks and bids the engine reports after an auction (``N``)."""
        return self._replace(stacks=(int(stacks[0]), int(stacks[1])), bids=bids)

    # -- questions a bot asks ---------------------------------------------

    @property
    def active(self) -> int:
        """The seat to act."""
        return self.button % 2

    @property
    def deck(self) -> Cards:
        """The board cards dealt so far (the MIT skeleton's name for them)."""
        return self.board

    @property
    def contributions(self) -> tuple[int, int]:
        """Chips each seat has put into the pot this hand (blinds, bets and auction payments)."""
        start = self.rules.starting_stack
        return (start - self.stacks[0], start - self.stacks[1])

    @property
    def pot(self) -> int:
        """All chips in the pot, this street's pips included."""
        return 2 * self.rules.starting_stack - self.stacks[0] - self.stacks[1]

    @property
    def continue_cost(self) -> int:
        """Chips the seat to act must add to call."""
        active = self.button % 2
        return self.pips[1 - active] - self.pips[active]

    def legal_actions(self) -> frozenset[ActionType]:
        """The action classes the seat to act may take."""
        if self.auction:
            return _BID_ONLY
        active = self.button % 2
        cost = self.pips[1 - active] - self.pips[active]
        if cost == 0:
            fold = self.rules.fold_always_legal
            if self.stacks[0] == 0 or self.stacks[1] == 0:
                return _CHECK_FOLD if fold else _CHECK_ONLY
            return _CHECK_RAISE_FOLD if fold else _CHECK_RAISE
        if cost >= self.stacks[active] or self.stacks[1 - active] == 0:
            return _FOLD_CALL
        return _FOLD_CALL_RAISE

    def raise_bounds(self) -> tuple[int, int]:
        """The smallest and largest legal raise-to amounts (this street's pip after raising).

        The minimum raise is the previous bet or raise (at least a big blind),
        capped at all-in; nobody may put in more than the opponent can call.
        """
        active = self.button % 2
        cost = self.pips[1 - active] - self.pips[active]
        max_add = min(self.stacks[active], self.stacks[1 - active] + cost)
        min_add = min(max_add, cost + max(cost, self.rules.big_blind))
        return (self.pips[active] + min_add, self.pips[active] + max_add)

    def bid_bounds(self) -> tuple[int, int]:
        """The smallest and largest legal bids: 0 to the bidder's stack."""
        return (0, self.stacks[self.button % 2])

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` (including its amount) is legal for the seat to act."""
        if type(action) not in self.legal_actions():
            return False
        if isinstance(action, RaiseAction):
            low, high = self.raise_bounds()
            return _whole(action.amount) and low <= action.amount <= high
        if isinstance(action, BidAction):
            low, high = self.bid_bounds()
            return _whole(action.amount) and low <= action.amount <= high
        return True

    def default_action(self) -> Action:
        """The move for a seat that did not answer properly: check, else fold (or bid 0)."""
        if self.auction:
            return BidAction(0)
        if self.pips[0] == self.pips[1]:
            return CheckAction()
        return FoldAction()

    def hand_changed(self, seat: int) -> bool:
        """Whether ``seat``'s hole cards differ from those it was dealt (Swap Hold'em).

        Always False for a seat whose cards are unknown.
        """
        first: RoundState = self
        while first.previous_state is not None:
            first = first.previous_state
        return bool(self.hands[seat]) and set(self.hands[seat]) != set(first.hands[seat])

    # -- the state machine -------------------------------------------------

    def proceed(self, action: Action) -> State:
        """The state after the seat to act takes ``action``.

        ``proceed`` trusts its input: check ``is_legal`` first where the action
        comes from somewhere untrusted (the engine does).
        """
        active = self.button % 2
        pips, stacks = self.pips, self.stacks
        # `type(...) is` rather than isinstance: actions are final classes, and this is
        # the innermost loop of every engine and client.
        if type(action) is CheckAction:
            if (self.street == 0 and self.button > 0) or self.button > 1:
                return self._next_street()
            return self._step(self.button + 1, self.street, pips, stacks, self.auction, self.bids)
        if type(action) is CallAction:
            if self.button == 0:
                # The dealer completes the small blind: the big blind keeps its option.
                cost = pips[1] - pips[0]
                return self._step(1, 0, (pips[1], pips[1]), (stacks[0] - cost, stacks[1]))
            if active == 0:
                cost = pips[1] - pips[0]
                pips, stacks = (pips[1], pips[1]), (stacks[0] - cost, stacks[1])
            else:
                cost = pips[0] - pips[1]
                pips, stacks = (pips[0], pips[0]), (stacks[0], stacks[1] - cost)
            called = self._step(self.button + 1, self.street, pips, stacks)
            return called._next_street()
        if type(action) is RaiseAction:
            amount = action.amount
            if active == 0:
                pips, stacks = (amount, pips[1]), (stacks[0] - amount + pips[0], stacks[1])
            else:
                pips, stacks = (pips[0], amount), (stacks[0], stacks[1] - amount + pips[1])
            return self._step(self.button + 1, self.street, pips, stacks)
        if type(action) is FoldAction:
            return self._fold(active)
        if type(action) is BidAction:
            return self._bid(active, action.amount)
        raise TypeError(f"proceed() takes an action, not {action!r}.")

    def _step(
        self,
        button: int,
        street: int,
        pips: tuple[int, int],
        stacks: tuple[int, int],
        auction: bool = False,
        bids: tuple[int | None, int | None] | None = None,
    ) -> RoundState:
        """The next state, with this one as its history.

        Built with ``tuple.__new__`` rather than ``_replace``: this is the
        engine's innermost loop, and it is several times faster.
        """
        return _new_state(
            RoundState,
            (
                button,
                street,
                pips,
                stacks,
                self.hands,
                self.board,
                self,
                self.rules,
                auction,
                self.bids if bids is None else bids,
                self.bounties,
            ),
        )

    def _bid(self, active: int, amount: int) -> RoundState:
        bids = (amount, self.bids[1]) if active == 0 else (self.bids[0], amount)
        if bids[1 - active] is None:
            return self._step(self.button + 1, self.street, self.pips, self.stacks, True, bids)
        b0, b1 = bids
        assert b0 is not None and b1 is not None
        stacks = self.stacks
        if HIDDEN_BID not in bids:  # a client that cannot see a bid learns the stacks from N
            if b0 == b1:
                stacks = (stacks[0] - b0, stacks[1] - b1)
            elif b0 > b1:
                stacks = (stacks[0] - b1, stacks[1])
            else:
                stacks = (stacks[0], stacks[1] - b0)
        # Betting on the flop follows the auction, big blind first.
        return self._step(1, self.street, self.pips, stacks, False, bids)

    def _next_street(self) -> State:
        if self.street == 5:
            return TerminalState((0, 0), self, self._bounty_hits(), None)
        if self.street == 0:
            return self._step(1, 3, (0, 0), self.stacks, self.rules.auction)
        return self._step(1, self.street + 1, (0, 0), self.stacks)

    def _fold(self, folder: int) -> TerminalState:
        hits = self._bounty_hits()
        winner = 1 - folder
        known = [bool(h) for h in hits]
        return TerminalState(
            hand_deltas(self.rules, self.stacks, winner, known), self, hits, folder
        )

    def _bounty_hits(self) -> tuple[bool | None, bool | None]:
        if self.rules.bounty is None:
            return (None, None)
        return (self._hit(0), self._hit(1))

    def _hit(self, seat: int) -> bool | None:
        rank = self.bounties[seat]
        if rank is None or rank == HIDDEN_RANK or not self.hands[seat]:
            return None
        return bounty_hit(rank, self.hands[seat], self.board)

    def settle(self, winner: int | None) -> TerminalState:
        """The showdown result: ``winner`` is the seat with the better hand, or None for a tie.

        Used by the dealer, which can evaluate both hands; the payoff (bounty
        included) is the written rules', via :func:`sdk.payoffs.hand_deltas`.
        """
        hits = self._bounty_hits()
        deltas = hand_deltas(self.rules, self.stacks, winner, [bool(h) for h in hits])
        return TerminalState(deltas, self, hits, None)


def _whole(amount: object) -> bool:
    """Chips are whole numbers: an in-process bot could hand over 4.5, "10" or True."""
    return type(amount) is int


#: Either kind of state a hand can be in.
State = RoundState | TerminalState
