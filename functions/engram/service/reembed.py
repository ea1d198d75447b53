"""Re-embedding after a model change: every searchable document of a tenant (or of all)
anew: live entries, past messages, thread summaries and archival records.

Each index document records the model that embedded it, and searches compare a query
only with documents of the query's model, so after ``ENGRAM_EMBEDDER`` changes the old
documents are invisible to semantic search (BM25 still finds them) until this runs.
It reads the store, the source of truth, and writes entries through the same
``Indexer`` the change feed uses and everything else through the writers the features
use (``index_messages``, ``summary_document``, ``archival_document``); it is idempotent
and can be stopped and rerun at any time.

The laptop runs ``reembed`` over every user (``engram reembed``, and at start for the
users whose documents another model embedded, ``container.rebuild_stale_vectors``); the
cloud re-index (``service/reindex.py``) re-embeds as it backfills, thread by thread and
record by record (``ConversationDocuments``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from aws_lambda_powertools import Logger

from engram.domain.archival import ArchivalRecord
from engram.domain.conversation import ThreadKey, message_embedding_text
from engram.domain.models import Status
from engram.ports import (
    BlockRepository,
    Clock,
    ConversationRepository,
    Embedder,
    EntryChange,
    EntryQuery,
    ErasureMarks,
    IndexDocument,
    MemoryRepository,
    SearchIndex,
    UserLister,
)
from engram.service.archival import archival_document
from engram.service.indexing import Indexer, apply_unless_erased, message_document, summary_document
from engram.service.retrieval import IndexWriter

logger = Logger(service="engram", child=True)


BATCH = 256  # documents per embedding call and index write


@dataclass
class DocumentCounts:
    """What a re-index wrote besides entries."""

    messages: int = 0
    summaries: int = 0
    archival: int = 0

    def add(self, other: DocumentCounts) -> None:
        self.messages += other.messages
        self.summaries += other.summaries
        self.archival += other.archival

    @property
    def total(self) -> int:
        return self.messages + self.summaries + self.archival


@dataclass
class ReembedReport:
    model_id: str
    users: int = 0
    entries: int = 0
    documents: DocumentCounts = field(default_factory=DocumentCounts)
    by_tenant: dict[str, int] = field(default_factory=dict)  # every document, by tenant


class ConversationDocuments:
    """Indexes, from the store, what a user holds besides entries: each thread's messages
    and summary, and the archival records.

    Erasure wins, as for entries (``apply_unless_erased``): an item written at or before
    its user's erasure is never written, and what was written for a user erased while
    this ran is taken back (the tombstone is written before the erasure deletes).
    """

    def __init__(
        self,
        index: SearchIndex,
        embedder: Embedder,
        conversations: ConversationRepository | None,
        blocks: BlockRepository | None,
        erasures: ErasureMarks | None = None,
    ) -> None:
        self._index = index
        self._writer = IndexWriter(index, embedder)
        self._conversations = conversations
        self._blocks = blocks
        self._erasures = erasures

    def user(self, tenant_id: str, user_id: str) -> DocumentCounts:
        counts = DocumentCounts()
        if self._conversations is not None:
            for thread in self._conversations.list_threads(tenant_id, user_id):
                counts.add(self.thread(thread.key))
        if self._blocks is not None:
            cursor: str | None = None
            while True:
                page = self._blocks.list_archival(tenant_id, user_id, None, 200, cursor)
                counts.archival += self.archival(page.items)
                cursor = page.next_cursor
                if cursor is None:
                    break
        return counts

    def thread(self, key: ThreadKey) -> DocumentCounts:
        """Every message of the thread (not only its live window) and its summary."""
        return self.thread_from(key)[0]

    def thread_from(
        self, key: ThreadKey, after: int = 0, enough: Callable[[], bool] | None = None
    ) -> tuple[DocumentCounts, int | None]:
        """The thread's messages after sequence ``after``, then its summary; stops after a
        batch once ``enough()`` says so (an invocation running out of time: a thread can
        hold thousands of messages). Answers what was written, and the sequence to go on
        after (None: the thread is done)."""
        counts = DocumentCounts()
        if self._conversations is None:
            return counts, None
        while True:
            page = self._conversations.list_messages(key, after, BATCH)
            if not page:
                break
            said = [m for m in page if m.content.strip()]
            counts.messages += self._write(
                key.tenant_id,
                key.user_id,
                [(message_document(m), message_embedding_text(m), m.created_at) for m in said],
            )
            after = page[-1].seq
            if enough is not None and enough():
                return counts, after
        summary = self._conversations.get_summary(key)
        if summary is not None and summary.text.strip():
            counts.summaries += self._write(
                key.tenant_id, key.user_id, [(summary_document(summary), summary.text, summary.updated_at)]
            )
        return counts, None

    def archival(self, records: Sequence[ArchivalRecord]) -> int:
        done = 0
        owners: dict[tuple[str, str], list[ArchivalRecord]] = {}
        for r in records:
            owners.setdefault((r.tenant_id, r.user_id), []).append(r)
        for (tenant_id, user_id), mine in owners.items():
            done += self._write(
                tenant_id, user_id, [(archival_document(r, None, None), r.text, r.created_at) for r in mine]
            )
        return done

    def _write(self, tenant_id: str, user_id: str, docs: Sequence[tuple[IndexDocument, str, datetime]]) -> int:
        """Embed and upsert ``docs`` (document, text to embed, when its item was written)
        unless their user was erased after they were written; how many stayed in."""
        before = self._erased_at(tenant_id, user_id)
        kept = [d for d in docs if before is None or d[2] > before]
        for i in range(0, len(kept), BATCH):
            chunk = kept[i : i + BATCH]
            self._writer.write([d for d, _, _ in chunk], [text for _, text, _ in chunk])
        after = self._erased_at(tenant_id, user_id)
        late = [d.id for d, _, at in kept if after is not None and after != before and at <= after]
        if late:
            self._index.delete(tenant_id, user_id, late)
            logger.info("took back index documents of a user erased meanwhile", extra={"documents": len(late)})
        return len(kept) - len(late)

    def _erased_at(self, tenant_id: str, user_id: str) -> datetime | None:
        return None if self._erasures is None else self._erasures.erased_at(tenant_id, user_id)


class Reembedder:
    def __init__(
        self,
        store: MemoryRepository,
        users: UserLister | None,
        index: SearchIndex,
        embedder: Embedder,
        clock: Clock,
        erasures: ErasureMarks | None = None,
        *,
        conversations: ConversationRepository | None = None,
        blocks: BlockRepository | None = None,
    ) -> None:
        self._erasures = erasures
        self._store = store
        self._users = users
        self._indexer = Indexer(index, embedder)
        self._documents = ConversationDocuments(index, embedder, conversations, blocks, erasures)
        self._model_id = embedder.model_id
        self._clock = clock

    def reembed_user(self, tenant_id: str, user_id: str, batch: int = BATCH) -> tuple[int, DocumentCounts]:
        """The user's live entries, then their messages, summaries and archival records:
        how many entries, and how many of the rest."""
        return self._entries(tenant_id, user_id, batch), self._documents.user(tenant_id, user_id)

    def _entries(self, tenant_id: str, user_id: str, batch: int) -> int:
        done, cursor = 0, None
        while True:
            page = self._store.list_entries(
                tenant_id,
                user_id,
                EntryQuery(now=self._clock.now(), statuses=(Status.ACTIVE,), limit=batch, cursor=cursor),
            )
            if page.items:
                # An erasure racing this read must not put the user back in the index.
                changes = [EntryChange(tenant_id, user_id, e.id, e) for e in page.items]
                apply_unless_erased(self._indexer, self._erasures, changes)
                done += len(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return done

    def reembed(
        self,
        tenant_id: str | None = None,
        user_id: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        *,
        only: Sequence[tuple[str, str]] | None = None,
    ) -> ReembedReport:
        """Re-embed every searchable document (of ``only`` these users, when given);
        ``progress`` hears (users done, users in all) after each user."""
        report = ReembedReport(self._model_id)
        if only is not None:
            pairs = list(only)
        elif user_id is not None:
            if tenant_id is None:
                raise ValueError("re-embedding one user needs its tenant")
            pairs = [(tenant_id, user_id)]
        else:
            pairs = list(self._all_users(tenant_id))
        for t, u in pairs:
            entries, documents = self.reembed_user(t, u)
            report.users += 1
            report.entries += entries
            report.documents.add(documents)
            report.by_tenant[t] = report.by_tenant.get(t, 0) + entries + documents.total
            if progress is not None:
                progress(report.users, len(pairs))
        logger.info(
            "re-embedded",
            extra={
                "model_id": report.model_id,
                "users": report.users,
                "entries": report.entries,
                "messages": report.documents.messages,
                "summaries": report.documents.summaries,
                "archival": report.documents.archival,
            },
        )
        return report

    def _all_users(self, tenant_id: str | None) -> list[tuple[str, str]]:
        if self._users is None:
            raise ValueError("re-embedding every user needs a store that lists them")
        out: list[tuple[str, str]] = []
        cursor: str | None = None
        while True:
            page = self._users.list_users(tenant_id, 500, cursor)
            out.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return out
