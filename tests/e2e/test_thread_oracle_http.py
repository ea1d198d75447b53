"""Issue #22, item 3, over real HTTP against ``engram serve``: another agent's thread
answers exactly as a free id.

Agent alpha holds thread ``t1`` (twelve turns, so a summary, and message ``m0``) with
user ``alice``, and another thread with user ``bobby``, where ``t1`` is free. Agent beta
sends the same requests for both users; each pair of answers must be the same status,
headers (but ``date``) and body, once the user id and the times of day (when each answer
was made) are masked.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.e2e.conftest import EngramServer

pytestmark = pytest.mark.e2e

SAID = "2026-01-10T08:00:00+00:00"
# Times the server stamps (createdAt, updatedAt...): when, not what; fixed width, so
# masking them keeps lengths equal.
STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def probes(user: str) -> list[tuple[str, str, dict[str, str], dict[str, object] | None]]:
    base = f"/v1/users/{user}"
    hello = {"messages": [{"id": "m0", "role": "user", "content": "hello", "timestamp": SAID}]}
    hi = {"messages": [{"id": "m1", "role": "assistant", "content": "hi", "timestamp": SAID}]}
    return [
        ("GET", f"{base}/threads/t1/messages", {}, None),
        ("GET", f"{base}/threads/t1/messages", {"last": "5", "tokenBudget": "100"}, None),
        ("GET", f"{base}/threads/t1/messages/m0", {}, None),
        ("GET", f"{base}/threads/t1/summary", {}, None),
        ("GET", f"{base}/threads", {}, None),
        ("GET", f"{base}/messages/search", {"q": "Oslo sport", "excludeThreadId": "t1"}, None),
        ("GET", f"{base}/long-term-memory", {"memoryType": "summaries", "threadId": "t1"}, None),
        ("GET", f"{base}/threads/t1/messages", {"agentId": "alpha"}, None),
        ("DELETE", f"{base}/threads/t1", {}, None),
        ("POST", f"{base}/threads/t1/messages", {}, hello),
        ("POST", f"{base}/threads/t1/messages", {}, hello),
        ("POST", f"{base}/threads/t1/messages", {}, hi),
        ("GET", f"{base}/threads/t1/messages", {}, None),
        ("GET", f"{base}/threads/t1/messages/m0", {}, None),
        ("GET", f"{base}/threads/t1/summary", {}, None),
        ("GET", f"{base}/threads", {}, None),
        ("DELETE", f"{base}/threads/t1", {}, None),
        ("GET", f"{base}/threads/t1/messages", {}, None),
    ]


def answer(
    c: httpx.Client, user: str, method: str, path: str, params: dict[str, str], body: object
) -> tuple[int, list[tuple[str, str]], bytes]:
    r = c.request(method, path, params=params, json=body)
    masked = STAMP.sub(b"<stamp>", r.content).replace(user.encode(), b"<user>")
    headers = sorted((k.lower(), v) for k, v in r.headers.items() if k.lower() != "date")
    if method == "POST" and r.status_code == 200:
        settle(c, path)
    return r.status_code, headers, masked


def settle(c: httpx.Client, path: str) -> None:
    """Wait for the background extraction of what was appended, so that the next answer
    (a replay shows each message's extraction) does not depend on the worker's timing."""
    deadline = time.monotonic() + 30
    while any(m["extraction"] is None for m in c.get(path, params={"last": "100"}).json()["messages"]):
        assert time.monotonic() < deadline, f"extraction never ran for {path}"
        time.sleep(0.02)


def test_another_agents_thread_answers_over_http_exactly_as_a_free_id(server: EngramServer) -> None:
    alpha, beta = server.key("acme", "alpha"), server.key("acme", "beta")
    with server.client(alpha) as a:
        for user, thread in (("alice", "t1"), ("bobby", "t7")):
            turns = [
                {"id": f"m{i}", "role": "user", "content": f"I live in Oslo, sport {i}", "timestamp": SAID}
                for i in range(12)
            ]
            r = a.post(f"/v1/users/{user}/threads/{thread}/messages", json={"messages": turns})
            assert r.status_code == 200, r.text
        assert a.get("/v1/users/alice/threads/t1/summary").status_code == 200

    with server.client(beta) as b:
        for (method, path, params, body), free in zip(probes("alice"), probes("bobby"), strict=True):
            taken_answer = answer(b, "alice", method, path, params, body)
            free_answer = answer(b, "bobby", *free)
            assert taken_answer == free_answer, f"{method} {path} {params}"
        statuses = [answer(b, "carol", *p)[0] for p in probes("carol")]
    assert statuses == [404, 404, 404, 404, 200, 200, 200, 403, 404, 200, 200, 200, 200, 200, 404, 200, 200, 404]

    with server.client(alpha) as a:  # alpha's t1 was never touched
        assert len(a.get("/v1/users/alice/threads/t1/messages", params={"last": 100}).json()["messages"]) == 12
