"""Requests handled at the same time by one process never see each other's caller, body or answer.

``engram serve`` runs the API handler in a thread pool, so these tests call it from many
threads at once, as the server does. The full suite over HTTP, every route family and
``--workers 2`` is tests/e2e/test_isolation_under_load.py; this one is the quick guard.
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from engram.api.auth import bound_principal, current_principal
from engram.api.auth import principal_context as authorizer_context
from engram.domain.errors import Unauthenticated
from engram.domain.models import Principal, Role

from tests.integration.conftest import Api

TENANTS = ("acme", "globex")
THREADS = 16
ROUNDS = 12


def test_given_two_tenants_writing_at_once_when_answers_come_back_then_each_is_its_own(api: Api) -> None:
    # Given a writer in each of two tenants, and the rate limit out of the way
    api.engram.settings.requests_per_second_per_key = 1_000_000
    keys = {t: api.key(t, "agent") for t in TENANTS}
    start = threading.Barrier(THREADS)

    def client(n: int) -> list[str]:
        tenant = TENANTS[n % 2]
        user = f"user-{tenant}-{n}"
        problems = []
        start.wait()
        for i in range(ROUNDS):
            mine = f"k-{n}-{i}"
            # Half the writes carry an Idempotency-Key, as the Python client's do.
            headers = {"Idempotency-Key": uuid.uuid4().hex} if i % 2 else {}
            put = api.call(
                "PUT",
                f"/v1/users/{user}/memories",
                keys[tenant],
                json_body={"key": mine, "value": f"value of {tenant} {n} {i}"},
                headers=headers,
            )
            if put.status != 200:
                problems.append(f"PUT {mine}: {put.status} {put.body[:200]!r}")
                continue
            entry = put.json()["entry"]
            if (entry["userId"], entry["key"], entry["value"]) != (user, mine, f"value of {tenant} {n} {i}"):
                problems.append(f"PUT {mine} answered with {entry['userId']}/{entry['key']}")
            got = api.call("GET", f"/v1/users/{user}/memories/key/{mine}", keys[tenant])
            items = got.json().get("items", []) if got.status == 200 else []
            if [e["key"] for e in items] != [mine] or items[0]["userId"] != user:
                problems.append(f"GET {mine}: {got.status} {[(e['userId'], e['key']) for e in items]}")
        return problems

    # When sixteen clients write and read back at the same time
    with ThreadPoolExecutor(THREADS) as pool:
        problems = [p for found in pool.map(client, range(THREADS)) for p in found]

    # Then every answer is about its own caller's request, and every write is there
    assert problems == []
    for n in range(THREADS):
        tenant = TENANTS[n % 2]
        count = api.call("GET", f"/v1/users/user-{tenant}-{n}/memories/count", keys[tenant]).json()["count"]
        assert count == ROUNDS
        other = TENANTS[(n + 1) % 2]
        # The other tenant's writer sees nothing of this user.
        assert api.call("GET", f"/v1/users/user-{tenant}-{n}/memories/count", keys[other]).json()["count"] == 0


def test_the_caller_is_bound_to_the_request_and_gone_after_it() -> None:
    acme = Principal("acme", "a", frozenset({Role.WRITER}))
    event = {"requestContext": {"authorizer": authorizer_context(acme)}}
    with bound_principal(event) as bound:
        assert bound == acme
        assert current_principal() == acme
    with pytest.raises(Unauthenticated):
        current_principal()
    with bound_principal({"requestContext": {}}) as bound:  # a public route: no caller
        assert bound is None
        with pytest.raises(Unauthenticated):
            current_principal()


def test_a_thread_never_sees_the_caller_another_thread_bound() -> None:
    seen: list[str] = []
    inside = threading.Event()
    leave = threading.Event()

    def request() -> None:
        acme = Principal("acme", "a", frozenset({Role.WRITER}))
        with bound_principal({"requestContext": {"authorizer": authorizer_context(acme)}}):
            inside.set()
            leave.wait(5)

    t = threading.Thread(target=request)
    t.start()
    assert inside.wait(5)
    try:
        current_principal()
    except Unauthenticated:
        seen.append("unauthenticated")
    leave.set()
    t.join()
    assert seen == ["unauthenticated"]
