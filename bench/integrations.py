"""Agent integrations: the tool executor and the mcp Lambda, per call, on the embedded store.

Every call is a full API Gateway event through the Lambda handler (authorizer context
included), as in the cloud; the user holds 200 entries. The mcp Lambda builds a fresh
MCP session manager per invocation (stateless), which this measures too.
Run: ``.venv/bin/python -m bench.integrations``
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from engram.api.auth import principal_context
from engram.container import build, set_engram
from engram.domain.models import Principal, Role
from engram.handlers import api
from engram.handlers import mcp as mcp_handler
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.settings import Settings

from bench.common import import_time_ms, percentiles, time_calls, write_results

ENTRIES = 200
N = 300
MCP_HEADERS = {
    "content-type": "application/json",
    "accept": "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
    "host": "abc123.execute-api.us-east-1.amazonaws.com",
}


def main() -> dict[str, Any]:
    engram = build(Settings(data_dir=Path(tempfile.mkdtemp(prefix="engram-bench-"))))
    set_engram(engram)
    writer = principal_context(Principal("bench", "agent-a", frozenset({Role.WRITER})))
    admin = principal_context(Principal("bench", "ops", frozenset({Role.ADMIN})))
    ctx: Any = LocalContext()
    execute = "/v1/users/u1/tools/execute"

    def tool(name: str, args: dict[str, Any]) -> None:
        call = {"type": "tool_use", "id": "toolu_1", "name": name, "input": args}
        r = api.handler(api_event("POST", execute, body=json.dumps({"toolCall": call}), authorizer=writer), ctx)
        assert r["statusCode"] == 200, r["body"]
        assert json.loads(r["body"])["isError"] is False, r["body"]

    for i in range(ENTRIES):
        tool("rememberFact", {"key": f"fact_{i}", "value": f"value {i}", "category": "fact"})

    remember = time_calls(
        lambda i: tool("rememberFact", {"key": f"fact_{i % ENTRIES}", "value": f"new {i}", "category": "fact"}), N
    )
    recall = time_calls(lambda i: tool("recallMemories", {}), N)
    search = time_calls(lambda i: tool("searchMemory", {"query": f"fact {i % ENTRIES}"}), N)

    def mcp(i: int) -> None:
        body = {
            "jsonrpc": "2.0",
            "id": i,
            "method": "tools/call",
            "params": {"name": "count_user_memories", "arguments": {"userId": "u1"}},
        }
        event = api_event("POST", "/mcp", headers=MCP_HEADERS, body=json.dumps(body), authorizer=admin)
        r = mcp_handler.handler(event, ctx)
        assert r["statusCode"] == 200, r["body"]
        assert '"isError":false' in r["body"], r["body"]

    mcp_count = time_calls(mcp, N)
    results = {
        "entries_per_user": ENTRIES,
        "tool_remember_fact": percentiles(remember),
        "tool_recall_memories": percentiles(recall),
        "tool_search_memory": percentiles(search),
        "mcp_lambda_count_user_memories": percentiles(mcp_count),
        "import_ms": {"engram.handlers.mcp + SDK": import_time_ms("engram.handlers.mcp, engram.api.mcp_server")},
    }
    write_results("integrations", results)
    print(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
