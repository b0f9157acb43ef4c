"""ACPC dealer logs (``.log``) from a hold'em run (nlhe and the three ACPC games).

The ACPC dealer writes one line per hand::

    STATE:<hand from 0>:<betting>:<hole cards by position>/<board>:<values>:<names>

with positions as in the ACPC protocol (in heads-up, position 0 is the big
blind: the kit's seat 1), no-limit raises as ``r<chips put in over the whole hand>``
and limit raises as ``r``, calls and checks as ``c``, folds as ``f``, and ``/``
between streets, written with the one ACPC codec (:mod:`sdk.acpc`).  Values
and names are in position order, so the names rotate from hand to hand; the values
are the exact shares the dealer computes (a three-way split can give fractions,
which the kit's whole chips settle by its odd-chip rule).
Comment lines start with ``#``; a final ``SCORE`` line gives each player's
total in the order the players were named.

Only hold'em runs convert (:data:`ACPC_VARIANTS`): swaps, auctions, bounties, discards,
runs past the river and a permuted order of values have no ACPC form.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from sdk.acpc import (
    AcpcAction,
    LogState,
    Score,
    action_to_wire,
    board_rounds,
    format_log_state,
    format_score,
)
from sdk.actions import BidAction
from sdk.declaration import HOLDEM_STREETS
from sdk.games import GAMES
from sdk.pots import exact_pot_deltas

from ..engine.dealer import showdown_ranks
from ..runs.dealer_log import as_decimal
from ..runs.errors import RunError
from ..runs.reader import Run
from .phh import phh_cannot_hold, position_seats
from .timeline import Walk, walk

__all__ = ["ACPC_VARIANTS", "hand_to_acpc", "write_acpc_log"]


#: Variants with an ACPC form: hold'em's streets (no swaps, bids, discards or runs past the
#: river) and its payoffs and showdowns (no bounties, no permuted order of the card values).
ACPC_VARIANTS = frozenset(
    name
    for name, game in GAMES.items()
    if game.streets == HOLDEM_STREETS
    and game.rules.bounty is None
    and game.rules.permutation is None
)


def _betting(w: Walk) -> tuple[tuple[AcpcAction, ...], ...]:
    streets: list[list[AcpcAction]] = [[]]
    street = 0
    for index, record in enumerate(w.hand.actions):
        action = record.action
        if w.only_move(index) or w.nobody_can_bet(index) or isinstance(action, BidAction):
            continue  # the ACPC dealer asks nobody when nobody can bet
        while street < record.street:
            streets.append([])
            street = 3 if street == 0 else street + 1
        # The one conversion: a no-limit raise as the hand's total, a limit raise as `r`.
        streets[-1].append(action_to_wire(w.before[index], action))
    while len(streets) < len(board_rounds(w.last.board)):  # an all-in: dealt without betting
        streets.append([])
    return tuple(tuple(actions) for actions in streets)


def _values(w: Walk) -> tuple[Fraction, ...]:
    """Each seat's result as the dealer computes it: exact shares of the pots (a three-way
    split can give thirds, which the kit's whole chips round by its odd-chip rule)."""
    hand, last = w.hand, w.last
    if hand.seats == 2 or not hand.showdown:
        return tuple(Fraction(delta) for delta in hand.deltas)
    ranks = showdown_ranks(last.hands, last.board, last.folded)
    return exact_pot_deltas(last.contributions, last.folded, ranks)


def hand_to_acpc(w: Walk) -> str:
    """The ``STATE`` line of a replayed hand."""
    hand = w.hand
    seats = position_seats(hand.seats)
    values = _values(w)
    return format_log_state(
        LogState(
            hand.number - 1,
            _betting(w),
            tuple(tuple(hand.hole_cards[s]) for s in seats),
            board_rounds(w.last.board),
            tuple(as_decimal(values[s]) for s in seats),
            tuple(hand.players[s] for s in seats),
        )
    )


def write_acpc_log(run: Run, path: Path) -> int:
    """Write the run as an ACPC dealer log at ``path``; returns the number of hands.

    :class:`RunError` for a variant with no ACPC form, or player names the
    format cannot hold (``:``, ``|`` or spaces).
    """
    if run.variant not in ACPC_VARIANTS:
        instead = (
            "Export it as PHH instead: --format phh."
            if phh_cannot_hold(run.rules) is None
            else "Read it with `pokerbots replay` or `pokerbots report` instead."
        )
        raise RunError(
            f"{run.directory} is a {run.variant} match; ACPC logs can only hold hold'em with "
            f"its own streets, payoffs and showdowns ({', '.join(sorted(ACPC_VARIANTS))}). "
            + instead
        )
    for name in run.names:
        if not name or any(c in name for c in ":| \t\r\n"):
            raise RunError(
                f"The player name {name!r} cannot appear in an ACPC log (it may not "
                "hold ':', '|' or spaces); rename the bot directory and re-run."
            )
    rules = run.rules
    totals = dict.fromkeys(run.names, Fraction(0))
    count = 0
    game = f"{'limit' if rules.limit else 'nolimit'}-holdem-{rules.seats}p"
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(
            f"# name/game/hands/seed {run.directory.name} {game} "
            f"{run.summary.get('rounds', '?')} {run.seed}\n"
            f"# pokerbots-kit export: stacks {rules.starting_stack}, blinds "
            f"{rules.small_blind}/{rules.big_blind}, stacks reset every hand\n"
        )
        for hand in run.hands():
            w = walk(hand, rules)
            out.write(hand_to_acpc(w) + "\n")
            for name, value in zip(hand.players, _values(w), strict=True):
                totals[name] = totals.get(name, Fraction(0)) + value
            count += 1
        score = Score(tuple(as_decimal(totals[n]) for n in run.names), tuple(run.names))
        out.write(format_score(score) + "\n")
    return count
