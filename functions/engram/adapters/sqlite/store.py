"""The embedded store: every repository port the services take as one ``Store``.

Each port has its own repository module over the shared connection (``db.py``):
entries (memory, history, the outbox), users (profiles, settings, agent
configuration), keys, turns and erasure. ``SqliteStore`` is their union for the
services that take the whole ``Store``; it adds no behaviour of its own.
"""

from __future__ import annotations

from pathlib import Path

from engram.adapters.sqlite.db import SqliteDb
from engram.adapters.sqlite.entries import SqliteEntries
from engram.adapters.sqlite.erasure import SqliteErasure
from engram.adapters.sqlite.keys import SqliteKeys
from engram.adapters.sqlite.turns import SqliteTurnCounter
from engram.adapters.sqlite.users import SqliteAgentConfigs, SqliteProfiles


class SqliteStore(SqliteEntries, SqliteProfiles, SqliteAgentConfigs, SqliteKeys, SqliteTurnCounter, SqliteErasure):
    def __init__(self, path: str | Path | SqliteDb, busy_timeout_ms: int = 10_000) -> None:
        super().__init__(path if isinstance(path, SqliteDb) else SqliteDb(path, busy_timeout_ms))

    @property
    def path(self) -> str:
        return self.db.path

    def close(self) -> None:
        self.db.close()
