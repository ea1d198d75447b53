"""Test helpers shared by every suite."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engram.container import Engram, build
from engram.domain.models import Principal, Role
from engram.ports import Store
from engram.settings import Settings

T0 = datetime(2026, 1, 15, 10, 30, tzinfo=UTC)


class ManualClock:
    """A clock tests move by hand (thread-safe; monotonic unless told otherwise)."""

    def __init__(self, start: datetime = T0, tick: timedelta = timedelta(microseconds=1)) -> None:
        self._now = start
        self._tick = tick
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            # Every reading advances a hair, so "updated_at" orders writes like real time.
            self._now += self._tick
            return self._now

    def advance(self, delta: timedelta) -> None:
        with self._lock:
            self._now += delta


def principal(tenant: str = "t1", agent: str = "agent-a", *roles: Role, groups: tuple[str, ...] = ()) -> Principal:
    return Principal(tenant, agent, frozenset(roles or (Role.WRITER,)), groups, key_id=f"k-{agent}")


def engram_for(tmp_path: Path, store: Store | None = None, clock: Any = None, **settings: Any) -> Engram:
    return build(Settings(data_dir=tmp_path, **settings), store=store, clock=clock or ManualClock())
