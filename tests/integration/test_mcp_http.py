"""``/mcp`` on the local server's ASGI app: key checks, and the DNS-rebinding guard on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest
from engram.domain.models import Role
from engram.local.server import create_asgi_app
from starlette.testclient import TestClient

from tests.support import engram_for

LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


@pytest.mark.parametrize(
    ("bind", "host_header", "status"),
    [
        ("127.0.0.1", "127.0.0.1:8700", 200),
        ("127.0.0.1", "evil.example:8700", 421),
        ("0.0.0.0", "memory.lan:8700", 200),
    ],
)
def test_given_a_bind_address_when_a_host_header_arrives_then_loopback_servers_refuse_foreign_hosts(
    tmp_path: Path, bind: str, host_header: str, status: int
) -> None:
    engram = engram_for(tmp_path)
    key = engram.keys.create("acme", "ops", frozenset({Role.ADMIN}))[1]
    with TestClient(create_asgi_app(engram, bind), base_url=f"http://{host_header}") as client:
        reply = client.post("/mcp", json=LIST, headers={**HEADERS, "Authorization": f"Bearer {key}"})
        assert reply.status_code == status, reply.text
        if status == 200:
            assert len(reply.json()["result"]["tools"]) == 10


def test_given_a_revoked_key_when_calling_mcp_then_401(tmp_path: Path) -> None:
    engram = engram_for(tmp_path)
    record, key = engram.keys.create("acme", "ops", frozenset({Role.ADMIN}))
    engram.keys.revoke(record.key_id)
    with TestClient(create_asgi_app(engram), base_url="http://127.0.0.1:8700") as client:
        reply = client.post("/mcp", json=LIST, headers={**HEADERS, "Authorization": f"Bearer {key}"})
        assert reply.status_code == 401
        assert reply.json()["code"] == "unauthenticated"
