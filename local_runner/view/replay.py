"""Replaying hands in the terminal: step by step with keys, or as plain text.

The text comes from :func:`local_runner.view.timeline.timeline`; this module
only chooses hands, hides what a viewer could not see, and pages.  Everything
a bot controls (its name, fault details) is printed as plain text, never as
markup.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from sdk.rules import Rules

from ..runs.errors import RunError
from ..runs.hands import Hand
from ..runs.reader import Run
from .timeline import Step, street_name, timeline, walk

__all__ = [
    "HandFilter",
    "KEYS_HELP",
    "Replayer",
    "hand_lines",
    "keys_mode",
    "line_mode",
    "read_key",
    "select_hands",
]

KEYS_HELP = (
    "keys: enter/space/n next step · p back · ] next hand · [ previous hand · "
    "e end of hand · s start · g go to hand · q quit"
)


@dataclass(frozen=True, slots=True)
class HandFilter:
    """Which hands to replay: one number, the biggest pot, those with faults (else all)."""

    number: int | None = None
    biggest: bool = False
    faults: bool = False


def select_hands(run: Run, which: HandFilter) -> list[Hand]:
    """The hands ``which`` asks for, in play order; :class:`RunError` when there are none."""
    if which.number is not None:
        return [run.hand(which.number)]
    hands: list[Hand] = []
    best: Hand | None = None
    for hand in run.hands():
        if which.biggest:
            if best is None or max(map(abs, hand.deltas)) > max(map(abs, best.deltas)):
                best = hand
        elif not which.faults or hand.faults:
            hands.append(hand)
    if which.biggest:
        hands = [] if best is None else [best]
    if not hands:
        what = "with faults" if which.faults else "at all"
        raise RunError(f"{run.directory} has no hands {what}.")
    return hands


def _seat_of(hand: Hand, viewer: str | None) -> int | None:
    if viewer is None:
        return None
    if viewer not in hand.players:
        raise RunError(
            f"There is no bot {viewer!r} in this run; its bots are {', '.join(hand.players)}."
        )
    return hand.players.index(viewer)


def _cards(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def table_line(
    hand: Hand, step: Step, viewer: int | None, revealed: bool, rules: Rules | None = None
) -> str:
    """The table after a step: street, board, pot, and each seat's stack and cards."""
    seats = []
    for seat, name in enumerate(hand.players):
        cards = step.hands[seat]
        if viewer is not None and seat != viewer and not revealed:
            cards = tuple("??" for _ in cards)
        seats.append(f"{name} {step.stacks[seat]} [{_cards(cards)}]")
    board = _cards(step.board)
    name = street_name(step.street, rules)
    return f"    {name:<7} board {board:<14} pot {step.pot:<4} {'  '.join(seats)}"


def hand_lines(
    run: Run, hand: Hand, viewer: str | None = None, upto: int | None = None
) -> list[str]:
    """The replay of ``hand`` as text lines, through step ``upto`` (all by default).

    With ``viewer`` (a bot's name) the opponent's cards stay hidden until the showdown,
    as that bot saw them.
    """
    seat = _seat_of(hand, viewer)
    steps = timeline(walk(hand, run.rules))
    shown = steps if upto is None else steps[: upto + 1]
    lines: list[str] = []
    revealed = False
    for step in shown:
        revealed = revealed or step.kind == "showdown"
        mark = {"fault": "!! ", "street": "-- ", "result": "== "}.get(step.kind, "   ")
        lines.append(mark + step.text)
        if step.kind in ("deal", "action", "street", "swap", "auction"):
            lines.append(table_line(hand, step, seat, revealed, run.rules))
    return lines


def step_count(run: Run, hand: Hand) -> int:
    """How many steps the replay of ``hand`` has."""
    return len(timeline(walk(hand, run.rules)))


@contextmanager
def keys_mode() -> Iterator[Callable[[], str]]:
    """The terminal in key-at-a-time mode (no echo, no line buffering) for the whole replay,
    so keys typed while a screen is drawn are not lost; restored on the way out.

    Yields :func:`read_key`.
    """
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield read_key
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


@contextmanager
def line_mode() -> Iterator[None]:
    """The terminal in line mode (echo, editing) for a typed answer, inside :func:`keys_mode`."""
    import termios

    fd = sys.stdin.fileno()
    keys = termios.tcgetattr(fd)
    line = list(keys)
    line[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(fd, termios.TCSADRAIN, line)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, keys)


def read_key() -> str:
    """One key press (arrow keys as ``left``/``right``/``up``/``down``), in :func:`keys_mode`."""
    fd = sys.stdin.fileno()
    key = os.read(fd, 1).decode(errors="replace")
    if key == "\x1b":
        # An arrow key sends two more bytes at once; a lone Esc sends none.
        if not select.select([fd], [], [], 0.05)[0]:
            return "esc"
        rest = os.read(fd, 2).decode(errors="replace")
        return {"[C": "right", "[D": "left", "[A": "up", "[B": "down"}.get(rest, "esc")
    return key


class Replayer:
    """The interactive replay: a position (hand, step) moved by keys, and a screen to draw."""

    def __init__(self, run: Run, hands: Sequence[Hand], viewer: str | None) -> None:
        self.run = run
        self.hands = list(hands)
        self.viewer = viewer
        self.index = 0
        self.step = 0
        self._counts: dict[int, int] = {}

    @property
    def hand(self) -> Hand:
        """The hand on screen."""
        return self.hands[self.index]

    def _count(self) -> int:
        number = self.hand.number
        if number not in self._counts:
            self._counts[number] = step_count(self.run, self.hand)
        return self._counts[number]

    def screen(self) -> list[str]:
        """The lines to show now."""
        hand = self.hand
        title = (
            f"{self.run.directory.name}: hand {hand.number} "
            f"({self.index + 1} of {len(self.hands)} selected) · step {self.step + 1} of "
            f"{self._count()}"
        )
        return [title, "", *hand_lines(self.run, hand, self.viewer, self.step), "", KEYS_HELP]

    def press(self, key: str, ask: Callable[[str], str]) -> bool:
        """Act on ``key``; False when the replay should end.  ``ask`` reads a typed answer."""
        last = self._count() - 1
        if key in ("q", "Q", "\x04", "esc"):
            return False
        if key in ("\n", "\r", " ", "n", "right", "down", "j"):
            if self.step < last:
                self.step += 1
            elif self.index + 1 < len(self.hands):
                self.index, self.step = self.index + 1, 0
        elif key in ("p", "left", "up", "k", "\x7f"):
            if self.step > 0:
                self.step -= 1
        elif key == "]" and self.index + 1 < len(self.hands):
            self.index, self.step = self.index + 1, 0
        elif key == "[" and self.index > 0:
            self.index, self.step = self.index - 1, 0
        elif key == "e":
            self.step = last
        elif key == "s":
            self.step = 0
        elif key == "g":
            self.go_to(ask("go to hand: "))
        return True

    def go_to(self, answer: str) -> None:
        """Jump to the selected hand with that number (a wrong answer changes nothing)."""
        text = answer.strip()
        if text.isdigit():
            for index, hand in enumerate(self.hands):
                if hand.number == int(text):
                    self.index, self.step = index, 0
                    return


def plain_replay(
    run: Run, hands: Iterable[Hand], viewer: str | None, write: Callable[[str], object]
) -> None:
    """Every step of every hand as plain text, hands separated by a blank line."""
    first = True
    for hand in hands:
        if not first:
            write("")
        first = False
        for line in hand_lines(run, hand, viewer):
            write(line)
