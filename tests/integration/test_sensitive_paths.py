"""Every path that stores user text applies the one sensitive-data filter.

Refused with 422 ``sensitive_data`` (naming the rule): memory values and statements,
entry keys, legacy properties, block values (set, append, whole documents), profile
name and nickname, the name given to an agent, a proposal's reason and the memory
tools. Redacted and kept: conversation messages, their metadata included (an execution
trace holding a card and a password). Dropped and counted: facts extraction finds.
Then a scan of the raw bytes of every file of the data directory finds none of the
secrets that were sent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import Api

USER = "sam"
BASE = f"/v1/users/{USER}"
SECRETS = (
    *("hunter2", "4111111111111111", "4111 1111 1111 1111", "219099999", "533380006", "Xk9mL2vQ77"),
    # the second session's families: provider keys, connection strings, other languages
    *("AKIAI44QH8DHBEXAMPLE", "Gr4pefruit", "Sonnenblume77", "KCzi2Eg3h0p54qGzTYdXt5yN84Bl3WWWqWibY6PF"),
)

REFUSED: list[tuple[str, str, Any, str]] = [
    ("PUT", "/memories", {"key": "wifi", "value": "pw is hunter2"}, "secret"),
    ("PUT", "/memories", {"key": "note", "value": "ok", "statement": "my ssn is 219099999"}, "government_id"),
    ("PUT", "/memories", {"key": "card_4111111111111111", "value": "visa"}, "payment_card"),
    ("PUT", "/memories", {"key": "passport_number", "value": "533380006"}, "government_id"),
    ("POST", "/memories/batch", {"entries": [{"key": "a", "value": "x"}, {"key": "pw", "value": "hunter2"}]}, "secret"),
    ("PATCH", "/properties", {"properties": {"card": "4111.1111.1111.1111"}}, "payment_card"),
    ("PUT", "/blocks/persona", {"values": {"role": "card 4111 1111 1111 1111"}}, "payment_card"),
    ("PATCH", "/blocks/persona", {"append": {"constraints": ["social security number is 219099999"]}}, "government_id"),
    ("PATCH", "/profile", {"nickname": "pass: Xk9mL2vQ77"}, "secret"),
    ("PATCH", "/profile", {"name": "4111111111111111"}, "payment_card"),
    ("PUT", "/profile/agent-name", {"name": "pw: hunter2"}, "secret"),
    ("PUT", "/memories", {"key": "db", "value": "postgres://app:Gr4pefruit@db.internal/app"}, "secret"),
    ("PUT", "/blocks/persona", {"values": {"role": "deploys with AKIAI44QH8DHBEXAMPLE"}}, "secret"),
    ("PATCH", "/profile", {"nickname": "mein Passwort ist Sonnenblume77"}, "secret"),
    (
        "POST",
        "/proposals",
        {"change": {"type": "entry", "key": "city", "value": "Lisbon"}, "reason": "her pw is hunter2"},
        "secret",
    ),
]


@pytest.mark.parametrize(("method", "path", "body", "rule"), REFUSED, ids=[f"{m} {p}" for m, p, *_ in REFUSED])
def test_paths_that_keep_text_as_given_refuse_it(api: Api, method: str, path: str, body: Any, rule: str) -> None:
    writer = api.key("acme", "coach")
    if path == "/blocks/persona" and method == "PATCH":
        assert api.call("PUT", f"{BASE}/blocks/persona", writer, json_body={"values": {"role": "ok"}}).status == 200
    reply = api.call(method, BASE + path, writer, json_body=body)
    assert reply.status == 422, reply.body
    error = reply.json()
    assert error["code"] == "sensitive_data"
    assert error["details"]["rule"] == rule
    assert not any(s in reply.body.decode() for s in SECRETS), "the refusal must not echo the value"


def _raw_hits(data_dir: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file()):
        raw = path.read_bytes()
        found = [s for s in SECRETS if s.encode() in raw]
        if found:
            out[path.name] = found
    return out


def test_nothing_sent_anywhere_reaches_a_file(api: Api) -> None:
    writer = api.key("acme", "coach")
    for method, path, body, _ in REFUSED:
        api.call(method, BASE + path, writer, json_body=body)
    # The memory tool refuses too, as a tool result the model can read.
    call = {"id": "c1", "type": "function", "function": {"name": "rememberFact"}}
    call["function"]["arguments"] = json.dumps({"key": "door", "value": "pw is hunter2", "category": "fact"})
    tool = api.call("POST", f"{BASE}/tools/execute", writer, json_body={"toolCall": call}).json()
    assert tool["isError"] is True and tool["error"]["code"] == "sensitive_data"
    # Messages are kept, redacted: the content and the execution trace in the metadata.
    trace = {
        "steps": [{"tool": "checkout", "args": {"card": 4111111111111111, "note": "pw is hunter2"}}],
        "password": "Xk9mL2vQ77",
        "env": "export SERVICE_TOKEN=KCzi2Eg3h0p54qGzTYdXt5yN84Bl3WWWqWibY6PF",
    }
    messages = [
        {"id": "m1", "content": "my social security number is 219099999", "metadata": trace},
        {"id": "m2", "content": "passport number 533380006 and I like tea"},
    ]
    sent = api.call("POST", f"{BASE}/threads/t1/messages", writer, json_body={"messages": messages})
    assert sent.status == 200, sent.body
    feature = api.engram.conversation
    assert feature is not None and feature.worker is not None
    assert feature.worker.wait_idle(10)
    stored = api.call("GET", f"{BASE}/threads/t1/messages/m1", writer)
    assert stored.status == 200
    message = stored.json()
    assert "[redacted]" in message["content"]
    assert message["metadata"]["steps"][0]["args"]["card"] == "[redacted]"
    assert message["metadata"]["password"] == "[redacted]"
    assert message["metadata"]["env"] == "[redacted]"
    assert not any(s in stored.body.decode() for s in SECRETS)
    hits = _raw_hits(Path(api.engram.settings.data_dir))
    assert hits == {}, f"sensitive values reached the data files: {hits}"
