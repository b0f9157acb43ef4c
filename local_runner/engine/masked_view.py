"""The masked view: the engine's own states of a hand, as one in-process seat may see them.

A bot process learns a hand from MIT messages and its client rebuilds every state by
stepping :class:`sdk.states.RoundState` again (:class:`local_runner.engine.mit_view.MitView`,
:class:`sdk.client.BotClient`).  An in-process bot that opts in
(:attr:`sdk.bot.Bot.masked_view`) is handed instead a copy of the engine's own states with
what the seat may not see taken out, so that no message is made and nothing is stepped
twice.  The copy equals, field for field and down the whole ``previous_state`` chain, what
the client would have rebuilt from the MIT messages (``tests/engine/test_masked_view.py``
holds the two equal in every registered game).  The masking follows the MIT view's
decisions, which are the wire's:

* every other seat's hole cards are ``()`` (heads-up, the opponent's final hand is shown on
  the finished hand's last state after a showdown, the ``O`` clause);
* Bounty Hold'em: the opponent's bounty rank is :data:`~sdk.actions.HIDDEN_RANK`, and the
  finished hand's bounty hits are the ``Y`` clause's (a loser's flag masked);
* Auction Hold'em: an opponent's bid made while the seat's own is not in yet is
  :data:`~sdk.actions.HIDDEN_BID`;
* Toss Hold'em: an opponent's discard reaches the board with the next street's ``B``, not
  on the state in which the seat acknowledges it;
* the finished hand's deltas are the seat's own and, heads-up, its opposite (the ``D``
  clause); at a larger table the others' are 0.

No engine state is reachable from what the view hands over: each masked state is a new
tuple whose ``previous_state`` is the masked copy of the engine's.  The copies are made
lazily, from the last state masked for the seat, so a state is copied at most once per
seat and a seat that is not asked costs nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from sdk.actions import HIDDEN_BID, HIDDEN_RANK
from sdk.rules import Rules
from sdk.states import RoundState, TerminalState

from .mit_view import bounty_hits_shown
from .records import ActionEvent, HandRecord

__all__ = ["MaskedMessage", "MaskedView"]

_new = tuple.__new__


class MaskedMessage(NamedTuple):
    """What :class:`MaskedView` makes for its seat in place of an MIT message."""

    seat: int
    clock: float
    """The seat's game clock, as the ``T`` clause would carry it."""
    opening: RoundState | None
    """The hand's first state, masked, when this is the seat's first message of the hand
    (the bot's ``handle_new_round`` is called with it); else None."""
    state: RoundState | TerminalState
    """The state to act in, or the finished hand (masked)."""
    delta: int
    """The seat's chip change: the finished hand's (0 in a question)."""


class MaskedView:
    """One seat's masked copies of the engine's states (see the module docstring)."""

    __slots__ = (
        "_auction",
        "_bounties_in",
        "_bounties_out",
        "_bounty",
        "_hands_in",
        "_hands_out",
        "_last_in",
        "_last_out",
        "_opening",
        "_record",
        "_seats",
        "_toss",
        "rules",
    )

    def __init__(self, rules: Rules) -> None:
        """A view of matches played with ``rules``."""
        self.rules = rules
        self._seats = rules.seats
        self._bounty = rules.bounty is not None
        self._auction = rules.auction
        self._toss = rules.discard
        self._record: HandRecord | None = None
        self._opening: RoundState | None = None
        self._last_in: RoundState | None = None  # the last engine state masked
        self._last_out: RoundState | None = None  # and its masked copy
        self._hands_in: object = None  # the last engine hands tuple masked
        self._hands_out: tuple[tuple[str, ...], ...] = ()
        self._bounties_in: object = None
        self._bounties_out: tuple[str | None, ...] = ()

    def question(
        self, record: HandRecord, seat: int, state: RoundState, clock: float
    ) -> MaskedMessage:
        """``state``, masked for ``seat``, which must act in it."""
        opening = None
        if record is not self._record:  # the seat's first message of this hand
            self._record, self._last_in = record, None
            masked = self._mask(state, seat)
            opening = self._opening
        else:
            masked = self._mask(state, seat)
        return _new(MaskedMessage, (seat, clock if clock > 0.0 else 0.0, opening, masked, 0))

    def hand_end(self, record: HandRecord, seat: int, clock: float) -> tuple[MaskedMessage, bool]:
        """The finished hand, masked for ``seat``; answered (with ``K``), as on the MIT wire."""
        terminal = record.terminal
        assert terminal is not None, "the engine keeps each hand's last state on its record"
        opening = None
        if record is not self._record:  # the seat was never asked in this hand
            # Its handle_new_round is shown the hand's first state: the state of the first
            # action (a fold in it leaves a marked copy in the last state's history instead).
            self._last_in = None
            first = next(event.state for event in record.events if type(event) is ActionEvent)
            opening = self._mask(first, seat)
        last = self._mask(terminal.previous_state, seat)
        self._record, self._last_in, self._last_out = None, None, None  # the hand is over
        seats = self._seats
        amount = record.deltas[seat]
        deltas: tuple[int, ...]
        hits: tuple[bool | None, ...]
        if seats == 2:
            other = 1 - seat
            if record.showdown:  # the O clause: the opponent's final hand, on the last state
                last = last.with_hand(other, record.final_hands[other])
            deltas = (amount, -amount) if seat == 0 else (-amount, amount)
        else:
            deltas = tuple([amount if index == seat else 0 for index in range(seats)])
        if self._bounty:
            mine, theirs = bounty_hits_shown(record, seat)
            hits = (mine, theirs) if seat == 0 else (theirs, mine)
        else:
            hits = (None,) * seats
        masked = _new(TerminalState, (deltas, last, hits, terminal.folder))
        clock = clock if clock > 0.0 else 0.0
        return _new(MaskedMessage, (seat, clock, opening, masked, amount)), True

    def hold(self, record: HandRecord, seat: int) -> None:
        """Never called: an in-process seat is never busy, so no hand's end waits for it."""
        raise NotImplementedError("an in-process seat is never sent a hand's end late")

    def _mask(self, state: RoundState, seat: int) -> RoundState:
        """The masked copy of ``state`` and of every state before it not yet copied."""
        last_in = self._last_in
        if state is last_in:
            assert self._last_out is not None
            return self._last_out
        if last_in is not None and state.previous_state is last_in:  # one new state: no list
            one = self._mask_one(state, self._last_out, seat)
            self._last_in, self._last_out = state, one
            return one
        chain = []
        step: RoundState | None = state
        while step is not None and step is not last_in:
            chain.append(step)
            step = step.previous_state
        masked = self._last_out if step is not None else None
        for step in reversed(chain):
            masked = self._mask_one(step, masked, seat)
            if step.previous_state is None:  # the hand's first state (handle_new_round's)
                self._opening = masked
        assert masked is not None
        self._last_in, self._last_out = state, masked
        return masked

    def _mask_one(self, state: RoundState, previous: RoundState | None, seat: int) -> RoundState:
        """``state`` masked for ``seat``, its history being ``previous`` (already masked)."""
        (
            button,
            street,
            pips,
            stacks,
            hands,
            board,
            before,
            rules,
            auction,
            bids,
            bounties,
            actor,
            opener,
            folded,
            raises,
            last_raise,
        ) = state
        if hands is not self._hands_in:  # a hand's states mostly share one hands tuple
            self._hands_in = hands
            if len(hands) == 2:
                self._hands_out = (hands[0], ()) if seat == 0 else ((), hands[1])
            else:
                self._hands_out = tuple(
                    [cards if i == seat else () for i, cards in enumerate(hands)]
                )
        if bounties is not self._bounties_in:  # one tuple for the whole hand
            self._bounties_in = bounties
            if self._bounty:  # the G clause carries the seat's own rank only (heads-up)
                own = bounties[seat] or ""
                self._bounties_out = (own, HIDDEN_RANK) if seat == 0 else (HIDDEN_RANK, own)
            else:
                self._bounties_out = bounties
        if self._auction and bids[seat] is None and bids[1 - seat] is not None:
            # A sealed bid: that the opponent bid, not how much, until the seat's own is in.
            bids = (HIDDEN_BID, None) if seat == 1 else (None, HIDDEN_BID)
        if (
            self._toss
            and before is not None
            and previous is not None
            and before.actor != seat
            and before.street == street
            and len(board) > len(before.board)
        ):
            # The opponent's discard: it reaches this seat's board with the next street's B.
            board = previous.board
        return _new(
            RoundState,
            (
                button,
                street,
                pips,
                stacks,
                self._hands_out,
                board,
                previous,
                rules,
                auction,
                bids,
                self._bounties_out,
                actor,
                opener,
                folded,
                raises,
                last_raise,
            ),
        )
