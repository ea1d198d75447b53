"""Issue #22, item 3: another agent's thread is indistinguishable from a free id.

Each agent has its own thread ids, so agent beta's ``t1`` is another thread than agent
alpha's ``t1``. The probe runs the same requests as beta in two worlds that differ only
in whether alpha holds a thread ``t1`` (with messages, a summary and message ``m0``),
with the clocks set to the same instant, and requires every answer to be the same:
status, headers and body, on every thread route (append and replay, the window, one
message, the summary, the thread list, delete, message search excluding the thread,
long-term summaries of the thread, and naming alpha's thread through ``agentId``).
On the embedded store and on DynamoDB (moto server).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from engram.container import Engram, set_engram
from engram.domain.models import Role

from tests.integration.conftest import Api
from tests.support import ManualClock, engram_for

USER = "/v1/users/alice"
PROBE_AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
# Headers that name the request or the moment, never the data.
PER_REQUEST_HEADERS = {"date", "x-request-id", "x-amzn-requestid", "server-timing"}

World = Callable[[str], tuple[Api, ManualClock]]


def _sqlite(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    def make(name: str) -> tuple[Api, ManualClock]:
        clock = ManualClock()
        engram = engram_for(tmp_path / name, clock=clock, extraction_worker="inline")
        return Api(engram), clock

    return make


def _dynamodb(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    from engram.adapters.dynamodb import DynamoStore, create_table

    from tests.moto_server import dynamodb_client, fresh_table_name, moto_endpoint, stop_moto

    endpoint = moto_endpoint()
    request.session.config.add_cleanup(stop_moto)
    ddb = dynamodb_client(endpoint)

    def make(name: str) -> tuple[Api, ManualClock]:
        table, idem = fresh_table_name(), fresh_table_name("idempotency")
        create_table(ddb, table)
        ddb.create_table(
            TableName=idem,
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        )
        for t in (table, idem):
            request.addfinalizer(lambda t=t: ddb.delete_table(TableName=t))
        clock = ManualClock()
        store = DynamoStore(ddb, table)
        engram = engram_for(
            tmp_path / name, store=store, clock=clock, idempotency_table=idem, extraction_worker="inline"
        )
        return Api(engram), clock

    return make


@pytest.fixture(params=["sqlite", "dynamodb"])
def worlds(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield {"sqlite": _sqlite, "dynamodb": _dynamodb}[request.param](request, tmp_path)
    set_engram(None)


def _use(api: Api) -> Engram:
    set_engram(api.engram)
    return api.engram


def _seed(api: Api, alpha_thread: str) -> None:
    """Alpha's conversation: twelve turns (a summary is made at ten) under ``alpha_thread``."""
    _use(api)
    alpha = api.key("acme", "alpha")
    turns = [
        {"id": f"m{i}", "role": "user", "content": f"I live in Oslo and I like sport number {i}"} for i in range(12)
    ]
    r = api.call("POST", f"{USER}/threads/{alpha_thread}/messages", alpha, json_body={"messages": turns})
    assert r.status == 200, r.body
    assert api.call("GET", f"{USER}/threads/{alpha_thread}/summary", alpha).status == 200


PROBES: list[tuple[str, str, str, Any]] = [
    ("GET", f"{USER}/threads/t1/messages", "", None),
    ("GET", f"{USER}/threads/t1/messages", "last=5&tokenBudget=100", None),
    ("GET", f"{USER}/threads/t1/messages/m0", "", None),
    ("GET", f"{USER}/threads/t1/summary", "", None),
    ("GET", f"{USER}/threads", "", None),
    ("GET", f"{USER}/messages/search", "q=Oslo%20sport&excludeThreadId=t1", None),
    ("GET", f"{USER}/long-term-memory", "memoryType=summaries&threadId=t1", None),
    ("GET", f"{USER}/threads/t1/messages", "agentId=alpha", None),  # naming alpha: 403 in both worlds
    ("GET", f"{USER}/threads/t1/summary", "agentId=nobody", None),
    ("DELETE", f"{USER}/threads/t1", "", None),
    ("POST", f"{USER}/threads/t1/messages", "", {"messages": [{"id": "m0", "role": "user", "content": "hello"}]}),
    ("POST", f"{USER}/threads/t1/messages", "", {"messages": [{"id": "m0", "role": "user", "content": "hello"}]}),
    ("POST", f"{USER}/threads/t1/messages", "", {"messages": [{"id": "m1", "role": "assistant", "content": "hi"}]}),
    ("GET", f"{USER}/threads/t1/messages", "", None),
    ("GET", f"{USER}/threads/t1/messages/m0", "", None),
    ("GET", f"{USER}/threads/t1/messages/m5", "", None),
    ("GET", f"{USER}/threads/t1/summary", "", None),
    ("GET", f"{USER}/threads", "", None),
    ("GET", f"{USER}/long-term-memory", "memoryType=summaries&threadId=t1", None),
    ("DELETE", f"{USER}/threads/t1", "", None),
    ("GET", f"{USER}/threads/t1/messages", "", None),
]


def _answers(api: Api, clock: ManualClock) -> list[tuple[int, dict[str, str], Any]]:
    _use(api)
    beta = api.key("acme", "beta")
    clock.set(PROBE_AT)
    out = []
    for method, path, query, body in PROBES:
        r = api.call(method, path, beta, query=query, json_body=body)
        headers = {k.lower(): v for k, v in r.headers.items() if k.lower() not in PER_REQUEST_HEADERS}
        out.append((r.status, headers, r.json() if r.body else None))
    return out


def test_another_agents_thread_answers_exactly_as_a_free_id(worlds: World) -> None:
    taken, taken_clock = worlds("taken")
    free, free_clock = worlds("free")
    _seed(taken, "t1")  # alpha holds t1
    _seed(free, "elsewhere")  # alpha holds another thread; t1 is free

    seen_taken = _answers(taken, taken_clock)
    seen_free = _answers(free, free_clock)

    for probe, a, b in zip(PROBES, seen_taken, seen_free, strict=True):
        assert a == b, f"{probe[0]} {probe[1]}?{probe[2]} answers differently for another agent's thread"
    statuses = [s for s, _, _ in seen_taken]
    assert statuses[:10] == [404, 404, 404, 404, 200, 200, 200, 403, 403, 404]  # beta has no t1 yet
    assert statuses[10:] == [200, 200, 200, 200, 200, 404, 404, 200, 200, 200, 404]  # then its own
    # Beta's own t1 is its own: alpha's messages and summary were never in its answers.
    window = seen_taken[13][2]
    assert [m["content"] for m in window["messages"]] == ["hello", "hi"]
    assert window["thread"]["agentId"] == "beta" and window["summary"] is None


def test_alphas_thread_is_untouched_and_an_admin_reads_either(worlds: World) -> None:
    api, _ = worlds("one")
    _seed(api, "t1")
    beta = api.key("acme", "beta")
    admin = api.key("acme", "ops", Role.ADMIN)
    alpha = api.key("acme", "alpha")
    say = {"messages": [{"id": "m0", "role": "user", "content": "beta's hello"}]}
    assert api.call("POST", f"{USER}/threads/t1/messages", beta, json_body=say).json()["created"] == ["m0"]
    assert api.call("DELETE", f"{USER}/threads/t1", beta).status == 200
    # Alpha's thread of the same id kept every message and its summary.
    mine = api.call("GET", f"{USER}/threads/t1/messages", alpha, query="last=100").json()
    assert len(mine["messages"]) == 12 and mine["summary"] is not None
    assert api.call("GET", f"{USER}/threads/t1/messages/m0", alpha).json()["content"].startswith("I live in Oslo")
    # An admin names whose thread it reads; its own by default (it has none).
    assert api.call("GET", f"{USER}/threads/t1/messages", admin).status == 404
    assert api.call("GET", f"{USER}/threads/t1/messages", admin, query="agentId=alpha").status == 200
    listed = api.call("GET", f"{USER}/threads", admin).json()["items"]
    assert [(t["agentId"], t["threadId"]) for t in listed] == [("alpha", "t1")]
