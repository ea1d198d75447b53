"""Schema migrations for the embedded store, applied in order at open.

Each migration is a list of statements; ``PRAGMA user_version`` records how far a
database has come, so opening an older file upgrades it in place and never twice.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE entries (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
            identity_id TEXT NOT NULL, key TEXT NOT NULL, category TEXT NOT NULL,
            visibility TEXT NOT NULL, source_agent_id TEXT NOT NULL, group_ids TEXT NOT NULL,
            status TEXT NOT NULL, updated_at TEXT NOT NULL, expires_at TEXT,
            access_count INTEGER NOT NULL DEFAULT 0, body TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, id))""",
        "CREATE INDEX entries_by_recency ON entries (tenant_id, user_id, status, updated_at)",
        "CREATE INDEX entries_by_identity ON entries (tenant_id, user_id, identity_id)",
        "CREATE INDEX entries_by_key ON entries (tenant_id, user_id, key)",
        """CREATE TABLE identities (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, identity_id TEXT NOT NULL,
            version INTEGER NOT NULL, current_entry_id TEXT,
            PRIMARY KEY (tenant_id, user_id, identity_id))""",
        """CREATE TABLE history (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, identity_id TEXT NOT NULL,
            version INTEGER NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, identity_id, version))""",
        """CREATE TABLE profiles (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, user_id))""",
        """CREATE TABLE user_settings (tenant_id TEXT NOT NULL, user_id TEXT NOT NULL,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, user_id))""",
        """CREATE TABLE agent_configs (tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, agent_id))""",
        """CREATE TABLE api_keys (key_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL,
            body TEXT NOT NULL)""",
        """CREATE TABLE turn_writes (tenant_id TEXT NOT NULL, agent_id TEXT NOT NULL,
            turn_id TEXT NOT NULL, count INTEGER NOT NULL, expires_at TEXT NOT NULL,
            PRIMARY KEY (tenant_id, agent_id, turn_id))""",
        # The local equivalent of the DynamoDB stream: written in the same transaction
        # as the change, drained by the in-process indexer, so a crash between commit
        # and indexing is caught up at the next start instead of lost.
        """CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, entry_id TEXT NOT NULL)""",
    ],
]


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database to the newest schema; return the version it is at."""
    current = int(conn.execute("PRAGMA user_version").fetchone()[0])
    for number, statements in enumerate(MIGRATIONS[current:], start=current + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if int(conn.execute("PRAGMA user_version").fetchone()[0]) < number:
                for sql in statements:
                    conn.execute(sql)
                conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)
