"""Leave no bytes of erased data in an SQLite file, its -wal or its -shm.

Deleting a row only unlinks it: the old page image stays in the write-ahead log until a
checkpoint copies the new one back, the database file keeps it until then, and free
space inside pages keeps the bytes unless ``secure_delete`` zeroes them. Every embedded
connection runs with ``secure_delete = ON``; after an erasure the log is checkpointed
into the database and truncated to zero bytes, so a scan of every file of the data
directory finds nothing (tests/integration/test_erasure_scan.py).

What this cannot reach: blocks the filesystem or the disk keep after a truncate (a
journaling filesystem, SSD wear levelling, backups and snapshots). docs/security.md
says so.
"""

from __future__ import annotations

import sqlite3
import time

from aws_lambda_powertools import Logger

from engram.domain.errors import StoreUnavailable

logger = Logger(service="engram", child=True)

SECURE_DELETE = "PRAGMA secure_delete = ON"
# A reader of another connection (a request in flight, a worker process) can hold a
# snapshot that stops TRUNCATE; readers are short, so a few tries are enough.
ATTEMPTS = 50
PAUSE_S = 0.05


def checkpoint_truncate(conn: sqlite3.Connection, path: str) -> None:
    """Copy every WAL frame into the database and truncate the WAL to zero bytes."""
    for _ in range(ATTEMPTS):
        busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy == 0:
            return
        time.sleep(PAUSE_S)
    logger.warning("wal checkpoint blocked", extra={"path": path, "attempts": ATTEMPTS})
    # The rows are gone already; a retried erasure finds nothing more to delete and
    # checkpoints again, so failing loudly here is safe and honest.
    raise StoreUnavailable(
        "The user's data is deleted, but the embedded store's write-ahead log could not be "
        "truncated while other readers were active; retry the erasure.",
        path=path,
    )
