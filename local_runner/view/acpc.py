"""ACPC dealer logs (``.log``) from a no-limit hold'em run.

The ACPC dealer writes one line per hand::

    STATE:<hand from 0>:<betting>:<hole cards by position>/<board>:<values>:<names>

with positions as in the ACPC protocol (in heads-up, position 0 is the big
blind: the kit's seat 1), raises as ``r<chips put in over the whole hand>``,
calls and checks as ``c``, folds as ``f``, and ``/`` between streets.  Values
and names are in position order, so the names alternate from hand to hand.
Comment lines start with ``#``; a final ``SCORE`` line gives each player's
total in the order the players were named.

Only hold'em runs convert: swaps, auctions and bounties have no ACPC form.
"""

from __future__ import annotations

from pathlib import Path

from sdk.actions import BidAction, CallAction, CheckAction, FoldAction, RaiseAction

from .phh import position_seats
from .runlog import Run, RunError
from .timeline import Walk, walk

__all__ = ["ACPC_VARIANTS", "hand_to_acpc", "write_acpc_log"]

#: Variants with an ACPC form.
ACPC_VARIANTS = frozenset({"nlhe"})


def _betting(w: Walk) -> str:
    streets: list[str] = [""]
    street = 0
    for index, record in enumerate(w.hand.actions):
        action = record.action
        if w.only_move(index) or isinstance(action, BidAction):
            continue  # the ACPC dealer asks nobody when nobody can bet
        while street < record.street:
            streets.append("")
            street = 3 if street == 0 else street + 1
        state = w.before[index]
        if isinstance(action, RaiseAction):
            # ACPC counts a raise over the whole hand; the kit over the street.
            seat = state.button % 2
            before_street = state.contributions[seat] - state.pips[seat]
            streets[-1] += f"r{before_street + action.amount}"
        elif isinstance(action, (CallAction, CheckAction)):
            streets[-1] += "c"
        elif isinstance(action, FoldAction):
            streets[-1] += "f"
    board_streets = {0: 1, 3: 2, 4: 3, 5: 4}[len(w.last.board)]
    while len(streets) < board_streets:  # an all-in: the board is dealt without betting
        streets.append("")
    return "/".join(streets)


def hand_to_acpc(w: Walk) -> str:
    """The ``STATE`` line of a replayed hand."""
    hand = w.hand
    seats = position_seats(hand.seats)
    holes = "|".join("".join(hand.hole_cards[s]) for s in seats)
    board = w.last.board
    parts = [board[:3], board[3:4], board[4:5]]
    cards = holes + "".join("/" + "".join(p) for p in parts if p)
    values = "|".join(str(hand.deltas[s]) for s in seats)
    names = "|".join(hand.players[s] for s in seats)
    return f"STATE:{hand.number - 1}:{_betting(w)}:{cards}:{values}:{names}"


def write_acpc_log(run: Run, path: Path) -> int:
    """Write the run as an ACPC dealer log at ``path``; returns the number of hands.

    :class:`RunError` for a variant with no ACPC form, or player names the
    format cannot hold (``:``, ``|`` or spaces).
    """
    if run.variant not in ACPC_VARIANTS:
        raise RunError(
            f"{run.directory} is a {run.variant} match; ACPC logs can only hold no-limit "
            "hold'em (swaps, auctions and bounties have no ACPC form). Export it as PHH "
            "instead: --format phh."
        )
    for name in run.names:
        if not name or any(c in name for c in ":| \t\r\n"):
            raise RunError(f"The player name {name!r} cannot appear in an ACPC log (it may not "
                           "hold ':', '|' or spaces); rename the bot directory and re-run.")
    rules = run.rules
    totals = dict.fromkeys(run.names, 0)
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(f"# name/game/hands/seed {run.directory.name} nolimit-holdem-2p "
                  f"{run.summary.get('rounds', '?')} {run.seed}\n"
                  f"# pokerbots-kit export: stacks {rules.starting_stack}, blinds "
                  f"{rules.small_blind}/{rules.big_blind}, stacks reset every hand\n")  # fmt: skip
        for hand in run.hands():
            out.write(hand_to_acpc(walk(hand, rules)) + "\n")
            for name, delta in zip(hand.players, hand.deltas, strict=True):
                totals[name] = totals.get(name, 0) + delta
            count += 1
        out.write("SCORE:" + "|".join(str(totals[n]) for n in run.names) + ":"
                  + "|".join(run.names) + "\n")  # fmt: skip
    return count
