"""Known defects of the sensitive filter (18z, session s8), each a family tested with unseen
variants in several languages and the look-alikes that must keep their verdict."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. An aside saying when a code may be needed, between its word and its value, is not the
# case the code's trouble was filed under.
_CODE_AFTER_AN_ASIDE = [
    "the OTP, in case you need it, is 482913",
    "the one-time code, just in case, is 771204",
    "the PIN, in any case, is 4821",
    "the verification code, in case the app asks again, is 551203",
    "the TAN (in case the bank asks) is 482913",
    "the passcode, if you need it, is 9035",
    "Die TAN, für alle Fälle, ist 663018",
    "el código de verificación, por si acaso, es 551203",
    "de verificatiecode, voor de zekerheid, is 220617",
]
_FILED_OR_NO_CODE = [
    "OTP issue filed as case 55123",
    "the OTP never arrived, in case 55123 was filed with support",
    "the OTP, in case 55123, never arrived",
    "the OTP, just in case you wondered, expires in 10 minutes",
    "the PIN, in case you forget it, can be reset at any branch",
]


@pytest.mark.parametrize("text", _CODE_AFTER_AN_ASIDE)
def test_a_code_after_an_aside_about_when_it_is_needed_is_found(text: str) -> None:
    assert find_by_rules(text) is not None
    assert find_sensitive(text) is not None


def test_a_code_next_to_a_filed_case_is_still_found() -> None:
    assert find_by_rules("the OTP for case 12345 is 482913") is not None


@pytest.mark.parametrize("text", _FILED_OR_NO_CODE)
def test_a_filed_case_or_an_aside_without_a_code_passes(text: str) -> None:
    assert find_sensitive(text) is None
