"""Entities of the memory model (design, behaviour items 1, 10 and 15).

Slotted dataclasses rather than pydantic models: recall touches hundreds of entries per
request and these are built and copied on that hot path. The API layer owns the pydantic
schemas and converts at the boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Visibility(StrEnum):
    SELF = "self"
    GROUP = "group"
    GLOBAL = "global"


class Status(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    DELETED = "deleted"


class ActorType(StrEnum):
    AGENT = "agent"
    USER = "user"
    SYSTEM = "system"


class ChangeKind(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    REINFORCED = "reinforced"
    SUPERSEDED = "superseded"
    DELETED = "deleted"
    RESTORED = "restored"
    STALE = "stale"
    EVICTED = "evicted"
    # Dream's maintenance changes (actor system/dream; the reason names the rule).
    EXPIRED = "expired"
    PRUNED = "pruned"
    DECAYED = "decayed"
    FLAGGED = "flagged"
    MERGED = "merged"
    SUMMARIZED = "summarized"


class Role(StrEnum):
    VIEWER = "viewer"
    WRITER = "writer"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class Actor:
    type: ActorType
    id: str

    def as_dict(self) -> dict[str, str]:
        return {"type": self.type.value, "id": self.id}


@dataclass(frozen=True, slots=True)
class MemoryEntry:
    id: str
    tenant_id: str
    user_id: str
    identity_id: str
    key: str
    value: str
    category: str
    visibility: Visibility
    source_agent_id: str
    created_at: datetime
    updated_at: datetime
    version: int
    statement: str | None = None
    group_ids: tuple[str, ...] = ()
    source_conversation_id: str | None = None
    source_message_id: str | None = None
    importance: int = 50
    confidence: float = 1.0
    status: Status = Status.ACTIVE
    supersedes: str | None = None
    superseded_by: str | None = None
    conflicted: bool = False
    access_count: int = 0
    last_accessed_at: datetime | None = None
    last_reinforced_at: datetime | None = None
    # Where dream's weekly confidence decay last counted from, so a decay step is taken
    # once per period however often dream runs (and never twice on a retried run).
    last_decayed_at: datetime | None = None
    expires_at: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    # When the fact was observed at its source (device clock, message timestamp);
    # orders out-of-order writes from several devices.
    source_time: datetime | None = None

    @property
    def observed_at(self) -> datetime:
        """When the fact was observed: its source time, else when it was stored."""
        return self.created_at if self.source_time is None else min(self.source_time, self.created_at)

    def valid_at(self, moment: datetime) -> bool:
        """Bi-temporal: the fact held in the world at ``moment`` ([validFrom, validTo))."""
        if self.valid_from is not None and moment < self.valid_from:
            return False
        return self.valid_to is None or moment < self.valid_to

    def is_expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now

    def is_live(self, now: datetime) -> bool:
        return self.status is Status.ACTIVE and not self.is_expired(now)

    def evolve(self, **changes: Any) -> MemoryEntry:
        return replace(self, **changes)

    def text(self) -> str:
        """What search indexes see: key words, value and the statement if any."""
        words = self.key.replace("_", " ").replace("-", " ")
        return f"{words}: {self.value}" + (f". {self.statement}" if self.statement else "")


@dataclass(frozen=True, slots=True)
class HistoryRecord:
    """One version of a memory identity: the entry as it was after the change."""

    tenant_id: str
    user_id: str
    identity_id: str
    version: int
    entry: MemoryEntry
    change: ChangeKind
    actor: Actor
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class IdentityGuard:
    """Optimistic lock on one upsert identity: the write applies only if the stored
    version is still ``expected_version`` (``None``: the identity must not exist)."""

    identity_id: str
    expected_version: int | None
    new_version: int
    current_entry_id: str | None


@dataclass(frozen=True, slots=True)
class Changeset:
    """Everything one logical change writes, applied atomically by the repository."""

    tenant_id: str
    user_id: str
    guards: tuple[IdentityGuard, ...]
    entries: tuple[MemoryEntry, ...]
    history: tuple[HistoryRecord, ...]
    # Capacity is checked inside the same atomic write so concurrent inserts cannot
    # overshoot it: live entries after the change must stay <= max_active.
    active_delta: int = 0
    max_active: int | None = None
    # When the write's cause arrived (the request, or the message it was extracted
    # from). The store refuses it atomically if the user was erased at or after this
    # time: erasure wins over every write in flight or queued when it ran.
    origin: datetime | None = None


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling, always derived from credentials, never from a request body."""

    tenant_id: str
    agent_id: str
    roles: frozenset[Role]
    group_ids: tuple[str, ...] = ()
    key_id: str | None = None

    def has(self, role: Role) -> bool:
        if Role.ADMIN in self.roles:
            return True
        if role is Role.VIEWER:
            return bool(self.roles)
        return role in self.roles

    @property
    def is_admin(self) -> bool:
        return Role.ADMIN in self.roles


@dataclass(frozen=True, slots=True)
class ApiKeyRecord:
    key_id: str
    tenant_id: str
    agent_id: str
    roles: frozenset[Role]
    secret_hash: str
    created_at: datetime
    group_ids: tuple[str, ...] = ()
    description: str = ""
    revoked_at: datetime | None = None

    def principal(self) -> Principal:
        return Principal(self.tenant_id, self.agent_id, self.roles, self.group_ids, self.key_id)


@dataclass(frozen=True, slots=True)
class UserProfile:
    tenant_id: str
    user_id: str
    name: str | None = None
    nickname: str | None = None
    pronouns: str | None = None
    # The name the user gave each agent ("I'll call you Jarvis"), by agent id.
    agent_names: dict[str, str] = field(default_factory=dict)
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class UserSettings:
    tenant_id: str
    user_id: str
    memory_enabled: bool = True
    # None: whatever the agent allows; otherwise the user narrows it further.
    allowed_categories: tuple[str, ...] | None = None
    # Entries older than this many days leave recall and are removed by dream.
    retention_days: int | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    items: list[T]
    next_cursor: str | None = None


@dataclass(frozen=True, slots=True)
class ErasureReceipt:
    tenant_id: str
    user_id: str
    erased_at: datetime
    counts: dict[str, int]
