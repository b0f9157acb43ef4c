"""What a validation checks against: limits, timeouts and the smoke match's size."""

from __future__ import annotations

from dataclasses import dataclass, field

from sdk.rules import VARIANTS

from ..archive import ArchiveLimits

__all__ = ["ValidateOptions"]


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """Settings of one validation; the defaults follow the competition servers.

    ``variant`` None plays the variant README.txt names (no-limit hold'em if it
    names none the kit knows).  ``hands`` is the smoke match against
    ``builtin:random``; half as many (at least one) are played against
    ``builtin:checkcall``.  ``build_timeout`` is the MIT scrimmage server's
    180 s; ``connect_timeout`` and ``reply_timeout`` are its 10 s;
    ``memory_limit`` is the ACPC's 4 GiB, applied to the bot's processes as an
    address-space limit.  A projected clock use above ``clock_share`` of the
    game clock per match is a warning.
    """

    variant: str | None = None
    strict: bool = False
    run_match: bool = True
    hands: int = 200
    seed: int = 1
    build_timeout: float = 180.0
    connect_timeout: float = 10.0
    reply_timeout: float = 10.0
    memory_limit: int = 4 * 2**30
    max_file_bytes: int = 50 * 10**6
    clock_share: float = 0.5
    limits: ArchiveLimits = field(default_factory=ArchiveLimits)
    sandbox: bool = False
    """Run the bot's build and smoke matches inside the bubblewrap sandbox."""

    def __post_init__(self) -> None:
        if self.variant is not None and self.variant not in VARIANTS:
            raise ValueError(
                f"Unknown variant {self.variant!r}; choose one of: {', '.join(VARIANTS)}.")
        if self.hands < 1:
            raise ValueError(f"The smoke match needs at least 1 hand, not {self.hands}.")
        for name in ("build_timeout", "connect_timeout", "reply_timeout", "clock_share"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number, not {getattr(self, name)}.")
        if self.memory_limit < 1 or self.max_file_bytes < 1:
            raise ValueError("memory_limit and max_file_bytes must be positive byte counts.")
