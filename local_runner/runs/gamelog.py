"""``gamelog.txt``: the MIT engines' text log of a match (written only: it is their format).

:class:`~.writer.MatchLogWriter` writes it hand by hand with these lines.
``gamelog.txt`` follows the line grammar of the MIT engine of the
variant (``reference/mit-engines.md``, sections 1.10 and 2.2-2.5), so
scrimmage-style parsers read it unchanged.  Where those notes leave the line
order open, it follows the MIT engine sources:

* Bounty: ``Bounties reset ...`` comes right after the ``Round`` line and names
  the players in seat order, ``X hits their bounty`` and ``Winning counts at the
  end of the round: , X (..), Y (..)`` come after the ``awarded`` lines.
* Auction: the ``won the auction`` lines come before the repeated flop line;
  ``Players submitted bids ...`` ends the hand.
* Permuted (MIT 2020): the header's first line is followed by the order of the card values
  (:func:`values_lines`), and every list of cards (dealt, street, shows) is written as
  printed and then, in brackets, as the cards play (``A dealt Kc 3s [Kc 4s]``).

Unlike the MIT engine the gamelog ends with a newline, the header says
``6.9630`` for every variant (2022 said ``6.176``), and the unreliable
``bets EV`` diagnostics are not written.  A writer left without its ``close``
(an exception in the match) leaves the gamelog without its ``Final`` line.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk.actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.games import Street, street_named
from sdk.rules import RANKS, Rules
from sdk.states import RoundState
from sdk.variants.permuted import true_cards

from ..engine.faults import Fault
from ..engine.records import (
    ActionEvent,
    AuctionEvent,
    HandRecord,
    StreetEvent,
    SwapEvent,
)
from ..engine.seating import slots_in_seats

__all__ = ["final_line", "format_fault", "format_hand", "header_line", "values_lines"]

_PLAIN_ACTIONS: dict[type, str] = {
    FoldAction: " folds",
    CallAction: " calls",
    CheckAction: " checks",
}

# Details that already read as the MIT engine's fault lines do.
_MIT_FAULT_PREFIXES = (
    "attempted illegal ",
    "response misformatted",
    "ran out of time",
    "disconnected",
)


def format_fault(name: str, fault: Fault) -> str:
    """The gamelog line of a fault, in MIT wording where there is one.

    >>> from local_runner.engine.faults import FaultKind
    >>> format_fault("A", Fault(FaultKind.TIMEOUT, 3, "ran out of time"))
    'A ran out of time'
    >>> format_fault("B", Fault(FaultKind.CRASH, 3, "exited (signal 9 (SIGKILL))"))
    'B crashed: exited (signal 9 (SIGKILL))'
    """
    detail = fault.detail
    if detail.startswith(_MIT_FAULT_PREFIXES):
        return f"{name} {detail}"
    words = fault.kind.log_words  # otherwise the kind's own words
    return f"{name} {words}: {detail}" if detail else f"{name} {words}"


def _action_line(name: str, action: Action, state: RoundState) -> str:
    # `type(...) is` (actions are final classes) and the plain actions first: once an action.
    plain = _PLAIN_ACTIONS.get(type(action))
    if plain is not None:
        return name + plain
    if type(action) is RaiseAction:
        pips = state.pips
        verb = " bets " if pips[0] == 0 and pips[1] == 0 else " raises to "
        return name + verb + str(action.amount)
    if type(action) is BidAction:
        return f"{name} bids {action.amount}"
    if type(action) is DiscardAction:
        hand = state.hands[state.actor]
        return f"{name} discards {hand[action.index]}"
    raise TypeError(f"{action!r} is not an action.")


def _cards(cards: Sequence[str], values: str | None) -> str:
    """A list of cards: ``[Kc As]``; in Permuted Hold'em as printed, then as they play
    (``Kc 3s [Kc 4s]``)."""
    if values is None:
        return f"[{' '.join(cards)}]"
    return f"{' '.join(cards)} [{' '.join(true_cards(cards, values))}]"


def _street_line(
    names: tuple[str, ...],
    street: Street,
    board: str,
    stacks: tuple[int, ...],
    start: int,
) -> str:
    """A new street: its board (as :func:`_cards` writes it), and what each seat has put in
    (its starting stack less its stack now)."""
    chips = ", ".join(
        f"{name} ({start - stack})" for name, stack in zip(names, stacks, strict=True)
    )
    return f"{street.log_name} {board}, {chips}"


def format_hand(record: HandRecord, rules: Rules) -> list[str]:
    """The gamelog lines of one hand, from its ``Round #`` line on.

    The blank line that precedes each hand in the file is not included.  Pure:
    the same record and rules always give the same lines.
    """
    names = record.players
    seats = range(len(names))
    bounty = rules.bounty
    values = record.values
    chips = ", ".join(f"{n} ({b})" for n, b in zip(names, record.bankrolls_before, strict=True))
    lines = [f"Round #{record.number}, {chips}"]
    if bounty is not None and (record.number - 1) % bounty.period == 0:
        (n0, n1), (r0, r1) = names, record.bounties
        lines.append(f"Bounties reset to {r0} for player {n0} and {r1} for player {n1}")
    small_seat, big_seat = (0, 1) if len(names) == 2 else (1, 2)
    lines += (
        f"{names[small_seat]} posts the blind of {rules.small_blind}",
        f"{names[big_seat]} posts the blind of {rules.big_blind}",
        *(f"{names[seat]} dealt {_cards(record.dealt[seat], values)}" for seat in seats),
    )
    hands = list(record.dealt)
    swapped = [False] * len(names)
    folded = [False] * len(names)
    hands_due = False  # a Flop/Turn line waits for its swaps before the hand lines
    board: tuple[str, ...] = ()
    bids: tuple[int, int] | None = None
    append = lines.append

    def append_hands() -> None:
        for seat in seats:
            append(f"{names[seat]}'s hand: [{' '.join(hands[seat])}]")

    for event in record.events:
        if hands_due and not isinstance(event, SwapEvent):
            append_hands()
            hands_due = False
        if isinstance(event, ActionEvent):
            seat, action = event.seat, event.action
            append(_action_line(names[seat], action, event.state))
            if type(action) is FoldAction:  # (actions are final classes)
                folded[seat] = True
        elif isinstance(event, StreetEvent):
            board = event.board
            street = street_named(rules, event.street)
            shown = _cards(board, values)
            append(_street_line(names, street, shown, event.stacks, rules.starting_stack))
            if bounty is not None or rules.discard:
                append(f"Current stacks: {event.stacks[0]}, {event.stacks[1]}")
            hands_due = street.swaps
        elif isinstance(event, SwapEvent):
            hands[event.seat] = event.new
            swapped[event.seat] = True
        elif isinstance(event, AuctionEvent):
            bids = event.bids
            for seat in event.winners:
                append(f"{names[seat]} won the auction and was dealt [{event.hands[seat][-1]}]")
            s0, s1 = event.stacks
            flop = street_named(rules, 3)
            shown = _cards(board, values)
            append(_street_line(names, flop, shown, event.stacks, rules.starting_stack))
            if bounty is not None:
                append(f"Current stacks: {s0}, {s1}")
        else:
            append(format_fault(names[event.seat], event.fault))
    if hands_due:
        append_hands()
    if record.showdown:
        for seat in seats:
            if not folded[seat]:
                append(f"{names[seat]} shows {_cards(record.final_hands[seat], values)}")
    for seat in seats:
        tag = " (swapped)" if swapped[seat] else ""
        append(f"{names[seat]}{tag} awarded {record.deltas[seat]}")
    if rules.auction:
        if bids is None:
            append("Players did not reach flop. No auction occured.")
        else:
            append(f"Players submitted bids of {bids[0]} and {bids[1]}")
    if bounty is not None:
        for seat in (0, 1):
            if record.bounty_hits[seat]:
                append(f"{names[seat]} hits their bounty")
        (n0, n1), (b0, b1) = names, record.bankrolls_before
        e0, e1 = b0 + record.deltas[0], b1 + record.deltas[1]
        append(f"Winning counts at the end of the round: , {n0} ({e0}), {n1} ({e1})")
    return lines


def header_line(names: Sequence[str]) -> str:
    """The gamelog's first line (the same version number for every variant).

    >>> header_line(("A", "B"))
    '6.9630 MIT Pokerbots - A vs B'
    """
    return f"6.9630 MIT Pokerbots - {' vs '.join(names)}"


def values_lines(values: str) -> list[str]:
    """Permuted Hold'em: the lines after the header that show the match's order of the card
    values, the printed ranks over the values they play as (the MIT 2020 engine's layout;
    the ranks' line starts and ends with a space).

    >>> for line in values_lines("247QJ63589TKA"):
    ...     print(repr(line))
    '---------------------------'
    ' 2 3 4 5 6 7 8 9 T J Q K A '
    '[2 4 7 Q J 6 3 5 8 9 T K A]'
    '---------------------------'
    """
    rule = "-" * 27
    return [rule, f" {' '.join(RANKS)} ", f"[{' '.join(values)}]", rule]


def final_line(names: Sequence[str], bankrolls: Sequence[int], hands_played: int) -> str:
    """The gamelog's ``Final`` line: each player's bankroll (``names`` and ``bankrolls`` in
    the order the players were given), in the seat order after the last hand, as the MIT
    engine writes it: the first player first when an even number of hands was played.

    >>> final_line(("A", "B"), (5, -5), 3)
    'Final, B (-5), A (5)'
    """
    order = slots_in_seats(hands_played + 1, len(names))
    return "Final, " + ", ".join(f"{names[slot]} ({bankrolls[slot]})" for slot in order)
