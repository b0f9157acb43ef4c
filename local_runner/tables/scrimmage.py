"""A scrimmage: the bots of one table (directories or built-ins) play one match, with logs.

This is the library behind ``pokerbots scrimmage``: it builds and starts bot
processes, connects them, plays the match, and always ends with every bot
process stopped and the logs of the hands played written, whatever the bots
did (and on Ctrl-C, during the builds, the connection or the match: a second
Ctrl-C while the bots are being stopped is ignored, so none is left behind).

With ``sandbox=True`` each directory bot runs in a bubblewrap sandbox
(:mod:`local_runner.programs.sandbox`): its own directory writable, the rest of the file
system read-only (the opponent's directory and the logs hidden), no network.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from sdk.games import ACPC, native_wire
from sdk.rules import ENVIRONMENT_VARIABLE, Rules

from ..bots.builtin import make_builtin
from ..engine.faults import FaultKind
from ..engine.match import Match, MatchSettings
from ..engine.records import HandRecord, MatchResult
from ..engine.seat_view import Message
from ..engine.seats import InProcessSeat, Reply, Seat
from ..engine.socket_seat import SocketSeat, accept_bot
from ..programs.bot_program import BotProgram
from ..programs.cpu_share import BotTasks, CpuShare
from ..programs.interpreter import BotPython, choose_python
from ..programs.process import (
    BotProcess,
    BotStartError,
    ResourceLimits,
    remember_processes,
    stop_bots,
)
from ..programs.sandbox import Sandbox, sandbox_problem
from ..results.match_stats import MatchStats
from ..results.stats import statistics_dict
from ..runs.layout import bot_log_name, keeps_dealer_log
from ..runs.log_handoff import HandLog, LogHandoff
from ..runs.writer import MatchLogWriter
from .config import ScrimmageConfig
from .spec import BotSpec, UsageError, unique_names

__all__ = ["BotSpec", "UsageError", "run_scrimmage", "unique_names"]


class _AbsentSeat(Seat):
    """A bot that never made it to the table (failed build, no connection): never asked."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def alive(self) -> bool:
        """Never."""
        return False

    @property
    def outstanding(self) -> int:
        """Nothing is ever sent."""
        return 0

    def send(self, message: Message, hand: int, ack: bool) -> None:
        """Never called: the engine does not send to a seat that is not alive."""

    def tell(self, message: Message, hand: int) -> None:
        """Never called: the engine does not send to a seat that is not alive."""

    def receive(self, budget: float) -> Reply:
        """Never called."""
        raise RuntimeError("An absent seat has no replies.")

    def quit(self) -> None:
        """Nothing to tell."""


def run_scrimmage(
    specs: Sequence[BotSpec],
    config: ScrimmageConfig,
    out_dir: Path,
    on_hand: Callable[[HandRecord], None] | None = None,
    record_reply_times: bool = False,
    sandbox: bool = False,
    stats: MatchStats | None = None,
    play_absent: bool = False,
    notice: Callable[[str], None] | None = None,
) -> MatchResult:
    """Play one match between the bots of a table and write its logs into ``out_dir``.

    A bot that fails to build or never connects stops the match before its first hand
    (``PlayerResult.start_failure`` says why; its log has the rest), unless ``play_absent``,
    when the match is played with that bot's every decision made by default (a tournament's
    forfeit).

    This plays one leg of a table (:func:`~local_runner.tables.table.play_table` plays a
    whole table and says what it means).  Returns the leg's result, players in the order
    given; ``result.interrupted`` is True after Ctrl-C.  Bot
    faults never raise: they are recorded in the result and the logs.
    ``record_reply_times`` keeps each decision's time in the player results.
    ``sandbox`` runs each directory bot in a bubblewrap sandbox; it raises
    :class:`UsageError` (saying how to install bubblewrap) where that is not possible.
    ``stats`` collects the per-hand moments behind the intervals of ``summary.json``; pass
    one to keep them.  ``notice`` is told, now and then, that a bot is still being waited
    for where the game sets no limit on connecting (the ACPC's); None writes to stderr.
    """
    seats = config.rules.seats
    if len(specs) != seats:
        raise UsageError(
            f"A {config.rules.variant} match seats {seats} bots, but {len(specs)} were given."
        )
    rules = config.rules
    mit_wired = [s.name for s in specs if s.program and not speaks_acpc(s.program, rules)]
    if seats > 2 and mit_wired:
        raise UsageError(
            f"{', '.join(mit_wired)} would play over the MIT wire protocol, which seats two "
            f"players; at a {seats}-seat table a bot speaks the ACPC wire: put "
            '"protocol": "acpc" in its commands.json and have it speak that wire (a kit bot: '
            '--protocol acpc in its run command, or run_bot(..., protocol="acpc")), or start '
            "it from a startme.sh alone."
        )
    if sandbox and (problem := sandbox_problem()) is not None:
        raise UsageError(problem)
    # The MIT games' checks after an all-in have no place on the ACPC wire either.
    variant_hooks = (
        rules.swap or rules.auction or rules.bounty or rules.discard or rules.all_in_checks
    )
    acpc_wired = [s.name for s in specs if s.program and speaks_acpc(s.program, rules)]
    if variant_hooks and acpc_wired:
        raise UsageError(
            f"{', '.join(acpc_wired)} speak(s) the ACPC wire, which has no words for swaps, "
            f"auctions, bounties, discards or the MIT games' checks after an all-in; play an "
            f"ACPC game (--variant acpc-2pl, acpc-2pn or acpc-3pl, or --game FILE), or play "
            f'{rules.variant} over the MIT wire (remove "protocol": "acpc" from commands.json '
            "and --protocol acpc from its run command)."
        )
    python = choose_python(config.runner.python)  # a bad setting is refused before anything runs
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"Cannot create the output directory {out_dir}: {error}.") from None
    table = _Table(specs, config, out_dir.resolve(), sandbox, python, notice or _to_stderr)
    interrupts = _InterruptDeferral()
    try:
        with ExitStack() as cleanup:
            writer = cleanup.enter_context(
                MatchLogWriter(out_dir, config.rules, tuple(table.names), config.seed)
            )
            dealer_log = None
            if keeps_dealer_log(config.rules):  # the ACPC server's log of the match, too
                # The ACPC modules only for an ACPC game (an MIT match starts without them).
                from ..runs.dealer_log import DealerLogWriter

                dealer_log = cleanup.enter_context(
                    DealerLogWriter(
                        out_dir, config.rules, tuple(table.names), config.seed, out_dir.name
                    )
                )
            try:
                table.seat_bots(cleanup)
            except KeyboardInterrupt:
                table.interrupted = True
            share = table.share_cpu()
            handoff: LogHandoff | None = None
            if share is not None:
                cleanup.callback(share.end)
                free = share.allowed - {share.cpu}
                if free and hasattr(os, "fork"):  # the hands' lines, written on a free CPU
                    logs: list[HandLog] = [writer]
                    if dealer_log is not None:
                        logs.append(dealer_log)
                    handoff = LogHandoff(logs, free, config.rules)
                    cleanup.callback(handoff.finish)  # (before the logs close)
            settings = MatchSettings(
                reply_timeout=config.runner.reply_limit(config.rules),
                record_reply_times=record_reply_times,
            )

            moments = stats if stats is not None else MatchStats(seats)  # flat in the hands

            def observe(record: HandRecord) -> None:
                if handoff is not None:
                    handoff.on_hand(record)
                else:
                    writer.on_hand(record)
                    if dealer_log is not None:
                        dealer_log.on_hand(record)
                moments(record)
                if on_hand is not None:
                    on_hand(record)

            match = Match(table.seats, config.rules, config.seed, settings, on_hand=observe)
            for slot, kind, detail, timed_out in table.early_faults:
                match.note_fault(slot, kind, detail, timed_out)
                match.players[slot].result.start_failure = f"{kind.value}: {detail}"
            if table.early_faults and not play_absent:
                match.finish(collect=False)  # no match: the bot that did start gets Q
                result = match.result()
            else:
                result = _play(match, table.interrupted)
            interrupts.start()  # from here on Ctrl-C must not stop the cleanup half-way
            if share is not None:
                share.end()  # first: the bots, told the match is over, exit on every CPU
            if handoff is not None:
                handoff.hand_off()  # the last hands' lines are written while the bots stop
            table.stop_bots(match)
            if handoff is not None:
                handoff.finish()
            result = match.result(result.wall_seconds)
            summaries = moments.summaries(config.rules.big_blind)
            names = [player.name for player in result.players]
            statistics = None if summaries is None else statistics_dict(names, summaries)
            writer.close(result, {"statistics": statistics, "clock": config.clock_dict()})
    finally:
        interrupts.end()
    return result


@dataclass
class _Table:
    """The bots of one scrimmage on their way to the table, and what became of them."""

    specs: Sequence[BotSpec]
    config: ScrimmageConfig
    out_dir: Path
    sandbox: bool
    python: BotPython
    notice: Callable[[str], None]
    names: list[str] = field(init=False)
    processes: list[BotProcess | None] = field(init=False)
    seats: list[Seat] = field(init=False)
    early_faults: list[tuple[int, FaultKind, str, bool]] = field(default_factory=list)
    interrupted: bool = False
    remembered: bool = False  # the bots' processes were noted before Q

    def __post_init__(self) -> None:
        self.names = unique_names(self.specs)
        self.processes = [None] * len(self.specs)
        self.seats = [_AbsentSeat(name) for name in self.names]

    def seat_bots(self, cleanup: ExitStack) -> None:
        """Build every directory bot, then start and connect each; fill in ``seats``."""
        rules, runner, limits = self.config.rules, self.config.runner, self.config.limits
        resource_limits = ResourceLimits(
            address_space=limits.address_space or None,
            cpu_seconds=limits.cpu_seconds or None,
            open_files=limits.open_files or None,
        )
        python = self.python
        env = {
            ENVIRONMENT_VARIABLE: rules.to_json(),
            "PATH": python.bot_path(os.environ.get("PATH", "")),
        }
        built: list[BotProcess | None] = [None] * len(self.specs)
        for slot, (spec, name) in enumerate(zip(self.specs, self.names, strict=True)):
            if spec.program is None:
                continue
            box = None
            if self.sandbox:
                box = Sandbox(spec.program.directory, self._hidden_from(slot))
                cleanup.callback(box.close)
            process = BotProcess(
                spec.program,
                name=name,
                log_path=self.out_dir / bot_log_name(name),
                log_limit=runner.log_limit,
                limits=resource_limits,
                env=env,
                adopt_orphans=True,
                sandbox=box,
            )
            self.processes[slot] = process
            process.note(f"python3 for this bot: {python.reason}")
            cleanup.callback(process.stop, runner.quit_grace)
            build = process.build(timeout=runner.build_timeout)
            if build.ok:
                built[slot] = process
            else:
                detail = build.message
                if build.timed_out:  # name the setting, so that the limit can be raised
                    detail += (
                        " (the build_timeout setting: build_timeout under [runner] in a "
                        "match config, --build-timeout for pokerbots validate)"
                    )
                self.early_faults.append((slot, FaultKind.BUILD_FAILED, detail, build.timed_out))
        # Every bot starts before any is waited for (the MIT engines start one, wait for it to
        # connect, then start the next): a match begins after the slowest bot's start-up,
        # not after the sum of them.
        starting: dict[int, _Starting] = {}
        for slot, ready in enumerate(built):
            if ready is not None and self.specs[slot].seat is None:
                begun = _start(ready, self.early_faults, slot)
                if begun is not None:
                    cleanup.callback(begun.listener.close)
                    starting[slot] = begun
        for slot, (spec, name) in enumerate(zip(self.specs, self.names, strict=True)):
            if spec.seat is not None:
                self.seats[slot] = spec.seat(name, rules)
            elif spec.builtin is not None:
                bot = make_builtin(spec.builtin, self.config.seed + slot)
                self.seats[slot] = InProcessSeat(name, bot, rules)
            elif (begun := starting.get(slot)) is not None:
                seat = _connect(
                    begun,
                    name,
                    runner.connect_limit(rules),
                    self.early_faults,
                    slot,
                    rules,
                    speaks_acpc(begun.process.program, rules),
                    self.notice,
                    self.remember_processes,
                )
                if isinstance(seat, SocketSeat):
                    cleanup.callback(seat.close)
                self.seats[slot] = seat
        sockets = [seat for seat in self.seats if isinstance(seat, SocketSeat)]
        for seat in sockets:
            seat.peers = [peer for peer in sockets if peer is not seat]

    def _hidden_from(self, slot: int) -> list[Path]:
        """What the bot in ``slot`` must not see: the logs and the other bots' directories."""
        hidden = [self.out_dir]
        mine = self.specs[slot].program
        for index, spec in enumerate(self.specs):
            other = spec.program
            if (
                index != slot
                and other is not None
                and mine is not None
                and other.directory != mine.directory
            ):
                hidden.append(other.directory)
        return hidden

    def share_cpu(self) -> CpuShare | None:
        """Put the runner and the bot processes on one CPU for the match, where the settings
        ask for it and every bot started (see :mod:`local_runner.programs.cpu_share`)."""
        if not self.config.runner.share_cpu or self.early_faults or self.interrupted:
            return None
        running = [
            (name, process)
            for name, process in zip(self.names, self.processes, strict=True)
            if process is not None
        ]

        def note(text: str) -> None:
            for _, process in running:
                process.note(text)

        bots = [BotTasks(name, process.process_ids) for name, process in running]
        return CpuShare.begin(bots, note)

    def remember_processes(self) -> None:
        """Note every bot's processes with one scan, just before the first ``Q`` is sent (each
        seat calls this; the later calls of the same match end find it done)."""
        if not self.remembered:
            self.remembered = True
            remember_processes([process for process in self.processes if process is not None])

    def stop_bots(self, match: Match) -> None:
        """Stop every bot process, all together, and record what the stopping found (peak
        memory, and a ``leftover_processes`` fault for any process that survived SIGKILL)."""
        for seat in self.seats:
            if isinstance(seat, SocketSeat):
                seat.close()  # after Q: end of file for bots that wait for it
        started = [process for process in self.processes if process is not None]
        reports = stop_bots(started, self.config.runner.quit_grace)
        for slot, process in enumerate(self.processes):
            if process is None:
                continue
            report = reports[started.index(process)]
            result = match.players[slot].result
            result.peak_memory_bytes = process.peak_memory_bytes
            result.output_dropped_bytes = process.bytes_dropped
            result.lingering_processes = list(report.lingering)
            errors, first, complete = process.bot_errors
            if errors:
                match.note_bot_errors(slot, errors, first or "", complete)
            if report.survivors:
                result.leftover_processes = list(report.survivors)
                pids = ", ".join(map(str, report.survivors))
                detail = f"{len(report.survivors)} process(es) survived SIGKILL: pid {pids}"
                match.note_fault(slot, FaultKind.LEFTOVER_PROCESSES, detail)


def _play(match: Match, interrupted: bool) -> MatchResult:
    """Play the match, or only end it if Ctrl-C came before it started; never raises on Ctrl-C."""
    if not interrupted:
        try:
            return match.play()
        except KeyboardInterrupt:  # a second Ctrl-C while the match was being ended
            pass
    match.interrupted = True
    match.stop()
    with suppress(KeyboardInterrupt):
        match.finish(collect=False)
    return match.result()


class _InterruptDeferral:
    """Holds Ctrl-C back between :meth:`start` and :meth:`end` (main thread only).

    Cleanup that a second Ctrl-C cut short would leave bot processes running.
    """

    def __init__(self) -> None:
        self._previous: Any = None
        self._active = False

    def start(self) -> None:
        """From now on, SIGINT is ignored."""
        if self._active or threading.current_thread() is not threading.main_thread():
            return
        self._previous = signal.signal(signal.SIGINT, self._ignore)
        self._active = True

    def _ignore(self, signum: int, frame: FrameType | None) -> None:
        """A Ctrl-C during cleanup: the match is already over, so there is nothing to stop."""

    def end(self) -> None:
        """Restore the previous SIGINT handler."""
        if self._active:
            signal.signal(signal.SIGINT, self._previous)
            self._active = False


def _to_stderr(line: str) -> None:
    """Write a notice on stderr, where it neither mixes with ``--json`` nor waits in a buffer."""
    print(line, file=sys.stderr, flush=True)


#: With no limit on connecting: seconds before the first "still waiting" notice, and
#: between the next ones (a real agent may load its strategy for ten seconds or more).
WAIT_NOTICE_FIRST = 10.0
WAIT_NOTICE_EVERY = 30.0


def wait_for_bot(
    listener: socket.socket,
    process: BotProcess,
    timeout: float | None,
    notice: Callable[[str], None],
    who: str,
) -> socket.socket | None:
    """The bot's connection to ``listener``: within ``timeout`` seconds, or with None as
    long as its process runs, telling ``notice`` how long ``who`` has been waited for after
    :data:`WAIT_NOTICE_FIRST` seconds and every :data:`WAIT_NOTICE_EVERY` after that.

    None when the process ends first (or the time is up).
    """

    def exited() -> bool:
        return process.poll() is not None

    if timeout is not None:
        return accept_bot(listener, timeout, exited)
    started = time.monotonic()
    next_notice = WAIT_NOTICE_FIRST
    while True:
        waited = time.monotonic() - started
        connection = accept_bot(listener, max(next_notice - waited, 0.05), exited)
        if connection is not None or exited():
            return connection
        waited = time.monotonic() - started
        if waited >= next_notice:
            notice(
                f"Waiting for {who} to connect: {waited:.0f} s so far; the ACPC rules set no "
                "limit; Ctrl-C to stop."
            )
            next_notice += WAIT_NOTICE_EVERY


@dataclass
class _Starting:
    """A bot process that has been started and is expected to connect to ``listener``."""

    process: BotProcess
    listener: socket.socket
    started: float  # time.monotonic() just before the process started


def _start(
    process: BotProcess, early_faults: list[tuple[int, FaultKind, str, bool]], slot: int
) -> _Starting | None:
    """Open the socket ``process`` will connect to and start it; None (and a fault noted) if
    it could not be started.

    A sandboxed bot connects to its relay on ``127.0.0.1:PORT`` inside the sandbox; the relay
    connects to the runner's Unix socket, which is what listens here, and passes the bot's
    connection over it.
    """
    box = process.sandbox
    if box is not None:
        listener, port = box.listen(), box.port
    else:
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
    started = time.monotonic()
    try:
        process.start(host="127.0.0.1", port=port)
    except BotStartError as error:
        listener.close()
        early_faults.append((slot, FaultKind.NEVER_CONNECTED, f"could not start: {error}", False))
        return None
    return _Starting(process, listener, started)


def _connect(
    begun: _Starting,
    name: str,
    timeout: float | None,
    early_faults: list[tuple[int, FaultKind, str, bool]],
    slot: int,
    rules: Rules | None = None,
    acpc: bool = False,
    notice: Callable[[str], None] = _to_stderr,
    before_quit: Callable[[], None] | None = None,
) -> Seat:
    """Wait for a started bot to connect; an absent seat if it does not.

    ``timeout`` counts from the bot's start (so bots started together each get all of it);
    None waits as long as the process runs (``notice`` hears that it is still being waited
    for).  ``rules`` are the match's (the MIT codec of Toss Hold'em needs them); with
    ``acpc`` the seat speaks the ACPC wire to the bot.  ``before_quit`` is called before
    ``Q`` is sent (default: the process notes its processes).
    """
    process, box = begun.process, begun.process.sandbox
    with begun.listener:
        left = None if timeout is None else max(timeout - (time.monotonic() - begun.started), 0)
        who = f"seat {slot + 1} ({name})"
        connection = wait_for_bot(begun.listener, process, left, notice, who)
    if connection is not None and box is not None:
        connection = box.take_connection(connection)
    if connection is None:
        if process.poll() is not None:
            detail = f"exited before connecting ({process.exit_description()})"
        else:
            detail = f"did not connect within {timeout or 0:g} s"
        early_faults.append((slot, FaultKind.NEVER_CONNECTED, detail, False))
        return _AbsentSeat(name)

    def exit_status() -> str | None:
        return process.exit_description() if process.poll() is not None else None

    remember = before_quit if before_quit is not None else process.remember_processes
    if acpc and rules is not None:
        from ..engine.acpc_seat import AcpcSocketSeat  # the ACPC modules only for that wire

        return AcpcSocketSeat(name, connection, rules, exit_status, before_quit=remember)
    return SocketSeat(name, connection, exit_status, before_quit=remember, rules=rules)


def speaks_acpc(program: BotProgram, rules: Rules) -> bool:
    """Whether the bot speaks the ACPC wire: its commands.json says so, or it has only a
    startme.sh and the game is an ACPC one (as the ACPC server starts every bot)."""
    if program.protocol != "auto":
        return program.protocol == ACPC
    return native_wire(rules) == ACPC
