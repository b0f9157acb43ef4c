"""What the command line names as a bot: a bot folder or ``builtin:NAME``, read into a
:class:`BotSpec` that the scrimmage, duplicate, tournament and validate layers seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sdk.errors import KitError
from sdk.rules import Rules

from ..bots.builtin import BUILTIN_BOTS
from ..engine.seats import Seat
from ..programs.bot_program import BotDirectoryError, BotProgram
from ..submission.metadata import declared_profile

__all__ = ["BotSpec", "UsageError", "read_bot_program", "unique_names"]


class UsageError(KitError, ValueError):
    """A scrimmage that cannot start (a missing bot, a bad name); the message says why."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot to play: a directory with ``commands.json`` or ``startme.sh``, or ``builtin:NAME``."""

    name: str
    builtin: str | None = None
    program: BotProgram | None = None
    seat: Callable[[str, Rules], Seat] | None = None
    """Makes the seat itself (a person at the keyboard: ``pokerbots play``)."""

    @staticmethod
    def parse(text: str) -> BotSpec:
        """Read a command-line bot: ``builtin:random`` or a path to a bot directory."""
        if text.startswith("builtin:"):
            name = text.removeprefix("builtin:")
            if name not in BUILTIN_BOTS:
                raise UsageError(
                    f"There is no built-in bot {text!r}; choose one of: "
                    f"{', '.join('builtin:' + n for n in BUILTIN_BOTS)}."
                )
            return BotSpec(name=name, builtin=name)
        path = Path(text)
        try:
            program = read_bot_program(path)
        except BotDirectoryError as error:
            raise UsageError(str(error)) from None
        return BotSpec(name=program.directory.name or "bot", program=program)


def read_bot_program(directory: Path) -> BotProgram:
    """How to build and run the bot in ``directory``, and the wire it speaks.

    A commands.json without a ``"protocol"`` key speaks the MIT wire, unless the bot's
    README metadata names the ``acpc`` profile: such a bot speaks the ACPC wire in an ACPC
    game (``"auto"``).  Raises :class:`BotDirectoryError` as
    :meth:`BotProgram.from_directory` does.
    """
    declared = declared_profile(Path(directory).expanduser())
    undeclared = "auto" if declared is not None and declared[0] == "acpc" else "mit"
    return BotProgram.from_directory(directory, undeclared)


def unique_names(specs: Sequence[BotSpec]) -> list[str]:
    """The bots' names; a name given to several bots gets its position appended
    (``skeleton-1``, ``skeleton-2``), so logs and tables tell them apart."""
    names = [spec.name for spec in specs]
    return [
        f"{name}-{index + 1}" if names.count(name) > 1 else name for index, name in enumerate(names)
    ]
