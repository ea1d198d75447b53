"""Families of cards, government ids and bank accounts (held-out E, now development data, and
probes of the same families written for them): ids and accounts in records, JSON and logs,
driving licences and permits by country, domestic account formats, routing/account pairs,
and the numbers that are not a payment card, a person's id or a bank account. The rules are
tested apart from the learned stage."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import filter as filter_module
from engram.domain.sensitive import find_by_rules, find_sensitive


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


# -- driving licences and permits by country ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "learner's permit number A0441872, my daughter passed the written test!!!",
        "her learner permit # is L220-4481-9901",
        "provisional licence no. SMITH905120J99AB",
        "numero patente U1P447712Z, mi serve per il noleggio auto a Cagliari",
        "la mia patente di guida è U1Q912273K",
        "rijbewijsnummer 5481902374, voor de autoverhuur",
        "mitt körkortsnummer är 19850412-2386",
        "kørekort nr. 40112887",
        "número da CNH 02650306461",
        "carteira de motorista 04412290873",
        "ehliyet numaram 442190",
        "prawo jazdy nr 00412/19/1201",
        "運転免許証の番号 301904418820 (レンタカー予約用)",
        "パスポートの番号は TK1049928 です",
        "my DL# is D412-5582-0913",
    ],
)
def test_driving_licences_and_permits_are_found(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "building permit number 2024-00123 came through",
        "parking permit 4471 is on the dashboard",
        "she got her learner's permit last week, test on 12 May",
        "la patente scade il 12/05/2031",
        "the rental needs a driving licence held for 2 years",
    ],
)
def test_permits_that_are_not_licences_and_licences_without_a_number_pass(text: str) -> None:
    assert _rules(text) is None


# -- ids written with their word a few words away, and by check digit ------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "cpf da minha mãe 42609620780 pra nota fiscal",
        "mon numéro de sécu : 2 53 11 82 729 138 29, pour la mutuelle",
        "Formulaire CAF : numéro de sécurité sociale du demandeur 1 81 09 36 454 022 38",
        "carta d'identità n. CA48823KF, scade nel 2032",
    ],
)
def test_ids_a_few_words_from_their_word_are_found(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "Jury summons response form\nName: Keith Arnold\nJuror ID: 20261104-0771\nReporting date: Dec 8",
        "Patient no. 19850412-2386 is in bay 4",
        "employee number 20110305-4547 (payroll)",
        "case ref 19900101-0017 filed",
    ],
)
def test_other_institutions_numbers_of_an_id_s_shape_are_no_id(text: str) -> None:
    assert _rules(text) is None


# -- bank accounts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "send my paycheck to 063673801 / 2291047733 from now on please, its a new credit union",
        "my mom's account so I can send her money: 321896333 routing, 7710024419 account",
        "mom's retirement deposits go to 070978803 / 4410028817, she asked me to double check",
        "conta poupança caixa: ag 1588, operação 013, conta 00044129-0",
        "lön till 6000-448 129 077 (Handelsbanken, clearing 6000)",
        "clearingnummer 8327-9, kontonummer 914 582 331-4 (Swedbank)",
        "kontonummer 6077.88.79002 (DNB), for husleia",
        "a/c 38821044791, ifsc SBIN0004471",
    ],
)
def test_domestic_accounts_and_account_pairs_are_found(text: str) -> None:
    assert _rules(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "Invoice from the dentist: patient account 00488213, amount due $85.00, pay online",
        "hospital account 77120034 for the MRI bill",
        "student account 20419982 at the library",
        "the meeting is 063673801 / 2291047733 on zoom",
        "order 321896333 routed to warehouse 7710024419",
        "clearing the table at 6000 rpm took 448 129 077 cycles",
    ],
)
def test_numbers_that_are_no_bank_account_pass(text: str) -> None:
    assert _rules(text) is None


# -- more countries' ids by check digit (numbers from python-stdnum's documented examples) -------


@pytest.mark.parametrize(
    "text",
    [
        "PESEL córki to 44051401359, wpisz do formularza",
        "CNP-ul mamei e 1630615123457 pentru dosar",
        "ЕГН на баща ми 7523169263",
        "OIB od firme ne, moj osobni je 33392005961",
        "ο ΑΜΚΑ της γιαγιάς 01013099997 για το ραντεβού",
        "kennitalan mín er líka 120174-3399",
        "fødselsnummeret til sønnen min 15108695088",
        "minu isikukood on muidugi 36805280109",
        "mano asmens kodas yra 33309240064",
        "personas kods vecmāmiņai 161175-19997",
        "teudat zehut of my father 039337423",
        "meine SVNR für die e-card lautet wohl 1237 010180",
        "el CUIL de mi viejo 20-05536168-2",
        "SNILS отца 11223344595",
        "my SA id for the lease 7503305044089",
        "NIK istri saya 3171011708450001",
        "my PPS number for Revenue, if they ask, 6433435F",
        "Taiwan ID of my mom A123456789 for the visa form",
    ],
)
def test_national_ids_are_found_by_check_digit_with_their_word_anywhere(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "HKID A123456(3) for the bank form",
        "IC S1234567D, please keep it",
        "MyKad 770305-02-1234",
        "Emirates ID 784-1968-6570305-0",
        "Ghana card GHA-123456789-0",
        "บัตร 3-1006-00445-63-5",
        "снилс 112-233-445 95",
    ],
)
def test_distinctive_national_ids_are_found_by_their_form(text: str) -> None:
    assert _rules(text.split(" ", 1)[1]) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "PESEL córki to 44051401358, wpisz do formularza",
        "the order total was 1630615123458 dong",
        "ref A123456(4) on the crate",
        "S1234567A is the part number",
        "room 770399-02-1234 is booked",
        "tracking 784-1968-6570305-1",
        "call 112-233-445 96",
        "the SA team closed 7503305044088 tickets",
    ],
)
def test_numbers_of_those_shapes_that_fail_their_check_pass(text: str) -> None:
    assert _rules(text) is None


# -- families of outside_6 (read after its first run), with probes of the same families ------------


@pytest.mark.parametrize(
    ("text", "key", "rule"),
    [
        ("5394 5949 7849 0329", "cards.backup", "payment_card"),
        ("hipercard 6062 9143 2710 2004", "", "payment_card"),
        ("my elo card is 6363 6812 3456 7894", "", "payment_card"),
        ("not my gift card, my real card: 4539 1488 0343 6467", "", "payment_card"),
        ("T220001293", "ausweis", "government_id"),
        ("NY non-driver ID 804 219 377", "state_id_card", "government_id"),
    ],
)
def test_cards_and_ids_of_more_brands_and_keys(text: str, key: str, rule: str) -> None:
    assert _rules(text, key) == rule


@pytest.mark.parametrize(
    "text",
    [
        "Tesco clubcard 634004 0247 7719 8823",
        "nectar card 6340 0402 4777 1985 for the points",
        "the giftcard 6331 1001 2345 6787 has 20 left",
    ],
)
def test_store_and_gift_cards_with_a_maestro_prefix_are_no_payment_card(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "USCIS A# 212 449 807 for the I-130 packet",
        "Virginia DMV customer number T61045872 (that's the license number too)",
        "BRP number ZU8831042 for the right to work check",
        "Residence permit (Aufenthaltstitel) no. Y08R3K2LF",
        "titre de séjour n° 9912345678, valable jusqu'en 2029",
        "permesso di soggiorno n. I0A123456",
        "Canada PR card number PA0448213, UCI 11-0447-1902",
        "irish IRP card number 0448213 (stamp 4)",
        "CHI number 1503791238 (scotland)",
        "ontario health card 4523-907-105-AK",
        "OHIP 6142 083 374 MN, exp 2027",
        "carte RAMQ TREM 8504 1217 (Québec)",
        "Krankenversichertennummer A123456780 (TK), für die neue Praxis",
        "österreichische SV-Nummer 1231 150385",
        "my medicare number (the new one) is 7QR2-HN4-KW61",
        "Medicare Beneficiary Identifier: 3TG9-A82-PM14",
        "the card CMS sent says 1EG4-TE5-MK73",
        "nigerian NIN 48210937725, BVN is separate",
        "please remember my passport details: number 548103927, issued 2021-03-02",
        "numéro fiscal de référence : 30 18 447 190 339 (sur l'avis d'impôt)",
        "número de identificação fiscal 283 234 245",
        "NAS 274 538 321 pour le nouvel emploi à Montréal",
        "Mexican INE clave de elector GOMRCR85031209H400",
        "mon numéro d'assurance maladie est 2 85 05 78 006 084",
        "RG 12.345.678-9 SSP/SP",
        "Emirates ID 784-1985-1234567-1",
    ],
)
def test_residence_permits_health_numbers_and_more_ids_are_found(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    [
        "USt-IdNr. DE 136 695 976 steht auf der Rechnung",
        "ΑΦΜ εταιρείας 094014201 στο τιμολόγιο",
        "health insurance member card: XKY 882 104 557 01",
        "the NAS at 192.168.1.20 is full again",
        "the PR card arrived yesterday, finally",
        "build 1EG4TE5MK73 failed",
    ],
)
def test_company_vat_ids_insurers_cards_and_look_alikes_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "voided check says 061000104 then 7743 0291 8850 then check number 1042",
        "⑆091000022⑆ 1563 8820 4471⑈ 0318 (micr line from the check)",
        "argentinian CBU 0720218860007056148975 (santander rio)",
        "CBU 0140115481453840191615 banco provincia, alias no tengo",
        "pasame a la cuenta 2850590940090418135201 porfa",
        "kontonummer Swedbank 8327-9, 934 471 902-4",
        "신한은행 110-482-913374 로 보내주세요",
        "CCI 00219300123456789012 para la transferencia",
        "my NUBAN is 0123456789 (GTBank)",
        "Please update my direct deposit: RTN 021000021 / DDA 1234567890",
        "DDA: 1234567890",
    ],
)
def test_cheques_cbu_and_more_domestic_accounts_are_found(text: str) -> None:
    assert _rules(text) == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "companies house no. SC482913 (scottish company)",
        "tracking 2850590940090418135201 from USPS",
        "check number 1042 cleared on 061000104",
        "CBU 0720218860007056148976 is what the form rejected",
    ],
)
def test_numbers_near_account_words_that_are_no_account_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "fishing license 2024-118833, valid all season",
        "business license number 2023-004471 is on the wall",
        "liquor license 12345678 for the bar",
        "marriage license no. 2019-000441",
        "the passport office number is 0300 222 0000",
        "DMV office phone 800 777 0133",
        "my Discord account 12345678 got banned",
        "Roblox account 123456789 for the kids",
        "MBI 2024 results: 1234567 nodes",
        "SELECT passport_no FROM people WHERE id = 12345678",
    ],
)
def test_other_licences_offices_and_accounts_that_are_not_at_a_bank_pass(text: str) -> None:
    assert _rules(text) is None


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("maryland drivers license M-123-456-789-012", "government_id"),
        ("driving license 12345678, the fishing one is separate", "government_id"),
        ("email me at the office, account 12345678 sort code 20-00-00", "bank_account"),
    ],
)
def test_driving_licences_and_accounts_beside_those_words_are_found(text: str, rule: str) -> None:
    assert _rules(text) == rule


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
        "my IL one is P142-8837-2091, renew in June",
        "Florida: S530-460-45-278-0 (mom)",
        "the wisconsin one S530-4604-5278-00",
        "MD M-123-456-789-012",
    ],
)
def test_us_licences_in_their_states_printed_form_are_found_beside_the_state(text: str) -> None:
    assert _rules(text) == "government_id"


@pytest.mark.parametrize(
    "text",
    ["part P142-8837-2091 is back-ordered", "SKU S530-460-45-278-0 in aisle 4", "ticket A-123-456-789-012 closed"],
)
def test_the_same_forms_without_a_state_or_a_driving_word_pass(text: str) -> None:
    assert _rules(text) is None


class _SaysAccount:
    """A learned stage that calls everything a bank account (the weights change with each
    retrain; the rule under test is what the filter does with such a verdict)."""

    def classify(self, text: str) -> str:
        return "bank_account"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Account statement period 01/10/2024 - 31/10/2024", ""),
        ("pub rsa4096 2024-01-11 [SC] 8A1F 3C9D 0B72 E4A5 6F19  C2D8 0E3B 7A44 915C 6D2E", "gpg"),
        ("meet the bank manager at 10:30 on 2024-05-01", ""),
        ("upload id 550e8400-e29b-41d4-a716-446655440000 to the account", ""),
    ],
)
def test_a_learned_id_or_account_verdict_needs_digits_outside_dates_and_fingerprints(
    text: str, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    assert find_sensitive(text, key) is None


def test_a_learned_account_verdict_with_a_number_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    found = find_sensitive("the new one is 4471 2291 0048, from 2024-05-01")
    assert found is not None and found.rule == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "my number is 415-555-0132, text me",
        "sort code 00-00-00, account 00000000 (template)",
        "account 11111111 in the example",
    ],
)
def test_a_phone_after_my_number_and_template_accounts_pass(text: str) -> None:
    assert _rules(text) is None


def test_a_template_s_zeros_are_no_number_for_a_learned_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    assert find_sensitive("sort code 00-00-00 is a placeholder in the template") is None


@pytest.mark.parametrize(
    "word",
    [
        "Bestellnummer",
        "Sendungsnummer",
        "numéro de commande",
        "número de pedido",
        "número de rastreio",
        "numero d'ordine",
        "ordernummer",
        "numer zamówienia",
        "sipariş numarası",
        "номер заказа",
        "注文番号",
        "订单号",
        "주문번호",
    ],
)
def test_order_tracking_and_serial_numbers_in_other_languages_are_no_card(word: str) -> None:
    assert _rules(f"{word} 4532 0151 1283 0366") is None


@pytest.mark.parametrize("word", ["Kreditkartennummer", "numéro de carte", "número de tarjeta", "カード番号"])
def test_card_words_of_those_languages_still_find_the_card(word: str) -> None:
    assert _rules(f"{word} 4532 0151 1283 0366") == "payment_card"


@pytest.mark.parametrize(
    "text",
    [
        "GP referral letter\nRe: Ms Sarah Doyle, DOB 22/07/1984, Hospital No. K0092281\nThank you for seeing her.",
        "invoice no. 2024-5532, account ref 88123456",
        "Konto gesperrt seit 2024-05-01, Ticket 8812345",
        "订单号 202611240418273645",
    ],
)
def test_a_learned_verdict_on_numbers_all_labelled_as_another_institution_s_passes(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    assert find_sensitive(text) is None


def test_a_learned_verdict_with_one_unlabelled_number_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(filter_module, "value_model", _SaysAccount)
    found = find_sensitive("member 12345678, and the new one for the rent is 44102288 at the credit union")
    assert found is not None and found.rule == "bank_account"


@pytest.mark.parametrize(
    "text",
    [
        "boat speed 12 kt, log id 1201743399",
        "ipadala sa 7503305044089 bukas",
        "Epic: 12345678 views on the trailer",
        "Seb: 1234 567 8901 is the new phone",
    ],
)
def test_short_words_that_are_also_other_words_name_no_id_or_bank(text: str) -> None:
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


@pytest.mark.parametrize(
    "text",
    [
        "rg 4471229 ./logs to find the request",
        "nin 48210937725 was the count",
        "ine 20451122 rows migrated",
        "the rtn 021000021 value in the fixture",
    ],
)
def test_short_acronyms_in_lower_case_are_commands_or_words_not_ids(text: str) -> None:
    assert _rules(text) is None
