"""The ``mcp`` Lambda: API Gateway proxy events in, stateless JSON-RPC out, principal from the authorizer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from engram.api.auth import principal_context
from engram.container import Engram, set_engram
from engram.domain.models import Principal, Role
from engram.handlers import mcp as mcp_handler
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext

from tests.support import engram_for

ADMIN = Principal("acme", "ops", frozenset({Role.ADMIN}))
VIEWER = Principal("acme", "auditor", frozenset({Role.VIEWER}))
HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    "host": "abc123.execute-api.us-east-1.amazonaws.com",
}


@pytest.fixture
def engram(tmp_path: Path) -> Iterator[Engram]:
    engram = engram_for(tmp_path)
    set_engram(engram)
    yield engram
    set_engram(None)


def invoke(method: str, params: dict[str, Any], who: Principal | None = ADMIN) -> tuple[int, dict[str, Any]]:
    event = api_event(
        "POST",
        "/mcp",
        headers=HEADERS,
        body=json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}),
        authorizer=None if who is None else principal_context(who),
    )
    response = mcp_handler.handler(event, LocalContext())
    assert isinstance(response["statusCode"], int) and type(response["statusCode"]) is int
    return response["statusCode"], json.loads(response["body"])


def tool(name: str, who: Principal = ADMIN, **arguments: Any) -> dict[str, Any]:
    status, body = invoke("tools/call", {"name": name, "arguments": arguments}, who)
    assert status == 200, body
    return dict(body["result"])


def test_given_an_initialize_request_when_invoked_then_the_server_introduces_itself(engram: Engram) -> None:
    status, body = invoke(
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    )
    assert status == 200
    assert body["id"] == 7
    assert body["result"]["serverInfo"]["name"] == "engram"
    assert "tools" in body["result"]["capabilities"]


def test_given_authorizer_principals_when_listing_then_admins_get_every_tool_and_viewers_the_read_ones(
    engram: Engram,
) -> None:
    _, admin = invoke("tools/list", {})
    _, viewer = invoke("tools/list", {}, VIEWER)
    assert len(admin["result"]["tools"]) == 10
    assert {t["name"] for t in viewer["result"]["tools"]} == {
        "recall",
        "list_user_memories",
        "get_visible_memories",
        "search_user_memories",
        "get_memory_by_key",
        "count_user_memories",
    }


def test_given_separate_invocations_when_writing_then_reading_then_the_state_lives_in_the_store(engram: Engram) -> None:
    up = tool("upsert_user_memory", userId="alice", key="favorite_color", value="blue", category="preference")
    assert up["isError"] is False and up["structuredContent"]["outcome"] == "created"
    assert tool("count_user_memories", VIEWER, userId="alice")["structuredContent"] == {"count": 0}  # self entry
    assert tool("count_user_memories", userId="alice")["structuredContent"] == {"count": 1}
    refused = tool("delete_all_user_memories", VIEWER, userId="alice", confirmation="CONFIRM")
    assert refused["isError"] and refused["structuredContent"]["code"] == "forbidden"
    unconfirmed = tool("delete_all_user_memories", userId="alice", confirmation="confirm")
    assert unconfirmed["isError"] and unconfirmed["structuredContent"]["code"] == "confirmation_required"
    done = tool("delete_all_user_memories", userId="alice", confirmation="CONFIRM")
    assert done["isError"] is False
    assert tool("count_user_memories", userId="alice")["structuredContent"] == {"count": 0}


@pytest.mark.parametrize(
    ("name", "arguments", "code"),
    [
        ("count_user_memories", {}, "validation_error"),
        ("count_user_memories", {"userId": "bad user id!"}, "validation_error"),
        ("delete_user_memory", {"userId": "alice", "entryId": "not-an-id"}, "validation_error"),
        ("upsert_user_memory", {"userId": "alice", "key": "pin", "value": "password: hunter2"}, "sensitive_data"),
        ("get_visible_memories", {"userId": "alice", "extra": 1}, "validation_error"),
    ],
)
def test_given_bad_arguments_when_a_tool_is_called_then_the_result_is_an_error_with_a_stable_code(
    engram: Engram, name: str, arguments: dict[str, Any], code: str
) -> None:
    result = tool(name, **arguments)
    assert result["isError"] is True
    assert result["structuredContent"]["code"] == code


def test_given_an_unknown_tool_when_called_then_it_is_a_json_rpc_error(engram: Engram) -> None:
    status, body = invoke("tools/call", {"name": "drop_tables", "arguments": {}})
    assert status == 200
    assert body["error"]["message"] == "Unknown tool: drop_tables"


def test_given_no_authorizer_context_when_invoked_then_401_with_the_api_error_body(engram: Engram) -> None:
    status, body = invoke("tools/list", {}, None)
    assert status == 401
    assert body["code"] == "unauthenticated"
