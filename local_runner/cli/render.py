"""Rendering results for people: rich tables and plain-words fault lines."""

from __future__ import annotations

from rich.table import Table

from ..engine.faults import FaultKind
from ..engine.records import MatchResult

__all__ = ["describe_faults", "fault_sentence", "result_table"]


def result_table(result: MatchResult) -> Table:
    """A table of each player's bankroll, rate, time and faults."""
    hands = max(result.hands_played, 1)
    big_blind = result.rules.big_blind
    table = Table(
        title=f"{result.rules.variant} · {result.hands_played} hands · seed {result.seed}",
        title_justify="left",
    )
    table.add_column("bot")
    table.add_column("bankroll", justify="right")
    table.add_column("mbb/hand", justify="right")
    table.add_column("time used", justify="right")
    table.add_column("faults", overflow="fold")  # prose: "2 timeout, 1 crash" wraps
    for player in result.players:
        faults = ", ".join(
            f"{count} {kind.value}" for kind, count in player.fault_counts.items() if count
        )
        table.add_row(
            player.name,
            f"{player.bankroll:+d}",
            f"{1000 * player.bankroll / (big_blind * hands):+.1f}",
            f"{player.time_used:.2f} s",
            faults or "none",
        )
    return table


def fault_sentence(name: str, kind: FaultKind, hand: int, detail: str) -> str:
    """One fault in plain words, for example ``bot B crashed in hand 412: exited (signal 9)``."""
    where = f" in hand {hand}" if hand > 0 else ""
    return f"bot {name} {kind.verb}{where}: {detail}"


def describe_faults(result: MatchResult, limit: int = 5) -> list[str]:
    """The first few faults of each player as sentences, with a count of the rest."""
    lines = []
    for player in result.players:
        shown = player.first_faults[:limit]
        for fault in shown:
            lines.append(fault_sentence(player.name, fault.kind, fault.hand, fault.detail))
        # A bot_error detail stands for all of that kind (one line for every exception).
        rest = sum(player.fault_counts.values()) - sum(
            player.fault_counts[f.kind] if f.kind is FaultKind.BOT_ERROR else 1 for f in shown
        )
        if rest > 0:
            lines.append(
                f"bot {player.name}: {rest} more fault(s); see summary.json and gamelog.txt"
            )
    return lines
