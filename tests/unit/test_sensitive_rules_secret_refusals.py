"""Wrong secret refusals of the rules in held-out F (development data since session 18m) and
the same families written anew: where the password is kept in more languages, advice about a
password, passwords in general, a record's bracket or a JSON string that ends, a year after
"backup codes". Each with a guard that still gives a value. The rules are tested apart from
the learned stage."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    "text",
    [
        "hasło jest w sejfie w biurze, nie wpisuję go tutaj",
        "das Passwort ist im Tresor, frag Jana",
        "le mot de passe est dans le coffre du bureau",
        "la password è nella cassaforte in ufficio",
        "lösenordet är i lådan under skrivbordet",
        "bitwarden master password: never write it down, never share it",
        "the admin password: don't paste it in Slack, use the vault",
        "qwerty123 is the worst password you can pick, says the article",
        "letmein2024 was the most popular password in the leak",
        'note (kind=reminder, user=u_2291): "Pay the gardener on Friday, cash only."',
        '{"name":"add_task","args":{"text":"call the bank, reset pw if locked","due":"2026-11-30T10:00"}}',
        "the old backup codes printout is from 2022 and all used up",
    ],
)
def test_no_secret_is_given(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "hasło do wifi: Wrzesien#2024",
        "password: never changed since 2019, still Hunter2!Blue",
        "letmein2024 is my password for the forum",
        "backup codes: 8812 4470, 3095 1166",
        'note (user=u_2291): "pw is Gardener!Fri42"',
    ],
)
def test_a_secret_is_still_found(text: str) -> None:
    assert _rules(text) == "secret"


# -- a lock in a game, a puzzle or a story opens nothing anyone owns ------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "door code for the escape room game was 1-9-4-5 in the story, we got it in 52 min",
        "the safe combination in the final puzzle is 0417, took us ages",
        "in the game the vault door code is 8812, then you get the sword",
        "the keypad code in the book is 3-1-4-1, the detective guesses it from pi",
    ],
)
def test_a_code_in_a_game_or_a_story_passes(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "the office door code at the escape room is 4471, staff only",
        "the garage door code is 4471 and the kids play a game in there",
        "in the game my password is Zelda#Link77",
    ],
)
def test_a_real_code_beside_a_game_is_still_a_secret(text: str) -> None:
    assert _rules(text) == "secret"


# -- where the password is, in more languages: a copula then a place, written or kept --------------


@pytest.mark.parametrize(
    "text",
    [
        "la contraseña está en la nevera, en un post-it de IKEA",
        "la password della banca è sulla scrivania di Marco",
        "el código está detrás del router, en la etiqueta de Movistar",
        "ο κωδικός του email είναι αποθηκευμένος στο KeePass",
        "la contraseña del router está apuntada en la libreta de Carmen",
    ],
)
def test_where_the_password_is_in_more_languages_passes(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "la contraseña del wifi es Pepito#2211",
        "la password del wifi è Girasole!88",
        "ο κωδικός του wifi είναι Fengari_77",
        "hasło na wifi: Kotek#2020",
    ],
)
def test_a_password_given_after_those_words_is_still_a_secret(text: str) -> None:
    assert _rules(text) == "secret"
