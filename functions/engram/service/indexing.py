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
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

try:  # POSIX only; elsewhere a single server process needs no cross-process lock
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

from aws_lambda_powertools import Logger

from engram.domain.conversation import (
    Message,
    ThreadSummary,
    message_doc_id,
    message_embedding_text,
    message_search_text,
    speaker_of,
    summary_doc_id,
)
from engram.domain.models import MemoryEntry, Status, Visibility
from engram.ports import ChangeOutbox, DocKind, Embedder, EntryChange, ErasureMarks, IndexDocument, SearchIndex
from engram.service.retrieval import IndexWriter

logger = Logger(service="engram", child=True)


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
        occurred_at=entry.source_time or entry.created_at,
    )


def message_document(msg: Message) -> IndexDocument:
    """A past message as the index holds it (embedded as ``message_embedding_text``)."""
    return IndexDocument(
        id=message_doc_id(msg.agent_id, msg.thread_id, msg.id),
        tenant_id=msg.tenant_id,
        user_id=msg.user_id,
        kind=DocKind.MESSAGE,
        text=message_search_text(msg),
        vector=None,
        model_id=None,
        # A thread is between the user and one agent: its messages are that agent's own,
        # as self memories are.
        visibility=Visibility.SELF.value,
        source_agent_id=msg.agent_id,
        thread_id=msg.thread_id,
        category=msg.role.value,
        updated_at=msg.created_at,
        occurred_at=msg.timestamp,
        speaker=speaker_of(msg),
    )


def index_messages(writer: IndexWriter, messages: Sequence[Message]) -> int:
    """Embed and index the messages that have something to say; how many went in."""
    said = [m for m in messages if m.content.strip()]
    writer.write([message_document(m) for m in said], [message_embedding_text(m) for m in said])
    return len(said)


def summary_document(s: ThreadSummary) -> IndexDocument:
    """A thread's rolling summary as the index holds it (its agent's own)."""
    return IndexDocument(
        id=summary_doc_id(s.agent_id, s.thread_id),
        tenant_id=s.tenant_id,
        user_id=s.user_id,
        kind=DocKind.SUMMARY,
        text=s.text,
        vector=None,
        model_id=None,
        visibility=Visibility.SELF.value,
        source_agent_id=s.agent_id,
        thread_id=s.thread_id,
        updated_at=s.updated_at,
    )


def _searchable(entry: MemoryEntry | None) -> tuple[object, ...] | None:
    """What the index's document of an entry holds that a search reads: its text, every
    field a search filters on, and the signals recall ranks candidates on (importance,
    confidence, updated time). None for an entry the index does not hold (not active).

    The access statistics are left out on purpose: the index has no copy of them, so a
    recall's access count leaves the document exactly as good as it was.
    """
    if entry is None or entry.status is not Status.ACTIVE:
        return None
    return (
        entry.text(),
        entry.visibility,
        entry.source_agent_id,
        tuple(entry.group_ids),
        entry.category,
        entry.key,
        entry.expires_at,
        entry.importance,
        entry.confidence,
        entry.updated_at,
    )


def unchanged(change: EntryChange) -> bool:
    """The index already holds what this change would write: the same text and filters,
    or nothing before and after (an entry inactive in both states). A removal is never
    skipped: deleting is cheap and makes sure."""
    if change.previous is None or change.entry is None:
        return False
    return _searchable(change.entry) == _searchable(change.previous)


def latest_per_entry(changes: Sequence[EntryChange]) -> list[EntryChange]:
    """One change per entry: its last state, compared with its state before the first.

    A batch of the stream can hold several changes to one entry, in order; only where
    it ends matters to the index, and what the index held is where it began.
    """
    merged: dict[tuple[str, str, str], EntryChange] = {}
    for change in changes:
        key = (change.tenant_id, change.user_id, change.entry_id)
        first = merged.get(key)
        if first is not None:
            change = EntryChange(change.tenant_id, change.user_id, change.entry_id, change.entry, first.previous)
            del merged[key]  # keep the order of the last change
        merged[key] = change
    return list(merged.values())


@dataclass
class IndexReport:
    """What one ``Indexer.apply`` did: documents embedded and written, removed, left as they were."""

    upserted: int = 0
    removed: int = 0
    skipped: int = 0


class Indexer:
    def __init__(self, index: SearchIndex, embedder: Embedder) -> None:
        self._index = index
        self._embedder = embedder

    def apply(self, changes: Sequence[EntryChange], now: datetime | None = None) -> IndexReport:
        """Bring the index in step with ``changes``: one embedding call for every text
        that changed (the embedder batches them as its model allows), one bulk write.

        A change whose text and filter fields are what the index already holds is
        skipped: no embedding, no write.
        """
        report = IndexReport()
        live: list[MemoryEntry] = []
        gone: list[EntryChange] = []
        for change in latest_per_entry(changes):
            if unchanged(change):
                report.skipped += 1
            elif change.entry is not None and change.entry.status is Status.ACTIVE:
                live.append(change.entry)
            else:
                gone.append(change)
        if live:
            IndexWriter(self._index, self._embedder).write(
                [entry_document(e, None, None) for e in live], [e.text() for e in live]
            )
            report.upserted = len(live)
        by_owner: dict[tuple[str, str], list[str]] = {}
        for c in gone:
            by_owner.setdefault((c.tenant_id, c.user_id), []).append(c.entry_id)
        for (tenant_id, user_id), ids in by_owner.items():
            self._index.delete(tenant_id, user_id, ids)
            report.removed += len(ids)
        return report


def apply_unless_erased(
    indexer: Indexer, erasures: ErasureMarks | None, changes: Sequence[EntryChange]
) -> tuple[IndexReport, int]:
    """Index entries read from the store outside its change feed (a re-index, a
    re-embed), holding them to their users' erasure tombstones; the report and how many
    entries of erased users were kept out or taken back.

    An erasure can land between the read and the index write, and its own index delete
    may run before that write. So the batch is judged before it is indexed (an entry
    last written at or before its user's erasure is removed, never written) and again
    after (what was written for a user erased meanwhile is taken back: the tombstone is
    written before the erasure deletes anything, so an erasure whose delete preceded
    this write is seen). Entries written after an erasure are indexed: the store
    refuses any write whose cause arrived before it, so they carry a later time.
    """
    owners = {(c.tenant_id, c.user_id) for c in changes}
    before = _tombstones(erasures, owners)
    kept = [_unless_erased(c, before) for c in changes]
    erased = sum(1 for c, k in zip(changes, kept, strict=True) if k is not c)
    report = indexer.apply(kept)
    after = _tombstones(erasures, owners)
    late = [
        EntryChange(c.tenant_id, c.user_id, c.entry_id, None)
        for c in kept
        if after.get((c.tenant_id, c.user_id)) != before.get((c.tenant_id, c.user_id))
        and _unless_erased(c, after) is not c
    ]
    if late:
        indexer.apply(late)
        erased += len(late)
        logger.info("took back index documents of a user erased meanwhile", extra={"entries": len(late)})
    return report, erased


def _tombstones(erasures: ErasureMarks | None, owners: set[tuple[str, str]]) -> dict[tuple[str, str], datetime]:
    if erasures is None:
        return {}
    marks = {owner: erasures.erased_at(*owner) for owner in sorted(owners)}
    return {owner: at for owner, at in marks.items() if at is not None}


def _unless_erased(change: EntryChange, tombstones: dict[tuple[str, str], datetime]) -> EntryChange:
    """The change, or its removal when the entry was last written at or before its user's erasure."""
    erased = tombstones.get((change.tenant_id, change.user_id))
    if erased is None or change.entry is None or change.entry.updated_at > erased:
        return change
    return EntryChange(change.tenant_id, change.user_id, change.entry_id, None)


class OutboxDrainer:
    """Drains the embedded store's outbox into the index (the local change feed)."""

    def __init__(self, store: ChangeOutbox, indexer: Indexer, lock_path: Path | None = None) -> None:
        self._store = store
        self._indexer = indexer
        self._lock = threading.Lock()
        self._lock_path = lock_path

    def behind(self, tenant_id: str, user_id: str) -> int | None:
        """This user's changes the index does not hold yet (None: unknown)."""
        return self._store.pending_count(tenant_id, user_id)

    def drain(self, progress: Callable[[int], None] | None = None) -> int:
        """Index every pending change; ``progress`` hears the running count after each batch."""
        with self._lock, file_lock(self._lock_path):
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
                try:
                    found = {e.id: e for e in self._store.get_entries(t, u, ids)}
                except (ValueError, TypeError, KeyError, OverflowError) as exc:
                    # A row this code cannot read (written by an older version) must not
                    # stall the feed for every other user: it leaves the index instead.
                    logger.error("unreadable entries skipped by the index", extra={"error_type": type(exc).__name__})
                    found = {}
                changes.extend(EntryChange(t, u, i, found.get(i)) for i in dict.fromkeys(ids))
            self._indexer.apply(changes)
            self._store.ack_changes(pending[-1][0])
            done += len(pending)
            if progress is not None:
                progress(done)


@contextmanager
def file_lock(path: Path | None) -> Iterator[None]:
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
