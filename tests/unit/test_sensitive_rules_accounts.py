"""Bank accounts the rules refused or missed in held-out F (development data since session
18m) and the same families written anew: a service's or a CRM's "account", a bank's own
routing number or sort code said to be the bank's, a routing number named after it with the
account, a sort code and account set apart by dashes; sums and shares that give a learned
"account" verdict no number. The rules are tested apart from the learned stage, which the
last tests stand in for."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import filter as filter_module
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("account 5512-90 (the customer id in HubSpot, nothing to do with money)", ""),
        ("acct 88120455 is a customer record in Zendesk, not a bank account", ""),
        ("account ID 7710-2291-04 in Salesforce", ""),
        ("Account ID 123456789012 (the AWS one for staging)", ""),
        ("ABA 026009593 is the bank's routing number; the account is on the form", ""),
        ("routing number 121000248 is Wells Fargo's, in California", ""),
        ("sort code 40-47-84 is HSBC, the Leeds branch", ""),
        ("BSB 062-000 is a Commonwealth Bank branch in Sydney", ""),
        ("aws:\n  account: 123456789012\n  region: eu-west-1", ""),
        ("azure:\n  subscription: x\n  account: 44556677", ""),
        ("account 4411-2290-8834, region eu-west-2, MFA on", "aws_console"),
        ("account 99812034, user kid88, parental controls on", "steam_login"),
    ],
)
def test_an_account_that_is_no_bank_s_passes(text: str, key: str) -> None:
    assert _rules(text, key) is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("061000104 is the routing and 88120455123 is my savings, for payroll", ""),
        ("121000248 is our routing, 4471882093 the checking account", ""),
        ("Starling - 60-83-71 - 22019384, name A Khan", ""),
        ("HSBC – 40-47-84 – 71552093 for the rent", ""),
        ("routing number 121000248 is mine, account 4471882093", ""),
        ("sort code 40-47-84, account 71552093 (HSBC)", ""),
        ("bank:\n  account: 71552093\n  sort_code: 40-47-84", ""),
        ("account 4411229088, sort code 20-00-00", "customer_bank_details"),
        # (review rv2) a reference, the bank's customer number or a bank holiday after the
        # account is not the account's; a key naming a service does not excuse a value
        # that names a bank
        ("please pay the invoice to account 31926819, reference JIRA-4411", ""),
        ("my savings account 000123887512, customer number 88123 at the branch", ""),
        ("rent to account 55128733, sort code 40-11-62, not a bank holiday payment", ""),
        ("wire it to account 000123887512 (ref from our CRM export)", ""),
        ("my bank account is 000123887512 at Chase", "phone_notes"),
        ("my checking acct 000123887512 at Chase", "github"),
        ("paid from my current account 31926819", "gas_bill"),
        ("Kontonummer 1234567890 BLZ 37040044", "user"),
        ("account 31926819 sort code 20-00-00", "mobile"),
    ],
)
def test_a_bank_account_in_these_families_is_found(text: str, key: str) -> None:
    assert _rules(text, key) == "bank_account"


def test_a_service_key_leaves_a_password_in_its_value_a_secret() -> None:
    assert _rules("account 4411-2290-8834, user pia.admin, pw Harbour*Lights2026", "aws_console") == "secret"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("my bank account is 000123887512 at Chase", "phone_notes"),
        ("please pay the invoice to account 31926819, reference JIRA-4411", ""),
    ],
)
def test_the_filter_refuses_what_the_service_words_once_excused(text: str, key: str) -> None:
    # (the learned stage missed both too: on main they were stored)
    found = find_sensitive(text, key)
    assert found is not None and found.rule == "bank_account"


class _SaysAccount:
    """A learned stage that calls everything a bank account (the weights change with each
    retrain; the rule under test is what the filter does with such a verdict)."""

    def classify(self, text: str) -> str:
        return "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "nan's pension goes into the nationwide account every 4 weeks, £421.20",
        "the kids' savings account pays 5.5%, max £300 a month",
        "rent of 1.250,00 € leaves the joint account on the 1st",
        "the ISA account pays 4.75% up to 20000 GBP",
    ],
)
def test_sums_and_shares_are_no_number_for_a_learned_account_verdict(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    assert find_sensitive(text) is None


def test_a_learned_account_verdict_with_an_account_number_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    text = "pension goes to 4471 2290 88 every month, £421.20"
    assert find_by_rules(text) is None
    found = find_sensitive(text)
    assert found is not None and found.rule == "bank_account"


# -- an account word, the bank's name, then the number, in more languages ---------------------------


@pytest.mark.parametrize(
    "text",
    [
        "akaun CIMB 8601 2233 4455 atas nama Ahmad",
        "akaunti ya NMB 2041 0098 7712, jina Juma",
        "STK Techcombank 19033445566778 chủ TK TRAN THI B",
        "asusun First Bank 3012345678 na Bello",
        "เลขที่บัญชี กรุงเทพ 123-4-56789-0",
        "bankszámlaszám 10918001-00000012-34567890 (UniCredit)",
        "חשבון 445566/12 בבנק הפועלים, סניף 600",
    ],
)
def test_an_account_with_its_bank_s_name_is_found(text: str) -> None:
    assert _rules(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "account Steam 88120455, level 40",
        "account Twilio AC5db973525db517d50bfc7752edf191891d keeps failing",
        "Paybill 400200 akaunti 0712883341 ni ya kulipia bili",
        "akaun Shopee saya 60123456789 untuk log masuk",
    ],
)
def test_an_account_that_is_a_service_s_passes(text: str) -> None:
    assert _rules(text) is None


# -- an IBAN named as one whose check digits hold, of another length than its country's ---------


@pytest.mark.parametrize(
    "text",
    [
        "IBAN pour le loyer : FR20 5260 1815 9083 0166 1318",
        "mi IBAN es ES60 6091 3909 9603 0824 6281 94, a nombre de Lucía",
        "الآيبان حق الراتب AE42 8219 9351 8190 9378 65",
        "IBAN do czynszu: PL34 7975 4323 1948 7574 9118 6252 76",
    ],
)
def test_a_named_iban_of_another_length_with_its_check_is_an_account(text: str) -> None:
    assert _rules(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "IBAN pour le loyer : FR21 5260 1815 9083 0166 1318",  # (the check does not hold)
        "the IBAN format is DE + 2 check digits + 18 digits, e.g. DE00 0000 0000 0000 0000 00",
        "ticket FR20 5260 1815 9083 0166 1318 in the queue",  # (no IBAN word)
    ],
)
def test_an_iban_like_number_without_its_word_or_check_passes(text: str) -> None:
    assert _rules(text) is None


# -- a branch's code alone, the account said to be not given or to come apart -------------------


@pytest.mark.parametrize(
    "text",
    [
        "sort code 20-45-77, I'll send the account number tonight",
        "routing 026009593, account number comes tomorrow",
        "BSB 732-012 is the Westpac branch code, no account given yet",
        "BLZ 500 105 17, die Kontonummer kommt per SMS",
    ],
)
def test_a_branch_code_alone_passes(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "BSB 633-000, account 1447 2298, I'll send the rest later",
        "sort code 20-45-77 account 43917362, no account given to others",
        "routing 026009593 and account 4471882093, the account number comes from the form",
    ],
)
def test_a_branch_code_with_its_account_is_still_an_account(text: str) -> None:
    assert _rules(text) == "bank_account"
