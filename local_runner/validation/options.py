"""What a validation checks against: limits, timeouts and the smoke match's size."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sdk.games import SEASONS, VARIANTS

from ..submission.archive import ArchiveLimits
from ..submission.metadata import PROFILES
from ..tables.config import Limits, RunnerSettings

__all__ = ["ACPC_VALIDATION_HANDS", "SMOKE_HANDS", "ValidateOptions"]

_RUNNER, _LIMITS = RunnerSettings(), Limits()  # the defaults of every match

#: Hands of a smoke match against builtin:random (the MIT profile, or an MIT game).
SMOKE_HANDS = 200
#: ``validate_submission.pl``'s least number of test hands against the chump.
ACPC_VALIDATION_HANDS = 12_000


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    """Settings of one validation; the defaults follow the competition servers.

    ``profile`` None takes the competition from the bot's metadata or layout
    (see :mod:`local_runner.validation.profiles`).  ``variant`` None plays the
    variant README.txt names (no-limit hold'em if it names none the kit knows).
    ``game``, an ACPC game definition file, is played instead of the variant (None:
    the file README's ``Game:`` line names, if any).  In an ACPC game the bot plays
    the ACPC server's matches: ``hands`` in all against ``builtin:chump`` (None:
    :data:`ACPC_VALIDATION_HANDS`, as ``validate_submission.pl``); otherwise
    ``hands`` is the smoke match against ``builtin:random`` (None: 200), and half
    as many (at least one) are played against ``builtin:checkcall``.  The timeouts and the
    memory limit are the ones every match of the kit uses
    (:class:`~local_runner.tables.config.RunnerSettings`,
    :class:`~local_runner.tables.config.Limits`):
    one default per limit, so a bot that passes here is not stopped by a match; the
    connect and reply limits are the game's competition's unless set.
    ``linger_grace`` is how long after its match the bot's processes may still
    run (the ACPC server's check waits 10 s).  A projected clock use above
    ``clock_share`` of the game clock per match is a warning.
    """

    profile: str | None = None
    profile_reason: str | None = None
    """Why ``profile`` was chosen, when the caller chose it for another reason than
    ``--profile`` (``pokerbots package``: the folder the archive was made from)."""
    variant: str | None = None
    strict: bool = False
    run_match: bool = True
    hands: int | None = None
    seed: int = 1
    game: Path | None = None
    build_timeout: float = _RUNNER.build_timeout
    connect_timeout: float | None = _RUNNER.connect_timeout
    """None: the game's competition's (10 s at MIT, no limit at the ACPC)."""
    reply_timeout: float | None = _RUNNER.reply_timeout
    """None: the game's competition's (10 s at MIT, 600 s at the ACPC)."""
    memory_limit: int = _LIMITS.address_space
    linger_grace: float = 10.0
    max_file_bytes: int = 50 * 10**6
    clock_share: float = 0.5
    limits: ArchiveLimits = field(default_factory=ArchiveLimits)
    sandbox: bool = False
    """Run the bot's build and smoke matches inside the bubblewrap sandbox."""

    def __post_init__(self) -> None:
        if self.profile is not None and self.profile not in PROFILES:
            raise ValueError(
                f"Unknown profile {self.profile!r}; choose one of: {', '.join(PROFILES)}."
            )
        if self.variant in SEASONS:  # a season's alias names its game: mit-2026 is toss
            object.__setattr__(self, "variant", SEASONS[self.variant])
        if self.variant is not None and self.variant not in VARIANTS:
            names = ", ".join([*VARIANTS, *SEASONS])
            raise ValueError(f"Unknown variant {self.variant!r}; choose one of: {names}.")
        if self.hands is not None and self.hands < 1:
            raise ValueError(f"A validation plays at least 1 hand, not {self.hands}.")
        for name in (
            "build_timeout",
            "connect_timeout",
            "reply_timeout",
            "clock_share",
            "linger_grace",
        ):
            value = getattr(self, name)
            if value is None and name in ("connect_timeout", "reply_timeout"):
                continue  # the game's limit
            if not value > 0:
                raise ValueError(f"{name} must be a positive number, not {value}.")
        if self.memory_limit < 1 or self.max_file_bytes < 1:
            raise ValueError("memory_limit and max_file_bytes must be positive byte counts.")

    def runner(self) -> RunnerSettings:
        """The runner settings of the validation's matches: its timeouts, and the bot's
        ``linger_grace`` to exit after each.  The bot gets every CPU, as on a competition's
        server (no ``share_cpu``)."""
        return RunnerSettings(
            build_timeout=self.build_timeout,
            connect_timeout=self.connect_timeout,
            reply_timeout=self.reply_timeout,
            quit_grace=self.linger_grace,
            share_cpu=False,
        )

    @property
    def smoke_hands(self) -> int:
        """Hands of the smoke match against builtin:random."""
        return SMOKE_HANDS if self.hands is None else self.hands

    @property
    def acpc_hands(self) -> int:
        """Hands in all against builtin:chump, in an ACPC game."""
        return ACPC_VALIDATION_HANDS if self.hands is None else self.hands
