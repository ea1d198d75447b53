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


# 2. A setting that names where a secret is kept gives no secret: a path, a file's URL or a
# file's name under a key whose last word is a file's or a path's, as a key or in the text.
_WHERE_A_SECRET_IS_KEPT = [
    ("DB_PASSWORD_FILE", "/run/secrets/db_password"),
    ("mysql_root_password_file", "/run/secrets/mysql-root"),
    ("GITHUB_TOKEN_FILE", "~/.config/gh/token"),
    ("jwtSecretFile", "./secrets/jwt.pem"),
    ("SMTP_PASSWORD_FILE", "C:\\secrets\\smtp.txt"),
    ("api_token_filename", "token.txt"),
    ("api_key_filepath", "keys/prod.key"),
    ("TLS_KEY_PATH", "file:///etc/app/tls.key"),
    ("PGPASSFILE", "~/.pgpass"),
]


@pytest.mark.parametrize(("key", "value"), _WHERE_A_SECRET_IS_KEPT)
def test_a_setting_naming_where_a_secret_is_kept_passes(key: str, value: str) -> None:
    assert find_sensitive(value, key) is None
    assert find_sensitive(f"{key}={value}") is None
    assert find_sensitive(f'export {key}="{value}"') is None


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("DB_PASSWORD_FILE", "hunter2!x"),  # no path: the key's word alone does not clear it
        ("zip_file_password", "hunter2.zip"),  # the file's password, not where a password is
        ("api_key_file", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
        ("db_password", "Tr0ub4dor&3/x"),
    ],
)
def test_a_secret_under_a_file_or_secret_key_is_still_found(key: str, value: str) -> None:
    assert find_sensitive(value, key) is not None


# 3. India's postal PIN code with a delivery word: the rules say "a postal PIN code", so the
# learned stage does not read its number either (no_access.without_named_numbers).
@pytest.mark.parametrize(
    "text",
    [
        "delivery pin code 700091 not serviceable",
        "courier to pin code 380015 takes 3 days",
        "parcel stuck, pin code 110092 out of delivery area",
        "shipping pincode 560034 not covered yet",
    ],
)
def test_a_postal_pin_code_with_a_delivery_word_passes(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    ["my bank pin code is 482913", "ATM pin code 904512, don't share", "pin code 700091"],
)
def test_a_pin_code_with_no_address_is_still_found(text: str) -> None:
    assert find_sensitive(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "shipping to pin-code 600042 is free this week",
        "courier: deliver to pin-code 411014, Pune",
        "Amazon wale ko pin-code 226010 bata do",
    ],
)
def test_a_postal_pin_code_written_with_a_dash_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", ["my pin-code is 600042", "ATM pin-code 904512", "pin-code 600042"])
def test_a_pin_code_with_a_dash_and_no_address_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None
