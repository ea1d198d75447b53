"""Search: the index (keyword and vector), the embedder that makes its vectors, and
tier 1's read of a user's core memories.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from engram.domain.models import MemoryEntry
from engram.domain.policies import VisibilityScope
from engram.domain.values import quick_init

Vector = Sequence[float]


class DocKind(StrEnum):
    MEMORY = "memory"
    MESSAGE = "message"
    ARCHIVAL = "archival"
    SUMMARY = "summary"  # a thread's rolling summary (Mordecai's session summaries)


@dataclass(frozen=True, slots=True)
class IndexDocument:
    """What the search index holds for one searchable item."""

    id: str
    tenant_id: str
    user_id: str
    kind: DocKind
    text: str
    vector: Vector | None
    model_id: str | None
    visibility: str
    source_agent_id: str
    group_ids: tuple[str, ...] = ()
    category: str | None = None
    key: str | None = None
    thread_id: str | None = None
    importance: int = 50
    confidence: float = 1.0
    updated_at: datetime | None = None
    expires_at: datetime | None = None
    # When what the document records happened: a message's own timestamp (when it was
    # said, not stored), an entry's source time. Questions about a time span use it.
    occurred_at: datetime | None = None
    # Who said it (a message's ``speaker_of``): recall lifts what the person a question
    # names said, and ranks on this before it reads the message.
    speaker: str | None = None


@dataclass(frozen=True, slots=True)
class SearchQuery:
    tenant_id: str
    user_id: str
    now: datetime
    text: str = ""
    vector: Vector | None = None
    scope: VisibilityScope | None = None
    kinds: tuple[DocKind, ...] = (DocKind.MEMORY,)
    categories: tuple[str, ...] | None = None
    thread_ids: tuple[str, ...] | None = None
    exclude_thread_ids: tuple[str, ...] = ()
    k: int = 10
    # The model that made ``vector``: only documents embedded by the same model are
    # compared with it (vectors of two models are meaningless to each other, even at
    # the same dimension). None: whichever model most of the user's documents have.
    model_id: str | None = None
    # Only documents that occurred in [occurred_from, occurred_to) (documents without a
    # time never match a window).
    occurred_from: datetime | None = None
    occurred_to: datetime | None = None


@quick_init  # built a hundred times or more per recall
@dataclass(frozen=True, slots=True)
class SearchHit:
    id: str
    kind: DocKind
    # Raw component scores; fusion and ranking happen in the domain, not the index.
    keyword: float = 0.0
    semantic: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)
    # The index's copy of what ranking reads (None where the index does not keep it):
    # recall ranks every candidate on these and reads from the store only the ones it
    # is about to show, instead of every candidate.
    importance: int | None = None
    confidence: float | None = None
    updated_at: datetime | None = None
    # When it occurred (IndexDocument.occurred_at): a past message ranks on it before
    # recall reads the message (None where the index does not return it).
    occurred_at: datetime | None = None
    speaker: str | None = None  # IndexDocument.speaker, where the index returns it


class SearchIndex(Protocol):
    def upsert(self, docs: Sequence[IndexDocument]) -> None: ...

    def delete(self, tenant_id: str, user_id: str, ids: Sequence[str]) -> None: ...

    def search(self, query: SearchQuery) -> list[SearchHit]:
        """Up to ``k`` hits by keyword (BM25) and up to ``k`` by vector, merged by id."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...

    def speakers(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> frozenset[str]:
        """Who said the user's indexed past messages (``IndexDocument.speaker``) in the
        threads of ``agent_id`` (None: of every agent), where the index knows it without
        a search of its own; else empty."""
        ...


class CoreMemoryReader(Protocol):
    """Recall's tier 1: a user's most important live entries of one category."""

    def top_by_importance(
        self,
        tenant_id: str,
        user_id: str,
        scope: VisibilityScope,
        category: str,
        now: datetime,
        limit: int,
    ) -> list[MemoryEntry]:
        """Active, unexpired, visible in ``scope``; by importance, then most recent, then id."""
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    # Cosine above which two extracted facts are the same fact (behaviour item 6).
    @property
    def dedup_threshold(self) -> float: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length vectors, one per text."""
        ...
