"""``engram demo``: a scripted walk through the API against a running server."""

from __future__ import annotations

import json
from typing import Any

import httpx

from engram.settings import Settings


class DemoServerMissing(Exception):
    """No Engram server answers at the demo's URL."""


def run_demo(url: str, settings: Settings, tenant: str) -> int:
    from engram.container import build
    from engram.domain.models import Role

    with httpx.Client(base_url=url, timeout=10) as http:
        # Asked first, so that without a server no key is ever created.
        try:
            http.get("/health").raise_for_status()
        except httpx.HTTPError as exc:
            raise DemoServerMissing(
                f"no Engram server answers at {url} ({type(exc).__name__}); start one with `engram serve` "
                "(same --data-dir) or pass --url"
            ) from None
        engram = build(settings)
        records = [
            engram.keys.create(tenant, "demo-admin", frozenset({Role.ADMIN}), description="engram demo"),
            engram.keys.create(tenant, "alpha", frozenset({Role.WRITER}), ("team",), "engram demo"),
            engram.keys.create(tenant, "beta", frozenset({Role.WRITER}), ("team",), "engram demo"),
        ]
        try:
            _tour(http, *(key for _, key in records))
        except httpx.HTTPError as exc:
            raise DemoServerMissing(f"the server at {url} stopped answering: {exc}") from None
        finally:
            # The demo's keys (one of them admin) die with the demo.
            for record, _ in records:
                engram.keys.revoke(record.key_id)
    print("\nDemo finished; its three keys are revoked.")
    return 0


def _tour(http: httpx.Client, admin: str, alpha: str, beta: str) -> None:
    user = "demo-user"

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
