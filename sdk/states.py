"""Game and round state: the one betting state machine of the kit.

The engine steps :class:`RoundState` with full information (every hand, the
board as it is dealt); a bot's client steps the very same class with its partial
view (the opponents' cards unknown until showdown).  Cards never enter
``proceed``: the dealer (or, on the client side, the engine's messages) puts
them in with :meth:`RoundState.with_board`, :meth:`RoundState.with_hand` and
:meth:`RoundState.with_auction_result`.

Seats are numbered from the button: seat 0 is the button (the dealer).  Heads-up
the button posts the small blind and seat 1 the big blind; with more seats, seats 1
and 2 post them.  Preflop the seat after the big blind acts first, on later
streets the seat after the button (heads-up: the dealer first preflop, the big
blind first later).  Streets are numbered by the number of board cards: 0, 3, 4, 5.
Which streets a game has, what is asked on each and who opens it are not spelt here: the
machine reads the game's declaration (:mod:`sdk.variants`, through
:func:`sdk.games.streets_of`) as a schedule computed once per rules object.

Toss Hold'em (``rules.discard``, MIT 2026) numbers its streets the same way: 0, then 2
(two board cards: the big blind discards a hole card onto the board, the small blind
acknowledges with a check), 3 (the small blind discards, the big blind acknowledges), 4
(betting resumes, big blind first), 5 (turn) and 6 (river).  On a discard street the
street's first actor (``opener``) may only discard and the other seat may only check;
``button`` follows the MIT 2026 engine there (it is the seat to act).

``actor`` is the seat to act.  ``button`` counts the actions of the current
street (0 at the start of preflop, 1 at the start of a later street), as in the
MIT skeleton, where the seat to act is ``button % 2``; that still holds heads-up.
A street ends when the turn would come back to ``opener``: the last seat that
bet or raised, or the street's first actor when nobody has.

The module-level constants hold the current process's match parameters: those
the runner handed over in ``POKERBOTS_RULES``, else the no-limit defaults.
Prefer ``round_state.rules``, which is always right for the hand at hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import NamedTuple, TypeGuard

from .actions import (
    HIDDEN_BID,
    HIDDEN_RANK,
    Action,
    ActionType,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from .declaration import Street
from .games import streets_of
from .payoffs import bounty_hit, hand_deltas
from .pots import pot_deltas
from .rules import Rules, default_rules

__all__ = [
    "BIG_BLIND",
    "GameState",
    "NUM_ROUNDS",
    "RoundState",
    "SMALL_BLIND",
    "STARTING_STACK",
    "State",
    "TOSS_HOLE_CARDS",
    "TerminalState",
]

_RULES = default_rules()
NUM_ROUNDS = _RULES.num_rounds
STARTING_STACK = _RULES.starting_stack
BIG_BLIND = _RULES.big_blind
SMALL_BLIND = _RULES.small_blind

_new_state = tuple.__new__

_BID_ONLY: frozenset[ActionType] = frozenset({BidAction})
_DISCARD_ONLY: frozenset[ActionType] = frozenset({DiscardAction})
_CHECK_ONLY: frozenset[ActionType] = frozenset({CheckAction})
_CHECK_RAISE: frozenset[ActionType] = frozenset({CheckAction, RaiseAction})
_CHECK_FOLD: frozenset[ActionType] = frozenset({CheckAction, FoldAction})
_CHECK_RAISE_FOLD: frozenset[ActionType] = frozenset({CheckAction, RaiseAction, FoldAction})
_FOLD_CALL: frozenset[ActionType] = frozenset({FoldAction, CallAction})
_FOLD_CALL_RAISE: frozenset[ActionType] = frozenset({FoldAction, CallAction, RaiseAction})
#: For each table size and seat, the other seats in the order the turn passes to them.
_SEATS_AFTER = {
    size: tuple(tuple((seat + step) % size for step in range(1, size + 1)) for seat in range(size))
    for size in range(2, 11)
}
#: For each table size and seat, the other seats (in turn order).
_OTHERS = {size: tuple(order[:-1] for order in orders) for size, orders in _SEATS_AFTER.items()}
_ZEROS = {size: (0,) * size for size in range(2, 11)}
#: No bids, no bounty ranks, no bounty hits: a tuple of None per seat.
_NONES: dict[int, tuple[None, ...]] = {size: (None,) * size for size in range(2, 11)}
#: The hole cards a Toss Hold'em seat holds before it discards.
TOSS_HOLE_CARDS = 3
_CHECK, _CALL, _BID_NOTHING = CheckAction(), CallAction(), BidAction(0)

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

    deltas: tuple[int, ...]
    """Each seat's chip change.  At a showdown the dealer fills these in (on a
    bot's side, from the engine's ``D`` clause); until then they are 0."""
    previous_state: RoundState
    """The last round state before the hand ended (its ``folded`` says who folded)."""
    bounty_hits: tuple[bool | None, ...] = (None, None)
    """Per seat: True (hit), False (no hit) or None (unknown or masked).  Bounty Hold'em only."""
    folder: int | None = None
    """The seat whose fold ended the hand, or None when the hand went to showdown."""

    @property
    def bids(self) -> tuple[int | None, ...]:
        """The auction bids of the hand, per seat (Auction Hold'em)."""
        return self.previous_state.bids

    def with_hand(self, seat: int, cards: Cards) -> TerminalState:
        """This terminal state with ``seat``'s hole cards revealed (the ``O`` clause)."""
        return self._replace(previous_state=self.previous_state.with_hand(seat, cards))


class RoundState(NamedTuple):
    """One point of a hand: whose turn it is, the chips, the cards seen so far.

    The first eleven fields are the MIT skeleton's, in its order and meaning (heads-up
    they are pairs); the fields after them generalise the machine to more seats and to
    limit betting.
    """

    button: int
    """Actions so far this street (0 preflop, 1 at a later street's start); heads-up the
    seat to act is ``button % 2``, as in the MIT skeleton."""
    street: int
    """0 (preflop), 3 (flop), 4 (turn) or 5 (river): the number of board cards (Toss
    Hold'em: 0, 2 and 3 (the discards), 4, 5 and 6; each game's declared streets)."""
    pips: tuple[int, ...]
    """Chips each seat has put in on this street."""
    stacks: tuple[int, ...]
    """Chips each seat has behind."""
    hands: tuple[Cards, ...]
    """Each seat's current hole cards; () where unknown (the opponents', to a bot)."""
    board: Cards
    """The board cards dealt so far."""
    previous_state: RoundState | None
    """The state before the last action (None at the start of the hand)."""
    rules: Rules
    """The rules of the match."""
    auction: bool = False
    """True while the auction for a third hole card is open (Auction Hold'em)."""
    bids: tuple[int | None, ...] = (None, None)
    """Auction bids per seat: None before bidding, -1 for a sealed bid not revealed yet."""
    bounties: tuple[str | None, ...] = (None, None)
    """Bounty rank per seat (Bounty Hold'em): to a bot, its own rank and
    :data:`~sdk.actions.HIDDEN_RANK` (``"-1"``) for the opponent's; None in other variants."""
    actor: int = 0
    """The seat to act."""
    opener: int = 0
    """The street ends when the turn comes back to this seat: the last to bet or raise, or
    the street's first actor."""
    folded: tuple[bool, ...] = (False, False)
    """Per seat: whether it has folded."""
    raises: int = 0
    """Bets and raises so far this street (limit betting caps them)."""
    last_raise: int = 0
    """The largest raise increment this street (no-limit: the next raise adds at least
    this much, and at least a big blind)."""

    # -- construction ------------------------------------------------------

    @classmethod
    def new_hand(
        cls,
        rules: Rules,
        hands: Sequence[Cards] | None = None,
        bounties: Sequence[str | None] | None = None,
    ) -> RoundState:
        """The state at the start of a hand: blinds posted, the first seat to act."""
        last = _last_opening  # every hand of a match has the same rules object
        opening = last[1] if last[0] is rules else _opening(rules)
        pips, stacks, nobody, folded, first, nones = opening
        if hands is None:
            hands = nobody
        elif type(hands) is not tuple:
            hands = tuple(hands)
        return _new_state(
            cls,
            (
                0,
                0,
                pips,
                stacks,
                hands,
                (),
                None,
                rules,
                False,
                nones,
                nones if bounties is None else tuple(bounties),
                first,
                first,
                folded,
                0,
                rules.big_blind,
            ),
        )

    def with_board(self, board: Cards) -> RoundState:
        """This state with the board dealt so far (the engine's ``B`` clause)."""
        (
            button,
            street,
            pips,
            stacks,
            hands,
            _,
            previous,
            rules,
            auction,
            bids,
            bounties,
            actor,
            opener,
            folded,
            raises,
            last_raise,
        ) = self
        if type(board) is not tuple:
            board = tuple(board)
        return _new_state(
            RoundState,
            (
                button,
                street,
                pips,
                stacks,
                hands,
                board,
                previous,
                rules,
                auction,
                bids,
                bounties,
                actor,
                opener,
                folded,
                raises,
                last_raise,
            ),
        )

    def with_hand(self, seat: int, cards: Cards) -> RoundState:
        """This state with ``seat``'s hole cards set (a deal, a swap, or a reveal)."""
        hands = list(self.hands)
        hands[seat] = tuple(cards)
        return _new_state(RoundState, (*self[:4], tuple(hands), *self[5:]))

    def with_auction_result(
        self, stacks: tuple[int, int], bids: tuple[int | None, int | None]
    ) -> RoundState:
        """This state with the stacks and bids the engine reports after an auction (``N``)."""
        return self._replace(stacks=(int(stacks[0]), int(stacks[1])), bids=bids)

    # -- questions a bot asks ---------------------------------------------

    @property
    def active(self) -> int:
        """The seat to act."""
        return self.actor

    @property
    def deck(self) -> Cards:
        """The board cards dealt so far (the MIT skeleton's name for them)."""
        return self.board

    @property
    def contributions(self) -> tuple[int, ...]:
        """Chips each seat has put into the pot this hand (blinds, bets and auction payments)."""
        return tuple([self.contribution(seat) for seat in range(len(self.stacks))])

    def contribution(self, seat: int) -> int:
        """Chips ``seat`` has put into the pot this hand: its entry of :attr:`contributions`,
        without making the others (the ACPC wire asks it at every no-limit raise)."""
        return self.rules.starting_stack - self.stacks[seat]

    @property
    def pot(self) -> int:
        """All chips in the pot, this street's pips included."""
        return len(self.stacks) * self.rules.starting_stack - sum(self.stacks)

    @property
    def continue_cost(self) -> int:
        """Chips the seat to act must add to call."""
        return _high(self.pips) - self.pips[self.actor]

    @property
    def in_hand(self) -> tuple[int, ...]:
        """The seats that have not folded (the opponents of seat ``s`` are the others)."""
        return tuple(seat for seat, out in enumerate(self.folded) if not out)

    def legal_actions(self) -> frozenset[ActionType]:
        """The action classes the seat to act may take."""
        (
            _,
            street,
            pips,
            stacks,
            _,
            _,
            _,
            rules,
            auction,
            _,
            _,
            actor,
            opener,
            folded,
            raises,
            _,
        ) = self
        if auction:
            return _BID_ONLY
        if rules.discard and street in _schedule(rules).discards:
            return _DISCARD_ONLY if actor == opener else _CHECK_ONLY
        # A raise needs chips beyond the call, another seat to answer it, and (limit) a
        # bet left under the street's cap.
        if len(pips) == 2:  # heads-up first, spelled out: the common case, once a decision
            other = 1 - actor
            cost = pips[other] - pips[actor]
            if cost < 0:
                cost = 0
            answerable = stacks[other] > 0 and not folded[other]
        else:
            cost = max(pips) - pips[actor]
            answerable = _answerable(stacks, folded, actor)
        if answerable and stacks[actor] > cost:
            limit = rules.limit
            if limit is None or raises < limit.max_raises[_schedule(rules).rounds[street]]:
                if cost:
                    return _FOLD_CALL_RAISE
                return _CHECK_RAISE_FOLD if rules.fold_always_legal else _CHECK_RAISE
        if cost:
            return _FOLD_CALL
        return _CHECK_FOLD if rules.fold_always_legal else _CHECK_ONLY

    def raise_bounds(self) -> tuple[int, int]:
        """The smallest and largest legal raise-to amounts (this street's pip after raising).

        No-limit: the minimum raise adds at least the street's largest raise so far (at
        least a big blind), capped at all-in; nobody may put in more than the deepest
        opponent can call.  Limit: one amount, the bet size over the current bet, capped
        at all-in.
        """
        (_, street, pips, stacks, _, _, _, rules, _, _, _, actor, _, folded, _, last_raise) = self
        deepest = 0  # what the deepest opponent still in could put in on this street
        if len(pips) == 2:  # heads-up first, the common case: one opponent, no loop
            first, second = pips
            high = first if first > second else second
            other = 1 - actor
            if not folded[other]:
                deepest = pips[other] + stacks[other]
        else:
            high = max(pips)
            for seat in _OTHERS[len(pips)][actor]:
                if not folded[seat]:
                    reach = pips[seat] + stacks[seat]
                    if reach > deepest:
                        deepest = reach
        most = pips[actor] + stacks[actor]
        if deepest < most:
            most = deepest
        limit = rules.limit
        if limit is not None:
            size = min(most, high + limit.raise_sizes[_schedule(rules).rounds[street]])
            return (size, size)
        return (min(most, high + max(last_raise, rules.big_blind)), most)

    def bid_bounds(self) -> tuple[int, int]:
        """The smallest and largest legal bids: 0 to the bidder's stack."""
        return (0, self.stacks[self.actor])

    def discard_indices(self) -> tuple[int, ...]:
        """The positions in the seat to act's hand it may discard (Toss Hold'em): 0, 1, 2.

        Empty when the seat to act is not on a discard turn."""
        if DiscardAction not in self.legal_actions():
            return ()
        return tuple(range(len(self.hands[self.actor]) or TOSS_HOLE_CARDS))

    @property
    def is_discard_street(self) -> bool:
        """Whether this is a discard street of Toss Hold'em (2 or 3, as its declaration says)."""
        return self.rules.discard and self.street in _schedule(self.rules).discards

    def is_legal(self, action: Action, legal: frozenset[ActionType] | None = None) -> bool:
        """Whether ``action`` (including its amount) is legal for the seat to act.

        ``legal`` may pass :meth:`legal_actions` when the caller has it already.
        """
        kind = type(action)
        if kind not in (self.legal_actions() if legal is None else legal):
            return False
        if kind is CheckAction or kind is CallAction or kind is FoldAction:
            return True
        # The amounts are read as plain objects (as `repair` reads them): an in-process bot may
        # hand over 4.5 or True, and where this module is compiled (POKERBOTS_COMPILE=1), a
        # field read as `int` would raise rather than answer False.
        if kind is RaiseAction:
            low, high = self.raise_bounds()
            amount = getattr(action, "amount", None)
            return type(amount) is int and low <= amount <= high  # (_whole, spelled out: hot)
        if kind is BidAction:
            low, high = self.bid_bounds()
            amount = getattr(action, "amount", None)
            return _whole(amount) and low <= amount <= high
        if kind is DiscardAction:
            index = getattr(action, "index", None)
            return _whole(index) and index in self.discard_indices()
        return True

    def only_move(self, legal: frozenset[ActionType] | None = None) -> Action | None:
        """The move the seat to act has no choice about (a check when it may only check, a
        bid of 0 with an empty stack), which the engine plays without asking; None when the
        seat has a choice.  ``legal`` may pass :meth:`legal_actions` when the caller has it."""
        legal = self.legal_actions() if legal is None else legal
        if len(legal) != 1:
            return None
        if CheckAction in legal:
            return _CHECK
        if BidAction in legal and self.bid_bounds()[1] == 0:
            return _BID_NOTHING
        return None

    def default_action(self) -> Action:
        """The move for a seat that did not answer properly: check, else fold (or bid 0).

        On a Toss Hold'em discard turn (where only a discard is legal) it is a fold, as on
        the MIT 2026 engine."""
        if self.auction:
            return BidAction(0)
        if self.rules.discard and DiscardAction in self.legal_actions():
            return FoldAction()
        if _high(self.pips) == self.pips[self.actor]:
            return CheckAction()
        return FoldAction()

    def repair(self, action: Action) -> Action:
        """What an illegal ``action`` is played as, by ``rules.on_illegal``.

        ``"check-fold"`` (MIT): :meth:`default_action`.  ``"call"`` (ACPC 2009): a raise or
        bid out of range is clamped to the nearest bound; any other illegal action (a raise
        that is not allowed, a fold when checking is free, a check facing a bet) becomes a
        call, or a check when there is nothing to call.  A legal action is returned as is.
        """
        if self.is_legal(action):
            return action
        if self.rules.on_illegal != "call" or self.is_discard_street:
            # A discard street has no "closest" move: a missed discard folds, an ack checks.
            return self.default_action()
        legal = self.legal_actions()
        amount = getattr(action, "amount", None)
        if type(action) in legal and isinstance(amount, int) and not isinstance(amount, bool):
            low, high = self.bid_bounds() if isinstance(action, BidAction) else self.raise_bounds()
            return type(action)(min(max(amount, low), high))  # type: ignore[call-arg]
        if self.auction:
            return BidAction(0)
        return _CALL if CallAction in legal else _CHECK

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

        ``proceed`` trusts its input: check ``is_legal`` first (or :meth:`repair`) where
        the action comes from somewhere untrusted (the engine does).
        """
        # One unpacking instead of many attribute reads, and `type(...) is` rather than
        # isinstance (actions are final classes): this is the innermost loop of every
        # engine and client.
        (
            button,
            street,
            pips,
            stacks,
            hands,
            board,
            previous,
            rules,
            auction,
            bids,
            bounties,
            actor,
            opener,
            folded,
            raises,
            last_raise,
        ) = self
        kind = type(action)
        if kind is CheckAction:
            pass
        elif kind is CallAction:
            mine, left = pips[actor], stacks[actor]
            put = _high(pips) - mine
            if put > left:  # a short call: all in
                put = left
            pips, stacks = _pay(pips, stacks, actor, mine + put, left - put)
        elif kind is RaiseAction:
            amount: int = action.amount  # type: ignore[union-attr]
            increment = amount - _high(pips)
            if increment > last_raise:
                last_raise = increment
            pips, stacks = _pay(pips, stacks, actor, amount, stacks[actor] - amount + pips[actor])
            opener, raises = actor, raises + 1
        elif kind is FoldAction:
            folded = _put(folded, actor, True)
            if folded.count(False) == 1:
                # The last round state is the one the fold was made in, with the fold marked.
                marked: RoundState = _new_state(
                    RoundState,
                    (
                        button,
                        street,
                        pips,
                        stacks,
                        hands,
                        board,
                        previous,
                        rules,
                        auction,
                        bids,
                        bounties,
                        actor,
                        opener,
                        folded,
                        raises,
                        last_raise,
                    ),
                )
                return marked._fold_win()
        elif kind is BidAction:
            return self._bid(actor, action.amount)  # type: ignore[union-attr]
        elif kind is DiscardAction:
            return self._discard(action.index)  # type: ignore[union-attr]
        else:
            raise TypeError(f"proceed() takes an action, not {action!r}.")
        # The next seat to act, unless the turn comes back to the opener: the street ends.
        # Heads-up that is the other seat or nobody (the actor is the opener, or the other
        # seat is), so the loop is spelled out as one test.
        for seat in (1 - actor,) if len(pips) == 2 else _SEATS_AFTER[len(pips)][actor]:
            if seat == opener:
                break
            # A seat with chips acts; an all-in one only where the rules ask it to check.
            if not folded[seat] and (stacks[seat] > 0 or rules.all_in_checks):
                return _new_state(
                    RoundState,
                    (
                        button + 1,
                        street,
                        pips,
                        stacks,
                        hands,
                        board,
                        self,
                        rules,
                        auction,
                        bids,
                        bounties,
                        seat,
                        opener,
                        folded,
                        raises,
                        last_raise,
                    ),
                )
        if kind is CheckAction:
            # A check closed the street: the next street follows this state directly, as
            # in the MIT skeleton's chain of states (a call or a fold leaves its own state).
            return self._next_street()
        done: RoundState = _new_state(
            RoundState,
            (
                button + 1,
                street,
                pips,
                stacks,
                hands,
                board,
                self,
                rules,
                auction,
                bids,
                bounties,
                actor,
                opener,
                folded,
                raises,
                last_raise,
            ),
        )
        return done._next_street()

    def _step(
        self,
        button: int,
        street: int,
        pips: tuple[int, ...],
        stacks: tuple[int, ...],
        auction: bool,
        bids: tuple[int | None, ...],
        actor: int,
        opener: int,
        folded: tuple[bool, ...],
        raises: int,
        last_raise: int,
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
                bids,
                self.bounties,
                actor,
                opener,
                folded,
                raises,
                last_raise,
            ),
        )

    def _bid(self, active: int, amount: int) -> RoundState:
        """Auction Hold'em (heads-up): a sealed bid; the second one resolves the auction."""
        bids = (amount, self.bids[1]) if active == 0 else (self.bids[0], amount)
        if bids[1 - active] is None:
            return self._step(
                self.button + 1,
                self.street,
                self.pips,
                self.stacks,
                True,
                bids,
                1 - active,
                self.opener,
                self.folded,
                self.raises,
                self.last_raise,
            )
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
        return self._step(1, self.street, self.pips, stacks, False, bids, 1, 1, self.folded, 0, 0)

    def _discard(self, index: int) -> RoundState:
        """Toss Hold'em: the seat to act puts hole card ``index`` face up on the board; the
        other seat acknowledges next (its check ends the street).  A hand unknown to this
        state (an opponent's, on a bot's side) stays unknown: the engine's next board
        clause brings the card."""
        actor, hands, board = self.actor, self.hands, self.board
        hand = hands[actor]
        if hand:
            board = (*board, hand[index])
            hands = _put(hands, actor, (*hand[:index], *hand[index + 1 :]))
        other = 1 - actor
        return _new_state(
            RoundState,
            (
                other,
                self.street,
                self.pips,
                self.stacks,
                hands,
                board,
                self,
                self.rules,
                False,
                self.bids,
                self.bounties,
                other,
                self.opener,
                self.folded,
                self.raises,
                self.last_raise,
            ),
        )

    def board_with_deal(self, dealt: Cards) -> Cards:
        """The board on this street, from the dealt board cards in dealing order (the
        dealer's side).  Usually the first ``street`` of them; in Toss Hold'em the two
        discards sit between the two flop cards and the turn and river."""
        if not self.rules.discard:
            return tuple(dealt[: self.street])
        schedule = _schedule(self.rules)
        first, count = schedule.before_discards, schedule.dealt[self.street]
        discards = self.board[first : first + len(schedule.discards)]
        return (*dealt[:first], *discards, *dealt[first:count])[: self.street]

    @property
    def auction_winners(self) -> tuple[int, ...]:
        """The seats that won the auction's card: both on a tie (after both bids are in)."""
        b0, b1 = self.bids
        if b0 is None or b1 is None:
            return ()
        return (0, 1) if b0 == b1 else ((0,) if b0 > b1 else (1,))

    def _next_street(self) -> State:
        (_, street, pips, stacks, hands, board, _, rules, _, bids, bounties, _, _, folded, _, _) = (
            self
        )
        zeros = _ZEROS[len(pips)]
        schedule = _schedule(rules)
        # The declared street after this one; a repeating street follows itself, one more
        # card each time, and is played only while its condition holds of the board so far.
        after = street + 1 if street >= schedule.repeats_from else schedule.after.get(street)
        if after is not None and after >= schedule.repeats_from:
            more = schedule.more
            if after > schedule.most_board or more is None or not more(board):
                after = None
        if after is None or (not rules.all_in_checks and self._run_out()):
            return _new_state(TerminalState, (zeros, self, self._bounty_hits(), None))
        first = schedule.openers.get(after)
        if first is None:
            # The first seat after the button that can act (not folded; with chips, or MIT).
            first = 1
            for seat in _SEATS_AFTER[len(pips)][0]:
                if not folded[seat] and (stacks[seat] > 0 or rules.all_in_checks):
                    first = seat
                    break
            button = 1
        else:
            button = first  # MIT 2026: on a declared opener's street it counts from there
        return _new_state(
            RoundState,
            (
                button,
                after,
                zeros,
                stacks,
                hands,
                board,
                self,
                rules,
                after in schedule.bids,
                bids,
                bounties,
                first,
                first,
                folded,
                0,
                0,
            ),
        )

    def _run_out(self) -> bool:
        """ACPC (the caller checks ``not all_in_checks``): fewer than two seats can still bet,
        so the board runs out to the showdown."""
        able = sum(1 for seat, out in enumerate(self.folded) if not out and self.stacks[seat] > 0)
        return able < 2

    def _fold_win(self) -> TerminalState:
        """The hand ends: every seat but one has folded (this state has the last fold marked)."""
        hits = self._bounty_hits()
        folded = self.folded
        deltas: tuple[int, ...]
        if len(folded) == 2:
            deltas = hand_deltas(self.rules, self.stacks, folded.index(False), hits)
        else:
            deltas = pot_deltas(self.contributions, folded)
        return _new_state(TerminalState, (deltas, self, hits, self.actor))

    def _bounty_hits(self) -> tuple[bool | None, ...]:
        if self.rules.bounty is None:
            return _NONES[len(self.pips)]
        return tuple(self._hit(seat) for seat in range(len(self.pips)))

    def _hit(self, seat: int) -> bool | None:
        rank = self.bounties[seat]
        if rank is None or rank == HIDDEN_RANK or not self.hands[seat]:
            return None
        return bounty_hit(rank, self.hands[seat], self.board)

    def settle(self, winner: int | None) -> TerminalState:
        """The heads-up showdown result: ``winner`` is the seat with the better hand, or None
        for a tie.

        Used by the dealer, which can evaluate the hands; the payoff (bounty included) is
        the written rules', via :func:`sdk.payoffs.hand_deltas`.
        """
        hits = self._bounty_hits()
        deltas = hand_deltas(self.rules, self.stacks, winner, hits)
        return _new_state(TerminalState, (deltas, self, hits, None))

    def settle_ranks(self, ranks: Sequence[int | None]) -> TerminalState:
        """The showdown result for any number of seats: a rank per seat (higher is better;
        None for a seat that folded), main and side pots as :mod:`sdk.pots` splits them.

        Heads-up this is :meth:`settle` (the bounty payoff included).
        """
        if len(self.pips) == 2:
            first, second = ranks
            if first is None or second is None:
                raise ValueError("A heads-up showdown needs both seats' ranks.")
            return self.settle(None if first == second else (0 if first > second else 1))
        deltas = pot_deltas(self.contributions, self.folded, ranks)
        return TerminalState(deltas, self, self._bounty_hits(), None)


class _Schedule(NamedTuple):
    """A game's streets, as the state machine reads them (computed once per rules object
    from the game's declaration, :func:`sdk.games.streets_of`)."""

    after: dict[int, int]
    """Each street's next declared street (the last declared one has none)."""
    openers: dict[int, int]
    """The streets whose first actor the declaration fixes (Toss Hold'em's second discard)."""
    rounds: dict[int, int]
    """Each street's betting round (0 preflop), for limit betting's sizes and caps."""
    discards: frozenset[int]
    """The streets on which a seat discards (Toss Hold'em)."""
    bids: frozenset[int]
    """The streets that open with the auction's sealed bids (Auction Hold'em)."""
    dealt: dict[int, int]
    """How many of each street's board cards were dealt (not discarded onto the board)."""
    before_discards: int
    """The dealt board cards that lie before the discards on the board."""
    repeats_from: int
    """The board of the street that repeats while ``more`` holds (past any board if none)."""
    more: Callable[[Cards], bool] | None
    """The repeating street's condition on the board so far."""
    most_board: int
    """The most board cards the deck can give after every seat's hole cards."""


def _compute_schedule(streets: tuple[Street, ...], rules: Rules) -> _Schedule:
    """The schedule of ``streets`` (a game's declaration) for ``rules``' table."""
    boards = [street.board for street in streets]
    discarded = 0
    dealt: dict[int, int] = {}
    before_discards = 0
    for street in streets:
        dealt[street.board] = street.board - discarded
        if "discard" in street.asks:
            if not discarded:
                before_discards = dealt[street.board]
            discarded += 1
    last = streets[-1]
    return _Schedule(
        after=dict(pairwise(boards)),
        openers={s.board: s.opener for s in streets if s.opener is not None},
        rounds={board: number for number, board in enumerate(boards)},
        discards=frozenset(s.board for s in streets if "discard" in s.asks),
        bids=frozenset(s.board for s in streets if "bid" in s.asks),
        dealt=dealt,
        before_discards=before_discards,
        repeats_from=last.board if last.more is not None else 1 << 30,
        more=last.more,
        most_board=52 - rules.seats * (TOSS_HOLE_CARDS if rules.discard else 2),
    )


#: The schedule of each rules object seen, by identity (as :data:`_OPENINGS`).
_SCHEDULES: dict[int, tuple[Rules, _Schedule]] = {}


#: The last entry used, checked first (one identity test: a match asks for the same rules
#: street after street); replaced whole, as :data:`_last_opening`.
_last_schedule: tuple[Rules, _Schedule] | None = None


def _schedule(rules: Rules) -> _Schedule:
    """The street schedule of ``rules``' game, computed on first use."""
    global _last_schedule
    entry = _last_schedule
    if entry is not None and entry[0] is rules:
        return entry[1]
    entry = _SCHEDULES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_SCHEDULES) >= 64:  # a long-lived process making rules per hand stays small
            _SCHEDULES.clear()
        entry = _SCHEDULES[id(rules)] = (rules, _compute_schedule(streets_of(rules), rules))
    _last_schedule = entry
    return entry[1]


_Opening = tuple[
    tuple[int, ...], tuple[int, ...], tuple[Cards, ...], tuple[bool, ...], int, tuple[None, ...]
]
#: The opening of each rules object seen, by identity: hashing a Rules (every field) costs
#: more than the rest of ``new_hand``.  The entry keeps its rules object, so an id reused
#: after that object is gone cannot match.
_OPENINGS: dict[int, tuple[Rules, _Opening]] = {}
#: The last entry used, which ``new_hand`` checks first (one identity test; a match asks
#: for the same rules hand after hand).  Replaced whole, so a reader never sees it half set.
_last_opening: tuple[Rules | None, _Opening] = (None, ((), (), (), (), 0, ()))


def _opening(rules: Rules) -> _Opening:
    """What every hand of ``rules`` starts with: pips and stacks after the blinds, no cards,
    nobody folded, the first seat to act (the first after the big blind that can), and
    a None per seat.  Computed once per rules object: it is the same for every hand."""
    global _last_opening
    entry = _OPENINGS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_OPENINGS) >= 64:  # a long-lived process making rules per hand stays small
            _OPENINGS.clear()
        entry = _OPENINGS[id(rules)] = (rules, _compute_opening(rules))
    _last_opening = entry
    return entry[1]


def _compute_opening(rules: Rules) -> _Opening:
    """The opening of ``rules`` (see :func:`_opening`)."""
    seats = rules.seats
    small_seat, big_seat = (0, 1) if seats == 2 else (1, 2)
    start = rules.starting_stack
    pips = [0] * seats
    pips[small_seat] = min(rules.small_blind, start)
    pips[big_seat] = min(rules.big_blind, start)
    stacks = tuple(start - pip for pip in pips)
    folded = (False,) * seats
    first = (big_seat + 1) % seats
    for offset in range(1, seats + 1):  # skip seats the blinds put all in (ACPC)
        seat = (big_seat + offset) % seats
        if rules.all_in_checks or stacks[seat] > 0:
            first = seat
            break
    return tuple(pips), stacks, ((),) * seats, folded, first, _NONES[seats]


def _put(values: tuple[object, ...], index: int, value: object) -> tuple:  # type: ignore[type-arg]
    """``values`` with ``values[index]`` replaced (heads-up first: the common case)."""
    if len(values) == 2:
        return (value, values[1]) if index == 0 else (values[0], value)
    return (*values[:index], value, *values[index + 1 :])


def _pay(
    pips: tuple[int, ...], stacks: tuple[int, ...], seat: int, pip: int, stack: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``pips`` and ``stacks`` with ``seat``'s entries set to ``pip`` and ``stack`` (one call
    for the two tuples a bet changes; heads-up first, the common case)."""
    if len(pips) == 2:
        if seat == 0:
            return (pip, pips[1]), (stack, stacks[1])
        return (pips[0], pip), (stacks[0], stack)
    return (*pips[:seat], pip, *pips[seat + 1 :]), (*stacks[:seat], stack, *stacks[seat + 1 :])


def _high(pips: tuple[int, ...]) -> int:
    """The largest of ``pips`` (the bet to call); ``max`` costs twice as much heads-up."""
    if len(pips) == 2:
        first, second = pips
        return first if first > second else second
    return max(pips)


def _answerable(stacks: tuple[int, ...], folded: tuple[bool, ...], seat: int) -> bool:
    """Whether a seat other than ``seat`` still has chips and has not folded (so could answer
    a raise by ``seat``); heads-up first, the common case."""
    if len(stacks) == 2:
        other = 1 - seat
        return stacks[other] > 0 and not folded[other]
    for other in _OTHERS[len(stacks)][seat]:  # noqa: SIM110 -- any() over a generator: 3x the time
        if stacks[other] and not folded[other]:
            return True
    return False


def _whole(amount: object) -> TypeGuard[int]:
    """Chips are whole numbers: an in-process bot could hand over 4.5, "10" or True."""
    return type(amount) is int


#: Either kind of state a hand can be in.
State = RoundState | TerminalState
