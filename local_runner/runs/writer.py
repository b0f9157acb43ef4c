"""Streaming a match's files as its hands finish: ``gamelog.txt``, ``hands.jsonl``, and
``summary.json`` at the end."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TextIO

from sdk.rules import Rules
from sdk.variants.permuted import draw_values

from ..engine.records import HandRecord
from .gamelog import final_line, format_hand, header_line, values_lines
from .hands import hand_line
from .layout import GAMELOG_FILE, HANDS_FILE
from .summary import write_summary

__all__ = ["FinishedMatch", "MatchLogWriter"]

_BUFFER_BYTES = 1 << 16


class _Player(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def bankroll(self) -> int: ...


class FinishedMatch(Protocol):
    """What the writer needs of a match's result: the hands played, each player's name
    and bankroll (in the order the players were given), and the summary's content."""

    @property
    def hands_played(self) -> int:
        """How many hands were played."""
        ...

    @property
    def players(self) -> Sequence[_Player]:
        """The players in the order they were given."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The content of ``summary.json``."""
        ...


class MatchLogWriter:
    """Streams a match's logs into an output directory as hands finish.

    Memory stays flat in the number of hands: each hand is one ``write`` to
    each of ``gamelog.txt`` and ``hands.jsonl`` (buffered, never flushed per
    hand).  Pass :meth:`on_hand` as the engine's observer, then call
    :meth:`close` with the match result::

        with MatchLogWriter(out, rules, ("A", "B"), seed) as logs:
            result = Match(seats, rules, seed, on_hand=logs.on_hand).play()
            logs.close(result)
    """

    def __init__(
        self, out_dir: Path | str, rules: Rules, player_names: tuple[str, ...], seed: int
    ) -> None:
        """Create ``out_dir`` if needed, open both logs and write the gamelog header."""
        self.out_dir = Path(out_dir)
        self.rules = rules
        self.player_names = player_names
        self.seed = seed
        self.closed = False
        self.out_dir.mkdir(parents=True, exist_ok=True)
        with ExitStack() as opened:  # both files open, or neither
            self._gamelog = opened.enter_context(self._open(GAMELOG_FILE))
            self._hands = opened.enter_context(self._open(HANDS_FILE))
            self._files = opened.pop_all()
        header = [header_line(player_names)]
        if rules.permutation is not None:  # the order of the card values, as MIT 2020 wrote
            header += values_lines(draw_values(seed, rules.permutation))
        self._gamelog.write("\n".join(header))

    def on_hand(self, record: HandRecord) -> None:
        """Append the finished hand ``record`` to ``gamelog.txt`` and ``hands.jsonl``."""
        self.write_hand(record)

    def tally(self, record: HandRecord) -> None:
        """Nothing: the two logs keep nothing from hand to hand (a
        :class:`~.log_handoff.HandLog`)."""

    def write_hand(self, record: HandRecord) -> None:
        """Append the hand's lines to both logs (all of :meth:`on_hand`)."""
        self._gamelog.write("\n\n" + "\n".join(format_hand(record, self.rules)))
        self._hands.write(hand_line(record))

    def files(self) -> tuple[TextIO, TextIO]:
        """``gamelog.txt`` and ``hands.jsonl``, open."""
        return self._gamelog, self._hands

    def close(self, result: FinishedMatch, summary_extra: dict[str, Any] | None = None) -> None:
        """Write the ``Final`` line, close the logs and write ``summary.json``.

        ``summary.json`` is ``result.to_dict()`` updated with ``summary_extra``.
        The ``Final`` line lists the players in the seat order after the last
        hand, as the MIT engine does (:func:`~.gamelog.final_line`).  Calling it
        again does nothing.
        """
        if self.closed:
            return
        try:
            players = result.players
            final = final_line(
                [player.name for player in players],
                [player.bankroll for player in players],
                result.hands_played,
            )
            self._gamelog.write(f"\n\n{final}\n")
        finally:
            self._close_files()
        summary = result.to_dict()
        if summary_extra:
            summary.update(summary_extra)
        write_summary(self.out_dir, summary)

    def _open(self, name: str) -> TextIO:
        return open(
            self.out_dir / name, "w", encoding="utf-8", newline="\n", buffering=_BUFFER_BYTES
        )

    def _close_files(self) -> None:
        self.closed = True
        self._files.close()

    def __enter__(self) -> MatchLogWriter:
        """The writer itself."""
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the files if :meth:`close` was not called (no ``Final`` line, no summary)."""
        if not self.closed:
            self._close_files()
