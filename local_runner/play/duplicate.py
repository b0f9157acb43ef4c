"""Duplicate matches: the same deals in every seating, the bots restarted between legs.

Luck in the cards is most of the noise in a poker match.  A duplicate match plays the
seeded deals once per seating of :func:`local_runner.engine.seating.duplicate_orders`,
restarting every bot between legs (their memories reset), and deals the very same cards
to the same seats each time:

* heads-up, two legs (*halves*) with the bots in each other's seats: hand ``i`` of the
  second half gives bot B exactly the cards bot A had in hand ``i`` of the first;
* three-handed, the six legs of the ACPC 2009 rules (three rotations times two
  relative orderings), so every bot holds every seat of every deal once in each
  relative order of the other two.

One sample is a deal played in every leg (a hand *pair* heads-up, a group of six hands
three-handed); the luck of the deal cancels out of its sum, so the confidence interval
narrows (see ``docs/is-my-bot-better.md``).

The legs are ordinary scrimmages, written to ``out_dir/half-1`` and ``out_dir/half-2``
heads-up and to ``out_dir/leg-1`` ... ``out_dir/leg-6`` three-handed;
``out_dir/summary.json`` combines them.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..engine.faults import FaultKind
from ..engine.records import HandRecord, MatchResult, PlayerResult
from ..engine.seating import duplicate_orders
from ..results.match_stats import slot_deltas
from ..results.stats import Moments, Summary, statistics_dict
from ..runs.layout import leg_directories
from ..runs.summary import write_summary
from .config import ScrimmageConfig
from .scrimmage import run_scrimmage
from .spec import BotSpec, UsageError, unique_names

__all__ = ["DuplicateResult", "run_duplicate"]


@dataclass(frozen=True, slots=True)
class DuplicateResult:
    """The legs of a duplicate match, from the bots' point of view.

    ``names[b]`` is the ``b``-th bot given; ``orders[leg][slot]`` is the bot in ``slot``
    of that leg (``names[0]`` is the first player of the first leg).  ``deltas[leg][b]``
    are bot ``b``'s per-hand chip deltas in that leg.  ``legs`` holds the legs played
    (fewer than ``orders`` if the match was interrupted).
    """

    names: tuple[str, ...]
    legs: tuple[MatchResult, ...]
    deltas: tuple[tuple[array[int], ...], ...]
    interrupted: bool
    orders: tuple[tuple[int, ...], ...] = duplicate_orders(2)

    @property
    def halves(self) -> tuple[MatchResult, ...]:
        """The legs (heads-up, the two halves)."""
        return self.legs

    @property
    def heads_up(self) -> bool:
        """Whether this is a two-player duplicate match (halves and hand pairs)."""
        return len(self.names) == 2

    @property
    def directories(self) -> tuple[str, ...]:
        """The subdirectories of the output holding the legs, in order."""
        return leg_directories(len(self.names))

    def player(self, leg: int, bot: int) -> PlayerResult:
        """Bot ``bot``'s result in leg ``leg`` (both from 0): the legs reseat the bots."""
        return self.legs[leg].players[self.orders[leg].index(bot)]

    @property
    def bankrolls(self) -> tuple[int, ...]:
        """Each bot's chips over all the legs played."""
        return tuple(
            sum(self.player(leg, bot).bankroll for leg in range(len(self.legs)))
            for bot in range(len(self.names))
        )

    @property
    def groups(self) -> int:
        """The number of complete deals (played in every leg)."""
        if len(self.deltas) < len(self.orders):
            return 0
        return min(len(leg[0]) for leg in self.deltas)

    @property
    def pairs(self) -> int:
        """Heads-up, the number of complete hand pairs (see :attr:`groups`)."""
        return self.groups

    @property
    def hands(self) -> int:
        """Hands played over all the legs."""
        return sum(leg.hands_played for leg in self.legs)

    def group_deltas(self, bot: int) -> list[int]:
        """Bot ``bot``'s result per complete deal, summed over the legs."""
        n = self.groups
        legs = [leg[bot][:n] for leg in self.deltas]
        return [sum(values) for values in zip(*legs, strict=True)]

    def pair_deltas(self, bot: int) -> list[int]:
        """Heads-up, bot ``bot``'s result per hand pair (see :meth:`group_deltas`)."""
        return self.group_deltas(bot)

    def moments(self, bot: int) -> Moments:
        """The exact moments of bot ``bot``'s per-deal results."""
        return Moments.of(self.group_deltas(bot))

    def summaries(self, confidence: float = 0.95) -> tuple[Summary, ...] | None:
        """Each bot's result with a CI over complete deals; None without one."""
        if self.groups == 0:
            return None
        big_blind = self.legs[0].rules.big_blind
        return tuple(
            self.moments(bot).summary(big_blind, len(self.orders), confidence)
            for bot in range(len(self.names))
        )

    def to_dict(self) -> dict[str, Any]:
        """The content of the combined ``summary.json``.

        Heads-up it names halves and hand pairs (``halves``, ``pairs``); three-handed,
        legs and deal groups (``legs``, ``groups``, ``"sample": "deal group"``).
        """
        first = self.legs[0]
        legs_key, count_key = ("halves", "pairs") if self.heads_up else ("legs", "groups")
        summaries = self.summaries()
        sample = None if self.heads_up else "deal group"
        statistics = (
            None if summaries is None else statistics_dict(self.names, summaries, True, sample)
        )
        players = []
        for bot, name in enumerate(self.names):
            results = [self.player(leg, bot) for leg in range(len(self.legs))]
            faults = {
                kind.value: sum(r.fault_counts.get(kind, 0) for r in results) for kind in FaultKind
            }
            players.append(
                {
                    "name": name,
                    "bankroll": self.bankrolls[bot],
                    legs_key: [r.bankroll for r in results],
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
            count_key: self.groups,
            "rounds_scheduled": len(self.orders) * first.rules.num_rounds,
            "interrupted": self.interrupted,
            "wall_seconds": round(sum(leg.wall_seconds for leg in self.legs), 3),
            legs_key: [
                {
                    "directory": directory,
                    "players": [player.name for player in leg.players],
                    "bankrolls": [player.bankroll for player in leg.players],
                    "rounds": leg.hands_played,
                }
                for directory, leg in zip(self.directories, self.legs, strict=False)
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
    """Play a duplicate match between the bots of one table and write its logs into ``out_dir``.

    ``specs`` must fill the game's seats (two heads-up, three in acpc-3pl).  Each leg
    starts every bot afresh in the leg's seating
    (:func:`~local_runner.engine.seating.duplicate_orders`)
    with the same seed, so the same cards go to the same seats, and writes its logs into
    its own subdirectory (:func:`leg_directories`); ``out_dir/summary.json`` combines
    them.  ``on_hand`` sees every hand of every leg (the record's ``number`` restarts
    at 1 in each).  After Ctrl-C in a leg, the next legs are not played.  ``sandbox``
    runs bot directories in a sandbox, as :func:`~local_runner.play.scrimmage.run_scrimmage`
    does.  A bot that does not start stops the match after that leg, unless
    ``play_absent`` (see :func:`~local_runner.play.scrimmage.run_scrimmage`).
    """
    seats = config.rules.seats
    if len(specs) != seats:
        if seats == 2:
            raise UsageError(f"A duplicate match needs two bots, not {len(specs)}.")
        raise UsageError(
            f"A duplicate match of {config.rules.variant} seats {seats} bots, but "
            f"{len(specs)} were given."
        )
    try:
        orders = duplicate_orders(seats)
    except ValueError:
        raise UsageError(
            f"A duplicate match is defined for 2 or 3 players; {config.rules.variant} "
            f"seats {seats}."
        ) from None
    names = tuple(unique_names(specs))
    bots = [replace(spec, name=name) for spec, name in zip(specs, names, strict=True)]
    directories = leg_directories(seats)
    legs: list[MatchResult] = []
    deltas: list[tuple[array[int], ...]] = []
    for leg, order in enumerate(orders):
        mine = tuple(array("q") for _ in names)

        def observe(
            record: HandRecord, mine: tuple[array[int], ...] = mine, order: tuple[int, ...] = order
        ) -> None:
            for bot, delta in zip(order, slot_deltas(record), strict=True):
                mine[bot].append(delta)
            if on_hand is not None:
                on_hand(record)

        try:
            result = run_scrimmage(
                [bots[bot] for bot in order],
                config,
                out_dir / directories[leg],
                observe,
                sandbox=sandbox,
                play_absent=play_absent,
            )
        except KeyboardInterrupt:  # while a later leg's bots were starting
            if not legs:
                raise
            break
        legs.append(result)
        deltas.append(mine)
        if result.interrupted or (result.not_started and not play_absent):
            break
    interrupted = len(legs) < len(orders) or any(leg.interrupted for leg in legs)
    duplicate = DuplicateResult(names, tuple(legs), tuple(deltas), interrupted, orders)
    write_summary(out_dir, duplicate.to_dict())
    return duplicate
