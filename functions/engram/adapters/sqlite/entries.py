"""Memory entries on the embedded store: entries, identities, history, access, the outbox.

``apply`` commits a changeset in one transaction under the write lock: the erasure
check, the identities' version guards, the capacity check, the rows, their history, an
outbox row per entry (the local change feed the index follows) and the user's dream due
mark are one atomic write.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.adapters.sqlite.db import SqliteDb, SqliteRepository, decode_cursor, dumps, encode_cursor
from engram.adapters.sqlite.dream_state import mark_due
from engram.adapters.sqlite.users import SqliteProfiles
from engram.domain.agent_config import RecallOrder
from engram.domain.errors import CapacityReached, UserErased, VersionConflict
from engram.domain.models import Changeset, HistoryRecord, MemoryEntry, Page, UserSettings, Visibility
from engram.domain.policies import VisibilityScope, erasure_mark_id
from engram.domain.serialization import entry_from_dict, entry_to_dict, history_from_dict, history_to_dict, ts
from engram.ports import EntryQuery, IdentityState

_PARSE_CACHE_SIZE = 20_000


class SqliteEntries(SqliteRepository):
    """The memory repository and the change outbox of the embedded store."""

    def __init__(self, db: SqliteDb) -> None:
        super().__init__(db)
        self._parsed: dict[str, MemoryEntry] = {}

    def _entry(self, body: str) -> MemoryEntry:
        """Parse a stored entry, remembering the result by its exact stored text.

        Recall reads the same few dozen candidates on every turn and parsing JSON into
        an entity is most of that read; keyed by the body itself, a cached parse can
        never be stale (any change, even an access count, is a different body).
        """
        entry = self._parsed.get(body)
        if entry is None:
            entry = entry_from_dict(json.loads(body))
            if len(self._parsed) >= _PARSE_CACHE_SIZE:
                self._parsed.clear()
            self._parsed[body] = entry
        return entry

    def entry_of(self, body: str) -> MemoryEntry:
        """An entry from its stored text, through the same cache (tier 1 reads with it)."""
        return self._entry(body)

    # -- memory entries ---------------------------------------------------------------
    def get_entry(self, tenant_id: str, user_id: str, entry_id: str) -> MemoryEntry | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT body FROM entries WHERE tenant_id=? AND user_id=? AND id=?",
                (tenant_id, user_id, entry_id),
            )
            .fetchone()
        )
        return None if row is None else self._entry(row[0])

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]:
        out: list[MemoryEntry] = []
        ids = list(dict.fromkeys(entry_ids))
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            rows = (
                self.db.conn()
                .execute(
                    f"SELECT body FROM entries WHERE tenant_id=? AND user_id=? AND id IN ({marks})",
                    (tenant_id, user_id, *chunk),
                )
                .fetchall()
            )
            out.extend(self._entry(r[0]) for r in rows)
        return out

    def get_identity(self, tenant_id: str, user_id: str, identity_id: str) -> IdentityState | None:
        row = (
            self.db.conn()
            .execute(
                "SELECT version, current_entry_id FROM identities WHERE tenant_id=? AND user_id=? AND identity_id=?",
                (tenant_id, user_id, identity_id),
            )
            .fetchone()
        )
        return None if row is None else IdentityState(int(row[0]), row[1])

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Page[MemoryEntry]:
        where, args = _where(tenant_id, user_id, query)
        sort_cols: tuple[str, ...] = ("updated_at", "id")
        if query.order is RecallOrder.MOST_ACCESSED:
            sort_cols = ("access_count", "updated_at", "id")
        if query.cursor:
            values = decode_cursor(query.cursor, len(sort_cols))
            where.append(f"({', '.join(sort_cols)}) < ({', '.join('?' * len(sort_cols))})")
            args.extend(values)
        order_by = ", ".join(f"{c} DESC" for c in sort_cols)
        sql = (
            f"SELECT body, {', '.join(sort_cols)} FROM entries WHERE {' AND '.join(where)} ORDER BY {order_by} LIMIT ?"
        )
        rows = self.db.conn().execute(sql, (*args, query.limit + 1)).fetchall()
        more = len(rows) > query.limit
        rows = rows[: query.limit]
        items = [self._entry(r[0]) for r in rows]
        cursor = encode_cursor(list(rows[-1][1:])) if more and rows else None
        return Page(items, cursor)

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        row = (
            self.db.conn()
            .execute(
                "SELECT COUNT(*) FROM entries WHERE tenant_id=? AND user_id=? AND status='active' "
                "AND (expires_at IS NULL OR expires_at > ?)",
                (tenant_id, user_id, ts(now)),
            )
            .fetchone()
        )
        return int(row[0])

    def count_visible(self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime) -> int | None:
        # The whole user's count is one indexed COUNT here; an agent's view is counted by
        # listing it (the scope and validity rules stay in one place, and it is local).
        return self.count_live(tenant_id, user_id, now) if scope.everything else None

    def settings_and_count(
        self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime
    ) -> tuple[UserSettings | None, int | None]:
        # Two reads of one local file: nothing to save by joining them.
        settings = SqliteProfiles(self.db).get_settings(tenant_id, user_id)
        return settings, self.count_visible(tenant_id, user_id, scope, now)

    def apply(self, changeset: Changeset, now: datetime) -> None:
        t, u = changeset.tenant_id, changeset.user_id
        # Serialised before the write lock is taken: other writers wait only for the SQL.
        entry_rows = [entry_row(e) for e in changeset.entries]
        history_rows = [(t, u, h.identity_id, h.version, dumps(history_to_dict(h))) for h in changeset.history]
        with self.db.tx() as conn:
            _check(conn, changeset, now)
            for guard in changeset.guards:
                conn.execute(
                    "INSERT INTO identities (tenant_id, user_id, identity_id, version, current_entry_id) "
                    "VALUES (?,?,?,?,?) ON CONFLICT (tenant_id, user_id, identity_id) DO UPDATE SET "
                    "version=excluded.version, current_entry_id=excluded.current_entry_id",
                    (t, u, guard.identity_id, guard.new_version, guard.current_entry_id),
                )
            for e, values in zip(changeset.entries, entry_rows, strict=True):
                conn.execute(
                    "INSERT OR REPLACE INTO entries (tenant_id, user_id, id, identity_id, key, category, "
                    "visibility, source_agent_id, group_ids, status, updated_at, expires_at, access_count, body) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    values,
                )
                conn.execute("INSERT INTO outbox (tenant_id, user_id, entry_id) VALUES (?,?,?)", (t, u, e.id))
            for h_row in history_rows:
                conn.execute(
                    "INSERT INTO history (tenant_id, user_id, identity_id, version, body) VALUES (?,?,?,?,?)",
                    h_row,
                )
            mark_due(conn, changeset, now)  # the user is due for dream, in the same transaction
        self.db.notify()

    def history(
        self,
        tenant_id: str,
        user_id: str,
        identity_id: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[HistoryRecord]:
        after = int(decode_cursor(cursor, 1)[0]) if cursor else 0
        rows = (
            self.db.conn()
            .execute(
                "SELECT version, body FROM history WHERE tenant_id=? AND user_id=? AND identity_id=? "
                "AND version > ? ORDER BY version LIMIT ?",
                (tenant_id, user_id, identity_id, after, limit + 1),
            )
            .fetchall()
        )
        more = len(rows) > limit
        rows = rows[:limit]
        items = [history_from_dict(json.loads(r[1])) for r in rows]
        return Page(items, encode_cursor([rows[-1][0]]) if more and rows else None)

    def history_of_user(self, tenant_id: str, user_id: str) -> list[HistoryRecord]:
        rows = (
            self.db.conn()
            .execute(
                "SELECT body FROM history WHERE tenant_id=? AND user_id=? ORDER BY identity_id, version",
                (tenant_id, user_id),
            )
            .fetchall()
        )
        return [history_from_dict(json.loads(r[0])) for r in rows]

    def record_access(
        self,
        tenant_id: str,
        user_id: str,
        entry_ids: Sequence[str],
        at: datetime,
        last_accessed: Mapping[str, datetime | None] | None = None,
    ) -> None:
        if not entry_ids:
            return
        # One statement, in SQLite's JSON functions: parsing and rewriting every body in
        # Python was most of what the access-statistics thread cost under recall load.
        # json_set keeps the rest of the body's text as it was, and both the column and
        # the body count from the body's own count, as before.
        ids = list(dict.fromkeys(entry_ids))
        count = "COALESCE(json_extract(body, '$.accessCount'), 0) + 1"
        with self.db.tx() as conn:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                conn.execute(
                    f"UPDATE entries SET access_count = {count}, "
                    f"body = json_set(body, '$.accessCount', {count}, '$.lastAccessedAt', ?) "
                    f"WHERE tenant_id=? AND user_id=? AND id IN ({','.join('?' * len(chunk))})",
                    (ts(at), tenant_id, user_id, *chunk),
                )

    # -- the local change feed ------------------------------------------------------------
    def pending_changes(self, limit: int = 500) -> list[tuple[int, str, str, str]]:
        rows = (
            self.db.conn()
            .execute(
                "SELECT seq, tenant_id, user_id, entry_id FROM outbox ORDER BY seq LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [(int(r[0]), r[1], r[2], r[3]) for r in rows]

    def ack_changes(self, up_to_seq: int) -> None:
        self.db.conn().execute("DELETE FROM outbox WHERE seq <= ?", (up_to_seq,))

    def pending_count(self, tenant_id: str, user_id: str) -> int:
        row = (
            self.db.conn()
            .execute("SELECT COUNT(*) FROM outbox WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            .fetchone()
        )
        return int(row[0])

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every committed changeset (the local change feed)."""
        self.db.on_commit(listener)


def entry_row(e: MemoryEntry) -> tuple[Any, ...]:
    return (
        e.tenant_id,
        e.user_id,
        e.id,
        e.identity_id,
        e.key,
        e.category,
        e.visibility.value,
        e.source_agent_id,
        dumps(list(e.group_ids)),
        e.status.value,
        ts(e.updated_at),
        None if e.expires_at is None else ts(e.expires_at),
        e.access_count,
        dumps(entry_to_dict(e)),
    )


def scope_sql(scope: VisibilityScope) -> tuple[str, list[Any]]:
    clauses = ["visibility = 'global'", "source_agent_id = ?"]
    args: list[Any] = [scope.agent_id]
    if scope.group_ids:
        marks = ",".join("?" * len(scope.group_ids))
        clauses.append(
            f"(visibility = '{Visibility.GROUP.value}' AND EXISTS "
            f"(SELECT 1 FROM json_each(entries.group_ids) WHERE json_each.value IN ({marks})))"
        )
        args.extend(scope.group_ids)
    return "(" + " OR ".join(clauses) + ")", args


def _check(conn: sqlite3.Connection, changeset: Changeset, now: datetime) -> None:
    """What must hold for ``changeset`` to apply, read under the write lock: the user was
    not erased since the write began, no identity moved, and the user has room."""
    t, u = changeset.tenant_id, changeset.user_id
    if changeset.origin is not None:
        erased = conn.execute("SELECT erased_at FROM erasures WHERE mark_id=?", (erasure_mark_id(t, u),)).fetchone()
        if erased is not None and erased[0] >= ts(changeset.origin):
            raise UserErased("This user was erased after this write began; it was not applied.")
    for guard in changeset.guards:
        row = conn.execute(
            "SELECT version FROM identities WHERE tenant_id=? AND user_id=? AND identity_id=?",
            (t, u, guard.identity_id),
        ).fetchone()
        stored = None if row is None else int(row[0])
        if stored != guard.expected_version:
            raise VersionConflict(
                "This memory was changed by another writer; retry.",
                identityId=guard.identity_id,
                expected=guard.expected_version,
                found=stored,
            )
    if changeset.max_active is not None and changeset.active_delta > 0:
        live = conn.execute(
            "SELECT COUNT(*) FROM entries WHERE tenant_id=? AND user_id=? AND status='active' "
            "AND (expires_at IS NULL OR expires_at > ?)",
            (t, u, ts(now)),
        ).fetchone()[0]
        if live + changeset.active_delta > changeset.max_active:
            raise CapacityReached(
                f"This user is at the most memories this agent allows ({changeset.max_active}).",
                maxEntriesPerUser=changeset.max_active,
            )


def _where(tenant_id: str, user_id: str, query: EntryQuery) -> tuple[list[str], list[Any]]:
    """The conditions of a listing, and their arguments."""
    where = ["tenant_id=?", "user_id=?"]
    args: list[Any] = [tenant_id, user_id]
    if query.statuses:
        where.append(f"status IN ({','.join('?' * len(query.statuses))})")
        args.extend(s.value for s in query.statuses)
    if query.category is not None:
        where.append("category=?")
        args.append(query.category)
    if query.key is not None:
        where.append("key=?")
        args.append(query.key)
    if not query.include_expired:
        where.append("(expires_at IS NULL OR expires_at > ?)")
        args.append(ts(query.now))
    if query.scope is not None and not query.scope.everything:
        clause, scope_args = scope_sql(query.scope)
        where.append(clause)
        args.extend(scope_args)
    return where, args
