"""Ordinary text the review of issue 18's filter found refused (rv): numbers that grant nothing
in the shape of an id with no check digit, and nationalities that name no id. Each case
carries a number that passes the id's own check (or has none), so only the words decide."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import filter as filter_module
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rules(text: str) -> str | None:
    found = find_by_rules(text)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    "text",
    [
        # the Pakistani CNIC's 5-7-1 form has no check digit: alone it is any serial
        "shipment 10133-4081161-3 left the depot",
        "serial no. 42101-7734102-9 on the fridge",
        # a nationality names no id: the number passes the Thai, Israeli or Saudi check
        "Our Thai restaurant booking is 5484811875351.",
        "My Thai Airways e-ticket 2171234567801",
        "My Israeli friend's landline is 03-6589893.",
        "Saudi Airlines booking 2048173609 for Riyadh",
    ],
)
def test_numbers_beside_no_id_word_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "CNIC 34201-0891231-8 for the visa",
        "my id card number is 35202-4417789-3",
        "شناختی کارڈ نمبر 35202-4417789-3",
        "NADRA record 42101-7734102-9",
        "Israeli ID number 990925216",
        "my Thai ID card 3-1006-00445-63-5",
        "Thai national id 1101700230708",
        "saudi id 1048173601",
    ],
)
def test_the_same_numbers_with_their_id_word_are_found(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        # an agent's trace or a tool's answer: a user record with a numeric id is no login pair
        '{"user": {"id": 48213991, "email": "a@b.com"}, "status": "active"}',
        "user: {id: 48213991, plan: pro}",
        '{"login": ["ana", "ben"], "count": 2}',
    ],
)
def test_a_user_record_is_no_login_pair(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "user: ana / Tr0ub4dor&3",
        "login is admin:Hunter2!x",
        '{"user": "ana", "password": "Tr0ub4dor&3"}',
    ],
)
def test_a_user_and_password_pair_is_still_found(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # another kind of code named right before "code for the <place>": an address, a phone's
        "the zip code for the new house is 94103",
        "Q: what's the zip code for the shed? A: 94103",
        "zip code for the office: 10001",
        "the postal code for the flat is 10115",
        "the area code for the office is 415",
        "the tracking code for the lock is 9400111899223344",
    ],
)
def test_a_zip_area_or_tracking_code_for_a_place_passes(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "the code for the new house is 9410",
        "Q: what's the code for the bike shed? A: 5521",
        "the door code for the office is 4821",
        "pin code for the flat: 7719",
    ],
)
def test_the_code_for_a_place_is_still_found(text: str) -> None:
    assert _rules(text) == "secret"


def test_a_network_drive_named_nas_is_no_social_insurance_number() -> None:
    # 123456782 passes the SIN's Luhn check; "NAS" here is the drive, not Quebec's NAS
    assert _rules("NAS backup finished at 02:00, 1.2 TB copied, job 123456782") is None
    assert _rules("my NAS is 274 538 321 for the new job in Montréal") == "government_id"
    assert _rules("SIN 123456782, NAS backup done") == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "printf 'S3cr3t!x' | helm registry login --password-stdin ghcr.io",
        "printf '%s' 'S3cr3t!x' | docker login -u ana --password-stdin",
        "echo -n 'S3cr3t!x' | podman login --password-stdin quay.io",
    ],
)
def test_a_password_piped_by_printf_or_echo_is_found(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "printf '%s' \"$REGISTRY_TOKEN\" | docker login -u ana --password-stdin",
        "printf 'hello world\\n' | wc -c",
    ],
)
def test_a_variable_piped_or_printf_of_text_passes(text: str) -> None:
    assert _rules(text) is None


class _SaysAccount:
    """A learned stage that calls everything a bank account (the weights change with each
    retrain; what is under test is what the filter does with such a verdict)."""

    def classify(self, text: str) -> str:
        return "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        # docs/security.md says these pass; the rules passed them, a learned verdict did not
        "patient account 00488213 for the MRI",
        "the school account no. 20419982 for lunches",
        "gym acct 00458812, paid monthly",
    ],
)
def test_a_learned_verdict_on_an_account_not_at_a_bank_passes(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    assert find_sensitive(text) is None


def test_a_learned_verdict_on_a_bank_account_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    found = find_sensitive("the rent goes to account 00488213 at the credit union")
    assert found is not None and found.rule == "bank_account"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # a software licence in a record or under a key, as "software license number" in text
        ('{"license": {"number": 48213991, "type": "software", "seats": 50}}', ""),
        ("48213991", "software_license"),
        ("48213991", "fishing_licence_no"),
        # a company's VAT number in a record of any form, not only key=value
        ('{"tax_id_type": "eu_vat", "tax_id": "DE123456789", "company": "Acme GmbH"}', ""),
        ("tax_id: DE123456789, company: Acme GmbH", ""),
        ("Acme GmbH tax id DE123456789", ""),
    ],
)
def test_a_software_licence_or_a_company_s_vat_number_in_a_record_passes(text: str, key: str) -> None:
    found = find_by_rules(text, key)
    assert found is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"driver_license": {"number": "48213991"}}', ""),
        ("48213991", "driver_license"),
        ('{"license": {"number": "D1234567", "type": "driver"}}', ""),
        ("my tax id is 12345678903 and I work at Acme GmbH", ""),
        ("my tax id DE123456789", ""),
    ],
)
def test_a_driving_licence_or_a_person_s_tax_id_in_a_record_is_still_found(text: str, key: str) -> None:
    found = find_by_rules(text, key)
    assert found is not None and found.rule == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        # a state's code is the context of its licence's form only in capitals
        "il codice del pedale è A123-4567-8901",
        "Il numero di serie: B123-4567-8901",
        "mi pedido es A123-4567-8901, llega el lunes",
        "mi número de reserva es C123-4567-8901-22",
        "see notes.md for M-123-456-789-012",
    ],
)
def test_a_licence_s_form_beside_an_everyday_word_spelled_as_a_state_code_passes(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "IL DL A123-4567-8901",
        "Illinois licence A123-4567-8901",
        "my MI license is B 123 456 789 012",
        "MD M-123-456-789-012",
    ],
)
def test_a_licence_s_form_beside_its_state_is_still_found(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        # Nik and Taj are people's and places' names; NIK and TAJ are Indonesia's and Hungary's ids
        "Nik's phone is 9905483969",
        "Nik sent me the tracking 1228810112877960 for the parcel",
        "Taj Mahal trip booked, ref 342366712",
    ],
)
def test_an_id_s_word_written_as_a_name_names_no_id(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    ["NIK saya 3171011708450001", "nik istri saya 3171011708450001", "TAJ szám 342366712", "a taj számom 342366712"],
)
def test_the_same_words_as_ids_are_still_found(text: str) -> None:
    assert _rules(text) == "government_id"


def test_an_epic_in_a_tracker_is_no_voter_card() -> None:
    # India's EPIC is three letters and seven digits; 37c3172 took any id-like value after "epic"
    assert _rules("epic 516742717 in Jira") is None
    assert _rules("the epic number 516742717 has 12 stories") is None
    assert _rules("my EPIC number is ABC1234567") == "government_id"
    assert _rules("voter id epic no ABC1234567") == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        # 37c3172 took any dashed number beside "은행" (a bank): dates and phone numbers too
        "은행 방문 2024-05-01 오후 3시",
        "국민은행 직원 전화 010-1234-5678",
        "신한은행 대출 상담 02-123-4567로 전화",
        "우리은행 앞에서 만나요, 내 번호 010-9876-5432",
    ],
)
def test_a_date_or_a_phone_beside_a_korean_bank_is_no_account(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "신한은행 110-123-456789",
        "국민은행 123456-01-123456",
        "농협 계좌 301-1234-1234-11",
        "카카오뱅크 계좌 3333-01-1234567",
    ],
)
def test_a_korean_account_beside_its_bank_or_the_word_account_is_found(text: str) -> None:
    assert _rules(text) == "bank_account"


@pytest.mark.parametrize(
    ("key", "text"),
    [
        # what happened to the secret, with a date or in two words: no secret under its key
        ("db_creds", "rotated on 2024-05-01 by Sam"),
        ("api_creds", "expire every 90 days"),
        ("token", "expired yesterday"),
        ("password", "rotated monthly"),
    ],
)
def test_what_happened_to_a_secret_under_its_key_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("password", "changed to Kiwi!Fruit7"),
        ("password", "reset: Kiwi!Fruit7"),
        ("password", "expired, the new one is Kiwi!Fruit7"),
        ("db_creds", "app:Pr0d!Secret"),
        ("door_code", "changed, now 4821"),
        ("password", "reset123"),
        ("sim_pin", "5 0 0 3, for the SIM on the travel phone, changed in May"),
    ],
)
def test_a_secret_given_after_what_happened_to_it_is_found(key: str, text: str) -> None:
    found = find_by_rules(text, key)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # each number passes the old check digit but holds no birth date python-stdnum accepts
        # (month 78, 31 February, day 82 of a company, a Thai id starting with 9), so it is
        # an invoice's number beside the id's word, not the id
        "PESEL? nie wiem, faktura 37783533740",
        "CNP-ul nu îl am, comanda 1142931715185",
        "ЕГН не знам, поръчка 1370548940",
        "kennitala fyrirtækisins vantar, reikningur 8210861599",
        "Thai ID not needed, booking 9164276108864",
    ],
)
def test_numbers_with_no_valid_birth_date_beside_an_id_word_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # the colon of "https:" was read as "password: <value>" (from before this session)
        "Reset your password at https://example.com/reset",
        "Change your password at https://accounts.google.com/security to keep your account safe",
    ],
)
def test_a_password_page_s_address_is_no_password(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "password for https://mail.example.com: Kiwi!Fruit7",
        "the password at http://192.168.1.1 is Kiwi!Fruit7",
        "password: Kiwi!Fruit7",
    ],
)
def test_a_password_after_an_address_is_found(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    "text", ["The security question was about my first pet, I answered it.", "security question answered"]
)
def test_a_security_question_said_to_be_answered_gives_no_answer(text: str) -> None:
    # "answered" was read as "answer" followed by the answer "ed"
    assert _rules(text) is None


def test_a_security_question_s_answer_is_still_found() -> None:
    assert _rules("security question: first pet, answer is Biscuit") == "secret"


@pytest.mark.parametrize(
    "text",
    [
        # review rv2: the login pair 'user / password' read a URL's '//', a path's or a
        # ratio's slash as the pair's ('login page: https://...' was refused, whole filter too)
        "login page: https://example.com/login",
        "the login, it's https://acme.com",
        "SSO login: https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
        "login handler: /app/routes/auth.py",
        "login logs: /var/log/auth.log",
        "login ratio is 3/4 this week",
        "login endpoint is POST /api/v1/auth/login",
        "user: POST /users/ is slow",
    ],
)
def test_a_url_path_or_ratio_after_login_is_no_pair(text: str) -> None:
    assert _rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "login: admin / Synology!2468",
        "login is deploy/Wint3r-Harbor!22",
        "login for the NAS is admin / Harbor#Light42",
        "login: admin/Hunter2!x",
        "creds are admin / hunter2",
        "magic login link: https://staging.engram.io/auth/magic?code=OGZeGNBxJKk86uydFX1W&email=qa%40acme.io",
    ],
)
def test_a_login_pair_is_still_found(text: str) -> None:
    assert _rules(text) == "secret"
