"""The source of truth: memory entries and their history, users' profiles and settings,
agents' configuration, API keys, per-turn counters and the erasure of a user.

Each port is its own repository; the composition root hands a service only the ones it
uses (``engram.backends.Repositories``). ``Store`` is their union, as one backend's
adapter implements them over one connection or table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
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

    def count_visible(self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime) -> int | None:
        """Active, unexpired entries ``scope`` sees, when the store keeps counts that tell
        it cheaply (the whole user's: ``count_live``; an agent's: only while no entry's
        validity is bounded, as listings show only what holds now); None: count by listing.
        """
        ...

    def settings_and_count(
        self, tenant_id: str, user_id: str, scope: VisibilityScope, now: datetime
    ) -> tuple[UserSettings | None, int | None]:
        """The user's settings and ``count_visible``, in one read where the backend can.

        Only for a count: the read may be eventually consistent (DynamoDB), so the
        settings may lag a change by DynamoDB's usual second. A count shows a number,
        never a memory; every read that returns memories reads the settings consistently.
        """
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

    def record_access(
        self,
        tenant_id: str,
        user_id: str,
        entry_ids: Sequence[str],
        at: datetime,
        last_accessed: Mapping[str, datetime | None] | None = None,
    ) -> None:
        """Bump access statistics; not a versioned change and never blocks a write.

        ``last_accessed`` is each entry's ``last_accessed_at`` as the caller read it: a
        backend that samples (DynamoDB) still writes the entries whose value is stale.
        """
        ...


class ProfileRepository(Protocol):
    def get_profile(self, tenant_id: str, user_id: str) -> UserProfile | None: ...

    def put_profile(self, profile: UserProfile) -> None: ...

    def get_settings(self, tenant_id: str, user_id: str) -> UserSettings | None: ...

    def put_settings(self, settings: UserSettings) -> None: ...

    def get_profile_and_settings(self, tenant_id: str, user_id: str) -> tuple[UserProfile | None, UserSettings | None]:
        """Both in one read where the backend can (recall needs both on every call)."""
        ...


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


class ErasureMarks(Protocol):
    """The erasure tombstone: when a user was last erased (issue #17 item 12)."""

    def mark_erased(self, tenant_id: str, user_id: str, at: datetime) -> None:
        """Record the erasure before anything is deleted; ``apply`` checks it atomically."""
        ...

    def erased_at(self, tenant_id: str, user_id: str) -> datetime | None: ...


class UserDataEraser(Protocol):
    """Every store that holds data about a user implements this for erasure."""

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        """Delete everything of the user; return how many items of each kind went."""
        ...


@runtime_checkable
class ResidueScrubber(Protocol):
    """A store whose deletes can leave copies behind (an embedded database's log)."""

    def scrub_residue(self) -> None:
        """After an erasure, remove every leftover copy of deleted data."""
        ...


class UserErasure(ErasureMarks, UserDataEraser, Protocol):
    """The erasure of a user's core data: the tombstone first, then the rows."""


@runtime_checkable
class Store(
    MemoryRepository,
    ProfileRepository,
    ConfigRepository,
    KeyStore,
    TurnCounter,
    UserErasure,
    Protocol,
):
    """Every repository port of the source of truth, as one backend's adapter implements
    them over one connection or table. Services never take it: the composition root
    hands each one only the repositories it uses (``engram.backends.Repositories``)."""
