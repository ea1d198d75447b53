"""A chosen password with no password word before it: said to be what someone set or went
with for an account, or pointed at by an arrow with "that's the pwd" after it. And a card's
password given as its digits after the card's name ("senha do cartão 6620")."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


@pytest.mark.parametrize(
    "text",
    [
        "Brass!Kettle42 was what i set for the allotment society login",
        '"Heron#Creek88" is what we use for the shared family dropbox',
        "so i went with Pickle!Jar2023 for the council tax portal",
        "Ember-Fox-51 <- that's the pwd for the build box, user admin",
        "Gl4cier!Pine <- that's the wifi password at the cabin",
    ],
)
def test_a_chosen_password_set_for_an_account_or_pointed_at_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # a version, a product, a model, a locale, an option: no chosen password's look
        "v2.1.0 is what we use for the API",
        "Python3.12 is what I use for the project",
        "UTC+2 is what i set for the timezone",
        "we went with Postgres16 for the database",
        "I went with GPT-4o-mini for the summaries",
        "we went with Option-B2 for the layout",
        "release-2024.05 <- that's the fix for the login bug",
    ],
)
def test_a_version_product_or_option_set_for_something_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "senha do cartão 6620, guarda bem",
        "contraseña de la tarjeta 4471 no la compartas",
        "password for the atm card 0917",
    ],
)
def test_a_card_s_password_given_as_its_digits_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "senha do cartão errada 3 vezes",
        "senha do cartão expira em 2 dias",
        "password for the card ending 4471 was reset",
        "contraseña de la tarjeta 4471-2233-1234",
    ],
)
def test_a_count_or_a_card_s_number_after_a_card_s_password_passes(text: str) -> None:
    assert find_by_rules(text) is None
