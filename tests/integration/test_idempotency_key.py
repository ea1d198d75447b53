"""A write retried with the same Idempotency-Key applies once and replays its answer."""

from __future__ import annotations

from engram.service.memory import MemoryService

from tests.integration.conftest import Api

BASE = "/v1/users/alice/memories"


def _put(api: Api, key: str, idem: str | None, value: str = "blue") -> object:
    headers = {"Idempotency-Key": idem} if idem else {}
    return api.call("PUT", BASE, key, json_body={"key": "color", "value": value}, headers=headers)


def test_given_a_retried_write_when_the_key_repeats_then_it_applies_once(api: Api) -> None:
    key = api.key("acme", "a")
    first = _put(api, key, "req-1")
    again = _put(api, key, "req-1")
    assert first.status == again.status == 200
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert "Idempotent-Replayed" not in first.headers
    entry_id = first.json()["entry"]["id"]
    history = api.call("GET", f"{BASE}/{entry_id}/history", key).json()["items"]
    assert [h["change"] for h in history] == ["created"]  # not "reinforced" by the retry


def test_without_the_header_a_repeat_is_a_new_write(api: Api) -> None:
    key = api.key("acme", "a")
    _put(api, key, None)
    assert _put(api, key, None).json()["outcome"] == "reinforced"


def test_the_same_key_for_a_different_body_is_refused(api: Api) -> None:
    key = api.key("acme", "a")
    _put(api, key, "req-2")
    reply = _put(api, key, "req-2", value="green")
    assert reply.status == 422
    assert reply.json()["code"] == "idempotency_key_reused"


def test_keys_are_per_agent_and_per_tenant(api: Api) -> None:
    a, b, c = api.key("acme", "a"), api.key("acme", "b"), api.key("globex", "a")
    outcomes = [_put(api, k, "same").json()["outcome"] for k in (a, b, c)]
    assert outcomes == ["created", "created", "created"]


def test_a_failed_attempt_is_not_remembered(api: Api, monkeypatch: object) -> None:
    key = api.key("acme", "a")
    bad = api.call(
        "PUT",
        BASE,
        key,
        json_body={"key": "card", "value": "4111 1111 1111 1111"},
        headers={"Idempotency-Key": "req-3"},
    )
    assert bad.status == 422
    assert bad.json()["code"] == "sensitive_data"
    original = MemoryService.upsert

    def flaky(*args: object, **kwargs: object) -> object:
        raise RuntimeError("transient")

    MemoryService.upsert = flaky  # type: ignore[method-assign]
    try:
        assert _put(api, key, "req-4").status == 500
    finally:
        MemoryService.upsert = original  # type: ignore[method-assign]
    retried = _put(api, key, "req-4")
    assert retried.status == 200
    assert retried.json()["outcome"] == "created"
    assert "Idempotent-Replayed" not in retried.headers


def test_invalid_header_is_422(api: Api) -> None:
    reply = _put(api, api.key("acme", "a"), "x" * 300)
    assert reply.status == 422
    assert reply.json()["code"] == "validation_error"
