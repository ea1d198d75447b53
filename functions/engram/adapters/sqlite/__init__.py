"""The embedded store: SQLite in WAL mode, for laptops, evaluation and tests."""

from engram.adapters.sqlite.store import SqliteStore

__all__ = ["SqliteStore"]
