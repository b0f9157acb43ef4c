"""The ACPC server's own test of a submission, as its ``validate_submission.pl`` plays it.

In an ACPC game the bot plays ⌈12,000 / hands per match⌉ matches (four of 3000 hands
heads-up, twelve of 1000 with three players) against ``builtin:chump`` (the server's
example player, which fills every other seat), one seed after the other:

* any fault fails (the script fails on any ``WARNING`` or ``ERROR`` of the dealer: an
  invalid or resized action, an unrequested or unreadable reply, a timeout);
* the bot must not lose to the chump: the script's ``1000 * sum(score) / (big blind *
  hands)`` over all the matches must be at least 0 mbb/hand;
* no process of the bot may run 10 s after a match (the runner's grace period).

The game is the variant's preset (the 2009 rules) or an ACPC game definition file, as
the script plays the server's own no-limit file (50/100, 20,000 chips); the report says
which.  The build, connect, clock, memory and cleanup checks are the smoke match's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdk.games import ACPC, games_speaking
from sdk.rules import Rules

from ..programs.bot_program import BotProgram
from ..results.standings import MatchStats
from ..runs.layout import bot_log_name
from ..tables.config import ConfigError, read_game_file
from ..tables.scrimmage import run_scrimmage
from ..tables.spec import BotSpec, UsageError
from .checks import CheckResult
from .dynamic import (
    BOT_NAME,
    LOG_HINT,
    PLAY_FAULTS,
    UNSTARTED,
    SmokeMatch,
    bot_program,
    check_build,
    check_connect,
    check_memory,
    check_reply_times,
    count_faults,
    faulty_match,
    first_fault_detail,
    log_tail_hint,
    peak_memory,
    reply_time_stats,
    sdk_complaints,
    smoke_config,
)
from .options import ACPC_VALIDATION_HANDS, ValidateOptions
from .processes import check_cleanup

__all__ = [
    "ACPC_CHECKS",
    "ACPC_GAMES",
    "CHUMP",
    "HANDS_PER_MATCH",
    "AcpcGame",
    "acpc_game",
    "check_acpc_matches",
    "check_acpc_result",
    "describe_rules",
    "is_acpc_game",
    "match_plan",
    "play_acpc_matches",
    "run_acpc_checks",
]

#: The dynamic checks of an ACPC game, in report order.
ACPC_CHECKS = (
    "build",
    "connect",
    "acpc_matches",
    "acpc_result",
    "reply_times",
    "memory",
    "cleanup",
)
#: The opponent of every other seat: the ACPC server's example player.
CHUMP = "builtin:chump"
#: Hands per match of the script's games by number of players (``submission_2pl`` and
#: ``_2pn``: 3000, ``_3pl``: 1000); a game file plays the same as its number of players.
HANDS_PER_MATCH = {2: 3000, 3: 1000}
_ACPC_VARIANTS = games_speaking(ACPC)
#: The ACPC games, by name (``acpc-2pl``, ``acpc-2pn``, ``acpc-3pl``).
ACPC_GAMES = _ACPC_VARIANTS
_NO_STACK_LIMIT = 2**31 - 1  # the dealer's stack in limit games, which name none


@dataclass(frozen=True, slots=True)
class AcpcGame:
    """The game an ACPC validation plays: one match's rules, its name and what it is."""

    rules: Rules
    """The rules of one match: the script's hands per match, 7 s a hand of clock."""
    name: str
    """The variant (``acpc-2pn``) or the game definition file's name."""
    source: str
    """Where the game comes from: the 2009 rules, or a game definition file."""

    @property
    def label(self) -> str:
        """``acpc-2pn (heads-up no-limit, blinds 1/2, 400 chips ...; the 2009 rules)``."""
        return f"{self.name} ({describe_rules(self.rules)}; {self.source})"


def is_acpc_game(variant: str, game_file: Path | None) -> bool:
    """Whether a validation of ``variant`` (or of a game file) plays the ACPC matches."""
    return game_file is not None or variant in _ACPC_VARIANTS


def acpc_game(variant: str, game_file: Path | None = None) -> AcpcGame:
    """The game of an ACPC validation: ``game_file`` if given, else ``variant``'s preset.

    Raises :class:`~local_runner.tables.config.ConfigError` for a file that cannot be read or
    played, saying why.
    """
    if game_file is not None:
        probe = read_game_file(game_file, 1)
        hands = HANDS_PER_MATCH.get(probe.seats, HANDS_PER_MATCH[3])
        return AcpcGame(
            read_game_file(game_file, hands), game_file.name, "the game definition file"
        )
    if variant not in _ACPC_VARIANTS:
        raise ConfigError(
            f"{variant} is not an ACPC game; choose one of "
            f"{', '.join(_ACPC_VARIANTS)}, or give a game definition file."
        )
    rules = Rules.for_variant(variant)
    return AcpcGame(
        rules.replace(num_rounds=HANDS_PER_MATCH.get(rules.seats, 1000)), variant, "the 2009 rules"
    )


def describe_rules(rules: Rules) -> str:
    """The game in a few words: ``heads-up no-limit, blinds 1/2, 400 chips reset every hand``."""
    players = "heads-up" if rules.seats == 2 else f"{rules.seats}-player"
    betting = "limit" if rules.limit is not None else "no-limit"
    words = f"{players} {betting}, blinds {rules.small_blind}/{rules.big_blind}"
    if rules.starting_stack < _NO_STACK_LIMIT:
        words += f", {rules.starting_stack:,} chips reset every hand"
    return words


def match_plan(total: int, per_match: int) -> tuple[int, ...]:
    """The hands of each match: ⌈total / per_match⌉ matches of ``per_match`` hands, as the
    script plays them; fewer hands than one match give one shorter match."""
    if total < per_match:
        return (total,)
    return (per_match,) * math.ceil(total / per_match)


def play_acpc_matches(
    program: BotProgram, game: AcpcGame, options: ValidateOptions, out_dir: Path
) -> tuple[list[SmokeMatch], MatchStats, str | None]:
    """Play the script's matches against the chump, seeds ``options.seed`` and up.

    Returns the matches (the bot is player 0), the per-hand moments of all of them, and a
    sentence when the runner refused the table (then no match was played).  Stops after
    a match in which the bot did not start.  Raises KeyboardInterrupt if interrupted.
    """
    rules = game.rules
    stats = MatchStats(rules.seats)
    matches: list[SmokeMatch] = []
    specs = [BotSpec(BOT_NAME, program=program)] + [BotSpec.parse(CHUMP)] * (rules.seats - 1)
    for index, hands in enumerate(match_plan(options.acpc_hands, rules.num_rounds)):
        match_dir = out_dir / f"match-{index + 1}"
        config = smoke_config(rules, hands, options.seed + index, options)
        try:
            result = run_scrimmage(
                specs,
                config,
                match_dir,
                record_reply_times=True,
                sandbox=options.sandbox,
                stats=stats,
            )
        except UsageError as error:
            return matches, stats, str(error)
        if result.interrupted:
            raise KeyboardInterrupt
        matches.append(SmokeMatch(CHUMP, result, match_dir / bot_log_name(BOT_NAME)))
        if any(match.bot.fault_counts.get(kind) for match in matches for kind in UNSTARTED):
            break
    return matches, stats, None


def _played(matches: list[SmokeMatch], game: AcpcGame) -> str:
    hands = sum(match.result.hands_played for match in matches)
    count = f"{len(matches)} match" + ("es" if len(matches) != 1 else "")
    return f"{count}, {hands:,} hands of {game.label}, against {CHUMP} in every other seat"


def check_acpc_matches(
    matches: list[SmokeMatch], game: AcpcGame, wanted: int = ACPC_VALIDATION_HANDS
) -> CheckResult:
    """No fault in any match (the script fails on any dealer warning or error), and the
    hands the script plays (``wanted``; fewer is a warning: a shorter test than the
    server's)."""
    name = "acpc_matches"
    counts = {kind: count_faults(matches, kind) for kind in PLAY_FAULTS}
    faults = ", ".join(f"{n} {kind.value}" for kind, n in counts.items() if n)
    defaulted = sum(match.bot.defaulted for match in matches)
    if defaulted:
        faults += f"; then {defaulted} of its decisions were played by default without asking it"
    if faults:
        tail = log_tail_hint(faulty_match(matches, PLAY_FAULTS).log)
        wire = (
            "Speak the ACPC wire (VERSION:2.0.0 first, then echo each state you answer, "
            "followed by ':' and one legal action), and answer only when it is your turn."
        )
        if "MATCHSTATE" in tail and "clause" in tail:  # the kit's MIT client read the wire
            wire = (
                "The bot reads the MIT wire, but the ACPC dealer sends MATCHSTATE lines: "
                "start it with --protocol acpc (in startme.sh: exec python3 player.py "
                '--protocol acpc "$@"), or make it with `pokerbots new DIR --set '
                "variant=acpc-2pn`."
            )
        return CheckResult.failed(
            name,
            f"Faults in the ACPC matches ({_played(matches, game)}): {faults}; first, "
            f"{first_fault_detail(matches, PLAY_FAULTS).rstrip('.')}. The ACPC server's "
            "check fails "
            "on any warning of its dealer.",
            f"{wire} {LOG_HINT}{tail}",
        )
    complaints = [line for match in matches for line in sdk_complaints(match.log)]
    if complaints:
        return CheckResult.warned(
            name,
            f"Played {_played(matches, game)}, but the SDK covered for the bot "
            f"{len(complaints)} time(s): {complaints[0]}",
            "Read the bot's log for the traceback and fix get_action; the SDK sent a legal "
            f"action instead, so the dealer saw nothing wrong. {LOG_HINT}",
        )
    hands = sum(match.result.hands_played for match in matches)
    if hands < wanted:
        return CheckResult.warned(
            name,
            f"Played {_played(matches, game)} without a fault, but the ACPC server's "
            f"check plays at least {wanted:,} hands.",
            f"Validate with the default number of hands (--hands {wanted}) before entering.",
        )
    return CheckResult.passed(name, f"Played {_played(matches, game)} without a fault.")


def check_acpc_result(
    matches: list[SmokeMatch],
    stats: MatchStats,
    game: AcpcGame,
    wanted: int = ACPC_VALIDATION_HANDS,
) -> CheckResult:
    """The bot did not lose to the chump over all the matches: the script's total of
    ``1000 * sum(score) / (big blind * hands)`` mbb/hand is at least 0.  The message gives the
    95% confidence interval too (the script judges the total alone).

    Over fewer hands than the script plays (``wanted``), a loss whose interval still reaches 0
    is a warning, not a failure: so few hands cannot tell it from chance (a sound bot loses 20
    hands to the chump now and then), and the server's verdict is over ``wanted``.  A loss
    whose interval lies wholly below 0 fails at any count.
    """
    name = "acpc_result"
    total = sum(match.bot.bankroll for match in matches)
    hands = sum(match.result.hands_played for match in matches)
    summaries = stats.summaries(game.rules.big_blind)
    if not hands or summaries is None:
        return CheckResult.skipped(name, "No hand was played.")
    interval = summaries[0].mbb_per_hand
    mbb = 1000 * total / (game.rules.big_blind * hands)
    sentence = (
        f"{total:+,} chips over {hands:,} hands, {mbb:+.1f} mbb/hand (95% CI "
        f"{interval.low:+.1f} to {interval.high:+.1f})"
    )
    if mbb < 0 and hands < wanted and interval.high >= 0:
        return CheckResult.warned(
            name,
            f"The bot lost to {CHUMP} over fewer hands than the ACPC server's check plays: "
            f"{sentence}. The interval reaches 0, so these hands cannot tell the loss from "
            f"chance; the server requires at least 0 mbb/hand over {wanted:,} hands.",
            f"Validate with the default number of hands (--hands {wanted}) before entering.",
        )
    if mbb < 0:
        return CheckResult.failed(
            name,
            f"The bot lost to {CHUMP}: {sentence}. The ACPC server's check requires at "
            "least 0 mbb/hand against its chump.",
            f"Beat a random player first: watch it with `pokerbots scrimmage BOT_DIR {CHUMP} "
            f"--rounds {game.rules.num_rounds}` (add --variant or --game for this game) and "
            "read its hands in the log.",
        )
    return CheckResult.passed(
        name,
        f"The bot did not lose to {CHUMP}: {sentence}; the ACPC server's check requires "
        "at least 0 mbb/hand.",
    )


def run_acpc_checks(
    bot_root: Path, game: AcpcGame, options: ValidateOptions, work: Path, profile: str = "acpc"
) -> tuple[list[CheckResult], dict[str, Any]]:
    """Build, start and play the bot in ``bot_root`` in the script's matches against the
    chump; return the checks (:data:`ACPC_CHECKS`) and the stats.

    ``work`` is the private directory holding the copy of the bot: match logs go to
    ``work/runs``, and no process may be left running inside ``work``.  ``profile``
    chooses how the bot is started (``startme.sh`` under ``acpc``).
    """
    program = bot_program(bot_root, profile)
    matches, moments, refused = play_acpc_matches(program, game, options, work / "runs")
    stats: dict[str, Any] = {"game": game.label, "acpc_hands_wanted": options.acpc_hands}
    if refused is not None:
        checks = [
            CheckResult.skipped(n, "The ACPC matches were not played.") for n in ACPC_CHECKS[:2]
        ]
        checks.append(
            CheckResult.failed(
                "acpc_matches",
                refused,
                "The runner refused to seat the bot for this game, for the reason above; "
                "`pokerbots new DIR --set variant=acpc-2pn` (or acpc-2pl, acpc-3pl) makes a bot "
                "that speaks the ACPC wire.",
            )
        )
        checks += [
            CheckResult.skipped(n, "The ACPC matches were not played.") for n in ACPC_CHECKS[3:-1]
        ]
        checks.append(check_cleanup(work, (), options.linger_grace))
        return checks, stats
    checks = [check_build(matches, program, options.build_timeout)]
    if checks[-1].status == "fail":
        checks += [CheckResult.skipped(n, "The build failed.") for n in ACPC_CHECKS[1:-1]]
    else:
        checks.append(check_connect(matches, options.runner().connect_limit(game.rules)))
        if checks[-1].status == "fail":
            checks += [
                CheckResult.skipped(n, "The bot never connected.") for n in ACPC_CHECKS[2:-1]
            ]
        else:
            checks += [
                check_acpc_matches(matches, game),
                check_acpc_result(matches, moments, game),
                check_reply_times(matches, game.rules, options),
                check_memory(matches, options.memory_limit),
            ]
    lingering = [
        process
        for match in matches
        for process in match.bot.lingering_processes
        if not any(match.bot.fault_counts.get(kind) for kind in UNSTARTED)
    ]
    checks.append(check_cleanup(work, lingering, options.linger_grace))
    stats.update(
        {
            "matches": [
                {
                    "opponent": m.opponent,
                    "hands": m.result.hands_played,
                    "bankroll": m.bot.bankroll,
                    "seed": options.seed + index,
                    "faults": {k.value: n for k, n in m.bot.fault_counts.items() if n},
                }
                for index, m in enumerate(matches)
            ],
            "bankroll": sum(match.bot.bankroll for match in matches),
            "peak_memory_bytes": peak_memory(matches),
            **reply_time_stats(matches, game.rules),
        }
    )
    return checks, stats
