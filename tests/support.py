"""Test helpers shared by every suite."""

from __future__ import annotations

import functools
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from engram.backends import Backend
from engram.backends.embedded import EmbeddedBackend
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

    def set(self, at: datetime) -> None:
        """Jump to ``at`` (tests that compare two worlds start them at one instant)."""
        with self._lock:
            self._now = at


def principal(tenant: str = "t1", agent: str = "agent-a", *roles: Role, groups: tuple[str, ...] = ()) -> Principal:
    return Principal(tenant, agent, frozenset(roles or (Role.WRITER,)), groups, key_id=f"k-{agent}")


def backend_for(store: Store, settings: Settings) -> Backend:
    """The backend a test's store belongs to (contract suites are parametrised on stores)."""
    from engram.adapters.sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        return EmbeddedBackend(settings, store)
    from engram.adapters.dynamodb import DynamoStore
    from engram.backends.aws import AwsBackend

    assert isinstance(store, DynamoStore), f"no backend for a {type(store).__name__}"
    return AwsBackend(settings, store)


def engram_for(tmp_path: Path, store: Store | None = None, clock: Any = None, **settings: Any) -> Engram:
    config = Settings(data_dir=tmp_path, **settings)
    backend = None if store is None else backend_for(store, config)
    return build(config, backend=backend, clock=clock or ManualClock())


@functools.cache
def corpus_in_long_texts() -> list[str]:
    """Every benign and labelled corpus text, joined into texts of 2,000 characters and more.

    The checks that a fast way of reading a pattern answers as `re` does need long texts: a text
    under 256 characters is read by the whole pattern, never prefiltered or split by phrase.
    """
    from bench.sensitive_corpus import PARTS, load
    from bench.sensitive_holdout import benign_corpus

    rows = [t for source in benign_corpus().values() for _, t in source]
    rows += [s.text for paths in PARTS.values() for s in load(paths)]
    out, chunk = [], ""
    for row in rows:
        chunk += row + "\n"
        if len(chunk) > 2000:
            out.append(chunk)
            chunk = ""
    return out
