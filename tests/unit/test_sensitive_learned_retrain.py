"""The learned stage as retrained in session 18x (G1-G3 and H1-H2 added to its training parts)
and in session 19c (I1, I2, J1, J2 added; what a value is read as, learned_shapes.py).

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


# Session 19c: the learned stage reads what a value is (learned_shapes.py) and is retrained with
# I1, I2, J1 and J2. A login's address or a portal's URL given where a password is named is no
# password: main's weights (18x) refused these two (seen red on main at 69d486f, the model's
# verdict; the rules pass them). Unseen variants, not corpus lines; the guards give a password too.
@pytest.mark.parametrize(
    "text",
    [
        "admin login for the cms: webmaster@lindenhof-bakery.example, password reset goes there",
        "login for the printer portal: https://print.example.org/admin (ask Ines for the password)",
    ],
)
def test_an_address_given_where_a_password_is_named_is_no_secret(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "admin login for the cms: webmaster@lindenhof-bakery.example, password Lindenhof!2024",
        "login for the printer portal: https://print.example.org/admin with the password Tintenfass_88",
        "the password for the garden shed app is Lavender1987",
        "pw for the old laptop = Buttercup_3",
    ],
)
def test_a_password_given_beside_an_address_or_looking_ordinary_is_still_refused(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"
