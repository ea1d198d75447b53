"""Re-embedding after a model change: every live entry of a tenant (or of all) anew.

Each index document records the model that embedded it, and searches compare a query
only with documents of the query's model, so after ``ENGRAM_EMBEDDER`` changes the old
documents are invisible to semantic search (BM25 still finds them) until this runs.
It reads the store, the source of truth, and writes through the same ``Indexer`` the
change feed uses; it is idempotent and can be stopped and rerun at any time.

The cloud runs ``reembed_user`` per user (fanned out like dream's batches); the laptop
runs ``reembed`` over every user (``engram reembed``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from aws_lambda_powertools import Logger

from engram.domain.models import Status
from engram.ports import (
    Clock,
    Embedder,
    EntryChange,
    EntryQuery,
    ErasureMarks,
    MemoryRepository,
    SearchIndex,
    UserLister,
)
from engram.service.indexing import Indexer, apply_unless_erased

logger = Logger(service="engram", child=True)


@dataclass
class ReembedReport:
    model_id: str
    users: int = 0
    entries: int = 0
    by_tenant: dict[str, int] = field(default_factory=dict)


class Reembedder:
    def __init__(
        self,
        store: MemoryRepository,
        users: UserLister,
        index: SearchIndex,
        embedder: Embedder,
        clock: Clock,
        erasures: ErasureMarks | None = None,
    ) -> None:
        self._erasures = erasures
        self._store = store
        self._users = users
        self._indexer = Indexer(index, embedder)
        self._model_id = embedder.model_id
        self._clock = clock

    def reembed_user(self, tenant_id: str, user_id: str, batch: int = 256) -> int:
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
    ) -> ReembedReport:
        """Re-embed every live memory; ``progress`` hears (users done, users in all) after each user."""
        report = ReembedReport(self._model_id)
        if user_id is not None:
            if tenant_id is None:
                raise ValueError("re-embedding one user needs its tenant")
            pairs = [(tenant_id, user_id)]
        else:
            pairs = list(self._all_users(tenant_id))
        for t, u in pairs:
            n = self.reembed_user(t, u)
            report.users += 1
            report.entries += n
            report.by_tenant[t] = report.by_tenant.get(t, 0) + n
            if progress is not None:
                progress(report.users, len(pairs))
        logger.info(
            "re-embedded", extra={"model_id": report.model_id, "users": report.users, "entries": report.entries}
        )
        return report

    def _all_users(self, tenant_id: str | None) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        cursor: str | None = None
        while True:
            page = self._users.list_users(tenant_id, 500, cursor)
            out.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return out
