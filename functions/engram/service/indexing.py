"""Keeping the search index in step with the store.

The same function serves the cloud (the ``indexer`` Lambda, fed by the DynamoDB
stream) and the laptop (drained from the SQLite outbox after each commit): an entry
that is live is embedded and upserted; anything else is removed, so the index never
keeps what the store lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

try:  # POSIX only; elsewhere a single server process needs no cross-process lock
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

from engram.domain.models import MemoryEntry, Status
from engram.ports import ChangeOutbox, DocKind, Embedder, EntryChange, IndexDocument, SearchIndex


def entry_document(entry: MemoryEntry, vector: Sequence[float] | None, model_id: str | None) -> IndexDocument:
    return IndexDocument(
        id=entry.id,
        tenant_id=entry.tenant_id,
        user_id=entry.user_id,
        kind=DocKind.MEMORY,
        text=entry.text(),
        vector=vector,
        model_id=model_id,
        visibility=entry.visibility.value,
        source_agent_id=entry.source_agent_id,
        group_ids=entry.group_ids,
        category=entry.category,
        key=entry.key,
        importance=entry.importance,
        confidence=entry.confidence,
        updated_at=entry.updated_at,
        expires_at=entry.expires_at,
    )


class Indexer:
    def __init__(self, index: SearchIndex, embedder: Embedder) -> None:
        self._index = index
        self._embedder = embedder

    def apply(self, changes: Sequence[EntryChange], now: datetime | None = None) -> None:
        live = [c.entry for c in changes if c.entry is not None and c.entry.status is Status.ACTIVE]
        gone = [c for c in changes if c.entry is None or c.entry.status is not Status.ACTIVE]
        if live:
            vectors = self._embedder.embed([e.text() for e in live])
            self._index.upsert(
                [entry_document(e, v, self._embedder.model_id) for e, v in zip(live, vectors, strict=True)]
            )
        by_owner: dict[tuple[str, str], list[str]] = {}
        for c in gone:
            by_owner.setdefault((c.tenant_id, c.user_id), []).append(c.entry_id)
        for (tenant_id, user_id), ids in by_owner.items():
            self._index.delete(tenant_id, user_id, ids)


class OutboxDrainer:
    """Drains the embedded store's outbox into the index (the local change feed)."""

    def __init__(self, store: ChangeOutbox, indexer: Indexer, lock_path: Path | None = None) -> None:
        self._store = store
        self._indexer = indexer
        self._lock = threading.Lock()
        self._lock_path = lock_path

    def drain(self, progress: Callable[[int], None] | None = None) -> int:
        """Index every pending change; ``progress`` hears the running count after each batch."""
        with self._lock, _file_lock(self._lock_path):
            return self._drain(progress)

    def _drain(self, progress: Callable[[int], None] | None = None) -> int:
        done = 0
        while True:
            pending = self._store.pending_changes(500)
            if not pending:
                return done
            changes: list[EntryChange] = []
            by_owner: dict[tuple[str, str], list[str]] = {}
            for _, t, u, eid in pending:
                by_owner.setdefault((t, u), []).append(eid)
            for (t, u), ids in by_owner.items():
                found = {e.id: e for e in self._store.get_entries(t, u, ids)}
                changes.extend(EntryChange(t, u, i, found.get(i)) for i in dict.fromkeys(ids))
            self._indexer.apply(changes)
            self._store.ack_changes(pending[-1][0])
            done += len(pending)
            if progress is not None:
                progress(done)


@contextmanager
def _file_lock(path: Path | None) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` across processes (several server workers).

    Two processes draining at once could each read an entry, and the one that read the
    older version could write it to the index last; one drainer at a time keeps the
    index in commit order. The OS drops the lock if a process dies holding it.
    """
    if path is None or fcntl is None:
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
