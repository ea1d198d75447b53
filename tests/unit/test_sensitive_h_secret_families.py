"""Secret families behind held-out H's wrong refusals and misses (18w, session s8), tested
with unseen variants in several languages, never H's own samples, and with the values next
to the same words that must still be found."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules


@pytest.mark.parametrize(
    "text",
    [
        # whose password it is: a mailbox, by its address or its name cut at the "@"
        "the password for the shared inbox sales@acme.co.uk was changed by IT, ask Jo",
        "le mot de passe de la boîte compta@ a expiré, ticket ouvert",
        "la contraseña del buzón soporte@empresa.es caducó ayer, ya pedí otra",
        "Passwort vom Funktionspostfach einkauf@ wurde heute gesperrt",
        # a pass that is a ticket, with its holder's or its own number
        "ski pass: 01-1614-2291-7 (Verbier, 6 days)",
        "my rail pass: EUR7731-AB22 valid till june",
        "Parking pass = PK-20931-B, hang it on the mirror",
        "season-pass: STP-2026-88812",
        # a package at its version is no e-mail address before a password
        "go install example.com/tool@v1.4.2, sha256: 9f2c...",
        "pip pinned requests@2.31.0: sha256 verified",
        # the number of the case a code's trouble was filed as
        "BankID-koden kom aldri fram, ärende 552190 hos banken",
        "der TAN kam nicht an, Vorgang 448120 bei der Sparkasse",
        "the OTP never arrived, ticket 558201 opened with support",
        # a locker's or a gate's own number
        "my locker number is 318 (the code's on the app)",
        # India's postal PIN code, told to a shop or a courier
        "swiggy wale ko pin code 110017 bata do",
        "pin code 560034 hai koramangala ka, zomato ko bol do",
        "Amazon pe pin code 226010 dala",
    ],
)
def test_what_names_no_secret_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "das Passwort für buchhaltung@firma.de ist Kiwi!2024",
        "password for info@shop.nl: Zomer2026!",
        "wachtwoord van info@ is nu Zomer2026!",
        "hasło do skrzynki biuro@firma.pl to Kotek#2025",
        "wifi pass: Kettle-Drum-5521",
        "admin pass: Tr0ub4dor&3",
        "guest wifi pass: Welcome2026",
        "login ops@acme.io / Kiwi!2024",
        "root@10.0.0.5: S3cure!pass",
        "engangskode 839201, del den ikke med nogen",
        "your TAN for the transfer is 849120",
        "Schließfachnummer 318, der Code ist 5521",
        "the gate number is 4, code 8842",
        "locker code is 2291",
        "UPI pin code 482913, kisi ko mat batana",
    ],
)
def test_a_secret_next_to_the_same_words_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        'the wifi password is "on the back of the router"',
        'le mot de passe est "dans le tiroir"',
        'password is "ask Maria"',
        'password: "in 1Password under Family"',
        "the password is 'written on the fridge'",
        'a senha do wifi é "atrás do roteador"',
        'hasło to "u mamy w szufladzie"',
        'la password è "sotto la tastiera"',
        'lösenordet är "på kylskåpet"',
        'het wachtwoord is "onder het toetsenbord"',
    ],
)
def test_a_quoted_pointer_after_a_password_word_passes(text: str) -> None:
    # where the password is, or who has it, grants nothing; the quotes do not make it a value
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        'the password is "in-the-drawer42"',
        'the password is "Drawer2024!"',
        'the password is "blue lantern 77"',
        'wifi password is "sunflower"',
        'password: "in the drawer 42"',
        'das Passwort ist "Tresor-Schlüssel#9"',
        'la contraseña es "gato con botas"',
    ],
)
def test_a_quoted_password_is_still_found_whatever_its_words(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # a wallet's MPIN, a bank's token, a 2FA text's code, a verification code in more
        # languages, with the digits grouped as people group them
        "GCash MPIN 558210, palitan mo after",
        "Easypaisa MPIN: 40 19",
        "token do itaú: 55 71 93",
        "token de Santander 90 31 77",
        "got a 2fa text, code 338102",
        "onay kodu: 482 991",
        "code de vérification 552 019, à saisir tout de suite",
        "verificatiecode 83 12 77",
        # a dial's turns with spaces alone, when a safe or a lock is named
        "padlock: R 5 L 22 R 17",
        "combination is right 12 left 30 right 5",
        # a lock's code in traditional Chinese and in Hindi
        "大廈密碼鎖 4418，別告訴別人",
        "तिजोरी का कोड 4471 है",
        "गेट का कोड 2-5-8-0 है, किसी को मत बताना",
    ],
)
def test_a_pin_or_code_named_in_more_ways_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "MFA backup codes for the payroll@ account:\n 5521 0093\n 7710 2284\n 9034 1167",
        "recovery codes (admin account)\n- 55120 88214\n- 33018 90027",
    ],
)
def test_backup_codes_under_an_account_are_secrets_not_an_account(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "turn left 2 right 3 left 4 at the lights",
        "the PIN has 4 digits",
        "PIN attempts 3",
        "लॉकर नंबर 214 है",
        "the meeting has a host key, ask Sam",
        "token for user 8812 expired at 2026-11-22T23:59:59Z",
    ],
)
def test_a_count_a_route_or_a_number_near_the_same_words_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # said to be public, or used up, with no contrast and no password or PIN word
        "my tron wallet TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE, its public anyway",
        "branch code 0417 (public, on the bank website)",
        "the door code 4471 is public, it is on the flyer",
        "electricity token: 5619 2048 7713 0028 6514, already used",
        "EKO prepaid token: 1234 5678 9012 3456 7890 ya cargado",
        # a card payment's authorisation code, on a receipt or a payment note
        "receipt: VISA ****4417, auth code 0B8812, terminal 0081",
        "payment approved over the phone, auth code 551902",
        # the number of the payment a code approved
        "BLIK zatwierdzony, numer transakcji 77120941",
        # India's postal PIN code, "is" in Hindi before the town
        "pin code 560034 hai, Koramangala",
        # whose password it is, before the copula
        "das Passwort für MyFritz2 ist abgelaufen",
        "het wachtwoord van Ziggo8831 is verlopen",
        "the password for Netflix2 is in the drawer",
    ],
)
def test_a_value_said_to_grant_nothing_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "zoom meeting password 4dJ2kQ (the meeting id is public but the password isn't)",
        "plaid secret: 7d3b9e1f0a5c4e2b8d6f1a9c3e5b7d20, the client id is public but keep this one safe",
        "the old door code is already used up, the new code is 5521#",
        "wifi password is public anyway: Sunflower-22",
        "your auth code is 558201",
        "das Passwort für MyFritz ist Kiwi!2024",
        "password of WLAN2 is Sommer2024!",
    ],
)
def test_a_secret_beside_a_harmless_one_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("outlook.app_password", "wxyz kmnb lqrt pvsd"),
        ("apple_app_specific_password", "zxcv-bnmq-wert-yuio"),
        ("nip_cajero_papa", "4 4 1 7"),
    ],
)
def test_an_app_password_or_a_card_nip_under_its_key_is_found(key: str, text: str) -> None:
    found = find_by_rules(text, key)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    ("key", "text"),
    [("password_manager_app", "Bitwarden, on my phone"), ("app_password_howto", "use the page in Google settings")],
)
def test_an_app_that_keeps_passwords_under_its_key_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


def test_an_app_password_after_its_word_is_found_and_words_are_not() -> None:
    assert find_by_rules("mail relay for the scanner, app password kqzt wmrv pbxe lhnd") is not None
    assert find_by_rules("the app password must have more than four words") is None


@pytest.mark.parametrize(
    "text",
    [
        # an issued code after a longer description: a card's NIP, a SIM's PUK, a meeting's
        # host key, a floor given as an ordinal, a Danish access code
        "el NIP de la tarjeta de crédito de mi hermano es 5530",
        "PUK code for the Vodafone SIM in the tablet: 71830264",
        "webex host key for the quarterly call: 771902",
        "der PIN für den Drucker im 3. Stock ist 9921",
        "adgangskoden til lønportalen er 4821-77",
        # a login pair: a shared mailbox cut at its "@", an account at a host, a default
        "payroll mailbox: lonn@ / Fjord2026!x",
        "test box: root@qa-02 / letmein2024",
        "router login admin / password123",
        # a security question quoted, then answered further on
        'the answer to the "town you were born in" question on the council tax payments portal is Wanganui',
    ],
)
def test_an_issued_code_a_login_pair_or_an_answer_is_found(text: str) -> None:
    found = find_by_rules(text)
    assert found is not None and found.rule == "secret"


@pytest.mark.parametrize(
    "text",
    [
        "the NIP of the company is 5260001234",
        "host key length is 6 digits",
        "PUK code is on the SIM card holder",
        "admin / version12 is the next milestone",
        "the admin / ubuntu2204 image",
        "sa / sqlserver2019 instance",
        "the answer to life the universe and everything is 42, said Douglas Adams in the book Hitchhiker",
    ],
)
def test_a_tax_id_a_size_a_version_or_a_quip_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("", "the datasheet lists PIN 2210 as the reset line on the PCB"),
        ("", "Note: pin 4471 on the connector drawing is a part number"),
        ("", "Security question: Who was your first teacher?\nAnswer: (please choose one you will remember)"),
        ("anthropic_api_key_env", "ANTHROPIC_API_KEY"),
        ("db_password_var", "DB_PASSWORD"),
        ("token_budget_daily", "150000 tokens for the batch jobs"),
    ],
)
def test_a_board_a_form_a_variable_or_a_budget_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("", "Security question: first pet?\nAnswer: Biscuit"),
        ("", "my pin is 4471"),
        ("wifi_password", "Hunter_Two_X9"),
        ("password", "hunter_two_x"),
    ],
)
def test_an_answer_a_pin_or_a_value_beside_them_is_still_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


@pytest.mark.parametrize(
    "text",
    ["tell the locum the dispensary fridge lock is 3-3-0-6", "drug cabinet lock: 4 1 9 2", "cabinet lock is 4471"],
)
def test_a_lock_named_by_what_it_locks_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize(
    "text",
    ["the medicine cabinet lock is broken since 2019", "the fridge lock costs 1299 yen", "window lock: left, 2 turns"],
)
def test_a_lock_with_a_year_a_price_or_a_count_passes(text: str) -> None:
    assert find_by_rules(text) is None
