"""Secrets the rules missed or refused in held-out F (development data since session 18m),
the other parts' same families, and the same families written anew, with look-alikes that
must pass. The rules are tested apart from the learned stage."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


# -- a user name and a password written as a pair, with no word before them -----------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("ssh in as ubuntu / Kestrel#Moor42 until the keys are set up", ""),
        ("the NAS is at 192.168.1.20, j.weber / Fichte-Wald!19", ""),
        ("ebay: maya_k91 / Lantern7Harbor, the 2fa is on my phone", ""),
        ("camera app (c.lund@example.org / Snowdrop*2025) for the baby monitor", ""),
        ("pi / Raspberry-Jam42", "garage_pi"),
        ("postgres:Tundra!Vole-88@db.internal:5432", ""),
        ("echo 'sa:Quokka#Island9' | chpasswd", ""),
    ],
)
def test_a_user_and_password_pair_is_a_secret(text: str, key: str) -> None:
    assert _rules(text, key) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "speed limit 30 km / h in town, 100 km / h on the A7",
        "we upgraded node18 / Python3.12 on the build boxes",
        "compare iphone15 / Galaxy-S24 before buying",
        "timezone is Europe / Berlin for the meeting",
        "the ratio was 50 / 50 in the end",
        "read / write access for the team, ask Ops",
        "root:x:0:0:root:/root:/bin/bash",
        "see src / main / java for the code",
        "v1.2.3 / v1.2.4-beta both failed the smoke test",
        "open youtube.com/watch?v=xa46D1MheGY later",
    ],
)
def test_look_alikes_of_a_pair_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text", ["networks: HomeNet / HomeNet_Guest5", "Tesla / Model-Y-Performance", "me / Everyone-Else!"]
)
def test_two_names_joined_by_a_slash_are_no_pair(text: str) -> None:
    assert _rules(text) is None
