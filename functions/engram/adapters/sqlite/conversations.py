"""SQLite implementation of ``ConversationRepository`` (the embedded store).

Shares the store's connection and write lock (``db.SqliteDb``), so an append, its
thread counter and the window checks commit together under ``BEGIN IMMEDIATE``.
Every row is keyed by its thread's ``ThreadKey`` (tenant, user, agent, thread id):
each agent has its own thread ids (migration ``conversations_by_agent_v1``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.adapters.sqlite.db import SqliteDb, SqliteRepository, dumps
from engram.domain.conversation import (
    ExtractionJob,
    ExtractionRecord,
    Message,
    NewMessage,
    Thread,
    ThreadKey,
    ThreadSummary,
)
from engram.domain.conversation_codec import (
    message_from_dict,
    message_to_dict,
    record_to_dict,
    summary_from_dict,
    summary_to_dict,
)
from engram.domain.errors import UserErased
from engram.domain.policies import erasure_mark_id
from engram.domain.serialization import parse_ts, ts
from engram.ports import AppendOutcome

_THREAD_COLS = "tenant_id, user_id, thread_id, agent_id, last_seq, window_start, clears, created_at, updated_at"
_KEY = "tenant_id=? AND user_id=? AND agent_id=? AND thread_id=?"


def _key(key: ThreadKey) -> tuple[str, str, str, str]:
    return (key.tenant_id, key.user_id, key.agent_id, key.thread_id)


# Parsed messages remembered by their stored text (see ``SqliteConversations._message``).
_PARSE_CACHE_SIZE = 20_000


class SqliteConversations(SqliteRepository):
    def __init__(self, db: SqliteDb) -> None:
        super().__init__(db)
        self._parsed: dict[str, Message] = {}

    def _message(self, body: str) -> Message:
        """Parse a stored message, remembering the result by its exact stored text.

        Recall reads the same past messages turn after turn (a hundred or so candidates
        per call at a thousand messages) and parsing their JSON was a fifth of its time.
        Keyed by the body itself, a cached parse can never be stale: every read still
        goes to the database, and a message changed by any process (another worker
        included) is a different body.
        """
        message = self._parsed.get(body)
        if message is None:
            message = message_from_dict(json.loads(body))
            if len(self._parsed) >= _PARSE_CACHE_SIZE:
                self._parsed.clear()
            self._parsed[body] = message
        return message

    # -- threads and appends ---------------------------------------------------------------
    def append(
        self,
        key: ThreadKey,
        messages: Sequence[NewMessage],
        now: datetime,
        origin: datetime | None = None,
    ) -> AppendOutcome:
        tenant_id, user_id, agent_id, thread_id = _key(key)
        with self.db.tx() as conn:
            if origin is not None:
                # Erasure wins, as for memory writes: an append that began before the
                # user was erased must not bring a conversation back after it.
                erased = conn.execute(
                    "SELECT erased_at FROM erasures WHERE mark_id=?", (erasure_mark_id(tenant_id, user_id),)
                ).fetchone()
                if erased is not None and erased[0] >= ts(origin):
                    raise UserErased("This user was erased after this append began; it was not applied.")
            row = conn.execute(f"SELECT {_THREAD_COLS} FROM conv_threads WHERE {_KEY}", _key(key)).fetchone()
            thread = _thread(row) if row else Thread(tenant_id, user_id, thread_id, agent_id, now, now)
            stored: list[Message] = []
            created: list[str] = []
            last = thread.last_seq
            for new in messages:
                existing = conn.execute(
                    f"SELECT body FROM conv_messages WHERE {_KEY} AND message_id=?", (*_key(key), new.id)
                ).fetchone()
                if existing is not None:
                    stored.append(message_from_dict(json.loads(existing[0])))
                    continue
                last += 1
                msg = new.stored(tenant_id, user_id, thread_id, thread.agent_id, last, now)
                conn.execute(
                    "INSERT INTO conv_messages (tenant_id, user_id, agent_id, thread_id, message_id, seq, pending, "
                    "body) VALUES (?,?,?,?,?,?,1,?)",
                    (*_key(key), msg.id, msg.seq, dumps(message_to_dict(msg))),
                )
                stored.append(msg)
                created.append(msg.id)
            if created or row is None:
                thread = Thread(
                    tenant_id,
                    user_id,
                    thread_id,
                    thread.agent_id,
                    thread.created_at,
                    now if created else thread.updated_at,
                    last,
                    thread.window_start,
                    thread.clears,
                )
                conn.execute(
                    f"INSERT OR REPLACE INTO conv_threads ({_THREAD_COLS}) VALUES (?,?,?,?,?,?,?,?,?)",
                    _thread_row(thread),
                )
        return AppendOutcome(thread, stored, tuple(created))

    def get_thread(self, key: ThreadKey) -> Thread | None:
        row = self.db.conn().execute(f"SELECT {_THREAD_COLS} FROM conv_threads WHERE {_KEY}", _key(key)).fetchone()
        return None if row is None else _thread(row)

    def list_threads(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[Thread]:
        sql = f"SELECT {_THREAD_COLS} FROM conv_threads WHERE tenant_id=? AND user_id=?"
        args: list[Any] = [tenant_id, user_id]
        if agent_id is not None:
            sql += " AND agent_id=?"
            args.append(agent_id)
        rows = self.db.conn().execute(sql + " ORDER BY updated_at DESC, thread_id, agent_id", args).fetchall()
        return [_thread(r) for r in rows]

    def clear_window(self, key: ThreadKey, expected_window_start: int, new_window_start: int, now: datetime) -> bool:
        with self.db.tx() as conn:
            cur = conn.execute(
                "UPDATE conv_threads SET window_start=?, clears=clears+1, updated_at=? "
                f"WHERE {_KEY} AND window_start=?",
                (new_window_start, ts(now), *_key(key), expected_window_start),
            )
            return cur.rowcount == 1

    # -- messages ------------------------------------------------------------------------------
    def get_message(self, key: ThreadKey, message_id: str) -> Message | None:
        row = (
            self.db.conn()
            .execute(f"SELECT body FROM conv_messages WHERE {_KEY} AND message_id=?", (*_key(key), message_id))
            .fetchone()
        )
        return None if row is None else self._message(row[0])

    def get_messages(self, tenant_id: str, user_id: str, keys: Sequence[tuple[str, str, str]]) -> list[Message]:
        out: list[Message] = []
        by_thread: dict[tuple[str, str], list[str]] = {}
        for agent_id, thread_id, message_id in dict.fromkeys(keys):
            by_thread.setdefault((agent_id, thread_id), []).append(message_id)
        conn = self.db.conn()
        # One primary-key lookup per thread (an OR of pairs made SQLite scan the user's
        # messages: recall reads dozens of them per turn).
        for (agent_id, thread_id), ids in sorted(by_thread.items()):
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                rows = conn.execute(
                    f"SELECT body FROM conv_messages WHERE {_KEY} AND message_id IN ({','.join('?' * len(chunk))})",
                    (tenant_id, user_id, agent_id, thread_id, *chunk),
                ).fetchall()
                out.extend(self._message(r[0]) for r in rows)
        return out

    def recent(self, key: ThreadKey, from_seq: int, limit: int, before_seq: int | None = None) -> list[Message]:
        rows = (
            self.db.conn()
            .execute(
                f"SELECT body FROM conv_messages WHERE {_KEY} AND seq >= ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                (*_key(key), from_seq, before_seq or 2**62, limit),
            )
            .fetchall()
        )
        return [message_from_dict(json.loads(r[0])) for r in rows]

    def list_messages(self, key: ThreadKey, after_seq: int = 0, limit: int = 500) -> list[Message]:
        rows = (
            self.db.conn()
            .execute(
                f"SELECT body FROM conv_messages WHERE {_KEY} AND seq > ? ORDER BY seq LIMIT ?",
                (*_key(key), after_seq, limit),
            )
            .fetchall()
        )
        return [message_from_dict(json.loads(r[0])) for r in rows]

    def user_messages(self, tenant_id: str, user_id: str) -> list[Message]:
        rows = (
            self.db.conn()
            .execute(
                "SELECT body FROM conv_messages WHERE tenant_id=? AND user_id=? ORDER BY agent_id, thread_id, seq",
                (tenant_id, user_id),
            )
            .fetchall()
        )
        return [message_from_dict(json.loads(r[0])) for r in rows]

    def mark_extracted(self, key: ThreadKey, message_id: str, record: ExtractionRecord) -> None:
        with self.db.tx() as conn:
            row = conn.execute(
                f"SELECT body FROM conv_messages WHERE {_KEY} AND message_id=?", (*_key(key), message_id)
            ).fetchone()
            if row is None:
                return  # erased while it was being processed: nothing to mark
            body = json.loads(row[0])
            body["extraction"] = record_to_dict(record)
            conn.execute(
                f"UPDATE conv_messages SET pending=0, body=? WHERE {_KEY} AND message_id=?",
                (dumps(body), *_key(key), message_id),
            )

    def pending_jobs(self, limit: int = 1000) -> list[ExtractionJob]:
        """Messages stored but never processed (the local worker's crash recovery)."""
        rows = (
            self.db.conn()
            .execute(
                "SELECT tenant_id, user_id, thread_id, message_id, agent_id FROM conv_messages "
                "WHERE pending = 1 ORDER BY tenant_id, user_id, agent_id, thread_id, seq LIMIT ?",
                (limit,),
            )
            .fetchall()
        )
        return [ExtractionJob(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    # -- summaries ------------------------------------------------------------------------------
    def get_summary(self, key: ThreadKey) -> ThreadSummary | None:
        row = self.db.conn().execute(f"SELECT body FROM conv_summaries WHERE {_KEY}", _key(key)).fetchone()
        return None if row is None else summary_from_dict(json.loads(row[0]))

    def put_summary(self, summary: ThreadSummary, expected_version: int | None) -> bool:
        with self.db.tx() as conn:
            row = conn.execute(f"SELECT version FROM conv_summaries WHERE {_KEY}", _key(summary.key)).fetchone()
            if (None if row is None else int(row[0])) != expected_version:
                return False
            conn.execute(
                "INSERT OR REPLACE INTO conv_summaries (tenant_id, user_id, thread_id, agent_id, version, body) "
                "VALUES (?,?,?,?,?,?)",
                (
                    summary.tenant_id,
                    summary.user_id,
                    summary.thread_id,
                    summary.agent_id,
                    summary.version,
                    dumps(summary_to_dict(summary)),
                ),
            )
            return True

    def list_summaries(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[ThreadSummary]:
        sql = "SELECT body FROM conv_summaries WHERE tenant_id=? AND user_id=?"
        args: list[Any] = [tenant_id, user_id]
        if agent_id is not None:
            sql += " AND agent_id=?"
            args.append(agent_id)
        rows = self.db.conn().execute(sql + " ORDER BY thread_id, agent_id", args).fetchall()
        return [summary_from_dict(json.loads(r[0])) for r in rows]

    # -- deletion ----------------------------------------------------------------------------------
    def delete_thread(self, key: ThreadKey) -> dict[str, int]:
        return self._delete(
            key.tenant_id, key.user_id, " AND agent_id=? AND thread_id=?", (key.agent_id, key.thread_id)
        )

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        return self._delete(tenant_id, user_id, "", ())

    def _delete(self, tenant_id: str, user_id: str, extra: str, args: tuple[str, ...]) -> dict[str, int]:
        counts: dict[str, int] = {}
        with self.db.tx() as conn:
            for name, table in (
                ("messages", "conv_messages"),
                ("summaries", "conv_summaries"),
                ("threads", "conv_threads"),
            ):
                cur = conn.execute(
                    f"DELETE FROM {table} WHERE tenant_id=? AND user_id=?{extra}", (tenant_id, user_id, *args)
                )
                counts[name] = cur.rowcount
        return counts


def _thread(row: Sequence[Any]) -> Thread:
    return Thread(
        tenant_id=row[0],
        user_id=row[1],
        thread_id=row[2],
        agent_id=row[3],
        last_seq=int(row[4]),
        window_start=int(row[5]),
        clears=int(row[6]),
        created_at=parse_ts(row[7]),
        updated_at=parse_ts(row[8]),
    )


def _thread_row(t: Thread) -> tuple[Any, ...]:
    return (
        t.tenant_id,
        t.user_id,
        t.thread_id,
        t.agent_id,
        t.last_seq,
        t.window_start,
        t.clears,
        ts(t.created_at),
        ts(t.updated_at),
    )
