"""Cards, government ids and bank accounts where they sit in keys, records, tables, logs and
forms (held-out E, now development data, and probes of the same families written for them),
and the fields of the same shapes that hold none. The rules are tested apart from the learned
stage. Ids alone: test_sensitive_government_ids.py; accounts and cards alone:
test_sensitive_cards_and_accounts.py."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


# -- keys ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("visa_card", "the blue one, ending 0303, used for travel rewards"),
        ("credit_card", "the one ending in 4471"),
        ("amex_rewards", "84,200 points, transfer to delta before june"),
        ("library_card", "21982004418871"),
        ("loyalty_card", "6035 4410 0921 7734"),
        ("gym_membership_card", "0041 2288 1901"),
    ],
)
def test_a_card_key_without_a_payment_card_number_is_no_card(key: str, value: str) -> None:
    assert _rules(value, key) is None


@pytest.mark.parametrize(
    ("key", "value", "rule"),
    [
        ("passport_card", "C03918826, exp 2032", "government_id"),
        ("id_card", "T22004781", "government_id"),
        ("credit_card", "4539 1488 0343 6467", "payment_card"),
        ("card_number", "5555555555554444", "payment_card"),
        ("tc_kimlik_esim", "78564921574", "government_id"),
        ("numero_secu", "1 88 12 57 074 032 90", "government_id"),
        ("cpf_mae", "426.096.207-80", "government_id"),
    ],
)
def test_a_key_and_its_value_read_together(key: str, value: str, rule: str) -> None:
    assert _rules(value, key) == rule


# -- records, JSON, logs and SQL errors ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('email parser extracted: {"passport_no": "561208834", "nationality": "USA"}', "government_id"),
        ('"driver_license": {"state": "IL", "number": "P142-8837-2091", "exp": "2029-06-30"}', "government_id"),
        (
            'kyc webhook: {"document": {"type": "drivers_license", "issuing_state": "NY", "number": "482 119 307"}}',
            "government_id",
        ),
        ("INFO onboarding user=8812 tax_id=499151931 step=verify", "government_id"),
        ("applicant.nationalId = 'AB1234567'", "government_id"),
        (
            'migration 0057 failed on row 3310: value "499151931" for column tax_id (person) violates check',
            "government_id",
        ),
        (
            "ERROR: duplicate key value violates unique constraint\nDETAIL: Key (ssn)=(512447781) already exists.",
            "government_id",
        ),
        ("Duplicate entry 'X4471920' for key 'customers.passport_number'", "government_id"),
        ('ach: { routing_number: "065537013", account_number: "8820041196", type: "checking" }', "bank_account"),
        (
            'tool_call bank.add_payee {"name": "Cedar Plumbing", "routing": "014491689", "account": "55100437821"}',
            "bank_account",
        ),
        ('numbers={"ach": [{"account": "55100437821", "routing": "263808052"}]}', "bank_account"),
        ("payout.bankAccountNumber='40029188'", "bank_account"),
    ],
)
def test_ids_and_accounts_in_records_and_logs_are_found(text: str, rule: str) -> None:
    assert _rules(text) == rule


@pytest.mark.parametrize(
    "text",
    [
        '{"passport_no": "***4834", "nationality": "USA"}',
        '{"driver_license": {"state": "IL", "expires": "2029-06-30", "status": "valid"}}',
        "INFO tax_id=null step=verify user=8812",
        '{"account": "acct_1NqLz82eZvKYlo2C", "routing": null}',
        '{"routing_key": "orders.created", "account_id": "1234567"}',
        '{"document": {"type": "invoice", "number": "INV-2024-88123"}}',
        'value "2024-05-01" for column passport_expiry is out of range',
        'passport_issue_country="DE" passport_expiry="2031-04-01"',
    ],
)
def test_record_fields_that_hold_no_id_or_account_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("| Name | Passport | Expiry |\n|---|---|---|\n| Ana | X1234567 | 2031 |", "government_id"),
        ("name,passport_no,expiry\nAna Lopez,X1234567,2031-02-01", "government_id"),
        ("first_name\tlast_name\tdriver_license\nJohn\tSmith\tD1234567", "government_id"),
        ("account_number;routing_number\n4410028817;070978803", "bank_account"),
        ("<passportNumber>X1234567</passportNumber>", "government_id"),
        (
            "curl -d 'routing_number=110000000&account_number=000123456789' https://api.example.com/v1/tokens",
            "bank_account",
        ),
    ],
)
def test_ids_and_accounts_in_tables_xml_and_forms_are_found(text: str, rule: str) -> None:
    assert _rules(text) == rule


@pytest.mark.parametrize(
    "text",
    [
        "name,passport_no,expiry\nAna Lopez,on file,2031-02-01",
        "| Name | Passport | Expiry |\n|---|---|---|\n| Ana | yes | 2031-02-01 |",
        "id,account,balance\n1,12345678,100.00",
        "name,passport_expiry\nAna,2031-02-01",
        "<passportCountry>ESP</passportCountry>",
    ],
)
def test_tables_whose_id_columns_hold_no_id_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    ("text", "key", "rule"),
    [
        ("sending it in two parts so it's safer: first half 4539 1488, second half 0343 6467", "", "payment_card"),
        ("so the first 8 are 4066 0595 and the rest is 7454 8300", "", "payment_card"),
        ("Spouse's social\nsecurity number  560-69-\n5313\nOccupation  teacher", "", "government_id"),
        ("X1234567", "passport", "government_id"),
    ],
)
def test_cards_in_halves_ssns_broken_over_lines_and_keyed_ids_are_found(text: str, key: str, rule: str) -> None:
    assert _rules(text, key) == rule


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("half marathon times: 2019 2020 2021 2022", ""),
        ("first half of 2023 sold 1200 1300 1400 1500 units", ""),
        ("the gift card, first half 6331 1001, the rest 2345 6787", ""),
        (
            "all four passports in the red folder; Ella's expire Aug 2029, mine Mar 2030, Daniel's 2031",
            "passport_family",
        ),
        ("renewed in 2024, next one due 2034", "passport"),
    ],
)
def test_halves_that_are_no_card_and_id_keys_without_an_id_pass(text: str, key: str) -> None:
    assert _rules(text, key) is None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("WARN invalid NINO 'QQ123456C' for user 42", "government_id"),
        ("2024-05-01T10:00:00Z INFO kyc.verify user=8812 passport=X1234567 result=pass", "government_id"),
        ("INFO ach.create routing=021000021 account=1234567890", "bank_account"),
        ('beneficiary: {"bsb": "062000", "accountNumber": "12345678"}', "bank_account"),
    ],
)
def test_ids_and_accounts_quoted_or_in_log_fields_are_found(text: str, rule: str) -> None:
    assert _rules(text) == rule


@pytest.mark.parametrize(
    "text",
    [
        '{"account": {"id": 1234567, "type": "checking"}}',
        "tax_id_type=eu_vat tax_id_value=DE123456789 company=Acme GmbH",
        "INFO kyc.verify user=8812 passport=verified result=pass",
        'the "passport" field is "verified"',
    ],
)
def test_record_ids_and_company_tax_ids_in_logs_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        '{"license_number": "ENT-4471-2291-0048", "seats": 50}',
        'licenseNumber: "SW-2024-00123456"',
        "ssn_hash=5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
        '"passport_number_hash": "a1b2c3d4e5f6a7b8"',
    ],
)
def test_software_licences_and_digests_of_an_id_in_records_pass(text: str) -> None:
    assert _rules(text) is None


def test_a_licence_number_in_a_record_about_driving_is_found() -> None:
    assert _rules('{"driver": "Ana", "license_number": "D1234567", "state": "CA"}') == "government_id"
