"""Archival memory: what left a core memory block, kept searchable (behaviour item 16)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from engram.domain.serialization import parse_ts, parse_ts_opt, ts, ts_opt

ARCHIVAL_ID_PATTERN = r"^arc_[0-9a-f]{24}$"


class ArchivalKind(StrEnum):
    # The block passed its rotation threshold.
    ROTATION = "rotation"
    # A list passed its maxItems (the rolling window moved on).
    OVERFLOW = "overflow"
    # A task was completed; its context went with it.
    TASK = "task"


@dataclass(frozen=True, slots=True)
class ArchivedItem:
    field: str
    value: str


@dataclass(frozen=True, slots=True)
class ArchivalRecord:
    id: str
    tenant_id: str
    user_id: str
    agent_id: str
    block: str
    kind: ArchivalKind
    text: str
    items: tuple[ArchivedItem, ...]
    created_at: datetime
    # The block version whose write moved this out of the block.
    block_version: int
    expires_at: datetime | None = None
    indexed: bool = False

    def is_expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now


def new_archival_id() -> str:
    return "arc_" + secrets.token_hex(12)


def archival_to_dict(r: ArchivalRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "tenantId": r.tenant_id,
        "userId": r.user_id,
        "agentId": r.agent_id,
        "block": r.block,
        "kind": r.kind.value,
        "text": r.text,
        "items": [{"field": i.field, "value": i.value} for i in r.items],
        "createdAt": ts(r.created_at),
        "blockVersion": r.block_version,
        "expiresAt": ts_opt(r.expires_at),
    }


def archival_from_dict(d: Mapping[str, Any], indexed: bool = False) -> ArchivalRecord:
    return ArchivalRecord(
        id=d["id"],
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        agent_id=d["agentId"],
        block=d["block"],
        kind=ArchivalKind(d["kind"]),
        text=d["text"],
        items=tuple(ArchivedItem(i["field"], i["value"]) for i in d.get("items") or ()),
        created_at=parse_ts(d["createdAt"]),
        block_version=int(d["blockVersion"]),
        expires_at=parse_ts_opt(d.get("expiresAt")),
        indexed=indexed,
    )
