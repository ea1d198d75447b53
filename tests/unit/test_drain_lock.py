"""The outbox drainer's file lock excludes other processes (engram serve --workers)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from engram.service.indexing import file_lock

HOLD = """
import sys, time
from pathlib import Path
from engram.service.indexing import file_lock
with file_lock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(0.6)
"""


def test_given_another_process_holds_the_lock_when_draining_then_it_waits(tmp_path: Path) -> None:
    lock = tmp_path / ".index-drain.lock"
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "held"
        started = time.monotonic()
        with file_lock(lock):
            waited = time.monotonic() - started
    finally:
        child.wait(timeout=10)
    assert waited > 0.3  # blocked until the other process let go


def test_without_a_path_there_is_no_lock(tmp_path: Path) -> None:
    with file_lock(None), file_lock(None):
        pass
