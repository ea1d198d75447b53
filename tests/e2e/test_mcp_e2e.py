"""The MCP server, reached by the official SDK's client: streamable HTTP on ``engram serve``, and stdio."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.e2e.conftest import EngramServer
from tests.e2e.keys import make_keys

pytestmark = pytest.mark.e2e

EIGHT = {
    "list_user_memories",
    "get_visible_memories",
    "search_user_memories",
    "get_memory_by_key",
    "count_user_memories",
    "upsert_user_memory",
    "delete_user_memory",
    "delete_all_user_memories",
}
READ_TOOLS = EIGHT - {"upsert_user_memory", "delete_user_memory", "delete_all_user_memories"}


@pytest.fixture(scope="module")
def keys(server: EngramServer) -> dict[str, str]:
    admin, viewer, writer, other = make_keys(
        server,
        ("acme", "ops", ("admin",)),
        ("acme", "auditor", ("viewer",)),
        ("acme", "alpha", ("writer",)),
        ("globex", "ops", ("admin",)),
    )
    return {"admin": admin, "viewer": viewer, "writer": writer, "other": other}


def with_mcp(server: EngramServer, key: str | None, body: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client,
        ):
            await body(client)

    anyio.run(main)


async def call(client: Client, name: str, **arguments: Any) -> Any:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    return result.structured_content


def test_given_an_admin_key_when_an_mcp_client_connects_then_it_lists_exactly_the_eight_tools_and_each_works(
    server: EngramServer, keys: dict[str, str]
) -> None:
    async def body(client: Client) -> None:
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == EIGHT and len(listed) == 8
        for tool in listed:
            assert tool.input_schema["type"] == "object"
            assert tool.annotations is not None
            assert tool.annotations.read_only_hint is (tool.name in READ_TOOLS)

        up = await call(
            client,
            "upsert_user_memory",
            userId="mcp-user",
            key="favorite_color",
            value="blue",
            category="preference",
            visibility="global",
        )
        assert up["outcome"] == "created"
        await call(client, "upsert_user_memory", userId="mcp-user", key="diet", value="vegetarian")
        listing = await call(client, "list_user_memories", userId="mcp-user")
        assert {e["key"] for e in listing["items"]} == {"favorite_color", "diet"}
        visible = await call(client, "get_visible_memories", userId="mcp-user", agentId="alpha")
        assert [e["key"] for e in visible["items"]] == ["favorite_color"]
        found = await call(client, "search_user_memories", userId="mcp-user", query="favorite color")
        assert found["items"][0]["entry"]["value"] == "blue"
        by_key = await call(client, "get_memory_by_key", userId="mcp-user", key="diet")
        assert [e["value"] for e in by_key["items"]] == ["vegetarian"]
        assert (await call(client, "count_user_memories", userId="mcp-user"))["count"] == 2
        gone = await call(client, "delete_user_memory", userId="mcp-user", entryId=by_key["items"][0]["id"])
        assert gone["deleted"]["status"] == "deleted"
        assert (await call(client, "count_user_memories", userId="mcp-user"))["count"] == 1

        refused = await client.call_tool("delete_all_user_memories", {"userId": "mcp-user", "confirmation": "yes"})
        assert refused.is_error
        assert refused.structured_content["code"] == "confirmation_required"
        missing = await client.call_tool("delete_all_user_memories", {"userId": "mcp-user"})
        assert missing.is_error and missing.structured_content["code"] == "validation_error"
        assert (await call(client, "count_user_memories", userId="mcp-user"))["count"] == 1

        receipt = await call(client, "delete_all_user_memories", userId="mcp-user", confirmation="CONFIRM")
        assert receipt["userId"] == "mcp-user"
        assert (await call(client, "count_user_memories", userId="mcp-user"))["count"] == 0

    with_mcp(server, keys["admin"], body)


def test_given_a_viewer_key_when_it_connects_then_it_sees_five_read_tools_and_cannot_delete_all(
    server: EngramServer, keys: dict[str, str]
) -> None:
    def seed(client: Client) -> Awaitable[None]:
        async def run() -> None:
            await call(client, "upsert_user_memory", userId="kept-user", key="k", value="v", visibility="global")

        return run()

    with_mcp(server, keys["admin"], seed)

    async def body(client: Client) -> None:
        assert {t.name for t in (await client.list_tools()).tools} == READ_TOOLS
        assert (await call(client, "count_user_memories", userId="kept-user"))["count"] == 1
        refused = await client.call_tool("delete_all_user_memories", {"userId": "kept-user", "confirmation": "CONFIRM"})
        assert refused.is_error and refused.structured_content["code"] == "forbidden"
        upsert = await client.call_tool("upsert_user_memory", {"userId": "kept-user", "key": "x", "value": "y"})
        assert upsert.is_error and upsert.structured_content["code"] == "forbidden"
        assert (await call(client, "count_user_memories", userId="kept-user"))["count"] == 1

    with_mcp(server, keys["viewer"], body)

    async def writer(client: Client) -> None:
        # EDDI gives writes to eddi-admin only: a writer key gets the read tools.
        assert {t.name for t in (await client.list_tools()).tools} == READ_TOOLS

    with_mcp(server, keys["writer"], writer)

    async def other_tenant(client: Client) -> None:
        assert (await call(client, "count_user_memories", userId="kept-user"))["count"] == 0

    with_mcp(server, keys["other"], other_tenant)


def test_given_no_key_when_connecting_over_http_then_the_server_answers_401_with_the_api_error_body(
    server: EngramServer,
) -> None:
    reply = httpx2.post(
        f"{server.url}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
        headers={"Accept": "application/json, text/event-stream"},
    )
    assert reply.status_code == 401
    assert reply.json()["code"] == "unauthenticated"
    assert reply.headers["www-authenticate"] == "Bearer"


@pytest.mark.slow  # spawns `engram mcp`, a cold start of a few seconds
def test_given_engram_mcp_on_stdio_when_a_client_spawns_it_then_the_key_decides_the_tools(
    server: EngramServer, keys: dict[str, str], tmp_path: Path
) -> None:
    key_file = tmp_path / "viewer-key"
    key_file.write_text(keys["viewer"])
    params = StdioServerParameters(
        command=str(Path(sys.executable).with_name("engram")),
        args=["mcp", "--key-file", str(key_file)],
        env={k: v for k, v in server.env.items() if k.startswith(("ENGRAM_", "PATH", "HOME", "POWERTOOLS_", "AWS_"))},
    )

    async def main() -> None:
        async with Client(params) as client:
            assert {t.name for t in (await client.list_tools()).tools} == READ_TOOLS
            assert (await call(client, "count_user_memories", userId="kept-user"))["count"] == 1

    anyio.run(main)
