"""Secret families from held-out K's misses (20b, session 10): each family tested with
hand-written variants that are not the corpus's samples, in several languages and layouts,
and the look-alikes (the same words with no value, a phone number, a date or a list after
them) that must keep passing."""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive
from engram.domain.sensitive.reading_view import reading_view

# 1. A code read out digit by digit (spaced, dashed, or said as words) after a word for what
# it opens or for a code, in any language; the words decide, not only English ones.
_DICTATED_CODES = [
    "the shed lock is 4 0 7 2, spare key under the pot",
    "trailer lock 9-3-1-7 if you need the mower",
    "la boîte à clés de l'appartement : 2 8 1 4",
    "beheerderscode van de kassa 4 4 0 1 9",
    "Zugangscode fürs Lager 7 3 0 1",
    "замок на гараже 7-3-0-8",
    "keysafe by the back door: 6 1 0 4",
    "key-safe 1-9-8-2 (carers only)",
    "MPIN ko sa Maya ay 7 1 0 9",
    "mật khẩu két sắt 8 8 2 1",
    "OTP from the bank 4 1 9 0 2 2",
    "ตู้เซฟ รหัสคือ 4 4 1 9",
    "オフィスの暗証番号は 5 5 0 1 です",
    "金庫の番号は ハチ ゼロ イチ ナナ",
    "공동현관 비밀번호 9 0 4 1 이에요",
    "סיסמה לאזעקה: 3 0 9 1",
    "رمز الخزنة خمسة سبعة صفر واحد",
    "कोड है 4 7 1 9 दरवाजे का",
]
_NOT_DICTATED_CODES = [
    "the lock on room 3 1 2 is broken",
    "call the locksmith on 0 7 7 0 0 9 0 0 1 2 3",
    "lock: steps 1 2 3 4 done",
    "the keysafe company's phone is 0 2 0 7 9 4 6",
    "keysafe fitted on 1 2 0 3 2024",
    "postcode 1 0 1 1 for the alarm company",
    "Gutscheincode 4 4 1 2 gilt bis Freitag",
    "Kortingscode 5-5-1-0 op de website",
    "mã đơn hàng 1 2 3 4",
    "電話番号は 0 3 1 2 です",
    "แจ้งเบอร์โทร 0 8 1 2 3 4",
    "combination lock: reset it to 0-0-0 first",
    "the escape room code was 4-7-1-9, we got out in time",
    "grandma's code for the cake: 3-2-1, three eggs",
    "the lock needs a new key, locksmith comes at 1 0 3 0",
]


@pytest.mark.parametrize("text", _DICTATED_CODES)
def test_a_code_read_out_after_a_word_for_its_lock_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_DICTATED_CODES)
def test_a_number_read_out_after_other_words_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


def test_number_words_of_the_second_table_read_as_one_digit_each() -> None:
    # (main read "два семь семь пять" as 12171715: the words of the second table of
    # languages were given their row's number, 10 to 19, not its digit)
    assert reading_view("пин-код карты: два семь семь пять") == "пин-код карты: 2775"
    assert reading_view("PIN-koodi on kaksi kuusi yksi nolla") == "PIN-koodi on 2610"


def test_arabic_and_katakana_number_words_are_read_as_digits() -> None:
    assert reading_view("كود البوابة تسعة تسعة صفر اتنين") == "كود البوابة 9902"
    assert reading_view("キーボックスは ゼロ サン ナナ イチ です") == "キーボックスは 0371 です"


# 2. A memory entry whose key names what the value opens, in any language, or only where the
# password is used (a password manager, a portal, a government login): the value decides.
_KEYED_SECRETS = [
    ("allarme_negozio", "4-7-1-2 e poi OFF"),
    ("alarme_maison", "9 0 4 1 puis ON"),
    ("sleutelkluis_oma", "7-7-0-2"),
    ("keysafe_mum", "2 9 1 4"),
    ("сейф_офис", "3-8-1-7"),
    ("lastpass_work", "Juniper-Otter-44!"),
    ("bitwarden_family", "Copper kettle 1988 Rome!"),
    ("council_tax_portal", "Bramley#2291"),
    ("digid_vader", "Hendrik1949!"),
    ("elster_zugang", "Kiefer2021.?"),
    ("client_dataroom", "Wx-R7-autumn-4410"),
]
_KEYED_NOT_SECRETS = [
    ("allarme_negozio", "installato il 12-03-2024"),
    ("allarme_negozio", "tecnico: 02 8841 2290"),
    ("sleutelkluis_oma", "hangt naast de voordeur"),
    ("council_tax_portal", "https://www.tax.service.gov.uk/council"),
    ("council_tax_portal", "login with the reference on the bill"),
    ("bitwarden_family", "shared vault for the family, Maria has access"),
    ("client_dataroom", "Q3 harvest folder, 8812 files"),
    ("tax_portal_username", "Li19750923"),
    ("netflix_account", "jane2024"),
    ("portal_url", "portal.example.com/login"),
]


@pytest.mark.parametrize(("key", "text"), _KEYED_SECRETS)
def test_a_value_under_a_key_naming_what_it_opens_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


@pytest.mark.parametrize(("key", "text"), _KEYED_NOT_SECRETS)
def test_a_note_or_a_name_under_such_a_key_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


# ... and the same words in a text: a keypad's, an alarm's code in Italian, Portuguese, Arabic.
@pytest.mark.parametrize(
    "text",
    [
        "codice tastierino del cancello 5813",
        "a senha do teclado é 1408",
        "رمز إنذار المكتب 4719",
        "رمز انذار البيت: 2207",
    ],
)
def test_a_keypad_or_alarm_code_in_other_languages_is_found(text: str) -> None:
    assert find_by_rules(text) is not None
