"""The MCP server, reached by the official SDK's client: streamable HTTP on ``engram serve``, and stdio."""

from __future__ import annotations

import sys
import time
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

READ_TOOLS = {
    "recall",
    "list_user_memories",
    "get_visible_memories",
    "search_user_memories",
    "get_memory_by_key",
    "count_user_memories",
}
WRITER_TOOLS = READ_TOOLS | {"upsert_user_memory", "forget_memory_by_key", "delete_user_memory"}
ADMIN_TOOLS = WRITER_TOOLS | {"delete_all_user_memories"}
COMPACT = {"id", "key", "value", "category", "visibility"}


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


def test_given_an_admin_key_when_an_mcp_client_connects_then_it_lists_every_tool_and_each_works(
    server: EngramServer, keys: dict[str, str]
) -> None:
    async def body(client: Client) -> None:
        listed = (await client.list_tools()).tools
        assert {t.name for t in listed} == ADMIN_TOOLS and len(listed) == 10
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
        # Compact by default: what a model needs, not every field of the entry.
        assert all(set(e) == COMPACT for e in listing["items"])
        full = await call(client, "list_user_memories", userId="mcp-user", verbose=True)
        assert {"createdAt", "confidence", "sourceAgentId"} <= set(full["items"][0])
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


def test_given_a_viewer_key_when_it_connects_then_it_sees_the_read_tools_and_cannot_write(
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

    async def other_tenant(client: Client) -> None:
        assert (await call(client, "count_user_memories", userId="kept-user"))["count"] == 0

    with_mcp(server, keys["other"], other_tenant)


def test_given_a_writer_key_when_it_connects_then_it_reads_remembers_recalls_and_forgets_but_cannot_erase(
    server: EngramServer, keys: dict[str, str]
) -> None:
    async def body(client: Client) -> None:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        assert set(listed) == WRITER_TOOLS
        assert listed["upsert_user_memory"].annotations.read_only_hint is False
        assert listed["forget_memory_by_key"].annotations.destructive_hint is True
        assert listed["recall"].annotations.read_only_hint is True

        up = await call(client, "upsert_user_memory", userId="w-user", key="dog_name", value="Rex")
        assert up["outcome"] == "created" and set(up["entry"]) == COMPACT
        await call(client, "upsert_user_memory", userId="w-user", key="city", value="Lisbon")

        # Entries are indexed in the background (the answer says how far behind it is):
        # under load the first recall may come before the index has the entry.
        deadline = time.monotonic() + 30
        while True:
            recalled = await client.call_tool("recall", {"userId": "w-user", "message": "What is my dog called?"})
            assert not recalled.is_error
            if "Rex" in recalled.content[0].text or time.monotonic() > deadline:
                break
            await anyio.sleep(0.05)
        assert "Rex" in recalled.content[0].text  # the text is the context block itself
        assert "dog_name" in {i["key"] for i in recalled.structured_content["items"]}

        forgot = await call(client, "forget_memory_by_key", userId="w-user", key="dog_name")
        assert len(forgot["deleted"]) == 1
        assert (await call(client, "count_user_memories", userId="w-user"))["count"] == 1

        refused = await client.call_tool("delete_all_user_memories", {"userId": "w-user", "confirmation": "CONFIRM"})
        assert refused.is_error and refused.structured_content["code"] == "forbidden"
        assert (await call(client, "count_user_memories", userId="w-user"))["count"] == 1

    with_mcp(server, keys["writer"], body)


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
    # Its own user: the other tests of the module may run before or after this one.
    async def seed(client: Client) -> None:
        await call(client, "upsert_user_memory", userId="stdio-user", key="k", value="v", visibility="global")

    with_mcp(server, keys["admin"], seed)
    key_file = tmp_path / "viewer-key"
    key_file.write_text(keys["viewer"])
    params = StdioServerParameters(
        command=str(Path(sys.executable).with_name("engram")),
        args=["mcp", "--key-file", str(key_file)],
        env={
            k: v
            for k, v in server.env.items()
            if k.startswith(("ENGRAM_", "PATH", "PYTHONPATH", "HOME", "POWERTOOLS_", "AWS_"))
        },
    )

    async def main() -> None:
        async with Client(params) as client:
            assert {t.name for t in (await client.list_tools()).tools} == READ_TOOLS
            assert (await call(client, "count_user_memories", userId="stdio-user"))["count"] == 1

    anyio.run(main)
