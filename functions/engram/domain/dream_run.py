"""A dream run as it is recorded and fanned out: its status and trigger, what it did
(``Stats``, summed per user, tenant and run), each user's outcome, and the messages its
queue carries. The rules that decide what a run changes are in ``dream``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from enum import StrEnum

from engram.domain.dream import Change, Rule


@dataclass(slots=True)
class Stats:
    """What a run did, summed per user, per tenant and per run (stored as counters)."""

    users_processed: int = 0
    users_failed: int = 0
    entries_read: int = 0
    expired: int = 0
    retention_pruned: int = 0
    stale_pruned: int = 0
    low_confidence_pruned: int = 0
    decayed: int = 0
    contradictions_found: int = 0
    flags_set: int = 0
    flags_cleared: int = 0
    duplicates_merged: int = 0
    summaries_written: int = 0
    entries_summarized: int = 0
    summaries_skipped_for_cost: int = 0
    version_conflicts: int = 0
    cost_micros: int = 0

    @property
    def entries_pruned(self) -> int:
        return self.expired + self.retention_pruned + self.stale_pruned + self.low_confidence_pruned

    def add(self, other: Stats) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def counters(self) -> dict[str, int]:
        return {f.name: int(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_counters(cls, counters: Mapping[str, float]) -> Stats:
        known = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in counters.items() if k in known})

    def count(self, change: Change) -> None:
        n = len(change.before)
        if change.rule is Rule.EXPIRE:
            self.expired += n
        elif change.rule is Rule.RETENTION:
            self.retention_pruned += n
        elif change.rule is Rule.PRUNE_STALE:
            self.stale_pruned += n
        elif change.rule is Rule.PRUNE_LOW_CONFIDENCE:
            self.low_confidence_pruned += n
        elif change.rule is Rule.DECAY:
            self.decayed += n
        elif change.rule is Rule.FLAG_CONTRADICTION:
            self.flags_set += n
        elif change.rule is Rule.CLEAR_CONTRADICTION:
            self.flags_cleared += n
        elif change.rule is Rule.MERGE_DUPLICATES:
            self.duplicates_merged += n - 1


class RunStatus(StrEnum):
    PLANNING = "planning"
    RUNNING = "running"
    COMPLETED = "completed"


class Trigger(StrEnum):
    SCHEDULE = "schedule"
    MANUAL = "manual"
    CLI = "cli"


@dataclass(frozen=True, slots=True)
class DreamRun:
    """One dream run: which users it covers (due at ``as_of``), and how far it got.

    ``tenant_id`` None: every tenant (the schedule); otherwise one tenant's run.
    """

    run_id: str
    as_of: datetime
    started_at: datetime
    trigger: Trigger
    tenant_id: str | None = None
    status: RunStatus = RunStatus.PLANNING
    plan_cursor: str | None = None
    users_planned: int = 0
    batches_sent: int = 0
    users_done: int = 0
    finished_at: datetime | None = None

    @property
    def complete(self) -> bool:
        return self.status is RunStatus.RUNNING and self.users_done >= self.users_planned


@dataclass(frozen=True, slots=True)
class UserOutcome:
    """What finishing one user in one run records, atomically with the done marker."""

    tenant_id: str
    user_id: str
    stats: Stats
    # The due record's activity counter read before the user's entries were: the new
    # due time applies only if no write came in since (otherwise the user stays due).
    seen_activity: int
    next_due: datetime | None
    # The time the pass evaluated the rules at; None keeps the previous one (a failed pass).
    passed_at: datetime | None


class MessageKind(StrEnum):
    USERS = "dream.users"
    PLAN = "dream.plan"


@dataclass(frozen=True, slots=True)
class DreamMessage:
    """One queue message of a run: a batch of users to process, or "continue planning"."""

    kind: MessageKind
    run_id: str
    users: tuple[tuple[str, str], ...] = ()

    @classmethod
    def batch(cls, run_id: str, users: Iterable[tuple[str, str]]) -> DreamMessage:
        return cls(MessageKind.USERS, run_id, tuple(users))

    @classmethod
    def plan(cls, run_id: str) -> DreamMessage:
        return cls(MessageKind.PLAN, run_id)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "runId": self.run_id, "users": [list(u) for u in self.users]}

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> DreamMessage:
        users = d.get("users") or []
        if not isinstance(users, list) or not all(
            isinstance(u, list) and len(u) == 2 and all(isinstance(x, str) for x in u) for u in users
        ):
            raise ValueError("users must be a list of [tenantId, userId] pairs")
        return cls(MessageKind(str(d["kind"])), str(d["runId"]), tuple((u[0], u[1]) for u in users))
