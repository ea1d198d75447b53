"""Ordinary text the review (rv5) of b8e9b91's id words found refused: a court's civil case
number ("Civil No.") read as Kuwait's or Oman's civil number, and English "run" read as
Chile's RUN when the run's number happens to pass the RUT's check. Each negative's number
passes the check the rule applies (or has none), so only the words and the form decide."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str) -> str | None:
    found = find_by_rules(text)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    "text",
    [
        # a court's case number: a year or a district's digits, a dash, a serial
        "Civil No. 2023-004512 was filed in the district court",
        "Case: Civil No. 2022-118734, hearing on 3 March",
        "Civil No. 04-1234 (D. Mass.)",
        "In re Smith, Civil No. 2019-0412, the court held that the clause was void",
        "Civil Number 2023-004512 in the Superior Court",
        # a run's number whose last digit is the mod-11 check of the rest
        "CI run 20231124-5 failed on arm64",
        "the nightly run 12345678-5 failed again",
        "Run 20231124-5: 14 tests skipped",
    ],
)
def test_a_court_case_or_a_runs_number_is_no_id(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "my civil number is 289040100123",
        "Kuwait civil ID 289040100123, expires 2027",
        "the Omani civil number is 82917345 (my wife's)",
        "mi rut es 12345678-5",
        "RUT: 12345678-5, para la boleta",
        "RUN 12345678-5 del titular",
    ],
)
def test_a_civil_number_and_a_rut_are_still_found(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        # a person's own tax number on a text that names a company too (an employer, an insurer)
        "o meu NIF é 123456789 e trabalho na empresa Sonae",
        "NIF pessoal 123456789, a empresa paga o seguro",
        "mi NIF es 123456789 pero la factura va a la empresa",
    ],
)
def test_a_persons_own_tax_number_beside_a_company_is_found(text: str) -> None:
    assert _rules(text) == "government_id"


def test_a_companys_tax_number_beside_the_company_still_passes() -> None:
    assert _rules("NIF da empresa 500100144, Sonae SGPS S.A.") is None


@pytest.mark.parametrize(
    "text",
    [
        # a year, a month and a serial beside a bank's word or "reikningur" (an invoice too): a
        # reference's form, not Iceland's bank-ledger-account (review rv5 of 32c39a7)
        "bank transfer reference 2024-11-004512, amount 250 EUR",
        "banking app ticket 2024-11-123456 still open",
        "Bankruptcy petition no. 2023-10-118734 filed in March",
        "banknote serial 2019-05-884412",
        "reikningur 2024-11-004512",
    ],
)
def test_a_dated_reference_beside_a_bank_word_is_no_icelandic_account(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text", ["reikningsnúmer 0133-26-012345 fyrir leiguna", "bankinn minn: 0515-26-480302, kt. á eftir"]
)
def test_an_icelandic_account_is_still_found(text: str) -> None:
    assert _rules(text) == "bank_account"
