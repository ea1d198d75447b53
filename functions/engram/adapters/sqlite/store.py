"""SQLite implementation of every repository port (the embedded store).

One connection per thread (SQLite connections are not shared across threads), WAL so
readers never wait for the writer, and ``BEGIN IMMEDIATE`` around every changeset so
the optimistic version checks and the capacity check run under the write lock.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from engram.adapters.sqlite.dream_state import mark_due
from engram.adapters.sqlite.migrations import migrate
from engram.adapters.sqlite.scrub import SECURE_DELETE, checkpoint_truncate
from engram.domain.agent_config import AgentConfig, RecallOrder
from engram.domain.errors import (
    CapacityReached,
    GuardrailViolation,
    StoreUnavailable,
    UserErased,
    ValidationFailed,
    VersionConflict,
)
from engram.domain.models import (
    ApiKeyRecord,
    Changeset,
    HistoryRecord,
    MemoryEntry,
    Page,
    UserProfile,
    UserSettings,
    Visibility,
)
from engram.domain.policies import VisibilityScope, erasure_mark_id
from engram.domain.serialization import (
    entry_from_dict,
    entry_to_dict,
    history_from_dict,
    history_to_dict,
    key_from_dict,
    key_to_dict,
    parse_ts,
    profile_from_dict,
    profile_to_dict,
    settings_from_dict,
    settings_to_dict,
    ts,
)
from engram.ports import EntryQuery, IdentityState

_PARSE_CACHE_SIZE = 20_000
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class SqliteStore:
    def __init__(self, path: str | Path, busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._listeners: list[Callable[[], None]] = []
        self._parsed: dict[str, MemoryEntry] = {}
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        migrate(self._conn())

    # -- plumbing -------------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            except sqlite3.Error as exc:
                raise StoreUnavailable("The embedded store cannot be opened.", path=self.path) from exc
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            conn.execute("PRAGMA journal_mode = WAL")
            # NORMAL in WAL mode survives a process crash (SIGKILL) without losing a
            # committed transaction; only an OS crash or power loss could.
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            # Deleted rows are overwritten with zeros, not merely unlinked (erasure).
            conn.execute(SECURE_DELETE)
            self._local.conn = conn
        return conn

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreUnavailable("The embedded store is busy; retry shortly.") from exc
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

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

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every committed changeset (the local change feed)."""
        self._listeners.append(listener)

    def _notify(self) -> None:
        for listener in self._listeners:
            listener()

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # -- memory entries ---------------------------------------------------------------
    def get_entry(self, tenant_id: str, user_id: str, entry_id: str) -> MemoryEntry | None:
        row = (
            self._conn()
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
                self._conn()
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
            self._conn()
            .execute(
                "SELECT version, current_entry_id FROM identities WHERE tenant_id=? AND user_id=? AND identity_id=?",
                (tenant_id, user_id, identity_id),
            )
            .fetchone()
        )
        return None if row is None else IdentityState(int(row[0]), row[1])

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Page[MemoryEntry]:
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
            clause, scope_args = _scope_sql(query.scope)
            where.append(clause)
            args.extend(scope_args)
        sort_cols: tuple[str, ...] = ("updated_at", "id")
        if query.order is RecallOrder.MOST_ACCESSED:
            sort_cols = ("access_count", "updated_at", "id")
        if query.cursor:
            values = _decode_cursor(query.cursor, len(sort_cols))
            where.append(f"({', '.join(sort_cols)}) < ({', '.join('?' * len(sort_cols))})")
            args.extend(values)
        order_by = ", ".join(f"{c} DESC" for c in sort_cols)
        sql = (
            f"SELECT body, {', '.join(sort_cols)} FROM entries WHERE {' AND '.join(where)} ORDER BY {order_by} LIMIT ?"
        )
        rows = self._conn().execute(sql, (*args, query.limit + 1)).fetchall()
        more = len(rows) > query.limit
        rows = rows[: query.limit]
        items = [self._entry(r[0]) for r in rows]
        cursor = _encode_cursor(list(rows[-1][1:])) if more and rows else None
        return Page(items, cursor)

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        row = (
            self._conn()
            .execute(
                "SELECT COUNT(*) FROM entries WHERE tenant_id=? AND user_id=? AND status='active' "
                "AND (expires_at IS NULL OR expires_at > ?)",
                (tenant_id, user_id, ts(now)),
            )
            .fetchone()
        )
        return int(row[0])

    def apply(self, changeset: Changeset, now: datetime) -> None:
        t, u = changeset.tenant_id, changeset.user_id
        # Serialised before the write lock is taken: other writers wait only for the SQL.
        entry_rows = [_entry_row(e) for e in changeset.entries]
        history_rows = [(t, u, h.identity_id, h.version, _dumps(history_to_dict(h))) for h in changeset.history]
        with self._tx() as conn:
            if changeset.origin is not None:
                erased = conn.execute(
                    "SELECT erased_at FROM erasures WHERE mark_id=?", (erasure_mark_id(t, u),)
                ).fetchone()
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
        self._notify()

    def history(
        self,
        tenant_id: str,
        user_id: str,
        identity_id: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[HistoryRecord]:
        after = int(_decode_cursor(cursor, 1)[0]) if cursor else 0
        rows = (
            self._conn()
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
        return Page(items, _encode_cursor([rows[-1][0]]) if more and rows else None)

    def history_of_user(self, tenant_id: str, user_id: str) -> list[HistoryRecord]:
        rows = (
            self._conn()
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
        stamp = ts(at)
        with self._tx() as conn:
            for entry_id in dict.fromkeys(entry_ids):
                row = conn.execute(
                    "SELECT body FROM entries WHERE tenant_id=? AND user_id=? AND id=?",
                    (tenant_id, user_id, entry_id),
                ).fetchone()
                if row is None:
                    continue
                body = json.loads(row[0])
                body["accessCount"] = int(body.get("accessCount", 0)) + 1
                body["lastAccessedAt"] = stamp
                conn.execute(
                    "UPDATE entries SET access_count=?, body=? WHERE tenant_id=? AND user_id=? AND id=?",
                    (body["accessCount"], _dumps(body), tenant_id, user_id, entry_id),
                )

    # -- the local change feed ------------------------------------------------------------
    def pending_changes(self, limit: int = 500) -> list[tuple[int, str, str, str]]:
        rows = (
            self._conn()
            .execute(
                "SELECT seq, tenant_id, user_id, entry_id FROM outbox ORDER BY seq LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [(int(r[0]), r[1], r[2], r[3]) for r in rows]

    def ack_changes(self, up_to_seq: int) -> None:
        self._conn().execute("DELETE FROM outbox WHERE seq <= ?", (up_to_seq,))

    def pending_count(self, tenant_id: str, user_id: str) -> int:
        row = (
            self._conn()
            .execute("SELECT COUNT(*) FROM outbox WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            .fetchone()
        )
        return int(row[0])

    # -- profiles and settings ----------------------------------------------------------
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None:
        body = self._get_body("profiles", tenant_id, user_id)
        return None if body is None else profile_from_dict(body)

    def put_profile(self, profile: UserProfile) -> None:
        self._put_body("profiles", profile.tenant_id, profile.user_id, profile_to_dict(profile))

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None:
        body = self._get_body("user_settings", tenant_id, user_id)
        return None if body is None else settings_from_dict(body)

    def put_settings(self, settings: UserSettings) -> None:
        self._put_body("user_settings", settings.tenant_id, settings.user_id, settings_to_dict(settings))

    def get_profile_and_settings(self, tenant_id: str, user_id: str) -> tuple[UserProfile | None, UserSettings | None]:
        return self.get_profile(tenant_id, user_id), self.get_settings(tenant_id, user_id)

    def _get_body(self, table: str, tenant_id: str, user_id: str) -> dict[str, Any] | None:
        row = (
            self._conn()
            .execute(f"SELECT body FROM {table} WHERE tenant_id=? AND user_id=?", (tenant_id, user_id))
            .fetchone()
        )
        return None if row is None else dict(json.loads(row[0]))

    def _put_body(self, table: str, tenant_id: str, user_id: str, body: dict[str, Any]) -> None:
        self._conn().execute(
            f"INSERT OR REPLACE INTO {table} (tenant_id, user_id, body) VALUES (?,?,?)",
            (tenant_id, user_id, _dumps(body)),
        )

    # -- agent configuration -----------------------------------------------------------------
    def get_agent_config(self, tenant_id: str, agent_id: str) -> AgentConfig | None:
        row = (
            self._conn()
            .execute(
                "SELECT body FROM agent_configs WHERE tenant_id=? AND agent_id=?",
                (tenant_id, agent_id),
            )
            .fetchone()
        )
        return None if row is None else AgentConfig.model_validate_json(row[0])

    def put_agent_config(self, tenant_id: str, agent_id: str, config: AgentConfig) -> None:
        self._conn().execute(
            "INSERT OR REPLACE INTO agent_configs (tenant_id, agent_id, body) VALUES (?,?,?)",
            (tenant_id, agent_id, config.model_dump_json(by_alias=True)),
        )

    # -- API keys ------------------------------------------------------------------------------
    def put_api_key(self, record: ApiKeyRecord) -> None:
        self._conn().execute(
            "INSERT OR REPLACE INTO api_keys (key_id, tenant_id, body) VALUES (?,?,?)",
            (record.key_id, record.tenant_id, _dumps(key_to_dict(record))),
        )

    def get_api_key(self, key_id: str) -> ApiKeyRecord | None:
        row = self._conn().execute("SELECT body FROM api_keys WHERE key_id=?", (key_id,)).fetchone()
        return None if row is None else key_from_dict(json.loads(row[0]))

    def list_api_keys(self, tenant_id: str | None = None) -> list[ApiKeyRecord]:
        if tenant_id is None:
            rows = self._conn().execute("SELECT body FROM api_keys ORDER BY key_id").fetchall()
        else:
            rows = (
                self._conn()
                .execute("SELECT body FROM api_keys WHERE tenant_id=? ORDER BY key_id", (tenant_id,))
                .fetchall()
            )
        return [key_from_dict(json.loads(r[0])) for r in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> bool:
        record = self.get_api_key(key_id)
        if record is None or record.revoked_at is not None:
            return False
        body = key_to_dict(record)
        body["revokedAt"] = ts(at)
        self._conn().execute("UPDATE api_keys SET body=? WHERE key_id=?", (_dumps(body), key_id))
        return True

    # -- write rate per turn -----------------------------------------------------------------
    def add_turn_writes(
        self,
        tenant_id: str,
        agent_id: str,
        turn_id: str,
        count: int,
        limit: int,
        expires_at: datetime,
    ) -> int:
        with self._tx() as conn:
            row = conn.execute(
                "SELECT count FROM turn_writes WHERE tenant_id=? AND agent_id=? AND turn_id=?",
                (tenant_id, agent_id, turn_id),
            ).fetchone()
            total = (0 if row is None else int(row[0])) + count
            if total > limit:
                raise GuardrailViolation(
                    "too_many_writes",
                    f"This turn would make {total} memory writes; this agent allows at most {limit} per turn.",
                    maxWritesPerTurn=limit,
                    turnId=turn_id,
                )
            conn.execute(
                "INSERT OR REPLACE INTO turn_writes (tenant_id, agent_id, turn_id, count, expires_at) "
                "VALUES (?,?,?,?,?)",
                (tenant_id, agent_id, turn_id, total, ts(expires_at)),
            )
            # Turns whose window closed a day before this one's opened are long over.
            conn.execute(
                "DELETE FROM turn_writes WHERE expires_at < ?",
                (ts(expires_at - timedelta(days=2)),),
            )
        return total

    # -- erasure -------------------------------------------------------------------------------
    def mark_erased(self, tenant_id: str, user_id: str, at: datetime) -> None:
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO erasures (mark_id, erased_at) VALUES (?, ?) "
                "ON CONFLICT (mark_id) DO UPDATE SET erased_at = excluded.erased_at",
                (erasure_mark_id(tenant_id, user_id), ts(at)),
            )

    def erased_at(self, tenant_id: str, user_id: str) -> datetime | None:
        row = (
            self._conn()
            .execute("SELECT erased_at FROM erasures WHERE mark_id=?", (erasure_mark_id(tenant_id, user_id),))
            .fetchone()
        )
        return None if row is None else parse_ts(row[0])

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self._tx() as conn:
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
        if self.path != ":memory:":
            checkpoint_truncate(self._conn(), self.path)


def _entry_row(e: MemoryEntry) -> tuple[Any, ...]:
    return (
        e.tenant_id,
        e.user_id,
        e.id,
        e.identity_id,
        e.key,
        e.category,
        e.visibility.value,
        e.source_agent_id,
        _dumps(list(e.group_ids)),
        e.status.value,
        ts(e.updated_at),
        None if e.expires_at is None else ts(e.expires_at),
        e.access_count,
        _dumps(entry_to_dict(e)),
    )


def _scope_sql(scope: VisibilityScope) -> tuple[str, list[Any]]:
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


def _encode_cursor(values: list[Any]) -> str:
    return base64.urlsafe_b64encode(_dumps(values).encode()).decode().rstrip("=")


def _decode_cursor(cursor: str, arity: int) -> list[Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
    if not isinstance(values, list) or len(values) != arity:
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return values
