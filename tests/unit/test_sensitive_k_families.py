"""Families of held-out K's misses in cards, ids and accounts (20c, session s10), each tested
with variants written here (other countries, other layouts, other words for the same thing)
and the look-alikes that must keep their verdict."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rule(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


def _filter(text: str, key: str = "") -> str | None:
    found = find_sensitive(text, key)
    return None if found is None else found.rule


# 1. A card number with its expiry after it and no card word (or another card's word, or a
# phone's), a national scheme's prefix (Hipercard, RuPay), a number in pieces with its expiry.
@pytest.mark.parametrize(
    "text",
    [
        "can you charge the wholesale order to the business card 4532 0177 8823 4519 exp 09/27",
        "client paying deposit over the phone: 5522 8710 4439 1060 exp 11/26, name J ROWE",
        "Hipercard do seu Joaquim pra cobrar a mensalidade: 6062 8277 1190 4530, venc 12/26",
        "cobrar do cliente 6062 8277 1190 4530 venc. 12/26",
        "took it down on the phone: 4916 3385 0123 4560, expiry 04/28",
        "Zahlung telefonisch: 5425 2334 3010 9903 gültig bis 03/28",
        "pago por teléfono 4916 3385 0123 4560 vto 07/29",
        "chat export: [10:41] ana: card is 5378 0507\n[10:41] ana: 1926 9944\n[10:42] ana: exp 09/27 thx",
        "first message said 6011 5488, second said 1029 3672. exp 09/27, it's my Discover",
    ],
)
def test_a_card_with_its_expiry_or_a_national_prefix_is_found(text: str) -> None:
    assert _rule(text) == "payment_card"


@pytest.mark.parametrize(
    "text",
    [
        "order 4532 0177 8823 4519 shipped",
        "tracking 4532 0177 8823 4519 exp 2027-09-30",
        "rooms 1204 1206 1208 1210, passes exp 09/27",
        "ИНН физлица для налоговой: 500301826490",
        "مؤسسة الريان، السجل التجاري 1010456789، الرقم الضريبي 300012345600003، فاتورة 2291",
        "VAT no. 300012345600003 on the invoice",
        "tax id 500301826490 for the filing",
    ],
)
def test_numbers_that_are_no_card_pass_as_cards(text: str) -> None:
    assert _rule(text) != "payment_card"
