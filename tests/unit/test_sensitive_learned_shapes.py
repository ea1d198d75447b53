"""What the learned stage reads of a candidate value itself and of its neighbours (session 19c,
learned_shapes.py). Session 18x found its errors on new text came from reading the words around
a value and too little of the value: a reference given where a secret is named (an address, a
URL, a path, a placeholder) was refused, and an ordinary-looking secret (a word and a year, a
quoted name) missed. These hold whatever the trained weights are: they check what is read."""

from __future__ import annotations

import pytest
from engram.domain.sensitive.learned_model import position_features, tokens
from engram.domain.sensitive.learned_shapes import pronounceable


def _value_features(text: str) -> list[str]:
    toks = tokens(text)
    feats = position_features(text)
    return [f for t, fs in zip(toks, feats, strict=True) if t.value for f in fs]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("okta admin: a.tanaka@acme.io", "email"),
        ("smtp_user = noreply@example.org", "email"),
        ("the ftp is ftp://files.example.de/incoming", "url"),
        ("password read from ~/.mylogin.cnf", "path"),
        ("key in /etc/ssl/private/server.key", "path"),
        ("token in C:\\Users\\me\\token.txt", "path"),
        ("the secret is in creds_2024.kdbx", "file"),
        ("bot username is @home_alerts_bot", "handle"),
        ("origin git@10.0.0.5:srv/dotfiles.git", "remote"),
    ],
)
def test_a_reference_where_a_secret_is_named_is_read_as_its_kind(text: str, kind: str) -> None:
    assert f"k:{kind}" in _value_features(text)


@pytest.mark.parametrize(
    "text",
    [
        "password: Gr33nT0mato!",
        "wifi is Kelp_Harbor_19",
        "token 9fK2xQ7LmP3v",
    ],
)
def test_a_chosen_value_is_no_reference(text: str) -> None:
    assert not [f for f in _value_features(text) if f.startswith("k:") or f == "ph"]


@pytest.mark.parametrize(
    ("text", "mark"),
    [
        ("api_key = <your-api-key>", "ph:angle"),
        ("password: {{db_password}}", "ph:brace"),
        ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "ph"),
        ("card pin xxxx, token ****1234", "ph"),
        ('la respuesta de seguridad es "Coco"', "qt"),
    ],
)
def test_a_placeholder_or_a_quoted_value_is_marked(text: str, mark: str) -> None:
    assert mark in {f for fs in position_features(text) for f in fs}


@pytest.mark.parametrize(
    ("text", "structure"),
    [
        ("my new password is Bailey2017", "st:WD4"),
        ("wifi: Kelp_Harbor_19", "st:W_W_D2"),
        ("reset code X7K-Q2P", "st:LD1L-LD1L"),
    ],
)
def test_a_value_is_read_as_its_runs_of_letters_and_digits(text: str, structure: str) -> None:
    assert structure in _value_features(text)


@pytest.mark.parametrize(
    ("text", "pattern"),
    [("pin 0000", "dp:same"), ("pin 123456", "dp:run"), ("born 1984", "dp:year")],
)
def test_a_number_is_read_as_its_pattern(text: str, pattern: str) -> None:
    assert pattern in _value_features(text)


def test_a_word_set_off_as_a_value_is_read_with_the_words_around_it() -> None:
    feats = {f for fs in position_features('the secret answer is "Bramble" (grandparents farm)') for f in fs}
    assert {"wkv1:is", "wkv:answer", "wvk:grandparents"} <= feats
    # and a word's shape with the token right before and after it
    assert {'pv:"|WTl', 'nx:WTl|"'} <= feats


def test_pronounceable_letters() -> None:
    assert all(pronounceable(w) for w in ("harbor", "Bailey", "mato", "Valparaiso"))
    assert not any(pronounceable(w) for w in ("NTLKQXPVMB", "xQz", "qzxvbnkt", "ab"))
