"""What can go wrong with a bot, recorded with its kind and the hand it happened in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Fault", "FaultKind"]


class FaultKind(StrEnum):
    """The kinds of fault a runner records (see ``docs/runner-outputs.md``)."""

    TIMEOUT = "timeout"
    """A reply came later than the per-reply timeout, or the game clock ran out."""
    CRASH = "crash"
    """The bot's process ended during the match (exit code or signal recorded)."""
    DISCONNECTED = "disconnected"
    """The bot closed its connection while its process kept running."""
    MISFORMATTED = "misformatted"
    """A reply that is not an action (or an extra, unrequested line)."""
    ILLEGAL = "illegal"
    """A well-formed action that is not legal at that point (type or amount)."""
    BOT_ERROR = "bot_error"
    """The bot's own ``get_action`` raised; the SDK caught it and played the default action."""
    BUILD_FAILED = "build_failed"
    """The build command failed or timed out; the bot did not play."""
    NEVER_CONNECTED = "never_connected"
    """The bot did not connect within the connect timeout."""
    LEFTOVER_PROCESSES = "leftover_processes"
    """Processes of the bot survived SIGKILL at the end of the match (their pids are listed)."""

    @property
    def log_words(self) -> str:
        """How a ``gamelog.txt`` line says it after the player's name (``A timed out``).

        >>> FaultKind.ILLEGAL.log_words
        'attempted illegal action'
        """
        return _WORDS[self][0]

    @property
    def verb(self) -> str:
        """How a sentence for people says it after the bot's name (``bot B crashed``).

        >>> FaultKind.ILLEGAL.verb
        'played an illegal action'
        """
        return _WORDS[self][1]


#: Each kind's words, once: (in a gamelog line, in a sentence for people).
_WORDS: dict[FaultKind, tuple[str, str]] = {
    FaultKind.TIMEOUT: ("timed out", "timed out"),
    FaultKind.CRASH: ("crashed", "crashed"),
    FaultKind.DISCONNECTED: ("disconnected", "disconnected"),
    FaultKind.MISFORMATTED: ("response misformatted", "sent a misformatted reply"),
    FaultKind.ILLEGAL: ("attempted illegal action", "played an illegal action"),
    FaultKind.BOT_ERROR: (
        "raised an exception in get_action",
        "raised an exception in get_action",
    ),
    FaultKind.BUILD_FAILED: ("build failed", "failed to build"),
    FaultKind.NEVER_CONNECTED: ("never connected", "never connected"),
    FaultKind.LEFTOVER_PROCESSES: (
        "left processes behind",
        "left processes that survived SIGKILL",
    ),
}


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault: its kind, the hand (0 = before the first hand), and a plain-words detail.

    ``timed_out`` says, for programs that read results, that a time limit ran out (a build
    that took longer than the build timeout), so nobody needs to read it from ``detail``.
    """

    kind: FaultKind
    hand: int
    detail: str
    timed_out: bool = False

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (``timed_out`` only where it is true)."""
        data: dict[str, object] = {"kind": self.kind.value, "hand": self.hand}
        data["detail"] = self.detail
        if self.timed_out:
            data["timed_out"] = True
        return data
