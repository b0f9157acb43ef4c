"""Plain sentences a bot author can act on, from a match's result and its logs.

The engine records faults and counts; this module says what they mean for the person
reading the console: a bot that never started (with the end of its log, and what to do
about a missing module), decisions played by default, a game clock that ran out or nearly
did, output past the log limit.  The CLI prints these lines; nothing here changes a result.
"""

from __future__ import annotations

from pathlib import Path

from ..engine.records import MatchResult
from ..programs.interpreter import BotPython
from ..runs.layout import bot_log_name

__all__ = ["CLOCK_WARNING_SHARE", "log_tail", "result_notes", "start_failure_lines"]

#: A bot that used more than this share of its game clock is warned.
CLOCK_WARNING_SHARE = 0.8
_TAIL_LINES = 15
_TAIL_BYTES = 16 * 1024


def log_tail(path: Path, lines: int = _TAIL_LINES) -> list[str]:
    """The last ``lines`` lines of a bot's log (empty if it cannot be read); only the log's
    last 16 KiB are read, so a full log costs no more than a short one."""
    try:
        with path.open("rb") as file:
            file.seek(max(file.seek(0, 2) - _TAIL_BYTES, 0))
            text = file.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]


def start_failure_lines(
    result: MatchResult, out_dir: Path, python: BotPython | None = None
) -> list[str]:
    """For each bot that never started: why, the end of its log, and a hint where one fits."""
    lines: list[str] = []
    for player in result.not_started:
        log = out_dir / bot_log_name(player.name)
        lines.append(
            f"bot {player.name} did not start ({player.start_failure}); the last lines of {log}:"
        )
        tail = log_tail(log)
        lines.extend(f"    {line}" for line in tail)
        if python is not None and any("ModuleNotFoundError" in line for line in tail):
            lines.append(python.hint())
        elif (player.start_failure or "").startswith("build_failed"):
            lines.append(
                "The build step is the 'build' command of the bot's commands.json; "
                "its time limit is [runner] build_timeout in the config file."
            )
    return lines


def result_notes(result: MatchResult) -> list[str]:
    """Sentences about how each bot played that the fault counts alone do not say."""
    notes: list[str] = []
    clock = result.rules.game_clock
    for player in result.players:
        if player.start_failure is not None:
            continue
        if player.clock_ran_out_hand is not None:
            rest = result.hands_played - player.clock_ran_out_hand
            notes.append(
                f"{player.name}'s game clock ({clock:g} s) ran out in hand "
                f"{player.clock_ran_out_hand}; it was not asked again, and its decisions in "
                f"the remaining {rest} hand(s) were played by default."
            )
        elif player.defaulted:
            notes.append(
                f"{player.name}: {player.defaulted} of its decisions were played by default "
                "without asking it, while it still owed a late reply or after it stopped."
            )
        if player.clock_ran_out_hand is None and player.time_used > CLOCK_WARNING_SHARE * clock:
            notes.append(
                f"{player.name} used {player.time_used:.1f} s of its {clock:g} s game clock "
                f"({100 * player.time_used / clock:.0f}%): close to running out."
            )
        if player.output_dropped_bytes:
            notes.append(
                f"{player.name} printed more than its log keeps: {player.output_dropped_bytes} "
                "more bytes were counted, not kept (no penalty; the MIT engine truncates a "
                "bot's log the same way)."
            )
    return notes
