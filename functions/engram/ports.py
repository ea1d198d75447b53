"""Ports: the Protocols every external system is reached through.

Services depend only on these; adapters (``engram.adapters.*``) implement them for the
embedded store (SQLite + in-process index) and for AWS (DynamoDB, OpenSearch, Bedrock).
Every adapter of a port passes the same contract suite under ``tests/contract``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from engram.domain.agent_config import AgentConfig, RecallOrder
from engram.domain.models import (
    ApiKeyRecord,
    Changeset,
    HistoryRecord,
    MemoryEntry,
    Page,
    Status,
    UserProfile,
    UserSettings,
)
from engram.domain.policies import VisibilityScope

Vector = Sequence[float]


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


@dataclass(frozen=True, slots=True)
class EntryQuery:
    """A filtered, ordered, paginated listing of one user's entries."""

    now: datetime
    scope: VisibilityScope | None = None
    statuses: tuple[Status, ...] = (Status.ACTIVE,)
    category: str | None = None
    key: str | None = None
    include_expired: bool = False
    order: RecallOrder = RecallOrder.MOST_RECENT
    limit: int = 50
    cursor: str | None = None


@dataclass(frozen=True, slots=True)
class IdentityState:
    version: int
    current_entry_id: str | None


class MemoryRepository(Protocol):
    """The source of truth for entries and their history (DynamoDB in the cloud)."""

    def get_entry(self, tenant_id: str, user_id: str, entry_id: str) -> MemoryEntry | None: ...

    def get_entries(self, tenant_id: str, user_id: str, entry_ids: Sequence[str]) -> list[MemoryEntry]:
        """The entries that exist among ``entry_ids``, in no particular order."""
        ...

    def get_identity(self, tenant_id: str, user_id: str, identity_id: str) -> IdentityState | None: ...

    def list_entries(self, tenant_id: str, user_id: str, query: EntryQuery) -> Page[MemoryEntry]: ...

    def count_live(self, tenant_id: str, user_id: str, now: datetime) -> int:
        """Active, unexpired entries of the user (what the capacity counts)."""
        ...

    def apply(self, changeset: Changeset, now: datetime) -> None:
        """Write the whole changeset atomically or nothing.

        Raises ``VersionConflict`` when a guard's expected version no longer holds and
        ``CapacityReached`` when live entries would exceed ``changeset.max_active``.
        """
        ...

    def history(
        self,
        tenant_id: str,
        user_id: str,
        identity_id: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[HistoryRecord]:
        """Versions of one identity, oldest first."""
        ...

    def history_of_user(self, tenant_id: str, user_id: str) -> list[HistoryRecord]: ...

    def record_access(self, tenant_id: str, user_id: str, entry_ids: Sequence[str], at: datetime) -> None:
        """Bump access statistics; not a versioned change and never blocks a write."""
        ...


class ProfileRepository(Protocol):
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None: ...

    def put_profile(self, profile: UserProfile) -> None: ...

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None: ...

    def put_settings(self, settings: UserSettings) -> None: ...


class ConfigRepository(Protocol):
    def get_agent_config(self, tenant_id: str, agent_id: str) -> AgentConfig | None: ...

    def put_agent_config(self, tenant_id: str, agent_id: str, config: AgentConfig) -> None: ...


class KeyStore(Protocol):
    def put_api_key(self, record: ApiKeyRecord) -> None: ...

    def get_api_key(self, key_id: str) -> ApiKeyRecord | None: ...

    def list_api_keys(self, tenant_id: str | None = None) -> list[ApiKeyRecord]: ...

    def revoke_api_key(self, key_id: str, at: datetime) -> bool: ...


class TurnCounter(Protocol):
    def add_turn_writes(
        self,
        tenant_id: str,
        agent_id: str,
        turn_id: str,
        count: int,
        limit: int,
        expires_at: datetime,
    ) -> int:
        """Atomically add ``count`` writes to a turn; return the new total.

        Raises ``GuardrailViolation('too_many_writes')`` without counting when the total
        would exceed ``limit``.
        """
        ...


class UserDataEraser(Protocol):
    """Every store that holds data about a user implements this for erasure."""

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        """Delete everything of the user; return how many items of each kind went."""
        ...


@runtime_checkable
class Store(
    MemoryRepository,
    ProfileRepository,
    ConfigRepository,
    KeyStore,
    TurnCounter,
    UserDataEraser,
    Protocol,
):
    """One adapter per backing system implements every repository port."""


class DocKind(StrEnum):
    MEMORY = "memory"
    MESSAGE = "message"
    ARCHIVAL = "archival"


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


@dataclass(frozen=True, slots=True)
class SearchHit:
    id: str
    kind: DocKind
    # Raw component scores; fusion and ranking happen in the domain, not the index.
    keyword: float = 0.0
    semantic: float = 0.0
    extra: dict[str, object] = field(default_factory=dict)


class SearchIndex(Protocol):
    def upsert(self, docs: Sequence[IndexDocument]) -> None: ...

    def delete(self, tenant_id: str, user_id: str, ids: Sequence[str]) -> None: ...

    def search(self, query: SearchQuery) -> list[SearchHit]:
        """Up to ``k`` hits by keyword (BM25) and up to ``k`` by vector, merged by id."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


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
