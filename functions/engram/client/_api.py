"""Every API operation as a ``Spec``: the one place the client knows paths and bodies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import RootModel

from engram.api import schemas as S
from engram.api.tool_schemas import ToolExecution, ToolList
from engram.client._core import Spec, seg
from engram.domain.agent_config import AgentConfig

Visibility = Literal["self", "group", "global"]
Order = Literal["most_recent", "most_accessed"]
StatusFilter = Literal["active", "superseded", "deleted", "all"]
ToolFormatName = Literal["openai", "anthropic", "bedrock"]


class Document(RootModel[dict[str, Any]]):
    """A free-form JSON object (the user export)."""


def _memories(user_id: str) -> str:
    return f"/v1/users/{seg(user_id)}/memories"


def upsert_body(
    key: str,
    value: str,
    *,
    category: str = "fact",
    visibility: Visibility = "self",
    statement: str | None = None,
    group_ids: Sequence[str] | None = None,
    importance: int | None = None,
    confidence: float | None = None,
    source_conversation_id: str | None = None,
    source_message_id: str | None = None,
    source_time: datetime | None = None,
    valid_from: datetime | None = None,
    valid_to: datetime | None = None,
) -> dict[str, Any]:
    # Built through the server's own request model, so a bad field fails here, before sending.
    request = S.UpsertRequest(
        key=key,
        value=value,
        category=category,
        visibility=visibility,
        statement=statement,
        group_ids=None if group_ids is None else list(group_ids),
        importance=importance,
        confidence=confidence,
        source_conversation_id=source_conversation_id,
        source_message_id=source_message_id,
        source_time=source_time,
        valid_from=valid_from,
        valid_to=valid_to,
    )
    return request.model_dump(mode="json", by_alias=True, exclude_none=True)


def health() -> Spec[S.Health]:
    return Spec("GET", "/health", S.Health)


def whoami() -> Spec[S.Principal]:
    return Spec("GET", "/v1/me", S.Principal)


def upsert(
    user_id: str, body: Mapping[str, Any], turn_id: str | None, idempotency_key: str | None
) -> Spec[S.WriteOutcome]:
    return Spec(
        "PUT",
        _memories(user_id),
        S.WriteOutcome,
        body=dict(body),
        write=True,
        turn_id=turn_id,
        idempotency_key=idempotency_key,
    )


def upsert_batch(
    user_id: str, entries: Sequence[Mapping[str, Any]], turn_id: str | None, idempotency_key: str | None
) -> Spec[S.BatchWriteOutcome]:
    return Spec(
        "POST",
        f"{_memories(user_id)}/batch",
        S.BatchWriteOutcome,
        body={"entries": [dict(e) for e in entries]},
        write=True,
        turn_id=turn_id,
        idempotency_key=idempotency_key,
    )


def list_memories(
    user_id: str,
    category: str | None,
    status: StatusFilter,
    order: Order | None,
    limit: int,
    cursor: str | None,
) -> Spec[S.EntryPage]:
    params = {"category": category, "status": status, "order": order, "limit": limit, "cursor": cursor}
    return Spec("GET", _memories(user_id), S.EntryPage, params=params)


def visible(
    user_id: str,
    agent_id: str | None,
    group_id: str | None,
    order: Order | None,
    limit: int | None,
    cursor: str | None,
) -> Spec[S.EntryPage]:
    params = {"agentId": agent_id, "groupId": group_id, "order": order, "limit": limit, "cursor": cursor}
    return Spec("GET", f"{_memories(user_id)}/visible", S.EntryPage, params=params)


def search(user_id: str, query: str, limit: int, category: str | None) -> Spec[S.SearchResponse]:
    params = {"q": query, "limit": limit, "category": category}
    return Spec("GET", f"{_memories(user_id)}/search", S.SearchResponse, params=params)


def count(user_id: str) -> Spec[S.CountResponse]:
    return Spec("GET", f"{_memories(user_id)}/count", S.CountResponse)


def by_category(user_id: str, category: str, limit: int, cursor: str | None) -> Spec[S.EntryPage]:
    return Spec(
        "GET",
        f"{_memories(user_id)}/category/{seg(category)}",
        S.EntryPage,
        params={"limit": limit, "cursor": cursor},
    )


def by_key(user_id: str, key: str) -> Spec[S.EntryPage]:
    return Spec("GET", f"{_memories(user_id)}/key/{seg(key)}", S.EntryPage)


def forget_key(user_id: str, key: str, idempotency_key: str | None) -> Spec[S.DeletedResponse]:
    return Spec(
        "DELETE",
        f"{_memories(user_id)}/key/{seg(key)}",
        S.DeletedResponse,
        write=True,
        idempotency_key=idempotency_key,
    )


def get_memory(user_id: str, entry_id: str) -> Spec[S.Entry]:
    return Spec("GET", f"{_memories(user_id)}/{seg(entry_id)}", S.Entry)


def delete_memory(user_id: str, entry_id: str, idempotency_key: str | None) -> Spec[S.Entry]:
    return Spec("DELETE", f"{_memories(user_id)}/{seg(entry_id)}", S.Entry, write=True, idempotency_key=idempotency_key)


def history(user_id: str, entry_id: str, limit: int, cursor: str | None) -> Spec[S.HistoryPage]:
    return Spec(
        "GET",
        f"{_memories(user_id)}/{seg(entry_id)}/history",
        S.HistoryPage,
        params={"limit": limit, "cursor": cursor},
    )


def restore(user_id: str, entry_id: str, version: int, idempotency_key: str | None) -> Spec[S.WriteOutcome]:
    return Spec(
        "POST",
        f"{_memories(user_id)}/{seg(entry_id)}/restore",
        S.WriteOutcome,
        body={"version": version},
        write=True,
        idempotency_key=idempotency_key,
    )


def delete_all(user_id: str, confirm: str | None) -> Spec[S.ErasureReceipt]:
    return Spec("DELETE", _memories(user_id), S.ErasureReceipt, params={"confirm": confirm}, write=True)


def erase_user(user_id: str, confirm: str | None) -> Spec[S.ErasureReceipt]:
    return Spec("DELETE", f"/v1/users/{seg(user_id)}", S.ErasureReceipt, params={"confirm": confirm}, write=True)


def export_user(user_id: str) -> Spec[Document]:
    return Spec("GET", f"/v1/users/{seg(user_id)}/export", Document)


def get_profile(user_id: str) -> Spec[S.Profile]:
    return Spec("GET", f"/v1/users/{seg(user_id)}/profile", S.Profile)


def update_profile(user_id: str, changes: Mapping[str, Any]) -> Spec[S.Profile]:
    body = S.ProfileUpdate.model_validate(dict(changes)).model_dump(mode="json", by_alias=True, exclude_unset=True)
    return Spec("PATCH", f"/v1/users/{seg(user_id)}/profile", S.Profile, body=body, write=True)


def set_agent_name(user_id: str, name: str) -> Spec[S.Profile]:
    return Spec("PUT", f"/v1/users/{seg(user_id)}/profile/agent-name", S.Profile, body={"name": name}, write=True)


def get_settings(user_id: str) -> Spec[S.Settings]:
    return Spec("GET", f"/v1/users/{seg(user_id)}/settings", S.Settings)


def update_settings(user_id: str, changes: Mapping[str, Any]) -> Spec[S.Settings]:
    body = S.SettingsUpdate.model_validate(dict(changes)).model_dump(mode="json", by_alias=True, exclude_unset=True)
    return Spec("PATCH", f"/v1/users/{seg(user_id)}/settings", S.Settings, body=body, write=True)


def get_properties(user_id: str) -> Spec[S.Properties]:
    return Spec("GET", f"/v1/users/{seg(user_id)}/properties", S.Properties)


def merge_properties(user_id: str, properties: Mapping[str, str]) -> Spec[S.Properties]:
    return Spec(
        "PATCH",
        f"/v1/users/{seg(user_id)}/properties",
        S.Properties,
        body={"properties": dict(properties)},
        write=True,
    )


def delete_properties(user_id: str, keys: Sequence[str] | None, delete_all: bool = False) -> Spec[S.Properties]:
    # Deleting every property is an admin's explicit, confirmed act: never the default.
    params: dict[str, Any] = (
        {"all": "true", "confirm": "CONFIRM"} if delete_all else {"key": list(keys) if keys else None}
    )
    return Spec("DELETE", f"/v1/users/{seg(user_id)}/properties", S.Properties, params=params, write=True)


def get_agent_config(agent_id: str) -> Spec[AgentConfig]:
    return Spec("GET", f"/v1/agents/{seg(agent_id)}/config", AgentConfig)


def put_agent_config(agent_id: str, config: AgentConfig) -> Spec[AgentConfig]:
    body = config.model_dump(mode="json", by_alias=True)
    return Spec("PUT", f"/v1/agents/{seg(agent_id)}/config", AgentConfig, body=body, write=True)


def tools(fmt: ToolFormatName) -> Spec[ToolList]:
    return Spec("GET", "/v1/tools", ToolList, params={"format": fmt})


def execute_tool(
    user_id: str,
    tool_call: Mapping[str, Any],
    fmt: ToolFormatName | None,
    turn_id: str | None,
    conversation_id: str | None,
    idempotency_key: str | None,
) -> Spec[ToolExecution]:
    body: dict[str, Any] = {"toolCall": dict(tool_call)}
    if fmt is not None:
        body["format"] = fmt
    if conversation_id is not None:
        body["conversationId"] = conversation_id
    return Spec(
        "POST",
        f"/v1/users/{seg(user_id)}/tools/execute",
        ToolExecution,
        body=body,
        write=True,
        turn_id=turn_id,
        idempotency_key=idempotency_key,
    )
