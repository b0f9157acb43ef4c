"""Where tournament matches run: a local process pool, or a Dask cluster.

Both are :class:`concurrent.futures.Executor` objects, so the scheduling code
(:mod:`local_runner.tables.tournament`) does not care which one it gets.  Workers of a
cluster may not share the client's file system, so bot directories travel as
:class:`BotBundle` archives and are unpacked once per worker machine; on Dask each
archive is sent to the workers once (:func:`send_once`), not with every match.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import importlib
import io
import multiprocessing
import os
import shutil
import signal
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from sdk.errors import KitError

from ..engine.interrupts import interrupt
from ..install import install_command

__all__ = [
    "BotBundle",
    "ExecutorError",
    "interrupt_requested",
    "interrupt_workers",
    "job_running",
    "local_pool",
    "open_executor",
    "send_once",
]

_T = TypeVar("_T")

#: Files a bundle leaves out: caches and version control, never needed to run a bot.
_SKIPPED = {"__pycache__", ".git", ".hg", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


class ExecutorError(KitError, RuntimeError):
    """An executor that cannot be opened (no Dask installed, no scheduler); says why."""


# -- local process pool -------------------------------------------------------

_busy = 0  # jobs running in this process (a pool worker runs one at a time)
_interrupted = False  # Ctrl-C reached this pool worker


@contextlib.contextmanager
def job_running() -> Iterator[None]:
    """Mark this process as playing a match, so that Ctrl-C interrupts the match.

    A pool worker ignores Ctrl-C while idle (so it does not die with a
    traceback) and turns it into ``KeyboardInterrupt`` while a match runs: the
    match then ends cleanly, stopping its bot processes.
    """
    global _busy
    _busy += 1
    try:
        yield
    finally:
        _busy -= 1


def interrupt_requested() -> bool:
    """Whether Ctrl-C reached this pool worker: the jobs still queued should not start."""
    return _interrupted


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    global _interrupted
    if _interrupted:
        return  # the match is already ending (a terminal's Ctrl-C and the runner's both came)
    _interrupted = True
    if _busy:
        interrupt(signum, frame)  # KeyboardInterrupt, held back while the match counts a hand


def interrupt_workers(executor: Executor) -> None:
    """Pass a stop to the local pool's workers, as a terminal's Ctrl-C would: the running
    matches end (their bots stopped, their logs kept) and the queued ones are not played.

    Needed when only the runner was signalled (``kill -INT PID``, ``timeout``, a job
    scheduler's SIGTERM): its workers would otherwise play on, queued matches included.
    A Dask cluster's workers are not signalled: their unstarted matches are cancelled, and
    the running ones end on their own.
    """
    if not isinstance(executor, ProcessPoolExecutor):
        return
    # The pool's own record of its worker processes: the only way to reach them.
    workers = list(getattr(executor, "_processes", None) or {})
    for pid in workers:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGINT)


def _watch_parent(parent: int) -> None:
    """End this worker when the process that started it is gone (killed with SIGKILL)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _init_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, _on_interrupt)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def local_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes (default: one per core).

    Workers are started fresh (``spawn``), not forked from a process that may
    have threads running, such as a live display's refresh thread.
    """
    count = workers or os.cpu_count() or 1
    return ProcessPoolExecutor(
        max_workers=count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(os.getpid(),),
    )


# -- Dask ---------------------------------------------------------------------


@contextlib.contextmanager
def open_executor(workers: int | None = None, scheduler: str | None = None) -> Iterator[Executor]:
    """An executor for matches: a local process pool, or the Dask cluster at ``scheduler``.

    ``workers`` sizes the local pool (default: one per core); a cluster has its
    own workers.  On exit, matches not yet started are cancelled, and the pool
    waits for running ones (which end quickly after Ctrl-C).
    """
    if scheduler is None:
        pool = local_pool(workers)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    try:
        # Loosely typed on purpose: the Client API is untyped, and optional here.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ExecutorError(
            "Running on a Dask cluster needs the distributed package, which is not "
            f"installed: {install_command('cluster')}"
        ) from None
    try:
        client = distributed.Client(scheduler, timeout="20s")
    except (OSError, TimeoutError, ValueError) as error:
        raise ExecutorError(
            f"Cannot connect to the Dask scheduler at {scheduler}: {error}. Check the address "
            "(for example tcp://10.0.0.5:8786) and that `dask scheduler` is running there."
        ) from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()


def _dask_client(executor: Executor) -> Any | None:
    """The Dask client behind ``executor`` (``client.get_executor()``), or None for any other.

    Recognised by its module, so that telling the two apart never imports Dask.
    """
    if not type(executor).__module__.startswith("distributed."):
        return None
    return getattr(executor, "_client", None)


def send_once(executor: Executor, items: Sequence[_T]) -> list[_T | Any]:
    """``items`` as jobs on ``executor`` should take them as arguments, each sent once.

    On a Dask cluster each item is scattered to every worker now, and a future of it is
    returned: a job given that future as an argument receives the item itself, from the
    worker's memory, so a bot's archive crosses the network once per worker rather than
    once per match (and the client does not hold a copy per queued match).  Any other
    executor gets the items themselves, pickled with each job that uses them (a local
    pool shares the file system, so its jobs carry no archives).
    """
    client = _dask_client(executor)
    if client is None or not items:
        return list(items)
    # hash=False: keys of this call's own, which no other tournament on the client releases.
    return list(client.scatter(list(items), broadcast=True, hash=False))


# -- shipping bot directories ---------------------------------------------------


def _cache_root() -> Path:
    return Path(tempfile.gettempdir()) / "pokerbots-bots"


@dataclass(frozen=True, slots=True)
class BotBundle:
    """A bot directory packed as a gzipped tar, to run on a machine that does not have it.

    Symbolic links are followed when packing (a bot's ``sdk`` link becomes real
    files); caches and version control directories are left out.
    """

    name: str
    digest: str
    data: bytes

    @classmethod
    def pack(cls, directory: Path) -> BotBundle:
        """Pack ``directory``; its files appear under ``name/`` in the archive."""
        directory = Path(directory).resolve()
        name = directory.name or "bot"

        def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
            if _SKIPPED.intersection(Path(info.name).parts):
                return None
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            return info

        buffer = io.BytesIO()
        # gzip stamps its header with the time of packing; a fixed stamp gives the same
        # directory the same digest whenever it is packed, so workers unpack it once.
        with (
            gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=1, mtime=0) as compressed,
            tarfile.open(fileobj=compressed, mode="w", dereference=True) as tar,
        ):
            tar.add(directory, arcname=name, filter=keep)
        data = buffer.getvalue()
        return cls(name, hashlib.sha256(data).hexdigest(), data)

    def unpack(self, root: Path | None = None) -> Path:
        """The bot's directory on this machine, unpacked under ``root`` on first use.

        Each bundle is unpacked once per machine (keyed by its digest); concurrent
        callers race safely, as the unpacked tree appears by one atomic rename.
        """
        root = root or _cache_root()
        target = root / self.digest[:24]
        if not target.is_dir():
            root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=root))
            try:
                with tarfile.open(fileobj=io.BytesIO(self.data), mode="r:gz") as tar:
                    tar.extractall(staging, filter="data")
                with contextlib.suppress(OSError):  # another worker won the race
                    staging.rename(target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        return target / self.name
