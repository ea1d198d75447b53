"""A conversation as a user has it, over HTTP through the handler: ordinary messages full of
numbers, codes and pins are stored as written, with their agent's trace; the secrets among
them are redacted (messages) or refused (memory entries). Before no_access.py the trace's
{"pin": 7} and {"code": 1003} were redacted and several of these messages lost a number or
a whole sentence."""

from __future__ import annotations

from typing import Any

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
