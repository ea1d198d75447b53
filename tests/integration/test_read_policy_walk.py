"""Every read route and every read tool, with memory off and with retention expired.

The routes come from the OpenAPI document and the tools from the tool lists (the LLM
tools and the MCP tools), and each must be classified below: a route or tool added
without a rule fails ``test_every_route_and_tool_has_a_read_rule``, so none can slip
past the read policy (``engram.domain.read_policy``).

A user is given memory in every form (entries of each visibility, a block, archival
records, proposals, messages with a session summary), each value carrying a marker.
Then every read is walked with an agent's key and with the owner's (admin) key:

- memory on: the reads that show memory do show the markers (the walk can see a leak);
- memory off: no read by an agent holds a marker, and counts are zero; the owner
  still sees what is stored (so the user can inspect and erase it);
- retention expired (before any dream run): no read by anyone holds the marker of an
  entry or archival record past the user's retention; export alone still holds them.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from engram.api.mcp_server import MCP_TOOLS, MemoryTools
from engram.domain import tools as T
from engram.domain.models import Role

from tests.integration.conftest import Api

USER = "ulla"
MARK = re.compile(r"zqx[a-z]+\d+")

# How each read route answers to the read policy.
# memory: shows the user's memory; an agent gets none of it with memory off.
# conversation: the thread itself (window, one message, its rolling summary, the list of
#   threads) is the conversation, not memory; it stays readable (docs/security.md).
# no-memory: holds nothing remembered about the user (identity and settings, which
#   recall gives even with memory off, configuration, tool schemas, dream reports).
# owner-export: the user's copy of everything held (admin only), expired or not.
READS: dict[tuple[str, str], str] = {
    ("GET", "/health"): "no-memory",
    ("GET", "/v1/me"): "no-memory",
    ("GET", "/v1/agents/{agentId}/config"): "no-memory",
    ("GET", "/v1/block-presets"): "no-memory",
    ("GET", "/v1/block-schemas"): "no-memory",
    ("GET", "/v1/dream/runs"): "no-memory",
    ("GET", "/v1/dream/runs/{runId}"): "no-memory",
    ("GET", "/v1/tools"): "no-memory",
    ("GET", "/v1/users/{userId}/profile"): "no-memory",
    ("GET", "/v1/users/{userId}/settings"): "no-memory",
    ("GET", "/v1/users/{userId}/export"): "owner-export",
    ("GET", "/v1/users/{userId}/memories"): "memory",
    ("GET", "/v1/users/{userId}/memories/visible"): "memory",
    ("GET", "/v1/users/{userId}/memories/search"): "memory",
    ("GET", "/v1/users/{userId}/memories/count"): "memory",
    ("GET", "/v1/users/{userId}/memories/category/{category}"): "memory",
    ("GET", "/v1/users/{userId}/memories/key/{key}"): "memory",
    ("GET", "/v1/users/{userId}/memories/{entryId}"): "memory",
    ("GET", "/v1/users/{userId}/memories/{entryId}/history"): "memory",
    ("GET", "/v1/users/{userId}/properties"): "memory",
    ("GET", "/v1/users/{userId}/remembered"): "memory",
    ("POST", "/v1/users/{userId}/recall"): "memory",
    ("POST", "/v1/users/{userId}/tools/execute"): "memory",  # walked once per read tool
    ("GET", "/v1/users/{userId}/long-term-memory"): "memory",
    ("GET", "/v1/users/{userId}/long-term-memory/search"): "memory",
    ("GET", "/v1/users/{userId}/messages/search"): "memory",
    ("GET", "/v1/users/{userId}/blocks"): "memory",
    ("GET", "/v1/users/{userId}/blocks/{name}"): "memory",
    ("GET", "/v1/users/{userId}/blocks/{name}/text"): "memory",
    ("GET", "/v1/users/{userId}/blocks/{name}/history"): "memory",
    ("GET", "/v1/users/{userId}/archival"): "memory",
    ("GET", "/v1/users/{userId}/archival/search"): "memory",
    ("GET", "/v1/users/{userId}/archival/{archivalId}"): "memory",
    ("GET", "/v1/users/{userId}/proposals"): "memory",
    ("GET", "/v1/users/{userId}/proposals/{proposalId}"): "memory",
    ("GET", "/v1/users/{userId}/threads"): "conversation",
    ("GET", "/v1/users/{userId}/threads/{threadId}/messages"): "conversation",
    ("GET", "/v1/users/{userId}/threads/{threadId}/messages/{messageId}"): "conversation",
    ("GET", "/v1/users/{userId}/threads/{threadId}/summary"): "conversation",
}
# Everything else changes state; memory off refuses writes (403 memory_disabled) and
# forgetting keeps working. Listed so that a new route must be classified.
NOT_READS: set[tuple[str, str]] = {
    ("PUT", "/v1/agents/{agentId}/config"),
    ("POST", "/v1/dream/runs"),
    ("DELETE", "/v1/users/{userId}"),
    ("DELETE", "/v1/users/{userId}/archival/{archivalId}"),
    ("DELETE", "/v1/users/{userId}/blocks/{name}"),
    ("PATCH", "/v1/users/{userId}/blocks/{name}"),
    ("PUT", "/v1/users/{userId}/blocks/{name}"),
    ("POST", "/v1/users/{userId}/blocks/{name}/restore"),
    ("POST", "/v1/users/{userId}/forget"),
    ("DELETE", "/v1/users/{userId}/memories"),
    ("PUT", "/v1/users/{userId}/memories"),
    ("POST", "/v1/users/{userId}/memories/batch"),
    ("DELETE", "/v1/users/{userId}/memories/key/{key}"),
    ("DELETE", "/v1/users/{userId}/memories/{entryId}"),
    ("POST", "/v1/users/{userId}/memories/{entryId}/restore"),
    ("PATCH", "/v1/users/{userId}/profile"),
    ("PUT", "/v1/users/{userId}/profile/agent-name"),
    ("DELETE", "/v1/users/{userId}/properties"),
    ("PATCH", "/v1/users/{userId}/properties"),
    ("POST", "/v1/users/{userId}/proposals"),
    ("POST", "/v1/users/{userId}/proposals/{proposalId}/approve"),
    ("POST", "/v1/users/{userId}/proposals/{proposalId}/reject"),
    ("PATCH", "/v1/users/{userId}/settings"),
    ("DELETE", "/v1/users/{userId}/threads/{threadId}"),
    ("POST", "/v1/users/{userId}/threads/{threadId}/messages"),
}
# LLM tools and MCP tools that read; the rest write (and are refused with memory off).
READ_TOOLS = {"recallMemories", "searchMemory", "search_memory"}
WRITE_TOOLS = {"rememberFact", "forgetFact", "set_agent_name", "propose_memory_edit"}
TOOL_ARGS: dict[str, dict[str, Any]] = {
    "recallMemories": {},
    "searchMemory": {"query": "tea"},
    "search_memory": {"query": "tea", "memory_type": "all"},
}
MCP_READS: dict[str, dict[str, Any]] = {
    "recall": {"userId": USER, "message": "do I like tea?"},
    "list_user_memories": {"userId": USER},
    "get_visible_memories": {"userId": USER},
    "search_user_memories": {"userId": USER, "query": "tea"},
    "get_memory_by_key": {"userId": USER, "key": "drink"},
    "count_user_memories": {"userId": USER},
}
MCP_WRITES = {"upsert_user_memory", "forget_memory_by_key", "delete_user_memory", "delete_all_user_memories"}
QUERIES = {
    "/v1/users/{userId}/memories/search": "q=tea",
    "/v1/users/{userId}/archival/search": "q=tea",
    "/v1/users/{userId}/messages/search": "q=tea&minScore=0",
    "/v1/users/{userId}/long-term-memory/search": "q=tea&minScore=0",
    "/v1/users/{userId}/memories": "status=all",
}


def _openapi_operations() -> set[tuple[str, str]]:
    doc = json.loads((Path(__file__).parents[2] / "docs" / "openapi.json").read_text())
    return {
        (m.upper(), p) for p, ops in doc["paths"].items() for m in ops if m in {"get", "put", "post", "patch", "delete"}
    }


def test_every_route_and_tool_has_a_read_rule() -> None:
    ops = _openapi_operations()
    assert ops - set(READS) - NOT_READS == set(), "routes without a read rule"
    assert (set(READS) | NOT_READS) - ops == set(), "rules for routes that no longer exist"
    assert {t.name for t in T.TOOLS} == READ_TOOLS | WRITE_TOOLS
    assert {t.name for t in T.TOOLS if not t.writes} == READ_TOOLS
    assert {t.name for t in MCP_TOOLS} == set(MCP_READS) | MCP_WRITES


class World:
    """One user with memory in every form, and the keys and ids the walk needs."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.admin = api.key("acme", "console", Role.ADMIN)
        self.agent = api.key("acme", "coach", Role.WRITER, groups=("team",))
        config = {
            "requireApproval": ["block:human"],
            "builtInToolsWhitelist": ["usermemory", "search_memory"],
            "memoryBlocks": {
                "rotation": "aggressive",
                "schemas": [{"name": "log", "fields": [{"name": "done", "kind": "list"}], "maxChars": 200}],
            },
        }
        self.ok("PUT", "/v1/agents/coach/config", self.admin, config)
        base = f"/v1/users/{USER}"
        entries = [
            {"key": "drink", "value": "green tea zqxentry1", "category": "preference"},
            {"key": "tea_shop", "value": "tea from zqxentry2", "visibility": "global"},
            {"key": "team_tea", "value": "tea rota zqxentry3", "visibility": "group"},
            {"key": "city", "value": "tea town zqxentry4"},
        ]
        ids = [self.ok("PUT", f"{base}/memories", self.agent, e)["entry"]["id"] for e in entries]
        self.entry_id = ids[0]
        self.ok("PATCH", f"{base}/properties", self.agent, {"properties": {"tea_brand": "zqxentry5 tea"}})
        self.ok("PATCH", f"{base}/blocks/human", self.agent, {"set": {"name": "zqxblock1"}}, 202)
        self.ok("PUT", f"{base}/blocks/persona", self.agent, {"values": {"name": "tea butler zqxblock2"}})
        self.ok("PUT", f"{base}/blocks/log", self.agent, {"values": {}})
        for i in range(8):
            self.ok("PATCH", f"{base}/blocks/log", self.agent, {"append": {"done": [f"brewed tea zqxarchive{i}"]}})
        self.ok(
            "POST",
            f"{base}/proposals",
            self.agent,
            {"change": {"type": "entry", "key": "snack", "value": "tea cake zqxproposal1"}},
            200,
            201,
        )
        messages = [{"id": f"m{i}", "content": f"I drink tea every day zqxmessage{i}"} for i in range(12)]
        self.ok("POST", f"{base}/threads/t1/messages", self.agent, {"messages": messages})
        feature = api.engram.conversation
        assert feature is not None and feature.worker is not None
        assert feature.worker.wait_idle(10)
        archival = self.ok("GET", f"{base}/archival", self.agent)["items"]
        assert archival, "rotation must have archived some items"
        self.archival_id = archival[0]["id"]
        self.archived = set(MARK.findall(json.dumps(archival)))
        self.proposal_id = self.ok("GET", f"{base}/proposals", self.agent)["items"][0]["id"]

    def ok(self, method: str, path: str, key: str, body: Any = None, *statuses: int) -> Any:
        reply = self.api.call(method, path, key, json_body=body)
        assert reply.status in (statuses or (200,)), (method, path, reply.status, reply.body)
        return reply.json()

    def concrete(self, path: str) -> str:
        return (
            path.replace("{userId}", USER)
            .replace("{agentId}", "coach")
            .replace("{entryId}", self.entry_id)
            .replace("{category}", "preference")
            .replace("{key}", "drink")
            .replace("{proposalId}", self.proposal_id)
            .replace("{name}", "persona")
            .replace("{archivalId}", self.archival_id)
            .replace("{threadId}", "t1")
            .replace("{messageId}", "m1")
            .replace("{runId}", "dream_none")
        )

    def walk(self, key: str) -> dict[str, tuple[int, set[str], Any]]:
        """Every read, by name: (status, markers in the answer, the answer)."""
        out: dict[str, tuple[int, set[str], Any]] = {}
        for method, path in sorted(READS):
            if path.endswith("/tools/execute"):
                for name, args in TOOL_ARGS.items():
                    call = {"id": f"c-{name}", "type": "function", "function": {"name": name, "arguments": args}}
                    call["function"]["arguments"] = json.dumps(args)
                    body: Any = {"toolCall": call}
                    if name == "recallMemories":
                        out[f"tool {name} (no query)"] = self._call(method, path, key, body)
                        call = {**call, "function": {"name": name, "arguments": json.dumps({"query": "tea"})}}
                        body = {"toolCall": call}
                    out[f"tool {name}"] = self._call(method, path, key, body)
                continue
            body = {"message": "do I like tea?"} if path.endswith("/recall") else None
            out[f"{method} {path}"] = self._call(method, path, key, body)
        principal = self.api.engram.keys.authenticate(f"Bearer {key}")
        tools = MemoryTools(self.api.engram)
        for name, args in MCP_READS.items():
            try:
                result: Any = tools.call(principal, name, args)
                status = 200
            except Exception as exc:  # an MCP error result carries the code, never a value
                result, status = {"error": type(exc).__name__}, getattr(exc, "status", 500)
            text = json.dumps(result)
            out[f"mcp {name}"] = (status, set(MARK.findall(text)), result)
        return out

    def _call(self, method: str, path: str, key: str, body: Any) -> tuple[int, set[str], Any]:
        reply = self.api.call(method, self.concrete(path), key, json_body=body, query=QUERIES.get(path, ""))
        assert reply.status < 500, (method, path, reply.body)
        text = reply.body.decode() if isinstance(reply.body, bytes) else reply.body
        return reply.status, set(MARK.findall(text)), reply.json() if text else None


def _rule(name: str) -> str:
    if name.startswith(("tool ", "mcp ")):
        return "memory"
    method, path = name.split(" ", 1)
    return READS[(method, path)]


def _counts(walk: dict[str, tuple[int, set[str], Any]]) -> dict[str, Any]:
    return {
        "count": walk["GET /v1/users/{userId}/memories/count"][2],
        "mcp": walk["mcp count_user_memories"][2],
    }


def test_memory_off_hides_every_memory_from_agents(api: Api) -> None:
    world = World(api)
    on = world.walk(world.agent)
    # The walk sees memory where it is: every read that shows values shows a marker.
    showing = {n for n, (_, marks, _) in on.items() if marks}
    silent = {n for n in on if _rule(n) == "memory"} - showing
    assert silent <= {
        "GET /v1/users/{userId}/memories/count",
        "mcp count_user_memories",
    }, f"memory reads that showed no marker with memory on: {sorted(silent)}"
    assert _counts(on) == {"count": {"count": 5}, "mcp": {"count": 5}}

    world.ok("PATCH", f"/v1/users/{USER}/settings", world.admin, {"memoryEnabled": False})
    off = world.walk(world.agent)
    leaks = {n: sorted(marks) for n, (_, marks, _) in off.items() if marks and _rule(n) != "conversation"}
    assert leaks == {}, f"memory handed to an agent with memory off: {leaks}"
    assert _counts(off) == {"count": {"count": 0}, "mcp": {"count": 0}}
    for name, (status, _, body) in off.items():
        if status >= 400 and _rule(name) == "memory":
            assert status == 403 and body["code"] == "memory_disabled", (name, status, body)
    # The owner (the user's console) still sees what is stored, so it can be erased.
    owner = world.walk(world.admin)
    assert owner["GET /v1/users/{userId}/memories"][1] >= {"zqxentry1", "zqxentry2", "zqxentry3", "zqxentry4"}
    assert owner["GET /v1/users/{userId}/remembered"][1]
    # Recall and the tools speak for the agent even with an admin key.
    for name in ("POST /v1/users/{userId}/recall", "tool recallMemories", "tool searchMemory", "tool search_memory"):
        assert not owner[name][1], (name, owner[name][1])
    # Forgetting keeps working with memory off.
    gone = world.ok("POST", f"/v1/users/{USER}/forget", world.agent, {"keys": ["drink"]})
    assert gone["deleted"], gone
    # ... and what it forgot is gone: forgetting again finds nothing.
    again = world.ok("POST", f"/v1/users/{USER}/forget", world.agent, {"keys": ["drink"]})
    assert again["deleted"] == [], again


def test_retention_hides_what_it_ended_before_any_dream_run(api: Api) -> None:
    world = World(api)
    clock = api.engram.clock
    clock.advance(timedelta(days=3))  # type: ignore[attr-defined]
    # Written now, inside the retention about to be set: these must stay visible.
    fresh = world.ok(
        "PUT", f"/v1/users/{USER}/memories", world.agent, {"key": "fresh_tea", "value": "tea now zqxfresh1"}
    )
    assert fresh["entry"]["id"]
    world.ok("PATCH", f"/v1/users/{USER}/settings", world.admin, {"retentionDays": 2})
    expired = {f"zqxentry{i}" for i in range(1, 6)} | world.archived
    said_before = {f"zqxmessage{i}" for i in range(12)}
    assert world.archived
    for who, key in (("agent", world.agent), ("owner", world.admin)):
        walk = world.walk(key)
        leaks = {
            n: sorted(marks & expired)
            for n, (_, marks, _) in walk.items()
            if marks & expired and _rule(n) != "owner-export"
        }
        assert leaks == {}, f"{who}: entries past retention still handed out: {leaks}"
        # Past messages searched across threads are memory, as recall reads them: past the
        # retention, message search hands them out no more than recall does (the thread
        # itself is the conversation, not memory; session summaries are left as they are).
        for name in ("GET /v1/users/{userId}/messages/search", "POST /v1/users/{userId}/recall"):
            assert not walk[name][1] & said_before, f"{who}: {name} past retention: {walk[name][1]}"
        assert "zqxfresh1" in walk["GET /v1/users/{userId}/memories"][1], who
        assert walk["GET /v1/users/{userId}/memories/count"][2] == {"count": 1}, who
    export = world.ok("GET", f"/v1/users/{USER}/export", world.admin)
    assert expired <= set(MARK.findall(json.dumps(export))), "export is the copy of everything held"


def test_history_shows_a_reader_only_the_versions_it_may_see(api: Api) -> None:
    # Found by the isolation property on DynamoDB: b's group entry, rewritten by b as a
    # self entry (the same identity), let a group member read the self value in history.
    b = api.key("acme", "b", Role.WRITER, groups=("team",))
    a = api.key("acme", "a", Role.WRITER, groups=("team",))
    base = f"/v1/users/{USER}/memories"
    shared = api.call("PUT", base, b, json_body={"key": "city", "value": "Porto", "visibility": "group"}).json()
    assert (
        api.call("PUT", base, b, json_body={"key": "city", "value": "zqxprivate1", "visibility": "self"}).status == 200
    )
    history = api.call("GET", f"{base}/{shared['entry']['id']}/history", a)
    assert history.status == 200
    assert "Porto" in history.body.decode()
    assert "zqxprivate1" not in history.body.decode()
