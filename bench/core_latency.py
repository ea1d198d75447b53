"""Upsert and visible-to latency through the API handler on the embedded store.

A user with 500 entries; every call is a full API Gateway event through
``engram.handlers.api.handler`` (authorizer context included), as in Lambda.
Run: ``.venv/bin/python -m bench.core_latency``
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from engram.api.auth import principal_context
from engram.container import build, set_engram
from engram.domain.models import Principal, Role
from engram.handlers import api
from engram.local.events import api_event
from engram.local.lambda_context import LocalContext
from engram.settings import Settings

from bench.common import import_time_ms, percentiles, time_calls, write_results

ENTRIES = 500
N = 1000


def main() -> dict[str, object]:
    engram = build(Settings(data_dir=Path(tempfile.mkdtemp(prefix="engram-bench-"))))
    set_engram(engram)
    writer = principal_context(Principal("bench", "agent-a", frozenset({Role.WRITER}), ("team",)))
    ctx = LocalContext()
    base = "/v1/users/u1/memories"

    def put(i: int, key: str | None = None, value: str = "value") -> None:
        body = json.dumps({"key": key or f"fact_{i}", "value": f"{value} {i}", "category": "fact"})
        r = api.handler(api_event("PUT", base, body=body, authorizer=writer), ctx)  # type: ignore[arg-type]
        assert r["statusCode"] == 200, r["body"]

    for i in range(ENTRIES):
        put(i)

    upsert_new = time_calls(lambda i: put(ENTRIES + 10_000 + i), N // 4, warmup=0)
    # Keep the user at ~500 entries for the rest: rewrite existing keys with new values.
    supersede = time_calls(lambda i: put(i % ENTRIES, value="changed"), N)

    def visible(i: int) -> None:
        r = api.handler(api_event("GET", f"{base}/visible", query="limit=50", authorizer=writer), ctx)  # type: ignore[arg-type]
        assert r["statusCode"] == 200

    visible_ms = time_calls(visible, N)
    results = {
        "entries_per_user": ENTRIES,
        "upsert_create": percentiles(upsert_new),
        "upsert_supersede": percentiles(supersede),
        "visible_to_50": percentiles(visible_ms),
        "import_ms": {
            "engram.handlers.api": import_time_ms("engram.handlers.api"),
        },
    }
    path = write_results("core_latency", results)
    print(f"Engram core latency, embedded store, {ENTRIES} entries per user, through the API handler")
    for name in ("upsert_create", "upsert_supersede", "visible_to_50"):
        r = results[name]
        print(f"  {name:18s} p50 {r['p50_ms']:7.3f} ms   p99 {r['p99_ms']:7.3f} ms   (n={r['n']})")  # type: ignore[index]
    print(f"  import engram.handlers.api: {results['import_ms']['engram.handlers.api']} ms")  # type: ignore[index]
    print(f"  -> {path}")
    return results


if __name__ == "__main__":
    main()
