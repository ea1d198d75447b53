"""Every route against no key, viewer, writer and admin.

The matrix is checked against the OpenAPI document: a route added without a row here
fails ``test_every_route_is_in_the_matrix``, so no route ships without its role rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engram.domain.models import Role

from tests.integration.conftest import Api

ORDER = {"public": 0, "viewer": 1, "writer": 2, "admin": 3}
ROLE_OF_KEY = {None: -1, Role.VIEWER: 1, Role.WRITER: 2, Role.ADMIN: 3}

# (method, OpenAPI path) -> least role that may call it
MATRIX: dict[tuple[str, str], str] = {
    ("GET", "/health"): "public",
    ("GET", "/v1/me"): "viewer",
    ("GET", "/v1/agents/{agentId}/config"): "viewer",
    ("PUT", "/v1/agents/{agentId}/config"): "admin",
    ("GET", "/v1/users/{userId}/memories"): "viewer",
    ("PUT", "/v1/users/{userId}/memories"): "writer",
    ("DELETE", "/v1/users/{userId}/memories"): "admin",
    ("POST", "/v1/users/{userId}/memories/batch"): "writer",
    ("GET", "/v1/users/{userId}/memories/visible"): "viewer",
    ("GET", "/v1/users/{userId}/memories/search"): "viewer",
    ("GET", "/v1/users/{userId}/memories/count"): "viewer",
    ("GET", "/v1/users/{userId}/memories/category/{category}"): "viewer",
    ("GET", "/v1/users/{userId}/memories/key/{key}"): "viewer",
    ("DELETE", "/v1/users/{userId}/memories/key/{key}"): "writer",
    ("GET", "/v1/users/{userId}/memories/{entryId}"): "viewer",
    ("DELETE", "/v1/users/{userId}/memories/{entryId}"): "writer",
    ("GET", "/v1/users/{userId}/memories/{entryId}/history"): "viewer",
    ("POST", "/v1/users/{userId}/memories/{entryId}/restore"): "writer",
    ("GET", "/v1/users/{userId}/profile"): "viewer",
    ("PATCH", "/v1/users/{userId}/profile"): "writer",
    ("PUT", "/v1/users/{userId}/profile/agent-name"): "writer",
    ("GET", "/v1/users/{userId}/settings"): "viewer",
    ("PATCH", "/v1/users/{userId}/settings"): "admin",
    ("GET", "/v1/users/{userId}/properties"): "viewer",
    ("PATCH", "/v1/users/{userId}/properties"): "writer",
    ("DELETE", "/v1/users/{userId}/properties"): "writer",
    ("GET", "/v1/users/{userId}/export"): "admin",
    ("POST", "/v1/users/{userId}/recall"): "viewer",
    ("POST", "/v1/users/{userId}/threads/{threadId}/messages"): "writer",
    ("GET", "/v1/users/{userId}/threads/{threadId}/messages"): "viewer",
    ("GET", "/v1/users/{userId}/threads/{threadId}/messages/{messageId}"): "viewer",
    ("GET", "/v1/users/{userId}/threads/{threadId}/summary"): "viewer",
    ("GET", "/v1/users/{userId}/threads"): "viewer",
    ("DELETE", "/v1/users/{userId}/threads/{threadId}"): "writer",
    ("GET", "/v1/users/{userId}/messages/search"): "viewer",
    ("GET", "/v1/users/{userId}/long-term-memory"): "viewer",
    ("GET", "/v1/users/{userId}/long-term-memory/search"): "viewer",
    ("DELETE", "/v1/users/{userId}"): "admin",
    # user control: proposals, memory blocks, archival memory, privacy controls
    ("GET", "/v1/users/{userId}/proposals"): "viewer",
    ("POST", "/v1/users/{userId}/proposals"): "writer",
    ("GET", "/v1/users/{userId}/proposals/{proposalId}"): "viewer",
    ("POST", "/v1/users/{userId}/proposals/{proposalId}/approve"): "admin",
    ("POST", "/v1/users/{userId}/proposals/{proposalId}/reject"): "admin",
    ("GET", "/v1/block-schemas"): "viewer",
    ("GET", "/v1/block-presets"): "viewer",
    ("GET", "/v1/users/{userId}/blocks"): "viewer",
    ("GET", "/v1/users/{userId}/blocks/{name}"): "viewer",
    ("PUT", "/v1/users/{userId}/blocks/{name}"): "writer",
    ("PATCH", "/v1/users/{userId}/blocks/{name}"): "writer",
    ("DELETE", "/v1/users/{userId}/blocks/{name}"): "writer",
    ("GET", "/v1/users/{userId}/blocks/{name}/text"): "viewer",
    ("GET", "/v1/users/{userId}/blocks/{name}/history"): "viewer",
    ("POST", "/v1/users/{userId}/blocks/{name}/restore"): "writer",
    ("GET", "/v1/users/{userId}/archival"): "viewer",
    ("GET", "/v1/users/{userId}/archival/search"): "viewer",
    ("GET", "/v1/users/{userId}/archival/{archivalId}"): "viewer",
    ("DELETE", "/v1/users/{userId}/archival/{archivalId}"): "writer",
    ("GET", "/v1/users/{userId}/remembered"): "viewer",
    ("POST", "/v1/users/{userId}/forget"): "writer",
    ("GET", "/v1/tools"): "viewer",
    ("POST", "/v1/users/{userId}/tools/execute"): "viewer",
    ("GET", "/v1/dream/runs"): "admin",
    ("POST", "/v1/dream/runs"): "admin",
    ("GET", "/v1/dream/runs/{runId}"): "admin",
}

BODIES: dict[tuple[str, str], object] = {
    ("PUT", "/v1/agents/{agentId}/config"): {},
    ("PUT", "/v1/users/{userId}/memories"): {"key": "k2", "value": "v", "visibility": "global"},
    ("POST", "/v1/users/{userId}/memories/batch"): {"entries": [{"key": "k3", "value": "v"}]},
    ("POST", "/v1/users/{userId}/memories/{entryId}/restore"): {"version": 1},
    ("PATCH", "/v1/users/{userId}/profile"): {"name": "Alice"},
    ("PUT", "/v1/users/{userId}/profile/agent-name"): {"name": "Jarvis"},
    ("PATCH", "/v1/users/{userId}/settings"): {"memoryEnabled": True},
    ("PATCH", "/v1/users/{userId}/properties"): {"properties": {"lang": "de"}},
    ("POST", "/v1/users/{userId}/recall"): {"message": "what do I like?"},
    ("POST", "/v1/users/{userId}/proposals"): {"change": {"type": "entry", "key": "k4", "value": "v"}},
    ("POST", "/v1/users/{userId}/proposals/{proposalId}/approve"): {},
    ("POST", "/v1/users/{userId}/proposals/{proposalId}/reject"): {},
    ("PUT", "/v1/users/{userId}/blocks/{name}"): {"values": {"name": "Alice"}},
    ("PATCH", "/v1/users/{userId}/blocks/{name}"): {"append": {"facts": ["likes tea"]}},
    ("POST", "/v1/users/{userId}/blocks/{name}/restore"): {"version": 1},
    ("POST", "/v1/users/{userId}/forget"): {"keys": ["nothing-here"]},
    ("POST", "/v1/users/{userId}/threads/{threadId}/messages"): {"messages": [{"id": "m1", "content": "I like tea"}]},
}
QUERIES = {
    ("GET", "/v1/users/{userId}/memories/search"): "q=k",
    ("GET", "/v1/users/{userId}/archival/search"): "q=k",
    ("GET", "/v1/users/{userId}/messages/search"): "q=k",
    ("GET", "/v1/users/{userId}/long-term-memory/search"): "q=k",
    ("DELETE", "/v1/users/{userId}/memories"): "confirm=CONFIRM",
    ("DELETE", "/v1/users/{userId}/properties"): "key=k",
    ("DELETE", "/v1/users/{userId}"): "confirm=CONFIRM",
}


def _openapi_operations() -> set[tuple[str, str]]:
    doc = json.loads((Path(__file__).parents[2] / "docs" / "openapi.json").read_text())
    return {
        (m.upper(), p) for p, ops in doc["paths"].items() for m in ops if m in {"get", "put", "post", "patch", "delete"}
    }


def test_every_route_is_in_the_matrix() -> None:
    missing = _openapi_operations() - set(MATRIX)
    assert not missing, f"routes without a role rule in the matrix: {sorted(missing)}"


@pytest.mark.parametrize(
    "role", [None, Role.VIEWER, Role.WRITER, Role.ADMIN], ids=["none", "viewer", "writer", "admin"]
)
@pytest.mark.parametrize(("method", "path"), sorted(MATRIX))
def test_route_allows_exactly_the_roles_it_should(api: Api, method: str, path: str, role: Role | None) -> None:
    writer = api.key("acme", "agent-a")
    entry = api.call(
        "PUT", "/v1/users/alice/memories", writer, json_body={"key": "k", "value": "v", "visibility": "global"}
    ).json()["entry"]
    key = api.key("acme", "agent-a", role) if role is not None else None
    concrete = (
        path.replace("{userId}", "alice")
        .replace("{agentId}", "agent-a")
        .replace("{entryId}", entry["id"])
        .replace("{category}", "fact")
        .replace("{key}", "k")
        .replace("{proposalId}", "prp_" + "0" * 24)
        .replace("{name}", "human")
        .replace("{archivalId}", "arc_" + "0" * 24)
        .replace("{threadId}", "t1")
        .replace("{messageId}", "m1")
        .replace("{runId}", "dream_none")
    )
    body = BODIES.get((method, path))
    reply = api.call(method, concrete, key, json_body=body, query=QUERIES.get((method, path), ""))
    need = ORDER[MATRIX[(method, path)]]
    have = ROLE_OF_KEY[role]
    assert reply.status < 500, reply.body
    if need == 0 or have >= need:
        assert reply.status not in (401, 403), (reply.status, reply.body)
    elif role is None:
        assert reply.status == 401
        assert reply.json()["code"] == "unauthenticated"
    else:
        assert reply.status == 403, (reply.status, reply.body)
        assert reply.json()["code"] == "forbidden"
