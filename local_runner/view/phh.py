"""Hand histories in PHH, the TOML format PokerKit reads (``uoftcprg/phh-std``).

Every hand of a run becomes one table of a ``.phhs`` file (tables named by hand
number), which ``pokerkit.HandHistory.loads_all`` reads.  PHH lists players in
*position* order: in heads-up ``p1`` is the big blind and ``p2`` the dealer
(the kit's seat 1 and seat 0); in general position ``i`` is seat ``(i + 1) % n``.

What PHH has no words for travels in user fields (their names start with an
underscore, as the standard asks), so every file still loads:

* ``_variant``: the kit's variant (``nlhe``, ``swap``, ``auction``, ``bounty``),
  and ``_seed``: the match seed.
* ``_swaps``: Swap Hold'em card changes, ``{player, street, old, new}``.  The
  ``sm`` (show) action at a showdown shows the cards the player ended with.
* ``_auction``: Auction Hold'em bids per position, the winners and their third
  cards.  Bids and the third card are not PHH actions, so PokerKit replays the
  betting without them.
* ``_bounties`` and ``_bounty_hits``: Bounty Hold'em ranks and hits per position.
* ``_values``: Permuted Hold'em's order of the card values (the true value of each
  printed rank, 2 to A), which ranked the showdown.
* ``_faults``: the hand's faults, ``{player, kind, detail}``.

``finishing_stacks`` are always what the kit paid.  For no-limit hold'em PokerKit
replays every hand to exactly those stacks (a test checks thousands of hands); for
the variants its hold'em replay can differ, by the swaps, auction payments,
bounties and value orders recorded in the user fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sdk.actions import BidAction, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.games import streets_of
from sdk.rules import Rules
from sdk.states import TerminalState

from ..runs.errors import RunError
from ..runs.reader import Run
from .timeline import Walk, walk

__all__ = ["hand_to_phh", "phh_cannot_hold", "position_seats", "write_phhs"]

_STREET_CARDS = {3: slice(0, 3), 4: slice(3, 4), 5: slice(4, 5)}


def position_seats(seats: int) -> list[int]:
    """The kit's seat at each PHH/ACPC position: position ``i`` is seat ``(i + 1) % n``."""
    return [(i + 1) % seats for i in range(seats)]


def _toml(value: Any) -> str:
    """A TOML value: JSON's escapes for text are TOML's too."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")


def _board_actions(board: Sequence[str], start: int, end: int) -> list[str]:
    """``d db`` actions dealing the streets after ``start`` up to ``end`` (board sizes)."""
    return [
        "d db " + "".join(board[_STREET_CARDS[street]])
        for street in (3, 4, 5)
        if start < street <= end
    ]


def _auction_payment(w: Walk, seat: int) -> int:
    """What ``seat`` paid in the auction (0 without one): the chips its stack lost to it."""
    for index, state in enumerate(w.before):
        after = w.after[index]
        if state.auction and not isinstance(after, TerminalState) and not after.auction:
            return state.stacks[seat] - after.stacks[seat]
    return 0


def _antes(w: Walk, seats: list[int]) -> list[int]:
    """The auction payments as antes; PokerKit, like PHH, lists heads-up antes in reverse."""
    antes = [_auction_payment(w, s) for s in seats]
    return antes[::-1] if len(seats) == 2 else antes


def _raise_to(w: Walk, index: int, amount: int) -> int:
    """The PHH amount of a raise to ``amount``.

    The kit caps a raise at what the opponent can call; PokerKit lets a player
    bet its whole stack and returns the excess.  When the kit's cap is below
    the raiser's stack (stacks differ only after an auction) the capped raise
    can be shorter than PokerKit's minimum, so it is written as the whole stack,
    which PokerKit settles the same way.
    """
    state = w.before[index]
    seat = state.actor
    all_in = state.pips[seat] + state.stacks[seat]
    no_limit = state.rules.limit is None  # a limit raise is one fixed size, never capped so
    if no_limit and amount == state.raise_bounds()[1] and amount < all_in:
        return all_in
    return amount


def phh_actions(w: Walk) -> list[str]:
    """The PHH ``actions`` of a replayed hand."""
    hand = w.hand
    seats = position_seats(hand.seats)
    label = {seat: f"p{position + 1}" for position, seat in enumerate(seats)}
    actions = [f"d dh {label[seat]} {''.join(hand.hole_cards[seat])}" for seat in seats]
    street = 0
    for index, record in enumerate(hand.actions):
        action = record.action
        if isinstance(action, BidAction) or w.only_move(index) or w.nobody_can_bet(index):
            # No PHH form / PokerKit plays no action where nobody can bet (a bounty seat's
            # fold there ends the hand in the kit only: the finishing stacks are the kit's).
            continue
        if record.street != street:
            actions += _board_actions(w.last.board, street, record.street)
            street = record.street
        who = label[record.seat]
        if isinstance(action, RaiseAction):
            actions.append(f"{who} cbr {_raise_to(w, index, action.amount)}")
        elif isinstance(action, (CallAction, CheckAction)):
            actions.append(f"{who} cc")
        elif isinstance(action, FoldAction):
            actions.append(f"{who} f")
    if hand.showdown:
        # PokerKit shows down as soon as nobody can bet, before the rest of the board.
        actions += [
            f"{label[seat]} sm {''.join(w.last.hands[seat][:2])}"
            for seat in seats
            if not w.last.folded[seat]
        ]
    actions += _board_actions(w.last.board, street, len(w.last.board))
    return actions


def hand_to_phh(w: Walk, rules: Rules, seed: int) -> dict[str, Any]:
    """The PHH fields of a replayed hand, in the standard's order, user fields last."""
    hand = w.hand
    seats = position_seats(hand.seats)
    names = [hand.players[s] for s in seats]
    start = rules.starting_stack
    betting: dict[str, Any] = {"variant": "NT", "min_bet": rules.big_blind}
    if rules.limit is not None:  # fixed-limit hold'em: PHH's "FT", a small and a big bet
        betting = {
            "variant": "FT",
            "small_bet": rules.limit.raise_sizes[0],
            "big_bet": rules.limit.raise_sizes[2],
        }
    fields: dict[str, Any] = {
        "variant": betting["variant"],
        "antes": _antes(w, seats),
        "blinds_or_straddles": [rules.small_blind, rules.big_blind] + [0] * (hand.seats - 2),
        **{key: value for key, value in betting.items() if key != "variant"},
        "starting_stacks": [start] * hand.seats,
        "actions": phh_actions(w),
        "hand": hand.number,
        "players": names,
        "finishing_stacks": [start + hand.deltas[s] for s in seats],
        "_variant": rules.variant,
        "_seed": seed,
    }
    position = {seat: i for i, seat in enumerate(seats)}
    if hand.swaps:
        fields["_swaps"] = [
            {
                "player": f"p{position[s.seat] + 1}",
                "street": s.street,
                "old": list(s.old),
                "new": list(s.new),
            }
            for s in hand.swaps
        ]
    if hand.auction is not None:
        fields["_auction"] = {
            "bids": [hand.auction.bids[s] for s in seats],
            "winners": [f"p{position[s] + 1}" for s in hand.auction.winners],
            "cards": [hand.final_hands[s][2] for s in hand.auction.winners],
        }
    if hand.bounties is not None:
        fields["_bounties"] = [hand.bounties[s] or "" for s in seats]
    if hand.bounty_hits is not None:
        fields["_bounty_hits"] = [bool(hand.bounty_hits[s]) for s in seats]
    if hand.values is not None:
        fields["_values"] = hand.values
    if hand.faults:
        fields["_faults"] = [
            {"player": f"p{position[f.seat] + 1}", "kind": f.kind, "detail": f.detail}
            for f in hand.faults
        ]
    return fields


def dumps_table(number: int, fields: dict[str, Any]) -> str:
    """One hand as a ``.phhs`` table."""
    lines = [f"[{number}]"]
    lines += [f"{key} = {_toml(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


def phh_cannot_hold(rules: Rules) -> str | None:
    """What of ``rules``' game PHH has no form for (None: PHH holds it): Toss Hold'em's
    three hole cards and discards, River of Blood's boards past the river."""
    if rules.discard:
        return "three hole cards and discards"
    if streets_of(rules)[-1].more is not None:
        return "boards past the river"
    return None


def write_phhs(run: Run, path: Path, hands: Iterable[int] | None = None) -> int:
    """Write the run's hands (all, or the numbers in ``hands``) to ``path``; returns the count.

    :class:`RunError` for a Toss Hold'em run (three hole cards and discards) and a River of
    Blood run (boards past the river): PHH has no form for them that PokerKit could replay.
    """
    missing = phh_cannot_hold(run.rules)
    if missing is not None:
        raise RunError(
            f"{run.directory} is a {run.variant} match; PHH has no form for {missing}, so it "
            "cannot be exported. Read it with `pokerbots replay` or `pokerbots report` instead."
        )
    wanted = None if hands is None else set(hands)
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for hand in run.hands():
            if wanted is not None and hand.number not in wanted:
                continue
            if count:
                out.write("\n")
            out.write(
                dumps_table(hand.number, hand_to_phh(walk(hand, run.rules), run.rules, run.seed))
            )
            count += 1
    return count
