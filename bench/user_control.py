"""User-control latency through the API handler on the embedded store.

Every call is a full API Gateway event through ``engram.handlers.api.handler``:
- an agent under ``requireApproval`` proposing (PUT /memories -> 202), then the user
  approving it (POST .../approve);
- appending to a memory block that rotates into archival memory at its threshold;
- reading the block as Markdown and writing the edited Markdown back;
- searching archival memory (hybrid) once it holds a few hundred records.
Run: ``.venv/bin/python -m bench.user_control [--n 200]``
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from engram.api.auth import principal_context
from engram.container import build, set_engram
from engram.domain.models import Principal, Role
from engram.handlers import api
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.settings import Settings

from bench.common import percentiles, time_calls, write_results

BASE = "/v1/users/u1"


def main(n: int = 200) -> dict[str, object]:
    engram = build(Settings(data_dir=Path(tempfile.mkdtemp(prefix="engram-bench-uc-"))))
    set_engram(engram)
    ctx = LocalContext()
    agent = principal_context(Principal("bench", "agent-a", frozenset({Role.WRITER})))
    console = principal_context(Principal("bench", "console", frozenset({Role.ADMIN})))

    def call(method: str, path: str, who: dict[str, str], body: Any = None, query: str = "") -> dict[str, Any]:
        event = api_event(method, path, body=None if body is None else json.dumps(body), query=query, authorizer=who)
        reply: dict[str, Any] = api.handler(event, ctx)  # type: ignore[arg-type]
        return reply

    config = {
        "requireApproval": ["preference"],
        "memoryBlocks": {
            "rotation": "adaptive",
            "schemas": [{"name": "journal", "fields": [{"name": "topic"}, {"name": "notes", "kind": "list"}]}],
        },
    }
    assert call("PUT", "/v1/agents/agent-a/config", console, config)["statusCode"] == 200

    proposed: list[str] = []

    def propose(i: int) -> None:
        r = call("PUT", f"{BASE}/memories", agent, {"key": f"pref_{i}", "value": f"v{i}", "category": "preference"})
        assert r["statusCode"] == 202, r["body"]
        proposed.append(json.loads(r["body"])["proposal"]["id"])

    propose_ms = time_calls(propose, n, warmup=0)

    def approve(i: int) -> None:
        r = call("POST", f"{BASE}/proposals/{proposed[i]}/approve", console, {})
        assert r["statusCode"] == 200, r["body"]

    approve_ms = time_calls(approve, n, warmup=0)

    rotated = 0

    def append(i: int) -> None:
        nonlocal rotated
        note = f"Session {i}: revised chapter {i % 17} on topic {i % 5} with exercises"
        r = call("PATCH", f"{BASE}/blocks/journal", agent, {"append": {"notes": [note]}})
        assert r["statusCode"] == 200, r["body"]
        rotated += bool(json.loads(r["body"])["archived"])

    append_ms = time_calls(append, n * 2, warmup=0)

    def markdown_round_trip(i: int) -> None:
        got = json.loads(call("GET", f"{BASE}/blocks/journal/text", agent, query="format=markdown")["body"])
        text = re.sub(r"## Topic\n.*?\n\n", f"## Topic\nRevision {i}\n\n", got["content"], count=1, flags=re.S)
        r = call("PUT", f"{BASE}/blocks/journal", agent, {"markdown": text})
        assert r["statusCode"] == 200, r["body"]

    markdown_ms = time_calls(markdown_round_trip, n // 2, warmup=0)

    def search(i: int) -> None:
        r = call("GET", f"{BASE}/archival/search", agent, query=f"q=chapter+{i % 17}+exercises")
        assert r["statusCode"] == 200

    search_ms = time_calls(search, n, warmup=5)
    archival = len(json.loads(call("GET", f"{BASE}/archival", agent, query="limit=1000")["body"])["items"])
    results = {
        "propose_202": percentiles(propose_ms),
        "approve": percentiles(approve_ms),
        "block_append_with_rotation": percentiles(append_ms),
        "block_markdown_read_edit_write": percentiles(markdown_ms),
        "archival_search_hybrid": percentiles(search_ms),
        "appends_that_rotated": rotated,
        "archival_records": archival,
    }
    path = write_results("user_control", results)
    print("Engram user control, embedded store, through the API handler")
    for name in (
        "propose_202",
        "approve",
        "block_append_with_rotation",
        "block_markdown_read_edit_write",
        "archival_search_hybrid",
    ):
        r = results[name]
        print(f"  {name:32s} p50 {r['p50_ms']:7.3f} ms   p95 {r['p95_ms']:7.3f} ms   (n={r['n']})")  # type: ignore[index]
    print(f"  appends that rotated: {rotated} of {n * 2}; archival records: {archival}")
    print(f"  -> {path}")
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    main(parser.parse_args().n)
