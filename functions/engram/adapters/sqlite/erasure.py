"""Erasure on the embedded store: the erasure marks and the deletion of a user's rows.

The mark (a hash of tenant and user, never the ids themselves) is written first; every
later commit of a write that began before it is refused (``SqliteEntries.apply``).
"""

from __future__ import annotations

from datetime import datetime

from engram.adapters.sqlite.db import SqliteRepository
from engram.domain.policies import erasure_mark_id
from engram.domain.serialization import parse_ts, ts


class SqliteErasure(SqliteRepository):
    def mark_erased(self, tenant_id: str, user_id: str, at: datetime) -> None:
        with self.db.tx() as conn:
            conn.execute(
                "INSERT INTO erasures (mark_id, erased_at) VALUES (?, ?) "
                "ON CONFLICT (mark_id) DO UPDATE SET erased_at = excluded.erased_at",
                (erasure_mark_id(tenant_id, user_id), ts(at)),
            )

    def erased_at(self, tenant_id: str, user_id: str) -> datetime | None:
        row = (
            self.db.conn()
            .execute("SELECT erased_at FROM erasures WHERE mark_id=?", (erasure_mark_id(tenant_id, user_id),))
            .fetchone()
        )
        return None if row is None else parse_ts(row[0])

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self.db.tx() as conn:
            for name, table in (
                ("entries", "entries"),
                ("history", "history"),
                ("identities", "identities"),
                ("profiles", "profiles"),
                ("settings", "user_settings"),
                ("pendingIndexChanges", "outbox"),
            ):
                cur = conn.execute(f"DELETE FROM {table} WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
                counts[name] = cur.rowcount
        return counts

    def scrub_residue(self) -> None:
        """After an erasure: no copy of a deleted page may stay in the write-ahead log."""
        self.db.scrub_residue()
