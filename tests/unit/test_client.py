"""The Python client against a scripted transport: retries, idempotency keys, errors, pages."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from engram_memory_client import (
    APIError,
    AsyncEngramClient,
    AuthenticationError,
    ConflictError,
    ConnectionFailed,
    EngramClient,
    GuardrailError,
    InvalidRequest,
    NotFoundError,
    PermissionDenied,
    RateLimitError,
    RetryPolicy,
    SensitiveDataError,
    ServerError,
    ServiceUnavailable,
)

KEY = "egm_0123456789abcdef_" + "a" * 43
ENTRY = {
    "id": "mem_0123456789abcdef01234567",
    "userId": "alice",
    "key": "favorite_color",
    "value": "blue",
    "category": "preference",
    "visibility": "self",
    "sourceAgentId": "alpha",
    "groupIds": [],
    "importance": 50,
    "confidence": 1.0,
    "status": "active",
    "conflicted": False,
    "accessCount": 0,
    "createdAt": "2026-01-15T10:30:00.000000Z",
    "updatedAt": "2026-01-15T10:30:00.000000Z",
    "version": 1,
}
OUTCOME = {"outcome": "created", "entry": ENTRY, "previousId": None, "evictedIds": []}


def error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        status, json={"code": code, "message": f"{code} happened", "details": {"x": 1}}, headers=headers
    )


class Script:
    """Answers requests from a list, recording what was sent."""

    def __init__(self, *answers: httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            return answer(request)
        return answer


def client(script: Script, sleeps: list[float] | None = None, retries: int = 3) -> EngramClient:
    record = sleeps if sleeps is not None else []
    return EngramClient(
        "http://engram.test/",
        KEY,
        retry=RetryPolicy(max_retries=retries, base_delay=0.1, max_delay=2.0),
        http_client=httpx.Client(transport=httpx.MockTransport(script)),
        sleep=record.append,
    )


def test_given_a_write_when_sent_then_it_carries_the_key_a_turn_id_and_an_idempotency_key() -> None:
    script = Script(httpx.Response(200, json=OUTCOME))
    outcome = client(script).remember("alice", "favorite_color", "blue", category="preference", turn_id="turn-1")
    assert outcome.entry.key == "favorite_color"
    [sent] = script.requests
    assert sent.method == "PUT"
    assert sent.url.path == "/v1/users/alice/memories"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.headers["engram-turn-id"] == "turn-1"
    assert len(sent.headers["idempotency-key"]) == 32
    assert json.loads(sent.content) == {
        "key": "favorite_color",
        "value": "blue",
        "category": "preference",
    }


def test_given_a_read_when_sent_then_it_has_no_idempotency_key() -> None:
    script = Script(httpx.Response(200, json={"count": 3}))
    assert client(script).count_memories("alice").count == 3
    assert "idempotency-key" not in script.requests[0].headers


@pytest.mark.parametrize(
    "transient",
    [
        error(503, "store_unavailable"),
        error(500, "internal_error"),
        error(502, "bad_gateway"),
        error(429, "rate_limited"),
        httpx.ConnectError("connection refused"),
        httpx.ReadTimeout("timed out"),
    ],
)
def test_given_a_transient_failure_when_writing_then_it_retries_with_the_same_idempotency_key(transient: Any) -> None:
    sleeps: list[float] = []
    script = Script(transient, transient, httpx.Response(200, json=OUTCOME))
    assert client(script, sleeps).remember("alice", "k", "v").outcome == "created"
    keys = {r.headers["idempotency-key"] for r in script.requests}
    assert len(script.requests) == 3 and len(keys) == 1
    assert len(sleeps) == 2 and all(0 <= s <= 2.0 for s in sleeps)


def test_given_retry_after_when_rate_limited_then_the_client_waits_that_long() -> None:
    sleeps: list[float] = []
    script = Script(error(429, "rate_limited", {"Retry-After": "1.5"}), httpx.Response(200, json={"count": 1}))
    assert client(script, sleeps).count_memories("alice").count == 1
    assert sleeps == [1.5]


def test_given_too_many_writes_when_rejected_then_it_is_not_retried() -> None:
    script = Script(error(429, "too_many_writes"))
    with pytest.raises(GuardrailError) as err:
        client(script).remember("alice", "k", "v", turn_id="t")
    assert len(script.requests) == 1
    assert (err.value.status, err.value.code, err.value.details) == (429, "too_many_writes", {"x": 1})


def test_given_a_persistent_outage_when_retries_run_out_then_the_last_error_is_raised() -> None:
    sleeps: list[float] = []
    script = Script(*[error(503, "throttled")] * 3)
    with pytest.raises(ServiceUnavailable) as err:
        client(script, sleeps, retries=2).count_memories("alice")
    assert err.value.code == "throttled" and len(script.requests) == 3 and len(sleeps) == 2


def test_given_rate_limiting_that_persists_when_retries_run_out_then_rate_limit_error() -> None:
    script = Script(*[error(429, "rate_limited")] * 2)
    with pytest.raises(RateLimitError):
        client(script, retries=1).count_memories("alice")
    assert len(script.requests) == 2


def test_given_no_server_when_retries_run_out_then_connection_failed() -> None:
    script = Script(*[httpx.ConnectError("refused")] * 2)
    with pytest.raises(ConnectionFailed):
        client(script, retries=1).health()


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (401, "unauthenticated", AuthenticationError),
        (403, "forbidden", PermissionDenied),
        (403, "memory_disabled", PermissionDenied),
        (403, "tool_not_allowed", PermissionDenied),
        (404, "not_found", NotFoundError),
        (404, "route_not_found", NotFoundError),
        (422, "validation_error", InvalidRequest),
        (400, "malformed_json", InvalidRequest),
        (400, "confirmation_required", InvalidRequest),
        (422, "key_too_long", GuardrailError),
        (422, "category_not_allowed", GuardrailError),
        (422, "sensitive_data", SensitiveDataError),
        (409, "capacity_reached", ConflictError),
        (409, "version_conflict", ConflictError),
        (409, "something_new", ConflictError),
    ],
)
def test_given_an_error_response_when_raised_then_its_class_matches_the_code_family(
    status: int, code: str, cls: type[APIError]
) -> None:
    with pytest.raises(cls) as err:
        client(Script(error(status, code))).get_memory("alice", "mem_0123456789abcdef01234567")
    assert (err.value.status, err.value.code, err.value.message) == (status, code, f"{code} happened")


def test_given_a_non_json_error_when_raised_then_it_still_has_a_status_and_code() -> None:
    with pytest.raises(ServerError) as err:
        client(Script(*[httpx.Response(500, text="upstream exploded")] * 4)).count_memories("alice")
    assert err.value.code == "http_500" and "upstream exploded" in err.value.message


def test_given_three_pages_when_iterating_then_every_entry_comes_once_following_next_cursor() -> None:
    def page(n: int, cursor: str | None) -> Callable[[httpx.Request], httpx.Response]:
        def answer(request: httpx.Request) -> httpx.Response:
            assert request.url.params.get("cursor") == (None if n == 0 else f"c{n}")
            assert request.url.params["limit"] == "2"
            items = [{**ENTRY, "id": f"mem_{n:012d}{i:012d}"} for i in range(2 if cursor else 1)]
            return httpx.Response(200, json={"items": items, "nextCursor": cursor})

        return answer

    script = Script(page(0, "c1"), page(1, "c2"), page(2, None))
    ids = [e.id for e in client(script).iter_memories("alice", limit=2)]
    assert len(ids) == 5 and len(set(ids)) == 5


def test_given_a_newer_server_when_it_adds_fields_then_the_client_ignores_them() -> None:
    script = Script(httpx.Response(200, json={**ENTRY, "brandNewField": True}))
    assert client(script).get_memory("alice", ENTRY["id"]).value == "blue"


def test_given_keys_with_slashes_when_addressed_then_the_path_segment_is_escaped() -> None:
    script = Script(httpx.Response(200, json={"items": []}))
    client(script).memories_by_key("alice", "a/b c")
    assert script.requests[0].url.raw_path == b"/v1/users/alice/memories/key/a%2Fb%20c"


def test_given_an_sdk_tool_call_object_when_executed_then_it_is_sent_as_json() -> None:
    from pydantic import BaseModel

    class ToolUseBlock(BaseModel):  # what the Anthropic SDK returns
        type: str = "tool_use"
        id: str = "toolu_1"
        name: str = "recallMemories"
        input: dict[str, Any] = {}

    answer = {
        "name": "recallMemories",
        "toolCallId": "toolu_1",
        "format": "anthropic",
        "isError": False,
        "text": "x",
        "result": {"type": "tool_result", "tool_use_id": "toolu_1", "content": "x"},
    }
    script = Script(httpx.Response(200, json=answer))
    turn = client(script).turn("alice", conversation_id="conv-1")
    assert turn.results([ToolUseBlock()]) == [answer["result"]]
    sent = script.requests[0]
    assert sent.headers["engram-turn-id"] == turn.turn_id
    assert json.loads(sent.content) == {
        "toolCall": {"type": "tool_use", "id": "toolu_1", "name": "recallMemories", "input": {}},
        "conversationId": "conv-1",
    }


def test_given_the_async_client_when_it_retries_and_pages_then_it_behaves_like_the_sync_one() -> None:
    sleeps: list[float] = []

    async def record(delay: float) -> None:
        sleeps.append(delay)

    pages = [
        error(503, "store_unavailable"),
        httpx.Response(200, json={"items": [ENTRY], "nextCursor": "c1"}),
        httpx.Response(200, json={"items": [{**ENTRY, "id": "mem_" + "1" * 24}], "nextCursor": None}),
        error(401, "unauthenticated"),
    ]

    async def answer(request: httpx.Request) -> httpx.Response:
        return pages.pop(0)

    async def main() -> None:
        async with AsyncEngramClient(
            "http://engram.test",
            KEY,
            retry=RetryPolicy(base_delay=0.01),
            http_client=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
            sleep=record,
        ) as engram:
            ids = [e.id async for e in engram.iter_visible("alice")]
            assert ids == [ENTRY["id"], "mem_" + "1" * 24]
            with pytest.raises(AuthenticationError):
                await engram.count_memories("alice")

    asyncio.run(main())
    assert len(sleeps) == 1


def test_given_bad_fields_when_building_a_write_then_it_fails_before_sending() -> None:
    from pydantic import ValidationError

    script = Script()
    with pytest.raises(ValidationError):
        client(script).remember("alice", "k", "v", visibility="everyone")
    assert script.requests == []


def test_given_a_patch_when_a_field_is_none_then_it_is_sent_as_null_and_unset_fields_are_not_sent() -> None:
    answer = {"userId": "alice", "memoryEnabled": True, "retentionDays": None}
    script = Script(httpx.Response(200, json=answer))
    client(script).patch_settings("alice", retention_days=None)
    assert json.loads(script.requests[0].content) == {"retentionDays": None}
    assert script.requests[0].method == "PATCH"
