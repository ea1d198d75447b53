"""Proposals (behaviour item 11): changes an agent suggests and the user decides on.

An agent configured with ``requireApproval`` (or calling the propose tool) creates a
proposal instead of writing. The user approves (the change is applied, as a change by
the user) or rejects it (nothing changes). A newer proposal for the same target (one
memory identity, or one block) supersedes the older pending one, and a proposal left
undecided expires.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from engram.domain.blocks import BlockEdit
from engram.domain.models import Actor, ActorType, Visibility
from engram.domain.serialization import parse_ts, parse_ts_opt, ts, ts_opt

PROPOSAL_ID_PATTERN = r"^prp_[0-9a-f]{24}$"
BLOCK_PREFIX = "block:"


class ProposalStatus(StrEnum):
    PENDING = "pending"
    # Claimed by an approval that is applying the change right now.
    APPLYING = "applying"
    APPROVED = "approved"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"


OPEN_STATUSES = (ProposalStatus.PENDING, ProposalStatus.APPLYING)


@dataclass(frozen=True, slots=True)
class EntryUpsert:
    """Remember (or change) one memory entry, as ``PUT /memories`` would."""

    key: str
    value: str
    category: str
    visibility: Visibility
    statement: str | None = None
    group_ids: tuple[str, ...] = ()
    importance: int | None = None
    confidence: float | None = None
    source_conversation_id: str | None = None
    source_message_id: str | None = None
    source_time: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None


@dataclass(frozen=True, slots=True)
class EntryRemoval:
    """Forget one memory entry."""

    entry_id: str
    key: str
    category: str


@dataclass(frozen=True, slots=True)
class BlockChange:
    """Change one memory block of the proposing agent."""

    block: str
    edit: BlockEdit


ProposedChange = EntryUpsert | EntryRemoval | BlockChange


@dataclass(frozen=True, slots=True)
class Proposal:
    id: str
    tenant_id: str
    user_id: str
    agent_id: str
    # What the proposal is about: a memory identity id, or "block:<agent>:<name>". A
    # newer open proposal for the same target supersedes this one.
    target_id: str
    change: ProposedChange
    reason: str
    status: ProposalStatus
    created_at: datetime
    expires_at: datetime
    # What the target looked like when proposed and what approval would make of it,
    # for the person deciding (values only, never applied from here).
    before: Mapping[str, Any] | None = None
    after: Mapping[str, Any] | None = None
    decided_at: datetime | None = None
    decided_by: Actor | None = None
    decided_via_key: str | None = None
    note: str | None = None
    superseded_by: str | None = None
    result: Mapping[str, Any] = field(default_factory=dict)
    claimed_at: datetime | None = None
    # Bumped by every stored change; updates are conditional on it (no lost decision).
    revision: int = 1

    def effective_status(self, now: datetime) -> ProposalStatus:
        if self.status is ProposalStatus.PENDING and self.expires_at <= now:
            return ProposalStatus.EXPIRED
        return self.status

    @property
    def category(self) -> str:
        return approval_category(self.change)


def new_proposal_id() -> str:
    return "prp_" + secrets.token_hex(12)


def block_target(agent_id: str, block: str) -> str:
    return f"{BLOCK_PREFIX}{agent_id}:{block}"


def approval_category(change: ProposedChange) -> str:
    """What ``requireApproval`` matches: the entry's category, or ``block:<name>``."""
    if isinstance(change, BlockChange):
        return BLOCK_PREFIX + change.block
    return change.category


def needs_approval(require_approval: Sequence[str], category: str) -> bool:
    """Whether an agent's writes of ``category`` must become proposals.

    ``"*"`` covers everything; ``"block:*"`` every block; otherwise exact names (entry
    categories like ``preference``, blocks like ``block:human``).
    """
    if not require_approval:
        return False
    if "*" in require_approval or category in require_approval:
        return True
    return category.startswith(BLOCK_PREFIX) and f"{BLOCK_PREFIX}*" in require_approval


# -- plain-dict form (stores, exports) -----------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def edit_to_dict(edit: BlockEdit) -> dict[str, Any]:
    return {
        "replace": None if edit.replace is None else _plain(edit.replace),
        "set": _plain(edit.set),
        "append": _plain(edit.append),
        "remove": _plain(edit.remove),
        "completeTask": edit.complete_task,
        "taskNotes": edit.task_notes,
        "keepContext": edit.keep_context,
    }


def edit_from_dict(d: Mapping[str, Any]) -> BlockEdit:
    return BlockEdit(
        replace=d.get("replace"),
        set=dict(d.get("set") or {}),
        append={k: tuple(v) for k, v in (d.get("append") or {}).items()},
        remove={k: tuple(v) for k, v in (d.get("remove") or {}).items()},
        complete_task=bool(d.get("completeTask", False)),
        task_notes=d.get("taskNotes"),
        keep_context=bool(d.get("keepContext", False)),
    )


def change_to_dict(change: ProposedChange) -> dict[str, Any]:
    if isinstance(change, EntryUpsert):
        return {
            "type": "entry",
            "key": change.key,
            "value": change.value,
            "category": change.category,
            "visibility": change.visibility.value,
            "statement": change.statement,
            "groupIds": list(change.group_ids),
            "importance": change.importance,
            "confidence": change.confidence,
            "sourceConversationId": change.source_conversation_id,
            "sourceMessageId": change.source_message_id,
            "sourceTime": ts_opt(change.source_time),
            "validFrom": ts_opt(change.valid_from),
            "validTo": ts_opt(change.valid_to),
        }
    if isinstance(change, EntryRemoval):
        return {"type": "forget", "entryId": change.entry_id, "key": change.key, "category": change.category}
    return {"type": "block", "block": change.block, **edit_to_dict(change.edit)}


def change_from_dict(d: Mapping[str, Any]) -> ProposedChange:
    kind = d.get("type")
    if kind == "entry":
        return EntryUpsert(
            key=d["key"],
            value=d["value"],
            category=d["category"],
            visibility=Visibility(d["visibility"]),
            statement=d.get("statement"),
            group_ids=tuple(d.get("groupIds") or ()),
            importance=d.get("importance"),
            confidence=d.get("confidence"),
            source_conversation_id=d.get("sourceConversationId"),
            source_message_id=d.get("sourceMessageId"),
            source_time=parse_ts_opt(d.get("sourceTime")),
            valid_from=parse_ts_opt(d.get("validFrom")),
            valid_to=parse_ts_opt(d.get("validTo")),
        )
    if kind == "forget":
        return EntryRemoval(d["entryId"], d["key"], d["category"])
    if kind == "block":
        return BlockChange(d["block"], edit_from_dict(d))
    raise ValueError(f"unknown proposed change type {kind!r}")


def superseded_by(newer: Proposal, pending: Iterable[Proposal], now: datetime) -> list[Proposal]:
    """The proposals ``newer`` supersedes, as they become: every other pending, unexpired
    proposal for the same target (one open proposal per memory or block at a time)."""
    return [
        replace(
            old, status=ProposalStatus.SUPERSEDED, superseded_by=newer.id, decided_at=now, revision=old.revision + 1
        )
        for old in pending
        if old.target_id == newer.target_id
        and old.status is ProposalStatus.PENDING
        and old.expires_at > now
        and old.id != newer.id
    ]


def proposal_to_dict(p: Proposal) -> dict[str, Any]:
    return {
        "id": p.id,
        "tenantId": p.tenant_id,
        "userId": p.user_id,
        "agentId": p.agent_id,
        "targetId": p.target_id,
        "change": change_to_dict(p.change),
        "reason": p.reason,
        "status": p.status.value,
        "createdAt": ts(p.created_at),
        "expiresAt": ts(p.expires_at),
        "before": None if p.before is None else _plain(p.before),
        "after": None if p.after is None else _plain(p.after),
        "decidedAt": ts_opt(p.decided_at),
        "decidedBy": None if p.decided_by is None else p.decided_by.as_dict(),
        "decidedViaKey": p.decided_via_key,
        "note": p.note,
        "supersededBy": p.superseded_by,
        "result": _plain(p.result),
        "claimedAt": ts_opt(p.claimed_at),
        "revision": p.revision,
    }


def proposal_from_dict(d: Mapping[str, Any]) -> Proposal:
    decided_by = d.get("decidedBy")
    return Proposal(
        id=d["id"],
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        agent_id=d["agentId"],
        target_id=d["targetId"],
        change=change_from_dict(d["change"]),
        reason=d.get("reason") or "",
        status=ProposalStatus(d["status"]),
        created_at=parse_ts(d["createdAt"]),
        expires_at=parse_ts(d["expiresAt"]),
        before=d.get("before"),
        after=d.get("after"),
        decided_at=parse_ts_opt(d.get("decidedAt")),
        decided_by=None if not decided_by else Actor(ActorType(decided_by["type"]), decided_by["id"]),
        decided_via_key=d.get("decidedViaKey"),
        note=d.get("note"),
        superseded_by=d.get("supersededBy"),
        result=dict(d.get("result") or {}),
        claimed_at=parse_ts_opt(d.get("claimedAt")),
        revision=int(d.get("revision", 1)),
    )
