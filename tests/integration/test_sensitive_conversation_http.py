"""A conversation as a user has it, over HTTP through the handler: ordinary messages full of
numbers, codes and pins are stored as written, with their agent's trace; the secrets among
them are redacted (messages) or refused (memory entries). Before no_access.py the trace's
{"pin": 7} and {"code": 1003} were redacted and several of these messages lost a number or
a whole sentence."""

from __future__ import annotations

from typing import Any

from engram.domain.sensitive import find_sensitive

from tests.integration.conftest import Api

USER = "ines"
BASE = f"/v1/users/{USER}"

ORDINARY: list[tuple[str, dict[str, Any]]] = [
    ("The API kept returning status code 503 this morning, then 429, and after the deploy 200 again.", {}),
    ("Our area code is 415 and the zip code is 94110, the office moves to floor 12 in May.", {}),
    ("Connect the sensor to pin 7 and ground to pin 9; the LED goes on pin 13.", {"pin": 7, "board": "uno"}),
    ("Weather for Lisbon: partly cloudy.", {"tool": "weather", "code": 1003, "temp_c": 21}),
    ("The container exited again.", {"exit_code": 137, "status_code": 4821, "attempt": 3}),
    ("The HS code for the mugs is 6912.00 and our SIC code is 5719.", {}),
    ("My locker at the gym is number 4821, next to the showers.", {"locker_number": 4821}),
    ("the status code was four oh four, then it worked", {}),
]
SECRET: list[tuple[str, dict[str, Any], str]] = [
    ("The alarm code is 4821, disarm it before 7.", {}, "4821"),
    ("my bank pin is four eight two one", {}, "four eight two one"),
    ("Paid.", {"tool": "checkout", "pin": "0852"}, "0852"),
    ("The wifi password is Kelp_Harbor_19, the router is in the hall.", {}, "Kelp_Harbor_19"),
]


def _send(api: Api, key: str, thread: str, messages: list[dict[str, Any]]) -> None:
    reply = api.call("POST", f"{BASE}/threads/{thread}/messages", key, json_body={"messages": messages})
    assert reply.status == 200, reply.body
    feature = api.engram.conversation
    assert feature is not None and feature.worker is not None
    assert feature.worker.wait_idle(10)


def test_a_conversation_keeps_ordinary_numbers_and_redacts_secrets(api: Api) -> None:
    writer = api.key("acme", "assistant")
    messages = [
        {"id": f"o{i}", "content": content, "metadata": metadata} for i, (content, metadata) in enumerate(ORDINARY)
    ]
    messages += [
        {"id": f"s{i}", "content": content, "metadata": metadata} for i, (content, metadata, _) in enumerate(SECRET)
    ]
    _send(api, writer, "t1", messages)
    for i, (content, metadata) in enumerate(ORDINARY):
        stored = api.call("GET", f"{BASE}/threads/t1/messages/o{i}", writer).json()
        assert stored["content"] == content
        assert stored["metadata"] == metadata
    for i, (_, _, value) in enumerate(SECRET):
        reply = api.call("GET", f"{BASE}/threads/t1/messages/s{i}", writer)
        assert "[redacted]" in reply.body.decode()
        assert value not in reply.body.decode()


def test_memory_entries_of_numbers_that_open_nothing_are_stored_and_pins_refused(api: Api) -> None:
    writer = api.key("acme", "assistant")
    for key, value in (("code", "1003"), ("gpio_pin", "17"), ("locker_number", "4821"), ("area_code", "415")):
        reply = api.call("PUT", f"{BASE}/memories", writer, json_body={"key": key, "value": value})
        assert reply.status in (200, 201), (key, reply.body)
    for key, value in (("pin", "4821"), ("door_code", "4821"), ("alarm", "the alarm code is 4821")):
        reply = api.call("PUT", f"{BASE}/memories", writer, json_body={"key": key, "value": value})
        assert reply.status == 422, (key, reply.body)
        assert reply.json()["details"]["rule"] == "secret"


def _log(lines: int) -> str:
    # one clause (no stop, comma or line break), as a pasted log line or a tool's output is
    fields = [
        f"user=user{i} status=ok latency_ms={i % 97} path=/api/items/{i} cache=miss region=eu" for i in range(lines)
    ]
    fields.insert(lines // 2, "password=Kiwi!Fruit7")
    return " ".join(fields)


def test_a_message_and_its_trace_lose_the_secret_not_the_text_around_it(api: Api) -> None:
    # Before, a clause a rule matched was replaced whole: the dog went with the password, and
    # a 33,000-character log with one password=... was stored as "[redacted]".
    writer = api.key("acme", "assistant")
    sentence = "the wifi password is violet-Sunshine42 and the dog is Rex"
    log = _log(400)
    assert 30_000 < len(log) <= 32_000  # the longest content a message may have
    messages = [
        {"id": "w", "content": sentence},
        {"id": "l", "content": log},
        {"id": "t", "content": "Ran the tool.", "metadata": {"tool": "shell", "stdout": log, "note": sentence}},
    ]
    _send(api, writer, "t2", messages)
    kept_log = log.replace("password=Kiwi!Fruit7", "password=[redacted]")
    kept_sentence = "the wifi password is [redacted] and the dog is Rex"
    stored = {m["id"]: api.call("GET", f"{BASE}/threads/t2/messages/{m['id']}", writer) for m in messages}
    assert stored["w"].json()["content"] == kept_sentence
    assert stored["l"].json()["content"] == kept_log
    trace = stored["t"].json()["metadata"]
    assert trace == {"tool": "shell", "stdout": kept_log, "note": kept_sentence}
    for reply in stored.values():
        assert "Sunshine42" not in reply.body.decode() and "Kiwi" not in reply.body.decode()
        assert find_sensitive(reply.json()["content"]) is None
    assert all(find_sensitive(value) is None for value in trace.values())
