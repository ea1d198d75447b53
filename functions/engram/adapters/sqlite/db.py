"""The embedded store's shared connection: one per thread, WAL, and the write lock.

Every SQLite repository (entries, profiles, keys, blocks, conversations, dream state,
...) is built over one ``SqliteDb``, so they share a file, a write lock and the local
change feed, and none reaches into another's internals. SQLite connections are not
shared across threads; WAL lets readers proceed while one writer holds
``BEGIN IMMEDIATE``, which every changeset takes so its optimistic version checks and
capacity check run under the lock.
"""

from __future__ import annotations

import base64
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engram.adapters.sqlite.migrations import migrate
from engram.adapters.sqlite.scrub import SECURE_DELETE, checkpoint_truncate
from engram.domain.errors import StoreUnavailable, ValidationFailed

dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class SqliteDb:
    def __init__(self, path: str | Path, busy_timeout_ms: int = 10_000) -> None:
        self.path = str(path)
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        self._listeners: list[Callable[[], None]] = []
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        migrate(self.conn())

    def conn(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
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
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction under the database's write lock."""
        conn = self.conn()
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

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every committed changeset (the local change feed)."""
        self._listeners.append(listener)

    def stop_notifying(self) -> None:
        """A bulk load: commits no longer wake the listeners (the caller drains once at the end)."""
        self._listeners.clear()

    def notify(self) -> None:
        for listener in self._listeners:
            listener()

    def scrub_residue(self) -> None:
        """After an erasure: no copy of a deleted page may stay in the write-ahead log."""
        if self.path != ":memory:":
            checkpoint_truncate(self.conn(), self.path)

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def encode_cursor(values: list[Any]) -> str:
    return base64.urlsafe_b64encode(dumps(values).encode()).decode().rstrip("=")


def decode_cursor(cursor: str, arity: int) -> list[Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
    if not isinstance(values, list) or len(values) != arity:
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return values


class SqliteRepository:
    """A repository over the shared connection (each port's SQLite adapter is one)."""

    def __init__(self, db: SqliteDb) -> None:
        self.db = db
