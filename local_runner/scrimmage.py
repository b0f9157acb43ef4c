"""A scrimmage: two bots (directories or built-ins) play one match, with logs.

This is the library behind ``pokerbots scrimmage``: it builds and starts bot
processes, connects them, plays the match, and always ends with every bot
process stopped and the logs of the hands played written, whatever the bots
did (and on Ctrl-C).
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from sdk.protocol import Clause
from sdk.rules import ENVIRONMENT_VARIABLE

from .builtin_bots import BUILTIN_BOTS, make_builtin
from .config import ScrimmageConfig
from .faults import FaultKind
from .logs import MatchLogWriter
from .match import Match, MatchSettings
from .process import BotDirectoryError, BotProcess, BotProgram, BotStartError, ResourceLimits
from .records import HandRecord, MatchResult
from .seats import InProcessSeat, Reply, Seat
from .socket_seat import SocketSeat, accept_bot

__all__ = ["BotSpec", "UsageError", "run_scrimmage"]


class UsageError(ValueError):
    """A scrimmage that cannot start (a missing bot, a bad name); the message says why."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot to play: a directory with ``commands.json`` or ``startme.sh``, or ``builtin:NAME``."""

    name: str
    builtin: str | None = None
    program: BotProgram | None = None

    @staticmethod
    def parse(text: str) -> BotSpec:
        """Read a command-line bot: ``builtin:random`` or a path to a bot directory."""
        if text.startswith("builtin:"):
            name = text.removeprefix("builtin:")
            if name not in BUILTIN_BOTS:
                raise UsageError(
                    f"There is no built-in bot {text!r}; choose one of: "
                    f"{', '.join('builtin:' + n for n in BUILTIN_BOTS)}."
                )
            return BotSpec(name=name, builtin=name)
        path = Path(text)
        try:
            program = BotProgram.from_directory(path)
        except BotDirectoryError as error:
            raise UsageError(str(error)) from None
        return BotSpec(name=program.directory.name or "bot", program=program)


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

    def send(self, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        """Never called: the engine does not send to a seat that is not alive."""

    def receive(self, budget: float) -> Reply:
        """Never called."""
        raise RuntimeError("An absent seat has no replies.")

    def quit(self) -> None:
        """Nothing to tell."""


def _unique_names(specs: Sequence[BotSpec]) -> list[str]:
    names = [spec.name for spec in specs]
    if len(set(names)) < len(names):
        names = [f"{name}-{index + 1}" for index, name in enumerate(names)]
    return names


def run_scrimmage(
    specs: Sequence[BotSpec],
    config: ScrimmageConfig,
    out_dir: Path,
    on_hand: Callable[[HandRecord], None] | None = None,
    record_reply_times: bool = False,
) -> MatchResult:
    """Play one match between two bots and write its logs into ``out_dir``.

    Returns the result; ``result.interrupted`` is True after Ctrl-C.  Bot
    faults never raise: they are recorded in the result and the logs.
    ``record_reply_times`` keeps each decision's time in the player results.
    """
    if len(specs) != 2:
        raise UsageError(f"A scrimmage needs two bots, not {len(specs)}.")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"Cannot create the output directory {out_dir}: {error}.") from None
    rules, runner = config.rules, config.runner
    names = _unique_names(specs)
    limits = ResourceLimits(
        address_space=config.limits.address_space or None,
        cpu_seconds=config.limits.cpu_seconds or None,
        open_files=config.limits.open_files or None,
    )
    env = {
        ENVIRONMENT_VARIABLE: rules.to_json(),
        # Bots that run `python3` get the kit's interpreter (and its eval7) first.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    }
    with ExitStack() as cleanup:
        writer = cleanup.enter_context(
            MatchLogWriter(out_dir, rules, (names[0], names[1]), config.seed)
        )
        processes: list[BotProcess | None] = []
        early_faults: list[tuple[int, FaultKind, str]] = []
        for slot, (spec, name) in enumerate(zip(specs, names, strict=False)):
            if spec.program is None:
                processes.append(None)
                continue
            process = BotProcess(
                spec.program,
                name=name,
                log_path=out_dir / f"{name}.log",
                log_limit=runner.log_limit,
                limits=limits,
                env=env,
            )
            cleanup.callback(process.stop, runner.quit_grace)
            build = process.build(timeout=runner.build_timeout)
            if build.ok:
                processes.append(process)
            else:
                processes.append(None)
                early_faults.append((slot, FaultKind.BUILD_FAILED, build.message))
        seats: list[Seat] = []
        for slot, (spec, name) in enumerate(zip(specs, names, strict=False)):
            started = processes[slot]
            if spec.builtin is not None:
                seats.append(
                    InProcessSeat(name, make_builtin(spec.builtin, config.seed + slot), rules)
                )
            elif started is None:
                seats.append(_AbsentSeat(name))
            else:
                seats.append(_connect(started, name, runner.connect_timeout, early_faults, slot))
        sockets = [seat for seat in seats if isinstance(seat, SocketSeat)]
        for seat in sockets:
            seat.peers = [peer for peer in sockets if peer is not seat]
            cleanup.callback(seat.close)

        def observe(record: HandRecord) -> None:
            writer.on_hand(record)
            if on_hand is not None:
                on_hand(record)

        settings = MatchSettings(
            reply_timeout=runner.reply_timeout, record_reply_times=record_reply_times
        )
        match = Match(seats, rules, config.seed, settings, on_hand=observe)
        for slot, kind, detail in early_faults:
            match.note_fault(slot, kind, detail)
        result = match.play()
        for slot, running in enumerate(processes):
            if running is not None:
                running.stop(runner.quit_grace)
                match.players[slot].result.peak_memory_bytes = running.peak_memory_bytes
                if running.output_truncated:
                    match.note_fault(
                        slot,
                        FaultKind.OUTPUT_TRUNCATED,
                        f"wrote {running.bytes_dropped} bytes past the "
                        f"{runner.log_limit}-byte log limit",
                    )
        result = match.result(result.wall_seconds)
        writer.close(result)
    return result


def _connect(
    process: BotProcess,
    name: str,
    timeout: float,
    early_faults: list[tuple[int, FaultKind, str]],
    slot: int,
) -> Seat:
    """Start ``process`` and wait for it to connect; an absent seat if it does not."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        try:
            process.start(host="127.0.0.1", port=port)
        except BotStartError as error:
            early_faults.append((slot, FaultKind.NEVER_CONNECTED, f"could not start: {error}"))
            return _AbsentSeat(name)
        connection = accept_bot(listener, timeout, lambda: process.poll() is not None)
    if connection is None:
        if process.poll() is not None:
            detail = f"exited before connecting ({process.exit_description()})"
        else:
            detail = f"did not connect within {timeout:g} s"
        early_faults.append((slot, FaultKind.NEVER_CONNECTED, detail))
        return _AbsentSeat(name)

    def exit_status() -> str | None:
        return process.exit_description() if process.poll() is not None else None

    return SocketSeat(name, connection, exit_status)
