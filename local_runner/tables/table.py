"""Playing a table: a single match, or a duplicate match over every seating.

A table is played in legs over the same seeded deals (:func:`play_table`); a single match
is one leg, written to the run folder itself.

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

A duplicate's legs are ordinary scrimmages, written to ``out_dir/half-1`` and
``out_dir/half-2`` heads-up and to ``out_dir/leg-1`` ... ``out_dir/leg-6`` three-handed;
``out_dir/summary.json`` combines them.  Either way the result is one
:class:`~local_runner.results.table.TableResult`.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from ..engine.records import HandRecord, MatchResult
from ..engine.seating import duplicate_orders
from ..results.match_stats import MatchStats, slot_deltas
from ..results.stats import Moments
from ..results.table import BankrollCurve, TableResult
from ..runs.layout import leg_directories
from ..runs.summary import write_summary
from .config import ScrimmageConfig
from .scrimmage import run_scrimmage
from .spec import BotSpec, UsageError, unique_names

__all__ = ["planned_legs", "play_table"]


def planned_legs(seats: int, duplicate: bool) -> int:
    """How many legs a table of ``seats`` plays: one, or every seating of a duplicate."""
    return len(duplicate_orders(seats)) if duplicate and seats <= 3 else 1


def play_table(
    specs: Sequence[BotSpec],
    config: ScrimmageConfig,
    out_dir: Path,
    duplicate: bool = False,
    on_hand: Callable[[HandRecord], None] | None = None,
    sandbox: bool = False,
    play_absent: bool = False,
    notice: Callable[[str], None] | None = None,
) -> TableResult:
    """Play one table of bots and write its logs into ``out_dir``; the one way to play.

    ``specs`` must fill the game's seats (two heads-up, three in acpc-3pl).  A single match
    is one leg, logged in ``out_dir`` itself.  With ``duplicate`` every seating of
    :func:`~local_runner.engine.seating.duplicate_orders` plays the same deals, each leg
    starting every bot afresh, with its logs in its own subdirectory
    (:func:`~local_runner.runs.layout.leg_directories`) and ``out_dir/summary.json``
    combining them.  ``on_hand`` sees every hand of every leg (the record's ``number``
    restarts at 1 in each).  After Ctrl-C in a leg, the next legs are not played.
    ``sandbox`` runs bot directories in a sandbox, as
    :func:`~local_runner.tables.scrimmage.run_scrimmage` does.  A bot that does not start
    stops the table after that leg, unless ``play_absent`` (see
    :func:`~local_runner.tables.scrimmage.run_scrimmage`, which also says what ``notice``
    hears).  Bot faults never raise.

    >>> from pathlib import Path; import tempfile
    >>> from local_runner.tables.config import ScrimmageConfig
    >>> from local_runner.tables.spec import BotSpec
    >>> from sdk.rules import Rules
    >>> config = ScrimmageConfig(rules=Rules(num_rounds=20), seed=7)
    >>> bots = [BotSpec.parse("builtin:checkcall"), BotSpec.parse("builtin:raise")]
    >>> result = play_table(bots, config, Path(tempfile.mkdtemp()), duplicate=True)
    >>> result.duplicate, result.hands_played, result.samples, sum(result.bankrolls)
    (True, 40, 20, 0)
    """
    seats = config.rules.seats
    if len(specs) != seats:
        if not duplicate:
            raise UsageError(
                f"A {config.rules.variant} match seats {seats} bots, but {len(specs)} were given."
            )
        if seats == 2:
            raise UsageError(f"A duplicate match needs two bots, not {len(specs)}.")
        raise UsageError(
            f"A duplicate match of {config.rules.variant} seats {seats} bots, but "
            f"{len(specs)} were given."
        )
    if duplicate:
        try:
            orders = duplicate_orders(seats)
        except ValueError:
            raise UsageError(
                f"A duplicate match is defined for 2 or 3 players; {config.rules.variant} "
                f"seats {seats}."
            ) from None
        directories = leg_directories(seats)
    else:
        orders, directories = (tuple(range(seats)),), ("",)
    names = tuple(unique_names(specs))
    bots = [replace(spec, name=name) for spec, name in zip(specs, names, strict=True)]
    curve = BankrollCurve(seats)
    # A single match's samples are its hands: the leg's own moments (flat in the hands), the
    # same that its summary.json's intervals come from, so they are added up once.
    per_hand = None if duplicate else MatchStats(seats)
    legs: list[MatchResult] = []
    deltas: list[tuple[array[int], ...]] = []
    for leg, order in enumerate(orders):
        mine = tuple(array("q") for _ in names)

        def observe(
            record: HandRecord, mine: tuple[array[int], ...] = mine, order: tuple[int, ...] = order
        ) -> None:
            by_bot = [0] * seats
            for bot, delta in zip(order, slot_deltas(record), strict=True):
                by_bot[bot] = delta
            if duplicate:  # deals pair up across legs: keep each hand until the end
                for bot, delta in enumerate(by_bot):
                    mine[bot].append(delta)
            curve.add(by_bot)
            if on_hand is not None:
                on_hand(record)

        try:
            result = run_scrimmage(
                [bots[bot] for bot in order],
                config,
                out_dir / directories[leg],
                observe,
                sandbox=sandbox,
                stats=per_hand,
                play_absent=play_absent,
                notice=notice,
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
    if per_hand is None:
        moments = tuple(Moments.of(_deal_sums(deltas, len(orders), bot)) for bot in range(seats))
    else:  # one leg in the bots' own order: its match order is the bots' order
        moments = per_hand.players
    table = TableResult(
        names, tuple(legs), orders, moments, interrupted, directories, curve, config.clock_dict()
    )
    if duplicate:  # a single match's leg summary is the table's
        write_summary(out_dir, table.to_dict())
    return table


def _deal_sums(deltas: Sequence[tuple[array[int], ...]], legs: int, bot: int) -> list[int]:
    """Bot ``bot``'s result per deal played in every leg, summed over the legs; none until
    every leg has been played."""
    if len(deltas) < legs:
        return []
    complete = min(len(leg[0]) for leg in deltas)
    return [sum(values) for values in zip(*(leg[bot][:complete] for leg in deltas), strict=True)]
