"""Families of forms found in the outside parts (outside_1: personal chat in many
languages; outside_2: developer and agent text), written by writers who never read the
filter. Each case is a line of those parts; the rules are tested apart from the learned
stage (which has been trained on the parts since), so these test the rules' fixes."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


def _rules(text: str, key: str = "") -> str | None:
    found = find_by_rules(text, key)
    return None if found is None else found.rule


def _filter(text: str, key: str = "") -> str | None:
    found = find_sensitive(text, key)
    return None if found is None else found.rule


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # numbers dictated in words, in groups
        ("My pin is four eight two one. can you just remember that for the atm thing", "secret"),
        ("ssn four seven five, seven nine, six one one seven", "government_id"),
        ("four zero zero three three nine zero seven five seven nine three eight three four nine", "payment_card"),
        ("the account number is zero zero four four, seven one nine two, eight three three zero", "bank_account"),
        (
            "número de tarjeta: cinco cinco cero cuatro, cero nueve siete cinco, ocho cuatro uno tres, tres seis nueve"
            " cuatro",
            "payment_card",
        ),
        # digits typed one by one, and other scripts' digits
        ("PIN von der neuen EC-Karte ist 7 2 0 4, den Brief hab ich danach geschredert", "secret"),
        ("yeni kartın şifresi 4 7 1 9, kimseye söyleme", "secret"),
        ("キャッシュカードの暗証番号は 3 9 2 8、メモしといて", "secret"),
        ("银行卡密码是 6 6 2 0 1 9，别告诉别人", "secret"),
        ("새 카드 비밀번호 2 9 0 4 기억해줘", "secret"),
        ("현관 도어락 번호 7 3 1 9 * 엄마한테만 알려줘", "secret"),
        ("το pin της νέας κάρτας είναι 3 6 0 5", "secret"),
        ("PIN k nové kartě je 8 2 3 1", "secret"),
        ("الرقم السري للبطاقة الجديدة ٤٨٢٠، احفظه عندك", "secret"),
    ],
)
def test_dictated_and_spaced_numbers_are_read_as_digits(text: str, rule: str) -> None:
    assert _rules(text) == rule


@pytest.mark.parametrize(
    "text",
    [
        "пин-код новой карты 7 7 4 1, не потеряй",
        "OTP aaya hai 662 091, jaldi daal do form mein",
        "رمز التحقق اللي وصلني 918 442، دخله بسرعة",
        "the verification code they sent is 482 913, it expires in 10 min, can you put it in for me",
        "back door key pad: 2 5 8 0 *, if it beeps 3 times it didnt work",
        "grandpas phone unlock is 2 2 2 2. yes really",
        "The code for the cash box is 6-6-1 — the little grey one, not the safe",
        "kód od vchodu 2580 a pak zvonek Novákovi",
        "mon code de carte bleue c'est 6 1 9 3, retiens-le stp",
        "código multibanco do cartão novo: 5 8 2 0",
        'security question "favorite teacher" answer Mrs Finkelstein (for the student loan site)',
        '"what street did you grow up on" -> Willowbrook (i used that on navient)',
        '{"event":"memory.write","key":"prod_db_password","value":"K!ngf1sher_2026","ts":"2026-11-24T03:11:09Z"}',
        "DB_PASSWORT=Kirschbl8te!2026 steht in der .env vom staging, bitte nicht committen",
        "der API-Schlüssel für DeepL ist 8c1e2f4a-7b3d-4e9a-b6c5-0d2f1a3e5b7c:fx, bitte nur im Backend nutzen",
        "VPNの共有シークレットは Hq2-Lm9x-Pw4z です",
        "backup codes for the shared ops google account: 4821 7730, 1954 0862, 6673 2019, 8840 5517, 3306 9924",
        "2fa recovery codes github ops-bot:\nb3f7e-2a91c\n84d0c-77e1f\nc19aa-03b5d\n5e62f-9d4a0",
    ],
)
def test_pins_codes_answers_and_settings_of_the_outside_parts_are_secrets(text: str) -> None:
    assert _rules(text) == "secret"


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("the numbers are 4666 1934\n5145 0613\nexpires 12/27", "payment_card"),
        ("card on the purchase order: 6563 6755 0591 9014 (discover) — PO-77812", "payment_card"),
        ("troy kartım 9792 2615 2270 4288, son kullanma 09/28", "payment_card"),
        ("카드번호 9410 4046 0198 0393 유효기간 09/27", "payment_card"),
        ("for the babysitter's uber account you can use 5303 9891 4637 5057", "payment_card"),
        ("The EIN for my cleaning business (sole prop) is 84-3917265", "government_id"),
        ("green card number (A-number) A 214 883 069 for the I-130", "government_id"),
        ("the school needs dads passport number, its 558230914", "government_id"),
        ("US passport card C03849211 - we only have the card not the book", "government_id"),
        ("hong kong id A123456(3) for the lease", "government_id"),
        ("my number (japan) 7194 1786 2077 for the tokyo subsidiary payroll", "government_id"),
        ("KYC record\nfull_name: Oluwaseun Adeyemi\nid_type: passport\nid_number: A09213847", "government_id"),
        ("pasaporte español PAF482910 para la reserva del vuelo", "government_id"),
        ("паспорт серия 51 23 номер 600604, выдан ОВД Таганского района", "government_id"),
        ("رقم هوية أبوي 1115625509", "government_id"),
        ("CLABE para el depósito de la colegiatura: 002189763966121755", "bank_account"),
        ("minha conta no Bradesco: ag 8090 cc 90727-6", "bank_account"),
        ("przelej mi na 04 1913 4768 0360 1444 5888 6891 (mBank), dzięki", "bank_account"),
        ("číslo účtu na nájem 5574640149/0800", "bank_account"),
        ("家賃の口座はゆうちょ 記号14480 番号 22183941 です", "bank_account"),
        ("公司的对公账户 1102 0267 0920 0183 745，开户行工商银行北京分行", "bank_account"),
        ("신한 110-482-917305 으로 보내줘, 회비 계좌야", "bank_account"),
        ("переведи на счёт 40817810049063094374 в Альфе, БИК 044525974", "bank_account"),
    ],
)
def test_cards_ids_and_accounts_of_the_outside_parts_are_found(text: str, rule: str) -> None:
    assert _rules(text) == rule


@pytest.mark.parametrize(
    ("key", "text", "rule"),
    [
        ("office_door", "7714#", "secret"),
        ("code_porte_bureau", "2B49A", "secret"),
        ("alarmcode_kantoor", "3 9 0 2", "secret"),
        ("permis_de_conduire", "120375400215", "government_id"),
        ("マイナンバー", "434070401355", "government_id"),
    ],
)
def test_keys_of_more_languages_name_what_they_hold(key: str, text: str, rule: str) -> None:
    assert _rules(text, key) == rule


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("", "export STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"),
        ("", ".env.example:\nDATABASE_URL=postgres://user:password@localhost:5432/db\nSECRET_KEY=changeme"),
        ("", "idempotency-key: 5f8d0c2a-3e1b-4a7f-9c6d-0b2e8a4f1d73"),
        ("", "primary key is (tenant_id, memory_id), sort key is created_at"),
        ("", "age public key age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p"),
        ("", "Stripe charge ch_3PqL8x2eZvKYlo2C1Xk9aB7m succeeded, amount 4900, currency eur"),
        ("", "api key: sk-...a4oT (shown once, copy it now)"),
        ("", "Passwort-Richtlinie: mindestens 12 Zeichen, Sonderzeichen erforderlich"),
        ("", "het wachtwoord staat in de kluis van 1Password, vraag het aan Sanne"),
        ("", "e-devlet şifresi PTT'den alınıyor, kimlikle gitmen gerekiyor"),
        ("", "etherscan tx 0x3e2fa2550de9a2bcde1cd7a181856b3ded6f5fa8c1d2e3f4a5b6c7d8e9f0a1b2"),
        ("", "SSN 000-12-3456 is not a valid number (area 000 is never issued), use it to test the validator"),
        ("", "Steuernummer der GmbH 143/815/08159 und USt-IdNr. DE811569869 gehören auf jede Rechnung"),
        ("", "Starbucks rewards card 6061474994987543"),
        ("db_password", 'see 1Password vault "Infra", item "orders-db"'),
        ("token_ttl", "3600 seconds"),
        ("door_code_owner", "facilities (ask Tom)"),
    ],
)
def test_look_alikes_of_the_outside_parts_pass(key: str, text: str) -> None:
    assert _filter(text, key) is None


def test_a_verification_code_near_the_word_passport_is_a_code_not_an_id() -> None:
    assert _rules("hey its the verification code for the passport appointment site: 774 390") == "secret"
