"""An account named by its bank's name (``bank_names.py``): what is not an account though a
bank's name stands before a number (review rv5 of dc8b9e8). A bank's name that is an
ordinary word or a person's name, a list of numbers or years after it, and a bank's own
helpline were refused as accounts. The rules are tested apart from the learned stage."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str) -> str | None:
    found = find_by_rules(text, "")
    return None if found is None else found.rule


@pytest.mark.parametrize(
    "text",
    [
        # a bank's name that is an everyday word, in lower case
        "set the y axis 0 10 20 30 40 50 60 so the chart matches",
        "plt.yticks on the axis: 0 25 50 75 100 125",
        "the zenith 1234 5678 telescope mount",
        "mercantil 10 20 30 40 50",
        "total equity 12 345 678 at year end",
        # a list of years or of evenly spaced numbers after a capitalised name
        "the Equity 2024 2025 budget lines",
        "Galicia 2022 2023 trip photos",
        "Santander 2019 2020 2021 2022 league tables",
        "Zenith 1998 2004 2011 models",
        "Axis ticks 5 10 15 20 25 30 on both charts",
        # a person's name that is a wallet's, in a list of contacts
        "babysitter contacts: Maya 07700 900123, Theo's mum 07700 900456",
        "Maya - 0917 123 4567",
        "emergency numbers:\nMaya 0412 345 678\nJonas 0498 765 432",
        # a bank's own line: share-call and non-geographic prefixes, or the phone's word after it
        "Absa 0860 008 600",
        "Capitec 0861 10 20 43",
        "Axis Bank 1860 419 5555 customer care",
        "ICICI Bank 1860 120 7777 for card blocking",
        "Barclays: 0345 734 5345",
        "Al Rajhi 920003344",
        "BBVA 91 224 94 26 call center",
        "FNB 087 575 9404",
    ],
)
def test_a_bank_name_before_a_list_a_contact_or_a_helpline_is_no_account(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # the same shapes with an account in them stay accounts
        "transfer to Equity 0170 2918 44712 jina Amina",
        "axis bank a/c 918010045561208, rent bhej dena",
        "Santander 1234 5678 9012 is my savings",
        "kirim ke mandiri 1370 0123 4567 8 ya",
        "Maybank 5140 8812 7730 by Friday",
        "Zenith Bank 2087 6543 21 for the school fees",
    ],
)
def test_an_account_after_its_banks_name_is_still_found(text: str) -> None:
    assert _rules(text) == "bank_account"
