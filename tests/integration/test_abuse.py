"""Abusive or odd input is refused cleanly: nesting, huge bodies, unicode in keys, rates."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from engram.api.limits import json_depth_exceeds

from tests.integration.conftest import Api

BASE = "/v1/users/alice/memories"


@pytest.mark.parametrize(
    "body",
    [
        "[" * 50_000 + "]" * 50_000,
        '{"key":"k","value":"v","statement":' + '{"a":' * 5000 + "1" + "}" * 5000 + "}",
    ],
)
def test_deeply_nested_json_is_400_not_a_crash(api: Api, body: str) -> None:
    reply = api.call("PUT", BASE, api.key("acme", "a"), body=body)
    assert reply.status == 400
    assert reply.json()["code"] == "too_deeply_nested"


def test_depth_scan_ignores_brackets_inside_strings() -> None:
    assert not json_depth_exceeds(json.dumps({"value": "[" * 100}))
    assert not json_depth_exceeds(json.dumps({"value": '\\"[[[[' * 50}))
    assert json_depth_exceeds("[" * 33 + "]" * 33)
    assert not json_depth_exceeds("[" * 32 + "]" * 32)


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("café", "café"),
        ("e\u0301", "é"),  # combining accent: NFKC makes it one character
        ("ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("  padded  ", "padded"),
        ("emoji_🎉", "emoji_🎉"),
        ("日本語のキー", "日本語のキー"),
    ],
)
def test_keys_are_normalised_and_found_by_any_spelling(api: Api, raw: str, stored: str) -> None:
    key = api.key("acme", "a")
    reply = api.call("PUT", BASE, key, json_body={"key": raw, "value": "v"})
    assert reply.status == 200, reply.body
    assert reply.json()["entry"]["key"] == stored
    found = api.call("GET", f"{BASE}/key/{quote(raw, safe='')}", key).json()["items"]
    assert [e["key"] for e in found] == [stored]
    again = api.call("PUT", BASE, key, json_body={"key": stored, "value": "v"}).json()
    assert again["outcome"] == "reinforced"


@pytest.mark.parametrize(
    "raw",
    ["rtl_\u202eevil", "zero\u200bwidth", "nul\x00byte", "tab\tkey", "bell\x07", "private\ue000use", "a/b", " \u200b "],
)
def test_keys_with_invisible_characters_or_slashes_are_refused(api: Api, raw: str) -> None:
    reply = api.call("PUT", BASE, api.key("acme", "a"), json_body={"key": raw, "value": "v"})
    assert reply.status == 422, reply.body
    assert reply.json()["code"] == "validation_error"


def test_lone_surrogates_are_refused(api: Api) -> None:
    reply = api.call("PUT", BASE, api.key("acme", "a"), body='{"key": "\\ud83d", "value": "v"}')
    assert reply.status == 422


def test_values_keep_any_unicode(api: Api) -> None:
    value = "Zoë 👩‍💻 \u202e שלום مرحبا 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"
    entry = api.call("PUT", BASE, api.key("acme", "a"), json_body={"key": "motto", "value": value}).json()["entry"]
    assert entry["value"] == value


def test_per_key_request_rate_is_limited_locally(api: Api) -> None:
    api.engram.settings.requests_per_second_per_key = 5
    key = api.key("acme", "a")
    statuses = [api.call("GET", f"{BASE}/count", key).status for _ in range(20)]
    assert statuses.count(429) >= 10
    assert statuses[0] == 200
    other = api.key("acme", "b")
    assert api.call("GET", f"{BASE}/count", other).status == 200


def test_non_utf8_body_is_400(api: Api) -> None:
    reply = api.call("PUT", BASE, api.key("acme", "a"), body=b'{"key": "\xff"}')
    assert reply.status == 400
    assert reply.json()["code"] == "invalid_encoding"
