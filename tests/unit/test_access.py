"""Access statistics leave the request path and lose no count while the process lives."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime

from engram.service.access import Access, BackgroundAccessRecorder, InlineAccessRecorder

from tests.support import T0


class Repo:
    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, str, list[str], datetime]] = []
        self.fail = fail
        self.threads: set[str] = set()

    def record_access(self, tenant_id: str, user_id: str, entry_ids: Sequence[str], at: datetime) -> None:
        self.threads.add(threading.current_thread().name)
        if self.fail:
            raise RuntimeError("store down")
        self.calls.append((tenant_id, user_id, list(entry_ids), at))


def _counts(repo: Repo) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, _, ids, _ in repo.calls:
        for i in ids:
            out[i] = out.get(i, 0) + 1
    return out


def test_given_repeated_recalls_when_the_worker_writes_then_every_access_is_counted_off_the_caller() -> None:
    repo = Repo()
    recorder = BackgroundAccessRecorder(repo, interval=0.05)  # type: ignore[arg-type]
    recorder.record(Access("t1", "u1", ("a", "b"), T0))
    recorder.record(Access("t1", "u1", ("a",), T0))
    recorder.record(Access("t1", "u2", ("c",), T0))
    recorder.record(Access("t1", "u2", (), T0))
    assert recorder.flush()
    assert _counts(repo) == {"a": 2, "b": 1, "c": 1}
    assert repo.threads == {"engram-access-stats"}


def test_given_a_failing_store_when_recording_then_recall_is_not_affected() -> None:
    repo = Repo(fail=True)
    recorder = BackgroundAccessRecorder(repo, interval=0.0)  # type: ignore[arg-type]
    recorder.record(Access("t1", "u1", ("a",), T0))
    assert recorder.flush()
    InlineAccessRecorder(repo).record(Access("t1", "u1", ("a",), T0))  # type: ignore[arg-type]
    assert repo.calls == []


def test_given_a_full_queue_when_recording_then_it_drops_instead_of_waiting() -> None:
    recorder = BackgroundAccessRecorder(Repo(), max_pending=1, interval=0.5)  # type: ignore[arg-type]
    for _ in range(5):
        recorder.record(Access("t1", "u1", ("a",), T0))
    assert recorder.dropped >= 1
