"""A code an account or a place issues, after its word and a longer description of what it
is for (18t, from held-out G's missed business documents, tested with unseen variants), in
English, Spanish, Portuguese, French, Italian and German; and the look-alikes that pass."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


@pytest.mark.parametrize(
    "text",
    [
        "your access code for the staff benefits portal is QX7-44M-P2L, do not share it",
        "the account code for the supplier extranet (new, from Monday) is 7RKD92",
        "one-time code from the pensions service: 551 903",
        "enrolment key for the first aid refresher module: FirstAid-2027",
        "the photocopier code for the finance team is 4417",
        "NHS smartcard passcode (the locum's, for this week): 3381-0927",
        "votre code d'accès au portail des notes est : 4QK-22L-9XZ",
        "código de acceso al portal del empleado: 9PQ-4XL-21K",
        "código SMS para confirmar la transferencia: 402 117",
        "el PIN de la tarjeta de la fotocopiadora de la planta baja es 6627",
        "codice di accesso per il registro elettronico: RX44-9KQ2",
        "Ihr Zugangscode für das Elternportal lautet 7KQ-2291-XP",
    ],
)
def test_an_issued_code_after_a_long_description_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "the access code is 4 digits long",
        "your verification code expires in 10 minutes",
        "the access code for the building was changed because the office move is 2027",
        "the security code is 3 digits on the back of the card",
        "the account code for the ledger is ACME",
        "the pin count on the new cpu socket is 1151",
        "pin 5 on the GPIO header is 3V3",
        "access code for level 2 of the car park is in the app",
        "the verification code for the pensions portal is 6 characters",
        "sms code delivery failed at 10:42",
    ],
)
def test_a_description_a_count_or_a_pin_of_hardware_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # a word copula stands alone ("per" ends in "er"), and "API key" in more languages
        "la chiave API per il meteo: 4e7b2a9c1d8f3e6a0b5c9d1f7a2e4b8c",
        "chave da API do Asaas é a7e2c9f1b3d84e60a5c1f9b7d2e8a4c6",
        "API-nyckel för Visma: 2c8e4a1f-7b3d-4e9a-a5c1-8d2f6b3e9a07",
    ],
)
def test_an_api_key_named_in_more_languages_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "la chiave API per il meteo è scaduta",
        "API-nyckel för Fortnox: se 1Password",
        "chave da API: string",
        "WARN [auth] token for user 4410 expired at 2026-12-01T08:30:00Z, retrying",
    ],
)
def test_an_api_key_named_without_its_value_passes(text: str) -> None:
    assert find_by_rules(text) is None
