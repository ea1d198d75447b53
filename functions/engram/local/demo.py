"""``engram demo``: a scripted walk through the API against a running server."""

from __future__ import annotations

import json
from typing import Any

import httpx

from engram.settings import Settings


def run_demo(url: str, settings: Settings, tenant: str) -> int:
    from engram.container import build
    from engram.domain.models import Role

    engram = build(settings)
    _, admin = engram.keys.create(tenant, "demo-admin", frozenset({Role.ADMIN}), description="engram demo")
    _, alpha = engram.keys.create(tenant, "alpha", frozenset({Role.WRITER}), ("team",), "engram demo")
    _, beta = engram.keys.create(tenant, "beta", frozenset({Role.WRITER}), ("team",), "engram demo")
    user = "demo-user"

    with httpx.Client(base_url=url, timeout=10) as http:

        def call(step: str, key: str, method: str, path: str, **kw: Any) -> Any:
            r = http.request(method, path, headers={"Authorization": f"Bearer {key}"}, **kw)
            print(f"\n== {step}\n   {method} {path} -> {r.status_code}")
            body = r.json()
            print("   " + json.dumps(body, ensure_ascii=False)[:400])
            return body

        base = f"/v1/users/{user}"
        call(
            "alpha remembers a private preference",
            alpha,
            "PUT",
            f"{base}/memories",
            json={"key": "favorite_color", "value": "blue", "category": "preference"},
        )
        call(
            "alpha shares a fact with its group",
            alpha,
            "PUT",
            f"{base}/memories",
            json={"key": "project", "value": "Apollo", "visibility": "group", "groupIds": ["team"]},
        )
        call(
            "beta records a global fact",
            beta,
            "PUT",
            f"{base}/memories",
            json={"key": "language", "value": "German", "visibility": "global"},
        )
        call(
            "alpha says it again: reinforced, not duplicated",
            alpha,
            "PUT",
            f"{base}/memories",
            json={"key": "favorite_color", "value": "Blue", "category": "preference"},
        )
        changed = call(
            "alpha learns it changed: the old value is superseded",
            alpha,
            "PUT",
            f"{base}/memories",
            json={"key": "favorite_color", "value": "green", "category": "preference"},
        )
        call("what alpha sees", alpha, "GET", f"{base}/memories/visible")
        call("what beta sees (no alpha self entries)", beta, "GET", f"{base}/memories/visible")
        call(
            "search by meaning and keyword",
            alpha,
            "GET",
            f"{base}/memories/search",
            params={"q": "colour"},
        )
        entry_id = changed["entry"]["id"]
        call("history of the color", alpha, "GET", f"{base}/memories/{entry_id}/history")
        call(
            "restore version 1 (blue) as a new version",
            alpha,
            "POST",
            f"{base}/memories/{entry_id}/restore",
            json={"version": 1},
        )
        call(
            "a card number is refused",
            alpha,
            "PUT",
            f"{base}/memories",
            json={"key": "card", "value": "4111 1111 1111 1111"},
        )
        call("count", admin, "GET", f"{base}/memories/count")
        call("export", admin, "GET", f"{base}/export")
        call("erase the user", admin, "DELETE", f"/v1/users/{user}", params={"confirm": "CONFIRM"})
        call("nothing left", admin, "GET", f"{base}/memories/count")
    print("\nDemo finished.")
    return 0
