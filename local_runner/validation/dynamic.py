"""The checks that run the bot: build, connect, a seeded smoke match, time, memory, cleanup.

The bot plays short seeded matches (through :func:`run_scrimmage`, exactly as
``pokerbots scrimmage`` would) against built-in bots, in its private copy,
under the memory limit.  Each check below reads the match results, so the
checks themselves are pure functions that tests can feed directly.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdk.client import WARNING_PREFIX
from sdk.rules import Rules

from ..engine.faults import FaultKind
from ..engine.records import MatchResult, PlayerResult
from ..programs.bot_program import BotDirectoryError, BotProgram
from ..results.explain import log_tail
from ..tables.config import Limits, ScrimmageConfig
from ..tables.scrimmage import run_scrimmage
from ..tables.spec import BotSpec, UsageError, read_bot_program
from .checks import CheckResult, format_bytes
from .options import ValidateOptions
from .processes import check_cleanup

__all__ = [
    "DYNAMIC_CHECKS",
    "LOG_HINT",
    "PLAY_FAULTS",
    "UNSTARTED",
    "SmokeMatch",
    "check_build",
    "check_connect",
    "check_memory",
    "check_reply_times",
    "check_smoke_match",
    "bot_program",
    "build_errors",
    "count_faults",
    "faulty_match",
    "first_fault_detail",
    "log_tail_hint",
    "peak_memory",
    "play_smoke_matches",
    "reply_time_stats",
    "run_dynamic_checks",
    "sdk_complaints",
    "skipped_dynamic_checks",
    "smoke_config",
]

#: The dynamic checks, in report order.
DYNAMIC_CHECKS = ("build", "connect", "smoke_match", "reply_times", "memory", "cleanup")
#: The name the bot plays under (distinct from every built-in bot's name).
BOT_NAME = "submission"
UNSTARTED = (FaultKind.BUILD_FAILED, FaultKind.NEVER_CONNECTED)
PLAY_FAULTS = (
    FaultKind.ILLEGAL,
    FaultKind.MISFORMATTED,
    FaultKind.TIMEOUT,
    FaultKind.CRASH,
    FaultKind.DISCONNECTED,
    FaultKind.BOT_ERROR,
)
_SDK_PREFIX = WARNING_PREFIX  # how the SDK's client starts its warnings
_LOG_READ = 1 << 20  # bytes of a bot's log searched for them
LOG_HINT = "Run the bot with `pokerbots scrimmage BOT_DIR` and read its log."
#: A line of build output that reports an error (compilers, CMake, make, linkers, Python).
_BUILD_ERROR = re.compile(
    r"error|fatal|No such file|not found|cannot find|undefined reference|Traceback|FAILED",
    re.IGNORECASE,
)
_BUILD_SETTING = (
    "raise the limit with --build-timeout here, or build_timeout under [runner] in a match config"
)


@dataclass(frozen=True, slots=True)
class SmokeMatch:
    """One smoke match: the opponent, the result (the bot is player 0) and the bot's log."""

    opponent: str
    result: MatchResult
    log: Path

    @property
    def bot(self) -> PlayerResult:
        """The validated bot's result."""
        return self.result.players[0]


def skipped_dynamic_checks(
    reason: str, names: tuple[str, ...] = DYNAMIC_CHECKS
) -> list[CheckResult]:
    """Every dynamic check (``names``: the smoke match's, or the ACPC matches'), skipped for
    ``reason``."""
    return [CheckResult.skipped(name, reason) for name in names]


def log_tail_hint(log: Path) -> str:
    """The last line the bot (or its build) printed, for hints."""
    lines = log_tail(log, 40)
    printed = [line.strip() for line in lines if line.strip() and not line.startswith("---")]
    return f" Its output ended with: {printed[-1][:200]}" if printed else ""


def sdk_complaints(log: Path) -> list[str]:
    """The lines in which the kit's SDK said it covered for the bot (an exception, a non-action)."""
    try:
        with open(log, "rb") as file:
            text = file.read(_LOG_READ).decode(errors="replace")
    except OSError:
        return []
    return [line.strip()[:300] for line in text.splitlines() if line.startswith(_SDK_PREFIX)]


def first_fault_detail(matches: list[SmokeMatch], kinds: tuple[FaultKind, ...]) -> str:
    """The first fault of one of ``kinds`` in the matches, with its hand, for a message."""
    for match in matches:
        for fault in match.bot.first_faults:
            if fault.kind in kinds:
                where = f"hand {fault.hand}: " if fault.hand else ""
                return f"{where}{fault.detail}"
    return ""


def faulty_match(matches: list[SmokeMatch], kinds: tuple[FaultKind, ...]) -> SmokeMatch:
    """The first match in which the bot had a fault of one of ``kinds`` (else the last)."""
    return next((m for m in matches if any(m.bot.fault_counts.get(k) for k in kinds)), matches[-1])


def count_faults(matches: list[SmokeMatch], kind: FaultKind) -> int:
    """How many faults of ``kind`` the bot had in all the matches."""
    return sum(match.bot.fault_counts.get(kind, 0) for match in matches)


def build_errors(log: Path, limit: int = 3) -> list[str]:
    """The first ``limit`` lines of the build's output in ``log`` that report an error.

    The build's output lies between the runner's ``--- build: ...`` line and its
    ``--- build ...`` result line.  A line ending in ``:`` (``CMake Error at
    CMakeLists.txt:5 (project):``) is quoted with the line that follows it.
    """
    try:
        with open(log, "rb") as file:
            text = file.read(_LOG_READ).decode(errors="replace")
    except OSError:
        return []
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("--- build: "):
            inside = True
        elif line.startswith("--- "):
            if inside:
                break
        elif inside and line.strip():
            lines.append(line.strip())
    found: list[str] = []
    for index, line in enumerate(lines):
        if len(found) >= limit:
            break
        if _BUILD_ERROR.search(line):
            follow = lines[index + 1] if line.endswith(":") and index + 1 < len(lines) else ""
            found.append(f"{line} {follow}".strip()[:300])
    return found


def check_build(
    matches: list[SmokeMatch], program: BotProgram, timeout: float | None = None
) -> CheckResult:
    """The build step finished within ``timeout`` seconds with exit status 0.

    A failure quotes the lines of the build's output that report errors (else
    its last line); a timeout names the setting that changes it.
    """
    if not program.build:
        return CheckResult.passed("build", "There is no build step (its command list is empty).")
    if count_faults(matches, FaultKind.BUILD_FAILED):
        detail = first_fault_detail(matches, (FaultKind.BUILD_FAILED,))
        run = (
            f"Run the build command {json.dumps(program.build)} in a fresh copy of the bot "
            "folder (without build output made elsewhere) and fix it."
        )
        if any(f.timed_out for m in matches for f in m.bot.first_faults):
            limit = f" of {timeout:g} s" if timeout is not None else ""
            return CheckResult.failed(
                "build",
                f"The {detail.split(' (')[0]}.",
                f"Make the build faster, or {_BUILD_SETTING} (the limit{limit} is the MIT "
                f"scrimmage server's 180 s by default).{log_tail_hint(matches[0].log)}",
            )
        errors = build_errors(matches[0].log)
        quoted = (" Its errors: " + " | ".join(errors)) if errors else log_tail_hint(matches[0].log)
        return CheckResult.failed("build", f"The {detail}.", f"{run}{quoted}")
    return CheckResult.passed("build", "The build step finished with exit status 0.")


def check_connect(matches: list[SmokeMatch], timeout: float | None) -> CheckResult:
    """The bot connected to the engine within the connect timeout (None: no limit, as the
    ACPC server's check sets none)."""
    within = f"within {timeout:g} s" if timeout is not None else "(the game sets no time limit)"
    if count_faults(matches, FaultKind.NEVER_CONNECTED):
        starts = f", and that it starts within {timeout:g} s" if timeout is not None else ""
        return CheckResult.failed(
            "connect",
            f"The bot {first_fault_detail(matches, (FaultKind.NEVER_CONNECTED,))}.",
            "Check the run command and that the bot connects to the port it is given as its "
            f"last argument{starts}.{log_tail_hint(matches[0].log)}",
        )
    return CheckResult.passed("connect", f"The bot connected {within}.")


def check_smoke_match(matches: list[SmokeMatch]) -> CheckResult:
    """No illegal or misformatted action, no timeout, no crash or disconnect in the matches."""
    played = ", ".join(
        f"{m.result.hands_played} hands against {m.opponent} ({m.bot.bankroll:+d})" for m in matches
    )
    counts = {kind: count_faults(matches, kind) for kind in PLAY_FAULTS}
    faults = ", ".join(f"{n} {kind.value}" for kind, n in counts.items() if n)
    defaulted = sum(match.bot.defaulted for match in matches)
    if defaulted:  # a bot that stopped answering must not look like "1 timeout"
        faults += f"; then {defaulted} of its decisions were played by default without asking it"
    if faults:
        return CheckResult.failed(
            "smoke_match",
            f"Faults in the smoke match: {faults}; first, "
            f"{first_fault_detail(matches, PLAY_FAULTS)}.",
            f"Answer every request with one legal action from legal_actions(), in time. "
            f"{LOG_HINT}{log_tail_hint(faulty_match(matches, PLAY_FAULTS).log)}",
        )
    complaints = [line for match in matches for line in sdk_complaints(match.log)]
    if complaints:
        return CheckResult.warned(
            "smoke_match",
            f"Played {played}, but the SDK covered for the bot "
            f"{len(complaints)} time(s): {complaints[0]}",
            "Read the bot's log for the traceback and fix get_action; the SDK sent a default "
            f"action (check or fold) instead. {LOG_HINT}",
        )
    if any(match.bot.output_dropped_bytes for match in matches):
        return CheckResult.warned(
            "smoke_match",
            f"Played {played}, but the bot printed more than its log keeps.",
            "Print less: the MIT engine keeps only 512 KiB of a bot's output.",
        )
    return CheckResult.passed("smoke_match", f"Played {played} without a fault.")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def reply_time_stats(matches: list[SmokeMatch], rules: Rules) -> dict[str, Any]:
    """Median, p99 and max seconds per decision, the clock use projected per match with its
    uncertainty, and the largest share of its clock the bot used in a smoke match.

    The projection scales the smoke matches' clock use to ``rules.num_rounds``
    hands; its margin is 1.96 standard errors of the mean decision time (about a
    95% interval), scaled the same way.
    """
    times = [t for match in matches for t in match.bot.reply_times]
    hands = sum(match.result.hands_played for match in matches)
    used = sum(match.bot.time_used for match in matches)
    if not times or not hands:
        return {}
    projected = used / hands * rules.num_rounds
    mean = statistics.fmean(times)
    spread = statistics.stdev(times) if len(times) > 1 else 0.0
    margin = 1.96 * projected * spread / (mean * math.sqrt(len(times))) if mean > 0 else 0.0
    closest = max(match.bot.time_used / match.result.rules.game_clock for match in matches)
    return {
        "decisions": len(times),
        "reply_median_seconds": round(statistics.median(times), 6),
        "reply_p99_seconds": round(_percentile(times, 0.99), 6),
        "reply_max_seconds": round(max(times), 6),
        "projected_clock_seconds": round(projected, 6),
        "projected_clock_margin_seconds": round(margin, 6),
        "smoke_clock_share_max": round(closest, 6),
        "game_clock_seconds": rules.game_clock,
        "hands_per_match": rules.num_rounds,
    }


def check_reply_times(
    matches: list[SmokeMatch], rules: Rules, options: ValidateOptions
) -> CheckResult:
    """Judged by what happened: the bot fails only if it ran out of clock or a reply reached
    the per-reply timeout in a smoke match.  The clock use projected over a full match is a
    warning, given with its uncertainty, when above ``options.clock_share`` of the clock.

    ``rules`` are the competition's (its hands per match and game clock).  A bot
    that budgets its clock by the time left spends close to all of it by design,
    so a projection near the clock is no proof that it would run out.
    """
    name = "reply_times"
    stats = reply_time_stats(matches, rules)
    if not stats:
        return CheckResult.skipped(name, "The bot made no decision to time.")
    projected, clock = stats["projected_clock_seconds"], rules.game_clock
    margin = stats["projected_clock_margin_seconds"]
    replies = (
        f"median {_ms(stats['reply_median_seconds'])}, p99 "
        f"{_ms(stats['reply_p99_seconds'])}, max {_ms(stats['reply_max_seconds'])} per "
        f"decision"
    )
    share = stats["smoke_clock_share_max"]
    close = f"at most {share:.1%} of its clock used in one of its matches"
    projection = (
        f"projected {projected:.2f} ± {margin:.2f} s of the {clock:g} s clock per "
        f"{rules.num_rounds} hands"
    )
    speed_up = (
        "Make decisions faster: precompute tables at start-up (before connecting, which "
        "is not timed) and bound any search by time."
    )
    timeouts = count_faults(matches, FaultKind.TIMEOUT)
    reply_limit = options.runner().reply_limit(rules)
    if timeouts or stats["reply_max_seconds"] >= reply_limit:
        return CheckResult.failed(
            name,
            f"{max(timeouts, 1)} decision(s) took {reply_limit:g} s or more, "
            f"or ran out of clock ({replies}; {projection}).",
            speed_up,
        )
    full_match = (
        f"The smoke matches are short; play a full match (`pokerbots scrimmage "
        f"BOT_DIR --rounds {rules.num_rounds}`) to see how much clock it keeps. "
    )
    if projected > clock:
        return CheckResult.warned(
            name,
            f"The bot did not run out of clock ({close}), but at this pace it would use "
            f"all of it: {projection} ({replies}).",
            full_match
            + "If it does not budget its clock by the time left, "
            + speed_up[0].lower()
            + speed_up[1:],
        )
    if projected > options.clock_share * clock:
        return CheckResult.warned(
            name,
            f"The bot uses over {options.clock_share:.0%} of its clock: {projection} "
            f"({replies}; {close}).",
            full_match + speed_up,
        )
    return CheckResult.passed(name, f"{replies[0].upper()}{replies[1:]}; {projection}; {close}.")


def check_memory(matches: list[SmokeMatch], limit: int) -> CheckResult:
    """The bot's peak memory (as the runner measured it) stayed under ``limit``, which its
    processes also had as RLIMIT_AS."""
    peak = peak_memory(matches)
    if peak > limit:
        return CheckResult.failed(
            "memory",
            f"The bot used {format_bytes(peak, True)} of memory, more than the "
            f"{format_bytes(limit, True)} allowed.",
            "Load smaller tables or models, and free what you do not need after start-up.",
        )
    if peak == 0:
        return CheckResult.skipped(
            "memory",
            f"The bot's memory could not be measured; it ran under a "
            f"{format_bytes(limit, True)} address-space limit.",
        )
    return CheckResult.passed(
        "memory",
        f"Peak memory {format_bytes(peak, True)}, under the {format_bytes(limit, True)} limit.",
    )


def peak_memory(matches: list[SmokeMatch]) -> int:
    return max([match.bot.peak_memory_bytes or 0 for match in matches], default=0)


def smoke_config(rules: Rules, hands: int, seed: int, options: ValidateOptions) -> ScrimmageConfig:
    """The configuration of one smoke match: ``hands`` hands of ``rules``, the timeouts and
    memory limit of ``options``, and ``options.linger_grace`` as the bot's time to exit."""
    return ScrimmageConfig(
        rules=rules.replace(num_rounds=hands),
        seed=seed,
        runner=options.runner(),
        limits=Limits(address_space=options.memory_limit),
    )


def play_smoke_matches(
    program: BotProgram, rules: Rules, options: ValidateOptions, out_dir: Path
) -> list[SmokeMatch]:
    """Play the bot against builtin:random, then (if it built and connected) builtin:checkcall
    and the reference bot builtin:equity, which bets and raises by its cards' equity.

    Raises KeyboardInterrupt if a match was interrupted.
    """
    hands = options.smoke_hands
    plan = [
        ("builtin:random", hands),
        ("builtin:checkcall", max(hands // 2, 1)),
        ("builtin:equity", max(hands // 4, 1)),
    ]
    matches: list[SmokeMatch] = []
    for index, (opponent, hands) in enumerate(plan):
        specs = [BotSpec(BOT_NAME, program=program), BotSpec.parse(opponent)]
        match_dir = out_dir / f"match-{index + 1}"
        result = run_scrimmage(
            specs,
            smoke_config(rules, hands, options.seed + index, options),
            match_dir,
            record_reply_times=True,
            sandbox=options.sandbox,
        )
        if result.interrupted:
            raise KeyboardInterrupt
        matches.append(SmokeMatch(opponent, result, match_dir / f"{BOT_NAME}.log"))
        if any(match.bot.fault_counts.get(kind) for match in matches for kind in UNSTARTED):
            break
    return matches


def bot_program(bot_root: Path, profile: str) -> BotProgram:
    """How the competition starts the bot: ``commands.json`` for MIT, ``startme.sh`` for ACPC.

    Raises BotDirectoryError when the bot folder does not say.
    """
    if profile == "acpc" and (bot_root / "startme.sh").is_file():
        protocol = "auto"  # the wire of the game, unless commands.json names the bot's own
        if (bot_root / "commands.json").is_file():
            # A broken commands.json is the commands_json check's; startme.sh is what runs.
            with contextlib.suppress(BotDirectoryError):
                protocol = read_bot_program(bot_root).protocol
        return BotProgram(
            bot_root.resolve(),
            (),
            ("./startme.sh",),
            append_host=True,
            source="startme.sh",
            protocol=protocol,
        )
    return read_bot_program(bot_root)


def run_dynamic_checks(
    bot_root: Path, rules: Rules, options: ValidateOptions, work: Path, profile: str = "mit"
) -> tuple[list[CheckResult], dict[str, Any]]:
    """Build, start and play the bot in ``bot_root``; return the checks and the stats.

    ``work`` is the private directory holding the copy of the bot: match logs go
    to ``work/runs``, and no process may be left running inside ``work``.
    ``rules`` are the competition's (see :func:`~.profiles.competition_rules`); the
    matches are shorter.  ``profile`` chooses how the bot is started.
    """
    program = bot_program(bot_root, profile)
    try:
        matches = play_smoke_matches(program, rules, options, work / "runs")
    except UsageError as error:  # the runner cannot seat this bot in this game
        checks = skipped_dynamic_checks("The smoke match could not be played.")
        checks[2] = CheckResult.failed(
            "smoke_match", str(error), "Validate the game the bot is written for (--variant)."
        )
        return checks, {}
    checks = [check_build(matches, program, options.build_timeout)]
    if checks[-1].status == "fail":
        checks += [CheckResult.skipped(name, "The build failed.") for name in DYNAMIC_CHECKS[1:-1]]
    else:
        checks.append(check_connect(matches, options.runner().connect_limit(rules)))
        if checks[-1].status == "fail":
            checks += [
                CheckResult.skipped(name, "The bot never connected.")
                for name in DYNAMIC_CHECKS[2:-1]
            ]
        else:
            checks += [
                check_smoke_match(matches),
                check_reply_times(matches, rules, options),
                check_memory(matches, options.memory_limit),
            ]
    # A bot that never played was ended for that (connect or build failed), not for lingering.
    lingering = [
        process
        for match in matches
        for process in match.bot.lingering_processes
        if not any(match.bot.fault_counts.get(kind) for kind in UNSTARTED)
    ]
    checks.append(check_cleanup(work, lingering, options.linger_grace))
    stats: dict[str, Any] = {
        "matches": [
            {
                "opponent": m.opponent,
                "hands": m.result.hands_played,
                "bankroll": m.bot.bankroll,
                "faults": {k.value: n for k, n in m.bot.fault_counts.items() if n},
            }
            for m in matches
        ],
        "peak_memory_bytes": peak_memory(matches),
        **reply_time_stats(matches, rules),
    }
    return checks, stats
