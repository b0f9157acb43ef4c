"""``dealer.log``: an ACPC game's match written as the ACPC dealer logs it, while it is played.

The ACPC server's dealer writes, beside every match, a ``STATE`` line per hand (the betting,
every hole card, the board, each position's result, the names) and a final ``SCORE`` line;
competitors' scripts and PokerKit read that format.  A match of an ACPC game (``acpc-2pl``,
``acpc-2pn``, ``acpc-3pl`` or a ``--game`` file) gets the same file here, one line appended
per hand, so no export is needed.  The line is the one ``pokerbots export --format acpc``
writes for the hand (the tests hold the two equal): both are made with the one ACPC codec of
:mod:`sdk.acpc`, and a 3-seat showdown's values are the exact shares of the pots
(:func:`sdk.pots.exact_pot_deltas`), as the dealer computes them.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import TextIO

from sdk.acpc import (
    AcpcAction,
    Score,
    action_to_wire,
    board_rounds,
    format_score,
    log_state_line,
    seat_of_position,
)
from sdk.actions import FoldAction
from sdk.pots import exact_pot_deltas
from sdk.rules import Rules
from sdk.states import TerminalState

from ..engine.dealer import showdown_ranks
from ..engine.records import ActionEvent, HandRecord, StreetEvent
from .layout import DEALER_LOG_FILE, keeps_dealer_log

__all__ = ["DealerLogWriter", "as_decimal", "keeps_dealer_log"]

#: What a name in the log may not hold (the format's separators and white space).
_FORBIDDEN = str.maketrans({c: "_" for c in ":| \t\r\n"})


class DealerLogWriter:
    """Appends each finished hand of a match to ``directory/dealer.log``; :meth:`close` adds
    the ``SCORE`` line.  ``names`` are the players in the order the match names them."""

    def __init__(
        self, directory: Path, rules: Rules, names: tuple[str, ...], seed: int, label: str
    ) -> None:
        """Open the log and write the dealer's header comments."""
        self.rules = rules
        self.names = tuple(name.translate(_FORBIDDEN) or "_" for name in names)
        self._log_names = dict(zip(names, self.names, strict=True))
        # Whole chips while they stay whole (heads-up always): Fractions cost ten times more.
        self._totals: dict[str, int | Fraction] = dict.fromkeys(self.names, 0)
        self._positions = tuple(seat_of_position(p, rules.seats) for p in range(rules.seats))
        game = f"{'limit' if rules.limit else 'nolimit'}-holdem-{rules.seats}p"
        self._file: TextIO | None = (directory / DEALER_LOG_FILE).open(
            "w", encoding="utf-8", newline="\n"
        )
        self._file.write(
            f"# name/game/hands/seed {label} {game} {rules.num_rounds} {seed}\n"
            f"# pokerbots-kit: stacks {rules.starting_stack}, blinds "
            f"{rules.small_blind}/{rules.big_blind}, stacks reset every hand\n"
        )
        if self.names != tuple(names):
            self._file.write("# names with ':', '|' or spaces are written with '_' instead\n")

    def on_hand(self, record: HandRecord) -> None:
        """Append the hand's ``STATE`` line, and count its result for the ``SCORE`` line."""
        if self._file is not None:
            values = _values(record)
            self._count(record, values)
            self._write(record, values)

    def tally(self, record: HandRecord) -> None:
        """Count the hand's result for the ``SCORE`` line (half of :meth:`on_hand`, a
        :class:`~.log_handoff.HandLog`)."""
        if self._file is not None:
            self._count(record, _values(record))

    def write_hand(self, record: HandRecord) -> None:
        """Append the hand's ``STATE`` line (the other half)."""
        if self._file is not None:
            self._write(record, _values(record))

    def files(self) -> tuple[TextIO, ...]:
        """The log, while it is open."""
        return () if self._file is None else (self._file,)

    def _count(self, record: HandRecord, values: tuple[int | Fraction, ...]) -> None:
        for slot, name in enumerate(record.players):
            self._totals[self._log_names[name]] += values[slot]

    def _write(self, record: HandRecord, values: tuple[int | Fraction, ...]) -> None:
        assert self._file is not None
        seats = self._positions
        names = tuple(self._log_names[record.players[s]] for s in seats)
        # The engine's record is trusted: the line is made from it without the checks a
        # LogState makes of a line read from elsewhere.
        line = log_state_line(
            record.number - 1,  # the dealer counts hands from 0
            _betting(record),
            tuple(tuple(record.final_hands[s]) for s in seats),
            board_rounds(record.board),
            tuple(_exact(values[s]) for s in seats),
            names,
        )
        self._file.write(line + "\n")

    def close(self) -> None:
        """Write the ``SCORE`` line (each player's total, in the match's order) and close."""
        if self._file is None:
            return
        score = Score(tuple(as_decimal(self._totals[n]) for n in self.names), self.names)
        self._file.write(format_score(score) + "\n")
        self._file.close()
        self._file = None

    def __enter__(self) -> DealerLogWriter:
        """Return self; leaving the block closes the log."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Close the log (with its ``SCORE`` line), whatever ended the match."""
        self.close()


def _betting(record: HandRecord) -> tuple[tuple[AcpcAction, ...], ...]:
    """The hand's actions by betting round, as the wire writes them; a round dealt after
    the last action (the board running out) is an empty one."""
    rounds: list[list[AcpcAction]] = [[]]
    for event in record.events:
        if type(event) is ActionEvent:
            rounds[-1].append(action_to_wire(event.state, event.action))
        elif type(event) is StreetEvent:
            while len(rounds) < len(board_rounds(event.board)):
                rounds.append([])
    return tuple(tuple(actions) for actions in rounds)


def _values(record: HandRecord) -> tuple[int | Fraction, ...]:
    """Each seat's result as the dealer computes it: the kit's chips, except at a showdown of
    three or more, where a split pot's exact shares can be fractions."""
    if len(record.deltas) == 2 or not record.showdown:
        return record.deltas
    folded = [False] * len(record.deltas)
    for event in record.events:
        if type(event) is ActionEvent and type(event.action) is FoldAction:
            folded[event.seat] = True
    ranks = showdown_ranks(record.final_hands, record.board, tuple(folded))
    shown = [rank for rank in ranks if rank is not None]
    if len(set(shown)) == len(shown):  # no tie: no pot is split, the chips are exact
        return record.deltas
    last = next(e for e in reversed(record.events) if type(e) is ActionEvent)
    after = last.state.proceed(last.action)
    before = after.previous_state if isinstance(after, TerminalState) else after
    return exact_pot_deltas(before.contributions, before.folded, ranks)


def _exact(value: int | Fraction) -> int | Decimal:
    """A result for :func:`~sdk.acpc.log_state_line`: whole chips as they are (most hands),
    a fraction as an exact decimal."""
    return value if isinstance(value, int) else as_decimal(value)


def as_decimal(value: int | Fraction) -> Decimal:
    """A result as the dealer writes it: exact (a third of a chip has enough digits)."""
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(value.numerator) / Decimal(value.denominator)
