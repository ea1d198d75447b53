"""The learned stage as retrained in session 18x (G1-G3 and H1-H2 added to its training parts).

A wifi network's name stored under a key that says it is the network's name (its SSID) is
what the password opens, not the password: the weights of session 18m refused
"[wifi.cottage.ssid] eir-93KD" and "[wifi.beach_house.ssid] Livebox-91F0" (seen red on main at
4d3bae0; the rules pass them, the model refused them). These are unseen variants, not corpus
lines. The guards: the same family with other names, and a wifi password given beside the
word, which the model must still refuse.
"""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("wifi.cottage.ssid", "eir-93KD"),
        ("wifi.beach_house.ssid", "Livebox-91F0"),
        ("wifi.office.network_name", "TP-Link_8E2F"),
        ("home.wifi_ssid", "NETGEAR-5G-77"),
    ],
)
def test_a_network_name_under_its_key_is_no_secret(key: str, text: str) -> None:
    assert find_sensitive(text, key) is None


@pytest.mark.parametrize(
    "text",
    [
        "wifi at grandma's: BlueHeron_2231",
        "for the router log in with admin and Kestrel-7731 (tell nobody)",
    ],
)
def test_a_password_the_rules_miss_is_still_refused_by_the_model(text: str) -> None:
    assert find_by_rules(text) is None  # the model's own catch, not a rule's
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"
