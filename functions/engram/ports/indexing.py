"""Keeping the search index in step with the store: the change feed the indexer
follows, and what the cloud re-index and ``engram reembed`` read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from engram.domain.archival import ArchivalRecord
from engram.domain.conversation import ThreadKey
from engram.domain.models import MemoryEntry, Page


@dataclass(frozen=True, slots=True)
class EntryChange:
    """One entry as the store now holds it, or its id if the store no longer does.

    ``previous`` is the entry as it was before this change, when the change feed says
    (the DynamoDB stream's old image); None when it does not, or the entry is new.
    """

    tenant_id: str
    user_id: str
    entry_id: str
    entry: MemoryEntry | None
    previous: MemoryEntry | None = None


class ChangeOutbox(Protocol):
    """A store that records changed entry ids in the same transaction as the change."""

    def pending_changes(self, limit: int = 500) -> list[tuple[int, str, str, str]]: ...

    def ack_changes(self, up_to_seq: int) -> None: ...

    def pending_count(self, tenant_id: str, user_id: str) -> int | None:
        """How many of this user's changes wait for the index; None when it cannot tell."""
        ...

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]: ...

    def on_commit(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every commit (so changes are indexed at once)."""
        ...


# -- re-indexing and re-embedding --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScanPage:
    """One page of a scan of the store: its entries (``items``), and the threads and
    archival records on it, whose messages, summaries and records the index holds too."""

    items: list[MemoryEntry]
    next_cursor: str | None
    threads: list[ThreadKey] = field(default_factory=list)
    archival: list[ArchivalRecord] = field(default_factory=list)


class EntryScanner(Protocol):
    """Every entry (any status), thread and archival record the store holds, one segment
    of a parallel scan at a time."""

    def scan_entries(self, segment: int, segments: int, cursor: str | None, limit: int = 200) -> ScanPage:
        """One page of the segment; ``next_cursor`` is None at its end."""
        ...


class StreamRange(Protocol):
    """The entry keys a failed change-feed batch carried, read back from the feed."""

    def entry_keys(self, batch: Mapping[str, object]) -> list[tuple[str, str, str]]:
        """(tenant, user, entry id) of each entry change in the batch's range."""
        ...


class EntryReader(Protocol):
    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]: ...


class Messages(Protocol):
    """A work queue of JSON bodies: sent, received with a receipt, deleted once done."""

    def send(self, bodies: Sequence[Mapping[str, object]]) -> None: ...

    def receive(self, limit: int = 10) -> list[tuple[str, dict[str, object]]]: ...

    def delete(self, receipt: str) -> None: ...


class UserLister(Protocol):
    """Which (tenant, user) pairs hold entries; a store that can re-embed provides it."""

    def list_users(
        self, tenant_id: str | None = None, limit: int = 500, cursor: str | None = None
    ) -> Page[tuple[str, str]]: ...


@runtime_checkable
class VectorCensus(Protocol):
    """Which users' index documents another model embedded (an index that can tell).

    Searches compare a query only with documents of its own model, so after an embedder
    change those documents would lose their meaning part without a word; the embedded
    backend re-embeds their users at start instead (``container.rebuild_stale_vectors``).
    """

    def owners_embedded_otherwise(self, model_id: str) -> list[tuple[str, str]]: ...

    def drop_embedded_otherwise(self, tenant_id: str, user_id: str, model_id: str) -> int: ...
