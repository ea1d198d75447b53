"""Numbers that open nothing are not secrets (docs/security.md: a PIN or a code that grants
access is a secret, a number that grants nothing is not). Each case was refused or
redacted before no_access.py: an agent's trace with a board's pin or an API's status code,
a locker's number, ordinary text about area, zip, HS and status codes, a code named for
what it is and read out digit by digit. The secrets next to them stay secrets."""

from __future__ import annotations

from typing import Any

import pytest
from engram.domain.conversation import redact_metadata, redact_sensitive
from engram.domain.sensitive import find_sensitive


@pytest.mark.parametrize(
    "metadata",
    [
        {"pin": 7},
        {"pin": "13"},
        {"pin": "A0"},
        {"gpio_pin": 17},
        {"led_pin": 13},
        {"pin_mode": 2},
        {"data_pin": 4},
        {"code": 1003},
        {"code": "4821"},
        {"status_code": 4821},
        {"weather_code": 1003},
        {"exit_code": 4821},
        {"close_code": 1006},
        {"sic_code": 5719},
        {"locker_number": 4821},
        {"pin_count": 3},
        {"pin_board": "cork board in the hall"},
        {"favourite_pin": "enamel cat pin"},
    ],
)
def test_a_trace_s_numbers_that_open_nothing_are_kept(metadata: dict[str, Any]) -> None:
    assert redact_metadata(metadata) == (metadata, ())


@pytest.mark.parametrize(
    "metadata",
    [
        {"pin": 4821},
        {"pin": "0852"},
        {"pin": 123},
        {"pin": "four eight two one"},
        {"bank_pin": 4821},
        {"wifi_pin": "x"},
        {"door_code": 4821},
        {"locker_code": 4821},
        {"locker": 4821},
        {"gate_code": "1234#"},
        {"security_code": 123},
        {"verification_code": 482913},
        {"backup_code": 12345678},
        {"code": "4111111111111111"},
        {"error_code": "4111 1111 1111 1111"},
        {"status_code": "my password is hunter2"},
    ],
)
def test_pins_and_codes_that_open_something_stay_redacted(metadata: dict[str, Any]) -> None:
    redacted, rules = redact_metadata(metadata)
    # a value its key names goes whole; a sentence holding one loses the value, not its words
    # ({"status_code": "my password is hunter2"} keeps "my password is [redacted]")
    assert rules and all(v == "[redacted]" or v.endswith(" [redacted]") for v in redacted.values())
    assert all(find_sensitive(v) is None for v in redacted.values())


@pytest.mark.parametrize(
    "text",
    [
        # the learned stage read the number after "code" or "pin" as the thing named
        "Our office dress code is business casual, and the building closes at 7. The area code for the new office"
        " line is 415 and the zip code is 94110.",
        "The HS code for ceramic mugs is 6912.00 and the SIC code for our shop is 5719. The customs form wants both.",
        "The board has 40 pins; connect the sensor to pin 7 and ground to pin 9, the LED goes on pin 13 with a 220"
        " ohm resistor.",
        "use pin 2 and pin 3 for the encoder",
        # a code named for what it is, read out digit by digit
        "the status code was four oh four",
        "my area code is two one two",
        "error code one zero zero three",
        "the zip code is nine four one one zero",
        "the postal code is 1 0 1 1 5",
        "course code 2 1 0 1",
    ],
)
def test_ordinary_text_about_codes_and_pins_is_kept(text: str) -> None:
    assert find_sensitive(text) is None
    assert redact_sensitive(text) == (text, ())


@pytest.mark.parametrize(
    "text",
    [
        "the alarm code is 4821",
        "my pin is four eight two one",
        "the door code is four eight two one",
        "PIN: 0852",
        "pin 4821",
        "bank pin 12 34",
        "the gate code is 2 4 6 8, the area code is 415",
        "status code 200, and the wifi password is Kelp_Harbor_19",
    ],
)
def test_a_code_that_opens_something_is_still_a_secret(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    ("key", "value"),
    [("code", "1003"), ("status_code", "503"), ("pin", "7"), ("gpio_pin", "17"), ("locker_number", "4821")],
)
def test_a_memory_entry_of_such_a_number_is_stored(key: str, value: str) -> None:
    assert find_sensitive(value, key) is None
