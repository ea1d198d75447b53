"""Recall's tier 1 on the embedded store: top entries of a category by importance."""

from __future__ import annotations

from datetime import datetime

from engram.adapters.sqlite.db import SqliteDb, SqliteRepository
from engram.adapters.sqlite.entries import SqliteEntries, scope_sql
from engram.domain.models import MemoryEntry
from engram.domain.policies import VisibilityScope
from engram.domain.serialization import ts


class SqliteCoreReader(SqliteRepository):
    def __init__(self, db: SqliteDb, entries: SqliteEntries) -> None:
        super().__init__(db)
        # Parsed through the memory repository's cache: keyed by the stored text, never stale.
        self._entries = entries

    def top_by_importance(
        self,
        tenant_id: str,
        user_id: str,
        scope: VisibilityScope,
        category: str,
        now: datetime,
        limit: int,
    ) -> list[MemoryEntry]:
        where = [
            "tenant_id=?",
            "user_id=?",
            "category=?",
            "status='active'",
            "(expires_at IS NULL OR expires_at > ?)",
        ]
        args: list[object] = [tenant_id, user_id, category, ts(now)]
        if not scope.everything:
            clause, scope_args = scope_sql(scope)
            where.append(clause)
            args.extend(scope_args)
        # The ORDER BY matches entries_by_importance (migration recall_core_by_importance_v1),
        # so SQLite walks the index and stops after ``limit`` visible rows.
        rows = (
            self.db.conn()
            .execute(
                f"SELECT body FROM entries WHERE {' AND '.join(where)} "
                "ORDER BY json_extract(body, '$.importance') DESC, updated_at DESC, id LIMIT ?",
                (*args, limit),
            )
            .fetchall()
        )
        return [self._entries.entry_of(r[0]) for r in rows]
