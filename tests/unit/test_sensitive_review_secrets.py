"""Quoted passwords the review (rv5) of b5b4d5f found let through: a quoted passphrase of plain
words whose first word can also start a pointer ("i", "on", "see", "same", "come", "am", "en",
"con") was read as saying where the password is. A pointer names where it is kept, a keeper
or a person to ask; a phrase that names none of them is the password."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


@pytest.mark.parametrize(
    "text",
    [
        'the wifi password is "i love paris"',
        'wifi password: "i love my dog"',
        'the password is "on my way home"',
        'my netflix password is "come as you are"',
        'guest wifi password is "see you soon"',
        'the password is "same old song"',
        'the password is "under the sea"',
        'das WLAN-Passwort ist "am liebsten Kaffee"',
        'le mot de passe est "en vacances toujours"',
        'la contraseña es "con amor siempre"',
    ],
)
def test_a_quoted_passphrase_is_a_password_whatever_its_first_word(text: str) -> None:
    assert find_by_rules(text) is not None
    assert find_sensitive(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        'the password is "in the drawer"',
        'the pin is "in my wallet"',
        'the wifi password is "under the router"',
        'password is "ask Maria"',
        'the password is "same as the wifi"',
        'the pin is "on a note in my desk"',
        'das Passwort ist "im Tresor"',
        'le mot de passe est "chez maman"',
        'la contraseña está "en el cajón de la cocina"',
        'het wachtwoord is "bij Sanne"',
    ],
)
def test_a_quoted_pointer_to_a_place_a_keeper_or_a_person_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        'the password is "see it through"',
        'the password is "on the other side"',
        'the password is "at last we meet"',
    ],
)
def test_a_passphrase_with_a_pronoun_or_a_time_word_is_no_pointer(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    ['the password is "same as always"', 'the password is "check with IT"', 'das Passwort ist "wie immer"'],
)
def test_a_pointer_to_the_usual_one_or_to_it_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # an SSH host key's size and type, not a meeting's host key (review rv5 of e7dce90)
        "the host key 4096 RSA fingerprint mismatch, check known_hosts",
        "WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! host key 2048 bit",
        "server host key 3072 bits, ECDSA 256 too",
        "a new host key: 4096 (RSA), accept it with ssh-keyscan",
    ],
)
def test_a_host_keys_size_is_no_code(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", ["Zoom host key 482913", "webinar host key: 771042, claim host after 5 min"])
def test_a_meetings_host_key_is_still_a_code(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # a provider's credential said to be harmless still grants what it grants (review rv5 of 2f739aa)
        "sk_live_51Hx9QpLk2mZ8vN3rT6yB0cD4eF7gH1jK it's public anyway",
        "here's the token ghp_Zr8Nq3Kx7Lm1Wv5Tp9Yb2Hc6Jd4Fs0Ga3Eu7, it's not a secret, just a test repo",
        "AKIAZ7QXRM3KV9PLW2TE with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzz9KEYq2 - safe to commit, sandbox",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n----- (not sensitive, throwaway VM)",
    ],
)
def test_a_providers_credential_said_to_be_harmless_is_still_a_secret(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # a chosen password after a ticket's word is still a password (review rv5 of 70220b8)
        "student pass: Panther#88",
        "uni student pass is Tiger!2026",
        "my gym pass is Gym4Life!",
        "student pass: Mountain2026",
    ],
)
def test_a_password_after_a_ticket_word_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    ["Parking pass = PK-20931-B, hang it on the mirror", "my rail pass: EUR7731-AB22 valid till june"],
)
def test_a_tickets_number_after_its_pass_still_passes(text: str) -> None:
    assert find_by_rules(text) is None
