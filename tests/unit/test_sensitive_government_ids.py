"""Government ids by family (held-out E, now development data, and probes of the same
families written for them): driving licences and permits by country, ids a few words from
their word, national ids by check digit and by form, and the numbers of those shapes that are
no person's id. The rules are tested apart from the learned stage."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


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
        "IC S1234567D, please keep it",
        "MyKad 770305-02-1234",
        "Emirates ID 784-1968-6570305-0",
        "Ghana card GHA-123456789-0",
        "снилс 112-233-445 95",
    ],
)
def test_distinctive_national_ids_are_found_by_their_form(text: str) -> None:
    assert _rules(text.split(" ", 1)[1]) == "government_id"


# (an HKID's and a Thai id's check accept about 1 in 10 random numbers of their form, so
# they need a word naming an id as well: test_sensitive_rules_ids.py has the form alone)
@pytest.mark.parametrize("text", ["HKID A123456(3) for the bank form", "บัตร 3-1006-00445-63-5"])
def test_an_hkid_or_a_thai_id_is_found_by_its_form_and_a_word(text: str) -> None:
    assert _rules(text) == "government_id"


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
