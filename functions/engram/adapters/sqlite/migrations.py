"""Schema migrations for the embedded store, applied in order at open.

Each migration has a unique name and a list of statements; the ``schema_migrations``
table records which ones a database has had, so opening an older file upgrades it in
place and never twice. Features append their own named migration (names, not numbers,
so that work on separate features never collides). Never edit a released migration.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[tuple[str, list[str]]] = [
    (
        "0001_core",
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
    ),
    (
        "dream_v1",
        [
            # The sparse "maintenance due" index: one row per user that ever changed;
            # only rows with a due time are in dream_due_by_time, which is all the
            # planner reads. ``activity`` counts non-dream changesets (see apply).
            """CREATE TABLE dream_due (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, due_at TEXT,
            activity INTEGER NOT NULL DEFAULT 0, last_pass_at TEXT,
            PRIMARY KEY (tenant_id, user_id))""",
            "CREATE INDEX dream_due_by_time ON dream_due (due_at, tenant_id, user_id) WHERE due_at IS NOT NULL",
            # Users with memories from before this migration get one pass, which then
            # records their real next due time.
            """INSERT INTO dream_due (tenant_id, user_id, due_at, activity)
            SELECT DISTINCT tenant_id, user_id, strftime('%Y-%m-%dT%H:%M:%fZ'), 1
            FROM entries WHERE status = 'active'""",
            """CREATE TABLE dream_runs (
            run_id TEXT PRIMARY KEY, tenant_id TEXT, trigger TEXT NOT NULL, as_of TEXT NOT NULL,
            started_at TEXT NOT NULL, status TEXT NOT NULL, plan_cursor TEXT,
            users_planned INTEGER NOT NULL DEFAULT 0, batches_sent INTEGER NOT NULL DEFAULT 0,
            users_done INTEGER NOT NULL DEFAULT 0, finished_at TEXT)""",
            "CREATE INDEX dream_runs_by_start ON dream_runs (started_at, run_id)",
            """CREATE TABLE dream_run_users (run_id TEXT NOT NULL, tenant_id TEXT NOT NULL,
            user_id TEXT NOT NULL, PRIMARY KEY (run_id, tenant_id, user_id))""",
            """CREATE TABLE dream_run_counters (run_id TEXT NOT NULL, tenant_id TEXT NOT NULL,
            name TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (run_id, tenant_id, name))""",
            """CREATE TABLE dream_costs (run_id TEXT NOT NULL, tenant_id TEXT NOT NULL,
            agent_id TEXT NOT NULL, committed INTEGER NOT NULL DEFAULT 0, spent INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (run_id, tenant_id, agent_id))""",
        ],
    ),
    (
        "conversations_v1",
        [
            """CREATE TABLE conv_threads (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
            agent_id TEXT NOT NULL, last_seq INTEGER NOT NULL, window_start INTEGER NOT NULL,
            clears INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, thread_id))""",
            "CREATE INDEX conv_threads_by_update ON conv_threads (tenant_id, user_id, updated_at)",
            # ``pending`` is 1 until the message has been indexed and extracted: the local
            # worker re-queues pending messages at start, so a crash loses no extraction.
            """CREATE TABLE conv_messages (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
            message_id TEXT NOT NULL, seq INTEGER NOT NULL, pending INTEGER NOT NULL DEFAULT 1,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, user_id, thread_id, message_id))""",
            "CREATE UNIQUE INDEX conv_messages_by_seq ON conv_messages (tenant_id, user_id, thread_id, seq)",
            "CREATE INDEX conv_messages_pending ON conv_messages (pending) WHERE pending = 1",
            """CREATE TABLE conv_summaries (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
            agent_id TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, thread_id))""",
        ],
    ),
    (
        "extraction_idempotency_v1",
        [
            # Powertools idempotency records for the local extraction worker (the cloud
            # keeps them in DynamoDB); columns mirror Powertools' DynamoDB layout.
            """CREATE TABLE idempotency_records (
            id TEXT PRIMARY KEY, status TEXT NOT NULL, expiration INTEGER,
            in_progress_expiration INTEGER, data TEXT, validation TEXT)""",
        ],
    ),
    (
        "proposals_v1",
        [
            """CREATE TABLE proposals (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
            agent_id TEXT NOT NULL, target_id TEXT NOT NULL, status TEXT NOT NULL,
            created_at TEXT NOT NULL, expires_at TEXT NOT NULL, revision INTEGER NOT NULL,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, user_id, id))""",
            "CREATE INDEX proposals_by_time ON proposals (tenant_id, user_id, created_at, id)",
            "CREATE INDEX proposals_by_target ON proposals (tenant_id, user_id, target_id, status)",
        ],
    ),
    (
        "memory_blocks_v1",
        [
            """CREATE TABLE memory_blocks (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT NOT NULL,
            name TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, agent_id, name))""",
            """CREATE TABLE memory_block_versions (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT NOT NULL,
            name TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, agent_id, name, version))""",
            """CREATE TABLE archival (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, id TEXT NOT NULL,
            agent_id TEXT NOT NULL, created_at TEXT NOT NULL, indexed INTEGER NOT NULL DEFAULT 0,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, user_id, id))""",
            "CREATE INDEX archival_by_time ON archival (tenant_id, user_id, created_at, id)",
            "CREATE INDEX archival_unindexed ON archival (tenant_id, user_id, indexed)",
        ],
    ),
    (
        "recall_core_by_importance_v1",
        [
            # Recall's tier 1 (a user's top preferences by importance) reads a few rows
            # in index order instead of sorting every preference on each request.
            """CREATE INDEX entries_by_importance ON entries (tenant_id, user_id, category, status,
            json_extract(body, '$.importance') DESC, updated_at DESC, id)""",
        ],
    ),
    (
        "erasures_v1",
        [
            # The erasure tombstone: writes whose cause arrived before this time are
            # refused inside their own transaction (erasure wins over in-flight work).
            # Keyed by a one-way hash of (tenant, user), not the ids themselves (see docs/user-control.md).
            """CREATE TABLE erasures (mark_id TEXT PRIMARY KEY, erased_at TEXT NOT NULL)""",
        ],
    ),
    (
        "conversations_by_agent_v1",
        [
            # Each agent has its own thread ids (issue #22): the agent joins every
            # conversation key, so another agent's thread and a free id look alike.
            # Existing rows keep their thread's agent (messages carry it in their body).
            """CREATE TABLE conv_threads_by_agent (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
            agent_id TEXT NOT NULL, last_seq INTEGER NOT NULL, window_start INTEGER NOT NULL,
            clears INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, agent_id, thread_id))""",
            """INSERT INTO conv_threads_by_agent SELECT tenant_id, user_id, thread_id, agent_id, last_seq,
            window_start, clears, created_at, updated_at FROM conv_threads""",
            "DROP TABLE conv_threads",
            "ALTER TABLE conv_threads_by_agent RENAME TO conv_threads",
            "CREATE INDEX conv_threads_by_update ON conv_threads (tenant_id, user_id, updated_at)",
            """CREATE TABLE conv_messages_by_agent (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, agent_id TEXT NOT NULL, thread_id TEXT NOT NULL,
            message_id TEXT NOT NULL, seq INTEGER NOT NULL, pending INTEGER NOT NULL DEFAULT 1,
            body TEXT NOT NULL, PRIMARY KEY (tenant_id, user_id, agent_id, thread_id, message_id))""",
            """INSERT INTO conv_messages_by_agent SELECT tenant_id, user_id, json_extract(body, '$.agentId'),
            thread_id, message_id, seq, pending, body FROM conv_messages""",
            "DROP TABLE conv_messages",
            "ALTER TABLE conv_messages_by_agent RENAME TO conv_messages",
            """CREATE UNIQUE INDEX conv_messages_by_seq
            ON conv_messages (tenant_id, user_id, agent_id, thread_id, seq)""",
            "CREATE INDEX conv_messages_pending ON conv_messages (pending) WHERE pending = 1",
            """CREATE TABLE conv_summaries_by_agent (
            tenant_id TEXT NOT NULL, user_id TEXT NOT NULL, thread_id TEXT NOT NULL,
            agent_id TEXT NOT NULL, version INTEGER NOT NULL, body TEXT NOT NULL,
            PRIMARY KEY (tenant_id, user_id, agent_id, thread_id))""",
            "INSERT INTO conv_summaries_by_agent SELECT * FROM conv_summaries",
            "DROP TABLE conv_summaries",
            "ALTER TABLE conv_summaries_by_agent RENAME TO conv_summaries",
        ],
    ),
]


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply every migration this database lacks; return the names applied now."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    applied: list[str] = []
    for name, statements in MIGRATIONS:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if conn.execute("SELECT 1 FROM schema_migrations WHERE name=?", (name,)).fetchone() is None:
                for sql in statements:
                    conn.execute(sql)
                conn.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ'))",
                    (name,),
                )
                applied.append(name)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return applied
