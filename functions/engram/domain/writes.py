"""Planning a write (behaviour items 2, 6 and 10) as a pure function.

Given the current state of an upsert identity and a requested write, decide what
happens and build the entries and history records to store. The service applies the
plan atomically under an optimistic lock on the identity's version.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from engram.domain.models import (
    Actor,
    ChangeKind,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Status,
    Visibility,
)
from engram.domain.policies import identity_id, same_value
from engram.domain.ttl import DEFAULT_TTL, expiry_for

REINFORCE_STEP = 0.1


class Outcome(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    REINFORCED = "reinforced"
    SUPERSEDED = "superseded"
    STALE = "stale"
    RESTORED = "restored"
    # Not written: the agent's write became a proposal for the user to approve.
    PROPOSED = "proposed"
    # Not written: this observation (same user, key, source message and value) was
    # applied before, from another thread, path or retry.
    UNCHANGED = "unchanged"


@dataclass(frozen=True, slots=True)
class WriteRequest:
    """One memory write, already validated against guardrails and the sensitive filter."""

    tenant_id: str
    user_id: str
    key: str
    value: str
    category: str
    visibility: Visibility
    agent_id: str
    actor: Actor
    statement: str | None = None
    group_ids: tuple[str, ...] = ()
    importance: int | None = None
    confidence: float | None = None
    source_conversation_id: str | None = None
    source_message_id: str | None = None
    source_time: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    reason: str = "explicit write"
    # The user's retention setting: nothing outlives it, whatever its category's TTL.
    retention: timedelta | None = None
    ttl: Mapping[str, timedelta | None] = field(default_factory=lambda: DEFAULT_TTL)
    # When the write's cause reached Engram (for extraction: the message's arrival);
    # None means the write itself. An erasure at or after it wins over the write.
    origin: datetime | None = None

    @property
    def identity(self) -> str:
        return identity_id(self.tenant_id, self.user_id, self.key, self.visibility, self.agent_id)


@dataclass(frozen=True, slots=True)
class WritePlan:
    outcome: Outcome
    entry: MemoryEntry  # the entry the caller should see after the write
    guard: IdentityGuard
    entries: tuple[MemoryEntry, ...]
    history: tuple[HistoryRecord, ...]
    active_delta: int
    previous: MemoryEntry | None = None
    # Further identities created by the same transaction (an observation's source mark).
    guard_extra: tuple[IdentityGuard, ...] = ()


def new_entry_id() -> str:
    return "mem_" + secrets.token_hex(12)


def plan_write(
    req: WriteRequest,
    current: MemoryEntry | None,
    version: int | None,
    now: datetime,
    restoring: int | None = None,
) -> WritePlan:
    """Decide the effect of ``req`` on an identity whose live entry is ``current``.

    ``version`` is the identity's stored version (None if it never existed);
    ``restoring`` names the version being restored, which changes only the wording.
    """
    next_version = (version or 0) + 1
    guard = IdentityGuard(req.identity, version, next_version, None)
    live = current if current is not None and current.is_live(now) else None
    reason = req.reason if restoring is None else f"restore of version {restoring}"

    def record(entry: MemoryEntry, change: ChangeKind) -> HistoryRecord:
        return HistoryRecord(
            req.tenant_id,
            req.user_id,
            req.identity,
            next_version,
            entry,
            change,
            req.actor,
            reason,
            now,
        )

    if live is None:
        return _created(req, now, guard, record, restoring)
    if same_value(live.value, req.value):
        return _same_value(req, live, now, guard, record, restoring)
    if req.source_time is not None and live.source_time is not None and req.source_time < live.source_time:
        return _stale(req, live, now, guard, record)
    return _superseding(req, live, now, guard, record, restoring)


_Record = Callable[[MemoryEntry, ChangeKind], HistoryRecord]


def _created(
    req: WriteRequest, now: datetime, guard: IdentityGuard, record: _Record, restoring: int | None
) -> WritePlan:
    """No live entry: the write starts the identity (again)."""
    entry = _fresh(req, now, guard.new_version, supersedes=None)
    change = ChangeKind.RESTORED if restoring is not None else ChangeKind.CREATED
    outcome = Outcome.RESTORED if restoring is not None else Outcome.CREATED
    return WritePlan(outcome, entry, _with_current(guard, entry.id), (entry,), (record(entry, change),), 1)


def _stale(req: WriteRequest, live: MemoryEntry, now: datetime, guard: IdentityGuard, record: _Record) -> WritePlan:
    """An older observation arriving late never overrides a newer one; it is kept in
    history, marked stale, and the current value stays."""
    ghost = _fresh(req, now, guard.new_version, supersedes=None).evolve(status=Status.SUPERSEDED, superseded_by=live.id)
    return WritePlan(
        Outcome.STALE,
        live,
        _with_current(guard, live.id),
        (),
        (record(ghost, ChangeKind.STALE),),
        0,
        live,
    )


def _superseding(
    req: WriteRequest, live: MemoryEntry, now: datetime, guard: IdentityGuard, record: _Record, restoring: int | None
) -> WritePlan:
    """A new value: the live entry is superseded, kept in history."""
    entry = _fresh(req, now, guard.new_version, supersedes=live.id)
    old = live.evolve(
        status=Status.SUPERSEDED,
        superseded_by=entry.id,
        # The old fact held until its successor began to hold, not until the write.
        valid_to=_ended_at(live, entry, now),
        updated_at=now,
        version=guard.new_version,
    )
    change = ChangeKind.RESTORED if restoring is not None else ChangeKind.SUPERSEDED
    outcome = Outcome.RESTORED if restoring is not None else Outcome.SUPERSEDED
    return WritePlan(
        outcome,
        entry,
        _with_current(guard, entry.id),
        (old, entry),
        (record(entry, change),),
        0,
        live,
    )


def _same_value(
    req: WriteRequest,
    live: MemoryEntry,
    now: datetime,
    guard: IdentityGuard,
    record: Callable[[MemoryEntry, ChangeKind], HistoryRecord],
    restoring: int | None,
) -> WritePlan:
    changes: dict[str, object] = {}
    if req.category != live.category:
        changes["category"] = req.category
    if req.statement is not None and req.statement != live.statement:
        changes["statement"] = req.statement
    if req.importance is not None and req.importance != live.importance:
        changes["importance"] = req.importance
    # self and group share one identity: moving between them widens or narrows who sees
    # the entry, which is a change (history and index must both learn of it).
    if req.visibility is not live.visibility:
        changes["visibility"] = req.visibility
    wanted_groups = tuple(req.group_ids) if req.visibility is Visibility.GROUP else ()
    if set(wanted_groups) != set(live.group_ids):
        changes["group_ids"] = wanted_groups
    kind = ChangeKind.UPDATED if changes else ChangeKind.REINFORCED
    if restoring is not None:
        kind = ChangeKind.RESTORED
    updated = live.evolve(
        **changes,
        confidence=round(min(1.0, live.confidence + REINFORCE_STEP), 4),
        last_reinforced_at=_latest(live.last_reinforced_at, _observed(req, now)),
        updated_at=now,
        version=guard.new_version,
        # A restatement extends the life of the entry, never shortens it (a late copy of
        # an older observation must not expire what a newer one kept).
        expires_at=_later_expiry(live.expires_at, _expiry(req, now)),
        source_time=_latest(live.source_time, req.source_time),
    )
    outcome = {
        ChangeKind.UPDATED: Outcome.UPDATED,
        ChangeKind.REINFORCED: Outcome.REINFORCED,
        ChangeKind.RESTORED: Outcome.RESTORED,
    }[kind]
    return WritePlan(
        outcome,
        updated,
        _with_current(guard, live.id),
        (updated,),
        (record(updated, kind),),
        0,
        live,
    )


def plan_removal(
    entry: MemoryEntry,
    version: int,
    current_entry_id: str | None,
    actor: Actor,
    reason: str,
    now: datetime,
    change: ChangeKind = ChangeKind.DELETED,
) -> tuple[IdentityGuard, MemoryEntry, HistoryRecord]:
    """Soft-delete one entry: it leaves every read, and its history keeps the deletion."""
    nv = version + 1
    removed = entry.evolve(status=Status.DELETED, updated_at=now, valid_to=entry.valid_to or now, version=nv)
    current = None if current_entry_id == entry.id else current_entry_id
    guard = IdentityGuard(entry.identity_id, version, nv, current)
    rec = HistoryRecord(entry.tenant_id, entry.user_id, entry.identity_id, nv, removed, change, actor, reason, now)
    return guard, removed, rec


def _fresh(req: WriteRequest, now: datetime, version: int, supersedes: str | None) -> MemoryEntry:
    return MemoryEntry(
        id=new_entry_id(),
        tenant_id=req.tenant_id,
        user_id=req.user_id,
        identity_id=req.identity,
        key=req.key,
        value=req.value,
        category=req.category,
        visibility=req.visibility,
        source_agent_id=req.agent_id,
        created_at=now,
        updated_at=now,
        version=version,
        statement=req.statement,
        group_ids=tuple(req.group_ids) if req.visibility is Visibility.GROUP else (),
        source_conversation_id=req.source_conversation_id,
        source_message_id=req.source_message_id,
        importance=50 if req.importance is None else req.importance,
        confidence=1.0 if req.confidence is None else req.confidence,
        supersedes=supersedes,
        # Decay counts from the observation: a fact seen three days ago is three days old.
        last_reinforced_at=_observed(req, now),
        expires_at=_expiry(req, now),
        valid_from=_valid_from(req, now),
        valid_to=req.valid_to,
        source_time=req.source_time,
    )


def _ended_at(old: MemoryEntry, successor: MemoryEntry, now: datetime) -> datetime:
    end = successor.valid_from or now
    if old.valid_to is not None and old.valid_to < end:
        return old.valid_to  # it had already ended by itself
    if old.valid_from is not None and end < old.valid_from:
        return old.valid_from  # an empty span, never a negative one
    return end


def _valid_from(req: WriteRequest, now: datetime) -> datetime | None:
    if req.valid_from is not None:
        return req.valid_from
    implied = req.source_time or now
    # A fact told as already over ("until 2021") has an unknown start, not a negative span.
    return None if req.valid_to is not None and req.valid_to < implied else implied


def _observed(req: WriteRequest, now: datetime) -> datetime:
    """When the fact was observed: its source time, never later than now."""
    return now if req.source_time is None else min(req.source_time, now)


def _expiry(req: WriteRequest, now: datetime) -> datetime | None:
    # The TTL runs from the observation; retention (a storage promise) from the write.
    by_category = expiry_for(req.category, _observed(req, now), req.ttl)
    if req.retention is None:
        return by_category
    by_retention = now + req.retention
    return by_retention if by_category is None else min(by_category, by_retention)


def _with_current(guard: IdentityGuard, entry_id: str) -> IdentityGuard:
    return IdentityGuard(guard.identity_id, guard.expected_version, guard.new_version, entry_id)


def _later_expiry(current: datetime | None, new: datetime | None) -> datetime | None:
    if current is None or new is None:
        return new
    return max(current, new)


def _latest(a: datetime | None, b: datetime | None) -> datetime | None:
    if a is None or b is None:
        return a or b
    return max(a, b)
