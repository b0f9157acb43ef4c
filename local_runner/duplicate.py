"""Duplicate matches: the same deals twice, with the seats swapped and the bots restarted.

Luck in the cards is most of the noise in a poker match.  A duplicate match
plays the seeded deals once, restarts both bots (their memories reset), then
plays the very same deals again with the bots in each other's seats: hand ``i``
of the second half gives bot B exactly the cards bot A had in hand ``i`` of the
first.  Each hand *pair* is one sample; the luck of the deal cancels out of its
sum, so the confidence interval narrows (see ``docs/is-my-bot-better.md``).

The halves are ordinary scrimmages, written to ``out_dir/half-1`` and
``out_dir/half-2``; ``out_dir/summary.json`` combines them.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .config import ScrimmageConfig
from .faults import FaultKind
from .logs import SUMMARY_FILE
from .records import HandRecord, MatchResult, PlayerResult
from .scrimmage import BotSpec, UsageError, run_scrimmage, unique_names
from .standings import slot_deltas, statistics_dict
from .stats import Summary, summarize_duplicate

__all__ = ["HALF_DIRECTORIES", "DuplicateResult", "run_duplicate"]

#: The subdirectories of a duplicate match's output that hold its two halves.
HALF_DIRECTORIES = ("half-1", "half-2")


@dataclass(frozen=True, slots=True)
class DuplicateResult:
    """The two halves of a duplicate match, from the bots' point of view.

    ``names[0]`` is the first bot given: the first player of half 1 and the
    second player of half 2.  ``deltas[h][b]`` are bot ``b``'s per-hand chip
    deltas in half ``h`` (one half only if the match was interrupted in it).
    """

    names: tuple[str, str]
    halves: tuple[MatchResult, ...]
    deltas: tuple[tuple[array[int], array[int]], ...]
    interrupted: bool

    def player(self, half: int, bot: int) -> PlayerResult:
        """Bot ``bot``'s result in half ``half`` (both from 0): the halves swap the order."""
        return self.halves[half].players[bot if half == 0 else 1 - bot]

    @property
    def bankrolls(self) -> tuple[int, int]:
        """Each bot's chips over both halves."""
        first, second = (
            sum(self.player(half, bot).bankroll for half in range(len(self.halves)))
            for bot in (0, 1)
        )
        return first, second

    @property
    def pairs(self) -> int:
        """The number of complete hand pairs (hands played in both halves)."""
        if len(self.deltas) < 2:
            return 0
        return min(len(self.deltas[0][0]), len(self.deltas[1][0]))

    @property
    def hands(self) -> int:
        """Hands played over both halves."""
        return sum(half.hands_played for half in self.halves)

    def pair_deltas(self, bot: int) -> list[int]:
        """Bot ``bot``'s result per complete hand pair (first-half hand + its replay)."""
        n = self.pairs
        first, second = self.deltas[0][bot][:n], self.deltas[1][bot][:n]
        return [a + b for a, b in zip(first, second, strict=True)]

    def summaries(self, confidence: float = 0.95) -> tuple[Summary, Summary] | None:
        """Each bot's result with a CI over hand pairs; None without a complete pair."""
        n = self.pairs
        if n == 0:
            return None
        big_blind = self.halves[0].rules.big_blind
        first, second = (
            summarize_duplicate(
                self.deltas[0][bot][:n], self.deltas[1][bot][:n], big_blind, confidence
            )
            for bot in (0, 1)
        )
        return first, second

    def to_dict(self) -> dict[str, Any]:
        """The content of the combined ``summary.json``."""
        first = self.halves[0]
        summaries = self.summaries()
        statistics = None if summaries is None else statistics_dict(self.names, summaries, True)
        players = []
        for bot, name in enumerate(self.names):
            results = [self.player(half, bot) for half in range(len(self.halves))]
            faults = {
                kind.value: sum(r.fault_counts.get(kind, 0) for r in results) for kind in FaultKind
            }
            players.append(
                {
                    "name": name,
                    "bankroll": self.bankrolls[bot],
                    "halves": [r.bankroll for r in results],
                    "time_used": round(sum(r.time_used for r in results), 6),
                    "decisions": sum(r.decisions for r in results),
                    "faults": faults,
                }
            )
        return {
            "duplicate": True,
            "variant": first.rules.variant,
            "rules": first.rules.to_dict(),
            "seed": first.seed,
            "rounds": self.hands,
            "pairs": self.pairs,
            "rounds_scheduled": 2 * first.rules.num_rounds,
            "interrupted": self.interrupted,
            "wall_seconds": round(sum(half.wall_seconds for half in self.halves), 3),
            "halves": [
                {
                    "directory": directory,
                    "players": [player.name for player in half.players],
                    "bankrolls": [player.bankroll for player in half.players],
                    "rounds": half.hands_played,
                }
                for directory, half in zip(HALF_DIRECTORIES, self.halves, strict=False)
            ],
            "players": players,
            "statistics": statistics,
        }


def run_duplicate(
    specs: Sequence[BotSpec],
    config: ScrimmageConfig,
    out_dir: Path,
    on_hand: Callable[[HandRecord], None] | None = None,
    sandbox: bool = False,
    play_absent: bool = False,
) -> DuplicateResult:
    """Play a duplicate match between two bots and write its logs into ``out_dir``.

    Half 1 plays ``specs`` in the given order into ``out_dir/half-1``; half 2
    starts both bots afresh in the swapped order, with the same seed, into
    ``out_dir/half-2``; ``out_dir/summary.json`` combines them.  ``on_hand``
    sees every hand of both halves (the record's ``number`` restarts at 1 in
    half 2).  After Ctrl-C in half 1, half 2 is not played.  ``sandbox`` runs
    bot directories in a sandbox, as :func:`~local_runner.scrimmage.run_scrimmage` does.
    A bot that does not start stops the match after that half, unless ``play_absent``
    (see :func:`~local_runner.scrimmage.run_scrimmage`).
    """
    if len(specs) != 2:
        raise UsageError(f"A duplicate match needs two bots, not {len(specs)}.")
    first, second = unique_names(specs)
    names = (first, second)
    bots = (replace(specs[0], name=names[0]), replace(specs[1], name=names[1]))
    halves: list[MatchResult] = []
    deltas: list[tuple[array[int], array[int]]] = []
    for half, order in enumerate(((0, 1), (1, 0))):
        mine: tuple[array[int], array[int]] = (array("q"), array("q"))

        def observe(record: HandRecord, mine: tuple[array[int], array[int]] = mine,
                    order: tuple[int, int] = order) -> None:
            by_slot = slot_deltas(record)
            mine[order[0]].append(by_slot[0])
            mine[order[1]].append(by_slot[1])
            if on_hand is not None:
                on_hand(record)

        try:
            result = run_scrimmage(
                [bots[order[0]], bots[order[1]]],
                config,
                out_dir / HALF_DIRECTORIES[half],
                observe,
                sandbox=sandbox,
                play_absent=play_absent,
            )
        except KeyboardInterrupt:  # while the second half's bots were starting
            if not halves:
                raise
            break
        halves.append(result)
        deltas.append(mine)
        if result.interrupted or (result.not_started and not play_absent):
            break
    interrupted = len(halves) < 2 or any(h.interrupted for h in halves)
    duplicate = DuplicateResult(names, tuple(halves), tuple(deltas), interrupted)
    (out_dir / SUMMARY_FILE).write_text(
        json.dumps(duplicate.to_dict(), indent=2) + "\n", encoding="utf-8"
    )
    return duplicate
