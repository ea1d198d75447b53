"""Codes forwarded or copied as they came: one-time code SMS in their own words (the code
beside a code word and a warning never to share it, or "<code> is your ... code"), lists
of backup codes, BitLocker recovery keys. Cases written for this family, not copied from
a corpus part."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_sensitive


@pytest.mark.parametrize(
    "text",
    [
        "fwd from the bank: 731 552 is your one-time passcode. Never share it with anyone.",
        "K-905316 is your Acme verification code",
        "Your Lyft code: 4417. Don't share this code with anyone. can you type it in?",
        'Doorgestuurd: "Uw sms-code is 660 218. Deel deze code met niemand."',
        'sms från banken: "Din inloggningskod är 207 384. Dela aldrig koden med någon."',
        'sms: "Din NemID-kode er 381 902. Del den aldrig med andre."',
        '"Onay kodunuz 552 017. Kimseyle paylaşmayın." diye mesaj geldi',
        "„Twój kod do logowania: 12 84 57. Nie podawaj go nikomu.”",
        "backup codes for the mail account (from the sheet): 5521-0937 8842-1170 3306-4418",
        "the recovery key from the Microsoft portal: 112233-445566-778899-001122-334455-667788-990011-223344",
    ],
)
def test_forwarded_one_time_codes_and_recovery_keys_are_secrets(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "Never share your password with anyone. Questions? Call us on 0800 123 456.",
        "Your discount code is 4521. Don't share it with your friends, it's just for you!",
        "Order 552 017 has shipped. We will never ask for your password by email.",
        "You paid 350,00 PLN to the landlord. Nie podawaj nikomu danych karty.",
        "Don't share the recovery key with support: they will never ask for it. Ticket 2291-4471.",
        "backup codes: print them and keep them in a drawer, do not share them",
        "60957 is your referral code, valid until 6 March",
        "use loyalty code 32270 at checkout for 30% off, never share it on forums",
        "72915 is your gift card code, enjoy!",
    ],
)
def test_share_warnings_and_code_words_without_a_code_pass(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "seed phrase for the hardware wallet, in case the paper burns: maple orbit tunnel crisp velvet anchor "
        "plume dizzy harbor lemon frost sketch",
        "the 2FA setup key under the QR code: KRUG S4ZA NBSW Y3DP",
        "authenticator secret (typed in by hand): GEZDGNBVGY3TQOJQ",
        "the safe: combination is right 31, left 7, right 22",
        "padlock on the shed is L12-R40-L8",
    ],
)
def test_recovery_phrases_setup_keys_and_dial_combinations_are_secrets(text: str) -> None:
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "the recovery phrase is on paper in the safe and I will not write it here for you",
        "set up 2FA with the authenticator app, the setup key is shown under the QR code",
        "turn left 2, right 3 and left 1 at the roundabouts",
        "the mnemonic I use for the planets: my very easy method just speeds up naming planets",
    ],
)
def test_talk_about_phrases_keys_and_dials_passes(text: str) -> None:
    assert find_sensitive(text) is None
