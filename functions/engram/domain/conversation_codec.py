"""Plain-dict forms of threads, messages and summaries (stores, exports, the queue).

camelCase keys as in the API. A message's ``timestamp`` keeps the UTC offset it was
sent with (ISO 8601), because relative times resolve in the user's own day; every
other time is fixed-width UTC like the rest of the store.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.domain.conversation import ExtractionRecord, Message, MessageRole, Thread, ThreadSummary
from engram.domain.serialization import parse_ts, ts


def parse_offset_ts(value: str) -> datetime:
    parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo is not None else parse_ts(value)


def record_to_dict(r: ExtractionRecord) -> dict[str, Any]:
    return {
        "status": r.status,
        "at": ts(r.at),
        "extractor": r.extractor,
        "reason": r.reason,
        "outcomes": dict(r.outcomes),
        "dropped": dict(r.dropped),
        "identity": list(r.identity),
        "usage": dict(r.usage),
    }


def record_from_dict(d: dict[str, Any]) -> ExtractionRecord:
    return ExtractionRecord(
        status=str(d["status"]),
        at=parse_ts(d["at"]),
        extractor=str(d.get("extractor", "")),
        reason=d.get("reason"),
        outcomes={str(k): int(v) for k, v in (d.get("outcomes") or {}).items()},
        dropped={str(k): int(v) for k, v in (d.get("dropped") or {}).items()},
        identity=tuple(d.get("identity") or ()),
        usage={str(k): float(v) for k, v in (d.get("usage") or {}).items()},
    )


def message_to_dict(m: Message) -> dict[str, Any]:
    return {
        "tenantId": m.tenant_id,
        "userId": m.user_id,
        "threadId": m.thread_id,
        "id": m.id,
        "seq": m.seq,
        "role": m.role.value,
        "content": m.content,
        "timestamp": m.timestamp.isoformat(),
        "agentId": m.agent_id,
        "createdAt": ts(m.created_at),
        "tokens": m.tokens,
        "metadata": m.metadata,
        "redactions": list(m.redactions),
        "extraction": None if m.extraction is None else record_to_dict(m.extraction),
    }


def message_from_dict(d: dict[str, Any]) -> Message:
    extraction = d.get("extraction")
    return Message(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        thread_id=d["threadId"],
        id=d["id"],
        seq=int(d["seq"]),
        role=MessageRole(d["role"]),
        content=d["content"],
        timestamp=parse_offset_ts(d["timestamp"]),
        agent_id=d["agentId"],
        created_at=parse_ts(d["createdAt"]),
        tokens=int(d["tokens"]),
        metadata=dict(d.get("metadata") or {}),
        redactions=tuple(d.get("redactions") or ()),
        extraction=None if not extraction else record_from_dict(extraction),
    )


def thread_to_dict(t: Thread) -> dict[str, Any]:
    return {
        "tenantId": t.tenant_id,
        "userId": t.user_id,
        "threadId": t.thread_id,
        "agentId": t.agent_id,
        "createdAt": ts(t.created_at),
        "updatedAt": ts(t.updated_at),
        "lastSeq": t.last_seq,
        "windowStart": t.window_start,
        "clears": t.clears,
    }


def thread_from_dict(d: dict[str, Any]) -> Thread:
    return Thread(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        thread_id=d["threadId"],
        agent_id=d["agentId"],
        created_at=parse_ts(d["createdAt"]),
        updated_at=parse_ts(d["updatedAt"]),
        last_seq=int(d["lastSeq"]),
        window_start=int(d["windowStart"]),
        clears=int(d.get("clears", 0)),
    )


def summary_to_dict(s: ThreadSummary) -> dict[str, Any]:
    return {
        "tenantId": s.tenant_id,
        "userId": s.user_id,
        "threadId": s.thread_id,
        "agentId": s.agent_id,
        "text": s.text,
        "coveredUpTo": s.covered_up_to,
        "messagesCovered": s.messages_covered,
        "updatedAt": ts(s.updated_at),
        "version": s.version,
    }


def summary_from_dict(d: dict[str, Any]) -> ThreadSummary:
    return ThreadSummary(
        tenant_id=d["tenantId"],
        user_id=d["userId"],
        thread_id=d["threadId"],
        agent_id=d["agentId"],
        text=d["text"],
        covered_up_to=int(d["coveredUpTo"]),
        messages_covered=int(d["messagesCovered"]),
        updated_at=parse_ts(d["updatedAt"]),
        version=int(d["version"]),
    )
