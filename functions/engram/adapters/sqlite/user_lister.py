"""Which users the embedded store holds anything searchable for: entries, conversations or
archival records (re-embedding walks them)."""

from __future__ import annotations

from engram.adapters.sqlite.db import SqliteRepository, decode_cursor, encode_cursor
from engram.domain.models import Page


class SqliteUserLister(SqliteRepository):
    def list_users(
        self, tenant_id: str | None = None, limit: int = 500, cursor: str | None = None
    ) -> Page[tuple[str, str]]:
        where, args = [], []
        if tenant_id is not None:
            where.append("tenant_id = ?")
            args.append(tenant_id)
        if cursor:
            where.append("(tenant_id, user_id) > (?, ?)")
            args.extend(decode_cursor(cursor, 2))
        # A user may have talked without any fact extracted yet, or hold archival alone.
        sql = (
            "SELECT tenant_id, user_id FROM ("
            "SELECT tenant_id, user_id FROM entries UNION SELECT tenant_id, user_id FROM conv_threads "
            "UNION SELECT tenant_id, user_id FROM archival)"
        )
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self.db.conn().execute(sql + " ORDER BY tenant_id, user_id LIMIT ?", (*args, limit + 1)).fetchall()
        items = [(str(r[0]), str(r[1])) for r in rows[:limit]]
        more = len(rows) > limit
        return Page(items, encode_cursor(list(items[-1])) if more and items else None)
