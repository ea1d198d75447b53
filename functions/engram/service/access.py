"""Access statistics (count, last accessed) for what recall returned, off the request path.

Recall must not wait for a write. Locally a ``BackgroundAccessRecorder`` queues the ids
and one daemon thread applies them in coalesced batches through
``MemoryRepository.record_access`` (not a versioned change, never a new index
document). In the cloud the API Lambda is frozen as soon as it answers, so a thread
cannot be trusted to finish there; the recorder it uses is ``InlineAccessRecorder``
until the queue-backed one lands (docs/recall.md, "Access statistics").

Access statistics are best effort by design: losing a few counts in a crash is
acceptable, a slower or failed recall is not. A failed batch is logged and dropped.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from aws_lambda_powertools import Logger

from engram.ports import MemoryRepository

logger = Logger(service="engram", child=True)


@dataclass(frozen=True, slots=True)
class Access:
    tenant_id: str
    user_id: str
    entry_ids: tuple[str, ...]
    at: datetime
    # (entry id, its last_accessed_at as recall read it): lets a sampling store keep
    # that time fresh without writing on every recall.
    last_accessed: tuple[tuple[str, datetime | None], ...] = ()


class AccessRecorder(Protocol):
    def record(self, access: Access) -> None:
        """Note that these entries were recalled; must return at once."""
        ...


class InlineAccessRecorder:
    """Writes at once, in the caller's thread (tests; hosts with no background work)."""

    def __init__(self, repo: MemoryRepository) -> None:
        self._repo = repo

    def record(self, access: Access) -> None:
        if access.entry_ids:
            _apply(self._repo, [access])


class BackgroundAccessRecorder:
    def __init__(
        self, repo: MemoryRepository, max_pending: int = 10_000, batch: int = 1024, interval: float = 0.25
    ) -> None:
        self._repo = repo
        self._queue: queue.Queue[Access | None] = queue.Queue(maxsize=max_pending)
        self._batch = batch
        # The worker wakes at most this often: a burst of recalls becomes one write, and
        # the worker rarely competes with requests for the interpreter.
        self._interval = interval
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.dropped = 0

    def record(self, access: Access) -> None:
        if not access.entry_ids:
            return
        self._ensure_started()
        try:
            self._queue.put_nowait(access)
        except queue.Full:
            # Under overload recall keeps its latency; the statistics lose a little.
            self.dropped += 1

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything queued so far is written (tests, shutdown)."""
        if self._thread is None:
            return True
        done = threading.Event()
        mark = _Marker(done)
        self._queue.put(mark)  # type: ignore[arg-type]
        return done.wait(timeout)

    def _ensure_started(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="engram-access-stats", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if not isinstance(first, _Marker):
                time.sleep(self._interval)
            items: list[object] = [first]
            while len(items) < self._batch:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            accesses = [a for a in items if isinstance(a, Access)]
            if accesses:
                _apply(self._repo, accesses)
            for marker in items:
                if isinstance(marker, _Marker):
                    marker.done.set()


@dataclass(frozen=True, slots=True)
class _Marker:
    done: threading.Event


def _apply(repo: MemoryRepository, accesses: Sequence[Access]) -> None:
    """Coalesce per user: ``record_access`` counts each id once per call, so an entry
    recalled n times in the batch goes into n rounds; most batches are one round."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    latest: dict[tuple[str, str], datetime] = {}
    seen: dict[tuple[str, str], dict[str, datetime | None]] = {}
    for a in accesses:
        owner = (a.tenant_id, a.user_id)
        seen.setdefault(owner, {}).update(a.last_accessed)
        counts.setdefault(owner, Counter()).update(dict.fromkeys(a.entry_ids, 1))
        latest[owner] = max(latest.get(owner, a.at), a.at)
    for (tenant_id, user_id), counter in counts.items():
        for round_ in range(1, max(counter.values()) + 1):
            ids = [i for i, n in counter.items() if n >= round_]
            try:
                known = seen.get((tenant_id, user_id), {})
                at = latest[(tenant_id, user_id)]
                if all(i in known for i in ids):
                    repo.record_access(tenant_id, user_id, ids, at, {i: known[i] for i in ids})
                else:
                    repo.record_access(tenant_id, user_id, ids, at)
            except Exception as exc:  # statistics must never take recall down
                logger.warning(
                    "access statistics not recorded",
                    extra={"tenant_id": tenant_id, "entries": len(ids), "error_type": type(exc).__name__},
                )
