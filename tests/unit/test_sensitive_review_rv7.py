"""Review of session 10's held-out K fixes (rv7): look-alikes the new rules refused, hand-written
as people store them in an assistant's memory, each seen red on main before its fix."""

from __future__ import annotations

import time

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive

# 1. f7d8105 read any three single digits within 100 characters after a lock's word as its code,
# and the lock's words it added name other things too: a mutex, Caps/Num Lock, "lock in", a
# castle (Schloss, замок), Vietnamese khóa (a course), a chain store (连锁), rock music
# (ロック), a chord (コード進行, 코드 진행), an error's code fused in Dutch and Nordic words.
_NOT_A_LOCKS_CODE = [
    "lịch học khóa tiếng Anh của bé: thứ 2 4 6, 17h30 đến 19h",
    "con đăng ký khóa bơi mùa hè, học thứ 3 5 7 buổi sáng",
    "khóa luận tốt nghiệp gồm chương 1 2 3 4",
    "Turn on Num Lock first, then the arrow keys are 8 4 6 2 on the keypad",
    "Caps Lock is stuck; keys 1 2 3 still type symbols",
    "mutex lock contention benchmark: ran with 1 2 4 8 threads",
    "Sprint board: lock down scope for stories 4 5 6",
    "Schloss Neuschwanstein Führung: wir sind Gruppe 2 3 4 im Plan",
    "the castle (Schloss) is open days 1 2 3 4 of the festival",
    "замок XII века, экскурсия в 1 2 3 зале",
    "kilit taşı, adımlar 1 2 3 4",
    "locks changed on floors 2 3 4 last month",
    "room lock battery swapped in rooms 2 4 6",
    "王道進行のコード進行は 4 5 3 6 で、カノン進行とは違う",
    "好きなコード進行: 1 5 6 4",
    "코드 진행 1 5 6 4 로 연습하기",
    "ロックバンドのセトリ: 1 2 3 曲目はアンコール",
    "连锁店第 3 4 5 家分店下个月开业",
    "chave de fenda tamanho 3 4 5",
    "did leetcode problems 1 2 3 today",
    "foutcode 5 2 1 op de vaatwasser",
    "feilkode 4 0 4 på nettsiden",
    "felkod 4 0 4 när jag öppnar sidan",
    "virhekoodi 5 0 3 palvelimelta",
    "productcode 4 4 1 2 staat op de doos",
    "timecode 1 0 0 0 on the second camera",
    "OTP rollout: phases 1 2 3 done",
    "MFA enrolment wave 1 2 3 finished last week",
]
# ... while a number said to be the lock's, in the same languages, is still its code.
_A_LOCKS_CODE = [
    "the shed lock is 4 0 7 2, spare key under the pot",
    "keysafe by the back door: 6 1 0 4",
    "замок на гараже 7-3-0-8",
    "la boîte à clés de l'appartement : 2 8 1 4",
    "ổ khóa xe đạp 3 9 1 7",
    "mật khẩu két sắt 8 8 2 1",
    "金庫の番号は 8 0 1 7 です",
    "보안 해제 번호는 6 1 3 8",
    "cijferslot van de schuur 4 4 0 9",
    "Schloss am Fahrradkeller: 7 3 1 5",
    "the lock on the bike shed is 5 5 2 1",
]


@pytest.mark.parametrize("text", _NOT_A_LOCKS_CODE)
def test_a_list_after_another_sense_of_a_locks_word_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _A_LOCKS_CODE)
def test_a_number_said_to_be_the_locks_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 2. ab093c0 (login_keys.py) read any few words with a digit and a mark under a portal's or a
# password manager's key as a passphrase, and any word with letters, digits and both cases as a
# chosen password: a note's date, a ticket, a version, a device were refused.
_NOTES_UNDER_A_LOGIN_KEY = [
    ("customer_portal", "Renewal due 2027-03-01!"),
    ("bitwarden_migration", "Done 2026-11-03, 214 items #ops"),
    ("portal_ticket", "INC0012345 open, P2!"),
    ("keepass_version", "KeePassXC 2.7.9 (#1)"),
    ("elster_bescheid", "Bescheid vom 12.03.2026, Erstattung 1.240 €!"),
    ("supplier_portal", "Ariba ID AN01234567890!"),
    ("login_device", "iPhone15"),
    ("portal_browser", "Firefox128"),
    ("keychain_device", "MacBookPro2021"),
]
_PASSWORDS_UNDER_A_LOGIN_KEY = [
    ("bitwarden_family", "Copper kettle 1988 Rome!"),
    ("venn_estate_bitwarden", "Tamarind lighthouse 1962 Venn!"),
    ("lastpass_home", "-Harbor otter 77 blue!"),
    ("client_dataroom", "Wx-R7-autumn-4410"),
]


@pytest.mark.parametrize(("key", "text"), _NOTES_UNDER_A_LOGIN_KEY)
def test_a_note_under_a_login_key_passes(key: str, text: str) -> None:
    assert find_by_rules(text, key) is None


@pytest.mark.parametrize(("key", "text"), _PASSWORDS_UNDER_A_LOGIN_KEY)
def test_a_chosen_password_under_a_login_key_is_found(key: str, text: str) -> None:
    assert find_by_rules(text, key) is not None


# 3. 16bd1ef (dead_values.py) masked an old value when a death word stood anywhere in the text:
# one said of another value beside it ("the credit card PIN was changed") hid a live one.
_LIVE_OLD_VALUES = [
    "I still use my old PIN 4471 for the debit card; the credit card PIN was changed last week.",
    "As mentioned earlier the wifi password is Harbor7731! - the guest network one was changed.",
    "the old safe combination 3391 is what mum uses; the alarm code was reset by the installer",
    "Das alte Kennwort Sonne!77 nutze ich noch für die Bank, das für die Arbeit wurde geändert.",
    "previous router password Tulip!2291 is written on the sticker; the admin page was reset yesterday",
    "my old PIN 4471 still works at the ATM, although the app's PIN has been changed",
]
_DEAD_OLD_VALUES = [
    "the old alarm code 1234 was the installer default and has been changed",
    "old PIN 4471 no longer works, I got a letter from the bank",
    "la vieja clave Gato!7712 ya no funciona",
]


@pytest.mark.parametrize("text", _LIVE_OLD_VALUES)
def test_an_old_value_another_values_death_is_said_beside_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _DEAD_OLD_VALUES)
def test_an_old_value_said_dead_passes(text: str) -> None:
    assert find_by_rules(text) is None


# 4. cfaec32 and 2773a32 (government ids): "серия ... номер ..." alone read any paper's series
# and number as a passport's; Serbian's unaccented pasoš read Spanish "pasos" (steps); Russian's
# and Ukrainian's "identification number" named an order's, a parcel's, a payment's, a VIN.
_NOT_A_PERSONS_ID = [
    "аттестат серия 7718 номер 012345",
    "диплом серия 1077 номер 048291",
    "облигация серия 4519 номер 382716 погашена",
    "los pasos AB1234567 y AC7654321 del manual de montaje",
    "идентификационный номер заказа 48291736",
    "ідентифікаційний номер посилки 20450012345678",
    "идентификационный номер платежа 0012345678",
    "VIN (идентификационный номер) XTA21099043512345",
]
_A_PERSONS_ID = [
    "паспорт серия 4519 номер 382716",
    "серия 4519 номер 382716, выдан ОВД района Хамовники",
    "диплом и паспорт серия 4519 номер 382716",
    "pasoša broj 012345678",
]


@pytest.mark.parametrize("text", _NOT_A_PERSONS_ID)
def test_another_papers_number_passes(text: str) -> None:
    assert find_by_rules(text) is None
    assert find_sensitive(text) is None


@pytest.mark.parametrize("text", _A_PERSONS_ID)
def test_a_passport_is_still_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 5. e6224a1 (exports.py) read a column named only for a thing (a building, a locker, a garage,
# an entry, an alarm clock) as a column of its codes: an address list, a school's lockers.
_NUMBER_COLUMNS = [
    "name,building,street,postcode\nTom Reed,1042,Mill Lane,SW1A 1AA\nAna Cruz,2210,High St,EC1A 1BB",
    "student,locker,homeroom\nMia,1123,7B\nLeo,1124,7B",
    "member,locker,shoe size\nMia,1123,38",
    "day,alarm,sleeping hours\nMon,0630,7\nTue,0700,8",
    "date,entry,code_review\n2026-01-03,1042,done",
    "site,garage,zipcode\nNorth,3301,10115",
]
_CODE_COLUMNS = [
    "unit,door_code,notes\n4B,7731,side entrance",
    "| site | keysafe | contact |\n|---|---|---|\n| Mill Lane | 4420 | Tom |",
    "student,locker,locker_combo\nMia,1123,3391",
]


@pytest.mark.parametrize("text", _NUMBER_COLUMNS)
def test_a_column_of_things_numbers_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _CODE_COLUMNS)
def test_a_column_of_codes_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 6. 48e4287 (sent_codes.py) read any 4-8 digits typed or entered within 300 characters after a
# one-time code's word as the code passed on: an amount, a count typed after it was refused.
_TYPED_OTHER_NUMBERS = [
    "the OTP screen timed out twice; then I entered 2500 as the transfer amount",
    "3DS popup appeared, I typed 1200 in the amount field by mistake",
    "OTP login is new this year; in 2024 we entered 1850 orders by hand",
]
_TYPED_CODES = [
    '3DS popup says "Enter the code we sent to +1 ••• 4410". user pasted 582 913 into chat',
    "the OTP screen came up and I typed 441902 as asked",
]


@pytest.mark.parametrize("text", _TYPED_OTHER_NUMBERS)
def test_another_number_typed_after_a_prompt_passes(text: str) -> None:
    assert find_by_rules(text) is None


@pytest.mark.parametrize("text", _TYPED_CODES)
def test_a_code_typed_after_a_prompt_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


# 7. f7d8105's lock words missed the same family as other languages write it: a compound ending
# in the lock's word (Fahrradschloss, cykellåset), Turkish's inflected kilidi, Arabic's قفل,
# Japanese's 鍵. Not a castle's compound, nor 鍵盤 (a keyboard).
_LOCK_CODES_IN_COMPOUNDS = [
    "Fahrradschloss 4-0-7-2",
    "cykellåset är 4 0 7 2",
    "sykkellåsen er 4-0-7-2",
    "bisiklet kilidi 4-0-7-2",
    "قفل الدراجة 4 0 7 2",
    "自転車の鍵の番号は 4 0 7 2",
]
_NOT_LOCK_CODES_IN_COMPOUNDS = [
    "Wasserschloss Führung heute, wir sind Gruppe 2 3 4",
    "鍵盤ハーモニカの練習: 1 2 3 番",
    "cykellåset är trasigt, köpte ett nytt för 3 9 9 kronor",
]


@pytest.mark.parametrize("text", _LOCK_CODES_IN_COMPOUNDS)
def test_a_locks_code_after_a_compound_or_inflected_word_is_found(text: str) -> None:
    assert find_by_rules(text) is not None


@pytest.mark.parametrize("text", _NOT_LOCK_CODES_IN_COMPOUNDS)
def test_other_numbers_after_such_words_pass(text: str) -> None:
    assert find_by_rules(text) is None


# 8. Cost (older, 2495c04's has_iban): each country-code-like start ("is 12", "de 12") searched
# the whole text before it for the word IBAN again: 100,000 characters of "is 12 34 " took
# 20 s of CPU in the rules on main, "the lock is 1 2 3 4 " 7 s. CPU time, not the wall's: the
# machine is shared.
@pytest.mark.parametrize("unit", ["is 12 34 ", "de 12 ab ", "the lock is 1 2 3 4 "])
def test_many_country_code_like_starts_read_in_linear_time(unit: str) -> None:
    text = (unit * (100_000 // len(unit) + 1))[:100_000]
    started = time.process_time()
    find_by_rules(text)
    assert time.process_time() - started < 3.0


# 9. ac75b04 (exports.py, a list under a heading naming codes) read a plan's phases and their
# years as codes; a site's or a flat's code listed there is still found.
@pytest.mark.parametrize(
    "text",
    [
        "Gate codes project timeline:\n- Phase 1: 2024\n- Phase 2: 2025",
        "Door codes rollout plan\n1. Week 1: 1204\n2. Week 2: 1311",
        "Alarm codes audit:\n- Q1: 2024\n- Q2: 2024",
    ],
)
def test_a_plans_steps_under_a_codes_heading_pass(text: str) -> None:
    assert find_by_rules(text) is None


def test_a_flats_codes_under_a_heading_are_still_found() -> None:
    assert find_by_rules("Door codes:\n- Flat 1: 4471\n- Flat 2: 9902") is not None
