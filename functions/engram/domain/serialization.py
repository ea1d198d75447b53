"""Plain-dict forms of the entities, for stores, exports and the index.

Keys are camelCase, as in the API; times are ISO 8601 UTC strings of fixed width so
they also sort as strings (the stores rely on that).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from engram.domain.models import (
    Actor,
    ActorType,
    ApiKeyRecord,
    ChangeKind,
    HistoryRecord,
    MemoryEntry,
    Role,
    Status,
    UserProfile,
    UserSettings,
    Visibility,
)


def ts(value: datetime) -> str:
    u = value.astimezone(UTC)
    # Four-digit years always (strftime prints year 999 as "999", which fromisoformat
    # refuses): the stores rely on fixed width to sort and to read back.
    return f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}.{u.microsecond:06d}Z"


def ts_opt(value: datetime | None) -> str | None:
    return None if value is None else ts(value)


def parse_ts(value: str) -> datetime:
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    parsed = datetime.fromisoformat(value)
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def parse_ts_opt(value: str | None) -> datetime | None:
    return None if value is None else parse_ts(value)


def entry_to_dict(e: MemoryEntry) -> dict[str, Any]:
    return {
        "id": e.id,
        "tenantId": e.tenant_id,
        "userId": e.user_id,
        "identityId": e.identity_id,
        "key": e.key,
        "value": e.value,
        "statement": e.statement,
        "category": e.category,
        "visibility": e.visibility.value,
        "sourceAgentId": e.source_agent_id,
        "groupIds": list(e.group_ids),
        "sourceConversationId": e.source_conversation_id,
        "sourceMessageId": e.source_message_id,
        "importance": e.importance,
        "confidence": e.confidence,
        "status": e.status.value,
        "supersedes": e.supersedes,
        "supersededBy": e.superseded_by,
        "conflicted": e.conflicted,
        "accessCount": e.access_count,
        "lastAccessedAt": ts_opt(e.last_accessed_at),
        "lastReinforcedAt": ts_opt(e.last_reinforced_at),
        "lastDecayedAt": ts_opt(e.last_decayed_at),
        "expiresAt": ts_opt(e.expires_at),
        "validFrom": ts_opt(e.valid_from),
        "validTo": ts_opt(e.valid_to),
        "sourceTime": ts_opt(e.source_time),
        "createdAt": ts(e.created_at),
        "updatedAt": ts(e.updated_at),
        "version": e.version,
    }


def entry_from_dict(d: dict[str, Any]) -> MemoryEntry:
    return MemoryEntry(
        id=d["id"],
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        identity_id=d["identityId"],
        key=d["key"],
        value=d["value"],
        statement=d.get("statement"),
        category=d["category"],
        visibility=Visibility(d["visibility"]),
        source_agent_id=d["sourceAgentId"],
        group_ids=tuple(d.get("groupIds") or ()),
        source_conversation_id=d.get("sourceConversationId"),
        source_message_id=d.get("sourceMessageId"),
        importance=int(d.get("importance", 50)),
        confidence=float(d.get("confidence", 1.0)),
        status=Status(d.get("status", "active")),
        supersedes=d.get("supersedes"),
        superseded_by=d.get("supersededBy"),
        conflicted=bool(d.get("conflicted", False)),
        access_count=int(d.get("accessCount", 0)),
        last_accessed_at=parse_ts_opt(d.get("lastAccessedAt")),
        last_reinforced_at=parse_ts_opt(d.get("lastReinforcedAt")),
        last_decayed_at=parse_ts_opt(d.get("lastDecayedAt")),
        expires_at=parse_ts_opt(d.get("expiresAt")),
        valid_from=parse_ts_opt(d.get("validFrom")),
        valid_to=parse_ts_opt(d.get("validTo")),
        source_time=parse_ts_opt(d.get("sourceTime")),
        created_at=parse_ts(d["createdAt"]),
        updated_at=parse_ts(d["updatedAt"]),
        version=int(d["version"]),
    )


def history_to_dict(h: HistoryRecord) -> dict[str, Any]:
    return {
        "tenantId": h.tenant_id,
        "userId": h.user_id,
        "identityId": h.identity_id,
        "version": h.version,
        "change": h.change.value,
        "actor": h.actor.as_dict(),
        "reason": h.reason,
        "at": ts(h.at),
        "entry": entry_to_dict(h.entry),
    }


def history_from_dict(d: dict[str, Any]) -> HistoryRecord:
    return HistoryRecord(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        identity_id=d["identityId"],
        version=int(d["version"]),
        entry=entry_from_dict(d["entry"]),
        change=ChangeKind(d["change"]),
        actor=Actor(ActorType(d["actor"]["type"]), d["actor"]["id"]),
        reason=d["reason"],
        at=parse_ts(d["at"]),
    )


def profile_to_dict(p: UserProfile) -> dict[str, Any]:
    return {
        "tenantId": p.tenant_id,
        "userId": p.user_id,
        "name": p.name,
        "nickname": p.nickname,
        "pronouns": p.pronouns,
        "agentNames": dict(p.agent_names),
        "updatedAt": ts_opt(p.updated_at),
    }


def profile_from_dict(d: dict[str, Any]) -> UserProfile:
    return UserProfile(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        name=d.get("name"),
        nickname=d.get("nickname"),
        pronouns=d.get("pronouns"),
        agent_names=dict(d.get("agentNames") or {}),
        updated_at=parse_ts_opt(d.get("updatedAt")),
    )


def settings_to_dict(s: UserSettings) -> dict[str, Any]:
    return {
        "tenantId": s.tenant_id,
        "userId": s.user_id,
        "memoryEnabled": s.memory_enabled,
        "allowedCategories": None if s.allowed_categories is None else list(s.allowed_categories),
        "retentionDays": s.retention_days,
        "updatedAt": ts_opt(s.updated_at),
    }


def settings_from_dict(d: dict[str, Any]) -> UserSettings:
    cats = d.get("allowedCategories")
    return UserSettings(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        memory_enabled=bool(d.get("memoryEnabled", True)),
        allowed_categories=None if cats is None else tuple(cats),
        retention_days=d.get("retentionDays"),
        updated_at=parse_ts_opt(d.get("updatedAt")),
    )


def key_to_dict(k: ApiKeyRecord) -> dict[str, Any]:
    return {
        "keyId": k.key_id,
        "tenantId": k.tenant_id,
        "agentId": k.agent_id,
        "roles": sorted(r.value for r in k.roles),
        "groupIds": list(k.group_ids),
        "secretHash": k.secret_hash,
        "description": k.description,
        "createdAt": ts(k.created_at),
        "revokedAt": ts_opt(k.revoked_at),
    }


def key_from_dict(d: dict[str, Any]) -> ApiKeyRecord:
    return ApiKeyRecord(
        key_id=d["keyId"],
        tenant_id=d["tenantId"],
        agent_id=d["agentId"],
        roles=frozenset(Role(r) for r in d["roles"]),
        group_ids=tuple(d.get("groupIds") or ()),
        secret_hash=d["secretHash"],
        description=d.get("description", ""),
        created_at=parse_ts(d["createdAt"]),
        revoked_at=parse_ts_opt(d.get("revokedAt")),
    )
