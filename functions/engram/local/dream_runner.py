"""``engram dream``: one dream run on the embedded store, from the terminal.

The same planner and worker code as the cloud: the planner fills an in-memory queue,
and its batches are processed here, by this process or by a pool of worker processes
(each with its own SQLite connection; WAL lets them read side by side). The search
index catches up once at the end, from the store's outbox, instead of after every change.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.synchronize import Lock
from pathlib import Path

from engram.adapters.dream_queue import InMemoryDreamQueue
from engram.adapters.sqlite.db import SqliteDb
from engram.adapters.sqlite.entries import SqliteEntries
from engram.adapters.sqlite.users import SqliteAgentConfigs, SqliteProfiles
from engram.domain.dream_run import DreamMessage, DreamRun, Stats, Trigger
from engram.ports import Clock
from engram.service.dream import BatchResult, DreamService
from engram.settings import Settings

RETRIES = 3


@dataclass(frozen=True, slots=True)
class LocalRunResult:
    run: DreamRun
    stats: Stats
    seconds: float


class _TakeTurns(SqliteDb):
    """Worker processes take turns at SQLite's write lock through a lock they share, which
    hands over at once; SQLite's own busy wait sleeps in steps of up to 100 ms while
    another process writes, which is most of the time when every worker writes."""

    def __init__(self, path: Path, lock: Lock) -> None:
        super().__init__(path)
        self._turn = lock

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        with self._turn, super().tx() as conn:
            yield conn


def local_service(
    settings: Settings, queue: InMemoryDreamQueue, clock: Clock | None = None, write_lock: Lock | None = None
) -> DreamService:
    """A dream service on its own store connection, without the index listener: the
    caller syncs the index once at the end."""
    from engram.adapters.local_index import LocalIndex
    from engram.adapters.local_index_vectors import LocalIndexVectors
    from engram.adapters.sqlite.dream_state import SqliteDreamState
    from engram.container import make_clock, make_embedder, make_summarizer
    from engram.service.agents import AgentConfigService

    db = SqliteDb(settings.sqlite_path) if write_lock is None else _TakeTurns(settings.sqlite_path, write_lock)
    return DreamService(
        SqliteEntries(db),
        SqliteProfiles(db),
        SqliteDreamState(db),
        queue,
        make_embedder(settings),
        # The settings' clock (ENGRAM_CLOCK_START), as the server's: not the wall clock.
        clock or make_clock(settings),
        AgentConfigService(SqliteAgentConfigs(db)),
        # The configured summarizer (ENGRAM_DREAM_SUMMARIZER), as the server's.
        make_summarizer(settings),
        vectors=LocalIndexVectors(LocalIndex(settings.index_path)),
        batch_users=settings.dream_batch_users,
    )


_worker: DreamService | None = None


def _init_worker(settings: Settings, write_lock: Lock, now: datetime) -> None:
    from engram.container import StartedClock

    global _worker
    # The run's clock, not one of its own: a worker reads the time its parent's clock
    # (ENGRAM_CLOCK_START, or the clock a caller injected) showed when the pool started,
    # and lets it run on. A clock built here from the settings would start later, and an
    # injected one would be lost.
    _worker = local_service(settings, InMemoryDreamQueue(), StartedClock(now), write_lock=write_lock)


def _handle_in_worker(message: DreamMessage) -> BatchResult:
    assert _worker is not None
    return _worker.handle(message)


def run_dream(
    settings: Settings,
    *,
    tenant_id: str | None = None,
    workers: int = 1,
    clock: Clock | None = None,
    on_planned: Callable[[DreamRun], None] | None = None,
    on_batch: Callable[[BatchResult], None] | None = None,
) -> LocalRunResult:
    """Plan one run and process every batch; returns the run, its totals and the time."""
    started = time.perf_counter()
    queue = InMemoryDreamQueue()
    service = local_service(settings, queue, clock)
    run = service.start(Trigger.CLI, tenant_id)
    run = service.plan(run.run_id)
    if on_planned is not None:
        on_planned(run)
    for result in _process(settings, service, queue, workers):
        if on_batch is not None:
            on_batch(result)
    final = service.state.get_run(run.run_id) or run
    stats = service.state.run_stats(run.run_id)
    return LocalRunResult(final, stats, time.perf_counter() - started)


def _process(
    settings: Settings, service: DreamService, queue: InMemoryDreamQueue, workers: int
) -> Iterator[BatchResult]:
    pending: list[tuple[DreamMessage, int]] = [(m, 1) for m in queue.receive(len(queue))]
    if workers <= 1:
        while pending:
            message, attempt = pending.pop(0)
            result = service.handle(message)
            pending.extend(_retry(message, result, attempt))
            yield result
        return
    # Spawned, not forked: a worker starts clean (no copy of this process's memory, no
    # inherited SQLite connections or threads) and opens its own connections.
    spawn = multiprocessing.get_context("spawn")
    write_lock = spawn.Lock()
    initargs = (settings, write_lock, service.clock.now())
    with ProcessPoolExecutor(workers, spawn, initializer=_init_worker, initargs=initargs) as pool:
        running: dict[Future[BatchResult], tuple[DreamMessage, int]] = {}
        while pending or running:
            # A few messages per worker in flight keeps every core busy without
            # queueing the whole run in the pool.
            while pending and len(running) < workers * 2:
                message, attempt = pending.pop(0)
                running[pool.submit(_handle_in_worker, message)] = (message, attempt)
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                message, attempt = running.pop(future)
                result = future.result()
                pending.extend(_retry(message, result, attempt))
                yield result


def _retry(message: DreamMessage, result: BatchResult, attempt: int) -> list[tuple[DreamMessage, int]]:
    if result.retry and attempt < RETRIES:
        return [(DreamMessage.batch(message.run_id, result.retry), attempt + 1)]
    return []
